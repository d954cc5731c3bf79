//! The mirror kept from a tree an app records (drawn with `taria`'s recorder, a
//! dev-dependency) and its patches.

use serde_json::{Map, Value as Json};
use taria::testing::Harness;
use taria_schema::mirror::*;
use taria_schema::{Action, Role};

fn draw(items: &[&str], status: Option<&str>) -> impl FnOnce(&mut ratatui::Frame<'_>) {
    let items: Vec<String> = items.iter().map(|s| (*s).to_owned()).collect();
    let status = status.map(str::to_owned);
    move |_| {
        let list = taria::scope(|n| {
            n.role(Role::List).id("list");
        });
        for item in &items {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(item)
                    .label(item)
                    .action(Action::Toggle);
            });
        }
        drop(list);
        if let Some(status) = &status {
            taria::leaf(|n| {
                n.role(Role::Status).id("status").label(status);
            });
        }
    }
}

#[test]
fn patches_add_update_remove_and_rebuild_the_newer_tree() {
    let mut harness = Harness::new(10, 5);
    let trees = [
        harness.render(draw(&["a", "b"], Some("ready"))),
        harness.render(draw(&["a", "c", "b"], Some("ready"))),
        harness.render(draw(&["c"], None)),
        harness.render(draw(&["c"], Some("done"))),
        harness.render(draw(&["c"], Some("done"))),
    ];
    for pair in trees.windows(2) {
        let patch = pair[1].diff(&pair[0]);
        let mut rebuilt = pair[0].clone();
        patch.apply_to(&mut rebuilt);
        assert_eq!(rebuilt.roots, pair[1].roots);
        // It also survives the wire.
        let json = serde_json::to_string(&patch).unwrap();
        let back: Patch = serde_json::from_str(&json).unwrap();
        assert_eq!(back, patch);
    }
    let inserted = trees[1].diff(&trees[0]);
    assert_eq!(
        inserted
            .added
            .iter()
            .map(|f| f.node.id.as_str())
            .collect::<Vec<_>>(),
        ["list/c"]
    );
    assert_eq!(inserted.updated.len(), 1, "the list's child ids changed");
    assert_eq!(
        inserted.updated[0].fields.keys().collect::<Vec<_>>(),
        ["childIds"]
    );
    let removed = trees[2].diff(&trees[1]);
    assert_eq!(removed.removed.len(), 3);
    assert!(removed.roots.is_some());
    assert!(trees[4].diff(&trees[3]).is_empty());
}

#[test]
fn a_field_that_goes_away_is_sent_as_null() {
    let mut harness = Harness::new(10, 1);
    let before = harness.render(|_| {
        taria::leaf(|n| {
            n.id("x").label("has a label").selected(true);
        });
    });
    let after = harness.render(|_| {
        taria::leaf(|n| {
            n.id("x");
        });
    });
    let patch = after.diff(&before);
    assert_eq!(patch.updated[0].fields["label"], Json::Null);
    assert_eq!(patch.updated[0].fields["selected"], Json::Null);
    let mut rebuilt = before.clone();
    patch.apply_to(&mut rebuilt);
    assert_eq!(rebuilt.roots, after.roots);
}

#[test]
fn a_malformed_update_is_skipped_not_a_panic() {
    let mut harness = Harness::new(10, 1);
    let tree = harness.render(draw(&["a"], None));
    let mut flat = FlatTree::from_tree(&tree);
    let mut fields = Map::new();
    fields.insert("role".into(), Json::from(42));
    fields.insert("childIds".into(), Json::from("not a list"));
    let patch = Patch {
        updated: vec![
            NodeUpdate {
                id: "list".into(),
                fields,
            },
            NodeUpdate {
                id: "ghost".into(),
                fields: Map::new(),
            },
        ],
        roots: Some(vec!["list".into(), "ghost".into(), "list".into()]),
        ..Patch::default()
    };
    flat.apply(&patch);
    assert_eq!(
        flat.to_tree().roots,
        tree.roots,
        "bad fields and dangling ids are ignored"
    );
}

#[test]
fn an_update_cannot_change_a_nodes_id() {
    let mut harness = Harness::new(10, 1);
    let tree = harness.render(draw(&["a", "b"], None));
    let mut flat = FlatTree::from_tree(&tree);
    let mut fields = Map::new();
    fields.insert("id".into(), Json::from("list/b"));
    fields.insert("label".into(), Json::from("renamed"));
    flat.apply(&Patch {
        updated: vec![NodeUpdate {
            id: "list/a".into(),
            fields,
        }],
        ..Patch::default()
    });
    let after = flat.to_tree();
    let ids: Vec<&str> = after.roots[0]
        .children
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(
        ids,
        ["list/a", "list/b"],
        "two nodes still answer to two ids"
    );
    assert_eq!(after.roots[0].children[0].label.as_deref(), Some("renamed"));
}
