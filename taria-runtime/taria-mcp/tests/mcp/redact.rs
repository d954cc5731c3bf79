//! Secrets typed in one `type_text` that tabs through a form: the password never
//! reaches the `--record` file, nor the test `taria-mcp test-from` makes of it, while
//! what was typed into the other fields is kept.

use std::process::Command;

use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode};
use serde_json::json;
use taria::wire::protocol::Input;
use taria::wire::recording::Recording;
use taria::{Actions, Invocation, Outcome, Role};

use crate::harness::Mcp;
use crate::support;

/// A login form: user, password (redacted), note; tab moves the focus on, characters
/// go to the focused field.
#[derive(Default)]
struct Login {
    fields: [String; 3],
    focus: usize,
}

impl Actions for Login {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

impl support::LoopApp for Login {
    fn render(&mut self, frame: &mut Frame<'_>) {
        for (i, (id, label)) in [("user", "User"), ("pass", "Password"), ("note", "Note")]
            .into_iter()
            .enumerate()
        {
            taria::leaf(|n| {
                n.role(Role::TextInput)
                    .id(id)
                    .label(label)
                    .value(self.fields[i].as_str())
                    .redacted(id == "pass")
                    .focused(self.focus == i);
            });
        }
        frame.render_widget(ratatui::widgets::Paragraph::new("login"), frame.area());
    }

    fn on_event(&mut self, event: &Event) {
        let Event::Key(key) = event else { return };
        match key.code {
            KeyCode::Tab => self.focus = (self.focus + 1) % 3,
            KeyCode::Char(c) => self.fields[self.focus].push(c),
            _ => {}
        }
    }
}

/// One `type_text` that tabs into the password field and out again: the app gets
/// every key where it belongs, the agent one answer; the recording keeps the user
/// name and the note, and the password's keys only as a redacted input, so the test
/// generated from it names no password either.
#[test]
fn a_password_typed_between_tabs_is_left_out_of_the_recording_and_its_test() {
    let socket = crate::harness::temp_socket("redact-tabs");
    let app = support::RunningApp::launch(&socket, Login::default(), 30, 4);
    let dir = support::temp_dir("redact-tabs-rec");
    let path = dir.join("login.jsonl");
    let mut mcp = Mcp::start(&app.socket, &["--record", path.to_str().unwrap()]);
    mcp.ok("read_tree", json!({}));
    let typed = mcp.ok("type_text", json!({"text": "alice\thunter2\tmy note"}));
    assert_eq!(typed["status"], "delivered", "{typed}");
    let shown = format!("{}{}", typed["changes"], typed["outline"]);
    assert!(shown.contains("my note"), "{typed}");
    assert_eq!(
        app.app.lock().unwrap().fields,
        ["alice", "hunter2", "my note"],
        "the app got every key where it belongs"
    );
    mcp.finish();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        !text.contains("hunter"),
        "the password is in the recording: {text}"
    );
    let recording = Recording::parse(&text).unwrap();
    let texts: Vec<(&str, bool)> = recording
        .inputs()
        .map(|input| match &input.input.input {
            Input::Text { text, .. } => (text.as_str(), input.input.redacted),
            other => panic!("not text: {other:?}"),
        })
        .collect();
    assert_eq!(
        texts,
        [
            ("alice", false),
            ("\t", false),
            ("", true),
            ("\t", false),
            ("my note", false)
        ]
    );
    let output = Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
        .arg("test-from")
        .arg(&path)
        .args(["--snapshots", dir.join("snapshots").to_str().unwrap()])
        .args(["--secret", "pass=std::env::var(\"PASS\").unwrap()"])
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let code = String::from_utf8(output.stdout).unwrap();
    assert!(
        !code.contains("hunter"),
        "the password is in the test: {code}"
    );
    for call in [
        "h.type_text(\"alice\")?;",
        "h.type_text(std::env::var(\"PASS\").unwrap())?;",
        "h.type_text(\"my note\")?;",
    ] {
        assert!(code.contains(call), "{call} not in {code}");
    }
    for entry in std::fs::read_dir(dir.join("snapshots")).unwrap() {
        let snapshot = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!snapshot.contains("hunter"), "{snapshot}");
    }
}
