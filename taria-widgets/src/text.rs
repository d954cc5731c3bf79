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
