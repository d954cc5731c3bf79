//! Recordings of an agent's session (`taria-mcp --record FILE`): one versioned,
//! newline-delimited JSON file, a header line and then one line per tree, input or
//! read, in the order the bridge saw them. Specified in docs/protocol.md
//! ("Recordings"); replayed by `taria::testing`.
//!
//! Write with [`RecordingWriter`] (one `write_all` and flush per line, so a crash
//! loses at most the line being written); read with [`Recording::parse`] or
//! [`Recording::read`], whose errors name the line and what is wrong with it.
//!
//! ```
//! use taria::wire::recording::{
//!     Recording, RecordingHeader, RecordingMode, RecordedLine, RecordedSize, RecordingWriter,
//! };
//! let header = RecordingHeader::new("todo", RecordedSize { width: 80, height: 24 }, RecordingMode::Spawn);
//! let mut writer = RecordingWriter::new(Vec::new(), &header)?;
//! writer.write(&RecordedLine::tree(1, taria::Tree::default()))?;
//! let text = String::from_utf8(writer.into_inner()).unwrap();
//! let recording = Recording::parse(&text)?;
//! assert_eq!(recording.header.app, "todo");
//! assert_eq!(recording.lines.len(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::protocol::{AckStatus, Input, RejectReason};
use crate::model::Tree;

mod log;
mod matching;
mod secrets;

pub use log::RecordedLog;
pub use matching::Match;
pub use secrets::Secrets;

/// The recording format version this build writes (2: `log` lines, which version 1
/// readers do not know).
pub const RECORDING_VERSION: u32 = 2;

/// The recording format versions this build reads.
pub const READABLE_RECORDING_VERSIONS: &[u32] = &[1, 2];

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

/// One line after the header, tagged by `kind`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
#[non_exhaustive]
pub enum RecordedLine {
    /// A whole tree the agent's session saw without sending an input: the first one,
    /// and the first one again after the app restarted or the bridge reconnected.
    Tree(RecordedTree),
    /// One input delivered to the app (each step of a batch has its own line), its
    /// ack, and the tree drawn after it. What a replay sends.
    Input(Box<RecordedInput>),
    /// What the agent looked at. Not replayed.
    Read(RecordedRead),
    /// Something happened to the app (it exited, the bridge restarted it or
    /// reconnected). Not replayed; the next `tree` line is the new session's first.
    App(RecordedApp),
    /// Something the app logged (format version 2). Not replayed: a replay checks
    /// that it logs no error where the session logged none.
    Log(RecordedLog),
}

impl RecordedLine {
    /// A `tree` line.
    #[must_use]
    pub fn tree(revision: u64, tree: Tree) -> RecordedLine {
        RecordedLine::Tree(RecordedTree { revision, tree })
    }
}

/// A `tree` line's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedTree {
    /// The bridge's revision of this tree (`taria-mcp` counts its own: they increase
    /// across reconnects and are not the app's).
    pub revision: u64,
    /// The tree, in the protocol's JSON form.
    pub tree: Tree,
}

/// An `input` line's fields.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedInput {
    /// Counts the recording's inputs, from 1.
    pub step: u64,
    /// Counts the agent's tool calls that sent or read something, from 1; a batch's
    /// steps share their call's number.
    pub call: u64,
    /// The tool that sent it.
    pub tool: InputTool,
    /// The input as the bridge sent it (without its secret, when redacted).
    pub input: RecordedInputData,
    /// The app's answer; absent when none came (the app exited or the link broke
    /// first: whether it took effect is unknown).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ack: Option<RecordedAck>,
    /// The revision of [`tree`](Self::tree); absent with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    /// The tree the app drew after the input: for a delivered input the first one
    /// stamped with it (the tree the agent's changes are computed from), otherwise
    /// the newest the bridge had when the ack came. Absent when the bridge had none
    /// (the app went away).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<Tree>,
}

/// The tool an input came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputTool {
    /// `act`.
    Act,
    /// `set_value`.
    SetValue,
    /// `type_text`.
    TypeText,
    /// `press_key`.
    PressKey,
    /// A step of `batch`.
    Batch,
}

/// A recorded input: the protocol-v1 [`Input`] (flat: `kind` `act`, `key` or `text`
/// with its fields), plus `redacted` when its secret was left out.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedInputData {
    /// The input. When [`redacted`](Self::redacted): an `act` without its `value`,
    /// a `text` with empty text, a `key` with an empty key.
    #[serde(flatten)]
    pub input: Input,
    /// The input carried a secret that was not written: a `set_value` on a redacted
    /// node, or text or a character key sent while the focused node was redacted. A
    /// replay has to supply it.
    #[serde(default, skip_serializing_if = "is_false")]
    pub redacted: bool,
}

impl RecordedInputData {
    /// An input written as is.
    #[must_use]
    pub fn plain(input: Input) -> RecordedInputData {
        RecordedInputData {
            input,
            redacted: false,
        }
    }
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_false(b: &bool) -> bool {
    !*b
}

/// The app's `ack`, without its `seq`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedAck {
    /// What happened.
    pub status: AckStatus,
    /// Why, for anything but `delivered`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<RejectReason>,
    /// The app's sentence, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// A `read` line's fields: a tool call that only looked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedRead {
    /// The tool call's number (see [`RecordedInput::call`]).
    pub call: u64,
    /// The tool (`read_tree`, `find`, `describe`, `batch` for a batch's closing read, …).
    pub tool: String,
    /// The call's arguments, as the agent sent them.
    #[serde(default)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
    /// The revision of the tree it read.
    pub revision: u64,
}

/// An `app` line's fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedApp {
    /// What happened.
    pub event: AppEvent,
    /// A sentence saying more (an exit status, why the link broke).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
}

/// What happened to the app, in an `app` line.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum AppEvent {
    /// The app exited or its connection closed.
    Exited,
    /// The bridge restarted the app (reserved: this taria-mcp never restarts one).
    Restarted,
    /// The bridge connected to the app again (attach mode).
    Reconnected,
}

/// A recording read back: its header and its lines, in file order (the line at
/// index `i` is line `i + 2` of the file, blank lines aside).
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    /// Line 1.
    pub header: RecordingHeader,
    /// The rest.
    pub lines: Vec<RecordedLine>,
}

impl Recording {
    /// Reads a recording from its text. A last line without its newline that does not
    /// parse is reported as cut off (the bridge stopped while writing it).
    ///
    /// # Errors
    /// When the text is not a recording, is of a version this build does not read
    /// ([`READABLE_RECORDING_VERSIONS`]), or a line is malformed; the error names the
    /// line.
    pub fn parse(text: &str) -> Result<Recording, RecordingError> {
        let ends_with_newline = text.ends_with('\n');
        let mut numbered = text
            .split('\n')
            .enumerate()
            .map(|(index, line)| (index + 1, line.strip_suffix('\r').unwrap_or(line)))
            .filter(|(_, line)| !line.trim().is_empty())
            .peekable();
        let Some((first_number, first)) = numbered.next() else {
            return Err(RecordingError::Empty);
        };
        let header = parse_header(first_number, first)?;
        let mut lines = Vec::new();
        while let Some((number, line)) = numbered.next() {
            let last = numbered.peek().is_none();
            match serde_json::from_str::<RecordedLine>(line) {
                Ok(parsed) => lines.push(parsed),
                Err(_) if last && !ends_with_newline => {
                    return Err(RecordingError::CutOff { line: number });
                }
                Err(error) => {
                    return Err(RecordingError::Malformed {
                        line: number,
                        error: error.to_string(),
                    });
                }
            }
        }
        Ok(Recording { header, lines })
    }

    /// Reads the recording at `path`.
    ///
    /// # Errors
    /// When the file cannot be read, or [`Recording::parse`] refuses its text.
    pub fn read(path: impl AsRef<Path>) -> Result<Recording, RecordingError> {
        let path = path.as_ref();
        let text = std::fs::read_to_string(path).map_err(|error| RecordingError::Io {
            path: path.to_owned(),
            error,
        })?;
        Recording::parse(&text)
    }

    /// The input lines, in order.
    pub fn inputs(&self) -> impl Iterator<Item = &RecordedInput> {
        self.lines.iter().filter_map(|line| match line {
            RecordedLine::Input(input) => Some(&**input),
            _ => None,
        })
    }

    /// The `log` lines, in order.
    pub fn logs(&self) -> impl Iterator<Item = &RecordedLog> {
        self.lines.iter().filter_map(|line| match line {
            RecordedLine::Log(log) => Some(log),
            _ => None,
        })
    }

    /// The lines as a replay takes them, in order: reads, inputs, and where the app
    /// went away (an `app` line: it exited, was restarted, or the bridge reconnected)
    /// the tree it showed when it came back ([`ReplayLine::CameBack`]), or an input
    /// with no such tree before it ([`ReplayLine::Gone`]). What `taria::testing`'s
    /// replay and `taria-mcp test-from` both walk.
    pub fn replay_lines(&self) -> impl Iterator<Item = ReplayLine<'_>> {
        let mut away = false;
        let mut trees = 0;
        self.lines.iter().filter_map(move |line| match line {
            RecordedLine::Read(read) => Some(ReplayLine::Read(read)),
            RecordedLine::Log(_) => None,
            RecordedLine::App(_) => {
                away = true;
                None
            }
            // The first tree is the session's start, not a return.
            RecordedLine::Tree(recorded) => {
                trees += 1;
                (trees > 1 && std::mem::take(&mut away))
                    .then_some(ReplayLine::CameBack(&recorded.tree))
            }
            RecordedLine::Input(input) if away => Some(ReplayLine::Gone(input)),
            RecordedLine::Input(input) => Some(ReplayLine::Input(input)),
        })
    }

    /// The first `tree` line's tree: what the app showed before the first input.
    #[must_use]
    pub fn first_tree(&self) -> Option<&Tree> {
        self.lines.iter().find_map(|line| match line {
            RecordedLine::Tree(recorded) => Some(&recorded.tree),
            _ => None,
        })
    }
}

/// A recording's line as a replay takes it ([`Recording::replay_lines`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReplayLine<'r> {
    /// What the agent looked at: not replayed.
    Read(&'r RecordedRead),
    /// An input to send again.
    Input(&'r RecordedInput),
    /// The tree the app showed when it came back after an `app` line: a replay goes
    /// on only if its app shows the same (a reconnect to the same app), not after a
    /// restart that lost the app's state.
    CameBack(&'r Tree),
    /// An input after an `app` line with no tree showing the app back: a replay runs
    /// one app, and stops here.
    Gone(&'r RecordedInput),
}

fn parse_header(number: usize, line: &str) -> Result<RecordingHeader, RecordingError> {
    let not_a_recording = |why: &str| RecordingError::NotARecording {
        line: number,
        why: why.to_owned(),
    };
    let value: serde_json::Value =
        serde_json::from_str(line).map_err(|_| not_a_recording("the first line is not JSON"))?;
    let Some(object) = value.as_object() else {
        return Err(not_a_recording("the first line is not a JSON object"));
    };
    let Some(version) = object.get("taria_recording") else {
        return Err(not_a_recording(
            "the first line has no `taria_recording` version",
        ));
    };
    let Some(version) = version.as_u64() else {
        return Err(not_a_recording("`taria_recording` is not a version number"));
    };
    if !READABLE_RECORDING_VERSIONS
        .iter()
        .any(|&readable| u64::from(readable) == version)
    {
        return Err(RecordingError::UnsupportedVersion { version });
    }
    serde_json::from_value(value).map_err(|error| RecordingError::Malformed {
        line: number,
        error: error.to_string(),
    })
}

/// Why a recording could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RecordingError {
    /// The file could not be read.
    #[error("cannot read the recording {}: {error}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// Why.
        error: io::Error,
    },
    /// There is nothing in it.
    #[error(
        "the recording is empty (not even a header line): the bridge never reached the app, or was not started with --record"
    )]
    Empty,
    /// The first line is not a recording's header.
    #[error(
        "not a taria recording: line {line}: {why} (a recording starts with {{\"taria_recording\":1,...}})"
    )]
    NotARecording {
        /// The header's line number (1 unless blank lines come first).
        line: usize,
        /// What is wrong with it.
        why: String,
    },
    /// A format version this build does not read.
    #[error("recording format version {version} is not supported: this build of taria reads version{} {}; use the taria release that wrote it", if READABLE_RECORDING_VERSIONS.len() == 1 { "" } else { "s" }, readable_versions())]
    UnsupportedVersion {
        /// The version in the header.
        version: u64,
    },
    /// A line that is not a recording line of a known kind.
    #[error("line {line} of the recording is malformed: {error}")]
    Malformed {
        /// Its line number, from 1.
        line: usize,
        /// What is wrong.
        error: String,
    },
    /// The last line stops mid-way: the bridge was stopped while writing it.
    #[error(
        "line {line}, the recording's last, is cut off (the bridge stopped while writing it); delete that line to use the rest"
    )]
    CutOff {
        /// Its line number, from 1.
        line: usize,
    },
}

fn readable_versions() -> String {
    READABLE_RECORDING_VERSIONS
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Writes a recording: the header first, then one line at a time, each with one
/// `write_all` and a flush (a crash loses at most the line being written).
#[derive(Debug)]
pub struct RecordingWriter<W: Write> {
    out: W,
    buffer: Vec<u8>,
}

impl RecordingWriter<std::fs::File> {
    /// Creates (or truncates) the file at `path` and writes the header.
    ///
    /// # Errors
    /// When the file cannot be created or written.
    pub fn create(path: impl AsRef<Path>, header: &RecordingHeader) -> io::Result<Self> {
        RecordingWriter::new(std::fs::File::create(path)?, header)
    }
}

impl<W: Write> RecordingWriter<W> {
    /// Writes the header to `out`.
    ///
    /// # Errors
    /// When `out` refuses it.
    pub fn new(out: W, header: &RecordingHeader) -> io::Result<Self> {
        let mut writer = RecordingWriter {
            out,
            buffer: Vec::new(),
        };
        writer.write_value(header)?;
        Ok(writer)
    }

    /// Writes one line.
    ///
    /// # Errors
    /// When the underlying writer fails.
    pub fn write(&mut self, line: &RecordedLine) -> io::Result<()> {
        self.write_value(line)
    }

    fn write_value(&mut self, value: &impl Serialize) -> io::Result<()> {
        self.buffer.clear();
        serde_json::to_writer(&mut self.buffer, value)?;
        self.buffer.push(b'\n');
        self.out.write_all(&self.buffer)?;
        self.out.flush()
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

#[cfg(test)]
mod tests;
