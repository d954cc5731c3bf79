//! `--record FILE` (issue 15.1): the session's inputs, acks, trees and reads, written
//! as a recording that `taria_schema::recording` reads back; a file that cannot be
//! written fails the bridge at start. Secrets left out: `redact.rs`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::{Value, json};
use taria::{Action, Role, Tree};
use taria_schema::protocol::{AckStatus, Input, RejectReason};
use taria_schema::recording::{
    InputTool, RecordedInput, RecordedLine, RecordedSize, Recording, RecordingMode,
};

use crate::harness::{Mcp, RunningApp};
use crate::support;

/// The recording's path in a fresh directory.
pub(crate) fn recording_path(name: &str) -> PathBuf {
    support::temp_dir(name).join("session.jsonl")
}

/// Closes the session (the bridge writes what is left and exits), then reads the file.
pub(crate) fn finished(mcp: Mcp, path: &Path) -> Recording {
    mcp.finish();
    match Recording::read(path) {
        Ok(recording) => recording,
        Err(e) => panic!("{e}: {}", std::fs::read_to_string(path).unwrap_or_default()),
    }
}

fn node_value(tree: &Tree, id: &str) -> Option<Value> {
    tree.get(id)
        .and_then(|node| node.value.as_ref())
        .map(|value| serde_json::to_value(value).unwrap())
}

fn act_of(input: &RecordedInput) -> (&str, String) {
    match &input.input.input {
        Input::Act(request) => (request.target.as_str(), request.action.as_str().to_owned()),
        other => panic!("not an act: {other:?}"),
    }
}

/// Every input the agent sent is a line, in order, with its ack and the tree the app
/// drew after it; a batch's steps share their call; reads are noted with their
/// arguments; the first line after the header is the first tree.
#[test]
fn a_recorded_session_has_each_input_with_its_ack_and_the_tree_after() {
    let app = RunningApp::start("record");
    let path = recording_path("record");
    let mut mcp = Mcp::start(&app.socket, &["--record", path.to_str().unwrap()]);
    mcp.ok("read_tree", json!({}));
    mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 7}),
    );
    mcp.ok(
        "act",
        json!({"node": "tasks/list_item#0", "action": "archive"}),
    );
    mcp.fails(
        "act",
        json!({"node": "refuse", "action": "activate"}),
        "app_rejected",
    );
    // Refused by the bridge's own check: nothing reaches the app; a `refused` line
    // (record_context.rs), not an input.
    mcp.fails(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 11}),
        "out_of_domain",
    );
    mcp.ok("type_text", json!({"text": "hi \"there\"\n"}));
    mcp.ok("press_key", json!({"key": "x", "repeat": 2}));
    mcp.ok(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "volume", "action": "set_value", "value": 3},
            {"tool": "press_key", "key": "y"},
        ], "read": true, "root": "volume"}),
    );
    mcp.ok("find_nodes", json!({"role": "slider"}));
    let recording = finished(mcp, &path);
    let first_revision = check_header_and_first_tree(&recording);
    check_inputs(&recording, first_revision);
    check_reads_and_order(&recording);
    check_logs(&recording);
}

/// What the app logged is in the recording, each entry naming the step of the input
/// it was logged while handling, after that input's line.
fn check_logs(recording: &Recording) {
    let logs: Vec<(Option<u64>, &str, &str)> = recording
        .logs()
        .map(|log| (log.step, log.level.name(), log.message.as_str()))
        .collect();
    assert_eq!(
        logs,
        [
            (Some(2), "info", "archived Buy milk"),
            (Some(3), "warn", "refused a press: not today"),
        ]
    );
    let position =
        |wanted: &dyn Fn(&RecordedLine) -> bool| recording.lines.iter().position(wanted).unwrap();
    let refused_input =
        position(&|line| matches!(line, RecordedLine::Input(input) if input.step == 3));
    let refused_log =
        position(&|line| matches!(line, RecordedLine::Log(log) if log.step == Some(3)));
    assert!(
        refused_input < refused_log,
        "the log line comes after its input's"
    );
}

/// The header (attach mode: the app's screen size) and the first tree; its revision.
fn check_header_and_first_tree(recording: &Recording) -> u64 {
    let header = &recording.header;
    assert_eq!(
        header.taria_recording,
        taria_schema::recording::RECORDING_VERSION
    );
    assert_eq!(header.app, "test-app");
    assert_eq!(header.mode, RecordingMode::Attach);
    assert_eq!(
        header.size,
        RecordedSize {
            width: 30,
            height: 6
        },
        "attach mode: the first tree's extent"
    );
    assert_eq!(header.taria, env!("CARGO_PKG_VERSION"));
    let Some(RecordedLine::Tree(first)) = recording.lines.first() else {
        panic!(
            "the first line is not a tree: {:?}",
            recording.lines.first()
        );
    };
    assert_eq!(node_value(&first.tree, "volume"), Some(json!(0.0)));
    first.revision
}

/// One line per input, in order, with its ack and the tree after it.
fn check_inputs(recording: &Recording, first_revision: u64) {
    let inputs: Vec<&RecordedInput> = recording.inputs().collect();
    let tools: Vec<InputTool> = inputs.iter().map(|input| input.tool).collect();
    assert_eq!(
        tools,
        [
            InputTool::Act,
            InputTool::Act,
            InputTool::Act,
            InputTool::TypeText,
            InputTool::TypeText,
            InputTool::PressKey,
            InputTool::PressKey,
            InputTool::Batch,
            InputTool::Batch,
        ],
        "{inputs:#?}"
    );
    let steps: Vec<u64> = inputs.iter().map(|input| input.step).collect();
    assert_eq!(steps, (1..=9).collect::<Vec<_>>());
    let calls: Vec<u64> = inputs.iter().map(|input| input.call).collect();
    assert_eq!(
        calls,
        [2, 3, 4, 6, 6, 7, 7, 8, 8],
        "read_tree was call 1, the refused set_value 5; a text's segments (split at the \
         newline), presses of one key and a batch's steps share a call"
    );
    let status = |input: &RecordedInput| input.ack.as_ref().map(|ack| ack.status);

    // set_value: delivered, and the tree after shows it.
    assert_eq!(act_of(inputs[0]), ("volume", "set_value".to_owned()));
    assert!(
        inputs[0].input.input == Input::Act(set_volume(7)),
        "{:?}",
        inputs[0]
    );
    assert_eq!(status(inputs[0]), Some(AckStatus::Delivered));
    let after = inputs[0].tree.as_ref().unwrap();
    assert_eq!(node_value(after, "volume"), Some(json!(7.0)));
    assert!(inputs[0].revision.unwrap() > first_revision);
    // A positional id goes with the token the bridge sent.
    assert_eq!(
        act_of(inputs[1]),
        ("tasks/list_item#0", "archive".to_owned())
    );
    let Input::Act(archive) = &inputs[1].input.input else {
        unreachable!()
    };
    assert!(archive.token.is_some(), "{archive:?}");
    let after = inputs[1].tree.as_ref().unwrap();
    assert_eq!(
        after.get("tasks").unwrap().children.len(),
        2,
        "the tree after shows the task archived"
    );
    // Refused by the app's handler: the ack says so; the tree is the one it had.
    let refused = inputs[2].ack.as_ref().unwrap();
    assert_eq!(
        (refused.status, refused.reason, refused.message.as_deref()),
        (
            AckStatus::Rejected,
            Some(RejectReason::HandlerRejected),
            Some("not today")
        )
    );
    assert!(inputs[2].tree.is_some());
    // Text is data, quotes and newlines included; sent in segments split where a
    // key can move the focus.
    for (input, text) in inputs[3..5].iter().zip(["hi \"there\"", "\n"]) {
        assert_eq!(
            input.input.input,
            Input::Text {
                text: text.into(),
                raw: false,
            }
        );
        assert!(!input.input.redacted);
    }
    for press in &inputs[5..7] {
        assert_eq!(press.input.input, Input::Key { key: "x".into() });
        assert_eq!(status(press), Some(AckStatus::Delivered));
    }
    assert_eq!(
        node_value(inputs[6].tree.as_ref().unwrap(), "typed"),
        Some(json!("hi \"there\"xx"))
    );
    assert!(inputs[7].input.input == Input::Act(set_volume(3)));
    assert_eq!(
        node_value(inputs[7].tree.as_ref().unwrap(), "volume"),
        Some(json!(3.0))
    );
    assert_eq!(inputs[8].input.input, Input::Key { key: "y".into() });
}

/// Reads are noted with their calls and arguments, every line in the order it
/// happened.
fn check_reads_and_order(recording: &Recording) {
    // Every line is in the order it happened: revisions never go back.
    let revisions: Vec<u64> = recording
        .lines
        .iter()
        .filter_map(|line| match line {
            RecordedLine::Tree(tree) => Some(tree.revision),
            RecordedLine::Input(input) => input.revision,
            RecordedLine::Read(read) => Some(read.revision),
            _ => None,
        })
        .collect();
    assert!(revisions.is_sorted(), "{revisions:?}");

    let reads: Vec<(u64, &str, Value)> = recording
        .lines
        .iter()
        .filter_map(|line| match line {
            RecordedLine::Read(read) => Some((
                read.call,
                read.tool.as_str(),
                Value::Object(read.arguments.clone()),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        reads,
        [
            (1, "read_tree", json!({})),
            (8, "batch", json!({"read": true, "root": "volume"})),
            (9, "find_nodes", json!({"role": "slider"})),
        ]
    );
    // The batch's closing read comes after its steps, the find after the batch.
    let kinds: Vec<&str> = recording
        .lines
        .iter()
        .map(|line| match line {
            RecordedLine::Tree(_) => "tree",
            RecordedLine::Input(_) => "input",
            RecordedLine::Read(_) => "read",
            RecordedLine::Log(_) => "log",
            _ => "other",
        })
        .collect();
    assert_eq!(
        kinds,
        [
            "tree", "read", "input", "input", "log", "input", "log", "other", "input", "input",
            "input", "input", "input", "input", "read", "read"
        ]
    );
}

fn set_volume(value: u8) -> taria_schema::protocol::ActionRequest {
    let mut request = taria_schema::protocol::ActionRequest::new("volume", Action::SetValue);
    request.data = Some(taria_schema::protocol::ActionData::Value {
        value: taria::Value::Number(f64::from(value)),
    });
    request
}

/// A recording that cannot be written is a clear error before the session starts,
/// and a non-zero exit: not a session whose recording is lost.
#[test]
fn a_recording_that_cannot_be_written_fails_at_start() {
    let dir = support::temp_dir("record-unwritable");
    let missing = dir.join("no-such-dir").join("session.jsonl");
    for (path, args) in [
        (
            missing.clone(),
            vec!["--app", "todo", "--record", missing.to_str().unwrap()],
        ),
        (
            dir.clone(),
            vec!["--record", dir.to_str().unwrap(), "--", "true"],
        ),
    ] {
        let output = Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
            .args(&args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(!output.status.success(), "{args:?}: {:?}", output.status);
        assert!(output.stdout.is_empty(), "nothing on stdout");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(
            stderr.contains(&format!(
                "taria-mcp: cannot write the recording {}",
                path.display()
            )) && stderr.contains("give --record a file in a directory that exists"),
            "{stderr}"
        );
    }
}

/// A recording that fails later (the disk is full) is logged once and said once,
/// at the end of the next tool result's text; the session goes on.
#[cfg(target_os = "linux")]
#[test]
fn a_recording_that_fails_later_is_logged_and_the_session_goes_on() {
    let app = RunningApp::start("record-full");
    let mut mcp = Mcp::start(&app.socket, &["--record", "/dev/full"]);
    let note = "note: the recording /dev/full stopped here: it cannot be written";
    let text = |result: &Value| result["content"][0]["text"].as_str().unwrap().to_owned();
    // The writer fails on its own thread (on the header, once the first call has
    // connected): the first result after that says so.
    let told = (0..100)
        .map(|_| {
            text(&mcp.call(
                "act",
                json!({"node": "volume", "action": "set_value", "value": 4}),
            ))
        })
        .find(|text| text.contains(note))
        .expect("a result says the recording stopped");
    let line = mcp.log_line("cannot write the recording");
    assert!(line.contains("/dev/full"), "{line}");
    assert!(told.lines().last().unwrap().starts_with(note), "{told}");
    assert!(
        told.starts_with("delivered"),
        "the status line stays first: {told}"
    );
    assert!(
        !text(&mcp.call("read_tree", json!({}))).contains(note),
        "said once"
    );
    assert_eq!(app.app.lock().unwrap().volume, 4);
    let logged = mcp
        .stderr
        .lock()
        .unwrap()
        .iter()
        .filter(|l| l.contains("cannot write the recording"))
        .count();
    assert_eq!(logged, 1, "logged once");
    mcp.finish();
}

/// A bridge that runs the `before-after` example in an 80x20 terminal, recording to
/// `path`.
pub(crate) fn spawn_recorded(path: &Path) -> Mcp {
    let app = crate::spawn::before_after();
    Mcp::launch(&[
        "--cols",
        "80",
        "--rows",
        "20",
        "--record",
        path.to_str().unwrap(),
        "--",
        &app,
    ])
}

/// Spawn mode records too: the pty's size, the app's label, its inputs.
#[test]
fn spawn_mode_records_the_session() {
    let path = recording_path("record-spawn");
    let mut mcp = spawn_recorded(&path);
    mcp.ok(
        "act",
        json!({"node": "tasks/list_item#1", "action": "toggle"}),
    );
    let recording = finished(mcp, &path);
    assert_eq!(recording.header.mode, RecordingMode::Spawn);
    assert_eq!(
        recording.header.size,
        RecordedSize {
            width: 80,
            height: 20
        }
    );
    assert_eq!(recording.header.app, "before-after");
    assert!(matches!(recording.lines[0], RecordedLine::Tree(_)));
    let inputs: Vec<&RecordedInput> = recording.inputs().collect();
    assert_eq!(inputs.len(), 1, "{inputs:?}");
    assert_eq!(
        act_of(inputs[0]),
        ("tasks/list_item#1", "toggle".to_owned())
    );
    assert_eq!(
        inputs[0].ack.as_ref().map(|ack| ack.status),
        Some(AckStatus::Delivered)
    );
    let after = inputs[0].tree.as_ref().unwrap();
    assert_eq!(
        after.get("tasks/list_item#1").unwrap().state.checked,
        Some(taria::Checked::True)
    );
}

/// Each recorded tree goes with the screen drawn with it (for a replay's screen
/// check, `Match::screen`): the first tree's, and the one after the toggle, where
/// the item's `[x]` is drawn; cells outside every node's bounds are left out.
#[test]
fn each_recorded_tree_has_the_screen_drawn_with_it() {
    let app = crate::spawn::before_after();
    let path = recording_path("record-screen");
    let mut mcp = Mcp::launch(&[
        "--cols",
        "40",
        "--rows",
        "10",
        "--record",
        path.to_str().unwrap(),
        "--",
        &app,
    ]);
    mcp.ok(
        "act",
        json!({"node": "tasks/list_item#1", "action": "toggle"}),
    );
    let recording = finished(mcp, &path);
    let text = std::fs::read_to_string(&path).unwrap();
    // Each line's end: where its `screen` is.
    let text: Vec<String> = text
        .lines()
        .map(|line| {
            line.chars()
                .rev()
                .take(300)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
                .collect()
        })
        .collect();
    let text = text.join("\n");
    let first = recording
        .first_screen()
        .unwrap_or_else(|| panic!("no screen with the first tree:\n{text}"));
    assert_eq!(first.len(), 10, "{first:#?}");
    assert!(first[0].starts_with("┌Tasks"), "{first:#?}");
    let item = |screen: &[String]| {
        screen
            .iter()
            .find(|row| row.contains("] Write docs"))
            .cloned()
            .unwrap_or_else(|| panic!("no item row in {screen:#?}"))
    };
    assert!(item(first).contains("[ ] Write docs"), "{first:#?}");
    let inputs: Vec<&RecordedInput> = recording.inputs().collect();
    let after = inputs[0]
        .screen
        .as_ref()
        .unwrap_or_else(|| panic!("no screen with the toggle's tree:\n{text}"));
    assert!(item(after).contains("[x] Write docs"), "{after:#?}");
}

/// The session ends as soon as the agent's last call is answered, while the screen
/// drawn with that call's tree is still on its way: the recording waits for it, so
/// the last step has its screen like every other (here the app sends it 200 ms
/// late).
#[test]
fn a_screen_still_on_its_way_when_the_session_ends_is_recorded() {
    let (before, after) = (keys_tree(""), keys_tree("a"));
    let socket = keys_app("record-late-screen", true, before, move |input, send| {
        let seq = input["seq"].as_u64().unwrap();
        send(json!({"type": "ack", "seq": seq, "status": "delivered"}));
        send(json!({"type": "tree", "revision": 2, "input": seq, "tree": after}));
        std::thread::sleep(std::time::Duration::from_millis(200));
        send(json!({"type": "screen", "revision": 2, "cols": 10, "rows": ["a", ""]}));
    });
    let path = recording_path("record-late-screen");
    let mut mcp = Mcp::start(&socket, &["--record", path.to_str().unwrap()]);
    mcp.ok("press_key", json!({"key": "a"}));
    let recording = finished(mcp, &path);
    let inputs: Vec<&RecordedInput> = recording.inputs().collect();
    assert_eq!(inputs.len(), 1, "{inputs:?}");
    assert_eq!(inputs[0].revision, Some(2));
    let screen = inputs[0]
        .screen
        .as_ref()
        .unwrap_or_else(|| panic!("the last step has no screen: {inputs:?}"));
    assert_eq!(screen[0].trim_end(), "a", "{screen:?}");
}

/// An app that handles two presses before it draws: the one tree after them shows
/// both, so the first press's line has no tree (none shows its effect alone) and the
/// second's has it; a replay compares after the second.
#[test]
fn inputs_handled_in_one_frame_share_the_tree_of_the_last() {
    let (before, after) = (keys_tree(""), keys_tree("aa"));
    let mut seqs = Vec::new();
    let socket = keys_app("record-folded", false, before, move |input, send| {
        seqs.push(input["seq"].as_u64().unwrap());
        if let [first, second] = seqs[..] {
            send(json!({"type": "ack", "seq": first, "status": "delivered"}));
            send(json!({"type": "ack", "seq": second, "status": "delivered"}));
            send(json!({"type": "tree", "revision": 2, "input": second, "tree": after}));
        }
    });
    let path = recording_path("record-folded");
    let mut mcp = Mcp::start(&socket, &["--record", path.to_str().unwrap()]);
    mcp.ok("press_key", json!({"key": "a", "repeat": 2}));
    let recording = finished(mcp, &path);
    assert_eq!(
        recording.header.size,
        RecordedSize {
            width: 10,
            height: 2
        },
        "attach mode: the screen's size"
    );
    let inputs: Vec<&RecordedInput> = recording.inputs().collect();
    assert_eq!(inputs.len(), 2, "{inputs:?}");
    assert!(
        inputs
            .iter()
            .all(|input| input.ack.as_ref().map(|a| a.status) == Some(AckStatus::Delivered))
    );
    assert_eq!(
        (inputs[0].revision, inputs[0].tree.as_ref()),
        (None, None),
        "no tree shows the first press alone"
    );
    let last = inputs[1].tree.as_ref().unwrap();
    assert_eq!(last.get("keys").unwrap().label.as_deref(), Some("aa"));
    assert_eq!(inputs[1].revision, Some(2));
}

/// The tree of a fake app (10×2) that shows the keys it was sent in one text node.
fn keys_tree(keys: &str) -> Value {
    let mut harness = taria::testing::Harness::new(10, 2);
    let tree = harness.render(|frame| {
        taria::leaf(|n| {
            n.role(Role::Text)
                .id("keys")
                .label(keys)
                .bounds(frame.area());
        });
    });
    serde_json::to_value(&tree).unwrap()
}

/// A fake app of one connection on a new socket (`name`), for an order of lines a
/// real app does not choose: says hello (`screens`: that it sends its screen after
/// each tree), sends `first` (revision 1, with its empty 10×2 screen when `screens`),
/// answers `get_screen` with that screen, and hands each input to `on_input` with a
/// way to send lines.
fn keys_app(
    name: &str,
    screens: bool,
    first: Value,
    mut on_input: impl FnMut(&Value, &mut dyn FnMut(Value)) + Send + 'static,
) -> std::path::PathBuf {
    use std::io::{BufRead, BufReader, Write};
    let socket = crate::harness::temp_socket(name);
    let listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    std::thread::spawn(move || {
        let (stream, _) = listener.accept().unwrap();
        let mut writer = stream.try_clone().unwrap();
        let mut send = |message: Value| writeln!(writer, "{message}").unwrap();
        let empty = json!({"type": "screen", "revision": 1, "cols": 10, "rows": ["", ""]});
        send(
            json!({"type": "hello", "v": 1, "app": "keys", "pid": 1, "taria": "0",
            "screens": screens}),
        );
        send(json!({"type": "tree", "revision": 1, "input": 0, "tree": first}));
        if screens {
            send(empty.clone());
        }
        for line in BufReader::new(stream).lines() {
            let Ok(message) = serde_json::from_str::<Value>(&line.unwrap()) else {
                continue;
            };
            match message["type"].as_str() {
                // Asked for the terminal's size when the recording starts.
                Some("get_screen") => send(empty.clone()),
                Some("input") => on_input(&message, &mut send),
                _ => {}
            }
        }
    });
    socket
}
