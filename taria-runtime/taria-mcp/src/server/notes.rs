//! What a tool call leaves behind besides its result: the recording's notes (a read,
//! an input call the bridge refused, the recording's failure said once), the input
//! log's line, and what the call's inputs logged appended to the result.

use rmcp::model::{CallToolResult, JsonObject};
use taria_schema::recording::InputTool;

use super::Bridge;
use crate::errors::{Code, ToolError};
use crate::input_log::InputRecord;
use crate::order::Turn;
use crate::recording::SessionRecorder;
use crate::tools::read_logs as logs;

impl Bridge {
    /// `result`, with a last text line saying the recording stopped, the first time
    /// a result comes after it did.
    pub(super) fn told(&self, mut result: CallToolResult) -> CallToolResult {
        if let Some(note) = self.link.recorder().and_then(SessionRecorder::take_failure) {
            append_line(&mut result, note);
        }
        result
    }

    /// Notes a read in the recording, with the call's arguments and the revision read
    /// (the newest).
    pub(super) fn note_read(&self, tool: &str, arguments: Option<JsonObject>) {
        if let (Some(recorder), Some(arguments)) = (self.link.recorder(), arguments) {
            recorder.read(None, tool, arguments, self.link.mirror().revision());
        }
    }

    /// Notes in the recording an input call the bridge refused: one that failed
    /// before anything of it was sent (the app's own refusals, which carry the ack's
    /// `status`, and inputs sent whose answer did not come, have their input lines),
    /// or a batch at the step it refused.
    pub(super) fn note_refused(
        &self,
        turn: &Turn,
        tool: InputTool,
        arguments: JsonObject,
        error: &ToolError,
    ) {
        let Some(recorder) = self.link.recorder() else {
            return;
        };
        let field = |name: &str| {
            error.extra.get(name).or_else(|| {
                error
                    .detail
                    .as_ref()
                    .and_then(|detail| detail.fields.get(name))
            })
        };
        // The app answered it (its `status`), or it went and no answer came.
        let answered = field("status").is_some();
        let sent = field("sent").and_then(serde_json::Value::as_bool) == Some(true);
        let some_delivered = tool == InputTool::PressKey
            && field("delivered").and_then(serde_json::Value::as_u64) > Some(0);
        if error.code == Code::AppRejected || answered || sent || some_delivered {
            return;
        }
        let newest = self.link.mirror().view().map(|view| view.tree);
        let seen = turn.seen_at_arrival();
        let trees: Vec<&taria_schema::Tree> =
            newest.iter().chain(seen).map(|tree| &**tree).collect();
        let refusal = crate::recording::Refusal {
            tag: turn.call_tag(),
            tool,
            step: field("failedStep").and_then(serde_json::Value::as_u64),
            arguments,
            code: error.code.as_str(),
            message: &error.message,
        };
        recorder.refused(refusal, &trees);
    }

    /// Notes an answered input call in the input log.
    pub(super) fn logged(
        &self,
        tool: String,
        inputs: Vec<crate::logs::InputId>,
        started: Started,
        result: &CallToolResult,
    ) {
        let timing = (started.at, started.clock.elapsed());
        self.input_log
            .push(InputRecord::of(tool, inputs, timing, result));
    }
}

/// Adds what an input call's inputs logged to its result: a last line of text, and
/// `logged` in the structured content.
pub(super) fn note_logged(result: &mut CallToolResult, logged: logs::Logged) {
    append_line(result, logged.line);
    if let Some(serde_json::Value::Object(fields)) = &mut result.structured_content {
        fields.insert("logged".into(), logged.summary);
    }
}

/// The note for the arguments of a call of `tool` that it does not name (ignored, as
/// an argument a host adds is: gemini-cli's `wait_for_previous`), so that a model that
/// misnamed one hears of it: `(ignored: nodes, not an argument of act)`. Empty values
/// (`null`, `""`, `0`, `false`, `[]`), which strict hosts fill in for what is left out,
/// go unsaid. `None`: nothing to say.
pub(super) fn ignored_arguments(
    tool: &rmcp::model::Tool,
    arguments: Option<&JsonObject>,
) -> Option<String> {
    let known = tool
        .input_schema
        .get("properties")
        .and_then(|p| p.as_object());
    let ignored: Vec<String> = arguments?
        .iter()
        .filter(|(name, value)| {
            !known.is_some_and(|known| known.contains_key(name.as_str())) && !is_filler(value)
        })
        .map(|(name, _)| taria_schema::outline::OutlineName(name).to_string())
        .take(8)
        .collect();
    if ignored.is_empty() {
        return None;
    }
    let (what, them) = match ignored.len() {
        1 => ("an argument", "it"),
        _ => ("arguments", "them"),
    };
    Some(format!(
        "(ignored: {}, not {what} of {}: the call did what it does without {them})",
        ignored.join(", "),
        tool.name
    ))
}

/// Whether `value` is what a strict host fills an argument it has no value for with.
fn is_filler(value: &serde_json::Value) -> bool {
    use serde_json::Value;
    match value {
        Value::Null | Value::Bool(false) => true,
        Value::String(text) => text.is_empty(),
        Value::Number(n) => n.as_f64() == Some(0.0),
        Value::Array(items) => items.is_empty(),
        Value::Object(_) | Value::Bool(true) => false,
    }
}

/// Appends `line` to the result's text (its first text block, or a new one).
pub(super) fn append_line(result: &mut CallToolResult, line: String) {
    match result.content.first_mut() {
        Some(rmcp::model::ContentBlock::Text(text)) => {
            text.text.push('\n');
            text.text.push_str(&line);
        }
        _ => result.content.push(rmcp::model::ContentBlock::text(line)),
    }
}

/// When a call's handler started, by the wall clock and by the monotonic one.
#[derive(Clone, Copy)]
pub(super) struct Started {
    at: std::time::SystemTime,
    clock: std::time::Instant,
}

impl Started {
    pub(super) fn now() -> Started {
        Started {
            at: std::time::SystemTime::now(),
            clock: std::time::Instant::now(),
        }
    }
}
