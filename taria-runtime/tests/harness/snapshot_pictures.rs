//! `Snapshots::pictures`: a step whose snapshot fails leaves the screen the recorded
//! session showed and the one the test drew as SVG beside the snapshot; a step that
//! passes leaves none, and removes those of an earlier failure.

use std::path::{Path, PathBuf};

use ratatui::style::{Color, Style};
use ratatui::widgets::Paragraph;
use taria::testing::{AppHarness, Match, Snapshots};
use taria::{Action, Role};

#[derive(Default)]
struct Counter {
    count: u32,
}

#[taria::actions]
impl Counter {
    #[action(node = "count", increment)]
    fn bump(&mut self) {
        self.count += 1;
    }
}

fn draw(frame: &mut ratatui::Frame<'_>, app: &mut Counter) {
    let text = format!("Count {}", app.count);
    let style = Style::default().fg(Color::Rgb(255, 136, 0));
    frame.render_widget(Paragraph::new(text.as_str()).style(style), frame.area());
    taria::leaf(|n| {
        n.role(Role::SpinButton)
            .id("count")
            .label("Count")
            .value(app.count);
        n.action(Action::Increment).bounds(frame.area());
    });
}

/// A recording of the counter: its first screen, then step 1's, as the bridge
/// writes them.
fn recording(dir: &Path) -> PathBuf {
    let tree = |count: u32| {
        format!(
            r#"{{"frame":1,"roots":[{{"id":"count","role":"spin_button","label":"Count","value":{count},"actions":["increment"],"bounds":[0,0,20,1]}}]}}"#
        )
    };
    let lines = [
        r#"{"taria_recording":2,"app":"counter","size":{"width":20,"height":1},"taria":"0.1.0","mode":"spawn"}"#.to_owned(),
        format!(r#"{{"kind":"tree","revision":1,"tree":{},"screen":["Count 0             "]}}"#, tree(0)),
        format!(
            r#"{{"kind":"input","step":1,"call":1,"tool":"act","input":{{"kind":"act","node":"count","action":"increment"}},"ack":{{"status":"delivered"}},"revision":2,"tree":{},"screen":["Count 1             "]}}"#,
            tree(1)
        ),
    ];
    let path = dir.join("session.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n").expect("the recording is written");
    path
}

fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("taria-pictures-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

#[test]
fn a_failing_step_leaves_its_expected_and_actual_screens_as_pictures() {
    let dir = temp_dir("failing");
    let snapshots = Snapshots::new(Match::new()).pictures(dir.join("snaps"), recording(&dir));
    let mut h = AppHarness::new(Counter::default(), 20, 1, draw);
    h.act("count", "increment").unwrap();
    h.act("count", "increment").unwrap();
    // The app now counts 2 where the session showed 1: the snapshot differs.
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        snapshots.check(&h, 1, "01-count-increment", |name, text| {
            assert!(text.contains("Count\": 1"), "{name} differs:\n{text}");
        });
    }));
    let message = crate::panic_message(&failed.expect_err("the check passed"));
    assert!(
        message.starts_with("01-count-increment differs"),
        "{message}"
    );
    let expected =
        std::fs::read_to_string(dir.join("snaps/01-count-increment.expected.svg")).unwrap();
    let actual = std::fs::read_to_string(dir.join("snaps/01-count-increment.actual.svg")).unwrap();
    assert!(
        expected.starts_with("<svg") && actual.starts_with("<svg"),
        "{actual}"
    );
    assert!(expected.contains(">Count 1<"), "{expected}");
    assert!(actual.contains(">Count 2<"), "{actual}");
    // The app's colour is drawn; the recording keeps text alone.
    assert!(actual.contains("#ff8800"), "{actual}");
    assert!(!expected.contains("#ff8800"), "{expected}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_passing_step_leaves_no_pictures_and_removes_stale_ones() {
    let dir = temp_dir("passing");
    let snaps = dir.join("snaps");
    std::fs::create_dir_all(&snaps).unwrap();
    for stale in ["00-first.expected.svg", "00-first.actual.svg"] {
        std::fs::write(snaps.join(stale), "<svg/>").unwrap();
    }
    let snapshots = Snapshots::new(Match::new()).pictures(&snaps, recording(&dir));
    let h = AppHarness::new(Counter::default(), 20, 1, draw);
    let mut compared = None;
    snapshots.check(&h, 0, "00-first", |name, text| {
        compared = Some((name.to_owned(), text));
    });
    let (name, text) = compared.unwrap();
    assert_eq!(name, "00-first");
    assert_eq!(text, snapshots.of(&h, 0));
    assert_eq!(std::fs::read_dir(&snaps).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn without_a_recorded_screen_only_the_actual_picture_is_written() {
    let dir = temp_dir("unrecorded");
    let snapshots =
        Snapshots::new(Match::new()).pictures(dir.join("snaps"), dir.join("gone.jsonl"));
    let h = AppHarness::new(Counter::default(), 20, 1, draw);
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        snapshots.check(&h, 0, "00-first", |_, _| panic!("differs"));
    }));
    assert!(failed.is_err());
    assert!(dir.join("snaps/00-first.actual.svg").is_file());
    assert!(!dir.join("snaps/00-first.expected.svg").exists());
    // `check_tree`: the recording has no screen for the step, said without reading it.
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        snapshots.check_tree(&h, 0, "00-resize", |_, _| panic!("differs"));
    }));
    assert!(failed.is_err());
    assert!(dir.join("snaps/00-resize.actual.svg").is_file());
    assert!(!dir.join("snaps/00-resize.expected.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_step_the_recording_has_no_screen_for_leaves_no_stale_expected_picture() {
    let dir = temp_dir("no-screen");
    let snaps = dir.join("snaps");
    std::fs::create_dir_all(&snaps).unwrap();
    // From an earlier failure, when the recording still had this step.
    std::fs::write(snaps.join("02-count-increment.expected.svg"), "<svg/>").unwrap();
    let snapshots = Snapshots::new(Match::new()).pictures(&snaps, recording(&dir));
    let h = AppHarness::new(Counter::default(), 20, 1, draw);
    let failed = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        snapshots.check(&h, 2, "02-count-increment", |_, _| panic!("differs"));
    }));
    assert!(failed.is_err());
    assert!(snaps.join("02-count-increment.actual.svg").is_file());
    assert!(!snaps.join("02-count-increment.expected.svg").exists());
    std::fs::remove_dir_all(&dir).unwrap();
}
