//! Frame-to-frame changes: a tree as flat nodes keyed by id, the [`Patch`] between
//! two trees, and applying one to rebuild the newer tree.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::{Diagnostic, Node, NodeId, Tree};

/// A node without its children, with its parent's id and its children's ids.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct FlatNode {
    /// The node (its `children` are always empty here).
    #[serde(flatten)]
    pub node: Node,
    /// The parent's id, `None` for a root.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub parent: Option<NodeId>,
    /// The children's ids, in drawing order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub child_ids: Vec<NodeId>,
}

/// What changed from one tree to the next: nodes added or changed (in full, without
/// children), nodes removed, and the new list of roots when it changed.
///
/// ```
/// use taria::{Role, Tree, testing::Harness};
///
/// let mut harness = Harness::new(10, 2);
/// let draw = |label: &'static str| move |_: &mut ratatui::Frame<'_>| {
///     taria::leaf(|n| { n.role(Role::Status).id("status").label(label); });
///     taria::leaf(|n| { n.role(Role::Button).id("ok").label("OK"); });
/// };
/// let before = harness.render(draw("Ready"));
/// let after = harness.render(draw("Saved"));
/// let patch = after.diff(&before);
/// assert_eq!(patch.changed.len(), 1);
/// assert_eq!(patch.changed[0].node.label.as_deref(), Some("Saved"));
/// let mut rebuilt = before.clone();
/// patch.apply_to(&mut rebuilt);
/// assert_eq!(rebuilt.roots, after.roots);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Patch {
    /// Nodes that are new or differ (including a change of parent or children).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub changed: Vec<FlatNode>,
    /// Ids of nodes that are gone.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub removed: Vec<NodeId>,
    /// The new root ids, when they changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roots: Option<Vec<NodeId>>,
    /// The newer tree's diagnostics, when they changed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub diagnostics: Option<Vec<Diagnostic>>,
    /// The newer tree's frame number.
    #[serde(default)]
    pub frame: u64,
}

impl Patch {
    /// Whether the two trees had the same content (only the frame number differs).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty()
            && self.removed.is_empty()
            && self.roots.is_none()
            && self.diagnostics.is_none()
    }

    /// The ids of every node the patch adds, changes or removes.
    pub fn touched_ids(&self) -> impl Iterator<Item = &NodeId> {
        self.changed.iter().map(|f| &f.node.id).chain(&self.removed)
    }

    /// Applies the patch to `tree`, the tree it was computed from.
    pub fn apply_to(&self, tree: &mut Tree) {
        let mut flat = FlatTree::from_tree(tree);
        flat.apply(self);
        *tree = flat.to_tree();
    }
}

/// A tree kept as flat nodes by id, for applying patches cheaply.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FlatTree {
    nodes: HashMap<NodeId, FlatNode>,
    roots: Vec<NodeId>,
    diagnostics: Vec<Diagnostic>,
    frame: u64,
}

impl FlatTree {
    /// Flattens `tree`.
    #[must_use]
    pub fn from_tree(tree: &Tree) -> FlatTree {
        fn walk(node: &Node, parent: Option<&NodeId>, out: &mut HashMap<NodeId, FlatNode>) {
            let mut flat = node.clone();
            flat.children = Vec::new();
            let child_ids = node.children.iter().map(|c| c.id.clone()).collect();
            out.insert(
                node.id.clone(),
                FlatNode {
                    node: flat,
                    parent: parent.cloned(),
                    child_ids,
                },
            );
            for child in &node.children {
                walk(child, Some(&node.id), out);
            }
        }
        let mut nodes = HashMap::new();
        for root in &tree.roots {
            walk(root, None, &mut nodes);
        }
        FlatTree {
            nodes,
            roots: tree.roots.iter().map(|r| r.id.clone()).collect(),
            diagnostics: tree.diagnostics.clone(),
            frame: tree.frame,
        }
    }

    /// Applies a patch computed against this tree.
    pub fn apply(&mut self, patch: &Patch) {
        for id in &patch.removed {
            self.nodes.remove(id);
        }
        for flat in &patch.changed {
            self.nodes.insert(flat.node.id.clone(), flat.clone());
        }
        if let Some(roots) = &patch.roots {
            self.roots.clone_from(roots);
        }
        if let Some(diagnostics) = &patch.diagnostics {
            self.diagnostics.clone_from(diagnostics);
        }
        self.frame = patch.frame;
    }

    /// Rebuilds the nested tree. Ids a patch left dangling are skipped, and a node is
    /// placed once at most, so a malformed patch cannot loop.
    #[must_use]
    pub fn to_tree(&self) -> Tree {
        let mut placed = std::collections::HashSet::new();
        let roots = self
            .roots
            .iter()
            .filter_map(|id| self.build(id, &mut placed, 0))
            .collect();
        Tree {
            frame: self.frame,
            roots,
            diagnostics: self.diagnostics.clone(),
        }
    }

    fn build(
        &self,
        id: &NodeId,
        placed: &mut std::collections::HashSet<NodeId>,
        depth: usize,
    ) -> Option<Node> {
        if depth > crate::MAX_DEPTH || !placed.insert(id.clone()) {
            return None;
        }
        let flat = self.nodes.get(id)?;
        let mut node = flat.node.clone();
        node.children = flat
            .child_ids
            .iter()
            .filter_map(|c| self.build(c, placed, depth + 1))
            .collect();
        Some(node)
    }
}

impl Tree {
    /// The patch that turns `older` into `self`.
    #[must_use]
    pub fn diff(&self, older: &Tree) -> Patch {
        let old = FlatTree::from_tree(older);
        let new = FlatTree::from_tree(self);
        let mut changed: Vec<FlatNode> = Vec::new();
        // Walk the new tree in drawing order so patches are deterministic.
        for node in self.iter() {
            let Some(flat) = new.nodes.get(&node.id) else {
                continue;
            };
            if old.nodes.get(&node.id) != Some(flat) {
                changed.push(flat.clone());
            }
        }
        let removed = older
            .iter()
            .filter(|n| !new.nodes.contains_key(&n.id))
            .map(|n| n.id.clone())
            .collect();
        Patch {
            changed,
            removed,
            roots: (new.roots != old.roots).then(|| new.roots.clone()),
            diagnostics: (new.diagnostics != old.diagnostics).then(|| new.diagnostics.clone()),
            frame: self.frame,
        }
    }
}
