//! The Rust a recorded step is replayed with, as `taria-mcp test-from` writes it and
//! the recording viewer offers it to copy: `h.step(N, &rules)`, what the step meant and
//! what the app answered, then the harness call with its arguments as Rust literals,
//! laid out as rustfmt lays it out.

pub(crate) mod escape;
pub(crate) mod layout;
mod step;

use taria_schema::Tree;
use taria_schema::recording::{RecordedInput, Secrets};

pub(crate) use step::{Uses, step_name};

/// One step's line of a generated test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct StepLine {
    /// The statement, indented as a test body's, ending in a newline.
    pub(crate) code: String,
    /// For a redacted input whose secret `secrets` did not hold: why the line sends
    /// `""` instead (a generated test puts it in a `compile_error!` above the line).
    pub(crate) missing: Option<String>,
}

/// The line that replays `recorded`, after `previous` (the tree before it, where a
/// redacted text's secret went: the focused node). With `refind`, the step re-finds
/// its node by role and label (`.refind`) instead of checking it (`.seen`); `uses`
/// gathers the names the line needs imported.
pub(crate) fn step_line(
    recorded: &RecordedInput,
    previous: &Tree,
    refind: bool,
    secrets: &mut Secrets<String>,
    uses: &mut Uses,
) -> StepLine {
    let (method, args, missing) = step::step_call(recorded, previous, secrets);
    let mut calls = vec![("step", vec![recorded.step.to_string(), "&rules".into()])];
    calls.extend(step::modifiers(recorded, refind, uses));
    calls.push((method.as_str(), args));
    StepLine {
        code: layout::chain("h", &calls, "?;"),
        missing,
    }
}

/// Lowercase ASCII letters and digits, runs of anything else as one `sep`.
pub(crate) fn slug(text: &str, sep: char) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with(sep) && !out.is_empty() {
            out.push(sep);
        }
    }
    out.truncate(out.trim_end_matches(sep).len());
    out
}
