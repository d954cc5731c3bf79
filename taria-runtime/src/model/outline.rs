//! A compact, one-line-per-node text form of a tree, for assertions and agents.

use std::fmt::Write as _;

use super::{ActionName, Checked, Node, Position, StateFlags, Tree, Value};

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
    /// imply (see [`Node::outline_line_in`]): the id of an inert leaf named after its
    /// parent (see [`Node::id_implied`]), an item's `[index=i/n]` when it follows
    /// its sibling `i-1` of the same count or starts a complete run of its parent's
    /// children, a `[count=n]` of `n` children, and the actions of children when every
    /// child offers the same ones: the parent's line then ends with `children{…}`.
    #[must_use]
    pub fn outline(&self) -> String {
        let mut out = String::new();
        let mut previous = None;
        for root in &self.roots {
            write_node(&mut out, root, (None, previous, false), 0, usize::MAX);
            previous = Some(root);
        }
        out
    }
}

impl Node {
    /// This node and its descendants down to `depth` levels (0 = only this node) as
    /// an outline; see [`Tree::outline`].
    #[must_use]
    pub fn outline(&self, depth: usize) -> String {
        let mut out = String::new();
        write_node(&mut out, self, (None, None, false), 0, depth);
        out
    }

    /// This node's own outline line, complete (nothing left out), without indentation
    /// or a line break.
    #[must_use]
    pub fn outline_line(&self) -> String {
        self.outline_line_in(None, None)
    }

    /// This node's outline line as it reads under `parent`, after its `previous`
    /// sibling: an `[index=i/n]` they imply is left out (see
    /// [`Node::position_implied`]), and so are the actions when `parent`'s line shows
    /// them as `children{…}` (see [`Node::shared_child_actions`]).
    ///
    /// It looks at all of `parent`'s children; to write many siblings, use
    /// [`Node::outline_line_among`] with that worked out once.
    #[must_use]
    pub fn outline_line_in(&self, parent: Option<&Node>, previous: Option<&Node>) -> String {
        let shares = parent.is_some_and(|p| p.shared_child_actions().is_some());
        self.outline_line_among(parent, previous, shares)
    }

    /// [`Node::outline_line_in`], told whether `parent` shows its children's actions
    /// as `children{…}` (`parent.shared_child_actions().is_some()`), so writing `n`
    /// siblings costs `O(n)`, not `O(n²)`.
    #[must_use]
    pub fn outline_line_among(
        &self,
        parent: Option<&Node>,
        previous: Option<&Node>,
        parent_shares: bool,
    ) -> String {
        let mut out = String::new();
        write_line(&mut out, self, parent, previous, parent_shares);
        out
    }

    /// Whether this node's index and count follow from where it is drawn, so an
    /// outline leaves them out: its `previous` sibling has index `i-1` and the same
    /// count, or it is the first of a complete run — index 0 of `n`, where `parent`
    /// has `n` children and the last has index `n-1`.
    #[must_use]
    pub fn position_implied(&self, parent: Option<&Node>, previous: Option<&Node>) -> bool {
        let Position { index, count, .. } = self.position;
        match previous {
            Some(p) => {
                p.position.count == count
                    && matches!((p.position.index, index), (Some(a), Some(b)) if b == a + 1)
            }
            None => parent.is_some_and(|parent| {
                let n = parent.children.len();
                index == Some(0)
                    && count.is_some_and(|c| c as usize == n)
                    && parent.children.last().is_some_and(|last| {
                        last.position.index.is_some_and(|i| i as usize + 1 == n)
                    })
            }),
        }
    }

    /// Whether an outline leaves out this node's id: it is an inert leaf — no
    /// children, no actions — whose id is derived from its `parent`'s (`<parent>/…`),
    /// like a table cell or a list item's text. Nothing can be done with such an id
    /// that the parent's does not do; `find_nodes` and JSON still give it.
    #[must_use]
    pub fn id_implied(&self, parent: Option<&Node>) -> bool {
        self.children.is_empty()
            && self.actions.is_empty()
            && parent.is_some_and(|p| {
                self.id
                    .as_str()
                    .strip_prefix(p.id.as_str())
                    .is_some_and(|rest| rest.starts_with('/'))
            })
    }

    /// Whether this node's count is the number of its children, so an outline leaves
    /// it out.
    #[must_use]
    pub fn count_implied(&self) -> bool {
        self.position.index.is_none()
            && self
                .position
                .count
                .is_some_and(|c| c as usize == self.children.len())
    }

    /// The actions every child offers, when there are two or more children and they
    /// all offer the same non-empty set: an outline shows them once, on this node's
    /// line, as `children{…}`.
    #[must_use]
    pub fn shared_child_actions(&self) -> Option<&[ActionName]> {
        let (first, rest) = self.children.split_first()?;
        (!rest.is_empty()
            && !first.actions.is_empty()
            && rest.iter().all(|c| c.actions == first.actions))
        .then_some(first.actions.as_slice())
    }
}

fn write_node(
    out: &mut String,
    node: &Node,
    (parent, previous, parent_shares): (Option<&Node>, Option<&Node>, bool),
    indent: usize,
    depth: usize,
) {
    for _ in 0..indent {
        out.push_str("  ");
    }
    write_line(out, node, parent, previous, parent_shares);
    if depth == 0 && !node.children.is_empty() {
        let _ = write!(out, " (+{} children)", node.children.len());
    }
    out.push('\n');
    if depth > 0 {
        let shares = node.shared_child_actions().is_some();
        let mut previous = None;
        for child in &node.children {
            write_node(
                out,
                child,
                (Some(node), previous, shares),
                indent + 1,
                depth - 1,
            );
            previous = Some(child);
        }
    }
}

fn write_actions(out: &mut String, prefix: &str, actions: &[ActionName]) {
    out.push_str(prefix);
    for (i, action) in actions.iter().enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        out.push_str(action.as_str());
    }
    out.push('}');
}

// `write!` into a `String` cannot fail.
fn write_line(
    out: &mut String,
    node: &Node,
    parent: Option<&Node>,
    previous: Option<&Node>,
    parent_shares: bool,
) {
    let _ = write!(out, "- {}", node.role);
    if let Some(custom) = &node.custom_role {
        let _ = write!(out, ":{custom}");
    }
    if let Some(label) = &node.label {
        let _ = write!(out, " {label:?}");
    }
    match &node.value {
        Some(Value::Text(text)) => {
            let _ = write!(out, ": {text:?}");
        }
        Some(value) => {
            let _ = write!(out, ": {value}");
        }
        None => {}
    }
    if !node.id_implied(parent) {
        let _ = write!(out, " [id={}", node.id);
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
                let _ = write!(out, " [invalid={message:?}]");
            }
            None => out.push_str(" [invalid]"),
        }
    }
    let implied = node.position_implied(parent, previous) || node.count_implied();
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
    if let Some(level) = node.position.level {
        let _ = write!(out, " [level={level}]");
    }
    if let Some(s) = node.scroll {
        let _ = write!(
            out,
            " [scroll={}/{} view={}]",
            s.offset, s.content, s.viewport
        );
    }
    if !node.actions.is_empty() && !parent_shares {
        write_actions(out, " {", &node.actions);
    }
    if let Some(shared) = node.shared_child_actions() {
        write_actions(out, " children{", shared);
    }
}
