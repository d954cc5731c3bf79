//! The lines after a recording's header, one type per `kind`, and their parts.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::{RecordedScreen, RecordedSize};
use crate::model::{ActionData, Node, OutlineName, OutlineQuoted, Role, Tree, Value};
use crate::protocol::{AckStatus, Input, RejectReason, wire_name};

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
    /// The terminal was resized (spawn mode's `resize`): a replay resizes its screen
    /// (format version 2; version 1 wrote it as a `read` line of tool `resize`).
    Resize(RecordedResize),
    /// What the agent looked at. Not replayed.
    Read(RecordedRead),
    /// An input call the bridge refused itself, so nothing of it reached the app
    /// (format version 2). Not replayed: a generated test says it in a comment.
    Refused(Box<RecordedRefusal>),
    /// Something happened to the app (it exited, the bridge restarted it or
    /// reconnected). Not replayed; the next `tree` line is the new session's first.
    App(RecordedApp),
    /// Something the app logged (format version 2). Not replayed: a replay checks
    /// that it logs no error where the session logged none.
    Log(super::RecordedLog),
    /// Nodes that changed in frames the app drew with no input to show (a timer's
    /// tick, data streaming in), since the line before the previous input or resize:
    /// what a replay, which draws only after its inputs, does not reproduce. Not
    /// replayed: `taria-mcp test-from` leaves these nodes out or loosens their
    /// comparison. Added to version 2 without a new version (an older build skips it).
    Unprompted(RecordedUnprompted),
}

impl RecordedLine {
    /// The `kind` of every line this build reads. A version 2 recording may hold
    /// others, from a newer bridge: they are skipped (a kind a replay must follow
    /// comes with a new version).
    pub const KINDS: &'static [&'static str] = &[
        "tree",
        "input",
        "resize",
        "read",
        "refused",
        "app",
        "log",
        "unprompted",
    ];

    /// A `tree` line.
    #[must_use]
    pub fn tree(revision: u64, tree: Tree) -> RecordedLine {
        RecordedLine::Tree(RecordedTree {
            revision,
            tree,
            screen: None,
        })
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
    /// The screen drawn with it ([`RecordedScreen`]); absent when the bridge got none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<RecordedScreen>,
}

/// An `unprompted` line's fields: what changed in the frames the app drew with no
/// input to show, between two inputs (or a resize).
///
/// # Examples
///
/// ```
/// use taria_schema::recording::{RecordedLine, RecordedUnprompted};
///
/// let line: RecordedLine = serde_json::from_str(
///     r#"{"kind":"unprompted","frames":3,"revision":9,"changed":{"cpu":["value"],"log":["value"]}}"#,
/// )?;
/// let RecordedLine::Unprompted(unprompted) = line else { panic!() };
/// assert_eq!(unprompted.changed["cpu"], ["value"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedUnprompted {
    /// How many such frames changed something.
    pub frames: u64,
    /// The bridge's revision of the last of them.
    pub revision: u64,
    /// Each node that changed, by id, with what of it changed: the fields of the
    /// protocol's flat node (`label`, `value`, `state`, `children` when its children
    /// came, went or moved, …; never `bounds`, which a replay does not compare), in
    /// order. A node that came or went shows as its parent's `children` (a root that
    /// came or went is not noted: it has no parent to name).
    pub changed: std::collections::BTreeMap<String, Vec<String>>,
}

impl RecordedUnprompted {
    /// Notes what changed from `before` to `after`, two trees the app drew with no
    /// input between them; `false` when nothing a replay compares did.
    pub fn note(&mut self, before: &Tree, after: &Tree, revision: u64) -> bool {
        let patch = after.diff(before);
        let mut noted = false;
        for update in &patch.updated {
            for field in update.fields.keys().filter(|field| *field != "bounds") {
                // The patch's `childIds`: its children came, went or moved.
                let field = if field == "childIds" {
                    "children"
                } else {
                    field
                };
                let fields = self.changed.entry(update.id.to_string()).or_default();
                if !fields.iter().any(|noted| noted == field) {
                    fields.push(field.to_owned());
                    fields.sort();
                }
                noted = true;
            }
        }
        if noted {
            self.frames += 1;
            self.revision = revision;
        }
        noted
    }
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
    /// For an act: the node the agent aimed it at, as the agent last saw it, which a
    /// replay checks the id still names. Absent for keys and text, for an id the agent
    /// never saw drawn (a row off screen), and in version 1 recordings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<RecordedTarget>,
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
    /// The screen drawn with [`tree`](Self::tree) ([`RecordedScreen`]); absent when
    /// the bridge got none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub screen: Option<RecordedScreen>,
    /// How long the app took to answer, in microseconds: from the bridge taking the
    /// input in turn to send it, to reading the app's ack. Absent when no answer came,
    /// and in recordings of releases before it was kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub answered_in_us: Option<u64>,
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

/// The input as one line, as a replay's errors and snapshots name a step: `act
/// tasks/4 toggle`, `set_value name "Ada"`, `act log scroll down 3`, `press_key
/// enter`, `type_text "ship v0\n"`, `type_text raw "q"`. Ids, actions and keys are
/// written as the outline writes names ([`OutlineName`]: quoted when they hold a
/// space or anything else that could be misread, `act "todo/Call grandma" toggle`),
/// text as the outline quotes it ([`OutlineQuoted`]: nothing in it can end the line,
/// hide or reorder text); a redacted input's secret as `(redacted)`, whatever the
/// input holds.
///
/// # Examples
///
/// ```
/// use taria_schema::protocol::Input;
/// use taria_schema::recording::RecordedInputData;
/// use taria::Action;
/// use taria_schema::protocol::ActionRequest;
///
/// let typed = RecordedInputData::plain(Input::Text { text: "ship v0\n".into(), raw: false });
/// assert_eq!(typed.to_string(), r#"type_text "ship v0\n""#);
/// let toggle = ActionRequest::new("todo/Call grandma", Action::Toggle);
/// let act = RecordedInputData::plain(Input::Act(toggle));
/// assert_eq!(act.to_string(), r#"act "todo/Call grandma" toggle"#);
/// ```
impl fmt::Display for RecordedInputData {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let redacted = self.redacted;
        match &self.input {
            Input::Act(request) => {
                let node = OutlineName(request.target.as_str());
                let action = request.action.as_str();
                if action == "set_value" {
                    write!(f, "set_value {node}")?;
                } else {
                    write!(f, "act {node} {}", OutlineName(action))?;
                }
                match &request.data {
                    _ if redacted => f.write_str(" (redacted)"),
                    Some(ActionData::Value {
                        value: Value::Text(text),
                    }) => write!(f, " {}", OutlineQuoted(text)),
                    Some(ActionData::Value { value }) => write!(f, " {value}"),
                    Some(ActionData::Scroll { direction, amount }) => {
                        write!(f, " {} {amount}", wire_name(direction))
                    }
                    None => Ok(()),
                }
            }
            Input::Key { .. } if redacted => f.write_str("press_key (redacted)"),
            Input::Key { key } => write!(f, "press_key {}", OutlineName(key)),
            Input::Text { .. } if redacted => f.write_str("type_text (redacted)"),
            Input::Text { text, raw: false } => write!(f, "type_text {}", OutlineQuoted(text)),
            Input::Text { text, raw: true } => write!(f, "type_text raw {}", OutlineQuoted(text)),
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

/// What an act was aimed at: the role and label of the node at its id in the tree
/// the agent last saw. An id can name another node later (an item added before it
/// shifts keyed ids); these say which node the agent meant.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedTarget {
    /// The node's core role (a custom role's base).
    pub role: Role,
    /// Its label, if it had one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
}

impl RecordedTarget {
    /// `node`'s role and label.
    #[must_use]
    pub fn of(node: &Node) -> RecordedTarget {
        RecordedTarget {
            role: node.role,
            label: node.label.clone(),
        }
    }
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

/// A `resize` line's fields: spawn mode's terminal got a new size.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedResize {
    /// The tool call's number (see [`RecordedInput::call`]).
    pub call: u64,
    /// The terminal's new size.
    pub size: RecordedSize,
    /// The revision of [`tree`](Self::tree); absent with it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revision: Option<u64>,
    /// The first tree the app drew after the resize (what the agent was shown);
    /// absent when none came before the next input was sent, or within the wait.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<Tree>,
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

/// A `refused` line's fields: an input call that the bridge answered with an error
/// before anything of it was sent (a node not in the tree, an action not offered, a
/// value out of its domain, a key that does not parse), or a batch's step that it
/// refused after the steps before it were sent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedRefusal {
    /// The tool call's number (see [`RecordedInput::call`]).
    pub call: u64,
    /// The tool.
    pub tool: InputTool,
    /// For a batch refused at one of its steps: that step's place in it, from 1 (the
    /// steps before it are `input` lines with the same `call`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    /// The call's arguments, as the agent sent them, a secret's `value`, `text` or
    /// `key` written as `""` (then [`redacted`](Self::redacted) is set).
    #[serde(default)]
    pub arguments: serde_json::Map<String, serde_json::Value>,
    /// The bridge's error code (`not_found`, `action_unsupported`, `out_of_domain`, …).
    pub code: String,
    /// The bridge's message (left out with a secret: it may quote the value).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The arguments carried a secret that was not written.
    #[serde(default, skip_serializing_if = "is_false")]
    pub redacted: bool,
}

/// An `app` line's fields.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedApp {
    /// What happened.
    pub event: AppEvent,
    /// A sentence saying more (why the link broke).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message: Option<String>,
    /// The exit status, when the app exited and the bridge saw it (spawn mode; 1 when
    /// a signal ended it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exit_code: Option<u32>,
    /// The signal that ended it, if one did (spawn mode, Unix).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signal: Option<String>,
    /// What the app printed after leaving its screen, escape sequences stripped (the
    /// last 8 KiB of its output at most): its result, or a panic's message. Spawn
    /// mode; absent when it printed nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
}

impl RecordedApp {
    /// An `app` line of `event` saying only `message`.
    #[must_use]
    pub fn new(event: AppEvent, message: Option<String>) -> RecordedApp {
        RecordedApp {
            event,
            message,
            exit_code: None,
            signal: None,
            output: None,
        }
    }

    /// How it ended, in words: `exit status 101`, `killed by a signal (Killed)`;
    /// `None` when the exit was not seen.
    #[must_use]
    pub fn exit(&self) -> Option<String> {
        match (&self.signal, self.exit_code) {
            (Some(signal), _) => Some(format!("killed by a signal ({signal})")),
            (None, Some(code)) => Some(format!("exit status {code}")),
            (None, None) => None,
        }
    }
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
