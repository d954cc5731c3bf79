//! What an input changed, said for the agent: the lines of nodes whose own line
//! changed, the ids that went, and a word for a dialog or the focus (see
//! [`describe_change`]). Shared by the input tools and `batch`.

use foldhash::{HashMap, HashMapExt as _, HashSet, HashSetExt as _};
use std::fmt::Write as _;
use std::sync::Arc;

use taria_schema::outline::{
    Around, OutlineName, OutlineRules as _, OutlineStep, OutlineVisitor, walk_outline,
};
use taria_schema::{Node, Role, Tree};

use super::input::result::InputResult;
use crate::link::View;
use crate::render::outline_within;
use crate::seen::Seen;

/// Above this size the changed nodes' outline is cut.
const CHANGES_MAX: usize = 12_000;

/// The answer to an input the app handled, from the tree before it and the tree the
/// app drew after it; `live` is the last tree the agent saw with no modal dialog open
/// ([`Seen::last_live`], taken before the input's own result is shown), and the tree
/// after is noted as seen.
///
/// Listed: nodes that are new, and nodes whose own line changed; not nodes that only
/// moved or whose index, count or scroll length shifted (a row added above them; a
/// reordering or a move to another parent is a word in `events`), not a node that
/// only lost `[selected]` to the one sibling that now has it, and not what a modal
/// dialog made inert (a dialog opening says so in `events`; when it closes, the
/// actions of the nodes behind it are compared with those in `live`). A row of plain
/// cells is its one line. The whole tree comes instead when it costs little more than
/// its changes. `changedIds` keeps every node whose own line changed, implied or not.
pub(crate) fn describe_change(
    seen: &Seen,
    before: &Arc<Tree>,
    live: Option<&Arc<Tree>>,
    after: &View,
    message: Option<String>,
) -> InputResult {
    seen.saw(&after.tree);
    // Every lookup by id below goes through these (`Tree::get` walks the tree).
    let (old, new) = (Indexed::new(before), Indexed::new(&after.tree));
    let differences = Differences::new(&old, &new);
    let changed = differences.any;
    let live = live.map(|tree| Indexed::new(tree));
    let baseline = Baseline::new(&old, live.as_ref(), &new);
    let gained_selection = gained_selection(differences.touched(), &old, &new);
    let added: HashSet<&str> = differences.added.iter().copied().collect();
    // Own line changed, as JSON consumers count it (nothing implied left out).
    // (Each with its line now, when it has one, not worked out again below.)
    let updated: HashMap<&str, Option<String>> = differences
        .updated
        .iter()
        .copied()
        .filter_map(|id| match (old.get(id), new.get(id)) {
            (Some(was), Some(is)) => {
                let now = own_line(is);
                (own_line(was) != now).then_some((id, Some(now)))
            }
            _ => Some((id, None)),
        })
        .collect();
    // … and as the agent reads it.
    let shown: HashSet<&str> = updated
        .iter()
        .filter(|&(&id, line)| {
            let (Some(is), Some(new_line), Some(mut was)) = (new.get(id), line, baseline.old(id))
            else {
                return true;
            };
            if own_line(&was) == *new_line {
                return false;
            }
            // Lost `[selected]` to the one sibling that has it now: implied.
            let lost_selection = was.state.selected && !is.state.selected && {
                was.state.selected = false;
                own_line(&was) == *new_line
            };
            !(lost_selection
                && new
                    .parents
                    .get(id)
                    .is_some_and(|p| gained_selection.contains(p.id.as_str())))
        })
        .map(|(&id, _)| id)
        .chain(added.iter().copied())
        .collect();
    let changed_ids: Vec<String> = after
        .tree
        .iter()
        .map(|n| n.id.as_str())
        .filter(|id| added.contains(id) || updated.contains_key(id))
        .map(str::to_owned)
        .collect();
    let (removed_ids, scrolled_out_ids) = split_scrolled_out(&old, &new, &differences.removed);
    // A changed node still where the agent saw it: its place goes without saying.
    let in_place: HashSet<&str> = shown
        .iter()
        .copied()
        .filter(|id| {
            let place =
                |tree: &Indexed<'_>| tree.get(id).map(|n| (n.position.index, n.position.count));
            !added.contains(id) && place(&old) == place(&new)
        })
        .collect();
    let lines = change_lines(&new, &shown, &in_place);
    let removed_line = removed_line(&old, &removed_ids);
    let scrolled_out_line = scrolled_out_line(&old, &scrolled_out_ids);
    let said = lines.len() + removed_line.len() + scrolled_out_line.len();
    // The whole tree instead when it is at most 1.25x as long as its changes.
    let whole = (changed && !shown.is_empty())
        .then(|| whole_tree_within(&after.tree, said * 5 / 4))
        .flatten();
    let note = note(changed, whole.is_some());
    let some = |text: String| (!text.is_empty() && whole.is_none()).then_some(text);
    let (change_text, removed_line, scrolled_out_line) =
        (some(lines), some(removed_line), some(scrolled_out_line));
    let mut events = events(&old, &new);
    events.extend(moves(&old, &new));
    InputResult {
        after: Some(Arc::clone(&after.tree)),
        status: "delivered".into(),
        message,
        delivered: None,
        revision: after.revision,
        changed,
        changed_ids,
        removed_ids,
        scrolled_out_ids,
        removed_line,
        scrolled_out_line,
        changes: change_text,
        outline: whole,
        events,
        note,
    }
}

/// What the structured result says beside the change, if anything.
fn note(changed: bool, whole: bool) -> Option<String> {
    if !changed {
        Some("the app handled it; nothing in the tree changed".to_owned())
    } else if whole {
        Some("most of the tree changed: the whole tree follows".to_owned())
    } else {
        None
    }
}

/// The parents whose one selected child was not selected before: a sibling's lost
/// `[selected]` goes without saying there (not where several children are selected).
/// `touched`: the nodes added or updated.
fn gained_selection<'t>(
    touched: impl Iterator<Item = &'t str>,
    before: &Indexed<'_>,
    after: &Indexed<'t>,
) -> HashSet<&'t str> {
    let one_selected =
        |parent: &Node| parent.children.iter().filter(|c| c.state.selected).count() == 1;
    touched
        .filter(|id| {
            after.get(id).is_some_and(|n| n.state.selected)
                && !before.get(id).is_some_and(|n| n.state.selected)
        })
        .filter_map(|id| after.parents.get(id).copied())
        .filter(|parent| one_selected(parent))
        .map(|parent| parent.id.as_str())
        .collect()
}

/// What a node is compared with: the tree before the input, read without actions
/// where a modal this input opened made it inert, or with the actions the agent last
/// saw it have (`live`) where a modal this input closed had made it inert.
struct Baseline<'a> {
    before: &'a Indexed<'a>,
    /// The last tree the agent saw with no modal open, when this input closed one.
    live: Option<&'a Indexed<'a>>,
    /// The ids a modal that this input opened made inert.
    made_inert: HashSet<&'a str>,
}

impl<'a> Baseline<'a> {
    fn new(
        before: &'a Indexed<'a>,
        live: Option<&'a Indexed<'a>>,
        after: &'a Indexed<'a>,
    ) -> Baseline<'a> {
        let (was, is) = (inside_modal(before.tree), inside_modal(after.tree));
        let mut baseline = Baseline {
            before,
            live: None,
            made_inert: HashSet::new(),
        };
        match (was, is) {
            (None, Some(inside)) => {
                baseline.made_inert = after
                    .tree
                    .iter()
                    .map(|n| n.id.as_str())
                    .filter(|id| !inside.contains(id))
                    .collect();
            }
            (Some(_), None) => baseline.live = live,
            _ => {}
        }
        baseline
    }

    /// The node as the agent last saw it (without children).
    fn old(&self, id: &str) -> Option<Node> {
        let mut node = self.before.get(id)?.clone_without_children();
        if self.made_inert.contains(id) {
            // As the recorder marks it: `[inert]` where it took something away.
            node.state.inert = !node.actions.is_empty() || !node.keys.is_empty();
            node.actions.clear();
            node.keys.clear();
        } else if let Some(live) = self.live.and_then(|t| t.get(id)) {
            node.actions.clone_from(&live.actions);
            node.keys.clone_from(&live.keys);
            node.state.inert = live.state.inert;
        }
        Some(node)
    }
}

/// At most this many move words in one result.
const MOVES_MAX: usize = 3;

/// A word for children that kept their ids but changed order, and for nodes that
/// went to another parent: the lines leave both out.
fn moves(before: &Indexed<'_>, after: &Indexed<'_>) -> Vec<String> {
    let mut words = Vec::new();
    for node in after.tree.iter() {
        let id = node.id.as_str();
        let (Some(old), Some(new)) = (before.parents.get(id), after.parents.get(id)) else {
            continue;
        };
        if old.id != new.id {
            words.push(format!(
                "{} moved to {}",
                OutlineName(id),
                OutlineName(new.id.as_str())
            ));
        }
    }
    for node in after.tree.iter().filter(|n| n.children.len() > 1) {
        let Some(old) = before.get(node.id.as_str()) else {
            continue;
        };
        let kept = |from: &'_ Node, other: &Node| -> Vec<String> {
            let theirs: HashSet<&str> = other.children.iter().map(|c| c.id.as_str()).collect();
            from.children
                .iter()
                .filter(|c| theirs.contains(c.id.as_str()))
                .map(|c| c.id.to_string())
                .collect()
        };
        if kept(old, node) != kept(node, old) {
            words.push(format!("{} reordered", OutlineName(node.id.as_str())));
        }
    }
    if words.len() > MOVES_MAX {
        let more = words.len() - MOVES_MAX;
        words.truncate(MOVES_MAX);
        words.push(format!("{more} more moved"));
    }
    words
}

/// The ids of the modal node and its descendants, when the tree has one (the last
/// one drawn, as the recorder applies it).
fn inside_modal(tree: &Tree) -> Option<HashSet<&str>> {
    let modal = tree.iter().filter(|n| n.state.modal).last()?;
    Some(modal.descendants().map(|n| n.id.as_str()).collect())
}

/// A tree with its nodes and their parents by id, built once per tree an answer reads
/// (`Tree::get` walks the tree: once per changed node it made an answer quadratic).
struct Indexed<'t> {
    tree: &'t Tree,
    nodes: HashMap<&'t str, &'t Node>,
    parents: HashMap<&'t str, &'t Node>,
}

impl<'t> Indexed<'t> {
    fn new(tree: &'t Tree) -> Indexed<'t> {
        let (mut nodes, mut parents) = (HashMap::new(), HashMap::new());
        for node in tree.iter() {
            nodes.insert(node.id.as_str(), node);
            for child in &node.children {
                parents.insert(child.id.as_str(), node);
            }
        }
        Indexed {
            tree,
            nodes,
            parents,
        }
    }

    fn get(&self, id: &str) -> Option<&'t Node> {
        self.nodes.get(id).copied()
    }

    /// The id of the parent of node `id`.
    fn parent_id(&self, id: &str) -> Option<&'t str> {
        self.parents.get(id).map(|p| p.id.as_str())
    }
}

/// Which nodes differ between two trees, by id, as `Tree::diff` tells them apart (a
/// node is updated when [`Node::same_flat`] says it changed, or its parent did),
/// without the JSON of every changed field the patch also carries: an answer
/// compares lines, and working those out was a third of its time.
struct Differences<'t> {
    /// New nodes, in the newer tree's order.
    added: Vec<&'t str>,
    /// Nodes in both trees that changed, in the newer tree's order.
    updated: Vec<&'t str>,
    /// Nodes that went, in the older tree's order.
    removed: Vec<&'t str>,
    /// Whether the trees differ at all (`!Patch::is_empty`): nodes, roots, diagnostics.
    any: bool,
}

impl<'t> Differences<'t> {
    fn new(before: &Indexed<'t>, after: &Indexed<'t>) -> Differences<'t> {
        let (mut added, mut updated) = (Vec::new(), Vec::new());
        for node in after.tree.iter() {
            let id = node.id.as_str();
            match before.get(id) {
                None => added.push(id),
                Some(was)
                    if !was.same_flat(node) || before.parent_id(id) != after.parent_id(id) =>
                {
                    updated.push(id);
                }
                Some(_) => {}
            }
        }
        let removed: Vec<&str> = before
            .tree
            .iter()
            .map(|n| n.id.as_str())
            .filter(|id| after.get(id).is_none())
            .collect();
        let root_ids = |tree: &'t Tree| tree.roots.iter().map(|r| r.id.as_str());
        let any = !added.is_empty()
            || !updated.is_empty()
            || !removed.is_empty()
            || !root_ids(before.tree).eq(root_ids(after.tree))
            || before.tree.diagnostics != after.tree.diagnostics;
        Differences {
            added,
            updated,
            removed,
            any,
        }
    }

    /// The nodes added or updated.
    fn touched(&self) -> impl Iterator<Item = &'t str> + '_ {
        self.added.iter().chain(&self.updated).copied()
    }
}

/// A node's line without what its place says (index, count, scroll length, bounds):
/// a node that only moved, or whose siblings came or went, has the same own line.
fn own_line(node: &Node) -> String {
    let mut node = node.clone_without_children();
    node.position.index = None;
    node.position.count = None;
    if let Some(scroll) = &mut node.scroll {
        scroll.content = 0;
    }
    node.bounds = taria_schema::Bounds::default();
    node.outline_line()
}

/// One line per changed node of `tree`, in tree order; a plain cell of a row is shown
/// by its row's one line. Each line is complete but for an index that follows from
/// the line above (the sibling just before it), or that did not change (`in_place`).
fn change_lines(tree: &Indexed<'_>, changed: &HashSet<&str>, in_place: &HashSet<&str>) -> String {
    let mut lines = ChangeLines {
        tree,
        changed,
        in_place,
        lines: String::new(),
        last: None,
        full: false,
    };
    walk_outline(&tree.tree.roots, &mut lines);
    lines.lines
}

/// [`change_lines`]' visitor.
struct ChangeLines<'a, 't> {
    tree: &'a Indexed<'t>,
    changed: &'a HashSet<&'a str>,
    in_place: &'a HashSet<&'a str>,
    lines: String,
    /// The node of the line written last.
    last: Option<&'t Node>,
    /// Past [`CHANGES_MAX`]: the rest is left out.
    full: bool,
}

impl ChangeLines<'_, '_> {
    /// Writes `node`'s line, with `cells` (a row's plain cells) on it.
    fn line(&mut self, node: &Node, cells: Option<&str>) {
        let parent_id = |id: &str| self.tree.parent_id(id);
        let id = node.id.as_str();
        let previous = self.last.filter(|l| {
            parent_id(l.id.as_str()).is_some() && parent_id(l.id.as_str()) == parent_id(id)
        });
        let around = Around {
            previous,
            children_shown: cells.is_some(),
            place_known: self.in_place.contains(id),
            ..Around::default()
        };
        self.lines.push_str(&node.outline_line_around(&around));
        self.lines.push_str(cells.unwrap_or_default());
        self.lines.push('\n');
        self.last = self.tree.get(id);
        if self.lines.len() > CHANGES_MAX {
            let _ = writeln!(
                self.lines,
                "- … more changes left out: read_tree to see them"
            );
            self.full = true;
        }
    }
}

impl OutlineVisitor for ChangeLines<'_, '_> {
    fn admit(&mut self, _: &OutlineStep<'_>) -> bool {
        !self.full
    }

    /// A changed node's line; a row of plain cells is one line, when it or a cell
    /// changed.
    fn enter(&mut self, step: &OutlineStep<'_>) -> bool {
        let node = step.node;
        let changed = |n: &Node| self.changed.contains(n.id.as_str());
        if let Some(cells) = node.compact_cells(step.columns) {
            if changed(node) || node.children.iter().any(changed) {
                self.line(node, Some(&cells));
            }
            return false;
        }
        if changed(node) {
            self.line(node, None);
        }
        true
    }
}

/// `removed: a, b`: the ids that went, each only where its parent stayed (a row's
/// cells go with it), but for a dialog: its event says it closed.
fn removed_line(before: &Indexed<'_>, removed: &[String]) -> String {
    let gone: HashSet<&str> = removed.iter().map(String::as_str).collect();
    let top: Vec<String> = removed
        .iter()
        .filter(|id| {
            !before
                .parents
                .get(id.as_str())
                .is_some_and(|p| gone.contains(p.id.as_str()))
                && !before.get(id).is_some_and(is_dialog)
        })
        .map(|id| OutlineName(id).to_string())
        .collect();
    if top.is_empty() {
        return String::new();
    }
    format!("removed: {}", top.join(", "))
}

/// A node whose coming and going is an event: a dialog, or anything modal.
fn is_dialog(node: &Node) -> bool {
    node.role == Role::Dialog || node.state.modal
}

/// The ids that went (`removed`, tree order) split into those gone and those that
/// only left the view of a scrolled container still there: a node whose nearest
/// ancestor that stayed draws a window of its items (scroll content longer than its
/// view, before or after) and holds no fewer of them than before. Scrolling brings
/// such a node back; a sort or a scroll moved it out. (A container that shrank may
/// have lost any of them: its ids stay removed.) A container that says no scroll
/// (hand-made rows) draws a window when its items say so: each is `index` of a
/// `count` larger than the items it draws, and that count did not shrink.
fn split_scrolled_out(
    before: &Indexed<'_>,
    after: &Indexed<'_>,
    removed: &[&str],
) -> (Vec<String>, Vec<String>) {
    let gone: HashSet<&str> = removed.iter().copied().collect();
    let scrolled = |id: &str| -> bool {
        // Up to the removed node whose parent stayed.
        let mut top = id;
        let stayed = loop {
            match before.parents.get(top) {
                Some(parent) if gone.contains(parent.id.as_str()) => top = parent.id.as_str(),
                Some(parent) => break after.get(parent.id.as_str()).map(|now| (*parent, now)),
                None => break None,
            }
        };
        let Some((was, is)) = stayed else {
            return false;
        };
        match (was.scroll, is.scroll) {
            (Some(was), Some(is)) => {
                (was.content > was.viewport || is.content > is.viewport)
                    && is.content >= was.content
            }
            (None, None) => match (items_window(was), items_window(is)) {
                (Some((was_count, was_drawn)), Some((count, drawn))) => {
                    (was_count > was_drawn || count > drawn) && count >= was_count
                }
                _ => false,
            },
            _ => false,
        }
    };
    let (mut out_of_view, mut removed_ids) = (Vec::new(), Vec::new());
    for &id in removed {
        let target = if scrolled(id) {
            &mut out_of_view
        } else {
            &mut removed_ids
        };
        target.push(id.to_string());
    }
    (removed_ids, out_of_view)
}

/// How many items `container` holds by its items' `count` (all saying the same), and
/// how many of them it draws; `None` when its items do not say.
fn items_window(container: &Node) -> Option<(u32, u32)> {
    let mut counts = container.children.iter().map(|c| c.position.count);
    let count = counts.next()??;
    if !counts.all(|c| c == Some(count)) {
        return None;
    }
    let drawn = u32::try_from(container.children.len()).unwrap_or(u32::MAX);
    Some((count, drawn))
}

/// `12 rows of processes scrolled out of view`, one line per container: a count,
/// not a list of ids, which read as deleted.
fn scrolled_out_line(before: &Indexed<'_>, scrolled_out: &[String]) -> String {
    let out: HashSet<&str> = scrolled_out.iter().map(String::as_str).collect();
    // Each container with its nodes that left its view (not their descendants).
    let mut containers: Vec<(&str, Vec<&Node>)> = Vec::new();
    for id in scrolled_out {
        let Some(parent) = before.parents.get(id.as_str()) else {
            continue;
        };
        if out.contains(parent.id.as_str()) {
            continue;
        }
        let node = before.get(id).into_iter();
        match containers
            .iter_mut()
            .find(|(c, _)| *c == parent.id.as_str())
        {
            Some((_, nodes)) => nodes.extend(node),
            None => containers.push((parent.id.as_str(), node.collect())),
        }
    }
    let mut lines = Vec::new();
    for (container, nodes) in containers {
        let rows = nodes.iter().all(|n| n.role == Role::Row);
        let noun = match (rows, nodes.len()) {
            (true, 1) => "row",
            (true, _) => "rows",
            (false, 1) => "item",
            (false, _) => "items",
        };
        lines.push(format!(
            "{} {noun} of {} scrolled out of view",
            nodes.len(),
            OutlineName(container)
        ));
    }
    lines.join("\n")
}

/// The whole tree's outline, if it is at most `limit` bytes long.
fn whole_tree_within(tree: &Tree, limit: usize) -> Option<String> {
    let roots: Vec<&Node> = tree.roots.iter().collect();
    outline_within(&roots, limit)
}

/// A dialog that opened or closed, and the focus moving, in a word each.
fn events(before: &Indexed<'_>, after: &Indexed<'_>) -> Vec<String> {
    let mut events = Vec::new();
    for dialog in after.tree.iter().filter(|n| is_dialog(n)) {
        if before.get(dialog.id.as_str()).is_none() {
            events.push(format!("dialog {} opened", OutlineName(dialog.id.as_str())));
        }
    }
    for dialog in before.tree.iter().filter(|n| is_dialog(n)) {
        if after.get(dialog.id.as_str()).is_none() {
            events.push(format!("dialog {} closed", OutlineName(dialog.id.as_str())));
        }
    }
    let focused = |tree: &Tree| tree.focused().map(|n| n.id.clone());
    match (focused(before.tree), focused(after.tree)) {
        (old, Some(new)) if old.as_ref() != Some(&new) => {
            events.push(format!("focus moved to {}", OutlineName(new.as_str())));
        }
        (Some(old), None) => events.push(format!("focus left {}", OutlineName(old.as_str()))),
        _ => {}
    }
    events
}

#[cfg(test)]
mod tests {
    use super::{
        Differences, Indexed, gained_selection, moves, scrolled_out_line, split_scrolled_out,
    };
    use taria_schema::{Node, Role, Tree};
    use taria_schema::{NodeId, ScrollInfo};

    fn node(id: &str, role: Role, children: Vec<Node>) -> Node {
        let mut node = Node::default();
        node.id = NodeId::new(id);
        node.role = role;
        node.children = children;
        node
    }

    fn tree(roots: Vec<Node>) -> Tree {
        let mut tree = Tree::default();
        tree.roots = roots;
        tree
    }

    fn list(items: &[(&str, bool)]) -> Tree {
        let items = items
            .iter()
            .map(|&(id, selected)| {
                let mut item = node(id, Role::ListItem, Vec::new());
                item.state.selected = selected;
                item
            })
            .collect();
        tree(vec![node("l", Role::List, items)])
    }

    #[test]
    fn a_reordering_and_a_move_to_another_parent_are_said() {
        let before = tree(vec![
            node(
                "a",
                Role::List,
                vec![
                    node("a/1", Role::ListItem, vec![]),
                    node("a/2", Role::ListItem, vec![]),
                    node("x", Role::ListItem, vec![]),
                ],
            ),
            node("b", Role::List, vec![node("b/1", Role::ListItem, vec![])]),
        ]);
        let after = tree(vec![
            node(
                "a",
                Role::List,
                vec![
                    node("a/2", Role::ListItem, vec![]),
                    node("a/1", Role::ListItem, vec![]),
                ],
            ),
            node(
                "b",
                Role::List,
                vec![
                    node("b/1", Role::ListItem, vec![]),
                    node("x", Role::ListItem, vec![]),
                ],
            ),
        ]);
        let words = moves(&Indexed::new(&before), &Indexed::new(&after));
        assert_eq!(words, ["x moved to b", "a reordered"]);
        // Items only added or removed around the others: nothing moved.
        let grown = tree(vec![node(
            "a",
            Role::List,
            vec![
                node("a/0", Role::ListItem, vec![]),
                node("a/1", Role::ListItem, vec![]),
                node("a/2", Role::ListItem, vec![]),
            ],
        )]);
        let first = tree(vec![node(
            "a",
            Role::List,
            vec![
                node("a/1", Role::ListItem, vec![]),
                node("a/2", Role::ListItem, vec![]),
            ],
        )]);
        assert!(moves(&Indexed::new(&first), &Indexed::new(&grown)).is_empty());
    }

    /// A table of `content` rows showing `rows` (each with one cell), scrolled when
    /// `content` is more than it shows.
    fn table(rows: &[&str], content: u32) -> Tree {
        let rows = rows
            .iter()
            .map(|id| {
                node(
                    id,
                    Role::Row,
                    vec![node(&format!("{id}/0"), Role::Cell, vec![])],
                )
            })
            .collect();
        let mut table = node("t", Role::Table, rows);
        table.scroll = Some(ScrollInfo {
            offset: 0,
            content,
            viewport: 2,
        });
        tree(vec![table])
    }

    fn split(before: &Tree, after: &Tree) -> (Vec<String>, Vec<String>) {
        let (before, after) = (Indexed::new(before), Indexed::new(after));
        let differences = Differences::new(&before, &after);
        split_scrolled_out(&before, &after, &differences.removed)
    }

    /// What `gained_selection` finds between two trees.
    fn gained(before: &Tree, after: &Tree) -> Vec<String> {
        let (before, after) = (Indexed::new(before), Indexed::new(after));
        let differences = Differences::new(&before, &after);
        let gained = gained_selection(differences.touched(), &before, &after);
        gained.into_iter().map(str::to_owned).collect()
    }

    #[test]
    fn rows_that_left_a_scrolled_view_are_told_from_rows_that_went() {
        // Re-sorted: the table holds as many rows; the two shown before left its view.
        let before = table(&["t/a", "t/b"], 100);
        let (gone, out) = split(&before, &table(&["t/c", "t/d"], 100));
        assert!(gone.is_empty(), "{gone:?}");
        assert_eq!(out, ["t/a", "t/a/0", "t/b", "t/b/0"]);
        let line = scrolled_out_line(&Indexed::new(&before), &out);
        assert_eq!(line, "2 rows of t scrolled out of view");
        // One deleted: the table holds fewer, so what went is removed.
        let (gone, out) = split(&before, &table(&["t/b", "t/c"], 99));
        assert_eq!((gone, out.len()), (vec!["t/a".into(), "t/a/0".into()], 0));
        // A table that shows all it holds does not scroll: removed.
        let all = table(&["t/a", "t/b"], 2);
        let (gone, out) = split(&all, &table(&["t/a"], 2));
        assert_eq!((gone.len(), out.len()), (2, 0));
        // Its parent gone too: removed with it.
        let (gone, out) = split(&before, &tree(Vec::new()));
        assert_eq!((gone.len(), out.len()), (5, 0));
    }

    /// Found on a tree app whose rows are hand-made leaves, `index` of `count`, in a
    /// container that says no scroll: rows that left its view read `removed:`.
    #[test]
    fn hand_made_rows_that_left_their_list_s_view_are_told_from_rows_that_went() {
        let list = |shown: std::ops::Range<u32>, count: u32| {
            let items = shown
                .map(|i| {
                    let mut item = node(&format!("l/{i}"), Role::ListItem, Vec::new());
                    item.position.index = Some(i);
                    item.position.count = Some(count);
                    item
                })
                .collect();
            tree(vec![node("l", Role::List, items)])
        };
        let (gone, out) = split(&list(0..4, 10), &list(3..7, 10));
        assert!(gone.is_empty(), "{gone:?}");
        assert_eq!(out, ["l/0", "l/1", "l/2"]);
        // The list holds fewer: what went may be gone.
        let (gone, out) = split(&list(0..4, 10), &list(3..7, 9));
        assert_eq!((gone.len(), out.len()), (3, 0));
        // All of it drawn, before and after: no window, removed.
        let (gone, out) = split(&list(0..4, 4), &list(1..4, 3));
        assert_eq!((gone.len(), out.len()), (1, 0));
    }

    /// The nodes a patch names: added, updated, removed, and whether it is empty.
    fn patch_ids(before: &Tree, after: &Tree) -> (Vec<String>, Vec<String>, Vec<String>, bool) {
        let patch = after.diff(before);
        (
            patch.added.iter().map(|f| f.node.id.to_string()).collect(),
            patch.updated.iter().map(|u| u.id.to_string()).collect(),
            patch.removed.iter().map(ToString::to_string).collect(),
            !patch.is_empty(),
        )
    }

    fn difference_ids(
        before: &Tree,
        after: &Tree,
    ) -> (Vec<String>, Vec<String>, Vec<String>, bool) {
        let (old, new) = (Indexed::new(before), Indexed::new(after));
        let d = Differences::new(&old, &new);
        let owned = |ids: &[&str]| ids.iter().map(|id| (*id).to_owned()).collect();
        (owned(&d.added), owned(&d.updated), owned(&d.removed), d.any)
    }

    #[test]
    fn differences_name_the_nodes_a_patch_names() {
        let base = || {
            tree(vec![
                node(
                    "a",
                    Role::List,
                    vec![
                        node(
                            "a/1",
                            Role::ListItem,
                            vec![node("a/1/x", Role::Text, vec![])],
                        ),
                        node("a/2", Role::ListItem, vec![]),
                    ],
                ),
                node("b", Role::Status, vec![]),
            ])
        };
        let mut relabelled = base();
        relabelled.roots[0].children[0].children[0].label = Some("new".into());
        let mut added = base();
        added.roots[0]
            .children
            .push(node("a/3", Role::ListItem, vec![]));
        let mut removed = base();
        removed.roots[0].children.remove(0);
        let mut reordered = base();
        reordered.roots[0].children.swap(0, 1);
        let mut moved = base();
        let item = moved.roots[0].children.remove(1);
        moved.roots[1].children.push(item);
        let mut roots_swapped = base();
        roots_swapped.roots.swap(0, 1);
        let mut diagnosed = base();
        diagnosed
            .diagnostics
            .push(taria_schema::Diagnostic::NodeLimit { skipped: 1 });
        let mut selected = base();
        selected.roots[0].children[1].state.selected = true;
        for after in [
            base(),
            relabelled,
            added,
            removed,
            reordered,
            moved,
            roots_swapped,
            diagnosed,
            selected,
            tree(Vec::new()),
        ] {
            assert_eq!(
                difference_ids(&base(), &after),
                patch_ids(&base(), &after),
                "{after:?}"
            );
            assert_eq!(difference_ids(&after, &base()), patch_ids(&after, &base()));
        }
    }

    #[test]
    fn a_lost_selection_is_implied_only_where_one_child_is_selected() {
        let before = list(&[("l/1", true), ("l/2", false), ("l/3", false)]);
        let single = list(&[("l/1", false), ("l/2", true), ("l/3", false)]);
        assert_eq!(gained(&before, &single), ["l"]);
        // Marks, several at once: l/1's unmarking is a change of its own.
        let marked = list(&[("l/1", true), ("l/2", true), ("l/3", false)]);
        let unmarked = list(&[("l/1", false), ("l/2", true), ("l/3", true)]);
        assert!(gained(&marked, &unmarked).is_empty());
    }
}
