//! What a tool's result becomes on the wire, the one place every result passes:
//! its text, which is what the model reads, cut to [`RESULT_CHARS`] with a line
//! saying what was cut and how to read the rest; and `structuredContent` only for
//! a client that asked for it (`--structured`).
//!
//! Why text only by default: several hosts (Claude Code, Codex, fast-agent,
//! pydantic-ai) hand the model a result's `structuredContent` instead of its text
//! when it has one, so a result that carried both would show those models escaped
//! JSON, without the status line, at about 1.3× the bytes (3–4× for an act on a
//! table, whose changed ids are listed). Programs that want fields pass
//! `--structured` or read `read_tree format: json`.
//!
//! The cut (under gemini-cli's 40k and Claude Code's 50k-character and 25k-token limits)
//! falls at a line's end and is the last guard, not the way a read is paged: reads bound
//! themselves before it (`render.rs`' cap on trees; `read_logs` pages its entries).
//! Checked by every call in `tests/mcp/` (`check_model_text` in `harness.rs`: not a JSON
//! object, every outline and change line in the text), by `tests/mcp/host_form.rs` (a
//! session as hosts start it gets text only), and by the real hosts in
//! `examples/e2e/hosts/` against a stand-in model.

use rmcp::model::{CallToolResult, ContentBlock};

/// The most characters of text one result carries: below the hosts' own limits
/// (gemini-cli cuts at 40,000 characters; Claude Code saves a result over 50,000
/// to a file and caps one at 25,000 tokens), so the model reads the whole of it.
pub(crate) const RESULT_CHARS: usize = 40_000;

/// What a result carries besides its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ResultForm {
    /// The text only: what every host hands its model.
    Text,
    /// The text and `structuredContent` (the result's fields as JSON), for programs
    /// (`--structured`). Never for a model's host: some show the model the JSON.
    Structured,
}

/// `result` as the client gets it, for a call of `tool`.
pub(crate) fn deliver(mut result: CallToolResult, tool: &str, form: ResultForm) -> CallToolResult {
    if form == ResultForm::Text {
        result.structured_content = None;
    }
    for block in &mut result.content {
        if let ContentBlock::Text(text) = block {
            cut_to_fit(&mut text.text, RESULT_CHARS, tool);
        }
    }
    result
}

/// The most characters of notes at a result's end (what its input logged, a
/// recording that stopped, a read's own cut) kept below a cut.
const NOTES_KEPT_CHARS: usize = 2_000;

/// Where the lines of notes that end `text` begin (each `(…)` or `note: …`), when
/// they are short enough to keep below a cut; `text.len()` when there are none.
fn notes_start(text: &str) -> usize {
    let mut start = text.len();
    for line in text.lines().rev().take(3) {
        let at = start.saturating_sub(line.len());
        let is_note = line.starts_with('(') || line.starts_with("note: ");
        if !is_note || text[at..].chars().count() > NOTES_KEPT_CHARS || at == 0 {
            break;
        }
        // The newline before the line goes with it.
        start = at - 1;
    }
    start
}

/// Cuts `text` to at most `max` characters, at a line's end where one is near, and
/// ends it with a line saying how much was cut and how to read the rest; the notes
/// that ended it stay after that line.
fn cut_to_fit(text: &mut String, max: usize, tool: &str) {
    if text.char_indices().nth(max).is_none() {
        return;
    }
    let notes = text.split_off(notes_start(text));
    let max = max.saturating_sub(notes.chars().count());
    let Some((limit, _)) = text.char_indices().nth(max) else {
        text.push_str(&notes);
        return;
    };
    let total = text.chars().count();
    let note = |shown: usize| {
        format!(
            "\n(cut: this result showed {shown} of its {total} characters; {})",
            crate::tools::read_the_rest(tool)
        )
    };
    // Room for the note, whose length hardly depends on the number in it.
    let room = max.saturating_sub(note(max).chars().count());
    let end = text.char_indices().nth(room).map_or(limit, |(at, _)| at);
    let end = match text[..end].rfind('\n') {
        Some(line_end) if end - line_end < 2_000 => line_end,
        _ => end,
    };
    let shown = text[..end].chars().count();
    text.truncate(end);
    text.push_str(&note(shown));
    text.push_str(&notes);
}

#[cfg(test)]
mod tests {
    use rmcp::model::{CallToolResult, ContentBlock};
    use serde_json::json;

    use super::{ResultForm, cut_to_fit, deliver};

    fn text_of(result: &CallToolResult) -> &str {
        match &result.content[0] {
            ContentBlock::Text(text) => &text.text,
            _ => panic!("a text block"),
        }
    }

    /// A host that shows the model `structuredContent` shows it the text: by default
    /// a result has none; with `--structured` it keeps it, beside the same text.
    #[test]
    fn structured_content_only_when_asked_for() {
        let mut result = CallToolResult::structured(json!({"revision": 1}));
        result.content = vec![ContentBlock::text("revision 1")];
        let text = deliver(result.clone(), "read_tree", ResultForm::Text);
        assert_eq!(text.structured_content, None);
        assert_eq!(text_of(&text), "revision 1");
        let structured = deliver(result, "read_tree", ResultForm::Structured);
        assert_eq!(structured.structured_content, Some(json!({"revision": 1})));
        assert_eq!(text_of(&structured), "revision 1");
    }

    /// A long result is cut under the cap, at a line's end, and says what it cut and
    /// how to read on; a result within the cap is untouched.
    #[test]
    fn a_long_result_is_cut_under_the_cap_saying_how_to_read_on() {
        let line = format!("- text \"{}\" [id=x]\n", "é".repeat(90));
        let mut text = line.repeat(1_000);
        let total = text.chars().count();
        cut_to_fit(&mut text, 40_000, "read_tree");
        assert!(text.chars().count() <= 40_000, "{}", text.chars().count());
        let (kept, note) = text.rsplit_once('\n').unwrap();
        assert!(kept.ends_with("[id=x]"), "cut at a line's end");
        assert_eq!(
            note,
            format!(
                "(cut: this result showed {} of its {total} characters; read_tree with root \
                 (an id shown above) and depth reads one part at a time)",
                kept.chars().count()
            )
        );
        let mut short = line.repeat(3);
        cut_to_fit(&mut short, 40_000, "read_tree");
        assert_eq!(short, line.repeat(3));
        // One long line: cut inside it, at a character's boundary.
        let mut one = "é".repeat(50_000);
        cut_to_fit(&mut one, 40_000, "find_nodes");
        assert!(one.chars().count() <= 40_000);
        assert!(
            one.ends_with("narrow the filters, or give a smaller limit)"),
            "{one}"
        );
    }

    /// The notes that end a result (what the input logged, a recording that stopped)
    /// stay below the cut: they are said once, and the cut would take them first.
    #[test]
    fn a_cut_keeps_the_notes_that_end_the_result() {
        let logged = "(1 warning logged: warn app: \"disk full\")";
        let recording = "note: the recording r.jsonl stopped here";
        let mut text = format!(
            "delivered, revision 4\n{}{logged}\n{recording}",
            "- text \"row\" [id=r]\n".repeat(3_000)
        );
        cut_to_fit(&mut text, 40_000, "act");
        assert!(text.chars().count() <= 40_000, "{}", text.chars().count());
        let lines: Vec<&str> = text.lines().rev().take(3).collect();
        assert_eq!(lines[0], recording);
        assert_eq!(lines[1], logged);
        assert!(
            lines[2].starts_with("(cut: this result showed "),
            "{}",
            lines[2]
        );
    }
}
