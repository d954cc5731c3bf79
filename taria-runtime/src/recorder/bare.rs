//! Bare text rendered as a widget (`frame.render_widget(Line::from("q quits"), area)`)
//! recorded as a `text` node: what `#[taria::app]` and `#[taria::widget]` make of each
//! `render_widget` call in the code they rewrite, through an autoref-specialization
//! probe, so that only text types record and every other widget costs nothing.
//!
//! The node's bounds are the cells `Line::render_with_alignment` covers, its label the
//! first line, its value the lines drawn when there are more. Inside a node that is not a
//! container (a `spin_button` drawing `Count: 41`) the text is that node's and records
//! nothing of its own (`holds_text`). Off, it is the one flag check.
//!
//! Why the macros rewrite the calls rather than the frame's end reading "what no node
//! claims" from the buffer: that would reach render functions the macros do not see, but
//! it would have to guess where one text ends (columns, gaps) and which node a cell
//! belongs to (a `Block` leaf covers what others draw inside it), it would append nodes
//! after the pre-order arena is complete, and it would change the tree of every existing
//! app that draws a `Paragraph` beside nodes without bounds. The macros' reach is
//! documented instead, with its one-line fixes (integration guide, section 2).

use std::fmt;

use ratatui::Frame;
use ratatui::layout::{Alignment, Rect};
use ratatui::text::{Line, Span, Text};

use super::{Displayed, NodeBuilder, is_recording, leaf, open_role};
use taria_schema::{MAX_LABEL_BYTES, Role};

/// Text ratatui draws as a widget of its own: `&str`, `String`, `Span`, `Line`,
/// `Text`, and references to them.
pub trait BareText {
    /// Records the text as drawn in `area`.
    fn record_text(&self, area: Rect);
}

/// Autoref-specialization probe: `(&WidgetProbe(&w)).taria_text_node(&area)` records
/// `w` when its type is [`BareText`], and does nothing otherwise.
pub struct WidgetProbe<'a, T: ?Sized>(pub &'a T);

/// Picked when the probed widget is bare text.
pub trait ViaBareText {
    /// Records the text node.
    fn taria_text_node<A: AreaSource + ?Sized>(&self, area: &A);
}

impl<T: BareText + ?Sized> ViaBareText for WidgetProbe<'_, T> {
    #[inline]
    fn taria_text_node<A: AreaSource + ?Sized>(&self, area: &A) {
        if is_recording() && holds_text(open_role()) {
            self.0.record_text(area.taria_area());
        }
    }
}

/// Whether text drawn inside a node of `role` (`None`: at the top) is a node of its
/// own: inside a container, yes; inside a control or any other node that says what it
/// shows (a `spin_button` drawn as `Count: 41`), its text is what that node records.
fn holds_text(role: Option<Role>) -> bool {
    matches!(
        role,
        None | Some(
            Role::Unknown
                | Role::App
                | Role::Region
                | Role::Group
                | Role::Dialog
                | Role::Form
                | Role::Toolbar
                | Role::Tooltip
                | Role::Notification
        )
    )
}

/// Picked for every other widget (and whatever its area is).
pub trait ViaWidget {
    /// Does nothing.
    #[inline]
    fn taria_text_node<A: ?Sized>(&self, _area: &A) {}
}

impl<T: ?Sized> ViaWidget for &WidgetProbe<'_, T> {}

impl<T: BareText + ?Sized> BareText for &T {
    fn record_text(&self, area: Rect) {
        (**self).record_text(area);
    }
}

impl<T: BareText + ?Sized> BareText for &mut T {
    fn record_text(&self, area: Rect) {
        (**self).record_text(area);
    }
}

impl BareText for str {
    fn record_text(&self, area: Rect) {
        Span::raw(self).record_text(area);
    }
}

impl BareText for String {
    fn record_text(&self, area: Rect) {
        self.as_str().record_text(area);
    }
}

impl BareText for Span<'_> {
    fn record_text(&self, area: Rect) {
        let row = Rect { height: 1, ..area };
        record_lines(std::slice::from_ref(self), row, None);
    }
}

impl BareText for Line<'_> {
    fn record_text(&self, area: Rect) {
        let row = Rect { height: 1, ..area };
        record_lines(std::slice::from_ref(self), row, None);
    }
}

impl BareText for Text<'_> {
    fn record_text(&self, area: Rect) {
        record_lines(&self.lines, area, self.alignment);
    }
}

/// Records `lines` drawn from the top of `area`, one a row, as ratatui draws them:
/// a `text` node bounded by the cells they cover, labelled with the first line that
/// says something, and with all the lines drawn as its value when there are more.
fn record_lines<L: Row>(lines: &[L], area: Rect, alignment: Option<Alignment>) {
    let shown = &lines[..lines.len().min(usize::from(area.height))];
    let said = |line: &L| line.says_something();
    let (Some(first), Some(last)) = (shown.iter().position(said), shown.iter().rposition(said))
    else {
        return;
    };
    let shown = &shown[first..=last];
    let mut bounds: Option<Rect> = None;
    for (i, line) in shown.iter().enumerate() {
        let row = Rect {
            y: area.y.saturating_add((first + i) as u16),
            height: 1,
            ..area
        };
        if let Some(drawn) = drawn_cells(line.width(), row, line.alignment().or(alignment)) {
            bounds = Some(bounds.map_or(drawn, |b| b.union(drawn)));
        }
    }
    let Some(bounds) = bounds else {
        return;
    };
    let bytes: usize = shown.iter().map(Row::bytes).sum();
    leaf(|n| {
        n.role(Role::Text).bounds(bounds);
        shown[0].label(n);
        // One line is its own label, as a `Paragraph`'s is; more lines are its value.
        if shown.len() > 1 || bytes > MAX_LABEL_BYTES {
            n.value(Displayed(Lines(shown)));
        }
    });
}

/// The cells of `row` a line drawn there with `alignment` covers, as
/// `Line::render_with_alignment` places it.
fn drawn_cells(width: usize, row: Rect, alignment: Option<Alignment>) -> Option<Rect> {
    let room = usize::from(row.width);
    if width == 0 || row.is_empty() {
        return None;
    }
    let indent = if width <= room {
        match alignment {
            Some(Alignment::Center) => (room - width) / 2,
            Some(Alignment::Right) => room - width,
            Some(Alignment::Left) | None => 0,
        }
    } else {
        0
    };
    let indent = u16::try_from(indent).unwrap_or(0);
    Some(Rect {
        x: row.x.saturating_add(indent),
        width: u16::try_from(width.min(room)).unwrap_or(row.width),
        ..row
    })
}

/// One row of bare text: a `Line`, or a `Span` drawn on its own.
trait Row: fmt::Display {
    fn width(&self) -> usize;
    fn alignment(&self) -> Option<Alignment>;
    /// Whether it has more than blanks.
    fn says_something(&self) -> bool;
    /// Its text's length in bytes.
    fn bytes(&self) -> usize;
    /// Labels `n` with it.
    fn label(&self, n: &mut NodeBuilder<'_>);
}

impl Row for Line<'_> {
    fn width(&self) -> usize {
        Line::width(self)
    }
    fn alignment(&self) -> Option<Alignment> {
        self.alignment
    }
    fn says_something(&self) -> bool {
        self.spans.iter().any(Row::says_something)
    }
    fn bytes(&self) -> usize {
        self.spans.iter().map(Row::bytes).sum()
    }
    fn label(&self, n: &mut NodeBuilder<'_>) {
        n.label(self);
    }
}

impl Row for Span<'_> {
    fn width(&self) -> usize {
        Span::width(self)
    }
    fn alignment(&self) -> Option<Alignment> {
        None
    }
    fn says_something(&self) -> bool {
        !self.content.trim().is_empty()
    }
    fn bytes(&self) -> usize {
        self.content.len()
    }
    fn label(&self, n: &mut NodeBuilder<'_>) {
        n.label(self);
    }
}

/// Lines written one a row, as ratatui's `Text` displays them.
struct Lines<'t, L>(&'t [L]);

impl<L: Row> fmt::Display for Lines<'_, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, line) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            fmt::Display::fmt(line, f)?;
        }
        Ok(())
    }
}

/// Something a render function's area can be read from: a `Rect` or a `Frame`.
pub trait AreaSource {
    /// The area.
    fn taria_area(&self) -> Rect;
}

impl AreaSource for Rect {
    #[inline]
    fn taria_area(&self) -> Rect {
        *self
    }
}

impl AreaSource for Frame<'_> {
    #[inline]
    fn taria_area(&self) -> Rect {
        self.area()
    }
}

impl<T: AreaSource + ?Sized> AreaSource for &T {
    #[inline]
    fn taria_area(&self) -> Rect {
        (**self).taria_area()
    }
}

impl<T: AreaSource + ?Sized> AreaSource for &mut T {
    #[inline]
    fn taria_area(&self) -> Rect {
        (**self).taria_area()
    }
}
