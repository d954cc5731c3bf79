//! Protocol v1 as the app speaks it: the handshake, trees and patches, answers to
//! lines it cannot read, requests for the tree and the screen, a full queue.

use serde_json::json;
use taria::Value;

use crate::support::{Client, RunningApp};

#[test]
fn handshake_sends_hello_then_the_full_tree() {
    let app = RunningApp::start("handshake");
    let (client, hello) = Client::handshake(&app.socket);
    assert_eq!(hello["type"], "hello");
    assert_eq!(hello["v"], 1);
    assert_eq!(hello["app"], "test-app");
    assert_eq!(hello["pid"], std::process::id());
    let tree = client.current();
    assert_eq!(client.revision, 1);
    assert_eq!(
        tree.get("tasks/1").unwrap().label.as_deref(),
        Some("Walk dog")
    );
    assert_eq!(tree.get("volume").unwrap().value, Some(Value::Number(0.0)));
}

#[test]
fn a_patch_for_a_one_node_change_carries_only_that_node() {
    let app = RunningApp::start("patch");
    let (mut client, _) = Client::handshake(&app.socket);
    let seq_ack =
        client.input(json!({"kind": "act", "node": "volume", "action": "set_value", "value": 3}));
    let seq = seq_ack["seq"].as_u64().unwrap();
    let patch = client.until("patch", |m| {
        m["type"] == "patch" && m["input"].as_u64() >= Some(seq)
    });
    let updated = patch["updated"].as_array().unwrap();
    assert_eq!(updated.len(), 1);
    assert_eq!(
        updated[0],
        json!({"id": "volume", "value": 3.0}),
        "only the changed field"
    );
    assert!(patch.get("added").is_none() && patch.get("removed").is_none());
}

#[test]
fn a_full_queue_drops_inputs_and_says_so() {
    let app = RunningApp::start("flood");
    let (mut client, _) = Client::handshake(&app.socket);
    app.pause();
    let n = taria_schema::protocol::INPUT_QUEUE_CAPACITY + 5;
    for seq in 1..=n {
        client.send(&json!({"type": "input", "seq": seq, "kind": "key", "key": "f1"}));
    }
    let mut dropped = 0;
    for _ in 0..5 {
        let ack = client.until("dropped ack", |m| m["type"] == "ack");
        assert_eq!(ack["status"], "dropped");
        dropped += 1;
    }
    app.resume();
    let mut delivered = 0;
    while delivered < taria_schema::protocol::INPUT_QUEUE_CAPACITY {
        let ack = client.until("delivered ack", |m| m["type"] == "ack");
        assert_eq!(ack["status"], "delivered");
        delivered += 1;
    }
    assert_eq!(
        (dropped, delivered),
        (5, taria_schema::protocol::INPUT_QUEUE_CAPACITY)
    );
}

#[test]
fn bad_lines_get_error_lines_and_the_connection_keeps_working() {
    let app = RunningApp::start("garbage");
    let (mut client, _) = Client::handshake(&app.socket);
    let cases: [(&[u8], &str); 5] = [
        (b"{not json\n", "malformed_json"),
        (b"\xff\xfe\n", "invalid_utf8"),
        (br#"{"type":"teleport"}"#, "unknown_type"),
        (b"[1,2]\n", "malformed_json"),
        (br#"{"type":"input","seq":"x"}"#, "malformed_json"),
    ];
    for (line, code) in cases {
        client.send_raw(line);
        if !line.ends_with(b"\n") {
            client.send_raw(b"\n");
        }
        let error = client.until(code, |m| m["type"] == "error");
        assert_eq!(error["code"], code, "{}", String::from_utf8_lossy(line));
    }
    let mut huge = vec![b'x'; taria_schema::protocol::MAX_LINE_BYTES + 10];
    huge.push(b'\n');
    client.send_raw(&huge);
    assert_eq!(
        client.until("too long", |m| m["type"] == "error")["code"],
        "line_too_long"
    );
    let (ack, _) = client.input_and_tree(
        json!({"kind": "act", "node": "volume", "action": "set_value", "value": 4}),
    );
    assert_eq!(ack["status"], "delivered", "still serving after garbage");
}

#[test]
fn unknown_fields_are_ignored() {
    let app = RunningApp::start("additive");
    let (mut client, _) = Client::handshake(&app.socket);
    let ack = client.input(json!({"kind": "act", "node": "volume", "action": "set_value", "value": 2, "future": {"x": 1}}));
    assert_eq!(ack["status"], "delivered");
}

#[test]
fn get_tree_and_get_screen_answer_on_request() {
    let app = RunningApp::start("requests");
    let (mut client, _) = Client::handshake(&app.socket);
    client.send(&json!({"type": "get_tree"}));
    let tree = client.until("tree", |m| m["type"] == "tree");
    assert!(tree["revision"].as_u64().unwrap() >= 2);
    client.send(&json!({"type": "get_screen"}));
    let screen = client.until("screen", |m| m["type"] == "screen");
    assert_eq!(screen["cols"], 40);
    assert_eq!(
        screen["rows"][0].as_str().unwrap().trim_end(),
        "[ ] Buy milk"
    );
    assert_eq!(screen["rows"].as_array().unwrap().len(), 8);
}

/// An app that draws in colour, with a wide character.
struct Colourful;

impl taria::Actions for Colourful {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

impl crate::support::LoopApp for Colourful {
    fn render(&mut self, frame: &mut ratatui::Frame<'_>) {
        use ratatui::style::{Color, Style};
        use ratatui::text::{Line, Span};
        let line = Line::from(vec![
            Span::styled("ok", Style::new().fg(Color::Red).bold()),
            Span::raw(" 界 "),
            Span::styled("x", Style::new().bg(Color::Rgb(0, 128, 255))),
        ]);
        frame.render_widget(ratatui::widgets::Paragraph::new(line), frame.area());
    }

    fn on_event(&mut self, _: &ratatui::crossterm::event::Event) {}
}

/// `get_screen` with `styles`: the text as before, and each row's runs of one style
/// covering its columns (a wide character one run of two); without it, no styles.
#[test]
fn get_screen_with_styles_answers_the_colours_the_frame_drew() {
    let socket = crate::support::temp_dir("styles").join("app.sock");
    let app = RunningApp::launch(&socket, Colourful, 10, 2);
    let (mut client, _) = Client::handshake(&app.socket);
    client.send(&json!({"type": "get_screen"}));
    let plain = client.until("screen", |m| m["type"] == "screen");
    assert!(plain.get("styles").is_none(), "{plain}");
    client.send(&json!({"type": "get_screen", "styles": true}));
    let screen = client.until("screen", |m| m["type"] == "screen");
    assert_eq!(screen["rows"][0], "ok 界 x   ");
    let styles = &screen["styles"];
    assert_eq!(
        styles["rows"][0],
        json!([
            ["ok", 2, 0],
            [" ", 1, 1],
            ["界", 2, 1],
            [" ", 1, 1],
            ["x", 1, 2],
            ["   ", 3, 1]
        ])
    );
    assert_eq!(
        styles["styles"],
        json!([{"fg": "Red", "modifiers": ["bold"]}, {}, {"bg": "#0080FF"}])
    );
    assert_eq!(styles["rows"][1], json!([["          ", 10, 1]]));
}

/// A bridge whose hello asks for screens after the app's first tree went out gets
/// that tree's screen before the next frame's patch: the bridge pairs each tree with
/// the screen drawn with it (a recording's `screen`), and the next frame's screen
/// alone would leave the first tree without one. The first tree is larger than the
/// socket's buffer and the client reads nothing until the hello is in and the second
/// frame drawn, so the writer meets both in one turn.
#[test]
fn screens_asked_after_the_first_tree_include_that_trees_screen() {
    use std::io::{ErrorKind, Read};
    use std::time::{Duration, Instant};

    let socket = crate::support::temp_dir("late-screens").join("app.sock");
    let mut session = taria::Session::builder("test-app")
        .socket(&socket)
        .terminal_input(false)
        .try_start()
        .unwrap();
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(30, 3)).unwrap();
    let mut draw = |session: &mut taria::Session, last: &str| {
        session
            .draw(&mut terminal, |frame| {
                // ~600 kB of tree, well over a Unix socket's send buffer.
                for row in 0..3000 {
                    taria::leaf(|n| {
                        n.role(taria::Role::Text)
                            .id(format_args!("row/{row}"))
                            .label(format_args!("{row:0>180}"));
                    });
                }
                taria::leaf(|n| {
                    n.role(taria::Role::Heading).id("last").label(last);
                });
                frame.render_widget(last, frame.area());
            })
            .unwrap();
    };
    let mut client = Client::connect(&socket);
    // The app publishes frames once it has taken the connection: draw until the
    // first tree starts coming.
    let deadline = Instant::now() + Duration::from_secs(5);
    let mut received = Vec::new();
    let mut chunk = vec![0; 64 * 1024];
    let patience = Some(Duration::from_millis(50));
    client.stream.set_read_timeout(patience).unwrap();
    while !String::from_utf8_lossy(&received).contains(r#""type":"tree""#) {
        assert!(Instant::now() < deadline, "no tree came");
        draw(&mut session, "first");
        match client.stream.read(&mut chunk) {
            Ok(n) => received.extend_from_slice(&chunk[..n]),
            Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut) => {}
            Err(e) => panic!("read failed: {e}"),
        }
    }
    let patience = Some(Duration::from_secs(5));
    client.stream.set_read_timeout(patience).unwrap();
    // The writer is in the middle of the first tree. The hello, then a key: once the
    // app's loop has the key, the hello before it has been read.
    client.send(&json!({"type": "hello", "v": 1, "client": "test", "screens": true}));
    client.send(&json!({"type": "input", "seq": 1, "kind": "key", "key": "f1"}));
    while session.drain(&mut ()) == 0 {
        assert!(Instant::now() < deadline, "the key never came");
        std::thread::sleep(Duration::from_millis(5));
    }
    draw(&mut session, "second");
    let lines = raw_lines_until(&mut client, received, |lines| {
        lines.iter().any(|m| {
            m["type"] == "screen"
                && lines
                    .iter()
                    .any(|p| p["type"] == "patch" && p["revision"] == m["revision"])
        })
    });
    let sent: Vec<(String, u64)> = lines
        .iter()
        .filter(|m| matches!(m["type"].as_str(), Some("tree" | "patch" | "screen")))
        .map(|m| {
            (
                m["type"].as_str().unwrap().to_owned(),
                m["revision"].as_u64().unwrap(),
            )
        })
        .collect();
    let patch = sent.iter().find(|(kind, _)| kind == "patch").unwrap().1;
    assert_eq!(
        sent,
        [
            ("tree".to_owned(), 1),
            ("screen".to_owned(), 1),
            ("patch".to_owned(), patch),
            ("screen".to_owned(), patch),
        ],
        "each tree and patch with its own screen once screens are asked for"
    );
    let screen = |revision: u64| {
        lines
            .iter()
            .find(|m| m["type"] == "screen" && m["revision"] == revision)
            .unwrap()["rows"][0]
            .as_str()
            .unwrap()
            .trim_end()
            .to_owned()
    };
    assert_eq!(screen(1), "first");
    assert_eq!(screen(patch), "second");
}

/// Reads `client`'s raw stream (after `received`, bytes already read from it) into
/// lines until `done` says they are enough; panics after 5 s.
fn raw_lines_until(
    client: &mut Client,
    mut received: Vec<u8>,
    done: impl Fn(&[serde_json::Value]) -> bool,
) -> Vec<serde_json::Value> {
    use std::io::Read;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    let mut lines = Vec::new();
    let mut chunk = vec![0; 64 * 1024];
    loop {
        let whole = received
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |end| end + 1);
        let complete: Vec<u8> = received.drain(..whole).collect();
        lines.extend(
            complete
                .split(|&b| b == b'\n')
                .filter(|line| !line.is_empty())
                .map(|line| serde_json::from_slice::<serde_json::Value>(line).unwrap()),
        );
        if done(&lines) {
            return lines;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "timed out reading: {lines:?}"
        );
        let n = client.stream.read(&mut chunk).unwrap();
        assert!(n > 0, "the stream ended: {lines:?}");
        received.extend_from_slice(&chunk[..n]);
    }
}
