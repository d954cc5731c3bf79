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

/// A text without the blank lines above and below what it says: a table cell padded
/// to its row's height (`"\nAda\n"`) has the value `Ada`. Written through `Display`
/// without allocating.
pub(crate) struct Trimmed<'t, 'a>(pub(crate) &'t Text<'a>);

impl fmt::Display for Trimmed<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let blank = |line: &&Line<'_>| line.spans.iter().all(|s| s.content.trim().is_empty());
        let lines = &self.0.lines;
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
    use ratatui::text::Text;

    use super::Trimmed;

    #[test]
    fn a_cell_s_padding_lines_are_not_its_value() {
        let padded = Text::from("\n45 Harbour Lane\nNagoya 1185\n\n");
        assert_eq!(Trimmed(&padded).to_string(), "45 Harbour Lane\nNagoya 1185");
        assert_eq!(Trimmed(&Text::from("  \n \n")).to_string(), "");
        assert_eq!(Trimmed(&Text::from(" Ada ")).to_string(), " Ada ");
    }
}
