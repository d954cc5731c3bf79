//! [`List`]: ratatui's [`List`](ratatui::widgets::List), recorded as a `list` of
//! `list_item`s (only the items on screen), with `select` and `scroll` taken by the
//! widget itself.
//!
//! ratatui keeps an item's text private, so [`ListItem`] holds its own copy with
//! ratatui's field layout and hands it to ratatui's widget at render: an in-place `Vec`
//! conversion, no allocation (`tests/alloc.rs`). So the items' checked states
//! ([`List::checked`]) and keys ([`List::item_keys`]) are side tables on the `List`,
//! collected only while recording. An item without a key is keyed by its words (its
//! first line without a state mark, `text.rs`), the first item with those words only,
//! others and wordless items by index, so a toggle does not rename an item. The visible
//! range is ratatui's private algorithm mirrored (`list/record.rs`, tested against the
//! offset ratatui writes), so only the items on screen are recorded; an action on an item
//! off screen reaches it through the crate's one id lookup (`Items::named` in `lib.rs`):
//! `select` selects it and ratatui scrolls it into view, other actions are refused until
//! it is on screen (`apply_undrawn`).

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Line;
use ratatui::widgets::{HighlightSpacing, StatefulWidget};
use taria::{Action, Invocation, Outcome, ScrollDirection};

use crate::semantic::SemanticWidget;
use crate::text::with_item_key;

pub use ratatui::widgets::{ListDirection, ListState};

mod item;
mod record;
#[cfg(test)]
mod tests;

pub use item::ListItem;

/// A list of items, drawn exactly like ratatui's `List`.
///
/// Recorded as a `list` (label: its block's title; `count`: all items; `scroll`: the
/// first item on screen, the item count, the items on screen) holding one
/// `list_item` per item *on screen* (label: its first line; id: its words, the first
/// line without the mark of its state, see [`List::id`]; `selected`; `index` of
/// `count`). Drawn with the app's state (which its keys move) the items offer
/// `select`; with an id and the app's state the list offers
/// (and takes) `select` and `scroll` too; with
/// [`List::activate_key`] the items offer `activate` too, and items given a checked
/// state ([`List::checked`]) carry it and offer `toggle`.
///
/// **State route.** Rendered with [`StatefulWidget`] and an [`id`](List::id), the list
/// takes `select` and `scroll` itself: an agent's `select` on the fourth item becomes
/// `ListState::select(Some(3))` and `scroll` moves the selection like
/// `ListState::scroll_down_by` (or the offset when nothing is selected) — no app code.
/// The app's own handlers still run first. Without an id nothing is taken.
///
/// # Examples
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
/// let walk = tree.get("tasks/Walk dog").unwrap();
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
    toggle_key: Option<&'a str>,
    /// The items' keys (see [`List::item_keys`]), kept only while recording.
    keys: Vec<String>,
    /// The items' checked states (see [`List::checked`]), kept only while recording: a
    /// side table, so that [`ListItem`] keeps ratatui's field layout.
    checked: Vec<bool>,
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
        /// Sets an explicit, stable id: items get `id/<their words>`, their first line
        /// without the mark of its state (` ☐ Call mum` and ` ✓ Call mum` are both
        /// `id/Call mum`, and `Inbox (3)` is `id/Inbox`), so an item keeps its id
        /// when it is toggled, moved or sorted; or `id/<key>` with [`List::item_keys`].
        /// An item whose words an earlier item has, or that has none, is named by its
        /// index (`id/4`, marked positional: the bridge guards agents' actions on it).
        /// And the widget takes the agent's `select`/`scroll` into its state.
    );

    /// Identifies the items to agents, in order: item `i` becomes `<list id>/<key i>`,
    /// stable while its key is (a task id, a file name), and an agent's `select` on it
    /// lands on it wherever it is when the list is next drawn. For items whose words
    /// repeat or change (two "Buy milk"s, a title being edited); without keys an item is
    /// named by its words ([`List::id`]). Give one key per item:
    /// items beyond the keys given are named by their index, and an index `5` and a
    /// key `"5"` would name the same id. Kept only while a frame is recorded (nothing
    /// is collected otherwise, and a `List` built outside the draw closure loses
    /// them); not part of ratatui's `List`.
    ///
    /// # Examples
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
        if taria::widget::is_recording() {
            self.keys = keys.into_iter().map(|k| k.to_string()).collect();
        }
        self
    }

    /// Gives the items a checked state, in order (a todo's done, a selection's
    /// membership): item `i`'s node carries `checked` (`[x]` in the outline) and offers
    /// `toggle`. Items beyond the states given have none. Not part of ratatui's `List`
    /// (ratatui's items have no such state; the app usually draws a `[x]` in the text);
    /// kept only while a frame is recorded, like [`List::item_keys`].
    ///
    /// The widget does not apply `toggle`: the state is the app's data, not the
    /// list's. The app's `#[action]` handler takes it, or else the key given with
    /// [`List::toggle_key`], pressed through the app's input path after the selection
    /// is moved onto the item (the agent's `toggle` on `todos/3` presses down to item
    /// 3, then the key); with neither, the agent is told nothing takes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use ratatui::widgets::ListState;
    /// use taria::testing::Harness;
    /// use taria_widgets::List;
    ///
    /// let todos = [("Buy milk", true), ("Walk dog", false)];
    /// let mut harness = Harness::new(20, 2);
    /// let tree = harness.render(|frame| {
    ///     let list = List::new(todos.map(|(title, _)| title))
    ///         .id("todos")
    ///         .checked(todos.map(|(_, done)| done))
    ///         .toggle_key("space");
    ///     frame.render_stateful_widget(list, frame.area(), &mut ListState::default());
    /// });
    /// let milk = tree.get("todos/Buy milk").unwrap();
    /// assert_eq!(milk.state.checked, Some(taria::Checked::True));
    /// assert!(milk.actions.iter().any(|a| a.as_str() == "toggle"));
    /// ```
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn checked(mut self, states: impl IntoIterator<Item = bool>) -> Self {
        if taria::widget::is_recording() {
            self.checked = states.into_iter().collect();
        }
        self
    }

    /// Says which key the app's input path takes to toggle the selected item's checked
    /// state ([`List::checked`], e.g. `"space"`): an agent's `toggle` on an item moves
    /// the selection onto it and presses that key.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn toggle_key(mut self, key: &'a str) -> Self {
        self.toggle_key = Some(key);
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

    /// Whether items are named by their words: the list has an explicit id (so their
    /// ids can be stable) and no [`List::item_keys`].
    fn keyed_by_words(&self) -> bool {
        self.id.is_some() && self.keys.is_empty()
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
    match inv.action().core() {
        Some(Action::Select) => match item {
            Err(gone) => Outcome::Rejected(gone),
            Ok(Some(i)) if i < len => {
                state.select(Some(i));
                Outcome::Handled
            }
            Ok(Some(i)) => Outcome::Rejected(format!("no item {i}: the list has {len}")),
            Ok(None) => Outcome::Rejected("select one of the list's items".into()),
        },
        Some(Action::Scroll) => {
            let (direction, amount) = inv.scroll().unwrap_or((ScrollDirection::Down, 1));
            let amount = u16::try_from(amount).unwrap_or(u16::MAX);
            let down = match direction {
                ScrollDirection::Down => true,
                ScrollDirection::Up => false,
                _ => return Outcome::Rejected("a list scrolls up or down".into()),
            };
            if let Some(selected) = state.selected() {
                match crate::scroll_selection(selected, (down, amount), len, "item") {
                    Ok(next) => state.select(Some(next)),
                    Err(why) => return Outcome::Rejected(why),
                }
            } else {
                crate::scroll_offset(state.offset_mut(), down, amount, len);
            }
            Outcome::Handled
        }
        _ => Outcome::NotHandled,
    }
}

/// Items keyed by [`List::item_keys`] (the rest by index); without them, in a list with
/// an id, by their words ([`with_item_key`]: the first line without the mark of its
/// state), the first of equal ones (the others, and an item with no words, by index);
/// in a list without an id, by index (its id is positional: so are its items').
impl crate::Items for List<'_> {
    fn position_of_key(&self, key: &str) -> Option<usize> {
        if !self.keyed_by_words() {
            return self.keys.iter().position(|have| have == key);
        }
        if key.is_empty() {
            return None;
        }
        self.items
            .iter()
            .position(|item| with_item_key(&item.content, |words| words == key))
    }

    fn is_keyed(&self, i: usize) -> bool {
        if !self.keyed_by_words() {
            return i < self.keys.len();
        }
        let Some(item) = self.items.get(i) else {
            return false;
        };
        // An agent's action, not a frame: the copy is one allocation per action.
        let key = with_item_key(&item.content, str::to_owned);
        self.position_of_key(&key) == Some(i)
    }

    fn count(&self) -> usize {
        self.items.len()
    }
}

/// Drawn with `Widget` (no state) the list takes no agent actions: they are left
/// to the app's handlers and key fallbacks.
impl SemanticWidget for List<'_> {
    type State = ListState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn fingerprint(state: &ListState) -> Option<u64> {
        let offset = state.selected().is_none().then(|| state.offset());
        Some(crate::semantic::fingerprint((state.selected(), offset)))
    }

    fn apply(&self, state: &mut ListState, inv: &Invocation<'_>) -> Outcome {
        let id = self.id.unwrap_or_default();
        // An item off screen: `select` brings it into view, other actions wait for it.
        if let Some(found) = crate::undrawn_item(inv, id, self) {
            return crate::apply_undrawn(found, inv, "list", |i| state.select(Some(i)));
        }
        let item = crate::keyed_item(inv, id, self, ("item", "list"));
        apply_action(state, self.items.len(), item, inv)
    }

    fn describe(&self, area: Rect, state: &ListState, offer: crate::semantic::Offer) {
        self.record(area, state, offer);
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut ListState) {
        StatefulWidget::render(self.into_ratatui(), area, buf, state);
    }
}

crate::semantic::widget_impls!(List<'_>: Widget, StatefulWidget<ListState>);
crate::semantic::widget_impls!(List<'_>: &Widget by clone);
crate::semantic::widget_impls!(List<'_>: &StatefulWidget<ListState> by clone);

crate::semantic::styled!(List<'_>: inner);

impl<'a, Item: Into<ListItem<'a>>> FromIterator<Item> for List<'a> {
    fn from_iter<I: IntoIterator<Item = Item>>(iter: I) -> Self {
        List::new(iter)
    }
}
