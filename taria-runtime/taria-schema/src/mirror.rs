//! Mirroring an app's tree: the app sends a whole [`Tree`] and then [`Patch`]es, the
//! changes frame to frame (nodes added as [`FlatNode`]s, updated as [`NodeUpdate`]s,
//! removed), which a [`FlatTree`], the tree as flat nodes keyed by id, applies.

use foldhash::{HashMap, HashMapExt as _, HashSet, HashSetExt as _};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value as Json};

use std::collections::BTreeMap;

use crate::model::{Bounds, Diagnostic, MAX_DEPTH, Node, NodeId, Position, Role, Tree};

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

/// The fields of a node that changed, as a JSON merge patch: each field present is
/// the new value (in the node's JSON form, see [`FlatNode`]); `null` means the field
/// went back to its default (absent).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct NodeUpdate {
    /// The node's id.
    pub id: NodeId,
    /// The changed fields.
    #[serde(flatten)]
    pub fields: Map<String, Json>,
}

/// What changed from one tree to the next: nodes added (in full, without children),
/// nodes updated (only their changed fields), nodes removed, and the new list of
/// roots when it changed.
///
/// # Examples
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
/// assert_eq!(patch.updated.len(), 1);
/// assert_eq!(patch.updated[0].fields["label"], "Saved");
/// let mut rebuilt = before.clone();
/// patch.apply_to(&mut rebuilt);
/// assert_eq!(rebuilt.roots, after.roots);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Patch {
    /// Nodes that are new.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub added: Vec<FlatNode>,
    /// Nodes that changed (including a change of parent or children).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub updated: Vec<NodeUpdate>,
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
        self.added.is_empty()
            && self.updated.is_empty()
            && self.removed.is_empty()
            && self.roots.is_none()
            && self.diagnostics.is_none()
    }

    /// The ids of every node the patch adds, updates or removes.
    pub fn touched_ids(&self) -> impl Iterator<Item = &NodeId> {
        self.added
            .iter()
            .map(|f| &f.node.id)
            .chain(self.updated.iter().map(|u| &u.id))
            .chain(&self.removed)
    }

    /// Applies the patch to `tree`, the tree it was computed from.
    pub fn apply_to(&self, tree: &mut Tree) {
        let mut flat = FlatTree::from_tree(tree);
        flat.apply(self);
        *tree = flat.to_tree();
    }
}

/// A tree kept as flat nodes by id, for applying patches cheaply.
///
/// # Examples
///
/// A consumer's copy of the app's tree: the first tree whole, then each patch.
///
/// ```
/// use taria::{Role, testing::Harness};
/// use taria_schema::mirror::FlatTree;
///
/// let mut harness = Harness::new(10, 1);
/// let status = |label: &'static str| {
///     move |_: &mut ratatui::Frame<'_>| taria::leaf(|n| {
///         n.role(Role::Status).id("status").label(label);
///     })
/// };
/// let first = harness.render(status("Ready"));
/// let mut mirror = FlatTree::from_tree(&first);
/// let next = harness.render(status("Saved"));
/// mirror.apply(&next.diff(&first));
/// assert_eq!(mirror.to_tree().get("status").unwrap().label.as_deref(), Some("Saved"));
/// ```
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
        let mut nodes = HashMap::new();
        for (node, parent) in with_parents(tree) {
            nodes.insert(node.id.clone(), flat_clone(node, parent));
        }
        FlatTree {
            nodes,
            roots: tree.roots.iter().map(|r| r.id.clone()).collect(),
            diagnostics: tree.diagnostics.clone(),
            frame: tree.frame,
        }
    }

    /// Applies a patch computed against this tree. An update for an unknown id, or
    /// one whose fields do not make a node, is skipped, and an update cannot change a
    /// node's `id` (its key here): a faulty peer cannot panic it or make two nodes
    /// answer to one id.
    pub fn apply(&mut self, patch: &Patch) {
        for id in &patch.removed {
            self.nodes.remove(id);
        }
        for flat in &patch.added {
            self.nodes.insert(flat.node.id.clone(), flat.clone());
        }
        for update in &patch.updated {
            let Some(current) = self.nodes.get_mut(&update.id) else {
                continue;
            };
            let mut read = current.clone();
            let node = match merge_into(&mut read, &update.fields) {
                Merged::Read => Some(read),
                Merged::Invalid => None,
                Merged::Unusual => merged_as_json(current, &update.fields),
            };
            if let Some(node) = node {
                *current = node;
            }
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
        let mut placed = HashSet::new();
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

    fn build(&self, id: &NodeId, placed: &mut HashSet<NodeId>, depth: usize) -> Option<Node> {
        if depth > MAX_DEPTH || !placed.insert(id.clone()) {
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

/// Every node of `tree` with its parent's id, depth first in drawing order.
fn with_parents(tree: &Tree) -> Vec<(&Node, Option<&NodeId>)> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Node, Option<&NodeId>)> =
        tree.roots.iter().rev().map(|r| (r, None)).collect();
    while let Some((node, parent)) = stack.pop() {
        out.push((node, parent));
        stack.extend(node.children.iter().rev().map(|c| (c, Some(&node.id))));
    }
    out
}

/// What reading a merge patch into a node came to ([`merge_into`]).
enum Merged {
    /// The node has the patch applied.
    Read,
    /// A field's value does not make the node: the update is skipped.
    Invalid,
    /// A field this typed path leaves to the JSON one (an unknown key, or one whose
    /// absence does not make a node).
    Unusual,
}

/// Applies the merge patch `fields` to `flat` field by field, as writing the node as
/// JSON, merging `fields` in and reading it back does (a `null` puts the field's
/// default back), without writing and reading the whole node: that round trip was
/// most of the cost of a patch. Unless it says [`Merged::Read`], `flat` is left part
/// read: the caller drops it.
fn merge_into(flat: &mut FlatNode, fields: &Map<String, Json>) -> Merged {
    /// Reads `value` into `field`; `null` is `default`.
    fn set<'a, T: Deserialize<'a>>(field: &mut T, value: &'a Json, default: T) -> bool {
        if value.is_null() {
            *field = default;
            return true;
        }
        match T::deserialize(value) {
            Ok(read) => {
                *field = read;
                true
            }
            Err(_) => false,
        }
    }
    let FlatNode {
        node,
        parent,
        child_ids,
    } = flat;
    for (key, value) in fields {
        let state = &mut node.state;
        let read = match key.as_str() {
            "id" => true,
            "parent" => set(parent, value, None),
            "childIds" => set(child_ids, value, Vec::new()),
            "stable" => set(&mut node.stable, value, true),
            "role" if !value.is_null() => set(&mut node.role, value, Role::default()),
            "customRole" => set(&mut node.custom_role, value, None),
            "label" => set(&mut node.label, value, None),
            "value" => set(&mut node.value, value, None),
            "redactedLength" => set(&mut node.redacted_length, value, None),
            "valueSchema" => set(&mut node.value_schema, value, None),
            "actions" => set(&mut node.actions, value, Vec::new()),
            "keys" => set(&mut node.keys, value, BTreeMap::new()),
            "position" => set(&mut node.position, value, Position::default()),
            "scroll" => set(&mut node.scroll, value, None),
            "bounds" => set(&mut node.bounds, value, Bounds::default()),
            "focused" => set(&mut state.focused, value, false),
            "selected" => set(&mut state.selected, value, false),
            "checked" => set(&mut state.checked, value, None),
            "expanded" => set(&mut state.expanded, value, None),
            "disabled" => set(&mut state.disabled, value, false),
            "busy" => set(&mut state.busy, value, false),
            "required" => set(&mut state.required, value, false),
            "readonly" => set(&mut state.readonly, value, false),
            "invalid" => set(&mut state.invalid, value, false),
            "invalidMessage" => set(&mut state.invalid_message, value, None),
            "redacted" => set(&mut state.redacted, value, false),
            "untrusted" => set(&mut state.untrusted, value, false),
            "modal" => set(&mut state.modal, value, false),
            "inert" => set(&mut state.inert, value, false),
            _ => return Merged::Unusual,
        };
        if !read {
            return Merged::Invalid;
        }
    }
    Merged::Read
}

/// Applies the merge patch `fields` to `current` through JSON: the node written as a
/// JSON object, `fields` merged in (`null` removes a field, `id` stays), the object
/// read back; `None` when it does not make a node.
fn merged_as_json(current: &FlatNode, fields: &Map<String, Json>) -> Option<FlatNode> {
    let Ok(Json::Object(mut object)) = serde_json::to_value(current) else {
        return None;
    };
    for (key, value) in fields {
        if key == "id" {
            continue;
        }
        if value.is_null() {
            object.remove(key);
        } else {
            object.insert(key.clone(), value.clone());
        }
    }
    serde_json::from_value::<FlatNode>(Json::Object(object)).ok()
}

fn flat_clone(node: &Node, parent: Option<&NodeId>) -> FlatNode {
    FlatNode {
        node: node.clone_without_children(),
        parent: parent.cloned(),
        child_ids: node.children.iter().map(|c| c.id.clone()).collect(),
    }
}

impl Node {
    /// Whether `other` is this node as flat nodes compare: every field the same, and
    /// the same children ids in the same order (the children's own content is not
    /// compared). [`Tree::diff`] lists a node as updated when this is false or its
    /// parent changed; a consumer comparing two trees node by node can ask it without
    /// computing the patch's fields.
    ///
    /// # Examples
    ///
    /// ```
    /// use taria::Node;
    /// use taria::node::NodeId;
    ///
    /// let mut item = Node::default();
    /// item.id = NodeId::new("list/0");
    /// let mut list = Node::default();
    /// list.id = NodeId::new("list");
    /// list.children.push(item);
    /// let mut relabelled = list.clone();
    /// relabelled.children[0].label = Some("renamed".into());
    /// assert!(list.same_flat(&relabelled), "only a child's content changed");
    /// relabelled.label = Some("Tasks".into());
    /// assert!(!list.same_flat(&relabelled));
    /// ```
    #[must_use]
    pub fn same_flat(&self, other: &Node) -> bool {
        // Destructured so that a new field of `Node` cannot be forgotten here.
        let Node {
            id,
            stable,
            role,
            custom_role,
            label,
            value,
            redacted_length,
            value_schema,
            state,
            actions,
            keys,
            position,
            scroll,
            bounds,
            children,
        } = self;
        let b = other;
        *id == b.id
            && *stable == b.stable
            && *role == b.role
            && *custom_role == b.custom_role
            && *label == b.label
            && *value == b.value
            && *redacted_length == b.redacted_length
            && *value_schema == b.value_schema
            && *state == b.state
            && *actions == b.actions
            && *keys == b.keys
            && *position == b.position
            && *scroll == b.scroll
            && *bounds == b.bounds
            && children.len() == b.children.len()
            && children.iter().zip(&b.children).all(|(x, y)| x.id == y.id)
    }
}

/// The merge patch that turns `old` into `new` (both flat JSON objects).
fn merge_patch(old: &FlatNode, new: &FlatNode) -> Map<String, Json> {
    let (Ok(Json::Object(old)), Ok(Json::Object(new))) =
        (serde_json::to_value(old), serde_json::to_value(new))
    else {
        return Map::new();
    };
    let mut fields = Map::new();
    for (key, value) in &new {
        if old.get(key) != Some(value) {
            fields.insert(key.clone(), value.clone());
        }
    }
    for key in old.keys() {
        if !new.contains_key(key) {
            fields.insert(key.clone(), Json::Null);
        }
    }
    fields.remove("id");
    fields
}

impl Tree {
    /// The patch that turns `older` into `self`.
    #[must_use]
    pub fn diff(&self, older: &Tree) -> Patch {
        let older_nodes = with_parents(older);
        let old: HashMap<&NodeId, (&Node, Option<&NodeId>)> =
            older_nodes.iter().map(|&(n, p)| (&n.id, (n, p))).collect();
        let new = with_parents(self);
        let new_ids: HashSet<&NodeId> = new.iter().map(|(n, _)| &n.id).collect();
        let mut patch = Patch {
            frame: self.frame,
            ..Patch::default()
        };
        for (node, parent) in &new {
            match old.get(&node.id) {
                None => patch.added.push(flat_clone(node, *parent)),
                Some((before, before_parent))
                    if !before.same_flat(node) || before_parent != parent =>
                {
                    let fields = merge_patch(
                        &flat_clone(before, *before_parent),
                        &flat_clone(node, *parent),
                    );
                    patch.updated.push(NodeUpdate {
                        id: node.id.clone(),
                        fields,
                    });
                }
                Some(_) => {}
            }
        }
        patch.removed = older_nodes
            .iter()
            .filter(|(n, _)| !new_ids.contains(&n.id))
            .map(|(n, _)| n.id.clone())
            .collect();
        let roots = |t: &Tree| t.roots.iter().map(|r| r.id.clone()).collect::<Vec<_>>();
        let new_roots = roots(self);
        if new_roots != roots(older) {
            patch.roots = Some(new_roots);
        }
        if self.diagnostics != older.diagnostics {
            patch.diagnostics = Some(self.diagnostics.clone());
        }
        patch
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;
    use crate::model::{Action, ActionName, Checked, ScrollInfo, State, Value, ValueSchema};

    /// A flat node with every field away from its default.
    fn full() -> FlatNode {
        let state = State {
            focused: true,
            selected: true,
            checked: Some(Checked::Mixed),
            expanded: Some(false),
            disabled: true,
            busy: true,
            required: true,
            readonly: true,
            invalid: true,
            invalid_message: Some("too long".into()),
            redacted: true,
            untrusted: true,
            modal: true,
            inert: true,
        };
        let node = Node {
            id: NodeId::new("list/1"),
            stable: false,
            role: Role::ListItem,
            custom_role: Some("task".into()),
            label: Some("Buy milk".into()),
            value: Some(Value::Number(-0.5)),
            redacted_length: Some(4),
            value_schema: Some(ValueSchema::Text { max_len: Some(9) }),
            state,
            actions: vec![
                ActionName::Core(Action::Toggle),
                ActionName::Custom("archive".into()),
            ],
            keys: [("toggle".to_owned(), "space".to_owned())].into(),
            position: Position {
                index: Some(1),
                count: Some(3),
                level: Some(2),
            },
            scroll: Some(ScrollInfo {
                offset: 1,
                content: 9,
                viewport: 3,
            }),
            bounds: Bounds {
                x: 1,
                y: 2,
                width: 3,
                height: 1,
            },
            children: Vec::new(),
        };
        FlatNode {
            node,
            parent: Some(NodeId::new("list")),
            child_ids: vec![NodeId::new("list/1/a")],
        }
    }

    /// Reading a patch's fields into the node does what the JSON round trip does,
    /// for every field of the node's JSON: a new value, `null`, and a value of the
    /// wrong kind (the update skipped); a field `merge_into` does not know would fail
    /// here, so a new field of `Node` cannot be forgotten there.
    #[test]
    fn a_patch_read_field_by_field_makes_the_node_the_json_round_trip_makes() {
        let (full, empty) = (
            full(),
            FlatNode {
                node: Node::default(),
                parent: None,
                child_ids: Vec::new(),
            },
        );
        let Json::Object(keys) = serde_json::to_value(&full).unwrap() else {
            panic!("a node is an object")
        };
        assert!(keys.len() > 25, "{keys:?}");
        let empty_json = serde_json::to_value(&empty).unwrap();
        let values = |key: &str| {
            vec![
                keys[key].clone(),
                empty_json.get(key).cloned().unwrap_or(Json::Null),
                Json::Null,
                json!({"no": "such shape"}),
            ]
        };
        for key in keys.keys() {
            for current in [&full, &empty] {
                for value in values(key) {
                    let fields: Map<String, Json> =
                        [(key.clone(), value.clone())].into_iter().collect();
                    let mut read = current.clone();
                    let typed = match merge_into(&mut read, &fields) {
                        Merged::Read => Some(read),
                        Merged::Invalid => None,
                        Merged::Unusual if key == "role" && value.is_null() => continue,
                        Merged::Unusual => panic!("`{key}` is left to the JSON path"),
                    };
                    assert_eq!(
                        typed,
                        merged_as_json(current, &fields),
                        "{key}: {value} on {current:?}"
                    );
                }
            }
        }
        // Several fields at once, and an unknown one (the JSON path ignores it).
        let fields: Map<String, Json> = [
            ("label".to_owned(), json!("Walk dog")),
            ("selected".to_owned(), Json::Null),
            ("childIds".to_owned(), json!([])),
            ("later".to_owned(), json!(1)),
        ]
        .into_iter()
        .collect();
        let mut tree = FlatTree::default();
        tree.nodes.insert(full.node.id.clone(), full.clone());
        tree.apply(&Patch {
            updated: vec![NodeUpdate {
                id: full.node.id.clone(),
                fields: fields.clone(),
            }],
            ..Patch::default()
        });
        let applied = &tree.nodes[&full.node.id];
        assert_eq!(Some(applied), merged_as_json(&full, &fields).as_ref());
        assert_eq!(applied.node.label.as_deref(), Some("Walk dog"));
        assert!(!applied.node.state.selected && applied.child_ids.is_empty());
    }
}
