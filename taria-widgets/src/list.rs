//! [`List`]: ratatui's [`List`](ratatui::widgets::List), recorded as a `list` of
//! `list_item`s (only the items on screen), with `select` and `scroll` taken by the
//! widget itself.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Text};
use ratatui::widgets::{HighlightSpacing, StatefulWidget};
use taria::{Action, Invocation, Outcome, Role, ScrollDirection};

use crate::semantic::{Semantic, id_and_label};

pub use ratatui::widgets::{ListDirection, ListState};

use crate::text::FirstLine;

/// One item of a [`List`]: the same as ratatui's
/// [`ListItem`](ratatui::widgets::ListItem), but its text stays readable so the item
/// can be labelled.
///
/// ```
/// use ratatui::style::Stylize;
/// use taria_widgets::ListItem;
///
/// let item = ListItem::new("Buy milk").red();
/// assert_eq!(item.height(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ListItem<'a> {
    // The same fields as ratatui's item, so that converting a `Vec` of ours into
    // ratatui's reuses the allocation.
    content: Text<'a>,
    style: Style,
}

impl<'a> ListItem<'a> {
    /// See ratatui's [`ListItem::new`](ratatui::widgets::ListItem::new).
    pub fn new<T: Into<Text<'a>>>(content: T) -> Self {
        ListItem {
            content: content.into(),
            style: Style::default(),
        }
    }

    crate::semantic::setters! { ListItem in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => style = style.into();
    }

    /// The item's height in lines.
    #[must_use]
    pub fn height(&self) -> usize {
        self.content.height()
    }

    /// The item's width (its widest line).
    #[must_use]
    pub fn width(&self) -> usize {
        self.content.width()
    }

    fn into_ratatui(self) -> ratatui::widgets::ListItem<'a> {
        ratatui::widgets::ListItem::new(self.content).style(self.style)
    }
}

impl<'a, T: Into<Text<'a>>> From<T> for ListItem<'a> {
    fn from(content: T) -> Self {
        ListItem::new(content)
    }
}

crate::semantic::styled!(ListItem<'_>: field style);

/// A list of items, drawn exactly like ratatui's `List`.
///
/// Recorded as a `list` (label: its block's title; `count`: all items; `scroll`: the
/// first item on screen, the item count, the items on screen) holding one
/// `list_item` per item *on screen* (label: its first line; `selected`; `index` of
/// `count`). Both offer `select`, the list also `scroll`; with
/// [`List::activate_key`] the items offer `activate` too.
///
/// **State route.** Rendered with [`StatefulWidget`] and an [`id`](List::id), the list
/// takes `select` and `scroll` itself: an agent's `select` on `tasks/3` becomes
/// `ListState::select(Some(3))` and `scroll` moves the selection like
/// `ListState::scroll_down_by` (or the offset when nothing is selected) — no app code.
/// The app's own handlers still run first. Without an id nothing is taken.
///
/// ```
/// use ratatui::widgets::ListState;
/// use taria::testing::Harness;
/// use taria_widgets::{Block, List};
///
/// let mut state = ListState::default().with_selected(Some(1));
/// let mut harness = Harness::new(20, 5);
/// let tree = harness.render(|frame| {
///     let list = List::new(["Buy milk", "Walk dog"])
///         .block(Block::bordered().title("Tasks"))
///         .highlight_symbol("> ")
///         .id("tasks");
///     frame.render_stateful_widget(list, frame.area(), &mut state);
/// });
/// let tasks = tree.get("tasks").unwrap();
/// assert_eq!((tasks.role, tasks.label.as_deref()), (taria::Role::List, Some("Tasks")));
/// assert_eq!(tasks.position.count, Some(2));
/// let walk = tree.get("tasks/1").unwrap();
/// assert_eq!(walk.label.as_deref(), Some("Walk dog"));
/// assert!(walk.state.selected);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct List<'a> {
    /// ratatui's list without its items and block (given to it at render).
    inner: ratatui::widgets::List<'a>,
    items: Vec<ListItem<'a>>,
    block: Option<ratatui::widgets::Block<'a>>,
    label: Option<Cow<'a, str>>,
    direction: ListDirection,
    scroll_padding: usize,
    id: Option<&'a str>,
    activate_key: Option<&'a str>,
    /// The items' keys (see [`List::item_keys`]), kept only while recording.
    keys: Vec<String>,
}

impl<'a> List<'a> {
    /// See ratatui's [`List::new`](ratatui::widgets::List::new).
    pub fn new<T>(items: T) -> Self
    where
        T: IntoIterator,
        T::Item: Into<ListItem<'a>>,
    {
        List {
            items: items.into_iter().map(Into::into).collect(),
            ..List::default()
        }
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id: items get `id/0`, `id/1`, … by their index among
        /// all items (marked positional: after an insert or a sort the same id names
        /// another item, and the bridge guards agents' actions on it) or `id/<key>` with
        /// [`List::item_keys`], and the widget takes the agent's `select`/`scroll` into
        /// its state.
    );

    /// Identifies the items to agents, in order: item `i` becomes `<list id>/<key i>`,
    /// stable while its key is (a task id, a file name), and an agent's `select` on it
    /// lands on it wherever it is when the list is next drawn. Give one key per item:
    /// items beyond the keys given are named by their index, and an index `5` and a
    /// key `"5"` would name the same id. Kept only while a frame is recorded (nothing
    /// is collected otherwise, and a `List` built outside the draw closure loses
    /// them); not part of ratatui's `List`.
    ///
    /// ```
    /// use ratatui::widgets::ListState;
    /// use taria::testing::Harness;
    /// use taria_widgets::List;
    ///
    /// let tasks = [(17, "Buy milk"), (42, "Walk dog")];
    /// let mut harness = Harness::new(20, 2);
    /// let tree = harness.render(|frame| {
    ///     let list = List::new(tasks.map(|(_, title)| title))
    ///         .id("tasks")
    ///         .item_keys(tasks.map(|(id, _)| id));
    ///     frame.render_stateful_widget(list, frame.area(), &mut ListState::default());
    /// });
    /// assert!(tree.get("tasks/42").unwrap().stable);
    /// ```
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn item_keys<K: std::fmt::Display>(mut self, keys: impl IntoIterator<Item = K>) -> Self {
        if taria::is_recording() {
            self.keys = keys.into_iter().map(|k| k.to_string()).collect();
        }
        self
    }

    /// Says which key the app's input path takes to activate the selected item
    /// (e.g. `"enter"`): the items then offer `activate`, performed through that key.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn activate_key(mut self, key: &'a str) -> Self {
        self.activate_key = Some(key);
        self
    }

    /// See ratatui's [`List::items`](ratatui::widgets::List::items).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn items<T>(mut self, items: T) -> Self
    where
        T: IntoIterator,
        T::Item: Into<ListItem<'a>>,
    {
        self.items = items.into_iter().map(Into::into).collect();
        self
    }

    crate::semantic::block_setter!(List in ratatui::widgets => block, label);

    crate::semantic::setters! { List in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => inner;
    }

    /// See ratatui's [`List::highlight_symbol`](ratatui::widgets::List::highlight_symbol).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn highlight_symbol<L: Into<Line<'a>>>(mut self, highlight_symbol: L) -> Self {
        self.inner = self.inner.highlight_symbol(highlight_symbol);
        self
    }

    crate::semantic::setters! { List in ratatui::widgets;
        fn highlight_style<S: Into<Style>>(style: S) => inner;
        fn repeat_highlight_symbol(repeat: bool) => inner;
        fn highlight_spacing(value: HighlightSpacing) => inner;
    }

    /// See ratatui's [`List::direction`](ratatui::widgets::List::direction).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn direction(mut self, direction: ListDirection) -> Self {
        self.inner = self.inner.direction(direction);
        self.direction = direction;
        self
    }

    /// See ratatui's [`List::scroll_padding`](ratatui::widgets::List::scroll_padding).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn scroll_padding(mut self, padding: usize) -> Self {
        self.inner = self.inner.scroll_padding(padding);
        self.scroll_padding = padding;
        self
    }

    /// How many items the list has.
    #[must_use]
    pub fn len(&self) -> usize {
        self.items.len()
    }

    /// Whether the list has no items.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }

    fn record(&self, area: Rect, state: &ListState) {
        let list_area = self.block.as_ref().map_or(area, |b| b.inner(area));
        let len = self.items.len();
        let (first, last) = if list_area.is_empty() || len == 0 {
            (state.offset(), state.offset())
        } else {
            let selected = state.selected().map(|s| s.min(len - 1));
            self.visible(selected, state.offset(), list_area.height as usize)
        };
        let _list = taria::scope(|n| {
            n.role(Role::List)
                .count(len)
                .scroll(first, len, last - first)
                .actions([Action::Select, Action::Scroll])
                .bounds(area);
            id_and_label(n, self.id, self.label.as_ref());
        });
        let selected = state.selected().map(|s| s.min(len.saturating_sub(1)));
        let mut y = 0u16;
        for (i, item) in self.items.iter().enumerate().take(last).skip(first) {
            let height = item.height() as u16;
            let top = if self.direction == ListDirection::BottomToTop {
                y = y.saturating_add(height);
                list_area.bottom().saturating_sub(y)
            } else {
                let top = list_area.top().saturating_add(y);
                y = y.saturating_add(height);
                top
            };
            let row = Rect::new(list_area.x, top, list_area.width, height).intersection(list_area);
            taria::leaf(|n| {
                match self.keys.get(i) {
                    Some(key) => n.key(key),
                    None => n.position_key(i),
                };
                n.role(Role::ListItem)
                    .label(FirstLine(&item.content))
                    .selected(selected == Some(i))
                    .index(i)
                    .count(len)
                    .action(Action::Select)
                    .bounds(row);
                if let Some(key) = self.activate_key {
                    n.key_fallback(Action::Activate, key);
                }
            });
        }
    }

    /// The items on screen, `first..last`: ratatui's `List::get_items_bounds`,
    /// mirrored (ratatui keeps it private). `selected` is already clamped.
    fn visible(&self, selected: Option<usize>, offset: usize, max_height: usize) -> (usize, usize) {
        let items = &self.items;
        let offset = offset.min(items.len().saturating_sub(1));
        let mut first = offset;
        let mut last = offset;
        let mut height = 0;
        for item in items.iter().skip(offset) {
            if height + item.height() > max_height {
                break;
            }
            height += item.height();
            last += 1;
        }
        let shown = self
            .padded_selection(selected, max_height, first, last)
            .unwrap_or(offset);
        while shown >= last {
            height = height.saturating_add(items[last].height());
            last += 1;
            while height > max_height {
                height = height.saturating_sub(items[first].height());
                first += 1;
            }
        }
        while shown < first {
            first -= 1;
            height = height.saturating_add(items[first].height());
            while height > max_height {
                last -= 1;
                height = height.saturating_sub(items[last].height());
            }
        }
        (first, last)
    }

    /// ratatui's `apply_scroll_padding_to_selected_index`, mirrored.
    fn padded_selection(
        &self,
        selected: Option<usize>,
        max_height: usize,
        first: usize,
        last: usize,
    ) -> Option<usize> {
        let last_valid = self.items.len().saturating_sub(1);
        let selected = selected?.min(last_valid);
        let mut padding = self.scroll_padding;
        while padding > 0 {
            let around: usize = (selected.saturating_sub(padding)
                ..=selected.saturating_add(padding).min(last_valid))
                .map(|i| self.items[i].height())
                .sum();
            if around <= max_height {
                break;
            }
            padding -= 1;
        }
        Some(
            if (selected + padding).min(last_valid) >= last {
                selected + padding
            } else if selected.saturating_sub(padding) < first {
                selected.saturating_sub(padding)
            } else {
                selected
            }
            .min(last_valid),
        )
    }

    fn into_ratatui(self) -> ratatui::widgets::List<'a> {
        let List {
            inner,
            items,
            block,
            ..
        } = self;
        // Same layout on both sides: the `Vec` is reused, not reallocated.
        let list = inner.items(items.into_iter().map(ListItem::into_ratatui));
        match block {
            Some(block) => list.block(block),
            None => list,
        }
    }
}

/// What the list does with an agent's action addressed to it or its items; `item`
/// is the item it means (see [`crate::keyed_item`]).
pub(crate) fn apply_action(
    state: &mut ListState,
    len: usize,
    item: Result<Option<usize>, String>,
    inv: &Invocation<'_>,
) -> Outcome {
    match inv.action() {
        "select" => match item {
            Err(gone) => Outcome::Rejected(gone),
            Ok(Some(i)) if i < len => {
                state.select(Some(i));
                Outcome::Handled
            }
            Ok(Some(i)) => Outcome::Rejected(format!("no item {i}: the list has {len}")),
            Ok(None) => Outcome::Rejected("select one of the list's items".into()),
        },
        "scroll" => {
            let (direction, amount) = inv.scroll().unwrap_or((ScrollDirection::Down, 1));
            let amount = u16::try_from(amount).unwrap_or(u16::MAX);
            let down = match direction {
                ScrollDirection::Down => true,
                ScrollDirection::Up => false,
                _ => return Outcome::Rejected("a list scrolls up or down".into()),
            };
            if state.selected().is_some() {
                if down {
                    state.scroll_down_by(amount);
                } else {
                    state.scroll_up_by(amount);
                }
            } else {
                crate::scroll_offset(state.offset_mut(), down, amount, len);
            }
            Outcome::Handled
        }
        _ => Outcome::NotHandled,
    }
}

/// Drawn with `Widget` (no state) the list takes no agent actions: they are left
/// to the app's handlers and key fallbacks.
impl Semantic for List<'_> {
    type State = ListState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn apply(&self, state: &mut ListState, inv: &Invocation<'_>) -> Outcome {
        let keys = &self.keys;
        let item = crate::keyed_item(
            inv,
            self.id.unwrap_or_default(),
            |key| keys.iter().position(|have| have == key),
            |i| i < keys.len(),
            ("item", "list"),
        );
        apply_action(state, self.items.len(), item, inv)
    }

    fn describe(&self, area: Rect, state: &ListState) {
        self.record(area, state);
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut ListState) {
        StatefulWidget::render(self.into_ratatui(), area, buf, state);
    }
}

crate::semantic::widget_impls!(List<'_>: Widget, StatefulWidget<ListState>);

crate::semantic::styled!(List<'_>: inner);

impl<'a, Item: Into<ListItem<'a>>> FromIterator<Item> for List<'a> {
    fn from_iter<I: IntoIterator<Item = Item>>(iter: I) -> Self {
        List::new(iter)
    }
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Stylize};
    use ratatui::widgets::Borders;
    use taria::testing::Harness;

    use super::*;
    use crate::Block;
    use ratatui::widgets::Widget;

    fn items() -> Vec<&'static str> {
        vec![
            "one",
            "two\ntwo b",
            "three",
            "four",
            "five\nfive b\nfive c",
            "six",
            "seven",
        ]
    }

    /// Renders ours and ratatui's with the same inputs and state; the buffers and
    /// the states after rendering must match.
    fn assert_same(
        ours: List<'_>,
        theirs: ratatui::widgets::List<'_>,
        area: Rect,
        state: &ListState,
    ) {
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        let (mut sa, mut sb) = (*state, *state);
        StatefulWidget::render(ours, area, &mut a, &mut sa);
        StatefulWidget::render(theirs, area, &mut b, &mut sb);
        assert_eq!(a, b);
        assert_eq!(sa, sb);
    }

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 16, 6);
        for selected in [None, Some(0), Some(4), Some(6), Some(40)] {
            for offset in [0, 3, 9] {
                let state = ListState::default()
                    .with_selected(selected)
                    .with_offset(offset);
                assert_same(
                    List::new(items())
                        .block(Block::bordered().title("T"))
                        .highlight_symbol(">>")
                        .highlight_style(Color::Red)
                        .scroll_padding(1)
                        .id("l"),
                    ratatui::widgets::List::new(items())
                        .block(ratatui::widgets::Block::bordered().title("T"))
                        .highlight_symbol(">>")
                        .highlight_style(Color::Red)
                        .scroll_padding(1),
                    area,
                    &state,
                );
                assert_same(
                    List::new(items())
                        .direction(ListDirection::BottomToTop)
                        .repeat_highlight_symbol(true)
                        .highlight_symbol("*")
                        .highlight_spacing(HighlightSpacing::Always)
                        .style(Style::new().blue())
                        .block(ratatui::widgets::Block::new().borders(Borders::LEFT)),
                    ratatui::widgets::List::new(items())
                        .direction(ListDirection::BottomToTop)
                        .repeat_highlight_symbol(true)
                        .highlight_symbol("*")
                        .highlight_spacing(HighlightSpacing::Always)
                        .style(Style::new().blue())
                        .block(ratatui::widgets::Block::new().borders(Borders::LEFT)),
                    area,
                    &state,
                );
            }
        }
        let mut a = Buffer::empty(Rect::new(0, 0, 8, 2));
        let mut b = a.clone();
        Widget::render(List::new(["x", "y"]).red(), a.area, &mut a);
        Widget::render(
            ratatui::widgets::List::new(["x", "y"]).red(),
            b.area,
            &mut b,
        );
        assert_eq!(a, b);
    }

    #[test]
    fn records_the_items_ratatui_shows() {
        // Mixed heights, padding and offsets: the recorded window is the one ratatui
        // scrolled to (its offset after rendering) and fills the area.
        let area = Rect::new(0, 0, 10, 4);
        for selected in [None, Some(0), Some(3), Some(4), Some(6)] {
            for offset in [0, 2, 5, 6] {
                for padding in [0, 1, 2] {
                    let mut state = ListState::default()
                        .with_selected(selected)
                        .with_offset(offset);
                    let mut harness = Harness::new(area.width, area.height);
                    let tree = harness.render(|frame| {
                        let list = List::new(items()).scroll_padding(padding).id("l");
                        frame.render_stateful_widget(list, area, &mut state);
                    });
                    let list = tree.get("l").expect("the list");
                    let scroll = list.scroll.expect("scroll");
                    assert_eq!(
                        scroll.offset as usize,
                        state.offset(),
                        "{selected:?} {offset} {padding}"
                    );
                    let first = list.children.first().expect("an item");
                    assert_eq!(first.position.index, Some(scroll.offset));
                    assert_eq!(list.children.len(), scroll.viewport as usize);
                    let heights: u16 = list.children.iter().map(|c| c.bounds.height).sum();
                    assert!(heights <= area.height);
                }
            }
        }
    }

    #[test]
    fn select_and_scroll_change_the_state() {
        let mut state = ListState::default();
        let select = taria::Invocation::new("l/3", "select").with_index(3);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&select)), &select),
            Outcome::Handled
        );
        assert_eq!(state.selected(), Some(3));
        let far = taria::Invocation::new("l/9", "select").with_index(9);
        assert!(matches!(
            apply_action(&mut state, 5, Ok(crate::item_index(&far)), &far),
            Outcome::Rejected(_)
        ));
        let down = taria::Invocation::new("l", "scroll").with_scroll(ScrollDirection::Down, 2);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&down)), &down),
            Outcome::Handled
        );
        assert_eq!(state.selected(), Some(5), "clamped by the next render");
        let left = taria::Invocation::new("l", "scroll").with_scroll(ScrollDirection::Left, 2);
        assert!(matches!(
            apply_action(&mut state, 5, Ok(crate::item_index(&left)), &left),
            Outcome::Rejected(_)
        ));
        let mut unselected = ListState::default();
        assert_eq!(
            apply_action(&mut unselected, 5, Ok(crate::item_index(&down)), &down),
            Outcome::Handled
        );
        assert_eq!(unselected.offset(), 2);
        let toggle = taria::Invocation::new("l/1", "toggle").with_index(1);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&toggle)), &toggle),
            Outcome::NotHandled
        );
    }

    /// An app whose list items are keyed by name.
    struct Names {
        names: Vec<&'static str>,
        state: ListState,
    }

    impl taria::Actions for Names {
        fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
            Outcome::NotHandled
        }
    }

    fn draw_names(frame: &mut ratatui::Frame<'_>, app: &mut Names) {
        let list = List::new(app.names.clone())
            .id("l")
            .item_keys(app.names.clone());
        frame.render_stateful_widget(list, frame.area(), &mut app.state);
    }

    #[test]
    fn an_agent_selects_a_keyed_item_where_it_is_now() {
        let app = Names {
            names: vec!["a", "b", "c"],
            state: ListState::default(),
        };
        let mut h = taria::testing::AppHarness::new(app, 10, 4, draw_names);
        assert!(h.node("l/c").stable);
        h.app_mut().names = vec!["c", "a", "b"];
        h.act("l/c", "select").unwrap();
        assert_eq!(h.app().state.selected(), Some(0));
        assert!(h.node("l/c").state.selected);
        h.app_mut().names = vec!["a", "b"];
        let error = h.act("l/c", "select").unwrap_err();
        assert_eq!(error.message, "the item `c` is no longer in the list");
        assert_eq!(h.app().state.selected(), Some(0), "unchanged");
    }
}
