//! [`duplicate_nodes`]: the nodes of a frame that say the same thing in the same place,
//! for tests that hold an app to one node per thing it draws.

use std::collections::HashMap;

use taria_schema::{Bounds, Node, Tree, Value};

/// Pairs of nodes of `tree` that have the same bounds and the same text (a label or
/// a text value they share), one line each saying which, where and what; empty when
/// no two nodes do. Such a pair is one thing on screen recorded twice: an input line
/// drawn as a paragraph with a hand-written `text_input` leaf over the same area, or a
/// dialog's text both in the dialog and in a text node beside it. An agent reads it
/// twice and cannot tell which one to act on.
///
/// Nodes without bounds are not compared, nor is a node's label with the value of a
/// child it names (a table row labelled with its first cell's text: a single-column
/// row and its cell share their area by design).
///
/// # Examples
///
/// ```
/// use ratatui::widgets::Paragraph;
/// use taria::Role;
/// use taria::testing::{Harness, duplicate_nodes};
///
/// let mut harness = Harness::new(20, 1);
/// let tree = harness.render(|frame| {
///     let area = frame.area();
///     taria::leaf(|n| {
///         n.role(Role::TextInput).id("input").value("hello").bounds(area);
///     });
///     taria::leaf(|n| {
///         n.role(Role::Text).value("hello").bounds(area);
///     });
///     frame.render_widget(Paragraph::new("hello"), area);
/// });
/// assert_eq!(
///     duplicate_nodes(&tree),
///     ["`input` (text_input) and `text#1` (text) both say \"hello\" at [0, 0, 20, 1]"]
/// );
/// ```
#[must_use]
pub fn duplicate_nodes(tree: &Tree) -> Vec<String> {
    duplicates(tree).into_iter().map(|(_, line)| line).collect()
}

/// [`duplicate_nodes`]' findings, each with the id of the first node of its pair.
pub(super) fn duplicates(tree: &Tree) -> Vec<(String, String)> {
    let mut placed: Vec<(&Node, Option<&Node>)> = Vec::new();
    for root in &tree.roots {
        collect(root, None, &mut placed);
    }
    let mut at: HashMap<Bounds, Vec<(&Node, Option<&Node>)>> = HashMap::new();
    for &(node, parent) in &placed {
        at.entry(node.bounds).or_default().push((node, parent));
    }
    let mut found = Vec::new();
    for &(node, _) in &placed {
        let Some(same_place) = at.get(&node.bounds) else {
            continue;
        };
        // Each pair once, in tree order: `node` is the first of the two.
        let later = same_place
            .iter()
            .skip_while(|(other, _)| !std::ptr::eq(*other, node))
            .skip(1);
        for &(other, other_parent) in later {
            let child = other_parent.is_some_and(|p| std::ptr::eq(p, node));
            if let Some(text) = shared_text(node, other, child) {
                let b = node.bounds;
                found.push((
                    node.id.to_string(),
                    format!(
                        "`{}` ({}) and `{}` ({}) both say {text:?} at {:?}",
                        node.id,
                        node.role.name(),
                        other.id,
                        other.role.name(),
                        [b.x, b.y, b.width, b.height]
                    ),
                ));
            }
        }
    }
    found
}

/// Every node with bounds, in tree order, with its parent.
fn collect<'t>(
    node: &'t Node,
    parent: Option<&'t Node>,
    into: &mut Vec<(&'t Node, Option<&'t Node>)>,
) {
    if !node.bounds.is_empty() {
        into.push((node, parent));
    }
    for child in &node.children {
        collect(child, Some(node), into);
    }
}

/// A node's texts: its label and its text value, trimmed, when not blank.
fn texts(node: &Node) -> impl Iterator<Item = &str> {
    let value = match &node.value {
        Some(Value::Text(text)) => Some(text.as_str()),
        _ => None,
    };
    node.label
        .as_deref()
        .into_iter()
        .chain(value)
        .map(str::trim)
        .filter(|t| !t.is_empty())
}

/// A text both nodes say, if any. When `b` is `a`'s child, `a`'s label naming `b` by
/// its value (a row and its first cell) is not one.
fn shared_text<'a>(a: &'a Node, b: &Node, child: bool) -> Option<&'a str> {
    let names_child = |t: &str| child && a.label.as_deref().map(str::trim) == Some(t);
    texts(a).find(|t| {
        texts(b).any(|u| u == *t)
            && !(names_child(t) && b.label.as_deref().map(str::trim) != Some(*t))
    })
}
