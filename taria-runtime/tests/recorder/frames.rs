//! What a frame records at all: nothing outside a recorded frame or with the recorder
//! off, one frame replacing the last, the depth and label limits, a panicking or nested
//! draw.

use taria::Role;
use taria::builder::MAX_DEPTH;
use taria::node::Diagnostic;
use taria::testing::Harness;
use taria::widget::Recorder;

use crate::button;

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
