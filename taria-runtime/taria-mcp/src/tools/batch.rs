//! `batch`: several input steps in one call, each waiting for its own answer, in one
//! turn (no other call's input between them), stopping at the first that fails;
//! one combined change set, and optionally a read of one subtree at the end.

use std::sync::Arc;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria_schema::outline::OutlineName;
use taria_schema::{Node, Tree};

use super::act::{self, ActArgs};
use super::input::result::InputResult;
use super::lookup::find;
use super::press_key::{self, PressKeyArgs};
use super::reply::{ForModel, push_block, push_cut};
use super::type_text::{self, TypeTextArgs};
use crate::errors::{Detail, ToolError};
use crate::link::{Inputs, View};
use crate::order::Turn;
use crate::plural::{self, count};
use crate::render::{self, Format};
use crate::seen::Seen;

/// The most steps one batch takes.
pub(crate) const MAX_STEPS: usize = 32;

/// `batch` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct BatchArgs {
    /// Up to 32 tool calls.
    #[schemars(schema_with = "steps_schema")]
    pub(crate) steps: Vec<Step>,
    /// Read the tree after.
    #[serde(default, deserialize_with = "super::args::flag")]
    pub(crate) read: bool,
    /// Only this subtree.
    #[serde(default, deserialize_with = "super::args::optional")]
    pub(crate) root: Option<String>,
}

/// The schema of `steps`: each names its tool, beside that tool's arguments (their
/// types from [`StepSchema`]; what they mean is said by the tools themselves, not repeated:
/// tools/list is read every turn). The bridge checks every step before sending any.
fn steps_schema(generator: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let mut step = StepSchema::json_schema(generator);
    step.remove("description");
    schemars::json_schema!({"type": "array", "items": step})
}

/// One step: `tool`, and that tool's arguments beside it (read as that tool reads
/// its own; keys it does not name ignored).
#[derive(Debug, Deserialize)]
pub(crate) struct Step {
    pub(crate) tool: String,
    #[serde(flatten)]
    pub(crate) arguments: serde_json::Map<String, Json>,
}

/// A step as `tools/list` shows it: `tool` beside every step tool's arguments, typed,
/// so hosts that send only declared properties (strict converters, Gemini) can send
/// them. Only its schema is used: a step is read by its tool's own arguments.
#[derive(JsonSchema)]
#[expect(
    dead_code,
    reason = "only the JSON schema is used: Step reads the arguments"
)]
struct StepSchema {
    #[schemars(extend("enum" = ["act", "type_text", "press_key"]))]
    tool: String,
    node: Option<String>,
    action: Option<String>,
    #[schemars(extend("anyOf" = [{"type": "string"}, {"type": "number"}, {"type": "boolean"}]))]
    value: Option<Json>,
    direction: Option<String>,
    amount: Option<u32>,
    text: Option<String>,
    key: Option<String>,
    repeat: Option<u32>,
    raw: Option<bool>,
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
    /// The step as its tool's arguments, checked as far as they can be without the
    /// app (keys, caps, the key grammar), or why it is not one.
    fn into_input(self, number: usize) -> Result<StepInput, ToolError> {
        // A strict host fills in every argument the steps' schema lists, those of the
        // other tools too: a key this step's tool does not take is ignored.
        fn read<T: DeserializeOwned>(step: &Step) -> Result<T, String> {
            serde_json::from_value(Json::Object(step.arguments.clone()))
                .map_err(|e| format!("{e} (see {}'s input schema)", step.tool))
        }
        let input = match self.tool.as_str() {
            "act" => read(&self).map(StepInput::Act),
            "type_text" => read(&self).map(StepInput::TypeText),
            "press_key" => read(&self).map(StepInput::PressKey),
            other => {
                return Err(ToolError::invalid(format!(
                    "step {number}: `{}` is not a step; use act (set a value with its action \
                     set_value), type_text or press_key; nothing was sent",
                    OutlineName(other)
                )));
            }
        };
        input
            .and_then(|input| input.check().map(|()| input).map_err(|e| e.message))
            .map_err(|why| {
                ToolError::invalid(format!(
                    "step {number} ({}): {why}; nothing was sent",
                    self.tool
                ))
            })
    }
}

enum StepInput {
    Act(ActArgs),
    TypeText(TypeTextArgs),
    PressKey(PressKeyArgs),
}

impl StepInput {
    /// The checks its tool makes before it needs the tree or the app.
    fn check(&self) -> Result<(), ToolError> {
        match self {
            StepInput::Act(a) => a.direction().map(drop),
            StepInput::TypeText(t) => t.check().map(drop),
            StepInput::PressKey(p) => p.check().map(drop),
        }
    }

    /// What the step does, for a message: `act tasks/2 toggle`.
    fn describe(&self) -> String {
        match self {
            StepInput::Act(a) => format!("act {} {}", OutlineName(&a.node), OutlineName(&a.action)),
            StepInput::TypeText(t) => format!(
                "type_text of {}",
                plural::count(t.text.chars().count(), "character", "characters")
            ),
            StepInput::PressKey(p) => format!("press_key {}", OutlineName(&p.key)),
        }
    }

    async fn run(
        self,
        inputs: &Inputs,
        seen: &Seen,
        turn: &mut Turn,
    ) -> Result<InputResult, ToolError> {
        match self {
            StepInput::Act(args) => act::act(inputs, seen, args, turn).await,
            StepInput::TypeText(args) => type_text::type_text(inputs, seen, args, turn).await,
            StepInput::PressKey(args) => press_key::press_key(inputs, seen, args, turn).await,
        }
    }
}

/// What the steps run so far did: the tree before the first, the last one a step drew.
struct Done {
    first: View,
    live: Option<Arc<Tree>>,
    last: Option<Arc<Tree>>,
    revision: u64,
    /// What the last step's own result said when no frame showed its effect (the app
    /// exited after it, or has not drawn): the batch's result says it too.
    unseen: Option<(usize, String)>,
}

impl Done {
    /// Their combined change, as the single input tools say it.
    fn change(&self, seen: &Seen) -> InputResult {
        let after = View {
            tree: Arc::clone(self.last.as_ref().unwrap_or(&self.first.tree)),
            revision: self.revision,
        };
        let mut change = super::change::describe_change(
            seen,
            &self.first.tree,
            self.live.as_ref(),
            &after,
            None,
        );
        if let Some((number, note)) = &self.unseen {
            let note = format!("step {number}: {note}");
            // "Nothing changed" would be wrong: no frame showed what the last step did.
            change.note = Some(match change.note.take() {
                Some(before) if change.changed => format!("{before}; {note}"),
                _ => note,
            });
        }
        change
    }
}

/// `batch`: every step's arguments are checked (all a tool checks before it needs the
/// tree or the app: keys, caps, the key grammar) before any is sent; then each
/// runs as its tool does, in the call's turn, until one fails. On a failure, the
/// error names the step and says what the steps before it changed.
pub(crate) async fn batch(
    inputs: &Inputs,
    seen: &Seen,
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
    let link = inputs.link();
    let mut done = Done {
        first: link.view().await?,
        // As the agent knew the app before the steps (their own results are not shown).
        live: seen.last_live(),
        last: None,
        revision: 0,
        unseen: None,
    };
    done.revision = done.first.revision;
    for (i, step) in steps.into_iter().enumerate() {
        let what = step.describe();
        if i > 0 {
            // Its wait for the rate limit, if it meets it, counts from now.
            turn.ready_now();
        }
        match step.run(inputs, seen, turn).await {
            Ok(result) => {
                done.revision = result.revision;
                done.unseen = None;
                match result.after {
                    Some(after) => done.last = Some(after),
                    None => done.unseen = result.note.map(|note| (i + 1, note)),
                }
            }
            Err(error) => {
                let change = (i > 0).then(|| done.change(seen));
                return Err(failed(change, (i + 1, count), &what, error));
            }
        }
    }
    let mut change = done.change(seen);
    let (read, truncated) = if args.read {
        let view = link.view().await?;
        let roots: Vec<&Node> = match &args.root {
            None => view.tree.roots.iter().collect(),
            Some(root) => vec![find(&view, root)?],
        };
        // The change came as the whole tree, which the read shows as it is now: once.
        if args.root.is_none() && change.outline.is_some() && view.revision == change.revision {
            change.outline = None;
            change.note = Some("most of the tree changed: the whole tree is the read below".into());
        }
        // The change comes first in the result: the read has what is left.
        let room = render::MAX_CHARS.saturating_sub(change.for_model().chars().count());
        let shown = render::render(&roots, Format::Outline, None, room);
        seen.saw(&view.tree);
        if let Some(recorder) = link.recorder() {
            let mut arguments = serde_json::Map::new();
            arguments.insert("read".into(), true.into());
            if let Some(root) = &args.root {
                arguments.insert("root".into(), root.clone().into());
            }
            recorder.read(turn.call_tag(), "batch", arguments, view.revision);
        }
        change.revision = view.revision;
        (shown.outline, shown.truncated)
    } else {
        (None, None)
    };
    Ok(BatchResult {
        steps: count,
        change,
        read,
        truncated,
    })
}

/// The error for step `number` of `count`, with what the steps before it changed
/// (`change`, when there were any: from the tree before the batch to the last one a
/// step drew). The text says that as a batch's result says what its steps did; the
/// structured content has it as fields.
fn failed(
    change: Option<InputResult>,
    (number, count): (usize, usize),
    what: &str,
    error: ToolError,
) -> ToolError {
    let done = number - 1;
    let before_it = match done {
        0 => "; nothing before it was sent",
        _ => "",
    };
    let after_it = match count - number {
        0 => String::new(),
        1 => format!("; step {} was not sent", number + 1),
        _ => format!("; steps {} to {count} were not sent", number + 1),
    };
    let mut failure = ToolError::new(
        error.code,
        format!(
            "step {number} of {count} ({what}) failed: {}{before_it}{after_it}",
            error.message
        ),
    );
    failure.extra = error.extra;
    let mut fields = serde_json::Map::new();
    let mut lines = None;
    fields.insert("failedStep".into(), number.into());
    fields.insert("delivered".into(), done.into());
    if let Some(change) = change {
        let before = format!("{} before it", plural::count(done, "step", "steps"));
        lines = Some(steps_text(&before, &change));
        // The lines after say the revision the steps left.
        failure.extra.remove("revision");
        if !change.changed_ids.is_empty() {
            fields.insert("changedIds".into(), change.changed_ids.into());
        }
        if !change.removed_ids.is_empty() {
            fields.insert("removedIds".into(), change.removed_ids.into());
        }
        // What the steps before it did, as their own result would say it: a dialog
        // they opened is often why this step failed.
        if !change.events.is_empty() {
            fields.insert("events".into(), change.events.into());
        }
        if let Some(changes) = change.changes.or(change.outline) {
            fields.insert("changes".into(), changes.into());
        }
        fields.insert("revision".into(), change.revision.into());
    }
    // Said by the message and the lines after it: not repeated in the status line.
    failure.detail = Some(Box::new(Detail {
        text: lines,
        fields,
    }));
    failure
}

/// What steps of a batch did, as a batch's result says it: `3 steps: ` and the text
/// of their combined change (the input tools' own status line and lines). A batch's
/// failure says the steps before the failed one the same way.
pub(crate) fn steps_text(steps: &str, change: &InputResult) -> String {
    format!("{steps}: {}", change.for_model())
}

impl ForModel for BatchResult {
    fn for_model(&self) -> String {
        let mut out = steps_text(&count(self.steps, "step", "steps"), &self.change);
        if let Some(read) = &self.read {
            out.push_str("\nread:");
            push_block(&mut out, read);
        }
        push_cut(&mut out, self.truncated.as_deref());
        out
    }
}

/// The `batch` tool.
pub(crate) struct Batch;

impl super::Tool for Batch {
    const NAME: &'static str = "batch";
    const DESCRIPTION: &'static str = "Runs input steps until one fails.";
    const KIND: super::Kind = super::Kind::Input(taria_schema::recording::InputTool::Batch);
    type Args = BatchArgs;
    type Result = BatchResult;

    async fn run(mut cx: super::Cx<'_>, args: BatchArgs) -> Result<BatchResult, ToolError> {
        batch(cx.inputs, cx.seen, args, cx.turn()?).await
    }
}
