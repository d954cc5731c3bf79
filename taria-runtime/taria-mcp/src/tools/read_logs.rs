//! `read_logs`, and the note an input's result gets when the input logged a warning
//! or an error: the app's log as the bridge keeps it ([`crate::logs`]). Log text is
//! the app's: written for the model as the outline writes app text.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria_schema::outline::{OutlineName, OutlineQuoted};
use taria_schema::protocol::LogLevel;

use super::args;
use super::reply::{ForModel, compact, one_line};
use crate::errors::ToolError;
use crate::journal::Numbered;
use crate::link::Link;
use crate::logs::{InputId, LogLine};
use crate::plural::count;

/// `read_logs` arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct ReadLogsArgs {
    /// Or worse; default warn.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) level: Option<LevelArg>,
    // A cursor from a result (the tool's description says it).
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) since: Option<u64>,
    // Default 50, as find_nodes' (undescribed: tools/list's bytes).
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) limit: Option<usize>,
}

/// A level, as `read_logs` takes it (its variants undocumented: the schema is a
/// plain enum of the names).
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum LevelArg {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

impl From<LevelArg> for LogLevel {
    fn from(level: LevelArg) -> LogLevel {
        match level {
            LevelArg::Error => LogLevel::Error,
            LevelArg::Warn => LogLevel::Warn,
            LevelArg::Info => LogLevel::Info,
            LevelArg::Debug => LogLevel::Debug,
            LevelArg::Trace => LogLevel::Trace,
        }
    }
}

/// The most entries one `read_logs` returns.
const MAX_LIMIT: usize = 500;

/// The longest message the note in an input's result quotes, in characters (the
/// whole entry is `read_logs`').
const NOTE_MESSAGE_CHARS: usize = 200;

/// The most entries the note in an input's result quotes.
const NOTE_ENTRIES: usize = 3;

/// One entry, as `read_logs` returns it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct LogLineResult {
    /// Its number: a cursor.
    pub(crate) n: u64,
    /// `error`, `warn`, `info`, `debug` or `trace`.
    pub(crate) level: LogLevel,
    /// The event's target (untrusted app text).
    pub(crate) target: String,
    /// The message (untrusted app text).
    pub(crate) message: String,
    /// Its other fields (untrusted app text).
    #[serde(skip_serializing_if = "serde_json::Map::is_empty")]
    pub(crate) fields: serde_json::Map<String, Json>,
    /// Entries the app dropped just before this one (it logged faster than taria-mcp
    /// read).
    #[serde(skip_serializing_if = "is_zero")]
    pub(crate) dropped_before: u64,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &u64) -> bool {
    *n == 0
}

/// `read_logs` result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReadLogsResult {
    /// The least severe level shown.
    pub(crate) level: LogLevel,
    /// The cursor read after.
    pub(crate) since: u64,
    /// Pass as `since` to read on.
    pub(crate) next: u64,
    /// More entries came after the last one shown.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) more: bool,
    /// Entries after `since` no longer kept (taria-mcp keeps the newest 2,000).
    #[serde(skip_serializing_if = "is_zero")]
    pub(crate) missed: u64,
    /// The entries, oldest first.
    pub(crate) entries: Vec<LogLineResult>,
    /// Why there may be nothing to read.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

/// `read_logs`: what the app logged after `since`, connecting first so that a
/// running app's log flows (an app that has exited is read as it was kept).
pub(crate) async fn read_logs(
    link: &Link,
    args: ReadLogsArgs,
) -> Result<ReadLogsResult, ToolError> {
    let connected = link.ensure_connected().await;
    let level = args.level.map_or(LogLevel::Warn, LogLevel::from);
    let since = args.since.unwrap_or(0);
    let limit = args.limit.unwrap_or(50).clamp(1, MAX_LIMIT);
    let mut page = link.logs().read(since, level, limit);
    let entries = within_budget(
        page.entries.drain(..).map(line_result).collect(),
        ENTRIES_CHARS,
    );
    if let Some(cut) = entries.cut_after {
        page.more = true;
        page.next = cut;
    }
    let note = match (&connected, link.app_logs()) {
        _ if !entries.shown.is_empty() => None,
        (Err(e), _) => Some(format!("no app is connected now ({})", e.message)),
        (Ok(()), Some(false)) => Some(
            "the app does not capture its log: it needs taria::logs::layer() in its tracing \
             subscriber"
                .to_owned(),
        ),
        (Ok(()), _) => None,
    };
    Ok(ReadLogsResult {
        level,
        since,
        next: page.next,
        more: page.more,
        missed: page.missed,
        entries: entries.shown,
        note,
    })
}

/// The most characters of entries one `read_logs` result shows (its text stays under
/// the cap on every result, `server/deliver.rs`, with its status line): past it, the result
/// stops and says to read on from the last one shown.
const ENTRIES_CHARS: usize = 36_000;

/// The most characters of one entry's message, and of each of its fields' text, shown
/// when the entry alone is over the budget.
const ENTRY_PART_CHARS: usize = 1_000;

/// Entries that fit a result.
struct Shown {
    /// The entries shown, oldest first.
    shown: Vec<LogLineResult>,
    /// Set when entries were left out at the end: the number of the last one shown.
    cut_after: Option<u64>,
}

/// The first of `entries` whose lines take at most `budget` characters in all; at
/// least one, an entry over the budget on its own shown with its message and fields
/// cut ([`ENTRY_PART_CHARS`]).
fn within_budget(entries: Vec<LogLineResult>, budget: usize) -> Shown {
    let total = entries.len();
    let mut shown = Vec::new();
    let mut used = 0;
    for mut entry in entries {
        let mut chars = entry_line(&entry).chars().count() + 1;
        if shown.is_empty() && chars > budget {
            clip_entry(&mut entry);
            chars = entry_line(&entry).chars().count() + 1;
        }
        if !shown.is_empty() && used + chars > budget {
            break;
        }
        used += chars;
        shown.push(entry);
    }
    let cut_after = (shown.len() < total)
        .then(|| shown.last().map(|entry| entry.n))
        .flatten();
    Shown { shown, cut_after }
}

/// Cuts an entry's message, and each field's text, to [`ENTRY_PART_CHARS`], saying so.
fn clip_entry(entry: &mut LogLineResult) {
    let clip = |text: &mut String| {
        if let Some((end, _)) = text.char_indices().nth(ENTRY_PART_CHARS) {
            let all = text.chars().count();
            text.truncate(end);
            let _ = write!(text, "… ({all} characters, cut)");
        }
    };
    clip(&mut entry.message);
    for value in entry.fields.values_mut() {
        match value {
            Json::String(text) => clip(text),
            Json::Array(_) | Json::Object(_) => {
                let mut text = value.to_string();
                clip(&mut text);
                *value = Json::String(text);
            }
            _ => {}
        }
    }
}

fn line_result(numbered: Numbered<LogLine>) -> LogLineResult {
    let Numbered { number, entry } = numbered;
    LogLineResult {
        n: number,
        level: entry.entry.level,
        target: entry.entry.target,
        message: entry.entry.message,
        fields: entry.entry.fields,
        dropped_before: entry.dropped_before,
    }
}

/// An entry on one line for the model: `12 warn todo::app: "message" {fields}`; the
/// target as an outline name, the message quoted, the fields compact JSON.
pub(crate) fn entry_line(entry: &LogLineResult) -> String {
    let mut line = format!(
        "{} {} {}: {}",
        entry.n,
        entry.level,
        OutlineName(&entry.target),
        OutlineQuoted(&entry.message)
    );
    if !entry.fields.is_empty() {
        line.push(' ');
        line.push_str(&compact(&entry.fields));
    }
    if entry.dropped_before > 0 {
        let _ = write!(line, " ({} dropped before it)", entry.dropped_before);
    }
    line
}

/// What an input call's result says of the warnings and errors logged while one of
/// its `inputs` was the app's newest: a line of text, and its structured form.
pub(crate) struct Logged {
    /// `(1 warning logged: warn app: "…")`.
    pub(crate) line: String,
    /// `{"errors": 1, "warnings": 0, "since": 11}`: `read_logs` from `since` shows them.
    pub(crate) summary: Json,
}

/// The note for `inputs`, from the entries numbered after `since` (the newest when
/// the call began); `None` when they logged no warning or error.
pub(crate) fn logged(link: &Link, inputs: &[InputId], since: u64) -> Option<Logged> {
    let caused = link.logs().caused_by(inputs, since);
    let first = caused.first()?.number;
    let errors = caused
        .iter()
        .filter(|line| line.entry.entry.level == LogLevel::Error)
        .count();
    let warnings = caused.len() - errors;
    let mut counts = Vec::new();
    if errors > 0 {
        counts.push(count(errors, "error", "errors"));
    }
    if warnings > 0 {
        counts.push(count(warnings, "warning", "warnings"));
    }
    let quoted: Vec<String> = caused
        .iter()
        .take(NOTE_ENTRIES)
        .map(|line| {
            let entry = &line.entry.entry;
            let mut message: String = entry.message.chars().take(NOTE_MESSAGE_CHARS).collect();
            if message.len() < entry.message.len() {
                message.push('…');
            }
            format!(
                "{} {}: {}",
                entry.level,
                OutlineName(&entry.target),
                OutlineQuoted(&message)
            )
        })
        .collect();
    let mut note = format!("({} logged: {}", counts.join(", "), quoted.join("; "));
    if caused.len() > NOTE_ENTRIES {
        let _ = write!(
            note,
            "; {} more: read_logs since={}",
            caused.len() - NOTE_ENTRIES,
            first - 1
        );
    }
    note.push(')');
    Some(Logged {
        line: note,
        summary: serde_json::json!({"errors": errors, "warnings": warnings, "since": first - 1}),
    })
}

impl ForModel for ReadLogsResult {
    fn for_model(&self) -> String {
        let mut out = format!(
            "{} at {} or worse after {}, next since={}",
            count(self.entries.len(), "log entry", "log entries"),
            self.level,
            self.since,
            self.next
        );
        if self.more {
            out.push_str(", more after these");
        }
        if self.missed > 0 {
            let _ = write!(out, ", {} before them no longer kept", self.missed);
        }
        if let Some(note) = &self.note {
            let _ = write!(out, " ({})", one_line(note));
        }
        for entry in &self.entries {
            out.push('\n');
            out.push_str(&entry_line(entry));
        }
        out
    }
}

/// The `read_logs` tool.
pub(crate) struct ReadLogs;

impl super::Tool for ReadLogs {
    const NAME: &'static str = "read_logs";
    const DESCRIPTION: &'static str = "Reads the app's log after `since`.";
    const KIND: super::Kind = super::Kind::Read;
    const READ_THE_REST: &'static str =
        "read_logs with since (the last number shown) and a smaller limit reads on";
    type Args = ReadLogsArgs;
    type Result = ReadLogsResult;

    fn annotations() -> Option<rmcp::model::ToolAnnotations> {
        Some(rmcp::model::ToolAnnotations::new().read_only(true))
    }

    async fn run(cx: super::Cx<'_>, args: ReadLogsArgs) -> Result<ReadLogsResult, ToolError> {
        read_logs(cx.link, args).await
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;
    use taria_schema::protocol::LogLevel;

    use super::{LogLineResult, entry_line, within_budget};

    fn entry(n: u64, message: String) -> LogLineResult {
        LogLineResult {
            n,
            level: LogLevel::Warn,
            target: "app".into(),
            message,
            fields: serde_json::Map::new(),
            dropped_before: 0,
        }
    }

    /// A flood of long entries is shown up to the budget, with the number to read on
    /// from; one entry longer than the budget alone is shown cut, never left out.
    #[test]
    fn entries_are_shown_within_the_budget() {
        let entries = (1..=87).map(|n| entry(n, "x".repeat(30_000))).collect();
        let shown = within_budget(entries, 36_000);
        assert_eq!(shown.shown.len(), 1);
        assert_eq!(shown.cut_after, Some(1));
        let entries = (1..=87).map(|n| entry(n, "y".repeat(1_000))).collect();
        let shown = within_budget(entries, 36_000);
        let chars: usize = shown
            .shown
            .iter()
            .map(|e| entry_line(e).chars().count() + 1)
            .sum();
        assert!(chars <= 36_000, "{chars}");
        assert_eq!(shown.shown.len(), 35);
        assert_eq!(shown.cut_after, Some(35));
        let mut huge = entry(9, "z".repeat(100_000));
        huge.fields.insert("blob".into(), json!("w".repeat(50_000)));
        huge.fields
            .insert("list".into(), json!(["v".repeat(50_000)]));
        let shown = within_budget(vec![huge, entry(10, "after".into())], 36_000);
        assert_eq!(shown.shown.len(), 2, "the huge one, cut, and the next");
        let line = entry_line(&shown.shown[0]);
        assert!(line.len() < 4_000, "{}", line.len());
        assert!(line.contains("… (100000 characters, cut)"), "{line}");
        assert!(line.contains("… (50000 characters, cut)"), "{line}");
        assert_eq!(shown.cut_after, None);
        let all = within_budget(vec![entry(1, "a".into()), entry(2, "b".into())], 36_000);
        assert_eq!((all.shown.len(), all.cut_after), (2, None));
    }

    /// Every part of an entry is the app's: a target, a message or a field that tries
    /// to start a line of its own stays on the entry's line.
    #[test]
    fn an_entry_stays_on_its_line_whatever_the_app_logged() {
        let serde_json::Value::Object(fields) = json!({"path": "a\n- button [id=x]", "n": 3})
        else {
            unreachable!("an object")
        };
        let entry = LogLineResult {
            n: 7,
            level: LogLevel::Warn,
            target: "app\n- row".into(),
            message: "no\r\u{85}line".into(),
            fields,
            dropped_before: 2,
        };
        let line = entry_line(&entry);
        assert_eq!(line.lines().count(), 1, "{line}");
        assert_eq!(
            line,
            r#"7 warn "app\n- row": "no\r\u0085line" {"n":3,"path":"a\n- button [id=x]"} (2 dropped before it)"#
        );
    }
}
