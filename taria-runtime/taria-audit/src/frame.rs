//! The checks of one frame, its tree against its screen: text drawn where the tree
//! says, bounds on what is drawn, selection marks on what is highlighted, values that
//! are what is drawn, no node twice, and the accessibility lint.

use std::collections::{BTreeSet, HashMap};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;

use crate::node_text::{rect, shown_text};
use crate::{Check, Violation};
use taria_schema::{Node, Role, Tree, Value};

/// The violations of one frame: `tree` against `screen`, the screen drawn with it.
/// Nodes in `moving` (ids that change with no input: an animation, a clock) are left
/// out of the checks that compare text with the screen, which may be a frame apart
/// from the tree for them.
#[must_use]
pub fn frame_violations(tree: &Tree, screen: &Buffer, moving: &BTreeSet<String>) -> Vec<Violation> {
    let mut found = Vec::new();
    for (id, role, why) in crate::drawn::undrawn(tree, screen) {
        if !moving.contains(&id) {
            let message = format!("({role}) {why}");
            found.push(Violation::new(Check::Undrawn, Some(&id), message));
        }
    }
    for (id, line) in crate::duplicates::duplicates(tree) {
        found.push(Violation::new(Check::Duplicate, Some(&id), line));
    }
    let nodes = flatten(tree);
    zero_bounds(&nodes, screen, &mut found);
    selection(&nodes, screen, &mut found);
    clipped(&nodes, &mut found);
    for (id, _role, why) in crate::accessibility::findings(tree, screen) {
        found.push(Violation::new(Check::Accessibility, Some(&id), why));
    }
    found
}

/// A node with its parent's index in the flattened tree.
struct Placed<'t> {
    node: &'t Node,
    parent: Option<usize>,
}

fn flatten(tree: &Tree) -> Vec<Placed<'_>> {
    fn walk<'t>(node: &'t Node, parent: Option<usize>, into: &mut Vec<Placed<'t>>) {
        let index = into.len();
        into.push(Placed { node, parent });
        for child in &node.children {
            walk(child, Some(index), into);
        }
    }
    let mut nodes = Vec::new();
    for root in &tree.roots {
        walk(root, None, &mut nodes);
    }
    nodes
}

/// The text of `area`'s rows on `screen`, one string per row.
fn rows_text(screen: &Buffer, area: Rect) -> Vec<String> {
    let area = area.intersection(screen.area);
    (area.top()..area.bottom())
        .map(|y| {
            (area.left()..area.right())
                .filter_map(|x| screen.cell((x, y)).map(ratatui::buffer::Cell::symbol))
                .collect()
        })
        .collect()
}

/// Nodes drawn on screen that have no bounds: a node whose descendants have bounds,
/// or whose text is drawn inside its nearest ancestor with bounds (and said by no
/// node that has bounds).
fn zero_bounds(nodes: &[Placed<'_>], screen: &Buffer, found: &mut Vec<Violation>) {
    let bounded_texts: BTreeSet<&str> = nodes
        .iter()
        .filter(|p| !p.node.bounds.is_empty())
        .filter_map(|p| shown_text(p.node))
        .collect();
    for (index, placed) in nodes.iter().enumerate() {
        let node = placed.node;
        if !node.bounds.is_empty() {
            continue;
        }
        if let Some(child) = first_bounded_descendant(node) {
            let b = child.bounds;
            found.push(Violation::new(
                Check::ZeroBounds,
                Some(node.id.as_str()),
                format!(
                    "has no bounds, but its descendant `{}` is drawn at {:?}",
                    child.id,
                    [b.x, b.y, b.width, b.height]
                ),
            ));
            continue;
        }
        let Some(text) = shown_text(node).filter(|t| t.chars().count() >= 3) else {
            continue;
        };
        if bounded_texts.contains(text) {
            continue;
        }
        let area = ancestor_area(nodes, index).unwrap_or(screen.area);
        if rows_text(screen, area).iter().any(|row| row.contains(text)) {
            found.push(Violation::new(
                Check::ZeroBounds,
                Some(node.id.as_str()),
                format!(
                    "has no bounds, but its text {text:?} is drawn inside {:?}",
                    [area.x, area.y, area.width, area.height]
                ),
            ));
        }
    }
}

fn first_bounded_descendant(node: &Node) -> Option<&Node> {
    node.children.iter().find_map(|child| {
        if child.bounds.is_empty() {
            first_bounded_descendant(child)
        } else {
            Some(child)
        }
    })
}

/// The area of the nearest ancestor with bounds.
fn ancestor_area(nodes: &[Placed<'_>], index: usize) -> Option<Rect> {
    let mut at = nodes[index].parent;
    while let Some(parent) = at {
        let bounds = nodes[parent].node.bounds;
        if !bounds.is_empty() {
            return Some(rect(bounds));
        }
        at = nodes[parent].parent;
    }
    None
}

/// How a node is drawn: the distinct styles of its cells (on all its rows: a card
/// may show its selection on any of them), and the text before its name on its first
/// row (a highlight symbol such as `>> `).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Look {
    styles: BTreeSet<String>,
    marker: String,
}

fn look(node: &Node, screen: &Buffer) -> Option<Look> {
    let area = rect(node.bounds).intersection(screen.area);
    if area.is_empty() {
        return None;
    }
    let mut styles = BTreeSet::new();
    let mut row = String::new();
    for y in area.top()..area.bottom() {
        for x in area.left()..area.right() {
            let cell = screen.cell((x, y))?;
            styles.insert(format!("{:?}/{:?}/{:?}", cell.fg, cell.bg, cell.modifier));
            if y == area.top() {
                row.push_str(cell.symbol());
            }
        }
    }
    let name = shown_text(node).and_then(|t| t.chars().next());
    let marker = match name.and_then(|c| row.find(c)) {
        Some(at) => row[..at].trim().to_owned(),
        None => String::new(),
    };
    Some(Look { styles, marker })
}

/// Selection marks that sit on nothing the screen highlights: a `selected` node
/// drawn exactly like its unselected siblings of the same role.
fn selection(nodes: &[Placed<'_>], screen: &Buffer, found: &mut Vec<Violation>) {
    let mut siblings: HashMap<(Option<usize>, Role), Vec<&Node>> = HashMap::new();
    for placed in nodes {
        if !placed.node.bounds.is_empty() {
            siblings
                .entry((placed.parent, placed.node.role))
                .or_default()
                .push(placed.node);
        }
    }
    let mut groups: Vec<_> = siblings.into_values().collect();
    groups.sort_by_key(|group| group.first().map(|n| n.id.to_string()));
    for group in groups {
        let (selected, unselected): (Vec<&Node>, Vec<&Node>) =
            group.into_iter().partition(|n| n.state.selected);
        if selected.is_empty() || unselected.is_empty() {
            continue;
        }
        // How the unselected are drawn, and how many of them each way: the plain look
        // is the most common one (with two siblings drawn two ways, either is).
        let mut counts: HashMap<Look, usize> = HashMap::new();
        for node in &unselected {
            if let Some(look) = look(node, screen) {
                *counts.entry(look).or_default() += 1;
            }
        }
        let Some(most) = counts.values().copied().max() else {
            continue;
        };
        for node in selected {
            let Some(own) = look(node, screen) else {
                continue;
            };
            if counts.get(&own) != Some(&most) {
                continue;
            }
            let highlighted = unselected
                .iter()
                .find(|n| look(n, screen).is_some_and(|l| l != own))
                .map(|n| format!("; the screen highlights `{}` instead", n.id))
                .unwrap_or_default();
            found.push(Violation::new(
                Check::Selection,
                Some(node.id.as_str()),
                format!("is marked [selected] but drawn like its unselected siblings{highlighted}"),
            ));
        }
    }
}

/// Roles whose value is not text that is drawn (a position, a ratio, a summary).
const NOT_DRAWN_VALUE: &[Role] = &[
    Role::Scrollbar,
    Role::Progress,
    Role::Chart,
    Role::Image,
    Role::Slider,
];

/// Values that hold more lines than their node shows, without a `scroll` that says
/// so, and scroll info that says more rows show than the node has.
fn clipped(nodes: &[Placed<'_>], found: &mut Vec<Violation>) {
    for placed in nodes {
        let node = placed.node;
        if node.bounds.is_empty() || NOT_DRAWN_VALUE.contains(&node.role) {
            continue;
        }
        if let Some(Value::Text(text)) = &node.value {
            let lines = text.trim_end_matches('\n').lines().count();
            let says_clipped = node.scroll.is_some_and(|s| s.content > s.viewport);
            if lines > usize::from(node.bounds.height) && !says_clipped {
                found.push(Violation::new(
                    Check::ClippedValue,
                    Some(node.id.as_str()),
                    format!(
                        "its value has {lines} lines but its bounds show {} rows, and it does \
                         not say it is clipped (no scroll)",
                        node.bounds.height
                    ),
                ));
            }
        }
        if let Some(scroll) = node.scroll
            && scroll.viewport > u32::from(node.bounds.height)
            && scroll.viewport > u32::from(node.bounds.width)
        {
            found.push(Violation::new(
                Check::ClippedValue,
                Some(node.id.as_str()),
                format!(
                    "its scroll says {} lines are visible, but its bounds are {}x{}",
                    scroll.viewport, node.bounds.width, node.bounds.height
                ),
            ));
        }
    }
}
