//! The protocol (v1) between an app and its consumer: newline-delimited JSON, one
//! object per line, tagged on `type`, specified in `docs/protocol.md`. The app sends
//! [`AppMessage`]s, the consumer [`BridgeMessage`]s; an [`Input`] (an `act` is an
//! [`ActionRequest`], a `key` a [`KeyChord`] as text) is answered by one `ack`
//! ([`AckStatus`], [`RejectReason`]); the app's log reaches a bridge that asks for it
//! as `log` lines ([`LogEntry`]). Evolution is additive: unknown fields are ignored; an
//! unknown `type` is answered with an `error` line ([`ErrorCode`]) and the connection
//! stays up.

mod keys;
mod log;
mod styles;

pub use crate::model::{ActionData, ActionRequest};
pub use keys::{KEY_GRAMMAR, KeyChord, KeyParseError};
pub use log::{LogEntry, LogLevel, MAX_LOG_FIELD_BYTES, MAX_LOG_FIELDS, MAX_LOG_MESSAGE_BYTES};
pub use styles::{CellStyle, ScreenStyles, StyledRun};

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::mirror::Patch;
use crate::model::{ActionName, Tree, hash_id_text};

/// The protocol version this build speaks.
pub const PROTOCOL_VERSION: u32 = 1;

/// The longest line either side accepts, in bytes (without the newline). Longer lines
/// are answered with an error and skipped.
pub const MAX_LINE_BYTES: usize = 1024 * 1024;

/// The longest text one `text` input may type, in characters.
pub const MAX_TEXT_CHARS: usize = 4096;

/// The most inputs queued for the app at once; more are answered `dropped`.
pub const INPUT_QUEUE_CAPACITY: usize = 256;

/// A message from the app to the bridge.
///
/// # Examples
///
/// A consumer reads each line the app sends as one message:
///
/// ```
/// use taria_schema::protocol::{AckStatus, AppMessage, RejectReason};
///
/// let line = r#"{"type":"ack","seq":7,"status":"rejected","reason":"unknown_node","message":"no node `tasks/9`"}"#;
/// let AppMessage::Ack { seq, status, reason, .. } = serde_json::from_str(line)? else {
///     panic!("not an ack");
/// };
/// assert_eq!((seq, status, reason), (7, AckStatus::Rejected, Some(RejectReason::UnknownNode)));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[non_exhaustive]
pub enum AppMessage {
    /// The first line on a connection.
    Hello {
        /// The protocol version the app speaks.
        v: u32,
        /// The app's label.
        app: String,
        /// The app's process id.
        pid: u32,
        /// The taria version the app was built with.
        taria: String,
        /// It sends its screen after each tree and patch when the bridge's `hello`
        /// asks (`screens`). Added in this release, additive: an older app leaves it
        /// out and sends a screen only on `get_screen`.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        screens: bool,
        /// The app captures its `tracing` events (`taria::logs::layer()` is in its
        /// subscriber): a bridge that says `logs: true` in its `hello` gets them.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        logs: bool,
    },
    /// The whole tree: on connect, on `get_tree`, and whenever the bridge fell behind.
    Tree {
        /// Counts every tree and patch sent on this connection, from 1.
        revision: u64,
        /// The newest input whose effects this tree shows (0: none yet).
        input: u64,
        /// The tree.
        tree: Tree,
    },
    /// What changed since the previous revision.
    Patch {
        /// This revision (always the previous one plus 1).
        revision: u64,
        /// The newest input whose effects this tree shows.
        input: u64,
        /// The changes.
        #[serde(flatten)]
        patch: Patch,
    },
    /// The one final answer to an input.
    Ack {
        /// The input's sequence number.
        seq: u64,
        /// What happened.
        status: AckStatus,
        /// Why, for anything but `delivered`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<RejectReason>,
        /// A sentence for the agent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        message: Option<String>,
    },
    /// The rendered screen, on `get_screen`.
    Screen {
        /// The revision of the tree drawn in the same frame.
        revision: u64,
        /// Screen width in columns.
        cols: u16,
        /// One string per row.
        rows: Vec<String>,
        /// Its colours and attributes, when `get_screen` asked for `styles` (absent
        /// from an app of an earlier release, and when the line would be longer than
        /// [`MAX_LINE_BYTES`] with them).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        styles: Option<ScreenStyles>,
    },
    /// One event the app logged, sent only to a bridge that asked (`logs: true` in
    /// its `hello`), before the acks and trees that follow it.
    Log {
        /// The entry.
        #[serde(flatten)]
        entry: LogEntry,
        /// How many entries the app dropped just before this one (its ring was full:
        /// it logged faster than the bridge read); left out when none.
        #[serde(default, skip_serializing_if = "is_zero")]
        dropped: u64,
    },
    /// Something about the bridge's last line was wrong; the connection stays up
    /// (except for `busy`, which closes it).
    Error {
        /// What kind of problem.
        code: ErrorCode,
        /// A sentence saying what to do.
        message: String,
    },
}

/// A message from the bridge to the app.
///
/// # Examples
///
/// An `act` input decodes straight into the typed request:
///
/// ```
/// use taria_schema::Action;
/// use taria_schema::protocol::{BridgeMessage, Input};
///
/// let line = r#"{"type":"input","seq":4,"kind":"act","node":"tasks/3","action":"toggle"}"#;
/// let BridgeMessage::Input { seq, input: Input::Act(request) } = serde_json::from_str(line)? else {
///     panic!("not an act");
/// };
/// assert_eq!((seq, request.target.as_str()), (4, "tasks/3"));
/// assert_eq!(request.action.core(), Some(Action::Toggle));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
// Not `non_exhaustive`: the app runtime (`taria`) matches every variant, so that a new
// one cannot go unhandled there; the schema and the runtime are released together.
pub enum BridgeMessage {
    /// Optional first line: who is connecting.
    Hello {
        /// The protocol version the bridge speaks.
        v: u32,
        /// The bridge's name and version.
        #[serde(default)]
        client: String,
        /// Asks for the app's screen now and after each tree and patch (a `screen`
        /// line with the same revision): a recording keeps the screen drawn with
        /// each tree. An app that says `screens` in its own hello does it.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        screens: bool,
        /// Send the app's log entries (`log` lines) on this connection. An app sends
        /// none to a bridge that does not ask, so an older bridge never sees a line it
        /// does not know.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        logs: bool,
    },
    /// An input for the app; answered by exactly one `ack`.
    Input {
        /// A number the bridge chooses, increasing on the connection.
        seq: u64,
        /// The input.
        #[serde(flatten)]
        input: Input,
    },
    /// Asks for the whole tree.
    GetTree {},
    /// Asks for the rendered screen text.
    GetScreen {
        /// Asks for its colours and attributes too (an app of an earlier release
        /// ignores it and sends the text alone).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        styles: bool,
    },
}

/// An input: an action on a node, a key chord, or text to type.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
// Not `non_exhaustive`: the app runtime (`taria`) matches every variant, so that a new
// one cannot go unhandled there; the schema and the runtime are released together.
pub enum Input {
    /// Perform an action on a node: decoded straight into the typed request (on the
    /// wire: `node`, `action`, `value`, `direction`, `amount`, `token`, flat).
    Act(ActionRequest),
    /// Press a key chord (grammar in [`KEY_GRAMMAR`]).
    Key {
        /// The chord, e.g. `ctrl+s`.
        key: String,
    },
    /// Type text, one key press per character (`\n` presses enter). Refused
    /// (`no_text_input`, nothing pressed) when no focused node takes text, unless
    /// `raw`.
    Text {
        /// The text.
        text: String,
        /// Press the keys wherever they land, with no text input focused.
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        raw: bool,
    },
}

/// The final status of an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AckStatus {
    /// The app took it: a handler ran, or the keys reached its input path.
    Delivered,
    /// Valid, but nothing in the app takes it (no handler, no key fallback).
    Ignored,
    /// Refused before reaching the app, with a reason.
    Rejected,
    /// The input queue was full.
    Dropped,
}

/// Why an input was not delivered.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum RejectReason {
    /// No node has that id in the tree the app last drew.
    UnknownNode,
    /// The node does not offer that action now.
    ActionNotOffered,
    /// The node is disabled.
    Disabled,
    /// The value does not fit the node's `valueSchema`, or a required value is missing.
    OutOfDomain,
    /// The node changed identity since the bridge read it.
    StaleTarget,
    /// A key chord that does not parse, or text too long.
    InvalidInput,
    /// The app's handler refused it (the message is the app's own words).
    HandlerRejected,
    /// The widget that took it refused it (the message is the widget's words, e.g.
    /// taria-widgets' `select one of the tabs`, not the app author's).
    WidgetRejected,
    /// Nothing in the app takes it.
    NoRoute,
    /// A widget took it, but the app rebuilds that widget's state each frame, so the
    /// next frame undid it (status `ignored`).
    StateRebuilt,
    /// The input queue was full.
    QueueFull,
    /// Text to type (not `raw`) while no focused node takes text.
    NoTextInput,
}

/// What an `error` line is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// A line longer than [`MAX_LINE_BYTES`]; it was skipped.
    LineTooLong,
    /// A line that is not UTF-8.
    InvalidUtf8,
    /// A line that is not a JSON object of a known shape.
    MalformedJson,
    /// A JSON object whose `type` this app does not know.
    UnknownType,
    /// Another client is connected; this connection is closed.
    Busy,
    /// The peer runs as another user; this connection is closed.
    PermissionDenied,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// A unit enum's name on the wire, as serde writes it (`rejected`, `unknown_node`,
/// `down`); empty for a value that is not written as a string.
#[must_use]
pub fn wire_name(value: &(impl Serialize + ?Sized)) -> String {
    serde_json::to_value(value)
        .ok()
        .and_then(|v| v.as_str().map(str::to_owned))
        .unwrap_or_default()
}

/// A short fingerprint of a node's identity (role, custom role, label, and the
/// actions it offers or declares a key for), which a bridge sends with an action on
/// a positional id so the app can refuse it if the node at that id is no longer the
/// one the agent saw. An action offered only with focus (a text field's `submit`)
/// has its key declared either way, so focusing the node keeps its token.
#[must_use]
pub fn target_token(node: &crate::model::Node) -> String {
    token_from_parts(
        node.role.name(),
        node.custom_role.as_deref().unwrap_or(""),
        node.label.as_deref().unwrap_or(""),
        node.actions
            .iter()
            .map(ActionName::as_str)
            .chain(node.keys.keys().map(String::as_str)),
    )
}

/// [`target_token`] from a node's parts (the app computes it from its arena): its
/// actions (offered and keyed) in any order, repeats allowed.
#[doc(hidden)]
pub fn token_from_parts<'a>(
    role: &str,
    custom_role: &str,
    label: &str,
    actions: impl Iterator<Item = &'a str>,
) -> String {
    // Each part with its length first, so no label can pass for a label plus an
    // action (a separator character could be in the label itself).
    let mut text = String::new();
    for part in [role, custom_role, label] {
        let _ = write!(text, "{}:{part}", part.len());
    }
    // In one order whatever the order given, each once.
    let mut actions: Vec<&str> = actions.collect();
    actions.sort_unstable();
    actions.dedup();
    for action in actions {
        let _ = write!(text, "{}:{action}", action.len());
    }
    format!("{:016x}", hash_id_text(text.as_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ScrollDirection, Value};

    /// The bug: parts were joined with `\u{1f}`, so a label holding it could pass for
    /// a shorter label plus an action, and a stale positional id went through.
    #[test]
    fn a_token_tells_a_label_from_a_label_and_an_action() {
        let joined = token_from_parts("button", "", "Pay\u{1f}activate", std::iter::empty());
        let split = token_from_parts("button", "", "Pay", ["activate"].into_iter());
        assert_ne!(joined, split);
        let custom = token_from_parts("button", "x\u{1f}", "", std::iter::empty());
        let label = token_from_parts("button", "x", "\u{1f}", std::iter::empty());
        assert_ne!(custom, label);
    }

    #[test]
    fn inputs_are_flat_json_objects() {
        let line =
            r#"{"type":"input","seq":4,"kind":"act","node":"tasks/3","action":"toggle","extra":1}"#;
        let message: BridgeMessage = serde_json::from_str(line).unwrap();
        assert_eq!(
            message,
            BridgeMessage::Input {
                seq: 4,
                input: Input::Act(ActionRequest::new("tasks/3", crate::model::Action::Toggle))
            }
        );
        let key: BridgeMessage =
            serde_json::from_str(r#"{"type":"input","seq":5,"kind":"key","key":"ctrl+s"}"#)
                .unwrap();
        assert!(matches!(
            key,
            BridgeMessage::Input {
                seq: 5,
                input: Input::Key { .. }
            }
        ));
        assert!(serde_json::from_str::<BridgeMessage>(r#"{"type":"get_tree"}"#).is_ok());
    }

    /// An `act` decodes into the typed request and encodes back to the same fields.
    #[test]
    fn an_act_decodes_into_a_typed_request_and_back() {
        let lines = [
            r#"{"type":"input","seq":1,"kind":"act","node":"volume","action":"set_value","value":3.0,"token":"00ab"}"#,
            r#"{"type":"input","seq":2,"kind":"act","node":"log","action":"scroll","direction":"up","amount":4}"#,
            r#"{"type":"input","seq":3,"kind":"act","node":"log","action":"scroll"}"#,
            r#"{"type":"input","seq":4,"kind":"act","node":"tasks/1","action":"archive"}"#,
        ];
        let requests: Vec<ActionRequest> = lines
            .iter()
            .map(|line| match serde_json::from_str(line).unwrap() {
                BridgeMessage::Input {
                    input: Input::Act(request),
                    ..
                } => request,
                other => panic!("not an act: {other:?}"),
            })
            .collect();
        assert_eq!(
            requests[0].action,
            ActionName::Core(crate::model::Action::SetValue)
        );
        assert_eq!(requests[0].value(), Some(&Value::Number(3.0)));
        assert_eq!(requests[0].token.as_deref(), Some("00ab"));
        assert_eq!(requests[1].scroll(), Some((ScrollDirection::Up, 4)));
        assert_eq!(requests[2].scroll(), Some((ScrollDirection::Down, 1)));
        assert_eq!(requests[3].action, ActionName::Custom("archive".into()));
        for (line, request) in lines.iter().zip(requests) {
            let seq = serde_json::from_str::<serde_json::Value>(line).unwrap()["seq"]
                .as_u64()
                .unwrap();
            let again = serde_json::to_string(&BridgeMessage::Input {
                seq,
                input: Input::Act(request),
            })
            .unwrap();
            assert_eq!(
                serde_json::from_str::<serde_json::Value>(&again).unwrap(),
                serde_json::from_str::<serde_json::Value>(line).unwrap()
            );
        }
    }

    #[test]
    fn acks_serialize_compactly() {
        let ack = AppMessage::Ack {
            seq: 9,
            status: AckStatus::Delivered,
            reason: None,
            message: None,
        };
        assert_eq!(
            serde_json::to_string(&ack).unwrap(),
            r#"{"type":"ack","seq":9,"status":"delivered"}"#
        );
    }
}
