//! Queries and the outline: matching by role, label, state and action; what the
//! outline writes and what it leaves to the lines around.

use taria::testing::Harness;
use taria::widget::Recorder;
use taria::{Action, Query, Role, StateFlags};
use taria_schema::outline::OutlineRules as _;

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
