//! [tui-tree-widget](https://docs.rs/tui-tree-widget/0.24.1)'s [`Tree`], recorded as a
//! `tree` of `tree_item`s (feature `tui-tree-widget`): swap
//! `use tui_tree_widget::{Tree, TreeItem, TreeState};` for
//! `use taria_widgets::tui_tree_widget::{Tree, TreeItem, TreeState};`.
//!
//! [`TreeState`] is the crate's own (re-exported), so the app's key handling
//! (`key_down`, `key_right`, `toggle_selected`, …) is unchanged. [`TreeItem`] is a
//! mirror of the crate's (the same constructors and getters) that keeps its text where
//! taria can read it: the crate's item keeps its text private. The tree draws with the
//! crate's `Tree`, cell for cell, from a copy of the items on its open paths (a closed
//! branch is handed over without its children: the crate draws only open ones).
//!
//! [`TreeState::flatten`] takes the crate's items; for the adapter's, the rows a
//! tree shows are [`Tree::rows`].

use std::borrow::Cow;
use std::cell::Cell;
use std::collections::HashSet;
use std::fmt::{Display, Write as _};
use std::hash::Hash;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::Text;
use ratatui::widgets::StatefulWidget;
use taria::{Action, Invocation, Outcome, Role, ScrollDirection};

use crate::semantic::{Offer, SemanticWidget, id_and_label};
use crate::text::FirstLine;

pub use crate::Block;
pub use tui_tree_widget::{Scrollbar, ScrollbarState, TreeState};

/// One item of a [`Tree`]: tui-tree-widget's `TreeItem`, mirrored (the same
/// constructors and getters), its text kept readable for the `tree_item`'s label.
///
/// # Examples
///
/// ```
/// use taria_widgets::tui_tree_widget::TreeItem;
///
/// let bravo = TreeItem::new("b", "Bravo", vec![TreeItem::new_leaf("c", "Charlie")])?;
/// assert_eq!((bravo.identifier(), bravo.children().len()), (&"b", 1));
/// let twice = vec![TreeItem::new_leaf("c", "Charlie"), TreeItem::new_leaf("c", "Delta")];
/// assert!(TreeItem::new("b", "Bravo", twice).is_err(), "identifiers are unique among siblings");
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TreeItem<'text, Identifier> {
    identifier: Identifier,
    text: Text<'text>,
    children: Vec<Self>,
}

/// The crate's error for identifiers given twice among siblings.
fn duplicates(what: &str) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::AlreadyExists, what.to_owned())
}

fn unique<'i, I: Eq + Hash + 'i>(ids: impl ExactSizeIterator<Item = &'i I>) -> bool {
    let len = ids.len();
    ids.collect::<HashSet<_>>().len() == len
}

impl<'text, Identifier> TreeItem<'text, Identifier>
where
    Identifier: Clone + PartialEq + Eq + Hash,
{
    /// See tui-tree-widget's `TreeItem::new_leaf`.
    #[must_use]
    pub fn new_leaf<T>(identifier: Identifier, text: T) -> Self
    where
        T: Into<Text<'text>>,
    {
        TreeItem {
            identifier,
            text: text.into(),
            children: Vec::new(),
        }
    }

    /// See tui-tree-widget's `TreeItem::new`.
    ///
    /// # Errors
    ///
    /// Errors with [`std::io::ErrorKind::AlreadyExists`] when the children contain
    /// duplicate identifiers, as the crate's does.
    pub fn new<T>(identifier: Identifier, text: T, children: Vec<Self>) -> std::io::Result<Self>
    where
        T: Into<Text<'text>>,
    {
        if !unique(children.iter().map(|c| &c.identifier)) {
            return Err(duplicates("The children contain duplicate identifiers"));
        }
        Ok(TreeItem {
            identifier,
            text: text.into(),
            children,
        })
    }

    /// See tui-tree-widget's `TreeItem::identifier`.
    #[must_use]
    pub const fn identifier(&self) -> &Identifier {
        &self.identifier
    }

    /// The item's text (not readable on the crate's item).
    #[must_use]
    pub const fn text(&self) -> &Text<'text> {
        &self.text
    }

    /// See tui-tree-widget's `TreeItem::children`.
    #[must_use]
    pub fn children(&self) -> &[Self] {
        &self.children
    }

    /// See tui-tree-widget's `TreeItem::child`.
    #[must_use]
    pub fn child(&self, index: usize) -> Option<&Self> {
        self.children.get(index)
    }

    /// See tui-tree-widget's `TreeItem::child_mut`.
    #[must_use]
    pub fn child_mut(&mut self, index: usize) -> Option<&mut Self> {
        self.children.get_mut(index)
    }

    /// See tui-tree-widget's `TreeItem::height`.
    #[must_use]
    pub fn height(&self) -> usize {
        self.text.height()
    }

    /// See tui-tree-widget's `TreeItem::add_child`.
    ///
    /// # Errors
    ///
    /// Errors with [`std::io::ErrorKind::AlreadyExists`] when a child has the same
    /// identifier, as the crate's does.
    pub fn add_child(&mut self, child: Self) -> std::io::Result<()> {
        if self
            .children
            .iter()
            .any(|c| c.identifier == child.identifier)
        {
            return Err(duplicates("identifier already exists in the children"));
        }
        self.children.push(child);
        Ok(())
    }

    /// The crate's item for this one, under `path`: children only on open paths (a
    /// closed branch gets one blank child, so the crate draws its closed symbol).
    fn to_crate(
        &self,
        opened: &HashSet<Vec<Identifier>>,
        path: &mut Vec<Identifier>,
    ) -> tui_tree_widget::TreeItem<'text, Identifier> {
        path.push(self.identifier.clone());
        let children = if opened.contains(path.as_slice()) {
            self.children
                .iter()
                .map(|c| c.to_crate(opened, path))
                .collect()
        } else {
            self.children
                .first()
                .map(|c| tui_tree_widget::TreeItem::new_leaf(c.identifier.clone(), ""))
                .into_iter()
                .collect()
        };
        path.pop();
        tui_tree_widget::TreeItem::new(self.identifier.clone(), self.text.clone(), children)
            .unwrap_or_else(|_| {
                // Not reached: the children's identifiers were checked on the way in.
                tui_tree_widget::TreeItem::new_leaf(self.identifier.clone(), self.text.clone())
            })
    }
}

/// A row a tree shows (scrolling included): the item and its identifier path.
#[derive(Debug)]
pub struct Row<'t, 'text, Identifier> {
    /// The identifiers from the top level down to the item.
    pub identifier: Vec<Identifier>,
    /// The item.
    pub item: &'t TreeItem<'text, Identifier>,
}

impl<Identifier> Row<'_, '_, Identifier> {
    /// How deep the item is: 0 at the top level.
    #[must_use]
    pub fn depth(&self) -> usize {
        self.identifier.len().saturating_sub(1)
    }
}

/// The rows under `items` with the `opened` paths open, in order.
fn flatten<'t, 'text, I: Clone + Eq + Hash>(
    opened: &HashSet<Vec<I>>,
    items: &'t [TreeItem<'text, I>],
    path: &[I],
    rows: &mut Vec<Row<'t, 'text, I>>,
) {
    for item in items {
        let mut identifier = path.to_vec();
        identifier.push(item.identifier.clone());
        let open = opened.contains(&identifier);
        rows.push(Row {
            identifier: identifier.clone(),
            item,
        });
        if open {
            flatten(opened, &item.children, &identifier, rows);
        }
    }
}

/// A row's key: its identifier path, each identifier as it displays, joined by `.`
/// (`p.v.w`).
fn row_key<I: Display>(identifier: &[I]) -> String {
    let mut key = String::new();
    for (i, part) in identifier.iter().enumerate() {
        if i > 0 {
            key.push('.');
        }
        let _ = write!(key, "{part}");
    }
    key
}

/// tui-tree-widget's `Tree`, drawn by the crate's widget (cell for cell) and recorded
/// as a `tree` (label: its block's title, given a taria [`Block`]; `count` and `scroll`:
/// the rows the open branches show and the first on screen) holding a `tree_item` per
/// row on screen: label = the item's text (first line), key = its identifier path
/// (`p.v.w`, so its id is `<tree id>/p.v.w`), `level` (1 at the top), `index`/`count`
/// among the rows, `selected`, `expanded` (on items with children), bounds its row.
///
/// Drawn with the app's [`TreeState`], its rows offer `select` (the runtime moves the
/// selection with the app's arrow keys). With an explicit [`id`](Tree::id) too, the
/// tree takes the agent's actions into the state while it renders: `select` on a row
/// (`TreeState::select`, also on rows scrolled out of view), `expand`/`collapse`
/// (`TreeState::open`/`close`) on rows with children, and `scroll` on the tree (moves
/// the selection by rows, or the view when nothing is selected). An app that draws
/// only after its own events draws after `Event::FocusGained` too (the guide's event
/// loop rules). The identifier type must be `Display` for the rows' keys.
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::tui_tree_widget::{Block, Tree, TreeItem, TreeState};
///
/// let items = vec![
///     TreeItem::new_leaf("a", "Alfa"),
///     TreeItem::new("b", "Bravo", vec![TreeItem::new_leaf("c", "Charlie")]).unwrap(),
/// ];
/// let mut state = TreeState::default();
/// state.open(vec!["b"]);
/// let mut harness = Harness::new(20, 5);
/// let tree = harness.render(|f| {
///     let tree = Tree::new(&items).unwrap().block(Block::bordered().title("Files")).id("files");
///     f.render_stateful_widget(tree, f.area(), &mut state);
/// });
/// assert_eq!(tree.get("files").unwrap().label.as_deref(), Some("Files"));
/// let charlie = tree.get("files/b.c").unwrap();
/// assert_eq!((charlie.label.as_deref(), charlie.position.level), (Some("Charlie"), Some(2)));
/// ```
#[derive(Debug, Clone)]
#[must_use]
pub struct Tree<'a, Identifier> {
    items: &'a [TreeItem<'a, Identifier>],
    block: Option<ratatui::widgets::Block<'a>>,
    label: Option<Cow<'a, str>>,
    scrollbar: Option<Scrollbar<'a>>,
    style: Style,
    highlight_style: Style,
    highlight_symbol: &'a str,
    node_closed_symbol: &'a str,
    node_open_symbol: &'a str,
    node_no_children_symbol: &'a str,
    id: Option<&'a str>,
    /// What [`SemanticWidget::describe`] was told, for the recording after drawing
    /// (the rows on screen are known once the crate has scrolled the selection in).
    offer: Cell<Option<Offer>>,
}

impl<'a, Identifier> Tree<'a, Identifier>
where
    Identifier: Clone + PartialEq + Eq + Hash,
{
    /// See tui-tree-widget's `Tree::new`.
    ///
    /// # Errors
    ///
    /// Errors with [`std::io::ErrorKind::AlreadyExists`] when the items contain
    /// duplicate identifiers, as the crate's does.
    pub fn new(items: &'a [TreeItem<'a, Identifier>]) -> std::io::Result<Self> {
        if !unique(items.iter().map(|i| &i.identifier)) {
            return Err(duplicates("The items contain duplicate identifiers"));
        }
        Ok(Tree {
            items,
            block: None,
            label: None,
            scrollbar: None,
            style: Style::new(),
            highlight_style: Style::new(),
            highlight_symbol: "",
            node_closed_symbol: "\u{25b6} ",
            node_open_symbol: "\u{25bc} ",
            node_no_children_symbol: "  ",
            id: None,
            offer: Cell::new(None),
        })
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id: rows get `<id>/<identifier path>`, and the tree
        /// takes the agent's `select`, `expand`, `collapse` and `scroll` into the
        /// app's [`TreeState`].
    );

    /// See tui-tree-widget's `Tree::block`. Takes a taria [`Block`], whose first title
    /// labels the tree, or a ratatui one (whose title cannot be read back).
    pub fn block(mut self, block: impl Into<Block<'a>>) -> Self {
        let (block, label) = block.into().into_parts();
        self.block = Some(block);
        self.label = label;
        self
    }

    /// See tui-tree-widget's `Tree::experimental_scrollbar`.
    pub const fn experimental_scrollbar(mut self, scrollbar: Option<Scrollbar<'a>>) -> Self {
        self.scrollbar = scrollbar;
        self
    }

    /// See tui-tree-widget's `Tree::style`.
    pub const fn style(mut self, style: Style) -> Self {
        self.style = style;
        self
    }

    /// See tui-tree-widget's `Tree::highlight_style`.
    pub const fn highlight_style(mut self, style: Style) -> Self {
        self.highlight_style = style;
        self
    }

    /// See tui-tree-widget's `Tree::highlight_symbol`.
    pub const fn highlight_symbol(mut self, highlight_symbol: &'a str) -> Self {
        self.highlight_symbol = highlight_symbol;
        self
    }

    /// See tui-tree-widget's `Tree::node_closed_symbol`.
    pub const fn node_closed_symbol(mut self, symbol: &'a str) -> Self {
        self.node_closed_symbol = symbol;
        self
    }

    /// See tui-tree-widget's `Tree::node_open_symbol`.
    pub const fn node_open_symbol(mut self, symbol: &'a str) -> Self {
        self.node_open_symbol = symbol;
        self
    }

    /// See tui-tree-widget's `Tree::node_no_children_symbol`.
    pub const fn node_no_children_symbol(mut self, symbol: &'a str) -> Self {
        self.node_no_children_symbol = symbol;
        self
    }

    /// The rows the tree shows with `state`'s open branches (scrolling included), in
    /// order: `TreeState::flatten` for the adapter's items.
    #[must_use]
    pub fn rows(&self, state: &TreeState<Identifier>) -> Vec<Row<'a, 'a, Identifier>> {
        let mut rows = Vec::new();
        flatten(state.opened(), self.items, &[], &mut rows);
        rows
    }

    /// The crate's tree drawing `items` (the crate's copy of ours).
    fn into_crate<'b>(
        self,
        items: &'b [tui_tree_widget::TreeItem<'a, Identifier>],
    ) -> tui_tree_widget::Tree<'b, Identifier>
    where
        'a: 'b,
    {
        // Not reached: `Tree::new` checked the identifiers; drawn with none.
        let Ok(tree) = tui_tree_widget::Tree::new(items) else {
            return empty_tree();
        };
        let tree = tree
            .experimental_scrollbar(self.scrollbar)
            .style(self.style)
            .highlight_style(self.highlight_style)
            .highlight_symbol(self.highlight_symbol)
            .node_closed_symbol(self.node_closed_symbol)
            .node_open_symbol(self.node_open_symbol)
            .node_no_children_symbol(self.node_no_children_symbol);
        match self.block {
            Some(block) => tree.block(block),
            None => tree,
        }
    }
}

/// A tree of no items (for the unreachable duplicate-identifier case).
fn empty_tree<'b, I: Clone + Eq + Hash>() -> tui_tree_widget::Tree<'b, I> {
    match tui_tree_widget::Tree::new(&[]) {
        Ok(tree) => tree,
        Err(_) => unreachable!("no items, no duplicates"),
    }
}

impl<Identifier> Tree<'_, Identifier>
where
    Identifier: Clone + Eq + Hash + Display,
{
    /// The row the id segment `segment` (under the tree's id) names now.
    fn named<'r, 't, 'x>(
        rows: &'r [Row<'t, 'x, Identifier>],
        segment: &str,
    ) -> Option<(usize, &'r Row<'t, 'x, Identifier>)> {
        let key = taria::builder::unescape_key(segment);
        rows.iter()
            .enumerate()
            .find(|(_, row)| row_key(&row.identifier) == key)
    }

    /// `scroll` on the tree: moves the selection by rows (or the view, with nothing
    /// selected).
    fn scroll(
        state: &mut TreeState<Identifier>,
        rows: &[Row<'_, '_, Identifier>],
        inv: &Invocation<'_>,
    ) -> Outcome {
        let (direction, amount) = inv.scroll().unwrap_or((ScrollDirection::Down, 1));
        let down = match direction {
            ScrollDirection::Down => true,
            ScrollDirection::Up => false,
            _ => return Outcome::Rejected("a tree scrolls up or down".into()),
        };
        let amount = u16::try_from(amount).unwrap_or(u16::MAX);
        let selected = rows
            .iter()
            .position(|row| row.identifier.as_slice() == state.selected());
        if let Some(selected) = selected {
            return match crate::scroll_selection(selected, (down, amount), rows.len(), "item") {
                Ok(next) => {
                    state.select(rows[next].identifier.clone());
                    Outcome::Handled
                }
                Err(why) => Outcome::Rejected(why),
            };
        }
        let moved = if down {
            state.scroll_down(usize::from(amount))
        } else {
            state.scroll_up(usize::from(amount))
        };
        if moved {
            Outcome::Handled
        } else if down {
            Outcome::Rejected("its last row is at the top already".into())
        } else {
            Outcome::Rejected("it shows its first row already".into())
        }
    }

    /// `select`, `expand` or `collapse` on the row `row`.
    fn on_row(
        state: &mut TreeState<Identifier>,
        row: &Row<'_, '_, Identifier>,
        inv: &Invocation<'_>,
    ) -> Outcome {
        let open = state.opened().contains(&row.identifier);
        match inv.action().core() {
            Some(Action::Select) => {
                state.select(row.identifier.clone());
                Outcome::Handled
            }
            _ if inv.is_undrawn() => Outcome::Rejected(format!(
                "`{}` is off screen: select it first (the tree scrolls to it), then {}",
                inv.target(),
                inv.action()
            )),
            Some(Action::Expand | Action::Collapse) if row.item.children.is_empty() => {
                Outcome::Rejected("it has no children".into())
            }
            Some(Action::Expand) if open => Outcome::Rejected("it is expanded already".into()),
            Some(Action::Expand) => {
                state.open(row.identifier.clone());
                Outcome::Handled
            }
            Some(Action::Collapse) if !open => Outcome::Rejected("it is collapsed already".into()),
            Some(Action::Collapse) => {
                state.close(&row.identifier);
                Outcome::Handled
            }
            _ => Outcome::NotHandled,
        }
    }

    /// Records the tree and its rows on screen, after the crate drew them into
    /// `inner` (the area inside the block) with `state`.
    fn record(&self, area: Rect, inner: Rect, state: &TreeState<Identifier>, offer: Offer) {
        let rows = self.rows(state);
        let first = state.get_offset().min(rows.len());
        let mut shown = Vec::new();
        let mut y = inner.y;
        for (i, row) in rows.iter().enumerate().skip(first) {
            let height = u16::try_from(row.item.height()).unwrap_or(u16::MAX);
            if inner.is_empty() || y.saturating_add(height) > inner.bottom() {
                break;
            }
            shown.push((i, Rect::new(inner.x, y, inner.width, height)));
            y = y.saturating_add(height);
        }
        let _tree = taria::scope(|n| {
            n.role(Role::Tree)
                .count(rows.len())
                .scroll(first, rows.len(), shown.len())
                .bounds(area);
            if offer.takes() {
                n.action(Action::Scroll);
            }
            id_and_label(n, self.id, self.label.as_ref());
        });
        for (i, bounds) in shown {
            let row = &rows[i];
            taria::leaf(|n| {
                n.role(Role::TreeItem)
                    .key(row_key(&row.identifier))
                    .label(FirstLine(&row.item.text))
                    .level(row.depth() + 1)
                    .index(i)
                    .count(rows.len())
                    .selected(state.selected() == row.identifier.as_slice())
                    .bounds(bounds);
                if offer.selectable() {
                    n.action(Action::Select);
                }
                if !row.item.children.is_empty() {
                    let open = state.opened().contains(&row.identifier);
                    n.expanded(open);
                    if offer.takes() {
                        n.action(if open {
                            Action::Collapse
                        } else {
                            Action::Expand
                        });
                    }
                }
            });
        }
    }
}

impl<Identifier> SemanticWidget for Tree<'_, Identifier>
where
    Identifier: Clone + Eq + Hash + Display,
{
    type State = TreeState<Identifier>;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn fingerprint(state: &TreeState<Identifier>) -> Option<u64> {
        // The open paths in any order; the offset is left out (the crate moves it
        // as it draws, to show the selection).
        let opened = state.opened().iter().fold(0u64, |sum, path| {
            sum.wrapping_add(crate::semantic::fingerprint(path))
        });
        Some(crate::semantic::fingerprint((state.selected(), opened)))
    }

    fn apply(&self, state: &mut TreeState<Identifier>, inv: &Invocation<'_>) -> Outcome {
        let id = self.id.unwrap_or_default();
        let rows = self.rows(state);
        let Some(segment) = inv
            .target()
            .strip_prefix(id)
            .and_then(|rest| rest.strip_prefix('/'))
        else {
            if inv.is(Action::Scroll) {
                return Self::scroll(state, &rows, inv);
            }
            if inv.is(Action::Select)
                && let Some(row) = crate::item_index(inv).and_then(|i| rows.get(i))
            {
                state.select(row.identifier.clone());
                return Outcome::Handled;
            }
            return Outcome::NotHandled;
        };
        match Self::named(&rows, segment) {
            Some((_, row)) => Self::on_row(state, row, inv),
            // No row has the id now: the runtime says there is no such node.
            None => Outcome::NotHandled,
        }
    }

    fn describe(&self, _area: Rect, _state: &TreeState<Identifier>, offer: Offer) {
        self.offer.set(Some(offer));
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut TreeState<Identifier>) {
        let mut path = Vec::new();
        let items: Vec<_> = self
            .items
            .iter()
            .map(|item| item.to_crate(state.opened(), &mut path))
            .collect();
        let inner = self.block.as_ref().map_or(area, |b| b.inner(area));
        let offer = self.offer.take();
        let recorded = offer.map(|offer| (self.clone(), offer));
        StatefulWidget::render(self.into_crate(&items), area, buf, state);
        if let Some((tree, offer)) = recorded {
            tree.record(area, inner, state, offer);
        }
    }
}

crate::semantic::widget_impls!(
    [Identifier: Clone + Eq + Hash + Display] Tree<'_, Identifier>: Widget, StatefulWidget<TreeState<Identifier>>
);
