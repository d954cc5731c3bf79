//! The recorder: ids, nesting, limits, modal dialogs, the disabled path.

use taria::builder::MAX_DEPTH;
use taria::node::Diagnostic;
use taria::testing::Harness;
use taria::widget::Recorder;
use taria::wire::outline::OutlineRules as _;
use taria::{Action, Query, Role, StateFlags};

fn button(id: &str) {
    taria::leaf(|n| {
        n.role(Role::Button)
            .id(id)
            .label(id)
            .action(Action::Activate);
    });
}

#[test]
fn nodes_outside_a_recorded_frame_are_not_recorded() {
    assert!(!taria::widget::is_recording());
    let mut called = false;
    taria::leaf(|_| called = true);
    let _scope = taria::scope(|_| called = true);
    assert!(
        !called,
        "describe closures must not run when nothing records"
    );
}

#[test]
fn a_disabled_recorder_records_nothing_and_runs_no_describe_closure() {
    let mut recorder = Recorder::new();
    recorder.set_enabled(false);
    let mut described = 0;
    let out = recorder.record(|| {
        taria::leaf(|_| described += 1);
        42
    });
    assert_eq!(out, 42);
    assert_eq!(described, 0);
    assert!(recorder.tree().is_empty());
    recorder.set_enabled(true);
    recorder.record(|| button("ok"));
    assert_eq!(recorder.tree().len(), 1);
}

#[test]
fn each_frame_replaces_the_previous_one() {
    let mut recorder = Recorder::new();
    recorder.record(|| button("a"));
    recorder.record(|| button("b"));
    let tree = recorder.tree();
    assert_eq!(tree.frame, 2);
    assert!(tree.get("a").is_none());
    assert!(tree.get("b").is_some());
}

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
fn a_modal_dialog_makes_everything_outside_it_inert() {
    let tree = Harness::new(10, 1).render(|_| {
        let main = taria::scope(|n| {
            n.role(Role::Region).id("main").action(Action::Scroll);
        });
        button("delete");
        drop(main);
        let _dialog = taria::scope(|n| {
            n.role(Role::Dialog)
                .id("confirm")
                .modal(true)
                .action(Action::Dismiss);
        });
        button("yes");
        button("no");
    });
    let actionable: Vec<&str> = tree
        .find_all(&Query::new().action("activate"))
        .iter()
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(actionable, ["yes", "no"]);
    assert!(tree.get("main").unwrap().actions.is_empty());
    assert!(tree.get("confirm").unwrap().offers("dismiss"));
    // What it took actions from is marked (so outlines keep its id); the dialog and
    // what is in it are not.
    let inert: Vec<&str> = tree
        .iter()
        .filter(|n| n.state.inert)
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(inert, ["main", "delete"]);
}

/// A leaf at `area` with `id`, enclosing what follows inside it or not.
fn framed(id: &str, area: ratatui::layout::Rect, encloses: bool) {
    taria::leaf(|n| {
        n.role(Role::Dialog).id(id).bounds(area).encloses(encloses);
    });
}

/// A leaf at `area` keyed `key`.
fn text_at(key: &str, area: ratatui::layout::Rect) {
    taria::leaf(|n| {
        n.role(Role::Text).key(key).label(key).bounds(area);
    });
}

#[test]
fn an_enclosing_leaf_holds_what_is_drawn_inside_it_until_something_is_not() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        let _app = taria::scope(|n| {
            n.role(Role::App).id("app").bounds(Rect::new(0, 0, 40, 10));
        });
        framed("popup", Rect::new(5, 2, 20, 5), true);
        text_at("body", Rect::new(6, 3, 18, 3));
        // A scope inside it: its own children stay its own, wherever they are.
        let inner = taria::scope(|n| {
            n.role(Role::Group)
                .key("buttons")
                .bounds(Rect::new(6, 5, 18, 1));
        });
        text_at("far", Rect::new(0, 9, 5, 1));
        drop(inner);
        text_at("status", Rect::new(0, 9, 40, 1));
        text_at("after", Rect::new(6, 3, 2, 1));
    });
    assert_eq!(
        tree.outline(),
        "- app [id=app]
  - dialog [id=popup]
    - text \"body\"
    - group [id=popup/buttons]
      - text \"far\"
  - text \"status\"
  - text \"after\"
"
    );
    for id in ["popup/body", "popup/buttons/far", "app/status", "app/after"] {
        assert!(tree.get(id).is_some(), "{id}");
    }
}

/// A node the builder gave a derived id while an enclosing leaf was open, then found
/// outside it, takes its id under the parent it ends up with: a key's, a position's
/// and a positional id alike.
#[test]
fn a_node_drawn_outside_an_enclosing_leaf_takes_its_id_under_its_own_parent() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        let _app = taria::scope(|n| {
            n.role(Role::App).id("app").bounds(Rect::new(0, 0, 40, 10));
        });
        framed("popup", Rect::new(5, 2, 20, 5), true);
        taria::leaf(|n| {
            n.role(Role::Status)
                .label("left")
                .bounds(Rect::new(0, 9, 20, 1));
        });
        framed("again", Rect::new(5, 2, 20, 5), true);
        text_at("keyed", Rect::new(0, 8, 5, 1));
        framed("third", Rect::new(5, 2, 20, 5), true);
        taria::leaf(|n| {
            n.role(Role::Text)
                .position_key(7)
                .bounds(Rect::new(0, 7, 5, 1));
        });
    });
    for id in ["app/status#1", "app/keyed", "app/7"] {
        assert!(tree.get(id).is_some(), "{id} in\n{}", tree.outline());
    }
}

#[test]
fn an_enclosing_leaf_closes_with_its_parent_and_a_plain_leaf_encloses_nothing() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        let main = taria::scope(|n| {
            n.role(Role::Region)
                .id("main")
                .bounds(Rect::new(0, 0, 40, 10));
        });
        framed("popup", Rect::new(5, 2, 20, 5), true);
        drop(main);
        // Inside the popup's area, but drawn after its parent closed.
        text_at("late", Rect::new(6, 3, 5, 1));
        framed("plain", Rect::new(5, 2, 20, 5), false);
        text_at("beside", Rect::new(6, 3, 5, 1));
    });
    assert_eq!(
        tree.outline(),
        "- region [id=main]
  - dialog [id=popup]
- text \"late\" [id=late]
- dialog [id=plain]
- text \"beside\" [id=beside]
"
    );
}

#[test]
fn a_modal_enclosing_leaf_leaves_what_is_drawn_inside_it_actionable() {
    use ratatui::layout::Rect;
    let tree = Harness::new(40, 10).render(|_| {
        button("behind");
        taria::leaf(|n| {
            n.role(Role::Dialog)
                .id("confirm")
                .modal(true)
                .bounds(Rect::new(5, 2, 20, 5))
                .encloses(true);
        });
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("yes")
                .action(Action::Activate)
                .bounds(Rect::new(6, 5, 5, 1));
        });
    });
    let actionable: Vec<&str> = tree
        .find_all(&Query::new().action("activate"))
        .iter()
        .map(|n| n.id.as_str())
        .collect();
    assert_eq!(actionable, ["yes"]);
    assert!(tree.get("behind").unwrap().state.inert);
}

#[test]
fn nesting_deeper_than_the_cap_is_cut_and_reported() {
    fn nest(level: usize) {
        let _scope = taria::scope(|n| {
            n.role(Role::Group).key(level);
        });
        if level < MAX_DEPTH + 10 {
            nest(level + 1);
        }
    }
    let tree = Harness::new(10, 1).render(|_| {
        nest(0);
        button("after");
    });
    assert_eq!(tree.len(), MAX_DEPTH + 1);
    assert_eq!(tree.diagnostics, [Diagnostic::DepthLimit { skipped: 11 }]);
    assert_eq!(
        tree.roots.len(),
        2,
        "nodes after the deep branch attach at the right level"
    );
}

#[test]
fn long_labels_are_cut_at_a_character_boundary() {
    let long = "é".repeat(taria::builder::MAX_LABEL_BYTES);
    let tree = Harness::new(10, 1).render(|_| {
        taria::leaf(|n| {
            n.id("x").label(&long);
        });
    });
    let label = tree.get("x").unwrap().label.clone().unwrap();
    assert_eq!(label.len(), taria::builder::MAX_LABEL_BYTES);
    assert!(label.chars().all(|c| c == 'é'));
}

#[test]
fn a_panicking_draw_leaves_the_thread_able_to_record_again() {
    let mut recorder = Recorder::new();
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        recorder.record(|| {
            let _scope = taria::scope(|n| {
                n.id("half");
            });
            panic!("draw failed");
        });
    }));
    assert!(result.is_err());
    assert!(!taria::widget::is_recording());
    recorder.record(|| button("ok"));
    assert_eq!(recorder.tree().roots.len(), 1);
}

#[test]
fn a_nested_recorder_adds_to_the_outer_frame() {
    let mut outer = Recorder::new();
    let mut inner = Recorder::new();
    outer.record(|| {
        button("a");
        inner.record(|| button("b"));
    });
    assert_eq!(outer.tree().len(), 2);
    assert!(inner.tree().is_empty());
}

#[test]
fn recording_inside_a_describe_closure_is_ignored_not_a_panic() {
    let tree = Harness::new(10, 1).render(|_| {
        taria::leaf(|n| {
            n.id("outer");
            button("inner");
        });
    });
    assert_eq!(tree.len(), 1);
}

#[test]
fn queries_match_by_role_label_state_and_action() {
    let tree = Harness::new(10, 3).render(|_| {
        for (i, title) in ["Buy milk", "Walk dog", "Buy bread"]
            .into_iter()
            .enumerate()
        {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i)
                    .label(title)
                    .selected(i == 2)
                    .action(Action::Toggle);
            });
        }
    });
    let buys = tree.find_all(&Query::new().role(Role::ListItem).label("buy"));
    assert_eq!(buys.len(), 2);
    let selected = tree
        .find(&Query::new().state(StateFlags::SELECTED))
        .unwrap();
    assert_eq!(selected.label.as_deref(), Some("Buy bread"));
    assert!(tree.find(&Query::new().action("activate")).is_none());
    assert_eq!(tree.find_all(&Query::new().action("toggle")).len(), 3);
}

#[test]
fn outline_shows_state_values_and_truncated_subtrees() {
    let tree = Harness::new(10, 3).render(|_| {
        let _form = taria::scope(|n| {
            n.role(Role::Form).id("signup").label("Sign up");
        });
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("email")
                .label("Email")
                .value("bob@")
                .required(true)
                .invalid(Some("not an email address"))
                .action(Action::SetValue);
        });
        taria::leaf(|n| {
            n.custom_role("kanban_card", Role::ListItem)
                .id("card")
                .checked(None::<bool>)
                .expanded(false)
                .level(2);
        });
    });
    assert_eq!(
        tree.outline(),
        "- form \"Sign up\" [id=signup]\n  \
         - text_input \"Email\": \"bob@\" [id=email] [required] [invalid=\"not an email address\"] {set_value}\n  \
         - list_item:kanban_card [id=card] [checked=mixed] [collapsed] [level=2]\n"
    );
    assert_eq!(
        tree.roots[0].outline(0),
        "- form \"Sign up\" [id=signup] (+2 children)\n"
    );
}

#[test]
fn outline_leaves_out_only_what_the_lines_around_imply() {
    let tree = Harness::new(10, 3).render(|_| {
        let list = taria::scope(|n| {
            n.role(Role::List).id("rows").action(Action::Scroll);
        });
        // Rows 50..=52 of 1000 are on screen: the first shows where the run starts.
        for i in 50..53 {
            taria::leaf(|n| {
                n.role(Role::Row)
                    .key(i)
                    .index(i)
                    .count(1000)
                    .actions([Action::Select, Action::Activate]);
            });
        }
        // A gap: row 60 states its index again.
        taria::leaf(|n| {
            n.role(Role::Row)
                .key(60)
                .index(60)
                .count(1000)
                .actions([Action::Select, Action::Activate]);
        });
        drop(list);
        let mixed = taria::scope(|n| {
            n.role(Role::Toolbar).id("tools");
        });
        taria::leaf(|n| {
            n.role(Role::Button).id("a").action(Action::Activate);
        });
        taria::leaf(|n| {
            n.role(Role::Button).id("b").action(Action::Toggle);
        });
        drop(mixed);
    });
    assert_eq!(
        tree.outline(),
        "- list [id=rows] {scroll} children{activate, select}\n  \
         - row [id=rows/50] [index=50/1000]\n  \
         - row [id=rows/51]\n  \
         - row [id=rows/52]\n  \
         - row [id=rows/60] [index=60/1000]\n\
         - toolbar [id=tools]\n  \
         - button [id=a] {activate}\n  \
         - button [id=b] {toggle}\n"
    );
    // A line on its own (find_nodes results, act results) leaves nothing out.
    let row = tree.get("rows/51").unwrap();
    assert_eq!(
        row.outline_line(),
        "- row [id=rows/51] [index=51/1000] {activate, select}"
    );
}

#[test]
fn children_share_on_their_parent_line_the_actions_they_all_offer() {
    let tree = Harness::new(10, 3).render(|_| {
        let files = taria::scope(|n| {
            n.role(Role::Tree).id("files").action(Action::Scroll);
        });
        taria::leaf(|n| {
            n.role(Role::TreeItem)
                .key("src")
                .level(1)
                .expanded(true)
                .actions([Action::Select, Action::Collapse]);
        });
        taria::leaf(|n| {
            n.role(Role::TreeItem)
                .key("main.rs")
                .level(2)
                .action(Action::Select);
        });
        taria::leaf(|n| {
            n.role(Role::TreeItem)
                .key("docs")
                .level(1)
                .expanded(false)
                .actions([Action::Expand, Action::Select]);
        });
        drop(files);
    });
    // `select` once on the tree; each item lists only its other actions. Level 1 is
    // the top level, left out.
    assert_eq!(
        tree.outline(),
        "- tree [id=files] {scroll} children{select}\n  \
         - tree_item [id=files/src] [expanded] {collapse}\n  \
         - tree_item [id=files/main.rs] [level=2]\n  \
         - tree_item [id=files/docs] [collapsed] {expand}\n"
    );
    // On its own, a line leaves out nothing that other lines imply.
    assert_eq!(
        tree.get("files/docs").unwrap().outline_line(),
        "- tree_item [id=files/docs] [collapsed] {select, expand}"
    );
    assert_eq!(
        tree.get("files").unwrap().shared_child_actions(),
        [taria::node::ActionName::Core(Action::Select)]
    );
}

#[test]
fn an_action_offered_twice_is_listed_once() {
    let mut recorder = Recorder::new();
    recorder.record(|| {
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .id("note")
                .custom_action("archive")
                .custom_key_fallback("archive", "ctrl+a")
                .custom_action("archive")
                .action(Action::Toggle)
                .key_fallback(Action::Toggle, "space");
        });
    });
    let tree = recorder.tree();
    let note = tree.get("note").unwrap();
    let names: Vec<&str> = note
        .actions
        .iter()
        .map(taria::node::ActionName::as_str)
        .collect();
    assert_eq!(names, ["toggle", "archive"]);
    assert_eq!(note.keys.get("archive").map(String::as_str), Some("ctrl+a"));
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

#[test]
fn a_cell_named_after_its_column_and_a_row_after_its_first_cell_leave_it_to_those_lines() {
    let mut recorder = Recorder::new();
    recorder.record(|| {
        let _table = taria::scope(|n| {
            n.role(Role::Table).id("people");
        });
        {
            let _header = taria::scope(|n| {
                n.role(Role::Row).key("header");
            });
            for name in ["Name", "Age"] {
                taria::leaf(|n| {
                    n.role(Role::ColumnHeader).label(name);
                });
            }
        }
        let _row = taria::scope(|n| {
            n.role(Role::Row)
                .key("ada")
                .label("Ada")
                .action(Action::Select);
        });
        for (column, value) in [("Name", "Ada"), ("Years", "36")] {
            taria::leaf(|n| {
                n.role(Role::Cell).label(column).value(value);
            });
        }
    });
    let tree = recorder.tree();
    assert_eq!(
        tree.outline(),
        "\
- table [id=people]
  - row [id=people/header]: \"Name\" | \"Age\"
  - row [id=people/ada] {select}
    - cell: \"Ada\"
    - cell \"Years\": \"36\"
"
    );
    // The header's plain cells are on its line (issue 12.3); Ada's row keeps its
    // cells as lines, as one of them says more than its text (its own column name).
    // The nodes keep their names; a line on its own says them.
    assert_eq!(
        tree.get("people/ada").unwrap().outline_line(),
        "- row \"Ada\" [id=people/ada] {select}"
    );
    assert_eq!(
        tree.get("people/ada/cell#0").unwrap().outline_line(),
        "- cell \"Name\": \"Ada\" [id=people/ada/cell#0 positional]"
    );
}
