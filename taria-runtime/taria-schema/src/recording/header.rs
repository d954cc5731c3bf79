//! Line 1 of a recording: what was recorded, by which bridge, at which size.

use serde::{Deserialize, Serialize};

use super::RECORDING_VERSION;
use crate::model::Tree;

/// Line 1 of a recording: what was recorded, and how.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordingHeader {
    /// The format version ([`RECORDING_VERSION`] when written by this build); its
    /// presence is what marks the file as a recording.
    pub taria_recording: u32,
    /// The app's label, from its `hello`.
    pub app: String,
    /// The terminal the app drew on: the pty's size in spawn mode, the first tree's
    /// root bounds in attach mode ([`RecordedSize::of_tree`]).
    pub size: RecordedSize,
    /// The taria version of the bridge that wrote it.
    pub taria: String,
    /// Whether the bridge started the app (`spawn`) or attached to a running one.
    pub mode: RecordingMode,
    /// Whether the app sent its log (it captures it with `taria::logs`): then the
    /// `log` lines are all it logged at its layer's level, and a replay can tell an
    /// error it logs now from one the session logged. Absent (`false`) in version 1.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub logs: bool,
}

impl RecordingHeader {
    /// A header for this build's format version and crate version.
    #[must_use]
    pub fn new(app: impl Into<String>, size: RecordedSize, mode: RecordingMode) -> Self {
        RecordingHeader {
            taria_recording: RECORDING_VERSION,
            app: app.into(),
            size,
            taria: env!("CARGO_PKG_VERSION").to_owned(),
            mode,
            logs: false,
        }
    }

    /// The same header, saying whether the app sent its log.
    #[must_use]
    pub fn with_logs(mut self, logs: bool) -> Self {
        self.logs = logs;
        self
    }
}

/// A terminal size in cells.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedSize {
    /// Columns.
    pub width: u16,
    /// Rows.
    pub height: u16,
}

impl RecordedSize {
    /// The widest screen a replay draws: `taria-mcp`'s own limit for a pty's columns.
    pub const MAX_WIDTH: u16 = 1000;
    /// The tallest screen a replay draws: `taria-mcp`'s own limit for a pty's rows.
    pub const MAX_HEIGHT: u16 = 500;

    /// Whether a replay can draw at this size: at most [`MAX_WIDTH`](Self::MAX_WIDTH)
    /// × [`MAX_HEIGHT`](Self::MAX_HEIGHT) (a forged 65535 × 65535 header would make a
    /// test backend allocate billions of cells); else why not.
    ///
    /// # Errors
    /// The sentence saying the size is too large, and the limits.
    pub fn replayable(self) -> Result<(), String> {
        if self.width <= Self::MAX_WIDTH && self.height <= Self::MAX_HEIGHT {
            return Ok(());
        }
        Err(format!(
            "the recording's header says the screen was {}x{}; a replay draws at most {}x{} \
             (taria-mcp's own limits for a terminal): fix the header's `size`",
            self.width,
            self.height,
            Self::MAX_WIDTH,
            Self::MAX_HEIGHT
        ))
    }

    /// The smallest size holding every root of `tree` (its right and bottom edges):
    /// the terminal size, for an app whose roots fill the screen.
    #[must_use]
    pub fn of_tree(tree: &Tree) -> RecordedSize {
        tree.roots
            .iter()
            .fold(RecordedSize::default(), |size, root| RecordedSize {
                width: size
                    .width
                    .max(root.bounds.x.saturating_add(root.bounds.width)),
                height: size
                    .height
                    .max(root.bounds.y.saturating_add(root.bounds.height)),
            })
    }
}

/// How the recording bridge reached the app.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RecordingMode {
    /// `taria-mcp spawn`: the bridge ran the app in a pty of the header's size.
    Spawn,
    /// `taria-mcp --app LABEL`: the bridge attached to a running app.
    Attach,
}
