//! Issue 20.5: the tree an agent reads through the bridge says nothing the screen does
//! not show, for the example apps that have no headless harness of their own (the
//! ported apps, before-after, rebuilt): each node with bounds shows its label or value
//! inside them on the screen `read_screen` returns (`taria::testing::undrawn_text`, the
//! check the other examples' headless tests make with `AppHarness::assert_text_drawn`),
//! and no two nodes say the same thing in the same place (`taria::testing::duplicate_nodes`,
//! `AppHarness::assert_no_duplicate_nodes` there).

use ratatui::buffer::Buffer;
use serde_json::json;
use taria::wire::recording::{RecordedLine, Recording};

use crate::harness::Mcp;
use crate::spawn::example_app;

/// Each app in the bridge's pty at 100x30, its first tree (the `--record` file keeps
/// the tree as the app sent it, bounds included) against the screen read in the same
/// frame.
#[test]
#[ignore = "needs the ported apps built as apps (`cargo test` builds them as tests): .ci/run \
            runs it after `cargo build --workspace --all-features --examples`"]
fn every_example_app_shows_its_text_where_the_tree_says_through_the_bridge() {
    for app in [
        "before-after",
        "checklist",
        "signup",
        "contacts",
        "chat",
        "demo",
        "rebuilt",
    ] {
        let path = example_app(app);
        let record = crate::support::temp_dir(&format!("drawn-{app}")).join("session.jsonl");
        let mut mcp = Mcp::launch(&[
            "--cols",
            "100",
            "--rows",
            "30",
            "--record",
            record.to_str().unwrap(),
            "--",
            &path,
        ]);
        let tree = mcp.ok("read_tree", json!({}));
        let screen = mcp.ok("read_screen", json!({}));
        assert_eq!(
            screen["revision"], tree["revision"],
            "{app}: the same frame"
        );
        mcp.finish();
        let rows: Vec<String> = screen["rows"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| format!("{:<100}", row.as_str().unwrap()))
            .chain(std::iter::repeat(" ".repeat(100)))
            .take(30)
            .collect();
        let recording = Recording::read(&record).unwrap();
        let Some(RecordedLine::Tree(first)) = recording.lines.first() else {
            panic!(
                "{app}: the recording starts with no tree: {:?}",
                recording.lines
            );
        };
        let undrawn = taria::testing::undrawn_text(&first.tree, &Buffer::with_lines(rows));
        assert!(
            undrawn.is_empty(),
            "{app}: the text of these nodes is not drawn inside their bounds: {undrawn:#?}\n{}",
            first.tree.outline()
        );
        let duplicates = taria::testing::duplicate_nodes(&first.tree);
        assert!(
            duplicates.is_empty(),
            "{app}: these nodes say the same thing in the same place: {duplicates:#?}\n{}",
            first.tree.outline()
        );
    }
}
