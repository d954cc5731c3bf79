//! A compact, one-line-per-node text form of a tree, for assertions and agents.

use std::fmt::Write as _;

use super::{Checked, Node, StateFlags, Tree, Value};

impl Tree {
    /// The tree as an indented outline, one line per node:
    ///
    /// ```text
    /// - list "Tasks" [id=tasks] {select, scroll}
    ///   - list_item "Buy milk" [id=tasks/1] [selected] [checked=false] [index=0/2] {toggle}
    /// ```
    ///
    /// A line is `- role[:custom] "label": value` (text values quoted), then `[id=…]` (with ` positional`
    /// when the id is derived from a position), the state in brackets, and the actions
    /// offered in braces. Absent parts are left out.
    #[must_use]
    pub fn outline(&self) -> String {
        let mut out = String::new();
        for root in &self.roots {
            write_node(&mut out, root, 0, usize::MAX);
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
        write_node(&mut out, self, 0, depth);
        out
    }

    /// This node's own outline line, without indentation or a line break.
    #[must_use]
    pub fn outline_line(&self) -> String {
        let mut out = String::new();
        write_line(&mut out, self);
        out
    }
}

fn write_node(out: &mut String, node: &Node, indent: usize, depth: usize) {
    for _ in 0..indent {
        out.push_str("  ");
    }
    write_line(out, node);
    if depth == 0 && !node.children.is_empty() {
        let _ = write!(out, " (+{} children)", node.children.len());
    }
    out.push('\n');
    if depth > 0 {
        for child in &node.children {
            write_node(out, child, indent + 1, depth - 1);
        }
    }
}

// `write!` into a `String` cannot fail.
fn write_line(out: &mut String, node: &Node) {
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
    let _ = write!(out, " [id={}", node.id);
    out.push_str(if node.stable { "]" } else { " positional]" });
    let flags = node.state.flags();
    for (flag, name) in StateFlags::NAMED {
        if flags.contains(*flag) && *flag != StateFlags::INVALID {
            let _ = write!(out, " [{name}]");
        }
    }
    match node.state.checked {
        Some(Checked::True) => out.push_str(" [checked]"),
        Some(Checked::False) => out.push_str(" [checked=false]"),
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
    match (node.position.index, node.position.count) {
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
    if !node.actions.is_empty() {
        out.push_str(" {");
        for (i, action) in node.actions.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            out.push_str(action.as_str());
        }
        out.push('}');
    }
}
