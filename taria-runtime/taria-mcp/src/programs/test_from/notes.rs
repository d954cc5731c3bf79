//! What a generated test says in comments, where the recording says it happened:
//! the agent's reads, the calls the bridge refused, a batch's steps, the app going
//! away. None of it is replayed; each is one `//` line (app text escaped for it).

use std::fmt::Write as _;

use taria_schema::recording::{AppEvent, RecordedApp, RecordedRead, RecordedRefusal};

use crate::replay_code::escape::comment_text;

/// The longest note, in characters (then cut, ending in `…`).
const NOTE_CHARS: usize = 80;

/// `text` as a comment holds it, cut to `max` characters.
fn cut(text: &str, max: usize) -> String {
    let text = comment_text(text);
    if text.chars().count() <= max {
        return text;
    }
    text.chars().take(max - 1).collect::<String>() + "…"
}

/// `// The agent read: find_nodes {"label":"ship v0"}`.
pub(super) fn read(read: &RecordedRead) -> String {
    let arguments = serde_json::Value::Object(read.arguments.clone()).to_string();
    format!(
        "    // The agent read: {}\n",
        cut(&format!("{} {arguments}", read.tool), NOTE_CHARS)
    )
}

/// `// Not sent: the bridge refused act {…}`, then `// (not_found) no node …`; for a
/// batch's step, which one, and its arguments alone. Each line 100 characters at most.
pub(super) fn refused(refusal: &RecordedRefusal) -> String {
    let tool = taria_schema::protocol::wire_name(&refusal.tool);
    let step_arguments = refusal.step.and_then(|step| {
        let steps = refusal.arguments.get("steps")?.as_array()?;
        steps.get(usize::try_from(step).ok()?.checked_sub(1)?)
    });
    let what = match (refusal.step, step_arguments) {
        (Some(step), Some(arguments)) => format!("step {step} of this batch, {arguments}"),
        (Some(step), None) => format!("step {step} of this batch"),
        (None, _) => format!(
            "{tool} {}",
            serde_json::Value::Object(refusal.arguments.clone())
        ),
    };
    let mut note = format!("    // Not sent: the bridge refused {}\n", cut(&what, 65));
    let code = cut(&refusal.code, 32);
    let said = refusal.message.as_deref().unwrap_or("");
    let room = 100 - "    // () ".len() - code.chars().count();
    let said = format!("    // ({code}) {}", cut(said, room));
    let _ = writeln!(note, "{}", said.trim_end());
    note
}

/// `// Steps 4 to 6 are one batch call.`
pub(super) fn batch(first: u64, last: u64) -> String {
    if first == last {
        format!("    // Step {first} is a batch call of one step.\n")
    } else {
        format!("    // Steps {first} to {last} are one batch call.\n")
    }
}

/// Where the app went away: `// The app exited here (exit status 101); it printed:
/// "thread 'main' panicked at …"`, or why its connection ended.
pub(super) fn away(app: &RecordedApp) -> String {
    let event = match app.event {
        AppEvent::Restarted => "was restarted",
        AppEvent::Reconnected => "was connected to again",
        _ => match app.exit() {
            Some(_) => "exited",
            None => "ended its connection",
        },
    };
    let mut note = match (app.exit(), &app.message) {
        (Some(exit), _) => format!("    // The app {event} here ({exit})"),
        (None, Some(message)) => format!("    // The app {event} here: {}", cut(message, 60)),
        (None, None) => format!("    // The app {event} here"),
    };
    match app
        .output
        .as_deref()
        .map(str::trim)
        .filter(|o| !o.is_empty())
    {
        Some(output) => {
            let printed = serde_json::to_string(output).unwrap_or_default();
            let _ = writeln!(note, "; it printed:\n    // {}", cut(&printed, NOTE_CHARS));
        }
        None => note.push_str(".\n"),
    }
    note
}
