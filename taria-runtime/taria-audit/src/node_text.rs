//! What the checks read of a node (its name as drawn, its bounds as ratatui's `Rect`),
//! and how they say what they found.

use ratatui::layout::Rect;

use taria_schema::{Bounds, Node, Value};

/// The node's bounds as a `Rect` on the screen.
pub(crate) fn rect(bounds: Bounds) -> Rect {
    Rect::new(bounds.x, bounds.y, bounds.width, bounds.height)
}

/// The node's name as drawn text: its label, else its text value; first line, trimmed.
pub(crate) fn shown_text(node: &Node) -> Option<&str> {
    let value = match &node.value {
        Some(Value::Text(text)) => Some(text.as_str()),
        _ => None,
    };
    node.label
        .as_deref()
        .or(value)
        .and_then(|t| t.lines().map(str::trim).find(|l| !l.is_empty()))
}

/// A check's findings (each node's id, role and why) as the lines a test prints:
/// `` `id` (role): why ``.
pub(crate) fn finding_lines(found: Vec<(String, &'static str, String)>) -> Vec<String> {
    found
        .into_iter()
        .map(|(id, role, why)| format!("`{id}` ({role}): {why}"))
        .collect()
}
