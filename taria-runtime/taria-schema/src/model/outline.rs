//! A compact, one-line-per-node text form of a tree, for assertions and agents.
//!
//! A row whose children are all plain cells is one line, its cells after its own part
//! (`- row [id=processes/18877] [selected] {select}: "18877" | "firefox" | "79.9"`), the
//! header row likewise giving the column names once ([`OutlineRules::compact_cells`],
//! which `Tree::outline` and the bridge's writer both use). The dashboard's table went
//! from 7 lines a row to 1 (its golden outline, 144 lines to 36); JSON is unchanged.
//!
//! Only table rows, decided by measurement (`python3 benches/agents/joinable_lines.py`):
//! tabs and options carry an id and actions each, so joined onto their parent's line each
//! would keep its `[id=…]` and save only its line's start. That is 18 B of todo's 566 B
//! first read (3 tabs), 36 B of the dashboard's 4,353 B (6 tabs), nothing on form and
//! files, while the instructions would need 94 B more to explain a second joined form,
//! paid in every session. Sparklines and charts are one leaf with a summary value
//! already.

use std::borrow::Cow;
use std::fmt::Write as _;

use super::{ActionName, Checked, Node, Position, Role, State, StateFlags, Tree, Value};

mod escape;
mod walk;

pub use escape::{OutlineName, OutlineQuoted, OutlineText, outline_line_id};
use escape::{write_name, write_quoted};
pub use walk::{OutlineStep, OutlineVisitor, outline_lines, outline_within, walk_outline};

impl Tree {
    /// The tree as an indented outline, one line per node:
    ///
    /// ```text
    /// - list "Tasks" [id=tasks] [count=120] {select, scroll} children{toggle, delete}
    ///   - list_item "Buy milk" [id=tasks/1] [selected] [unchecked] [index=40/120]
    ///   - list_item "Walk dog" [id=tasks/2] [checked]
    /// ```
    ///
    /// A line is `- role[:custom] "label": value` (text values quoted), then `[id=…]` (with ` positional`
    /// when the id is derived from a position), the state in brackets, and the actions
    /// offered in braces. Absent parts are left out, and so is what the lines around
    /// imply (see [`OutlineRules::outline_line_around`]): the id of an inert leaf named after its
    /// parent (see [`OutlineRules::id_implied`]), an item's `[index=i/n]` when it follows
    /// its sibling `i-1` of the same count or starts a complete run of its parent's
    /// children, a `[count=n]` of `n` children, a table cell's column name when the
    /// table's header row gives it (`- cell: "42"` under `- column_header "Age"`), a
    /// label that is the text value's first line (`- text: "Saved\n3 files"`, the
    /// value says it), a tree item's `[level=1]` (the top level), and the actions every child offers:
    /// the parent's line ends with them as `children{…}`, and each child's `{…}`
    /// lists only its others.
    ///
    /// App text is quoted as JSON strings ([`OutlineQuoted`]) and so are ids, custom
    /// roles and custom action names that are not plain ([`OutlineName`]): no app
    /// string can start a line or end a `"…"`, `[…]` or `{…}` early, so the outline
    /// has exactly one line per node ([`outline_line_id`] reads a line's id back).
    #[must_use]
    pub fn outline(&self) -> String {
        outline_within(&self.roots, usize::MAX, usize::MAX).unwrap_or_default()
    }
}

impl Node {
    /// This node and its descendants down to `depth` levels (0 = only this node) as
    /// an outline; see [`Tree::outline`].
    #[must_use]
    pub fn outline(&self, depth: usize) -> String {
        outline_within([self], depth, usize::MAX).unwrap_or_default()
    }

    /// This node's own outline line, complete (nothing that other lines would imply is
    /// left out), without indentation or a line break.
    #[must_use]
    pub fn outline_line(&self) -> String {
        self.outline_line_around(&Around::default())
    }
}

/// How an outline writer reads a node's line where it stands: what the lines around
/// it imply and may be left out, and a table row written as one line. [`Tree::outline`]
/// and [`Node::outline`] follow these rules; a consumer that writes outlines itself (a
/// part of a tree, under a size cap, as `taria-mcp` does) uses them to write the same
/// lines. App code and tests do not need it.
pub trait OutlineRules {
    /// This node's outline line as it reads where `around` says it is written: what
    /// the lines around imply is left out (an `[index=i/n]`, see
    /// [`OutlineRules::position_implied`]; the actions when the parent's line shows them as
    /// `children{…}`, see [`OutlineRules::shared_child_actions`]; a cell's column name; …).
    /// Writing `n` siblings with what their parent implies worked out once costs
    /// `O(n)`.
    #[must_use]
    fn outline_line_around(&self, around: &Around<'_>) -> String;

    /// A row of plain cells as the end of its own line: `: "18877" | "firefox" |
    /// 79.9`, each cell's value (or a header's label), when every child is a leaf
    /// cell or column header that says nothing else (no id, state, actions, key, or
    /// label other than its column's name, from `columns`: the table's header row).
    /// `None` when a cell says more: then the cells are lines of their own.
    #[must_use]
    fn compact_cells(&self, columns: Option<&[&str]>) -> Option<String>;

    /// Whether this is a row labelled with its first cell's text.
    #[must_use]
    fn label_is_first_cell(&self) -> bool;

    /// A table's column names, from its header row (a `row` of `column_header`s), in
    /// order: what lets an outline leave out a cell's column name.
    #[must_use]
    fn column_names(&self) -> Option<Vec<&str>>;

    /// Whether this node's index and count follow from where it is drawn, so an
    /// outline leaves them out: its `previous` sibling has index `i-1` and the same
    /// count, or it is the first of a complete run — index 0 of `n`, where `parent`
    /// has `n` children and the last has index `n-1`.
    #[must_use]
    fn position_implied(&self, parent: Option<&Node>, previous: Option<&Node>) -> bool;

    /// Whether an outline leaves out this node's id: it is an inert leaf — no
    /// children, no actions, and not `[inert]` (a modal dialog took its actions away:
    /// it keeps its id, to be named once the dialog closes) — whose id is derived
    /// from its `parent`'s (`<parent>/…`),
    /// like a table cell or a list item's text. Nothing can be done with such an id
    /// that the parent's does not do; `find_nodes` and JSON still give it.
    #[must_use]
    fn id_implied(&self, parent: Option<&Node>) -> bool;

    /// Whether an outline leaves out this node's level: it is a tree item at level 1,
    /// the top level.
    #[must_use]
    fn level_implied(&self) -> bool;

    /// Whether this node's count is the number of its children, so an outline leaves
    /// it out.
    #[must_use]
    fn count_implied(&self) -> bool;

    /// The actions every child offers, when there are two or more children and they
    /// share at least one: an outline shows them once, on this node's line, as
    /// `children{…}`, and each child's own `{…}` then lists only the rest. In the
    /// order the first child offers them.
    #[must_use]
    fn shared_child_actions(&self) -> Vec<ActionName>;

    /// The actions this node's line lists itself, in order: those its parent's line
    /// does not already give every child (`shared`, see
    /// [`OutlineRules::shared_child_actions`]).
    fn own_actions<'a>(
        &'a self,
        shared: &'a [ActionName],
    ) -> impl Iterator<Item = &'a ActionName> + 'a;
}

impl OutlineRules for Node {
    fn outline_line_around(&self, around: &Around<'_>) -> String {
        let mut out = String::new();
        write_line(&mut out, self, around);
        out
    }

    fn compact_cells(&self, columns: Option<&[&str]>) -> Option<String> {
        if self.role != Role::Row || self.children.is_empty() {
            return None;
        }
        let mut out = String::from(":");
        // Cells that offer only what the row's `children{…}` says (a table with a
        // column selection: `select` on each) are written here too: cell `i` is
        // `<row id>/i`, as stable as its row.
        let shared = self.shared_child_actions();
        for (i, cell) in self.children.iter().enumerate() {
            let column = columns.and_then(|c| c.get(i)).copied();
            let named = if cell.actions.is_empty() {
                cell.id_implied(Some(self))
            } else {
                !shared.is_empty()
                    && cell.own_actions(&shared).next().is_none()
                    && cell.stable == self.stable
                    && cell
                        .id
                        .as_str()
                        .strip_prefix(self.id.as_str())
                        .and_then(|rest| rest.strip_prefix('/'))
                        .is_some_and(|rest| rest.parse() == Ok(i))
            };
            let plain = matches!(cell.role, Role::Cell | Role::ColumnHeader)
                && cell.children.is_empty()
                && named
                && cell.keys.is_empty()
                && cell.custom_role.is_none()
                && cell.state == State::default()
                && cell.value_schema.is_none()
                && cell.redacted_length.is_none()
                && cell.position.is_empty()
                && cell.scroll.is_none();
            if !plain {
                return None;
            }
            let text = match (cell.role, &cell.label, &cell.value) {
                (Role::ColumnHeader, label, None) => label.as_deref().map(Value::from),
                (Role::Cell, None, value) => value.clone(),
                (Role::Cell, Some(label), value) if column == Some(label.as_str()) => value.clone(),
                _ => return None,
            };
            out.push_str(if i == 0 { " " } else { " | " });
            match text {
                Some(Value::Text(text)) => {
                    let _ = write_quoted(&mut out, &text);
                }
                Some(value) => {
                    let _ = write!(out, "{value}");
                }
                None => out.push_str("\"\""),
            }
        }
        Some(out)
    }

    fn label_is_first_cell(&self) -> bool {
        let (Some(label), Some(first)) = (&self.label, self.children.first()) else {
            return false;
        };
        self.role == Role::Row
            && first.role == Role::Cell
            && matches!(&first.value, Some(Value::Text(text)) if text == label)
    }

    fn column_names(&self) -> Option<Vec<&str>> {
        if self.role != Role::Table {
            return None;
        }
        let header = self.children.iter().find(|row| {
            row.role == Role::Row
                && !row.children.is_empty()
                && row.children.iter().all(|h| h.role == Role::ColumnHeader)
        })?;
        Some(
            header
                .children
                .iter()
                .map(|h| h.label.as_deref().unwrap_or(""))
                .collect(),
        )
    }

    fn position_implied(&self, parent: Option<&Node>, previous: Option<&Node>) -> bool {
        let Position { index, count, .. } = self.position;
        match previous {
            Some(p) => {
                p.position.count == count
                    && index.is_some()
                    && p.position.index.and_then(|a| a.checked_add(1)) == index
            }
            None => parent.is_some_and(|parent| {
                let n = parent.children.len();
                index == Some(0)
                    && count.is_some_and(|c| c as usize == n)
                    && parent.children.last().is_some_and(|last| {
                        last.position
                            .index
                            .is_some_and(|i| (i as usize).checked_add(1) == Some(n))
                    })
            }),
        }
    }

    fn id_implied(&self, parent: Option<&Node>) -> bool {
        self.children.is_empty()
            && self.actions.is_empty()
            && !self.state.inert
            && parent.is_some_and(|p| {
                self.id
                    .as_str()
                    .strip_prefix(p.id.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
            })
    }

    fn level_implied(&self) -> bool {
        self.role == Role::TreeItem && self.position.level == Some(1)
    }

    fn count_implied(&self) -> bool {
        self.position.index.is_none()
            && self
                .position
                .count
                .is_some_and(|c| c as usize == self.children.len())
    }

    fn shared_child_actions(&self) -> Vec<ActionName> {
        let Some((first, rest)) = self.children.split_first() else {
            return Vec::new();
        };
        if rest.is_empty() {
            return Vec::new();
        }
        first
            .actions
            .iter()
            .filter(|action| rest.iter().all(|c| c.actions.contains(action)))
            .cloned()
            .collect()
    }

    fn own_actions<'a>(
        &'a self,
        shared: &'a [ActionName],
    ) -> impl Iterator<Item = &'a ActionName> + 'a {
        self.actions.iter().filter(|a| !shared.contains(a))
    }
}

/// What the lines around a node's outline line already say.
#[derive(Clone, Copy, Debug, Default)]
pub struct Around<'a> {
    /// The node's parent.
    pub parent: Option<&'a Node>,
    /// The sibling just before it.
    pub previous: Option<&'a Node>,
    /// The actions the parent's line shows for every child as `children{…}`
    /// (`parent.shared_child_actions()`): the node's own `{…}` leaves them out.
    pub shared: &'a [ActionName],
    /// For a table cell: the name of its column, as the table's header row says it
    /// ([`OutlineRules::column_names`]); the cell's line then leaves out that name.
    pub column: Option<&'a str>,
    /// Whether the node's children are written below it: a row labelled with its
    /// first cell's text then leaves the label to that cell's line.
    pub children_shown: bool,
    /// The actions every child of the node offers
    /// ([`node.shared_child_actions()`](OutlineRules::shared_child_actions)), when the caller
    /// has worked them out already; `None` works them out again.
    pub child_actions: Option<&'a [ActionName]>,
    /// Whether the reader knows where the node stands already (a line re-listed
    /// because something else about it changed): its `[index=…]` and `[count=…]` are
    /// left out.
    pub place_known: bool,
}

impl<'a> Around<'a> {
    /// What is around child number `i` of `parent`, written below `parent`'s line:
    /// its previous sibling, the actions `shared` by all of `parent`'s children, and,
    /// when `parent` is a table row, its column's name from `columns`.
    #[must_use]
    pub fn child_of(
        parent: &'a Node,
        i: usize,
        shared: &'a [ActionName],
        columns: Option<&[&'a str]>,
    ) -> Around<'a> {
        Around {
            parent: Some(parent),
            previous: i.checked_sub(1).and_then(|p| parent.children.get(p)),
            shared,
            column: columns.and_then(|c| c.get(i)).copied(),
            children_shown: false,
            child_actions: None,
            place_known: false,
        }
    }

    /// The actions every child of `node` offers: [`Around::child_actions`] when the
    /// caller gave them, else worked out ([`OutlineRules::shared_child_actions`]).
    #[must_use]
    pub fn shared_by_children(&self, node: &Node) -> Cow<'a, [ActionName]> {
        self.child_actions
            .map_or_else(|| Cow::Owned(node.shared_child_actions()), Cow::Borrowed)
    }
}

fn write_actions<'a>(
    out: &mut String,
    prefix: &str,
    actions: impl Iterator<Item = &'a ActionName>,
) {
    out.push_str(prefix);
    for (i, action) in actions.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match action {
            ActionName::Core(action) => out.push_str(action.name()),
            ActionName::Custom(name) => {
                let _ = write_name(out, name);
            }
        }
    }
    out.push('}');
}

// `write!` into a `String` cannot fail.
/// `: value` after the label: text quoted, a number or bool as is, a secret as its
/// length only (no quoted value looks like that).
fn write_value(out: &mut String, node: &Node) {
    match &node.value {
        Some(Value::Text(text)) => {
            out.push_str(": ");
            let _ = write_quoted(out, text);
        }
        Some(value) => {
            let _ = write!(out, ": {value}");
        }
        None => {
            if let Some(length) = node.redacted_length {
                let _ = write!(out, ": <hidden, {length} chars>");
            }
        }
    }
}

/// Whether `node`'s value is text whose first line is `label`.
fn value_starts_with_line(node: &Node, label: &str) -> bool {
    matches!(&node.value, Some(Value::Text(text)) if text.split('\n').next() == Some(label))
}

fn write_line(out: &mut String, node: &Node, around: &Around<'_>) {
    let Around {
        parent,
        previous,
        shared,
        column,
        ..
    } = *around;
    let _ = write!(out, "- {}", node.role);
    if let Some(custom) = &node.custom_role {
        out.push(':');
        let _ = write_name(out, custom);
    }
    match &node.label {
        // A cell named after its column: the header row says it.
        Some(label) if node.role == Role::Cell && column == Some(label.as_str()) => {}
        // A row named by its first cell: that cell's line, just below, says it.
        Some(_) if around.children_shown && node.label_is_first_cell() => {}
        // A label that is its text value's first line (a text named by its own
        // start): the value, just after, says it.
        Some(label) if value_starts_with_line(node, label) => {}
        Some(label) => {
            out.push(' ');
            let _ = write_quoted(out, label);
        }
        None => {}
    }
    write_value(out, node);
    if !node.id_implied(parent) {
        out.push_str(" [id=");
        let _ = write_name(out, node.id.as_str());
        out.push_str(if node.stable { "]" } else { " positional]" });
    }
    let flags = node.state.flags();
    for (flag, name) in StateFlags::NAMED {
        if flags.contains(*flag) && *flag != StateFlags::INVALID {
            let _ = write!(out, " [{name}]");
        }
    }
    match node.state.checked {
        Some(Checked::True) => out.push_str(" [checked]"),
        Some(Checked::False) => out.push_str(" [unchecked]"),
        Some(Checked::Mixed) => out.push_str(" [checked=mixed]"),
        None => {}
    }
    match node.state.expanded {
        Some(true) => out.push_str(" [expanded]"),
        Some(false) => out.push_str(" [collapsed]"),
        None => {}
    }
    if node.state.invalid {
        match &node.state.invalid_message {
            Some(message) => {
                out.push_str(" [invalid=");
                let _ = write_quoted(out, message);
                out.push(']');
            }
            None => out.push_str(" [invalid]"),
        }
    }
    let implied =
        around.place_known || node.position_implied(parent, previous) || node.count_implied();
    match (node.position.index, node.position.count) {
        _ if implied => {}
        (Some(i), Some(n)) => {
            let _ = write!(out, " [index={i}/{n}]");
        }
        (Some(i), None) => {
            let _ = write!(out, " [index={i}]");
        }
        (None, Some(n)) => {
            let _ = write!(out, " [count={n}]");
        }
        (None, None) => {}
    }
    if let Some(level) = node.position.level
        && !node.level_implied()
    {
        let _ = write!(out, " [level={level}]");
    }
    if let Some(s) = node.scroll {
        let _ = write!(
            out,
            " [scroll={}/{} view={}]",
            s.offset, s.content, s.viewport
        );
    }
    let mut own = node.own_actions(shared).peekable();
    if own.peek().is_some() {
        write_actions(out, " {", own);
    }
    let for_children = around.shared_by_children(node);
    if !for_children.is_empty() {
        write_actions(out, " children{", for_children.iter());
    }
}

#[cfg(test)]
mod tests;
