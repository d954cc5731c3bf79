//! Plain text out of ratatui's styled text, for labels and values.

use std::borrow::Cow;
use std::fmt;

use ratatui::text::{Line, Text};

/// A line's text. Borrows (no allocation) when the line is one borrowed span, the
/// usual `title("Tasks")` case.
pub(crate) fn line_text<'a>(line: &Line<'a>) -> Cow<'a, str> {
    match line.spans.as_slice() {
        [] => Cow::Borrowed(""),
        [span] => span.content.clone(),
        spans => Cow::Owned(spans.iter().map(|s| s.content.as_ref()).collect()),
    }
}

/// Runs `f` on the first line of `text` as an item's key: its words without the state
/// mark the app draws beside them ([`without_state_mark`]). A line of one span is read
/// in place; others are joined in a buffer this thread reuses, so a frame recorded
/// after the first allocates nothing here.
pub(crate) fn with_item_key<R>(text: &Text<'_>, f: impl FnOnce(&str) -> R) -> R {
    let Some(line) = text.lines.first() else {
        return f("");
    };
    if let [span] = line.spans.as_slice() {
        return f(without_state_mark(&span.content));
    }
    thread_local! {
        static JOINED: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
    }
    JOINED.with(|joined| {
        // Taken only when `f` itself asks for another item's key: join afresh.
        let Ok(mut joined) = joined.try_borrow_mut() else {
            let joined: String = line.spans.iter().map(|s| s.content.as_ref()).collect();
            return f(without_state_mark(&joined));
        };
        joined.clear();
        for span in &line.spans {
            joined.push_str(&span.content);
        }
        f(without_state_mark(&joined))
    })
}

/// Marks an app draws beside an item's words to show its state: check boxes and
/// ticks, bullets and radio dots, stars.
const STATE_GLYPHS: &[char] = &[
    '☐', '☑', '☒', '✓', '✔', '✗', '✘', '✅', '❌', '⬜', '⬛', '●', '○', '◉', '◯', '◌', '■', '□',
    '▣', '▢', '★', '☆', '•', '◆', '◇',
];

/// `line` without the mark of its state the app draws around its words, so that
/// toggling an item does not rename it: a glyph (`☐`, `✓`, `●`, …) or a one-character
/// box (`[ ]`, `[x]`, `(*)`) before them, a glyph or a count (`(3)`, `[12]`, `(2/5)`)
/// after them, and the spaces around. The line itself when nothing else is left.
pub(crate) fn without_state_mark(line: &str) -> &str {
    let trimmed = line.trim();
    let mut words = trimmed;
    // A glyph, or a box of at most one character, then a space.
    if let Some(rest) = words.strip_prefix(STATE_GLYPHS) {
        words = rest.trim_start();
    } else if let Some(rest) = strip_box(words) {
        words = rest;
    }
    // A glyph, or a count in brackets, after a space.
    if let Some(rest) = words.strip_suffix(STATE_GLYPHS) {
        words = rest.trim_end();
    } else if let Some((rest, count)) = words.rsplit_once(' ')
        && is_count(count)
    {
        words = rest.trim_end();
    }
    if words.is_empty() { trimmed } else { words }
}

/// `words` after a leading box of at most one character (`[ ]`, `[x]`, `(*)`) and the
/// space after it.
fn strip_box(words: &str) -> Option<&str> {
    let close = match words.chars().next()? {
        '[' => ']',
        '(' => ')',
        _ => return None,
    };
    let inside = &words[1..];
    let end = inside.find(close)?;
    let rest = inside[end + close.len_utf8()..].strip_prefix(' ')?;
    (inside[..end].chars().count() <= 1).then(|| rest.trim_start())
}

/// Whether `word` is a count in brackets: `(3)`, `[12]`, `(2/5)`.
fn is_count(word: &str) -> bool {
    let inner = word
        .strip_prefix('(')
        .and_then(|w| w.strip_suffix(')'))
        .or_else(|| word.strip_prefix('[').and_then(|w| w.strip_suffix(']')));
    inner.is_some_and(|inner| {
        !inner.is_empty() && inner.chars().all(|c| c.is_ascii_digit() || c == '/')
    })
}

/// The first line of a text, written without allocating.
pub(crate) struct FirstLine<'t, 'a>(pub(crate) &'t Text<'a>);

/// Written as its `Display` writes it, without going through `core::fmt`.
impl taria::builder::IntoText for &FirstLine<'_, '_> {
    fn write_text(self, sink: &mut taria::builder::TextSink<'_>) {
        if let Some(line) = self.0.lines.first() {
            line.write_text(sink);
        }
    }
}

impl taria::builder::IntoText for FirstLine<'_, '_> {
    fn write_text(self, sink: &mut taria::builder::TextSink<'_>) {
        (&self).write_text(sink);
    }
}

impl fmt::Display for FirstLine<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0.lines.first() {
            Some(line) => fmt::Display::fmt(line, f),
            None => Ok(()),
        }
    }
}

/// A text without the blank lines above and below what it says: a table cell padded
/// to its row's height (`"\nAda\n"`) has the value `Ada`. Written through `Display`
/// without allocating. Of the text's first `.1` lines only: what a cell that many rows
/// high shows of it (ratatui draws a cell's lines from its top and cuts the rest;
/// `usize::MAX`: all).
pub(crate) struct Trimmed<'t, 'a>(pub(crate) &'t Text<'a>, pub(crate) usize);

impl fmt::Display for Trimmed<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let blank = |line: &&Line<'_>| line.spans.iter().all(|s| s.content.trim().is_empty());
        let lines = &self.0.lines[..self.0.lines.len().min(self.1)];
        let Some(first) = lines.iter().position(|l| !blank(&l)) else {
            return Ok(());
        };
        let last = lines.iter().rposition(|l| !blank(&l)).unwrap_or(first);
        for (i, line) in lines[first..=last].iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            fmt::Display::fmt(line, f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use ratatui::text::{Line, Span, Text};

    use super::{Trimmed, with_item_key, without_state_mark};

    #[test]
    fn an_item_s_key_leaves_out_the_mark_of_its_state() {
        for (line, key) in [
            (" ☐ Water the plants", "Water the plants"),
            (" ✓ Water the plants", "Water the plants"),
            ("[ ] Call grandma", "Call grandma"),
            ("[x] Call grandma", "Call grandma"),
            ("(*) Radio one", "Radio one"),
            ("Inbox (3)", "Inbox"),
            ("Inbox [12]", "Inbox"),
            ("Chapters (2/5)", "Chapters"),
            ("Deploy ✔", "Deploy"),
            ("● online", "online"),
            // Words are kept: not a mark, or nothing but the mark.
            ("[draft] Notes", "[draft] Notes"),
            ("Route 66", "Route 66"),
            ("(3)", "(3)"),
            ("✓", "✓"),
            ("", ""),
        ] {
            assert_eq!(without_state_mark(line), key, "{line:?}");
        }
    }

    #[test]
    fn a_styled_item_s_key_is_its_spans_joined() {
        let line = Line::from(vec![Span::raw("✓ "), Span::raw("Buy "), Span::raw("milk")]);
        let text = Text::from(line);
        assert_eq!(with_item_key(&text, str::to_owned), "Buy milk");
        assert_eq!(
            with_item_key(&Text::from("☐ Walk dog\nat six"), str::to_owned),
            "Walk dog"
        );
    }

    #[test]
    fn a_cell_s_padding_lines_are_not_its_value() {
        let padded = Text::from("\n45 Harbour Lane\nNagoya 1185\n\n");
        assert_eq!(
            Trimmed(&padded, usize::MAX).to_string(),
            "45 Harbour Lane\nNagoya 1185"
        );
        assert_eq!(Trimmed(&Text::from("  \n \n"), usize::MAX).to_string(), "");
        assert_eq!(
            Trimmed(&Text::from(" Ada "), usize::MAX).to_string(),
            " Ada "
        );
        let two = Text::from("red bell pepper cut\ninto slivers");
        assert_eq!(Trimmed(&two, 1).to_string(), "red bell pepper cut");
        assert_eq!(Trimmed(&two, 0).to_string(), "");
    }
}
