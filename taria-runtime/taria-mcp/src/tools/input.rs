//! The input tools: `act` (`set_value` is one of its actions), `type_text`,
//! `press_key`. Each is checked
//! against the tree the agent saw before it is sent ([`check`]), sent in its turn
//! (arrival order, [`crate::order`]) through [`Inputs`], then answered with the app's
//! ack and what changed in the tree the app drew after handling it ([`answer`]).

use std::str::FromStr as _;
use std::sync::Arc;
use std::time::Instant;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria_schema::ActionName;
use taria_schema::protocol::{AckStatus, ActionData, ActionRequest, Input, target_token};
use taria_schema::protocol::{KEY_GRAMMAR, KeyChord};
use taria_schema::{Action, ScrollDirection, Tree};

mod answer;
mod check;
mod typing;

use super::read::find;
use crate::errors::{Code, ToolError};
use crate::limits::ack_bound;
use crate::link::{Ack, Inputs};
use crate::order::Turn;
use crate::seen::Seen;
use answer::{ack_error, settle};

/// The most times `press_key` repeats a key.
pub(crate) const MAX_REPEAT: u32 = 64;

/// `act` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
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

/// `type_text` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct TypeTextArgs {
    /// Up to 4096 chars; \n is enter, \t tab.
    pub(crate) text: String,
    /// Type with no text input focused.
    #[serde(default, deserialize_with = "super::args::flag")]
    pub(crate) raw: bool,
}

/// `press_key` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
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
        if chars > taria_schema::protocol::MAX_TEXT_CHARS {
            return Err(ToolError::invalid(format!(
                "the text has {chars} characters; type at most {} at once (split it into several calls)",
                taria_schema::protocol::MAX_TEXT_CHARS
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
    inputs: &Inputs,
    seen: &Seen,
    args: ActArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    tracing::trace!(target: crate::LATENCY, "act");
    let view = inputs.link().view().await?;
    // An id off screen, under a scrolled list or table, is sent as it is: the app
    // holds it for that container's widget, which finds the item among all its items
    // (or answers that there is none). Nothing here to check it against.
    let action = ActionName::parse(&args.action);
    let value = args.value_for(&action);
    let node = match find(&view, &args.node) {
        Ok(node) => Some(node),
        Err(_)
            if value.is_none()
                && taria_schema::check::scrolled_holder(&args.node, |id| view.tree.get(id))
                    .is_some() =>
        {
            None
        }
        Err(error) => return Err(error),
    };
    let token = match node {
        Some(node) => check::position(turn.seen_at_arrival(), node)?,
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
    let mut sent = turn.send_last(inputs, input).await?;
    let ack = inputs.ack(&mut sent).await?;
    settle(inputs, seen, (&before, &sent), ack, Some(&args.node)).await
}

/// `type_text`.
pub(crate) async fn type_text(
    inputs: &Inputs,
    seen: &Seen,
    args: TypeTextArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    args.check()?;
    // The call's clock starts once the calls before it have sent.
    turn.wait().await;
    let before = inputs.link().view().await?.tree;
    let raw = args.raw;
    if !raw {
        check::typing(&before)?;
    }
    // A segment at a time, where a key can move the focus (the recording's redaction
    // follows where each segment's keys land).
    let (sent, ack) = typing::type_text(inputs, &args.text, raw, turn).await?;
    settle(inputs, seen, (&before, &sent), ack, None).await
}

/// `press_key`: with `repeat`, the presses are sent one after another in one turn (no
/// other call's input between them) without waiting for their acks, except that a
/// press waits for room when the inputs awaiting an ack are at their bound
/// (`limits::MAX_IN_FLIGHT`, below `MAX_REPEAT`) or the rate limit is reached; each
/// ack is counted. One deadline, `ack_bound(repeat)`, covers the whole call. Any
/// press not delivered makes the call fail, saying how many were.
pub(crate) async fn press_key(
    inputs: &Inputs,
    seen: &Seen,
    args: PressKeyArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    let repeat = args.check()?;
    // The call's clock starts once the calls before it have sent.
    turn.wait().await;
    let before = inputs.link().view().await?.tree;
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
            _ if repeat == 1 => turn.send_last(inputs, key).await,
            None => turn.send(inputs, key).await,
            Some(first) => turn.send_paced(inputs, key, first, deadline).await,
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
        match inputs.ack_by(s, deadline, bound).await {
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
                inputs,
                seen,
                (&before, last),
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
                .with("revision", inputs.link().mirror().revision()))
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
