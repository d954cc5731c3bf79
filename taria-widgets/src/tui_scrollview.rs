//! [tui-scrollview](https://docs.rs/tui-scrollview/0.6.8)'s [`ScrollView`], recorded as
//! a scrolled `region` (feature `tui-scrollview`): swap
//! `use tui_scrollview::{ScrollView, ScrollViewState};` for
//! `use taria_widgets::tui_scrollview::{ScrollView, ScrollViewState};`.
//!
//! **What its content records.** Widgets drawn into the scroll view
//! ([`ScrollView::render_widget`]) draw into its own buffer, before the app draws the
//! view, when the scroll offset that will place them on screen is not known yet. A
//! taria widget drawn there records its node as it draws, with bounds in the content
//! buffer's coordinates (from its top left), not the screen's, as a sibling before the
//! `region`: taria cannot move a node's bounds once recorded. So the region records
//! what the view shows instead: its value is the text of the content rows on screen
//! (row by row, trailing blanks cut), read from the content buffer the crate copies
//! to the screen; draw ratatui's own widgets (which record nothing) into it.

use std::borrow::Cow;
use std::cell::Cell;

use ratatui::buffer::Buffer;
use ratatui::layout::{Position, Rect, Size};
use ratatui::widgets::{StatefulWidget, Widget};
use taria::{Action, Invocation, Outcome, Role, ScrollDirection};

use crate::semantic::{Offer, SemanticWidget};

pub use tui_scrollview::{ScrollViewState, ScrollbarVisibility};

/// tui-scrollview's `ScrollView`, drawn by the crate's widget (cell for cell) and
/// recorded as a `region` (label: [`ScrollView::label`]; `scroll`: the first content
/// row on screen, the content's height, the rows on screen; value: the text on screen,
/// see the [module](self)). With an explicit [`id`](ScrollView::id), drawn with the
/// app's [`ScrollViewState`], it offers `scroll` (up, down, left, right, by rows or
/// columns) and takes it into the state while it renders, refusing a scroll past the
/// content's end.
///
/// # Examples
///
/// ```
/// use ratatui::{layout::{Rect, Size}, widgets::Paragraph};
/// use taria::testing::Harness;
/// use taria_widgets::tui_scrollview::{ScrollView, ScrollViewState};
///
/// let mut state = ScrollViewState::default();
/// let tree = Harness::new(10, 3).render(|f| {
///     let mut view = ScrollView::new(Size::new(8, 5)).id("log");
///     view.render_widget(Paragraph::new("one\ntwo\nthree\nfour\nfive"), Rect::new(0, 0, 8, 5));
///     f.render_stateful_widget(view, f.area(), &mut state);
/// });
/// let log = tree.get("log").unwrap();
/// assert_eq!(log.value, Some(taria::Value::Text("one\ntwo\nthree".into())));
/// ```
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct ScrollView {
    inner: tui_scrollview::ScrollView,
    id: Option<Cow<'static, str>>,
    label: Option<Cow<'static, str>>,
    /// What [`SemanticWidget::describe`] was told, for the recording after drawing
    /// (where the crate puts the view is known once it has clamped the offset).
    offer: Cell<Option<Offer>>,
}

impl std::hash::Hash for ScrollView {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (&self.inner, &self.id, &self.label).hash(state);
    }
}

impl ScrollView {
    /// See tui-scrollview's `ScrollView::new`.
    pub fn new(size: Size) -> Self {
        ScrollView {
            inner: tui_scrollview::ScrollView::new(size),
            id: None,
            label: None,
            offer: Cell::new(None),
        }
    }

    /// Sets an explicit, stable id: the view then takes the agent's `scroll` into the
    /// app's [`ScrollViewState`].
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn id(mut self, id: impl Into<Cow<'static, str>>) -> Self {
        self.id = Some(id.into());
        self
    }

    /// What the region is called (recorded, not drawn: the crate draws no title).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label(mut self, label: impl Into<Cow<'static, str>>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// See tui-scrollview's `ScrollView::size`.
    pub const fn size(&self) -> Size {
        self.inner.size()
    }

    /// See tui-scrollview's `ScrollView::area`.
    pub const fn area(&self) -> Rect {
        self.inner.area()
    }

    /// See tui-scrollview's `ScrollView::buf`.
    pub const fn buf(&self) -> &Buffer {
        self.inner.buf()
    }

    /// See tui-scrollview's `ScrollView::buf_mut`.
    pub const fn buf_mut(&mut self) -> &mut Buffer {
        self.inner.buf_mut()
    }

    /// See tui-scrollview's `ScrollView::vertical_scrollbar_visibility`.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn vertical_scrollbar_visibility(mut self, visibility: ScrollbarVisibility) -> Self {
        self.inner = self.inner.vertical_scrollbar_visibility(visibility);
        self
    }

    /// See tui-scrollview's `ScrollView::horizontal_scrollbar_visibility`.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn horizontal_scrollbar_visibility(mut self, visibility: ScrollbarVisibility) -> Self {
        self.inner = self.inner.horizontal_scrollbar_visibility(visibility);
        self
    }

    /// See tui-scrollview's `ScrollView::scrollbars_visibility`.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn scrollbars_visibility(mut self, visibility: ScrollbarVisibility) -> Self {
        self.inner = self.inner.scrollbars_visibility(visibility);
        self
    }

    /// See tui-scrollview's `ScrollView::render_widget` (what a taria widget drawn
    /// here records: see the [module](self)).
    pub fn render_widget<W: Widget>(&mut self, widget: W, area: Rect) {
        self.inner.render_widget(widget, area);
    }

    /// See tui-scrollview's `ScrollView::render_stateful_widget`.
    pub fn render_stateful_widget<W: StatefulWidget>(
        &mut self,
        widget: W,
        area: Rect,
        state: &mut W::State,
    ) {
        self.inner.render_stateful_widget(widget, area, state);
    }

    /// The text of the content rows `rows` (content coordinates), row by row.
    fn text(&self, shown: Rect) -> String {
        let buf = self.inner.buf();
        let shown = shown.intersection(buf.area);
        let mut text = String::new();
        for y in shown.top()..shown.bottom() {
            if y > shown.top() {
                text.push('\n');
            }
            let start = text.len();
            let mut skip = 0;
            for x in shown.left()..shown.right() {
                let cell = &buf[(x, y)];
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let symbol = cell.symbol();
                skip = unicode_width::UnicodeWidthStr::width(symbol).saturating_sub(1);
                text.push_str(symbol);
            }
            let end = text[start..].trim_end().len() + start;
            text.truncate(end);
        }
        text
    }
}

/// The largest offset along one axis: the content's length past the viewport.
fn max_offset(content: u16, page: u16) -> u16 {
    content.saturating_sub(page)
}

impl SemanticWidget for ScrollView {
    type State = ScrollViewState;

    fn widget_id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn fingerprint(state: &ScrollViewState) -> Option<u64> {
        Some(crate::semantic::fingerprint((
            state.offset().x,
            state.offset().y,
        )))
    }

    fn apply(&self, state: &mut ScrollViewState, inv: &Invocation<'_>) -> Outcome {
        if !inv.is(Action::Scroll) {
            return Outcome::NotHandled;
        }
        let (direction, amount) = inv.scroll().unwrap_or((ScrollDirection::Down, 1));
        let amount = u16::try_from(amount).unwrap_or(u16::MAX);
        let size = self.inner.size();
        let page = state.page_size().unwrap_or(size);
        let Position { x, y } = state.offset();
        let next = match direction {
            ScrollDirection::Down => Position::new(
                x,
                y.saturating_add(amount)
                    .min(max_offset(size.height, page.height)),
            ),
            ScrollDirection::Up => Position::new(x, y.saturating_sub(amount)),
            ScrollDirection::Right => Position::new(
                x.saturating_add(amount)
                    .min(max_offset(size.width, page.width)),
                y,
            ),
            ScrollDirection::Left => Position::new(x.saturating_sub(amount), y),
        };
        if next == state.offset() {
            return Outcome::Rejected(
                format!("it cannot scroll {direction:?} any further").to_lowercase(),
            );
        }
        state.set_offset(next);
        Outcome::Handled
    }

    fn describe(&self, _area: Rect, _state: &ScrollViewState, offer: Offer) {
        self.offer.set(Some(offer));
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut ScrollViewState) {
        StatefulWidget::render(&self.inner, area, buf, state);
        if let Some(offer) = self.offer.take() {
            self.record(area, state, offer);
        }
    }
}

impl ScrollView {
    /// Records the region as the crate drew it with `state` (its offset clamped, its
    /// page size set).
    fn record(&self, area: Rect, state: &ScrollViewState, offer: Offer) {
        let size = self.inner.size();
        let page = state.page_size().unwrap_or(size);
        let Position { x, y } = state.offset();
        let shown = Rect::new(x, y, page.width, page.height);
        let rows = page.height.min(size.height.saturating_sub(y));
        taria::leaf(|n| {
            n.role(Role::Region)
                .scroll(usize::from(y), usize::from(size.height), usize::from(rows))
                .bounds(area)
                .value(self.text(shown));
            if let Some(id) = &self.id {
                n.id(id.as_ref());
            }
            if let Some(label) = &self.label {
                n.label(label.as_ref());
            }
            if offer.takes() {
                n.action(Action::Scroll);
            }
        });
    }
}

crate::semantic::widget_impls!(ScrollView: StatefulWidget<ScrollViewState>);

impl StatefulWidget for &ScrollView {
    type State = ScrollViewState;

    /// Draws a copy (the crate draws `&ScrollView` too).
    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ScrollViewState) {
        StatefulWidget::render(self.clone(), area, buf, state);
    }
}
