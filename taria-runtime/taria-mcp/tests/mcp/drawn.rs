//! Issue 20.5: the tree an agent reads through the bridge says nothing the screen does
//! not show, for the example apps that have no headless harness of their own (the
//! ported apps, before-after, rebuilt): each node with bounds shows its label or value
//! inside them on the screen `read_screen` returns (`taria::testing::undrawn_text`, the
//! check the other examples' headless tests make with `AppHarness::assert_text_drawn`).
//! Issue 21.6: nor does it say anything twice: no two nodes share their bounds and
//! their text (a popup's text in the dialog and again beside it;
//! `taria::testing::duplicate_nodes`, which the headless tests assert with
//! `AppHarness::assert_no_duplicate_nodes`).
//! Issue 34.4: and each passes the accessibility lint (`taria::testing::inaccessible_nodes`:
//! inputs labelled, whatever acts named, the focus on screen), as the other examples'
//! headless tests do with `AppHarness::assert_accessible`.

use ratatui::buffer::Buffer;
use serde_json::{Value, json};
use taria::Tree;
use taria_schema::recording::{RecordedLine, Recording};

use crate::harness::Mcp;
use crate::spawn::example_app;

const COLS: usize = 100;
const ROWS: usize = 30;

/// Each app in the bridge's pty at 100x30, its first tree (the `--record` file keeps
/// the tree as the app sent it, bounds included) against the screen read in the same
/// frame; the popup also with its popup open, the tree after the `act` that opened it
/// against the screen read after it.
#[test]
#[ignore = "needs the ported apps built as apps (`cargo test` builds them as tests): .ci/run \
            runs it after `cargo build --workspace --all-features --examples`"]
fn every_example_app_shows_its_text_where_the_tree_says_through_the_bridge() {
    let opening = [json!({"node": "list#0/7", "action": "activate"})];
    let apps: [(&str, &[Value]); 11] = [
        ("before-after", &[]),
        ("lazy", &[]),
        ("checklist", &[]),
        ("signup", &[]),
        ("contacts", &[]),
        ("chat", &[]),
        ("mixer", &[]),
        ("demo", &[]),
        ("rebuilt", &[]),
        ("popup", &opening),
        ("typing", &[]),
    ];
    for (app, acts) in apps {
        for (tree, screen) in trees_and_screens(app, acts) {
            let undrawn = taria::testing::undrawn_text(&tree, &screen);
            assert!(
                undrawn.is_empty(),
                "{app}: the text of these nodes is not drawn inside their bounds: {undrawn:#?}\n{}",
                tree.outline()
            );
            let lint = taria::testing::inaccessible_nodes(&tree, &screen);
            assert!(
                lint.is_empty(),
                "{app}: the accessibility lint finds these nodes: {lint:#?}\n{}",
                tree.outline()
            );
            let twice = taria::testing::duplicate_nodes(&tree);
            assert!(
                twice.is_empty(),
                "{app}: these nodes share their bounds and their text: {twice:#?}\n{}",
                tree.outline()
            );
        }
    }
}

/// The app's first tree and, after each of `acts` (delivered), the tree the app drew
/// after it, each with the screen of the same frame.
fn trees_and_screens(app: &str, acts: &[Value]) -> Vec<(Tree, Buffer)> {
    let path = example_app(app);
    let record = crate::support::temp_dir(&format!("drawn-{app}")).join("session.jsonl");
    let (cols, rows) = (COLS.to_string(), ROWS.to_string());
    let mut mcp = Mcp::launch(&[
        "--cols",
        &cols,
        "--rows",
        &rows,
        "--record",
        record.to_str().unwrap(),
        "--",
        &path,
    ]);
    let tree = mcp.ok("read_tree", json!({}));
    let mut screens = vec![screen_of(app, &mut mcp, &tree)];
    for act in acts {
        let done = mcp.ok("act", act.clone());
        assert_eq!(done["status"], "delivered", "{app}: {act} -> {done}");
        screens.push(screen_of(app, &mut mcp, &done));
    }
    mcp.finish();
    let recording = Recording::read(&record).unwrap();
    let trees = recording.lines.into_iter().filter_map(|line| match line {
        RecordedLine::Tree(first) => Some(first.tree),
        RecordedLine::Input(input) => input.tree,
        _ => None,
    });
    let pairs: Vec<(Tree, Buffer)> = trees.zip(screens).collect();
    assert_eq!(pairs.len(), acts.len() + 1, "{app}: a tree for each screen");
    pairs
}

/// The screen the app drew in the frame of `result` (a read or an input's result).
fn screen_of(app: &str, mcp: &mut Mcp, result: &Value) -> Buffer {
    let screen = mcp.ok("read_tree", json!({"format": "screen"}));
    assert_eq!(
        screen["revision"], result["revision"],
        "{app}: the same frame"
    );
    let rows: Vec<String> = screen["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|row| format!("{:<COLS$}", row.as_str().unwrap()))
        .chain(std::iter::repeat(" ".repeat(COLS)))
        .take(ROWS)
        .collect();
    Buffer::with_lines(rows)
}
