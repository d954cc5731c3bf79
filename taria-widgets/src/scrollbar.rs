//! [`Scrollbar`]: ratatui's [`Scrollbar`](ratatui::widgets::Scrollbar), recorded as a
//! `scrollbar`, with `scroll` taken by the widget itself.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::scrollbar::Set;
use ratatui::widgets::StatefulWidget;
use taria::{Action, Invocation, Outcome, Role};

use crate::semantic::SemanticWidget;
use unicode_width::UnicodeWidthStr;

pub use ratatui::widgets::{ScrollDirection, ScrollbarOrientation};

/// A scrollbar's state: ratatui's [`ScrollbarState`](ratatui::widgets::ScrollbarState)
/// with the same API, whose content and viewport lengths can also be read back (so
/// the scrollbar can record them).
///
/// # Examples
///
/// ```
/// use taria_widgets::ScrollbarState;
///
/// let mut state = ScrollbarState::new(100).position(10).viewport_content_length(20);
/// state.next();
/// assert_eq!(state.get_position(), 11);
/// assert_eq!(state.get_content_length(), 100);
/// ```
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ScrollbarState {
    content_length: usize,
    position: usize,
    viewport_content_length: usize,
}

impl ScrollbarState {
    /// See ratatui's [`ScrollbarState::new`](ratatui::widgets::ScrollbarState::new).
    #[must_use = "creates the ScrollbarState"]
    pub const fn new(content_length: usize) -> Self {
        ScrollbarState {
            content_length,
            position: 0,
            viewport_content_length: 0,
        }
    }

    crate::semantic::setters! { ScrollbarState in ratatui::widgets;
        const fn position(position: usize) => position = position;
        const fn content_length(content_length: usize) => content_length = content_length;
        const fn viewport_content_length(viewport_content_length: usize) => viewport_content_length = viewport_content_length;
    }

    /// Moves one back.
    pub const fn prev(&mut self) {
        self.position = self.position.saturating_sub(1);
    }

    /// Moves one forward, up to the last position.
    pub fn next(&mut self) {
        self.position = self
            .position
            .saturating_add(1)
            .min(self.content_length.saturating_sub(1));
    }

    /// Moves to the first position.
    pub const fn first(&mut self) {
        self.position = 0;
    }

    /// Moves to the last position.
    pub const fn last(&mut self) {
        self.position = self.content_length.saturating_sub(1);
    }

    /// Moves one step in `direction`.
    pub fn scroll(&mut self, direction: ScrollDirection) {
        match direction {
            ScrollDirection::Forward => self.next(),
            ScrollDirection::Backward => self.prev(),
        }
    }

    /// The current position.
    #[must_use]
    pub const fn get_position(&self) -> usize {
        self.position
    }

    /// The content length.
    #[must_use]
    pub const fn get_content_length(&self) -> usize {
        self.content_length
    }

    /// The viewport's content length (0: the scrollbar's track length).
    #[must_use]
    pub const fn get_viewport_content_length(&self) -> usize {
        self.viewport_content_length
    }

    fn to_ratatui(self) -> ratatui::widgets::ScrollbarState {
        ratatui::widgets::ScrollbarState::new(self.content_length)
            .position(self.position)
            .viewport_content_length(self.viewport_content_length)
    }
}

impl From<ratatui::widgets::ScrollbarState> for ScrollbarState {
    /// Only the position can be read from ratatui's state; set the lengths again.
    fn from(state: ratatui::widgets::ScrollbarState) -> Self {
        ScrollbarState::default().position(state.get_position())
    }
}

/// A scrollbar, drawn exactly like ratatui's `Scrollbar`, with state
/// [`ScrollbarState`] (taria's: the same API as ratatui's).
///
/// Recorded as `scrollbar`: value = the position; `scroll` = position, content
/// length, viewport length: the state's
/// [`viewport_content_length`](ScrollbarState::viewport_content_length), else the
/// length of the track between the end symbols (the rows inside a bordered view the
/// scrollbar is drawn over, its arrows on the border rows). With an [`id`](Scrollbar::id) it offers `scroll` and takes
/// it itself, moving the state's position by the amount (up/left backward, down/right
/// forward).
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::{Scrollbar, ScrollbarOrientation, ScrollbarState};
///
/// let mut state = ScrollbarState::new(50).position(5).viewport_content_length(10);
/// let mut harness = Harness::new(1, 10);
/// let tree = harness.render(|frame| {
///     let bar = Scrollbar::new(ScrollbarOrientation::VerticalRight).id("bar");
///     frame.render_stateful_widget(bar, frame.area(), &mut state);
/// });
/// let scroll = tree.get("bar").unwrap().scroll.unwrap();
/// assert_eq!((scroll.offset, scroll.content, scroll.viewport), (5, 50, 10));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Scrollbar<'a> {
    inner: ratatui::widgets::Scrollbar<'a>,
    vertical: bool,
    /// The symbols at its ends, as ratatui's has them: what its track leaves out.
    begin: Option<&'a str>,
    end: Option<&'a str>,
    id: Option<&'a str>,
}

/// ratatui's symbols for a new scrollbar of that orientation.
const fn default_symbols(vertical: bool) -> Set<'static> {
    if vertical {
        ratatui::symbols::scrollbar::DOUBLE_VERTICAL
    } else {
        ratatui::symbols::scrollbar::DOUBLE_HORIZONTAL
    }
}

impl Default for Scrollbar<'_> {
    /// ratatui's default: vertical, on the right ([`ScrollbarOrientation::default`]).
    fn default() -> Self {
        Scrollbar::new(ScrollbarOrientation::default())
    }
}

impl<'a> Scrollbar<'a> {
    /// See ratatui's [`Scrollbar::new`](ratatui::widgets::Scrollbar::new).
    #[must_use = "creates the Scrollbar"]
    pub const fn new(orientation: ScrollbarOrientation) -> Self {
        let symbols = default_symbols(orientation.is_vertical());
        Scrollbar {
            vertical: orientation.is_vertical(),
            inner: ratatui::widgets::Scrollbar::new(orientation),
            begin: Some(symbols.begin),
            end: Some(symbols.end),
            id: None,
        }
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id; the scrollbar then takes the agent's `scroll`.
    );

    /// See ratatui's [`Scrollbar::orientation`](ratatui::widgets::Scrollbar::orientation).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn orientation(mut self, orientation: ScrollbarOrientation) -> Self {
        self.vertical = orientation.is_vertical();
        self.inner = self.inner.orientation(orientation);
        self.keep_ends(&default_symbols(self.vertical));
        self
    }

    /// See ratatui's [`Scrollbar::orientation_and_symbol`](ratatui::widgets::Scrollbar::orientation_and_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn orientation_and_symbol(
        mut self,
        orientation: ScrollbarOrientation,
        symbols: Set<'a>,
    ) -> Self {
        self.vertical = orientation.is_vertical();
        self.keep_ends(&symbols);
        self.inner = self.inner.orientation_and_symbol(orientation, symbols);
        self
    }

    /// See ratatui's [`Scrollbar::begin_symbol`](ratatui::widgets::Scrollbar::begin_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn begin_symbol(mut self, begin_symbol: Option<&'a str>) -> Self {
        self.begin = begin_symbol;
        self.inner = self.inner.begin_symbol(begin_symbol);
        self
    }

    /// See ratatui's [`Scrollbar::end_symbol`](ratatui::widgets::Scrollbar::end_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn end_symbol(mut self, end_symbol: Option<&'a str>) -> Self {
        self.end = end_symbol;
        self.inner = self.inner.end_symbol(end_symbol);
        self
    }

    /// See ratatui's [`Scrollbar::symbols`](ratatui::widgets::Scrollbar::symbols).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn symbols(mut self, symbols: Set<'a>) -> Self {
        self.keep_ends(&symbols);
        self.inner = self.inner.symbols(symbols);
        self
    }

    /// The ends of `symbols` where the scrollbar has ends, as ratatui's `symbols` does.
    fn keep_ends(&mut self, symbols: &Set<'a>) {
        if self.begin.is_some() {
            self.begin = Some(symbols.begin);
        }
        if self.end.is_some() {
            self.end = Some(symbols.end);
        }
    }

    /// The cells of its track in `area`: its length less the symbols at its ends.
    fn track(&self, area: Rect) -> usize {
        let ends = [self.begin, self.end]
            .into_iter()
            .flatten()
            .map(UnicodeWidthStr::width)
            .sum::<usize>();
        let length = if self.vertical {
            area.height
        } else {
            area.width
        };
        usize::from(length).saturating_sub(ends)
    }

    crate::semantic::setters! { Scrollbar in ratatui::widgets;
        fn thumb_symbol(thumb_symbol: &'a str) => inner;
        fn thumb_style<S: Into<Style>>(thumb_style: S) => inner;
        fn track_symbol(track_symbol: Option<&'a str>) => inner;
        fn track_style<S: Into<Style>>(track_style: S) => inner;
        fn begin_style<S: Into<Style>>(begin_style: S) => inner;
        fn end_style<S: Into<Style>>(end_style: S) => inner;
        fn style<S: Into<Style>>(style: S) => inner;
    }
}

/// What the scrollbar does with an agent's `scroll`.
pub(crate) fn apply_action(state: &mut ScrollbarState, inv: &Invocation<'_>) -> Outcome {
    if !inv.is(taria::Action::Scroll) {
        return Outcome::NotHandled;
    }
    let (direction, amount) = inv.scroll().unwrap_or((taria::ScrollDirection::Down, 1));
    let amount = usize::try_from(amount).unwrap_or(usize::MAX);
    state.position = match direction {
        taria::ScrollDirection::Up | taria::ScrollDirection::Left => {
            state.position.saturating_sub(amount)
        }
        _ => state
            .position
            .saturating_add(amount)
            .min(state.content_length.saturating_sub(1)),
    };
    Outcome::Handled
}

impl SemanticWidget for Scrollbar<'_> {
    type State = ScrollbarState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn fingerprint(state: &ScrollbarState) -> Option<u64> {
        Some(crate::semantic::fingerprint(state.position))
    }

    fn apply(&self, state: &mut ScrollbarState, inv: &Invocation<'_>) -> Outcome {
        // Only the scrollbar itself: it has no children, and an id under it (which the
        // runtime may hold for it, as for a list's items off screen) names nothing.
        if Some(inv.target()) != self.id {
            return Outcome::NotHandled;
        }
        apply_action(state, inv)
    }

    fn describe(&self, area: Rect, state: &ScrollbarState, offer: crate::semantic::Offer) {
        // Unsaid by the app, the view is the track's length: over a bordered view the
        // end symbols sit on its border rows and the track spans the rows inside; over
        // the inner area alone a scrollbar has no ends.
        let viewport = if state.viewport_content_length == 0 {
            self.track(area)
        } else {
            state.viewport_content_length
        };
        taria::leaf(|n| {
            n.role(Role::Scrollbar)
                .value(state.position)
                .scroll(state.position, state.content_length, viewport)
                .bounds(area);
            if let Some(id) = self.id {
                n.id(id);
            }
            if offer.takes() {
                n.action(Action::Scroll);
            }
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut ScrollbarState) {
        let mut ratatui_state = state.to_ratatui();
        StatefulWidget::render(self.inner, area, buf, &mut ratatui_state);
    }
}

crate::semantic::widget_impls!(Scrollbar<'_>: StatefulWidget<ScrollbarState>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draws_what_ratatui_draws() {
        for orientation in [
            ScrollbarOrientation::VerticalRight,
            ScrollbarOrientation::VerticalLeft,
            ScrollbarOrientation::HorizontalBottom,
            ScrollbarOrientation::HorizontalTop,
        ] {
            for (len, pos, view) in [(0, 0, 0), (50, 0, 10), (50, 25, 0), (50, 49, 10), (5, 9, 3)] {
                let area = Rect::new(0, 0, 12, 8);
                let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
                let mut ours = ScrollbarState::new(len)
                    .position(pos)
                    .viewport_content_length(view);
                let mut theirs = ratatui::widgets::ScrollbarState::new(len)
                    .position(pos)
                    .viewport_content_length(view);
                Scrollbar::new(orientation.clone())
                    .thumb_symbol("#")
                    .begin_symbol(Some("<"))
                    .render(area, &mut a, &mut ours);
                ratatui::widgets::Scrollbar::new(orientation.clone())
                    .thumb_symbol("#")
                    .begin_symbol(Some("<"))
                    .render(area, &mut b, &mut theirs);
                assert_eq!(a, b);
            }
        }
    }

    /// The view recorded of a scrollbar drawn over `area` of a 12x10 screen.
    fn view_of(bar: Scrollbar<'_>, area: Rect) -> usize {
        let mut state = ScrollbarState::new(40);
        let mut harness = taria::testing::Harness::new(12, 10);
        let tree = harness.render(|frame| {
            frame.render_stateful_widget(bar.id("bar"), area, &mut state);
        });
        tree.get("bar").unwrap().scroll.unwrap().viewport as usize
    }

    /// Issue 30: a scrollbar with its arrows over a bordered view 10 rows high said
    /// `view=10` where 8 rows show; the view the app does not give is the track's
    /// length, between the arrows.
    #[test]
    fn an_unsaid_view_is_the_track_between_the_ends() {
        let full = Rect::new(0, 0, 12, 10);
        let vertical = || Scrollbar::new(ScrollbarOrientation::VerticalRight);
        assert_eq!(view_of(vertical(), full), 8, "▲ and ▼ on the border rows");
        let arrows = vertical().begin_symbol(Some("↑")).end_symbol(Some("↓"));
        assert_eq!(view_of(arrows, full), 8);
        let inner = Rect::new(0, 1, 12, 8);
        let bare = vertical().begin_symbol(None).end_symbol(None);
        assert_eq!(
            view_of(bare.clone(), inner),
            8,
            "over the inner rows, no ends"
        );
        // `symbols` and `orientation` keep an end taken away away, as ratatui's do.
        let bare = bare.symbols(ratatui::symbols::scrollbar::VERTICAL);
        assert_eq!(
            view_of(bare.orientation(ScrollbarOrientation::VerticalLeft), inner),
            8
        );
        let bottom = Scrollbar::new(ScrollbarOrientation::HorizontalBottom).end_symbol(None);
        assert_eq!(view_of(bottom, full), 11, "◄ alone");
        // The app's own view is kept.
        let mut state = ScrollbarState::new(40).viewport_content_length(5);
        let mut harness = taria::testing::Harness::new(12, 10);
        let tree = harness.render(|frame| {
            frame.render_stateful_widget(vertical().id("bar"), full, &mut state);
        });
        assert_eq!(tree.get("bar").unwrap().scroll.unwrap().viewport, 5);
    }

    #[test]
    fn scroll_moves_the_position() {
        let mut state = ScrollbarState::new(10).position(5);
        let down = Invocation::new("s", "scroll").with_scroll(taria::ScrollDirection::Down, 3);
        assert_eq!(apply_action(&mut state, &down), Outcome::Handled);
        assert_eq!(state.get_position(), 8);
        assert_eq!(apply_action(&mut state, &down), Outcome::Handled);
        assert_eq!(state.get_position(), 9, "stops at the end");
        let up = Invocation::new("s", "scroll").with_scroll(taria::ScrollDirection::Up, 20);
        assert_eq!(apply_action(&mut state, &up), Outcome::Handled);
        assert_eq!(state.get_position(), 0);
    }

    /// An id under the scrollbar names nothing: the runtime holds an act on an id not
    /// drawn under a scrolled node for that node's widget, and the scrollbar must not
    /// take `scroll` on `bar/anything` as its own.
    #[test]
    fn an_id_under_the_scrollbar_is_not_its_own() {
        struct Bar(ScrollbarState);
        impl taria::Actions for Bar {
            fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
                Outcome::NotHandled
            }
        }
        let mut h = taria::testing::AppHarness::new(
            Bar(ScrollbarState::new(40)),
            3,
            6,
            |frame, app: &mut Bar| {
                let bar = Scrollbar::new(ScrollbarOrientation::VerticalRight).id("bar");
                frame.render_stateful_widget(bar, frame.area(), &mut app.0);
            },
        );
        let error = h
            .scroll("bar/x", taria::ScrollDirection::Down, 5)
            .unwrap_err();
        assert_eq!(
            error.reason,
            taria::testing::RejectReason::UnknownNode,
            "{error:?}"
        );
        assert_eq!(h.app().0.get_position(), 0, "unchanged");
        h.scroll("bar", taria::ScrollDirection::Down, 5).unwrap();
        assert_eq!(h.app().0.get_position(), 5);
    }
}
