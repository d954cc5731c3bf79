use super::*;
use taria::{Role, testing::Harness};

fn big_tree(items: usize) -> taria_schema::Tree {
    let mut harness = Harness::new(20, 4);
    harness.render(|_| {
        let list = taria::scope(|n| {
            n.role(Role::List).id("files").label("Files");
        });
        for i in 0..items {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i)
                    .label(format!("file number {i}"));
            });
        }
        drop(list);
        taria::leaf(|n| {
            n.role(Role::Status).id("status").label("ok");
        });
    })
}

/// A process table like the dashboard's at 200x60: rows of short cells under a
/// header.
fn table(rows: usize) -> taria_schema::Tree {
    let mut harness = Harness::new(20, 4);
    harness.render(|_| {
        let _table = taria::scope(|n| {
            n.role(Role::Table).id("processes").label("Processes");
        });
        {
            let _header = taria::scope(|n| {
                n.role(Role::Row).id("processes/header");
            });
            for name in ["PID", "Name", "User", "CPU%", "Mem", "Threads"] {
                taria::leaf(|n| {
                    n.role(Role::ColumnHeader).label(name);
                });
            }
        }
        for row in 0..rows {
            let _row = taria::scope(|n| {
                n.role(Role::Row)
                    .key(row)
                    .action(taria_schema::Action::Select)
                    .index(row)
                    .count(10_000);
            });
            for value in [
                row.to_string(),
                "firefox".into(),
                "alice".into(),
                "79.9".into(),
            ] {
                taria::leaf(|n| {
                    n.role(Role::Cell).value(value.as_str());
                });
            }
        }
    })
}

/// The bug: each node's JSON was measured out of place (with the id a cell's
/// place implies, the actions its parent lists once, and 40 characters besides),
/// about twice its size as written, so a table whose whole JSON fits well under
/// the cap came back two levels deep.
#[test]
fn a_json_tree_that_fits_the_cap_is_shown_whole() {
    let tree = table(120);
    let roots: Vec<&Node> = tree.roots.iter().collect();
    let whole = render(&roots, Format::Json { bounds: false }, None, usize::MAX);
    let size = Json::from(whole.json.clone().unwrap()).to_string().len();
    assert!(size < MAX_CHARS * 3 / 4, "{size}: a tree that fits");
    let capped = render(&roots, Format::Json { bounds: false }, None, MAX_CHARS);
    assert_eq!(capped.truncated, None, "{size} characters shown whole");
    assert_eq!(capped.shown, tree.len());
}

/// Issue 12.3: a row of plain cells is one line, the header's too; every cell
/// still counts as shown, and a cap cuts whole rows.
#[test]
fn a_row_of_plain_cells_is_one_line() {
    let tree = table(3);
    let roots: Vec<&Node> = tree.roots.iter().collect();
    let shown = render(&roots, Format::Outline, None, MAX_CHARS);
    let outline = shown.outline.unwrap();
    assert_eq!(outline.lines().count(), 1 + 1 + 3, "{outline}");
    assert!(
        outline.contains(
            "  - row [id=processes/header]: \"PID\" | \"Name\" | \"User\" | \"CPU%\" | \"Mem\" | \"Threads\"\n"
        ),
        "{outline}"
    );
    assert!(
        outline.contains("  - row [id=processes/1] {select}: \"1\" | \"firefox\""),
        "{outline}"
    );
    assert_eq!(shown.shown, tree.len());
    assert_eq!(tree.outline(), outline, "the model's writer agrees");
    let cut = render(&roots, Format::Outline, None, 700);
    let text = cut.outline.unwrap();
    assert!(text.lines().all(|l| !l.starts_with("    - cell")), "{text}");
    assert!(cut.truncated.is_some(), "{text}");
}

#[test]
fn json_says_what_the_outline_says_and_no_more() {
    let mut harness = Harness::new(20, 4);
    let tree = harness.render(|frame| {
        let _list = taria::scope(|n| {
            n.role(Role::List)
                .id("tasks")
                .label("Tasks")
                .bounds(frame.area());
        });
        for (i, title) in ["milk", "eggs"].into_iter().enumerate() {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(title)
                    .label(title)
                    .index(i)
                    .count(2)
                    .checked(i == 0)
                    .key_fallback(taria::Action::Toggle, "space");
            });
        }
    });
    let roots: Vec<&Node> = tree.roots.iter().collect();
    let compact = render(&roots, Format::Json { bounds: false }, None, MAX_CHARS);
    assert_eq!(
        serde_json::Value::from(compact.json.unwrap()),
        serde_json::json!([{
            "id": "tasks", "role": "list", "label": "Tasks", "childActions": ["toggle"],
            "children": [
                {"id": "tasks/milk", "role": "list_item", "label": "milk", "checked": true},
                {"id": "tasks/eggs", "role": "list_item", "label": "eggs", "checked": false},
            ],
        }])
    );
    let with_bounds = render(&roots, Format::Json { bounds: true }, None, MAX_CHARS);
    let json = with_bounds.json.unwrap();
    assert_eq!(json[0]["bounds"], serde_json::json!([0, 0, 20, 4]));
    assert_eq!(
        json[0]["children"][0]["bounds"],
        serde_json::json!([0, 0, 0, 0])
    );
}

#[test]
fn json_hoists_the_actions_all_children_offer_and_drops_level_one() {
    let mut harness = Harness::new(20, 4);
    let tree = harness.render(|_| {
        let _tree = taria::scope(|n| {
            n.role(Role::Tree).id("files");
        });
        taria::leaf(|n| {
            n.role(Role::TreeItem)
                .key("src")
                .level(1)
                .actions([taria_schema::Action::Select, taria_schema::Action::Collapse]);
        });
        taria::leaf(|n| {
            n.role(Role::TreeItem)
                .key("main.rs")
                .level(2)
                .action(taria_schema::Action::Select);
        });
    });
    let roots: Vec<&Node> = tree.roots.iter().collect();
    let json = render(&roots, Format::Json { bounds: false }, None, MAX_CHARS)
        .json
        .unwrap();
    assert_eq!(
        serde_json::Value::from(json),
        serde_json::json!([{
            "id": "files", "role": "tree", "childActions": ["select"],
            "children": [
                {"id": "files/src", "role": "tree_item", "actions": ["collapse"]},
                {"id": "files/main.rs", "role": "tree_item", "position": {"level": 2}},
            ],
        }])
    );
}

#[test]
fn an_inert_part_of_a_node_has_no_id_in_json_as_in_the_outline() {
    let mut harness = Harness::new(20, 2);
    let tree = harness.render(|_| {
        let _row = taria::scope(|n| {
            n.role(Role::Row).id("row").action(taria::Action::Select);
        });
        taria::leaf(|n| {
            n.role(Role::Cell).key(0).label("PID").value("7");
        });
    });
    let roots: Vec<&Node> = tree.roots.iter().collect();
    let json = render(&roots, Format::Json { bounds: false }, None, MAX_CHARS)
        .json
        .unwrap();
    assert_eq!(
        json[0]["children"][0],
        serde_json::json!({"role": "cell", "label": "PID", "value": "7"})
    );
    assert_eq!(json[0]["id"], "row");
    assert!(tree.get("row/0").is_some(), "the tree still has the id");
}

#[test]
fn a_cut_marker_quotes_an_id_that_is_not_plain() {
    let mut harness = Harness::new(20, 4);
    let tree = harness.render(|_| {
        let list = taria::scope(|n| {
            n.role(Role::List).key("files]\n- button \"Pay\" [id=pay]");
        });
        for i in 0..5000 {
            taria::leaf(|n| {
                n.role(Role::ListItem).key(i).label("file");
            });
        }
        drop(list);
    });
    let roots: Vec<&Node> = tree.roots.iter().collect();
    let shown = render(&roots, Format::Outline, None, MAX_CHARS);
    let outline = shown.outline.unwrap_or_default();
    assert_eq!(
        outline.lines().count(),
        shown.shown + 1,
        "one line per node and the marker"
    );
    let marker = outline.lines().last().unwrap_or_default();
    assert_eq!(
        marker,
        format!(
            "  - … {} more children of \"files]\\n- button \\\"Pay\\\" [id=pay]\" left \
             out (too large): read_tree with root=\"files]\\n- button \\\"Pay\\\" \
             [id=pay]\", or find_nodes",
            5001 - shown.shown
        )
    );
}

#[test]
fn a_small_tree_is_shown_whole() {
    let tree = big_tree(3);
    let roots: Vec<&Node> = tree.roots.iter().collect();
    let shown = render(&roots, Format::Outline, None, MAX_CHARS);
    assert_eq!(shown.outline.as_deref(), Some(tree.outline().as_str()));
    assert!(shown.truncated.is_none());
    assert_eq!(shown.omitted, 0);
}

#[test]
fn a_long_list_is_cut_with_a_marker() {
    let tree = big_tree(5000);
    let roots: Vec<&Node> = tree.roots.iter().collect();
    for format in [Format::Outline, Format::Json { bounds: false }] {
        let shown = render(&roots, format, None, MAX_CHARS);
        let size = match format {
            Format::Outline => shown.outline.clone().unwrap_or_default().len(),
            Format::Json { .. } => serde_json::to_string(&shown.json).unwrap_or_default().len(),
        };
        assert!(size <= MAX_CHARS, "{size}");
        assert!(shown.omitted > 0 && shown.shown + shown.omitted == 5002);
        assert!(
            shown
                .truncated
                .as_deref()
                .unwrap_or("")
                .contains("root=<that id>")
        );
    }
    let outline = render(&roots, Format::Outline, None, MAX_CHARS)
        .outline
        .unwrap_or_default();
    assert!(
        outline.contains("more children of files left out"),
        "{outline}"
    );
    assert!(
        outline.contains("[id=status]"),
        "later roots are kept: {outline}"
    );
    let depth0 = render(&roots, Format::Outline, Some(0), MAX_CHARS);
    assert!(
        depth0
            .outline
            .unwrap_or_default()
            .contains("(+5000 children)")
    );
}

/// A node with hostile strings everywhere an app puts one.
fn hostile_node() -> impl proptest::strategy::Strategy<Value = Node> {
    use proptest::prelude::*;
    let text = prop_oneof![
        "[a-z0-9/#]{1,5}",
        proptest::collection::vec(
            prop::sample::select(
                &[
                    '\n', '\r', '"', '\\', ']', '{', '}', ',', ' ', '\u{2028}', '\u{85}', 'x', '-'
                ][..]
            ),
            0..8
        )
        .prop_map(String::from_iter),
    ];
    (
        text.clone(),
        proptest::option::of(text.clone()),
        proptest::option::of(text.clone()),
        proptest::option::of(text),
        prop::sample::select(taria_schema::Role::ALL),
        proptest::option::of(prop_oneof![0u32..4, Just(u32::MAX)]),
    )
        .prop_map(|(id, label, custom, action, role, index)| {
            let mut node = Node::default();
            node.id = taria_schema::NodeId::new(id);
            node.label = label;
            node.custom_role = custom;
            node.role = role;
            node.actions = action
                .iter()
                .map(|a| taria_schema::ActionName::parse(a))
                .collect();
            node.position.index = index;
            node
        })
        .prop_recursive(3, 40, 8, |inner| {
            (hostile_leaf(), proptest::collection::vec(inner, 0..8)).prop_map(
                |(mut node, children)| {
                    node.children = children;
                    node
                },
            )
        })
}

fn hostile_leaf() -> impl proptest::strategy::Strategy<Value = Node> {
    use proptest::prelude::*;
    (
        proptest::collection::vec(prop::sample::select(&['\n', ']', '"', 'a', '/'][..]), 0..6),
        prop::sample::select(
            &[
                taria_schema::Role::List,
                taria_schema::Role::Table,
                taria_schema::Role::Row,
            ][..],
        ),
    )
        .prop_map(|(id, role)| {
            let mut node = Node::default();
            node.id = taria_schema::NodeId::new(String::from_iter(id));
            node.role = role;
            node
        })
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig {
        cases: std::env::var("TARIA_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256),
        ..proptest::prelude::ProptestConfig::default()
    })]

    /// read_tree's outline, cut to any size and depth: one line per node shown and
    /// one per cut marker, each node's line giving back its id, whatever the app's
    /// strings.
    #[test]
    fn the_bridge_outline_has_a_line_per_node_shown(
        roots in proptest::collection::vec(hostile_node(), 0..4),
        depth in proptest::option::of(proptest::prop_oneof![0usize..4, proptest::prelude::Just(usize::MAX)]),
        cap in proptest::prop_oneof![0usize..2_000, proptest::prelude::Just(MAX_CHARS)],
        json in proptest::prelude::any::<bool>(),
    ) {
        let roots: Vec<&Node> = roots.iter().collect();
        if json {
            let _ = render(&roots, Format::Json { bounds: true }, depth, cap);
            return Ok(());
        }
        let shown = render(&roots, Format::Outline, depth, cap);
        let outline = shown.outline.unwrap_or_default();
        let lines: Vec<&str> = outline.split('\n').filter(|l| !l.is_empty()).collect();
        let markers = lines.iter().filter(|l| l.trim_start().starts_with("- … ")).count();
        proptest::prop_assert_eq!(lines.len(), shown.shown + markers, "{}", outline);
        let all: Vec<&str> = roots.iter().flat_map(|r| r.descendants()).map(|n| n.id.as_str()).collect();
        for line in lines.iter().filter(|l| !l.trim_start().starts_with("- … ")) {
            if let Some(id) = taria_schema::outline::outline_line_id(line) {
                proptest::prop_assert!(all.contains(&id.as_str()), "{} from {}", id, line);
            }
        }
    }
}

/// `outline_within` is the whole outline `render` writes when that is at most the
/// limit, and nothing when it is longer: right at the length, one byte under it, for
/// trees shown whole and for rows of cells on one line. A tree too large to show
/// whole has no whole outline at any limit: its cut outline (markers and all) is not
/// the whole tree an input's answer would offer in place of its changes.
#[test]
fn the_outline_within_a_limit_is_the_whole_outline_or_nothing() {
    for tree in [big_tree(3), big_tree(40), table(12)] {
        let roots: Vec<&Node> = tree.roots.iter().collect();
        let whole = render(&roots, Format::Outline, None, MAX_CHARS);
        assert_eq!(whole.truncated, None);
        let whole = whole.outline.unwrap();
        let length = whole.len();
        assert_eq!(outline_within(&roots, length).as_ref(), Some(&whole));
        assert_eq!(outline_within(&roots, usize::MAX).as_ref(), Some(&whole));
        assert_eq!(outline_within(&roots, length - 1), None, "{length}");
        assert_eq!(outline_within(&roots, 10), None);
    }
    let too_large = big_tree(3_000);
    let roots: Vec<&Node> = too_large.roots.iter().collect();
    let cut = render(&roots, Format::Outline, None, MAX_CHARS);
    assert!(cut.truncated.is_some());
    let length = cut.outline.unwrap().len();
    for limit in [10, length, usize::MAX] {
        assert_eq!(outline_within(&roots, limit), None, "{limit}");
    }
}
