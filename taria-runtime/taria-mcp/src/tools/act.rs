//! `act`: does a node's action (checked against the tree first, sent in the call's
//! turn, answered with what changed).

use std::sync::Arc;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::Value as Json;
use taria_schema::protocol::{ActionData, ActionRequest, Input, target_token};
use taria_schema::{Action, ActionName, ScrollDirection};

use super::input::answer::settle;
use super::input::check;
use super::input::result::InputResult;
use super::lookup::find;
use crate::errors::ToolError;
use crate::link::Inputs;
use crate::order::Turn;
use crate::seen::Seen;

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

/// `act`; sent in the call's `turn` (arrival order).
pub(crate) async fn act(
    inputs: &Inputs,
    seen: &Seen,
    args: ActArgs,
    turn: &mut Turn,
) -> Result<InputResult, ToolError> {
    tracing::trace!(target: crate::latency::TARGET, "act");
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

/// The `act` tool.
pub(crate) struct Act;

impl super::Tool for Act {
    const NAME: &'static str = "act";
    const DESCRIPTION: &'static str = "Does a node's action.";
    const KIND: super::Kind = super::Kind::Input(taria_schema::recording::InputTool::Act);
    type Args = ActArgs;
    type Result = InputResult;

    async fn run(mut cx: super::Cx<'_>, args: ActArgs) -> Result<InputResult, ToolError> {
        act(cx.inputs, cx.seen, args, cx.turn()?).await
    }
}
