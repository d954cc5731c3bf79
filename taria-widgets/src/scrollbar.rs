//! [`Scrollbar`]: ratatui's [`Scrollbar`](ratatui::widgets::Scrollbar), recorded as a
//! `scrollbar`, with `scroll` taken by the widget itself.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols::scrollbar::Set;
use ratatui::widgets::StatefulWidget;
use taria::{Action, Invocation, Outcome, Role};

pub use ratatui::widgets::{ScrollDirection, ScrollbarOrientation};

/// A scrollbar's state: ratatui's [`ScrollbarState`](ratatui::widgets::ScrollbarState)
/// with the same API, whose content and viewport lengths can also be read back (so
/// the scrollbar can record them).
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

    /// See ratatui's [`ScrollbarState::position`](ratatui::widgets::ScrollbarState::position).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn position(mut self, position: usize) -> Self {
        self.position = position;
        self
    }

    /// See ratatui's [`ScrollbarState::content_length`](ratatui::widgets::ScrollbarState::content_length).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn content_length(mut self, content_length: usize) -> Self {
        self.content_length = content_length;
        self
    }

    /// See ratatui's [`ScrollbarState::viewport_content_length`](ratatui::widgets::ScrollbarState::viewport_content_length).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn viewport_content_length(mut self, viewport_content_length: usize) -> Self {
        self.viewport_content_length = viewport_content_length;
        self
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
/// length, viewport length. With an [`id`](Scrollbar::id) it offers `scroll` and takes
/// it itself, moving the state's position by the amount (up/left backward, down/right
/// forward).
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
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Scrollbar<'a> {
    inner: ratatui::widgets::Scrollbar<'a>,
    vertical: bool,
    id: Option<&'a str>,
}

impl<'a> Scrollbar<'a> {
    /// See ratatui's [`Scrollbar::new`](ratatui::widgets::Scrollbar::new).
    #[must_use = "creates the Scrollbar"]
    pub const fn new(orientation: ScrollbarOrientation) -> Self {
        Scrollbar {
            vertical: orientation.is_vertical(),
            inner: ratatui::widgets::Scrollbar::new(orientation),
            id: None,
        }
    }

    /// Sets an explicit, stable id; the scrollbar then takes the agent's `scroll`.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn id(mut self, id: &'a str) -> Self {
        self.id = Some(id);
        self
    }

    /// See ratatui's [`Scrollbar::orientation`](ratatui::widgets::Scrollbar::orientation).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn orientation(mut self, orientation: ScrollbarOrientation) -> Self {
        self.vertical = orientation.is_vertical();
        self.inner = self.inner.orientation(orientation);
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
        self.inner = self.inner.orientation_and_symbol(orientation, symbols);
        self
    }

    /// See ratatui's [`Scrollbar::thumb_symbol`](ratatui::widgets::Scrollbar::thumb_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn thumb_symbol(mut self, thumb_symbol: &'a str) -> Self {
        self.inner = self.inner.thumb_symbol(thumb_symbol);
        self
    }

    /// See ratatui's [`Scrollbar::thumb_style`](ratatui::widgets::Scrollbar::thumb_style).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn thumb_style<S: Into<Style>>(mut self, thumb_style: S) -> Self {
        self.inner = self.inner.thumb_style(thumb_style);
        self
    }

    /// See ratatui's [`Scrollbar::track_symbol`](ratatui::widgets::Scrollbar::track_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn track_symbol(mut self, track_symbol: Option<&'a str>) -> Self {
        self.inner = self.inner.track_symbol(track_symbol);
        self
    }

    /// See ratatui's [`Scrollbar::track_style`](ratatui::widgets::Scrollbar::track_style).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn track_style<S: Into<Style>>(mut self, track_style: S) -> Self {
        self.inner = self.inner.track_style(track_style);
        self
    }

    /// See ratatui's [`Scrollbar::begin_symbol`](ratatui::widgets::Scrollbar::begin_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn begin_symbol(mut self, begin_symbol: Option<&'a str>) -> Self {
        self.inner = self.inner.begin_symbol(begin_symbol);
        self
    }

    /// See ratatui's [`Scrollbar::begin_style`](ratatui::widgets::Scrollbar::begin_style).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn begin_style<S: Into<Style>>(mut self, begin_style: S) -> Self {
        self.inner = self.inner.begin_style(begin_style);
        self
    }

    /// See ratatui's [`Scrollbar::end_symbol`](ratatui::widgets::Scrollbar::end_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn end_symbol(mut self, end_symbol: Option<&'a str>) -> Self {
        self.inner = self.inner.end_symbol(end_symbol);
        self
    }

    /// See ratatui's [`Scrollbar::end_style`](ratatui::widgets::Scrollbar::end_style).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn end_style<S: Into<Style>>(mut self, end_style: S) -> Self {
        self.inner = self.inner.end_style(end_style);
        self
    }

    /// See ratatui's [`Scrollbar::symbols`](ratatui::widgets::Scrollbar::symbols).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn symbols(mut self, symbols: Set<'a>) -> Self {
        self.inner = self.inner.symbols(symbols);
        self
    }

    /// See ratatui's [`Scrollbar::style`](ratatui::widgets::Scrollbar::style).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn style<S: Into<Style>>(mut self, style: S) -> Self {
        self.inner = self.inner.style(style);
        self
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

impl StatefulWidget for Scrollbar<'_> {
    type State = ScrollbarState;

    fn render(self, area: Rect, buf: &mut Buffer, state: &mut ScrollbarState) {
        if let Some(id) = self.id {
            taria::take_widget_actions(id, |inv| apply_action(state, inv));
        }
        if taria::is_recording() {
            let viewport = if state.viewport_content_length == 0 {
                if self.vertical {
                    area.height
                } else {
                    area.width
                }
                .into()
            } else {
                state.viewport_content_length
            };
            taria::leaf(|n| {
                n.role(Role::Scrollbar)
                    .value(state.position)
                    .scroll(state.position, state.content_length, viewport)
                    .bounds(area);
                if let Some(id) = self.id {
                    n.id(id).action(Action::Scroll);
                }
            });
        }
        let mut ratatui_state = state.to_ratatui();
        self.inner.render(area, buf, &mut ratatui_state);
    }
}

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
}
