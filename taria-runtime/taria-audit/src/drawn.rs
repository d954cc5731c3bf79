//! [`undrawn_text`]: the nodes of a frame whose label or value is not drawn inside the
//! bounds the tree gives them, for tests that hold a tree to its screen.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::text::Span;

use taria_schema::{Bounds, Node, Role, Tree, Value};

/// Roles whose label and value are not drawn text by design: the one list of
/// exceptions (see `docs/protocol.md`, "Bounds"). A `scrollbar`'s value is its
/// position and a `progress`'s a ratio; a `chart`'s value is a summary of its data
/// and its label (`Sparkline::label`, `Chart::label`) is for agents, as an `image`'s
/// and a `slider`'s and a `text_input`'s are (they draw only the control; the app
/// writes the label beside it), and a text input scrolls its value to the cursor.
/// A `tabs` node's label names the tab bar for agents (`Filter`); its tabs are
/// checked. Their nodes must still have an area on screen.
const NOT_TEXT: &[Role] = &[
    Role::Tabs,
    Role::Scrollbar,
    Role::Progress,
    Role::Chart,
    Role::Image,
    Role::Slider,
    Role::TextInput,
];

/// The nodes of `tree` with bounds whose label or value is not drawn on `buffer`
/// inside those bounds, one line each saying which and why; empty when every node
/// shows its text where the tree says. A node passes when either its label or its
/// text value is found (a table cell shows its value, its label is the column).
///
/// What "found" means, exactly: the first visible character of the text's first line
/// that is not blank is drawn in a cell inside the bounds, in either case (a label
/// `Live` for a drawn `● live`). Only that much, because
/// widgets cut text wherever their inner area ends (a border, a column's or a bar's
/// width, a wrapped word), and a part of the text after a cut is not on screen. A
/// text whose first character is wider than the bounds (`日` in a one-column cell)
/// cannot be drawn, and passes. Empty bounds are no bounds (the node is not
/// checked); bounds that lie outside the buffer show nothing, and are reported.
/// Roles in the exception list (`NOT_TEXT`), a node with neither label nor text
/// value, and one whose label is a child's text (a row's first cell: checked there),
/// only need an area on screen.
///
/// # Examples
///
/// ```
/// use ratatui::widgets::Paragraph;
/// use taria::testing::{Harness, undrawn_text};
///
/// let mut harness = Harness::new(20, 2);
/// let tree = harness.render(|frame| {
///     let _scope = taria::scope(|n| {
///         n.role(taria::Role::Button).id("save").label("Save").bounds(frame.area());
///     });
///     frame.render_widget(Paragraph::new("[ Save ]"), frame.area());
/// });
/// assert_eq!(undrawn_text(&tree, harness.buffer()), Vec::<String>::new());
/// ```
#[must_use]
pub fn undrawn_text(tree: &Tree, buffer: &Buffer) -> Vec<String> {
    crate::node_text::finding_lines(undrawn(tree, buffer))
}

/// [`undrawn_text`]'s findings: each node's id, role and why.
pub(super) fn undrawn(tree: &Tree, buffer: &Buffer) -> Vec<(String, &'static str, String)> {
    let mut found = Vec::new();
    for root in &tree.roots {
        walk(root, buffer, &mut found);
    }
    found
}

fn walk(node: &Node, buffer: &Buffer, found: &mut Vec<(String, &'static str, String)>) {
    if !node.bounds.is_empty()
        && let Some(why) = check(node, node.bounds, buffer)
    {
        found.push((node.id.to_string(), node.role.name(), why));
    }
    for child in &node.children {
        walk(child, buffer, found);
    }
}

fn check(node: &Node, bounds: Bounds, buffer: &Buffer) -> Option<String> {
    let area = crate::node_text::rect(bounds);
    let on_screen = area.intersection(buffer.area);
    if on_screen.is_empty() {
        return Some(format!(
            "its bounds {:?} have no area on the {}x{} screen",
            [bounds.x, bounds.y, bounds.width, bounds.height],
            buffer.area.width,
            buffer.area.height
        ));
    }
    if NOT_TEXT.contains(&node.role) || names_a_child(node) {
        return None;
    }
    let value = match &node.value {
        Some(Value::Text(text)) => Some(text.as_str()),
        _ => None,
    };
    let texts: Vec<&str> = node
        .label
        .as_deref()
        .into_iter()
        .chain(value)
        .filter_map(first_line)
        .collect();
    if texts.is_empty() || texts.iter().any(|t| drawn_in(t, on_screen, buffer)) {
        return None;
    }
    Some(format!(
        "none of {texts:?} is drawn inside its bounds {:?}",
        [bounds.x, bounds.y, bounds.width, bounds.height]
    ))
}

/// Whether the node's label is a child's text (a row's, its first cell's): that
/// child is checked for it, where it is drawn.
fn names_a_child(node: &Node) -> bool {
    let Some(label) = node.label.as_deref() else {
        return false;
    };
    node.children.iter().any(|c| {
        c.label.as_deref() == Some(label)
            || matches!(&c.value, Some(Value::Text(text)) if text == label)
    })
}

/// The text's first line that is not blank, trimmed.
fn first_line(text: &str) -> Option<&str> {
    text.lines().map(str::trim).find(|l| !l.is_empty())
}

/// Whether `text` is drawn from some cell of `area` on (see [`undrawn_text`]).
fn drawn_in(text: &str, area: Rect, buffer: &Buffer) -> bool {
    let mut chars = text
        .chars()
        .filter(|c| Span::raw(c.to_string()).width() > 0);
    let Some(first) = chars.next() else {
        return true;
    };
    let first = first.to_string();
    if Span::raw(first.as_str()).width() > usize::from(area.width) {
        // A wide character in a narrower column cannot be drawn at all.
        return true;
    }
    let first = first.to_lowercase();
    (area.top()..area.bottom()).any(|y| {
        (area.left()..area.right()).any(|x| {
            buffer
                .cell((x, y))
                .is_some_and(|cell| cell.symbol().to_lowercase() == first)
        })
    })
}
