//! `batch`: several input steps in one call, each waiting for its own answer, in one
//! turn (no other call's input between them), stopping at the first that fails;
//! one combined change set, and optionally a read of one subtree at the end.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria::wire::OutlineName;
use taria::{Node, Tree};

use super::input::{self, ActArgs, InputResult, PressKeyArgs, SetValueArgs, TypeTextArgs};
use super::read::find;
use crate::errors::ToolError;
use crate::link::{Link, View};
use crate::order::Turn;
use crate::render::{self, Format};

/// The most steps one batch takes.
pub(crate) const MAX_STEPS: usize = 32;

/// `batch` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(crate) struct BatchArgs {
    /// Up to 32 `{tool: act|set_value|type_text|press_key, …its arguments}`.
    #[schemars(schema_with = "steps_schema")]
    pub(crate) steps: Vec<Step>,
    /// A subtree to read after ("": all).
    #[serde(default)]
    pub(crate) read: Option<String>,
    /// Levels of `read`.
    #[serde(default)]
    pub(crate) depth: Option<usize>,
}

/// The schema of `steps`: each names its tool; the rest are that tool's arguments,
/// as the tool documents them (not repeated: tools/list is read every turn). The
/// bridge checks every step before sending any.
fn steps_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "description": "Up to 32 `{tool: act|set_value|type_text|press_key, …its arguments}`.",
        "type": "array",
        "items": {"type": "object", "required": ["tool"]},
    })
}

/// One step: `tool`, and that tool's arguments beside it.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Step {
    pub(crate) tool: String,
    #[serde(default)]
    pub(crate) node: Option<String>,
    #[serde(default)]
    pub(crate) action: Option<String>,
    #[serde(default)]
    pub(crate) value: Option<Json>,
    #[serde(default)]
    pub(crate) direction: Option<String>,
    #[serde(default)]
    pub(crate) amount: Option<u32>,
    #[serde(default)]
    pub(crate) text: Option<String>,
    #[serde(default)]
    pub(crate) key: Option<String>,
    #[serde(default)]
    pub(crate) repeat: Option<u32>,
    #[serde(default)]
    pub(crate) raw: Option<bool>,
}

/// What a batch did: every step was delivered.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct BatchResult {
    /// How many steps ran (all were delivered).
    pub(crate) steps: usize,
    /// What the steps changed, together, as the single input tools say it; its
    /// revision is the tree's after the closing read, if any.
    #[serde(flatten)]
    pub(crate) change: InputResult,
    /// The subtree asked for with `read`, after the steps.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) read: Option<String>,
    /// What was left out of that read, if anything.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) truncated: Option<String>,
}

impl Step {
    /// The step as its tool's arguments, or why it is not one.
    fn into_input(self, number: usize) -> Result<StepInput, ToolError> {
        let needs = |what: &str| {
            ToolError::invalid(format!(
                "step {number} ({}) needs `{what}`; nothing was sent",
                self.tool
            ))
        };
        Ok(match self.tool.as_str() {
            "act" => StepInput::Act(ActArgs {
                node: self.node.clone().ok_or_else(|| needs("node"))?,
                action: self.action.clone().ok_or_else(|| needs("action"))?,
                value: self.value,
                direction: self.direction,
                amount: self.amount,
            }),
            "set_value" => StepInput::SetValue(SetValueArgs {
                node: self.node.clone().ok_or_else(|| needs("node"))?,
                value: self.value.clone().ok_or_else(|| needs("value"))?,
            }),
            "type_text" => StepInput::TypeText(TypeTextArgs {
                text: self.text.clone().ok_or_else(|| needs("text"))?,
                raw: self.raw,
            }),
            "press_key" => StepInput::PressKey(PressKeyArgs {
                key: self.key.clone().ok_or_else(|| needs("key"))?,
                repeat: self.repeat,
            }),
            other => {
                return Err(ToolError::invalid(format!(
                    "step {number}: `{other}` is not a step; use act, set_value, type_text or \
                     press_key; nothing was sent"
                )));
            }
        })
    }
}

enum StepInput {
    Act(ActArgs),
    SetValue(SetValueArgs),
    TypeText(TypeTextArgs),
    PressKey(PressKeyArgs),
}

impl StepInput {
    /// What the step does, for a message: `act tasks/2 toggle`.
    fn describe(&self) -> String {
        match self {
            StepInput::Act(a) => format!("act {} {}", OutlineName(&a.node), OutlineName(&a.action)),
            StepInput::SetValue(s) => format!("set_value {}", OutlineName(&s.node)),
            StepInput::TypeText(t) => format!("type_text of {} characters", t.text.chars().count()),
            StepInput::PressKey(p) => format!("press_key {}", OutlineName(&p.key)),
        }
    }

    async fn run(self, link: &Link, turn: &mut Turn) -> Result<InputResult, ToolError> {
        match self {
            StepInput::Act(args) => input::act(link, args, turn).await,
            StepInput::SetValue(args) => input::set_value(link, args, turn).await,
            StepInput::TypeText(args) => input::type_text(link, args, turn).await,
            StepInput::PressKey(args) => input::press_key(link, args, turn).await,
        }
    }
}

/// `batch`: every step is checked for its arguments before any is sent; then each
/// runs as its tool does, in the call's turn, until one fails. On a failure, the
/// error names the step and says what the steps before it changed.
pub(crate) async fn batch(
    link: &Link,
    args: BatchArgs,
    turn: &mut Turn,
) -> Result<BatchResult, ToolError> {
    if args.steps.is_empty() {
        return Err(ToolError::invalid("no steps; give at least one"));
    }
    if args.steps.len() > MAX_STEPS {
        return Err(ToolError::invalid(format!(
            "{} steps; a batch takes at most {MAX_STEPS} (split it); nothing was sent",
            args.steps.len()
        )));
    }
    let count = args.steps.len();
    let steps = args
        .steps
        .into_iter()
        .enumerate()
        .map(|(i, step)| step.into_input(i + 1))
        .collect::<Result<Vec<_>, _>>()?;
    turn.keep();
    let first = link.view().await?;
    // As the agent knew the app before the steps (their own results are not shown).
    let live = link.seen_live();
    let mut last: Option<Arc<Tree>> = None;
    let mut revision = first.revision;
    // What the last step's own result said when no frame showed its effect (the app
    // exited after it, or has not drawn): the batch's result says it too.
    let mut unseen: Option<(usize, String)> = None;
    for (i, step) in steps.into_iter().enumerate() {
        let what = step.describe();
        match step.run(link, turn).await {
            Ok(result) => {
                revision = result.revision;
                unseen = None;
                match result.after {
                    Some(after) => last = Some(after),
                    None => unseen = result.note.map(|note| (i + 1, note)),
                }
            }
            Err(error) => {
                let change = last.map(|tree| {
                    let after = View { tree, revision };
                    super::change::describe_change(link, &first.tree, live.as_ref(), &after, None)
                });
                return Err(failed(change, revision, (i + 1, count), &what, error));
            }
        }
    }
    let after = View {
        tree: last.unwrap_or_else(|| Arc::clone(&first.tree)),
        revision,
    };
    let mut change = super::change::describe_change(link, &first.tree, live.as_ref(), &after, None);
    if let Some((number, note)) = unseen {
        let note = format!("step {number}: {note}");
        // "Nothing changed" would be wrong: no frame showed what the last step did.
        change.note = Some(match change.note.take() {
            Some(before) if change.changed => format!("{before}; {note}"),
            _ => note,
        });
    }
    let (read, truncated) = match &args.read {
        Some(root) => {
            let view = link.view().await?;
            let roots: Vec<&Node> = if root.is_empty() {
                view.tree.roots.iter().collect()
            } else {
                vec![find(&view, root)?]
            };
            let shown = render::render(&roots, Format::Outline, args.depth, render::MAX_CHARS);
            link.saw(&view.tree);
            if let Some(recorder) = link.recorder() {
                let mut arguments = serde_json::Map::new();
                arguments.insert("read".into(), root.clone().into());
                if let Some(depth) = args.depth {
                    arguments.insert("depth".into(), depth.into());
                }
                recorder.read(turn.call_tag(), "batch", arguments, view.revision);
            }
            change.revision = view.revision;
            (shown.outline, shown.truncated)
        }
        None => (None, None),
    };
    Ok(BatchResult {
        steps: count,
        change,
        read,
        truncated,
    })
}

/// The error for step `number` of `count`, with what the steps before it changed
/// (`change`: from the tree before the batch to the last one a step drew).
fn failed(
    change: Option<InputResult>,
    revision: u64,
    (number, count): (usize, usize),
    what: &str,
    error: ToolError,
) -> ToolError {
    let done = number - 1;
    let before_it = match done {
        0 => "nothing before it was sent".to_owned(),
        1 => "step 1 was delivered".to_owned(),
        n => format!("steps 1 to {n} were delivered"),
    };
    let mut failure = ToolError::new(
        error.code,
        format!(
            "step {number} of {count} ({what}) failed: {}; {before_it}, the rest were not sent",
            error.message
        ),
    );
    failure.extra = error.extra;
    failure = failure.with("failedStep", number).with("delivered", done);
    if let Some(change) = change {
        if !change.changed_ids.is_empty() {
            failure = failure.with("changedIds", change.changed_ids);
        }
        if !change.removed_ids.is_empty() {
            failure = failure.with("removedIds", change.removed_ids);
        }
        // What the steps before it did, as their own result would say it: a dialog
        // they opened is often why this step failed.
        if !change.events.is_empty() {
            failure = failure.with("events", change.events);
        }
        if let Some(changes) = change.changes.or(change.outline) {
            failure = failure.with("changes", changes);
        }
        failure = failure.with("revision", revision);
    }
    failure
}
