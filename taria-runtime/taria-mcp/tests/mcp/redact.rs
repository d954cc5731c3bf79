//! Secrets never reach the `--record` file: a redacted node's value set, typed or
//! pressed, and the app's refusal that quotes it; nor, when one `type_text` tabs
//! through a form, the test `taria-mcp test-from` makes of it, while what was typed
//! into the other fields is kept. Nor the bridge's log, at any level, nor a file
//! another user could read.

use std::process::Command;

use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode};
use serde_json::json;
use taria::{Action, Actions, Invocation, Outcome, Role};
use taria_schema::protocol::Input;
use taria_schema::recording::Recording;

use crate::harness::Mcp;
use crate::record::recording_path;
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
        ".type_text(\"alice\")?;",
        ".type_text(std::env::var(\"PASS\").unwrap())?;",
        ".type_text(\"my note\")?;",
    ] {
        assert!(code.contains(call), "{call} not in {code}");
    }
    for entry in std::fs::read_dir(dir.join("snapshots")).unwrap() {
        let snapshot = std::fs::read_to_string(entry.unwrap().path()).unwrap();
        assert!(!snapshot.contains("hunter"), "{snapshot}");
    }
}

/// An app with a focused secret field that takes `set_value` and typed keys.
#[derive(Default)]
struct SecretApp {
    pin: String,
    note: String,
}

impl Actions for SecretApp {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        match (inv.target(), inv.action().as_str(), inv.value()) {
            // A refusal that quotes the value, as a conversion's refusal does.
            ("pin", "set_value", Some(taria::Value::Text(text))) if text.starts_with("refuse") => {
                Outcome::Rejected(format!("`{text}` is not a PIN"))
            }
            ("pin", "set_value", Some(taria::Value::Text(text))) => {
                self.pin.clone_from(text);
                Outcome::Handled
            }
            ("note", "set_value", Some(taria::Value::Text(text))) => {
                self.note.clone_from(text);
                Outcome::Handled
            }
            _ => Outcome::NotHandled,
        }
    }
}

impl support::LoopApp for SecretApp {
    fn render(&mut self, frame: &mut Frame<'_>) {
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("pin")
                .label("PIN")
                .value(self.pin.as_str())
                .redacted(true)
                .focused(true)
                .action(Action::SetValue);
        });
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("note")
                .label("Note")
                .value(self.note.as_str())
                .action(Action::SetValue);
        });
        frame.render_widget(ratatui::widgets::Paragraph::new("PIN"), frame.area());
    }

    fn on_event(&mut self, event: &Event) {
        if let Event::Key(key) = event
            && let KeyCode::Char(c) = key.code
        {
            self.pin.push(c);
        }
    }
}

/// A secret never reaches the file: a `set_value` on a redacted node is written
/// without its value (and without the app's message, which may quote it), and text
/// and character keys sent while a redacted node has the focus are written empty,
/// each marked `redacted`; keys that type nothing (enter) and values of other nodes
/// are written as they are.
#[test]
fn secrets_are_never_written() {
    let socket = crate::harness::temp_socket("record-secret");
    let app = support::RunningApp::launch(&socket, SecretApp::default(), 30, 4);
    let path = recording_path("record-secret");
    let mut mcp = Mcp::start(&app.socket, &["--record", path.to_str().unwrap()]);
    mcp.ok(
        "act",
        json!({"node": "pin", "action": "set_value", "value": "hunter2-set"}),
    );
    let refused = mcp.call(
        "act",
        json!({"node": "pin", "action": "set_value", "value": "refuse-hunter3"}),
    );
    assert_eq!(refused["isError"], true, "{refused}");
    assert!(
        refused["structuredContent"]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("refuse-hunter3"),
        "the agent hears the app's refusal: {refused}"
    );
    mcp.ok("type_text", json!({"text": "typedsecret"}));
    mcp.ok("press_key", json!({"key": "Q"}));
    mcp.ok("press_key", json!({"key": "enter"}));
    mcp.ok(
        "act",
        json!({"node": "note", "action": "set_value", "value": "plain note"}),
    );
    assert_eq!(
        app.app.lock().unwrap().pin,
        "hunter2-settypedsecretQ",
        "the app got the secrets"
    );
    mcp.finish();
    let bytes = std::fs::read(&path).unwrap();
    let text = String::from_utf8_lossy(&bytes);
    for secret in ["hunter2", "hunter3", "typedsecret", "\"Q\""] {
        assert!(
            !text.contains(secret),
            "{secret} is in the recording: {text}"
        );
    }
    let recording = Recording::parse(&text).unwrap();
    let inputs: Vec<(&Input, bool)> = recording
        .inputs()
        .map(|input| (&input.input.input, input.input.redacted))
        .collect();
    assert_eq!(inputs.len(), 6, "{inputs:?}");
    let Input::Act(set) = inputs[0].0 else {
        panic!("{inputs:?}")
    };
    assert!(inputs[0].1 && set.value().is_none(), "{set:?}");
    // The refused secret: its status and reason kept (a replay compares those), its
    // message left out.
    let refusal = recording.inputs().nth(1).unwrap();
    assert!(refusal.input.redacted, "{refusal:?}");
    let ack = refusal.ack.as_ref().unwrap();
    assert_eq!(
        ack.status,
        taria_schema::protocol::AckStatus::Rejected,
        "{ack:?}"
    );
    assert!(ack.reason.is_some() && ack.message.is_none(), "{ack:?}");
    let inputs = &inputs[1..];
    assert_eq!(
        inputs[1],
        (
            &Input::Text {
                text: String::new(),
                raw: false,
            },
            true
        )
    );
    assert_eq!(inputs[2], (&Input::Key { key: String::new() }, true));
    assert_eq!(
        inputs[3],
        (
            &Input::Key {
                key: "enter".into()
            },
            false
        )
    );
    let Input::Act(note) = inputs[4].0 else {
        panic!("{inputs:?}")
    };
    assert!(!inputs[4].1);
    assert_eq!(note.value(), Some(&taria::Value::Text("plain note".into())));
    // The trees carry the secret's length, never the secret.
    let last = recording.inputs().last().unwrap().tree.as_ref().unwrap();
    let pin = last.get("pin").unwrap();
    assert_eq!((pin.value.as_ref(), pin.redacted_length), (None, Some(23)));
}

/// A call the bridge refused is written with its arguments (`refused`), its secrets
/// left out as an input's are: a value for a redacted node, text typed while one has
/// the focus; and then its message too (it may quote them).
#[test]
fn a_refused_calls_secrets_are_never_written() {
    let socket = crate::harness::temp_socket("record-refused-secret");
    let app = support::RunningApp::launch(&socket, SecretApp::default(), 30, 4);
    let path = recording_path("record-refused-secret");
    let mut mcp = Mcp::start(&app.socket, &["--record", path.to_str().unwrap()]);
    mcp.fails(
        "act",
        json!({"node": "pin", "action": "activate", "value": "hunter4-act"}),
        "action_unsupported",
    );
    let long = format!("hunter5{}", "x".repeat(5000));
    mcp.fails("type_text", json!({ "text": long }), "invalid_arguments");
    mcp.fails(
        "act",
        json!({"node": "note", "action": "activate", "value": "plain"}),
        "action_unsupported",
    );
    mcp.finish();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        !text.contains("hunter"),
        "a secret is in the recording: {text}"
    );
    let recording = Recording::parse(&text).unwrap();
    let refused: Vec<(&str, serde_json::Value, bool)> = recording
        .lines
        .iter()
        .filter_map(|line| match line {
            taria_schema::recording::RecordedLine::Refused(r) => Some((
                r.code.as_str(),
                serde_json::Value::Object(r.arguments.clone()),
                r.redacted && r.message.is_none(),
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        refused,
        [
            (
                "action_unsupported",
                json!({"node": "pin", "action": "activate", "value": ""}),
                true
            ),
            ("invalid_arguments", json!({"text": ""}), true),
            (
                "action_unsupported",
                json!({"node": "note", "action": "activate", "value": "plain"}),
                false
            ),
        ]
    );
}

/// Issue 29.6: with every log on (`TARIA_LOG=trace`, MCP's library included, which
/// traces each request whole), a password typed and one set, a batch that sets one
/// and a refusal that quotes one leave no trace in the bridge's log; the log is not
/// empty (what it did is there).
#[test]
fn no_secret_reaches_the_log_at_any_level() {
    let socket = crate::harness::temp_socket("log-secret");
    let app = support::RunningApp::launch(&socket, SecretApp::default(), 30, 4);
    let dir = support::temp_dir("log-secret-rec");
    let path = dir.join("secret.jsonl");
    let record = path.to_str().unwrap();
    for log in ["trace", "rmcp=trace,taria_mcp=trace", "debug"] {
        let mut mcp = Mcp::launch_logging(
            &["--socket", app.socket.to_str().unwrap(), "--record", record],
            log,
        );
        mcp.ok("read_tree", json!({}));
        mcp.ok("type_text", json!({"text": "typedsecret1"}));
        mcp.ok(
            "act",
            json!({"node": "pin", "action": "set_value", "value": "setsecret2"}),
        );
        mcp.ok(
            "batch",
            json!({"steps": [{"tool": "act", "node": "pin", "action": "set_value", "value": "batchsecret3"}]}),
        );
        mcp.fails(
            "act",
            json!({"node": "pin", "action": "set_value", "value": "refusesecret4"}),
            "app_rejected",
        );
        mcp.ok("press_key", json!({"key": "x"}));
        // Arguments sent as a JSON string, as some hosts do: refused by the bridge's
        // reader, whose error quotes what it could not read.
        let malformed = mcp.request(
            "tools/call",
            json!({"name": "type_text", "arguments": "{\"text\": \"stringsecret5\"}"}),
        );
        assert!(malformed.get("error").is_some(), "{malformed}");
        let stderr = std::sync::Arc::clone(&mcp.stderr);
        mcp.finish();
        // The last lines, written as the bridge stopped, on their way to the reader.
        std::thread::sleep(std::time::Duration::from_millis(200));
        let log_text = stderr.lock().unwrap().join("\n");
        assert!(
            log_text.lines().count() > 5,
            "{log}: the log is on: {log_text}"
        );
        for secret in [
            "typedsecret",
            "setsecret",
            "batchsecret",
            "refusesecret",
            "stringsecret",
        ] {
            assert!(
                !log_text.contains(secret),
                "TARIA_LOG={log}: `{secret}` is in the bridge's log: {log_text}"
            );
        }
    }
    // The recording is the user's alone.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the recording is {mode:o}");
    }
}
