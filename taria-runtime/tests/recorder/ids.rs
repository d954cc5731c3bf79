//! Ids: derived from the parent chain and keys, explicit ones winning, empty ones
//! ignored, keys as one segment, duplicates renamed and reported, position keys.

use taria::node::Diagnostic;
use taria::testing::Harness;
use taria::widget::Recorder;
use taria::{Action, Role};

use crate::button;

#[test]
fn ids_derive_from_the_parent_chain_and_keys_are_stable() {
    let tree = Harness::new(10, 10).render(|_| {
        let _list = taria::scope(|n| {
            n.role(Role::List).id("files");
        });
        for name in ["a.txt", "b.txt"] {
            let _dir = taria::scope(|n| {
                n.role(Role::TreeItem).key(name);
            });
            taria::leaf(|n| {
                n.role(Role::Text);
            });
        }
    });
    let ids: Vec<(&str, bool)> = tree.iter().map(|n| (n.id.as_str(), n.stable)).collect();
    assert_eq!(
        ids,
        [
            ("files", true),
            ("files/a.txt", true),
            ("files/a.txt/text#0", false),
            ("files/b.txt", true),
            ("files/b.txt/text#0", false),
        ]
    );
}

#[test]
fn an_explicit_id_wins_over_a_key_whatever_the_order() {
    let tree = Harness::new(10, 1).render(|_| {
        taria::leaf(|n| {
            n.id("save").key("k");
        });
        taria::leaf(|n| {
            n.key("k").id("open");
        });
    });
    assert!(tree.get("save").is_some());
    assert!(tree.get("open").is_some());
}

#[test]
fn an_empty_key_or_id_leaves_the_id_as_it_was() {
    let tree = Harness::new(10, 1).render(|_| {
        let _list = taria::scope(|n| {
            n.role(Role::List).id("list");
        });
        taria::leaf(|n| {
            n.role(Role::ListItem).key("a").key("");
        });
        taria::leaf(|n| {
            n.role(Role::ListItem).id("b").id("");
        });
        taria::leaf(|n| {
            n.role(Role::ListItem).key("");
        });
    });
    let ids: Vec<(&str, bool)> = tree.iter().map(|n| (n.id.as_str(), n.stable)).collect();
    assert_eq!(
        ids,
        [
            ("list", true),
            ("list/a", true),
            ("b", true),
            ("list/list_item#2", false),
        ]
    );
}

#[test]
fn a_key_in_parts_is_one_segment_whatever_its_parts_hold() {
    let tree = Harness::new(10, 1).render(|_| {
        let _list = taria::scope(|n| {
            n.role(Role::List).id("list");
        });
        for key in [("a/", 1), ("50%", 2), ("b", 3)] {
            taria::leaf(|n| {
                n.role(Role::ListItem).key(key);
            });
        }
        taria::leaf(|n| {
            n.role(Role::ListItem).key((4u8, 5i64, true));
        });
    });
    let ids: Vec<&str> = tree.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "list",
            "list/a%2F1",
            "list/50%252",
            "list/b3",
            "list/45true"
        ]
    );
}

#[test]
fn a_key_after_a_nested_scope_follows_its_own_parent_again() {
    let tree = Harness::new(10, 1).render(|_| {
        let _outer = taria::scope(|n| {
            n.role(Role::List).id("outer");
        });
        taria::leaf(|n| {
            n.role(Role::ListItem).key(1);
        });
        {
            let _inner = taria::scope(|n| {
                n.role(Role::List).key("inner");
            });
            taria::leaf(|n| {
                n.role(Role::ListItem).key(2);
            });
        }
        taria::leaf(|n| {
            n.role(Role::ListItem).key(3);
        });
        taria::leaf(|n| {
            n.role(Role::ListItem);
        });
    });
    let ids: Vec<&str> = tree.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(
        ids,
        [
            "outer",
            "outer/1",
            "outer/inner",
            "outer/inner/2",
            "outer/3",
            "outer/list_item#3"
        ]
    );
}

#[test]
fn duplicate_ids_are_renamed_and_reported_not_merged() {
    let tree = Harness::new(10, 1).render(|_| {
        button("save");
        button("save");
        button("save");
    });
    let ids: Vec<&str> = tree.iter().map(|n| n.id.as_str()).collect();
    assert_eq!(ids, ["save", "save~2", "save~3"]);
    assert!(!tree.get("save~2").unwrap().stable);
    assert_eq!(
        tree.diagnostics,
        [
            Diagnostic::DuplicateId {
                id: "save".into(),
                renamed_to: "save~2".into()
            },
            Diagnostic::DuplicateId {
                id: "save".into(),
                renamed_to: "save~3".into()
            },
        ]
    );
}

#[test]
fn a_position_key_names_the_item_by_its_index_and_marks_it_positional() {
    let mut recorder = Recorder::new();
    recorder.record(|| {
        let _rows = taria::scope(|n| {
            n.role(Role::Table).id("rows");
        });
        taria::leaf(|n| {
            n.role(Role::Row).position_key(120).action(Action::Select);
        });
        taria::leaf(|n| {
            n.role(Role::Row)
                .position_key(121)
                .id("pinned")
                .action(Action::Select);
        });
    });
    let tree = recorder.tree();
    let row = tree.get("rows/120").unwrap();
    assert!(!row.stable);
    assert!(tree.get("pinned").unwrap().stable, "an explicit id wins");
    assert!(tree.outline().contains("[id=rows/120 positional]"));
}
