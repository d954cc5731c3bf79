//! Values read from the screen: a node that says where its value is drawn
//! ([`NodeBuilder::drawn_value`](super::NodeBuilder::drawn_value)) and was given no
//! value takes the text drawn there, once the frame's buffer is complete.
//!
//! Who marks a node so: a `taria-widgets` `Block` given `text_input` or `text_area` marks
//! its inner area, so whatever draws the input's text makes its value and `type_text` is
//! answered with the change; `#[taria::widget]` with a text role (`text`, `status`,
//! `heading`, `log`, `notification`, `tooltip`, `text_input`, `text_area`) and neither
//! `label` nor `value` marks its area, so a custom widget that writes the buffer with
//! `set_string` is recorded by its attribute alone. The pass runs once the frame is drawn
//! and before held actions are settled and the frame is published (the session's
//! `FrameEnd`; `Harness::render`; `Recorder::read_drawn` for a frame recorded by hand),
//! walking the node list once, and only when a frame was recorded.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use super::arena::{FrameArena, Span, ValueRecord};
use super::text::truncate;
use taria_schema::{Bounds, MAX_VALUE_BYTES, Role};

impl FrameArena {
    /// Gives each node that takes its value from the screen and was given none the
    /// text drawn in its area of `buffer` ([`drawn_text`]).
    ///
    /// An input's value is its text whatever else it has; any other node's text is
    /// already said by its label or its children when it has them, and then it takes
    /// nothing. Nothing drawn there leaves the node without a value.
    pub(crate) fn read_drawn(&mut self, buffer: &Buffer) {
        let FrameArena { nodes, text, .. } = self;
        for (index, node) in nodes.iter_mut().enumerate() {
            if node.drawn_value == Bounds::default() || node.value != ValueRecord::None {
                continue;
            }
            let input = matches!(node.role, Role::TextInput | Role::TextArea);
            let has_children = node.end as usize > index + 1;
            if !input && (node.label.is_some() || has_children) {
                continue;
            }
            let start = text.len();
            drawn_text(buffer, rect(node.drawn_value), text);
            let written = truncate(&text[start..], MAX_VALUE_BYTES).len();
            text.truncate(start + written);
            if text.len() > start {
                node.value = ValueRecord::Text(Span::since(start, text));
            }
        }
    }
}

fn rect(bounds: Bounds) -> Rect {
    Rect::new(bounds.x, bounds.y, bounds.width, bounds.height)
}

/// Appends to `out` the text drawn in `area` of `buffer`: its rows joined by `\n`,
/// each without the blanks at its end, and without the blank rows and the blanks
/// before and after it all. A wide character counts once.
pub(crate) fn drawn_text(buffer: &Buffer, area: Rect, out: &mut String) {
    let area = area.intersection(buffer.area);
    let start = out.len();
    // Where the text written so far ends, without the blank rows after it.
    let mut kept = start;
    for y in area.top()..area.bottom() {
        let started = kept > start;
        if started {
            out.push('\n');
        }
        let row_start = out.len();
        let mut skip = 0usize;
        for x in area.left()..area.right() {
            if skip > 0 {
                skip -= 1;
                continue;
            }
            let symbol = buffer[(x, y)].symbol();
            skip = ratatui::text::Span::raw(symbol).width().saturating_sub(1);
            // The blank cells before the text are not kept.
            if !started && out.len() == row_start && symbol.trim().is_empty() {
                continue;
            }
            out.push_str(symbol);
        }
        let row_end = row_start + out[row_start..].trim_end().len();
        out.truncate(row_end);
        if row_end > row_start {
            kept = row_end;
        }
    }
    out.truncate(kept);
}

#[cfg(test)]
mod tests {
    use ratatui::buffer::Buffer;
    use ratatui::layout::Rect;

    use super::drawn_text;

    fn drawn(lines: &[&str], area: Rect) -> String {
        let buffer = Buffer::with_lines(lines.iter().copied());
        let mut out = String::from("kept:");
        drawn_text(&buffer, area, &mut out);
        out
    }

    #[test]
    fn the_text_drawn_in_an_area_is_its_rows_without_the_blanks_around() {
        let screen = [
            "┌Name──────┐",
            "│  Ada     │",
            "│          │",
            "└──────────┘",
        ];
        assert_eq!(drawn(&screen, Rect::new(1, 1, 10, 2)), "kept:Ada");
        assert_eq!(drawn(&screen, Rect::new(1, 2, 10, 1)), "kept:");
        let two = ["", " first  ", "", "  second ", "   "];
        assert_eq!(drawn(&two, Rect::new(0, 0, 9, 5)), "kept:first\n\n  second");
        // Outside the buffer: nothing.
        assert_eq!(drawn(&two, Rect::new(20, 20, 3, 3)), "kept:");
    }

    #[test]
    fn a_wide_character_counts_once() {
        assert_eq!(
            drawn(&["名前: 山田 "], Rect::new(0, 0, 11, 1)),
            "kept:名前: 山田"
        );
    }
}
