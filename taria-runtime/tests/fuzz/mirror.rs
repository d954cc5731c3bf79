//! `FlatTree::apply` on patches between two trees, on arbitrary patches and on
//! patches from arbitrary JSON: the tree it leaves is sane.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::{Value as Json, json};
use taria::node::NodeId;
use taria::{Role, Tree};
use taria_schema::mirror::{FlatNode, FlatTree, NodeUpdate, Patch};
use taria_schema::protocol::AppMessage;

use crate::checks::flat_tree_is_sane;
use crate::generators::{config, ids, json, node, unique_tree};

/// A patch a peer might send against `tree`: ids from the tree and a few others.
fn patch_for(tree: &Tree) -> impl Strategy<Value = Patch> + use<> {
    let mut pool: Vec<NodeId> = ids(tree);
    pool.extend(["ghost", "n1", "n2"].map(NodeId::from));
    let id = prop::sample::select(pool.clone());
    let ids = vec(id.clone(), 0..4);
    let field_value = prop_oneof![
        2 => json(),
        2 => id.clone().prop_map(|id| Json::from(id.as_str())),
        2 => ids.clone().prop_map(|ids| json!(ids)),
    ];
    let field = (
        prop::sample::select(
            &[
                "id", "childIds", "parent", "role", "label", "value", "position", "stable",
                "actions", "checked",
            ][..],
        ),
        field_value,
    );
    let added =
        (node(), option::of(id.clone()), ids.clone()).prop_map(|(mut node, parent, child_ids)| {
            node.id = NodeId::new(format!("{}+", node.id.as_str()));
            FlatNode {
                node,
                parent,
                child_ids,
            }
        });
    let added = prop_oneof![
        added,
        (node(), id.clone(), ids.clone()).prop_map(|(mut node, id, child_ids)| {
            node.id = id;
            FlatNode {
                node,
                parent: None,
                child_ids,
            }
        }),
    ];
    let updated = (id.clone(), vec(field, 0..3)).prop_map(|(id, fields)| NodeUpdate {
        id,
        fields: fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
    });
    (
        vec(added, 0..3),
        vec(updated, 0..4),
        ids.clone(),
        option::of(ids),
        any::<u64>(),
    )
        .prop_map(|(added, updated, removed, roots, frame)| Patch {
            added,
            updated,
            removed,
            roots,
            frame,
            ..Patch::default()
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn a_patch_between_two_trees_rebuilds_the_newer(
        (older, newer) in (unique_tree(), unique_tree()),
    ) {
        let patch = newer.diff(&older);
        // Over the wire, as the bridge gets it.
        let json = serde_json::to_string(&patch).unwrap();
        let patch: Patch = serde_json::from_str(&json).unwrap();
        let mut flat = FlatTree::from_tree(&older);
        flat.apply(&patch);
        prop_assert_eq!(flat.to_tree().roots, newer.roots);
        flat_tree_is_sane(&flat);
    }

    #[test]
    fn any_patch_leaves_a_sane_tree(
        (tree, patches) in unique_tree().prop_flat_map(|tree| {
            let patches = vec(patch_for(&tree), 1..4);
            (Just(tree), patches)
        }),
    ) {
        let mut flat = FlatTree::from_tree(&tree);
        for patch in &patches {
            flat.apply(patch);
            flat_tree_is_sane(&flat);
        }
    }

    #[test]
    fn a_patch_from_arbitrary_json_never_panics(fields in json()) {
        let mut harness = taria::testing::Harness::new(10, 2);
        let tree = harness.render(|_| {
            let _list = taria::scope(|n| { n.role(Role::List).id("tasks"); });
            taria::leaf(|n| { n.role(Role::ListItem).key(1).label("a"); });
        });
        let mut line = json!({"type": "patch", "revision": 2, "input": 0});
        if let (Json::Object(line), Json::Object(fields)) = (&mut line, fields) {
            line.extend(fields);
        }
        if let Ok(AppMessage::Patch { patch, .. }) = serde_json::from_value::<AppMessage>(line) {
            let mut flat = FlatTree::from_tree(&tree);
            flat.apply(&patch);
            flat_tree_is_sane(&flat);
        }
    }
}
