//! The recorder's bookkeeping on events given in a chosen order (the real bridge's
//! races are in tests/mcp/record*.rs).

use std::sync::Arc;

use serde_json::json;
use taria_schema::Tree;
use taria_schema::recording::{
    RecordedLine, RecordedResize, RecordedSize, Recording, RecordingMode,
};

use super::SessionRecorder;

fn tree(width: u16, height: u16) -> Arc<Tree> {
    let tree = json!({"frame": 1, "roots": [
        {"id": "status", "role": "text", "label": "hi", "bounds": [0, 0, width, height]}
    ]});
    Arc::new(serde_json::from_value(tree).unwrap())
}

/// Records a spawned app's first tree, then `events`, and reads the recording back.
fn recorded(name: &str, events: impl FnOnce(&SessionRecorder)) -> Recording {
    let dir = std::env::temp_dir().join(format!("taria-record-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("session.jsonl");
    let file = std::fs::File::create(&path).unwrap();
    let size = RecordedSize {
        width: 40,
        height: 10,
    };
    let recorder = SessionRecorder::start(file, path.clone(), RecordingMode::Spawn, Some(size));
    recorder.drew(1, Some(("app", false)), 1, 0, &tree(40, 10));
    events(&recorder);
    recorder.finish();
    let recording = Recording::read(&path).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    recording
}

fn resize_line(recording: &Recording) -> &RecordedResize {
    recording
        .lines
        .iter()
        .find_map(|line| match line {
            RecordedLine::Resize(resize) => Some(resize),
            _ => None,
        })
        .expect("a resize line")
}

const NEW_SIZE: RecordedSize = RecordedSize {
    width: 90,
    height: 25,
};

/// The app redrew at the new size before the bridge noted its resize: the resize's
/// line still has that tree (it was left without one, as CI saw).
#[test]
fn a_resize_takes_the_tree_drawn_before_the_bridge_noted_it() {
    let recording = recorded("resize-quick", |recorder| {
        let resized = tree(90, 25);
        recorder.drew(1, None, 2, 0, &resized);
        recorder.resized(1, NEW_SIZE, 1, Some((2, &resized, 0)));
    });
    let resize = resize_line(&recording);
    assert_eq!(resize.revision, Some(2));
    let tree = resize.tree.as_ref().expect("the tree at the new size");
    assert_eq!(RecordedSize::of_tree(tree), NEW_SIZE);
}

/// The usual order: the resize noted, then the tree drawn at the new size; the tree
/// that was the newest when the terminal was resized is not the resize's.
#[test]
fn a_resize_takes_the_first_tree_drawn_after_it() {
    let recording = recorded("resize-then-tree", |recorder| {
        let old = tree(40, 10);
        recorder.resized(1, NEW_SIZE, 1, Some((1, &old, 0)));
        recorder.drew(1, None, 2, 0, &tree(90, 25));
    });
    let resize = resize_line(&recording);
    assert_eq!(resize.revision, Some(2));
    assert_eq!(
        RecordedSize::of_tree(resize.tree.as_ref().unwrap()),
        NEW_SIZE
    );
}

/// A tree whose `clock` says `time`, whose `log` shows a line per minute past 12:00
/// and whose `count` button says `count`.
fn ticking(time: &str, count: u32) -> Arc<Tree> {
    let minutes: u32 = time[3..].parse().unwrap();
    let lines: Vec<_> = (0..minutes)
        .map(
            |m| json!({"id": format!("log/{m}"), "role": "list_item", "label": format!("12:0{m}")}),
        )
        .collect();
    let tree = json!({"frame": 1, "roots": [
        {"id": "clock", "role": "text", "label": time, "bounds": [0, 0, 10, 1]},
        {"id": "log", "role": "list", "children": lines},
        {"id": "count", "role": "button", "label": format!("Count {count}"), "bounds": [0, 1, 10, 1]},
    ]});
    Arc::new(serde_json::from_value(tree).unwrap())
}

/// Issue 30: frames the app drew with no input to show (a timer's tick) were not
/// recorded, so `test-from` could not tell the nodes they changed; an `unprompted`
/// line before the next input now names them. The frame that shows the input, and
/// one drawn soon after it (the effect may show a frame late), count as the input's.
#[test]
fn nodes_changed_with_no_input_are_noted_before_the_next_input() {
    use taria_schema::protocol::{ActionRequest, Input};
    let recording = recorded("unprompted", |recorder| {
        recorder.drew(1, None, 2, 0, &ticking("12:00", 0));
        std::thread::sleep(crate::limits::LATE_EFFECT);
        recorder.drew(1, None, 3, 0, &ticking("12:01", 0));
        recorder.drew(1, None, 4, 0, &ticking("12:02", 0));
        let bump = Input::Act(ActionRequest::new("count", "bump"));
        recorder.sent(1, 1, &bump, None, None);
        recorder.drew(1, None, 5, 1, &ticking("12:02", 1));
        // Soon after the input's frame: it may show the input late.
        recorder.drew(1, None, 6, 1, &ticking("12:02", 2));
    });
    let kinds: Vec<&str> = recording
        .lines
        .iter()
        .map(|line| match line {
            RecordedLine::Tree(_) => "tree",
            RecordedLine::Input(_) => "input",
            RecordedLine::Unprompted(_) => "unprompted",
            _ => "other",
        })
        .collect();
    assert_eq!(kinds, ["tree", "unprompted", "input"]);
    let noted: Vec<_> = recording.unprompted().collect();
    assert_eq!(noted.len(), 1);
    assert_eq!(noted[0].frames, 2);
    assert_eq!(noted[0].revision, 4);
    let changed: Vec<(&str, &[String])> = noted[0]
        .changed
        .iter()
        .map(|(id, fields)| (id.as_str(), fields.as_slice()))
        .collect();
    assert_eq!(
        changed,
        [
            ("clock", &["label".to_owned()][..]),
            ("log", &["children".to_owned()][..])
        ]
    );
}

/// Issue 34.2: each input's line says how long the app took to answer it, from its
/// place among the inputs to its ack; an input the app never answered says nothing.
#[test]
fn an_input_line_keeps_how_long_the_app_took_to_answer() {
    use taria_schema::protocol::{AckStatus, ActionRequest, Input};
    use taria_schema::recording::RecordedAck;
    let recording = recorded("answered-in", |recorder| {
        let bump = Input::Act(ActionRequest::new("count", "bump"));
        recorder.sent(1, 1, &bump, None, None);
        std::thread::sleep(std::time::Duration::from_millis(3));
        let ack = RecordedAck {
            status: AckStatus::Ignored,
            reason: None,
            message: None,
        };
        recorder.acked(1, 1, Some(ack), None);
        recorder.sent(1, 2, &bump, None, None);
    });
    let answered: Vec<Option<u64>> = recording
        .lines
        .iter()
        .filter_map(|line| match line {
            RecordedLine::Input(input) => Some(input.answered_in_us),
            _ => None,
        })
        .collect();
    assert_eq!(answered.len(), 2, "{:?}", recording.lines);
    let first = answered[0].expect("the answered input says how long it took");
    assert!((3_000..1_000_000).contains(&first), "{first} µs");
    assert_eq!(answered[1], None);
}
