//! The recorder's bookkeeping on events given in a chosen order (the real bridge's
//! races are in tests/mcp/record*.rs).

use std::sync::Arc;

use serde_json::json;
use taria::Tree;
use taria::wire::recording::{
    RecordedLine, RecordedResize, RecordedSize, Recording, RecordingMode,
};

use super::Recorder;

fn tree(width: u16, height: u16) -> Arc<Tree> {
    let tree = json!({"frame": 1, "roots": [
        {"id": "status", "role": "text", "label": "hi", "bounds": [0, 0, width, height]}
    ]});
    Arc::new(serde_json::from_value(tree).unwrap())
}

/// Records a spawned app's first tree, then `events`, and reads the recording back.
fn recorded(name: &str, events: impl FnOnce(&Recorder)) -> Recording {
    let dir = std::env::temp_dir().join(format!("taria-record-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("session.jsonl");
    let file = std::fs::File::create(&path).unwrap();
    let size = RecordedSize {
        width: 40,
        height: 10,
    };
    let recorder = Recorder::start(file, path.clone(), RecordingMode::Spawn, Some(size));
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
