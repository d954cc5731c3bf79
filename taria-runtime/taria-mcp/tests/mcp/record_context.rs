//! What a `--record` file says beyond each input (issue 23): the node each act was
//! aimed at, the calls the bridge refused itself, the terminal's resizes, and how a
//! spawned app exited and what it printed.

use serde_json::{Value, json};
use taria::Role;
use taria_schema::recording::{
    InputTool, RecordedLine, RecordedRefusal, RecordedSize, RecordedTarget, Recording,
};

use crate::harness::{Mcp, RunningApp};
use crate::record::{finished, recording_path, spawn_recorded};

fn refusals(recording: &Recording) -> Vec<&RecordedRefusal> {
    recording
        .lines
        .iter()
        .filter_map(|line| match line {
            RecordedLine::Refused(refusal) => Some(&**refusal),
            _ => None,
        })
        .collect()
}

/// An act carries the role and label of the node at its id (what a replay checks
/// the id still names); a key names no node.
#[test]
fn each_act_carries_the_node_it_was_aimed_at() {
    let app = RunningApp::start("record-target");
    let path = recording_path("record-target");
    let mut mcp = Mcp::start(&app.socket, &["--record", path.to_str().unwrap()]);
    mcp.ok("read_tree", json!({}));
    mcp.ok(
        "act",
        json!({"node": "tasks/list_item#1", "action": "archive"}),
    );
    mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 4}),
    );
    mcp.ok("press_key", json!({"key": "x"}));
    let recording = finished(mcp, &path);
    let targets: Vec<Option<&RecordedTarget>> = recording
        .inputs()
        .map(|input| input.target.as_ref())
        .collect();
    let target = |role, label: &str| {
        Some(RecordedTarget {
            role,
            label: Some(label.into()),
        })
    };
    assert_eq!(
        targets,
        [
            target(Role::ListItem, "Walk dog").as_ref(),
            target(Role::Slider, "Volume").as_ref(),
            None
        ]
    );
}

/// A call the bridge refused is a `refused` line in its place, with its code, its
/// message and its arguments; a batch refused at a step says which, after the steps
/// it sent. The app's own refusals stay input lines.
#[test]
fn the_bridges_refusals_are_lines_in_their_place() {
    let app = RunningApp::start("record-refused");
    let path = recording_path("record-refused");
    let mut mcp = Mcp::start(&app.socket, &["--record", path.to_str().unwrap()]);
    mcp.ok("read_tree", json!({}));
    mcp.fails(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 11}),
        "out_of_domain",
    );
    mcp.fails(
        "act",
        json!({"node": "tasks/9", "action": "archive"}),
        "not_found",
    );
    mcp.fails(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "volume", "action": "set_value", "value": 2},
            {"tool": "act", "node": "locked", "action": "activate"},
        ]}),
        "disabled",
    );
    mcp.fails(
        "act",
        json!({"node": "refuse", "action": "activate"}),
        "app_rejected",
    );
    mcp.fails("press_key", json!({"key": "ctrl+"}), "invalid_arguments");
    let recording = finished(mcp, &path);
    let refused: Vec<(u64, InputTool, Option<u64>, &str, Value)> = refusals(&recording)
        .iter()
        .map(|r| {
            let arguments = Value::Object(r.arguments.clone());
            (r.call, r.tool, r.step, r.code.as_str(), arguments)
        })
        .collect();
    assert_eq!(
        refused,
        [
            (
                2,
                InputTool::Act,
                None,
                "out_of_domain",
                json!({"node": "volume", "action": "set_value", "value": 11})
            ),
            (
                3,
                InputTool::Act,
                None,
                "not_found",
                json!({"node": "tasks/9", "action": "archive"})
            ),
            (
                4,
                InputTool::Batch,
                Some(2),
                "disabled",
                json!({"steps": [
                    {"tool": "act", "node": "volume", "action": "set_value", "value": 2},
                    {"tool": "act", "node": "locked", "action": "activate"},
                ]})
            ),
            (
                6,
                InputTool::PressKey,
                None,
                "invalid_arguments",
                json!({"key": "ctrl+"})
            ),
        ]
    );
    let messages: Vec<&str> = refusals(&recording)
        .iter()
        .map(|r| r.message.as_deref().unwrap_or_default())
        .collect();
    assert!(messages[0].contains("11"), "{messages:?}");
    assert!(
        messages[2].starts_with("step 2 of 2 (act locked activate) failed"),
        "{messages:?}"
    );
    // In their place: the batch's first step (an input) before its refusal, the app's
    // refusal an input line of its own (with the warning its handler logs).
    let kinds: Vec<&str> = recording
        .lines
        .iter()
        .map(|line| match line {
            RecordedLine::Tree(_) => "tree",
            RecordedLine::Input(_) => "input",
            RecordedLine::Read(_) => "read",
            RecordedLine::Refused(_) => "refused",
            RecordedLine::Log(_) => "log",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "tree", "read", "refused", "refused", "input", "refused", "input", "log", "refused"
        ]
    );
}

/// A resize is a line in its place, with the tree the app drew at the new size.
#[test]
fn a_resize_is_a_line_with_the_tree_drawn_at_the_new_size() {
    let path = recording_path("record-resize");
    let mut mcp = spawn_recorded(&path);
    mcp.ok("read_tree", json!({}));
    let resized = mcp.ok("resize", json!({"cols": 90, "rows": 25}));
    assert_eq!(resized["changed"], true, "{resized}");
    mcp.ok(
        "act",
        json!({"node": "tasks/list_item#1", "action": "toggle"}),
    );
    let recording = finished(mcp, &path);
    let resize = recording
        .lines
        .iter()
        .find_map(|line| match line {
            RecordedLine::Resize(resize) => Some(resize),
            _ => None,
        })
        .expect("a resize line");
    assert_eq!(
        (resize.call, resize.size),
        (
            2,
            RecordedSize {
                width: 90,
                height: 25
            }
        )
    );
    let tree = resize.tree.as_ref().expect("the tree at the new size");
    assert_eq!(
        RecordedSize::of_tree(tree),
        RecordedSize {
            width: 90,
            height: 25
        }
    );
    assert!(
        recording
            .lines
            .iter()
            .all(|line| !matches!(line, RecordedLine::Read(read) if read.tool == "resize")),
        "no longer a read"
    );
    let kinds: Vec<bool> = recording
        .lines
        .iter()
        .map(|line| matches!(line, RecordedLine::Resize(_)))
        .collect();
    assert_eq!(
        kinds,
        [false, false, true, false],
        "between the read and the act"
    );
}

/// The `app` line of a spawned app that exited says its exit status and what it
/// printed after leaving its screen.
#[test]
fn a_spawned_apps_exit_and_last_output_are_in_its_app_line() {
    let path = recording_path("record-exit");
    let record = ["--record", path.to_str().unwrap()];
    let mut mcp = crate::spawn::launch_app_that_prints_its_result_and_exits(&record);
    mcp.ok("read_tree", json!({}));
    mcp.ok("act", json!({"node": "submit", "action": "activate"}));
    mcp.fails("read_tree", json!({}), "app_exited");
    let recording = finished(mcp, &path);
    let apps: Vec<_> = recording
        .lines
        .iter()
        .filter_map(|line| match line {
            RecordedLine::App(app) => Some(app),
            _ => None,
        })
        .collect();
    assert_eq!(apps.len(), 1, "{apps:?}");
    assert_eq!(apps[0].exit_code, Some(4), "{apps:?}");
    assert_eq!(apps[0].signal, None);
    assert_eq!(
        apps[0].output.as_deref(),
        Some(r#"{"name":"Ada","plan":"Team"}"#)
    );
    assert_eq!(apps[0].exit().as_deref(), Some("exit status 4"));
}
