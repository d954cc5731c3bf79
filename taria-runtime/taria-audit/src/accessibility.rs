//! The accessibility lint: what an agent or a screen reader needs of each node to
//! tell it apart and reach it — a name on what can be acted on, a label on each input,
//! the focus on something on screen.

use ratatui::buffer::Buffer;

use crate::node_text::{rect, shown_text};
use taria_schema::{Action, ActionName, Node, Role, Tree};

/// Roles that take a value from the user and need a label to be told apart.
const INPUTS: &[Role] = &[
    Role::TextInput,
    Role::TextArea,
    Role::Checkbox,
    Role::Radio,
    Role::Switch,
    Role::Select,
    Role::Slider,
    Role::SpinButton,
];

/// The nodes of `tree` an agent or a screen reader cannot tell apart or reach, one
/// line each (`` `id` (role): why ``), checked against `screen`, the screen drawn with
/// the tree (as `egui_kittest`'s `check_accessibility`):
///
/// * an input (text input or area, checkbox, radio, switch, select, slider, spin
///   button) without a label;
/// * a node that offers an action (other than `scroll`) with no name: no label, no
///   text value, and no child with either;
/// * a focused node whose bounds are off the screen.
///
/// The audit ([`Check::Accessibility`](crate::Check::Accessibility)) runs the same
/// lint on every frame it sees.
///
/// # Examples
///
/// A text input drawn with its label beside it, not on it:
///
/// ```
/// use ratatui::widgets::Paragraph;
/// use taria::{Action, Role, testing::{Harness, inaccessible_nodes}};
///
/// let mut harness = Harness::new(20, 1);
/// let tree = harness.render(|frame| {
///     frame.render_widget(Paragraph::new("Name: Ada"), frame.area());
///     taria::leaf(|n| {
///         n.role(Role::TextInput).id("name").value("Ada");
///         n.action(Action::SetValue).bounds(frame.area());
///     });
/// });
/// assert_eq!(
///     inaccessible_nodes(&tree, harness.buffer()),
///     ["`name` (text_input): is a text_input without a label: an agent cannot tell what \
///       it is for"]
/// );
/// ```
#[must_use]
pub fn inaccessible_nodes(tree: &Tree, screen: &Buffer) -> Vec<String> {
    crate::node_text::finding_lines(findings(tree, screen))
}

/// [`inaccessible_nodes`]' findings: each node's id, role and why, in tree order.
pub(crate) fn findings(tree: &Tree, screen: &Buffer) -> Vec<(String, &'static str, String)> {
    let mut found = Vec::new();
    for node in tree.iter() {
        check(node, screen, &mut found);
    }
    found
}

fn check(node: &Node, screen: &Buffer, found: &mut Vec<(String, &'static str, String)>) {
    let mut say = |why: String| found.push((node.id.as_str().to_owned(), node.role.name(), why));
    let named = node.label.as_deref().is_some_and(|l| !l.trim().is_empty());
    let acts = node
        .actions
        .iter()
        .any(|a| !matches!(a, ActionName::Core(Action::Scroll)));
    if INPUTS.contains(&node.role) && !named {
        say(format!(
            "is a {} without a label: an agent cannot tell what it is for",
            node.role.name()
        ));
    } else if acts && !named && shown_text(node).is_none() && !has_named_child(node) {
        say("offers actions but has no name (no label, no text value, no named child)".into());
    }
    if node.state.focused && rect(node.bounds).intersection(screen.area).is_empty() {
        let b = node.bounds;
        say(format!(
            "has the focus but is not on screen (bounds {:?})",
            [b.x, b.y, b.width, b.height]
        ));
    }
}

fn has_named_child(node: &Node) -> bool {
    node.children.iter().any(|c| shown_text(c).is_some())
}
