//! The input tools: `act`, `set_value`, `type_text`, `press_key`. Each is checked
//! against the last tree before it is sent, then answered with the app's ack and the
//! tree the app drew after handling it.

use std::fmt::Write as _;
use std::str::FromStr as _;
use std::sync::Arc;
use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria::wire::{
    AckStatus, ActionData, ActionRequest, Input, OutlineName, OutlineQuoted, RejectReason,
    target_token,
};
use taria::{Action, ActionName, KEY_GRAMMAR, KeyChord, Node, ScrollDirection, Tree};

mod check;
pub(crate) mod typing;

use super::read::find;
use crate::errors::{Code, ToolError};
use crate::link::{Ack, Link, Sent, ack_bound};
use crate::order::Turn;

/// The most times `press_key` repeats a key.
pub(crate) const MAX_REPEAT: u32 = 64;

/// `act` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct ActArgs {
    // The node's id (its name says it: no description in the schema).
    pub(crate) node: String,
    /// One it offers.
    pub(crate) action: String,
    /// For `set_value`.
    #[serde(default)]
    #[schemars(extend("anyOf" = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]))]
    pub(crate) value: Option<Json>,
    /// For scroll (default down).
    #[serde(default, deserialize_with = "super::args::optional")]
    #[schemars(extend("enum" = ["up", "down", "left", "right"]))]
    pub(crate) direction: Option<String>,
    // Scroll steps, default 1 (no description: `direction`'s says it is for scroll,
    // and tools/list is read every turn).
    #[serde(default, deserialize_with = "super::args::optional")]
    pub(crate) amount: Option<u32>,
}

impl ActArgs {
    /// The value sent with `action`: `null` is none, and so is `""` but for
    /// `set_value` (where it empties a text): a strict host fills `value` in for every
    /// action (see [`super::args`]).
    fn value_for(&self, action: &ActionName) -> Option<&Json> {
        let set_value = matches!(action, ActionName::Core(Action::SetValue));
        self.value
            .as_ref()
            .filter(|value| set_value || value.as_str() != Some(""))
    }
}

/// `set_value` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct SetValueArgs {
    // The node's id (its name says it: no description in the schema).
    pub(crate) node: String,
    // The new value.
    #[schemars(extend("anyOf" = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]))]
    pub(crate) value: Json,
}

/// `type_text` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct TypeTextArgs {
    /// Up to 4096 chars; \n is enter, \t tab.
    pub(crate) text: String,
    /// Type with no text input focused.
    #[serde(default, deserialize_with = "super::args::flag")]
    pub(crate) raw: bool,
}

/// `press_key` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct PressKeyArgs {
    /// e.g. enter, ctrl+s, shift+tab, f5, a.
    pub(crate) key: String,
    /// Default 1, max 64.
    #[serde(default, deserialize_with = "super::args::optional")]
    pub(crate) repeat: Option<u32>,
}

/// What an input did.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct InputResult {
    /// The tree the app drew after the input, when it drew one (for a batch's
    /// combined change set; not sent).
    #[serde(skip)]
    pub(crate) after: Option<Arc<Tree>>,
    /// `delivered`: the app took the input.
    pub(crate) status: String,
    /// The app's message, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) message: Option<String>,
    /// For a repeated key: how many presses were delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) delivered: Option<u32>,
    /// The revision of the tree after the input.
    pub(crate) revision: u64,
    /// Whether the tree changed.
    pub(crate) changed: bool,
    /// Ids of nodes added or changed.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) changed_ids: Vec<String>,
    /// Ids of nodes that are gone.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) removed_ids: Vec<String>,
    /// Ids of nodes that only left the view of the scrolled container that still
    /// holds them (not gone: scrolling brings them back).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) scrolled_out_ids: Vec<String>,
    /// `removed: …` for the text: the ids that went whose parent stayed (not sent).
    #[serde(skip)]
    pub(crate) removed_line: Option<String>,
    /// `<list>: N rows scrolled out of view` for the text, per container (not sent).
    #[serde(skip)]
    pub(crate) scrolled_out_line: Option<String>,
    /// What changed in the tree the app drew after the input: the added and changed
    /// nodes, one outline line each (untrusted app text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) changes: Option<String>,
    /// The whole tree the app drew after the input, when most of it changed (then
    /// `changes` is left out; a batch's `read` asks for it). Untrusted app text.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) outline: Option<String>,
    /// What else happened: a dialog opened or closed, the focus moved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) events: Vec<String>,
    /// What to do next, when something is unusual (e.g. the app has not drawn yet).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

// The checks of each tool's arguments that need no tree and no app answer: the tool
// makes them first, and a batch makes them for every step before it sends any.

impl ActArgs {
    /// The scroll direction, if one is given.
    pub(crate) fn direction(&self) -> Result<Option<ScrollDirection>, ToolError> {
        let Some(text) = &self.direction else {
            return Ok(None);
        };
        serde_json::from_value::<ScrollDirection>(Json::String(text.clone()))
            .map(Some)
            .map_err(|_| {
                ToolError::invalid(format!(
                    "direction `{text}` is not one of up, down, left, right"
                ))
            })
    }
}

impl TypeTextArgs {
    /// How many characters the text has, within the cap and not none.
    pub(crate) fn check(&self) -> Result<usize, ToolError> {
        let chars = self.text.chars().count();
        if chars > taria::wire::MAX_TEXT_CHARS {
            return Err(ToolError::invalid(format!(
                "the text has {chars} characters; type at most {} at once (split it into several calls)",
                taria::wire::MAX_TEXT_CHARS
            )));
        }
        if chars == 0 {
            return Err(ToolError::invalid("the text is empty; nothing to type"));
        }
        Ok(chars)
    }
}

impl PressKeyArgs {
    /// How many presses, once the key is known to be one.
    pub(crate) fn check(&self) -> Result<u32, ToolError> {
        if let Err(e) = KeyChord::from_str(&self.key) {
            return Err(ToolError::invalid(format!("{e}; {KEY_GRAMMAR}")));
        }
        let repeat = self.repeat.unwrap_or(1);
        if !(1..=MAX_REPEAT).contains(&repeat) {
            return Err(ToolError::invalid(format!(
                "repeat must be 1 to {MAX_REPEAT}, not {repeat}"
            )));
        }
        Ok(repeat)
    }
}

/// `act`; sent in the call's `turn` (arrival order).
pub(crate) async fn act(
    link: &Link,
    args: ActArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    tracing::trace!(target: crate::LATENCY, "act");
    let view = link.view().await?;
    // An id off screen, under a scrolled list or table, is sent as it is: the app
    // holds it for that container's widget, which finds the item among all its items
    // (or answers that there is none). Nothing here to check it against.
    let action = ActionName::parse(&args.action);
    let value = args.value_for(&action);
    let node = match find(&view, &args.node) {
        Ok(node) => Some(node),
        Err(_)
            if value.is_none()
                && taria::wire::scrolled_holder(&args.node, |id| view.tree.get(id)).is_some() =>
        {
            None
        }
        Err(error) => return Err(error),
    };
    let token = match node {
        Some(node) => guard_position(turn.seen_at_arrival(), node)?,
        // A positional id the agent saw drawn, now off screen: the row at that index
        // may be another one now, and the app cannot tell without the node, so the
        // token goes along and the app refuses it (a keyed id is found by its key).
        None => turn
            .seen_at_arrival()
            .and_then(|seen| seen.get(args.node.as_str()))
            .filter(|seen| !seen.stable)
            .map(target_token),
    };
    let value = match node {
        Some(node) => check::precheck(node, &action, value)?,
        None => None,
    };
    let direction = args.direction()?;
    let data = match action {
        ActionName::Core(Action::Scroll) if direction.is_some() || args.amount.is_some() => {
            Some(ActionData::Scroll {
                direction: direction.unwrap_or(ScrollDirection::Down),
                amount: args.amount.unwrap_or(1),
            })
        }
        ActionName::Core(Action::Scroll) => None,
        _ => value.map(|value| ActionData::Value { value }),
    };
    let input = Input::Act(ActionRequest {
        target: node.map_or_else(|| args.node.as_str().into(), |node| node.id.clone()),
        action,
        data,
        token,
    });
    let before = Arc::clone(&view.tree);
    let mut sent = turn.send_last(link, input).await?;
    let ack = link.ack(&mut sent).await?;
    settle(link, &before, &sent, ack, Some(&args.node)).await
}

/// `set_value`.
pub(crate) async fn set_value(
    link: &Link,
    args: SetValueArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    act(
        link,
        ActArgs {
            node: args.node,
            action: "set_value".into(),
            value: Some(args.value),
            direction: None,
            amount: None,
        },
        turn,
    )
    .await
}

/// `type_text`.
pub(crate) async fn type_text(
    link: &Link,
    args: TypeTextArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    args.check()?;
    // The call's clock starts once the calls before it have sent.
    turn.wait().await;
    let before = link.view().await?.tree;
    let raw = args.raw;
    if !raw {
        check::typing(&before)?;
    }
    // A segment at a time, where a key can move the focus (the recording's redaction
    // follows where each segment's keys land).
    let (sent, ack) = typing::type_text(link, &args.text, raw, turn).await?;
    settle(link, &before, &sent, ack, None).await
}

/// `press_key`: with `repeat`, the presses are sent one after another in one turn (no
/// other call's input between them) without waiting for their acks, except that a
/// press waits for room when the inputs awaiting an ack are at their bound
/// (`limits::MAX_IN_FLIGHT`, below `MAX_REPEAT`) or the rate limit is reached; each
/// ack is counted. One deadline, `ack_bound(repeat)`, covers the whole call. Any
/// press not delivered makes the call fail, saying how many were.
pub(crate) async fn press_key(
    link: &Link,
    args: PressKeyArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    let repeat = args.check()?;
    // The call's clock starts once the calls before it have sent.
    turn.wait().await;
    let before = link.view().await?.tree;
    let bound = ack_bound(repeat as usize);
    let deadline = Instant::now() + bound;
    let mut sent = Vec::new();
    let mut send_failure = None;
    for _ in 0..repeat {
        let key = Input::Key {
            key: args.key.clone(),
        };
        // The first press is refused like any input when there is no room; the
        // others wait for it, so a burst is never cut short by its own presses.
        let result = match sent.first() {
            _ if repeat == 1 => turn.send_last(link, key).await,
            None => turn.send(link, key).await,
            Some(first) => turn.send_paced(link, key, first, deadline).await,
        };
        match result {
            Ok(s) => sent.push(s),
            Err(e) if sent.is_empty() => return Err(e),
            Err(e) => {
                send_failure = Some(e);
                break;
            }
        }
    }
    // Every press is queued or sent: the next call may send while the acks come.
    turn.done_sending();
    let mut delivered = 0;
    let mut first_failure: Option<ToolError> = None;
    for s in &mut sent {
        match link.ack_by(s, deadline, bound).await {
            Ok(ack) if ack.status == Ok(AckStatus::Delivered) => {
                delivered += 1;
            }
            Ok(ack) => {
                first_failure.get_or_insert_with(|| ack_error(&ack, None));
            }
            Err(e) => {
                first_failure.get_or_insert(e);
            }
        }
    }
    match first_failure.or(send_failure) {
        None => {
            let last = sent
                .last()
                .ok_or_else(|| ToolError::new(Code::AppExited, "no key was sent"))?;
            let mut result = settle(
                link,
                &before,
                last,
                Ack {
                    status: Ok(AckStatus::Delivered),
                    reason: None,
                    unknown_reason: None,
                    message: None,
                },
                None,
            )
            .await?;
            if repeat > 1 {
                result.delivered = Some(delivered);
            }
            Ok(result)
        }
        Some(failure) => {
            if repeat == 1 {
                return Err(failure);
            }
            Err(partial_failure(&args.key, delivered, repeat, failure)
                .with("revision", link.last_revision().0))
        }
    }
}

/// The error for a repeated key some presses of which were not delivered: the first
/// failure's code and fields, and how many presses were.
fn partial_failure(key: &str, delivered: u32, repeat: u32, failure: ToolError) -> ToolError {
    let message = format!(
        "{delivered} of {repeat} presses of `{key}` were delivered; the others were not: {}",
        failure.message
    );
    let mut error = ToolError::new(failure.code, message);
    error.extra = failure.extra;
    error.with("delivered", delivered).with("repeat", repeat)
}

/// For a positional id: the token of the node the agent saw at that id, or
/// `stale_reference` when another node is there now.
fn guard_position(seen: Option<&Arc<Tree>>, node: &Node) -> Result<Option<String>, ToolError> {
    if node.stable {
        return Ok(None);
    }
    let now = target_token(node);
    let Some(old) = seen.and_then(|t| t.get(node.id.as_str())) else {
        return Ok(Some(now));
    };
    if target_token(old) == now {
        return Ok(Some(now));
    }
    Err(ToolError::new(
        Code::StaleReference,
        format!(
            "`{}` is a positional id and the node there changed since you read it (it was {}, now {}); nothing was sent. Find the node you meant again (find_nodes by label) and retry with its current id",
            OutlineName(node.id.as_str()),
            old.outline_line(),
            node.outline_line()
        ),
    ))
}

/// The error for an ack that is not `delivered`. A status this taria-mcp does not
/// know is `protocol_mismatch`: the app answered, but not in words this bridge can
/// read, so the input's effect is unknown (it may have been applied: `app_rejected`
/// would say it was not, and invite a retry that could apply it twice).
fn ack_error(ack: &Ack, node: Option<&str>) -> ToolError {
    let said = ack.message.clone().unwrap_or_default();
    let status = match &ack.status {
        Ok(status) => *status,
        Err(unknown) => {
            let mut message = format!(
                "sent, and the app answered with the status {unknown:?}, which this taria-mcp \
                 does not know (it knows delivered, ignored, rejected, dropped)"
            );
            if !said.is_empty() {
                let _ = write!(message, "; the app said {}", OutlineQuoted(&said));
            }
            message.push_str(
                ". Its effect is unknown: read_tree to see what happened before retrying, and \
                 use a taria-mcp built with the app's taria version",
            );
            return ToolError::new(Code::ProtocolMismatch, message)
                .with("sent", true)
                .with("status", unknown.clone());
        }
    };
    let node = node.unwrap_or("the node");
    let (code, next) = match (status, ack.reason) {
        (_, Some(RejectReason::UnknownNode)) => (
            Code::NotFound,
            format!(
                "the app has no `{node}` now (the tree changed); read_tree or find_nodes again"
            ),
        ),
        (_, Some(RejectReason::ActionNotOffered)) => (
            Code::ActionUnsupported,
            "the node no longer offers it; read_tree to see what it offers now".to_owned(),
        ),
        (_, Some(RejectReason::Disabled)) => (
            Code::Disabled,
            "it is disabled now; wait_for_change or change what it depends on".to_owned(),
        ),
        (_, Some(RejectReason::OutOfDomain)) => (
            Code::OutOfDomain,
            "check the node's valueSchema (read_tree format=json)".to_owned(),
        ),
        (_, Some(RejectReason::StaleTarget)) => (
            Code::StaleReference,
            format!(
                "`{node}` names another node than the one you read (the list changed); find it \
                 again with find_nodes and retry with its current id"
            ),
        ),
        (_, Some(RejectReason::InvalidInput)) => (Code::InvalidArguments, KEY_GRAMMAR.to_owned()),
        // The app's message says it all (the words the pre-check uses).
        (_, Some(RejectReason::NoTextInput)) => {
            return ToolError::new(Code::ActionUnsupported, said).with("status", "rejected");
        }
        (_, Some(RejectReason::HandlerRejected)) => (
            Code::AppRejected,
            "the app's handler refused it; read its message, fix the cause, retry".to_owned(),
        ),
        (AckStatus::Dropped, _) | (_, Some(RejectReason::QueueFull)) => (
            Code::Busy,
            "the app's input queue is full; wait_for_change, then retry".to_owned(),
        ),
        (_, Some(RejectReason::StateRebuilt)) => (
            Code::ActionUnsupported,
            "nothing changed; the app's own keys (press_key) may do it until the app routes \
             it as the message says"
                .to_owned(),
        ),
        // The router's words say which keys it pressed, if any, and what to try: advice
        // of our own to press keys would contradict a refusal that pressed none.
        (AckStatus::Ignored, _) | (_, Some(RejectReason::NoRoute)) if !said.is_empty() => (
            Code::ActionUnsupported,
            "its words say what was pressed, if anything, and what to try".to_owned(),
        ),
        (AckStatus::Ignored, _) | (_, Some(RejectReason::NoRoute)) => (
            Code::ActionUnsupported,
            "nothing in the app handles it; try press_key with the key the app uses for it"
                .to_owned(),
        ),
        _ => match &ack.unknown_reason {
            Some(reason) => (
                Code::AppRejected,
                format!(
                    "the app did not take it, for a reason this taria-mcp does not know \
                     ({reason:?}); read its message, fix the cause, retry"
                ),
            ),
            None => (Code::AppRejected, "the app did not take it".to_owned()),
        },
    };
    let status = taria::wire::wire_name(&status);
    let message = if said.is_empty() {
        format!("{status}: {next}")
    } else {
        // The app's words quoted, so none of them can pass for the bridge's.
        format!("{status}: the app says {} — {next}", OutlineQuoted(&said))
    };
    ToolError::new(code, message).with("status", status)
}

/// How long an input's result waits for a spawned app that closed its connection
/// right after the input to exit, so the result can say how it exited.
const EXIT_AFTER_INPUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Turns an ack into the result: for `delivered`, waits for the tree the input produced.
async fn settle(
    link: &Link,
    before: &Arc<Tree>,
    sent: &Sent,
    ack: Ack,
    node: Option<&str>,
) -> Result<InputResult, ToolError> {
    if ack.status != Ok(AckStatus::Delivered) {
        return Err(ack_error(&ack, node));
    }
    // Taken before anything shows the agent the tree after the input.
    let live = link.seen_live();
    let Some(after) = link.effect(sent).await else {
        let (revision, connected) = link.last_revision();
        let advice = if connected {
            format!(
                "delivered, but the app has not drawn a frame since; call wait_for_change with \
                 since={revision} to see its effect"
            )
        } else if let Some(spawned) = link.spawned_app()
            && let Some(exit) = spawned.exited_within(EXIT_AFTER_INPUT).await
        {
            format!("delivered, then {}", spawned.exit_note(&exit).await)
        } else {
            let cut_off = link
                .cut_off()
                .unwrap_or("the app closed the connection (it exited or restarted)");
            format!(
                "delivered, then {cut_off} before drawing again; read_tree to see where it stands"
            )
        };
        return Ok(InputResult {
            after: None,
            status: "delivered".into(),
            message: ack.message,
            delivered: None,
            revision,
            changed: false,
            changed_ids: Vec::new(),
            removed_ids: Vec::new(),
            scrolled_out_ids: Vec::new(),
            removed_line: None,
            scrolled_out_line: None,
            changes: None,
            outline: None,
            events: Vec::new(),
            note: Some(advice),
        });
    };
    let answer = super::change::describe_change(link, before, live.as_ref(), &after, ack.message);
    tracing::trace!(target: crate::LATENCY, seq = sent.seq, "answer ready");
    Ok(answer)
}
