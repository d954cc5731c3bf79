//! A recording's lines as a replay walks them ([`Recording::replay_lines`]): what
//! `taria::testing`'s `Replay` and `taria-mcp test-from` both follow.

use super::{
    RecordedApp, RecordedInput, RecordedLine, RecordedRead, RecordedRefusal, RecordedSize,
    Recording,
};
use crate::model::Tree;

/// A recording's line as a replay takes it ([`Recording::replay_lines`]).
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReplayLine<'r> {
    /// What the agent looked at: not replayed.
    Read(&'r RecordedRead),
    /// An input to send again.
    Input(&'r RecordedInput),
    /// The terminal got a new size: a replay resizes its screen, then compares the
    /// tree the app drew at that size when one was recorded.
    Resize {
        /// The new size.
        size: RecordedSize,
        /// The first tree drawn at it, when recorded (never in version 1).
        tree: Option<&'r Tree>,
    },
    /// An input call the bridge refused before sending anything: not replayed.
    Refused(&'r RecordedRefusal),
    /// The app went away here (an `app` line: it exited, was restarted, or the bridge
    /// reconnected); what follows is [`CameBack`](ReplayLine::CameBack) or
    /// [`Gone`](ReplayLine::Gone), or nothing.
    Away(&'r RecordedApp),
    /// The tree the app showed when it came back after an `app` line: a replay goes
    /// on only if its app shows the same (a reconnect to the same app), not after a
    /// restart that lost the app's state.
    CameBack(&'r Tree),
    /// An input after an `app` line with no tree showing the app back: a replay runs
    /// one app, and stops here.
    Gone(&'r RecordedInput),
}

impl Recording {
    /// The lines as a replay takes them, in order: reads, inputs, resizes (a version 1
    /// `read` line of tool `resize` included), refusals, and where the app went away
    /// ([`ReplayLine::Away`]) the tree it showed when it came back
    /// ([`ReplayLine::CameBack`]), or an input with no such tree before it
    /// ([`ReplayLine::Gone`]). What `taria::testing`'s replay and `taria-mcp
    /// test-from` both walk.
    pub fn replay_lines(&self) -> impl Iterator<Item = ReplayLine<'_>> {
        let mut away = false;
        let mut trees = 0;
        self.lines.iter().filter_map(move |line| match line {
            RecordedLine::Read(read) if read.tool == "resize" => {
                resized_by(read).map(|size| ReplayLine::Resize { size, tree: None })
            }
            RecordedLine::Read(read) => Some(ReplayLine::Read(read)),
            RecordedLine::App(app) => {
                away = true;
                Some(ReplayLine::Away(app))
            }
            // The first tree is the session's start, not a return.
            RecordedLine::Tree(recorded) => {
                trees += 1;
                (trees > 1 && std::mem::take(&mut away))
                    .then_some(ReplayLine::CameBack(&recorded.tree))
            }
            // A resize of a terminal whose app is gone did nothing to it.
            RecordedLine::Resize(_) if away => None,
            RecordedLine::Resize(resize) => Some(ReplayLine::Resize {
                size: resize.size,
                tree: resize.tree.as_ref(),
            }),
            RecordedLine::Refused(refusal) => Some(ReplayLine::Refused(refusal)),
            RecordedLine::Log(_) | RecordedLine::Unprompted(_) => None,
            RecordedLine::Input(input) if away => Some(ReplayLine::Gone(input)),
            RecordedLine::Input(input) => Some(ReplayLine::Input(input)),
        })
    }
}

/// The size a version 1 `read` line of tool `resize` asked for (its `cols` and
/// `rows`); `None` when they are not sizes.
fn resized_by(read: &RecordedRead) -> Option<RecordedSize> {
    let cells = |name: &str| {
        read.arguments
            .get(name)
            .and_then(serde_json::Value::as_u64)
            .and_then(|n| u16::try_from(n).ok())
    };
    Some(RecordedSize {
        width: cells("cols")?,
        height: cells("rows")?,
    })
}
