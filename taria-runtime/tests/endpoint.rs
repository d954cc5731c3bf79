//! The endpoint over a real Unix socket, with a real app loop on a thread.
#![cfg(unix)]
#![expect(clippy::unwrap_used, reason = "tests: a failed step fails the test")]

mod support;

use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::json;
use support::{Between, Client, RunningApp, TestApp, temp_dir};
use taria::{Checked, Session, Value};

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
fn a_handler_runs_and_the_patch_stamped_with_the_input_shows_its_effect() {
    let app = RunningApp::start("handler");
    let (mut client, _) = Client::handshake(&app.socket);
    let (ack, tree) = client.input_and_tree(
        json!({"kind": "act", "node": "volume", "action": "set_value", "value": 7}),
    );
    assert_eq!(ack["status"], "delivered");
    assert_eq!(tree.get("volume").unwrap().value, Some(Value::Number(7.0)));
    assert_eq!(app.app.lock().unwrap().volume, 7);
    assert!(client.revision >= 2, "a patch followed the first tree");
}

/// An app whose header, drawn before its list, names the selected task, and whose
/// list takes `select` itself while it renders (as a stateful widget does).
#[derive(Default)]
struct HeaderApp {
    selected: usize,
}

const HEADER_TASKS: [&str; 3] = ["Buy milk", "Walk dog", "Ship v0"];

impl taria::Actions for HeaderApp {
    fn handle_action(&mut self, inv: &taria::Invocation<'_>) -> taria::Outcome {
        match (inv.target(), inv.action().as_str()) {
            ("ping", "activate") => taria::Outcome::Handled,
            _ => taria::Outcome::NotHandled,
        }
    }
}

impl support::LoopApp for HeaderApp {
    fn render(&mut self, _: &mut ratatui::Frame<'_>) {
        let header = format!("Selected: {}", HEADER_TASKS[self.selected]);
        taria::leaf(|n| {
            n.role(taria::Role::Heading).id("header").label(&header);
        });
        let selected = &mut self.selected;
        taria::widget::take_widget_actions("tasks", |action| {
            match action
                .matches("tasks/*")
                .and_then(|i| i.parse::<usize>().ok())
            {
                Some(i) if action.is(taria::Action::Select) && i < HEADER_TASKS.len() => {
                    *selected = i;
                    taria::Outcome::Handled
                }
                _ => taria::Outcome::NotHandled,
            }
        });
        let list = taria::scope(|n| {
            n.role(taria::Role::List).id("tasks");
        });
        for (i, title) in HEADER_TASKS.iter().enumerate() {
            taria::leaf(|n| {
                n.role(taria::Role::ListItem)
                    .key(i)
                    .label(*title)
                    .selected(i == self.selected)
                    .action(taria::Action::Select);
            });
        }
        drop(list);
        taria::leaf(|n| {
            n.role(taria::Role::Button)
                .id("ping")
                .action(taria::Action::Activate);
        });
    }

    fn on_event(&mut self, _: &ratatui::crossterm::event::Event) {}
}

/// A widget takes an action in the middle of a frame, after the header above it
/// was drawn: the tree an agent gets back is the frame after, which shows the whole
/// app's reaction, not that half-updated one.
///
/// The app's loop waits 10 s for events, as a real loop waits without a timer: the
/// frame after is drawn because the session wakes the loop for it, not by a tick.
#[test]
fn the_tree_after_a_widget_took_an_action_shows_the_whole_apps_reaction() {
    let socket = temp_dir("reaction").join("app.sock");
    let wait = Duration::from_secs(10);
    let app = RunningApp::launch_waiting(
        &socket,
        HeaderApp::default(),
        (40, 8),
        Between::Events(wait),
    );
    let (mut client, _) = Client::handshake(&app.socket);
    for (node, header) in [
        ("tasks/2", "Selected: Ship v0"),
        ("tasks/1", "Selected: Walk dog"),
    ] {
        let started = std::time::Instant::now();
        let (ack, tree) =
            client.input_and_tree(json!({"kind": "act", "node": node, "action": "select"}));
        let took = started.elapsed();
        assert!(
            took < wait / 2,
            "{took:?}: the frame after waited for the loop's timeout"
        );
        assert_eq!(ack["status"], "delivered", "{ack}");
        assert!(tree.get(node).unwrap().state.selected);
        assert_eq!(
            tree.get("header").unwrap().label.as_deref(),
            Some(header),
            "{}",
            tree.outline()
        );
    }
    // Wake the loop from its long wait so that it sees the stop at once.
    app.ask_to_stop();
    client.send(
        &json!({"type": "input", "seq": 3, "kind": "act", "node": "ping", "action": "activate"}),
    );
}

/// A widget's input and a handler's later input, drained in one turn: the frame the
/// widget took its input in is stamped below both, so neither gets it as its effect.
/// The loop draws every 200 ms on its own clock, so that frame is sent on its own
/// (not merged by the writer with the one after).
#[test]
fn a_later_handled_input_does_not_stamp_the_frame_a_widget_took_an_earlier_one_in() {
    let socket = temp_dir("same-turn").join("app.sock");
    let between = Between::Sleep(Duration::from_millis(200));
    let app = RunningApp::launch_waiting(&socket, HeaderApp::default(), (40, 8), between);
    let (mut client, _) = Client::handshake(&app.socket);
    app.pause();
    client.send(
        &json!({"type": "input", "seq": 1, "kind": "act", "node": "tasks/2", "action": "select"}),
    );
    client.send(
        &json!({"type": "input", "seq": 2, "kind": "act", "node": "ping", "action": "activate"}),
    );
    std::thread::sleep(Duration::from_millis(50));
    app.resume();
    client.until("the tree after input 1", |m| {
        m["input"].as_u64().is_some_and(|i| i >= 1)
    });
    let tree = client.current();
    assert_eq!(
        tree.get("header").unwrap().label.as_deref(),
        Some("Selected: Ship v0"),
        "{}",
        tree.outline()
    );
}

/// A loop that draws only when its own state changed (here: once) and then only
/// waits for events: an input held for its widgets wakes it once, not in a spin.
#[test]
fn a_loop_that_does_not_draw_is_woken_once_for_a_held_input_not_spun() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    let socket = temp_dir("no-spin").join("app.sock");
    let options = Session::builder("test-app")
        .socket(&socket)
        .terminal_input(false);
    let mut session = options.try_start().unwrap();
    let (turns, stop) = (
        Arc::new(AtomicUsize::new(0)),
        Arc::new(AtomicBool::new(false)),
    );
    let thread = {
        let (turns, stop) = (Arc::clone(&turns), Arc::clone(&stop));
        std::thread::spawn(move || {
            let mut app = HeaderApp::default();
            let backend = ratatui::backend::TestBackend::new(40, 8);
            let mut terminal = ratatui::Terminal::new(backend).unwrap();
            let mut drawn = false;
            while !stop.load(Ordering::Relaxed) {
                session.drain(&mut app);
                if !drawn && session.is_connected() {
                    session
                        .draw(&mut terminal, |f| support::LoopApp::render(&mut app, f))
                        .unwrap();
                    drawn = true;
                }
                turns.fetch_add(1, Ordering::Relaxed);
                let _ = session.next_event(Some(Duration::from_millis(200)));
            }
        })
    };
    let (mut client, _) = Client::handshake(&socket);
    std::thread::sleep(Duration::from_millis(100));
    let before = turns.load(Ordering::Relaxed);
    client.send(
        &json!({"type": "input", "seq": 1, "kind": "act", "node": "tasks/2", "action": "select"}),
    );
    std::thread::sleep(Duration::from_millis(500));
    let spent = turns.load(Ordering::Relaxed) - before;
    stop.store(true, Ordering::Relaxed);
    thread.join().unwrap();
    // Woken by the input's arrival and once by drain; then 200 ms waits.
    assert!(spent < 20, "{spent} loop turns in 0.5 s");
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
fn keys_and_text_reach_the_apps_input_path_in_order() {
    let app = RunningApp::start("keys");
    let (mut client, _) = Client::handshake(&app.socket);
    let (ack, tree) = client.input_and_tree(json!({"kind": "key", "key": "down"}));
    assert_eq!(ack["status"], "delivered");
    assert!(tree.get("tasks/1").unwrap().state.selected);
    // No text input has focus: text is refused and nothing is pressed, unless raw.
    let refused = client.input(json!({"kind": "text", "text": "Hi\n"}));
    assert_eq!(
        (&refused["status"], &refused["reason"]),
        (&json!("rejected"), &json!("no_text_input")),
        "{refused}"
    );
    assert_eq!(app.app.lock().unwrap().keys, ["down"]);
    let (ack, _) = client.input_and_tree(json!({"kind": "text", "text": "Hi\n", "raw": true}));
    assert_eq!(ack["status"], "delivered");
    assert_eq!(
        app.app.lock().unwrap().keys,
        ["down", "shift+H", "i", "enter"]
    );
}

/// Inputs sent in one write reach the app's input path in the order they were sent,
/// the keys an action's key fallback turns into included. (Before, a key sent after
/// an action was read before the action's fallback keys.)
#[test]
fn a_key_sent_after_a_key_fallback_action_is_read_after_its_keys() {
    let app = keys_only("fallback-order");
    let (mut client, _) = Client::handshake(&app.socket);
    client.send_raw(
        concat!(
            r#"{"type":"input","seq":1,"kind":"act","node":"tasks/2","action":"toggle"}"#,
            "\n",
            r#"{"type":"input","seq":2,"kind":"key","key":"x"}"#,
            "\n",
            r#"{"type":"input","seq":3,"kind":"text","text":"yz","raw":true}"#,
            "\n",
        )
        .as_bytes(),
    );
    for seq in 1..=3 {
        let ack = client.until("ack", |m| m["type"] == "ack" && m["seq"] == seq);
        assert_eq!(ack["status"], "delivered", "{ack}");
    }
    assert_eq!(
        app.app.lock().unwrap().keys,
        ["down", "down", "space", "x", "y", "z"]
    );
}

/// The test app with a list that takes no `select` itself.
fn keys_only(name: &str) -> RunningApp {
    let app = TestApp {
        keys_only: true,
        ..TestApp::new()
    };
    RunningApp::launch(&temp_dir(name).join("app.sock"), app, 40, 8)
}

#[test]
fn a_key_fallback_selects_the_item_then_presses_its_key() {
    let app = keys_only("fallback");
    let (mut client, _) = Client::handshake(&app.socket);
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/2", "action": "toggle"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    let shipped = tree.get("tasks/2").unwrap();
    assert_eq!(shipped.state.checked, Some(Checked::True));
    assert!(shipped.state.selected);
    assert_eq!(app.app.lock().unwrap().keys, ["down", "down", "space"]);
    // Back up the list: the fallback presses `up`.
    let (_, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/0", "action": "toggle"}));
    assert_eq!(
        tree.get("tasks/0").unwrap().state.checked,
        Some(Checked::True)
    );
    assert_eq!(app.app.lock().unwrap().keys[3..], ["up", "up", "space"]);
}

/// Issue 14: a widget that takes `select` selects the item for a key fallback, so
/// no navigation keys are pressed.
#[test]
fn a_key_fallback_has_the_widget_select_the_item_then_presses_its_key() {
    let app = RunningApp::start("widget-select-first");
    let (mut client, _) = Client::handshake(&app.socket);
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/2", "action": "toggle"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    let shipped = tree.get("tasks/2").unwrap();
    assert!(shipped.state.selected);
    assert_eq!(shipped.state.checked, Some(Checked::True));
    assert_eq!(app.app.lock().unwrap().keys, ["space"]);
}

#[test]
fn a_stateful_widget_takes_the_actions_addressed_to_it_without_app_code() {
    let app = RunningApp::start("widget");
    let (mut client, _) = Client::handshake(&app.socket);
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/2", "action": "select"}));
    assert_eq!(ack["status"], "delivered", "{ack}");
    assert!(
        tree.get("tasks/2").unwrap().state.selected,
        "the frame stamped with the input shows it"
    );
    assert!(
        app.app.lock().unwrap().keys.is_empty(),
        "no keys were needed"
    );
    // What the widget declines still reaches the key fallback.
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/2", "action": "toggle"}));
    assert_eq!(ack["status"], "delivered");
    assert_eq!(
        tree.get("tasks/2").unwrap().state.checked,
        Some(Checked::True)
    );
    assert_eq!(
        app.app.lock().unwrap().keys,
        ["space"],
        "already selected: only the toggle key"
    );
}

#[test]
fn custom_actions_reach_their_handler() {
    let app = RunningApp::start("custom");
    let (mut client, _) = Client::handshake(&app.socket);
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/0", "action": "archive"}));
    assert_eq!(ack["status"], "delivered");
    assert_eq!(
        tree.get("tasks/0").unwrap().label.as_deref(),
        Some("Walk dog")
    );
    assert!(tree.get("tasks/2").is_none());
}

#[test]
fn every_rejection_says_why() {
    let app = RunningApp::start("reject");
    let (mut client, _) = Client::handshake(&app.socket);
    let cases = [
        (
            json!({"kind": "act", "node": "nope", "action": "activate"}),
            "rejected",
            "unknown_node",
        ),
        (
            json!({"kind": "act", "node": "volume", "action": "toggle"}),
            "rejected",
            "action_not_offered",
        ),
        (
            json!({"kind": "act", "node": "volume", "action": "set_value", "value": 11}),
            "rejected",
            "out_of_domain",
        ),
        (
            json!({"kind": "act", "node": "volume", "action": "set_value", "value": 2.5}),
            "rejected",
            "out_of_domain",
        ),
        (
            json!({"kind": "act", "node": "volume", "action": "set_value"}),
            "rejected",
            "out_of_domain",
        ),
        (
            json!({"kind": "act", "node": "tasks/0", "action": "toggle", "token": "0000000000000000"}),
            "rejected",
            "stale_target",
        ),
        // Protocol v1's order: offered before the token, the token before the value.
        (
            json!({"kind": "act", "node": "volume", "action": "toggle", "token": "0000000000000000"}),
            "rejected",
            "action_not_offered",
        ),
        (
            json!({"kind": "act", "node": "volume", "action": "set_value", "value": 11, "token": "0000000000000000"}),
            "rejected",
            "stale_target",
        ),
        (
            json!({"kind": "act", "node": "refuse", "action": "activate"}),
            "rejected",
            "handler_rejected",
        ),
        (
            json!({"kind": "act", "node": "name", "action": "set_value", "value": "Bob"}),
            "ignored",
            "no_route",
        ),
        (
            json!({"kind": "key", "key": "ctrl+nope"}),
            "rejected",
            "invalid_input",
        ),
        (
            json!({"kind": "text", "text": "x".repeat(taria::wire::protocol::MAX_TEXT_CHARS + 1)}),
            "rejected",
            "invalid_input",
        ),
    ];
    for (input, status, reason) in cases {
        let ack = client.input(input.clone());
        assert_eq!(
            (ack["status"].as_str(), ack["reason"].as_str()),
            (Some(status), Some(reason)),
            "{input} -> {ack}"
        );
        assert!(
            ack["message"].as_str().is_some_and(|m| !m.is_empty()),
            "{ack}"
        );
    }
    app.app.lock().unwrap().locked = true;
    client.input_and_tree(json!({"kind": "key", "key": "f5"})); // a redraw shows `disabled`
    let ack =
        client.input(json!({"kind": "act", "node": "volume", "action": "set_value", "value": 1}));
    assert_eq!(ack["reason"], "disabled");
    assert_eq!(
        app.app.lock().unwrap().volume,
        0,
        "nothing rejected reached the app"
    );
}

#[test]
fn a_matching_token_passes_and_a_changed_node_is_stale() {
    let app = RunningApp::start("token");
    let (mut client, _) = Client::handshake(&app.socket);
    let tree = client.current();
    let token = taria::wire::protocol::target_token(tree.get("tasks/1").unwrap());
    let (ack, _) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/0", "action": "archive"}));
    assert_eq!(ack["status"], "delivered");
    // tasks/1 is now "Ship v0": the token for "Walk dog" no longer matches.
    let ack = client
        .input(json!({"kind": "act", "node": "tasks/1", "action": "archive", "token": token}));
    assert_eq!(ack["reason"], "stale_target", "{ack}");
    assert_eq!(app.app.lock().unwrap().tasks.len(), 2);
}

#[test]
fn a_full_queue_drops_inputs_and_says_so() {
    let app = RunningApp::start("flood");
    let (mut client, _) = Client::handshake(&app.socket);
    app.pause();
    let n = taria::wire::protocol::INPUT_QUEUE_CAPACITY + 5;
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
    while delivered < taria::wire::protocol::INPUT_QUEUE_CAPACITY {
        let ack = client.until("delivered ack", |m| m["type"] == "ack");
        assert_eq!(ack["status"], "delivered");
        delivered += 1;
    }
    assert_eq!(
        (dropped, delivered),
        (5, taria::wire::protocol::INPUT_QUEUE_CAPACITY)
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
    let mut huge = vec![b'x'; taria::wire::protocol::MAX_LINE_BYTES + 10];
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

#[test]
fn a_second_client_is_told_the_app_is_busy() {
    let app = RunningApp::start("busy");
    let (_first, _) = Client::handshake(&app.socket);
    let mut second = Client::connect(&app.socket);
    let error = second.next().expect("an error line");
    assert_eq!(error["code"], "busy");
    assert!(second.next().is_none(), "then the connection closes");
}

#[test]
fn a_mid_line_disconnect_loses_only_that_line_and_the_next_client_is_served() {
    let app = RunningApp::start("midline");
    {
        let (mut client, _) = Client::handshake(&app.socket);
        client
            .send_raw(br#"{"type":"input","seq":1,"kind":"act","node":"volume","action":"set_va"#);
    }
    let (mut client, _) = Client::hello_when_free(&app.socket);
    client.until("first tree", |m| m["type"] == "tree");
    let (ack, tree) = client.input_and_tree(
        json!({"kind": "act", "node": "volume", "action": "set_value", "value": 9}),
    );
    assert_eq!(ack["status"], "delivered");
    assert_eq!(tree.get("volume").unwrap().value, Some(Value::Number(9.0)));
}

#[test]
fn inputs_queued_by_a_closed_connection_are_discarded() {
    let app = RunningApp::start("discard");
    {
        let (mut client, _) = Client::handshake(&app.socket);
        app.pause();
        client.send(&json!({"type": "input", "seq": 1, "kind": "act", "node": "volume", "action": "set_value", "value": 5}));
        std::thread::sleep(Duration::from_millis(100));
    }
    let (mut client, _) = Client::hello_when_free(&app.socket);
    app.resume();
    client.until("first tree", |m| m["type"] == "tree");
    let (ack, _) = client.input_and_tree(json!({"kind": "key", "key": "f2"}));
    assert_eq!(
        (ack["seq"].as_u64(), ack["status"].as_str()),
        (Some(1), Some("delivered")),
        "only our own ack"
    );
    assert_eq!(
        app.app.lock().unwrap().volume,
        0,
        "the old connection's input was not applied"
    );
}

#[test]
fn a_stale_socket_file_is_replaced() {
    let dir = temp_dir("stale");
    let socket = dir.join("app.sock");
    drop(std::os::unix::net::UnixListener::bind(&socket).unwrap());
    assert!(socket.exists(), "a socket file nobody listens on");
    let app = RunningApp::start_at(&socket);
    let (client, _) = Client::handshake(&app.socket);
    assert!(client.current().get("volume").is_some());
}

#[test]
fn a_label_in_use_is_a_clear_error_and_the_app_still_runs() {
    let app = RunningApp::start("inuse");
    let options = Session::builder("test-app")
        .socket(&app.socket)
        .terminal_input(false);
    let error = options.clone().try_start().unwrap_err();
    assert!(
        matches!(error, taria::EndpointError::LabelInUse { .. }),
        "{error}"
    );
    assert!(error.to_string().contains("is in use"), "{error}");
    // The non-failing constructor runs the app without agent access.
    let mut session = options.start();
    assert!(session.start_error().is_some_and(|e| e.contains("in use")));
    let mut terminal = ratatui::Terminal::new(ratatui::backend::TestBackend::new(10, 2)).unwrap();
    session
        .draw(&mut terminal, |f| {
            f.render_widget("still drawing", f.area());
        })
        .unwrap();
    assert_eq!(session.drain(&mut ()), 0);
    // The first app is untouched.
    let (client, _) = Client::handshake(&app.socket);
    assert!(client.current().get("volume").is_some());
}

#[test]
fn the_socket_directory_is_created_private_and_a_symlinked_one_is_refused() {
    use std::os::unix::fs::PermissionsExt;
    let base = temp_dir("dirs");
    let private = base.join("run").join("taria");
    let session = Session::builder("a")
        .socket(private.join("a.sock"))
        .terminal_input(false)
        .try_start()
        .unwrap();
    let mode = std::fs::metadata(&private).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o700);
    drop(session);

    let elsewhere = temp_dir("target");
    let link = base.join("link");
    std::os::unix::fs::symlink(&elsewhere, &link).unwrap();
    let error = Session::builder("b")
        .socket(link.join("b.sock"))
        .terminal_input(false)
        .try_start()
        .unwrap_err();
    assert!(
        matches!(error, taria::EndpointError::InsecureDirectory { .. }),
        "{error}"
    );
    assert!(!elsewhere.join("b.sock").exists());

    let open = temp_dir("open");
    std::fs::set_permissions(&open, std::fs::Permissions::from_mode(0o777)).unwrap();
    let error = Session::builder("c")
        .socket(open.join("c.sock"))
        .terminal_input(false)
        .try_start()
        .unwrap_err();
    assert!(error.to_string().contains("0700"), "{error}");
}

#[test]
fn the_socket_file_is_removed_when_the_session_ends() {
    let dir = temp_dir("cleanup");
    let socket = dir.join("app.sock");
    let session = Session::builder("x")
        .socket(&socket)
        .terminal_input(false)
        .try_start()
        .unwrap();
    assert!(socket.exists());
    drop(session);
    assert!(!socket.exists());
}

/// The bug: an app that quit removed whatever socket file was at its path, even a
/// newer app's, which nobody could then reach.
#[test]
fn an_app_that_quits_leaves_a_newer_apps_socket_in_place() {
    let socket = temp_dir("newer").join("app.sock");
    let options = Session::builder("older")
        .socket(&socket)
        .terminal_input(false);
    let older = options.clone().try_start().unwrap();
    // Its file goes (someone cleans up), and a newer app binds the path.
    std::fs::remove_file(&socket).unwrap();
    let newer = RunningApp::start_at(&socket);
    drop(older);
    assert!(
        socket.exists(),
        "the newer app's socket file is still there"
    );
    let (client, _) = Client::handshake(&newer.socket);
    assert!(
        client.current().get("volume").is_some(),
        "and it is reachable"
    );
}

/// The bug: a `TARIA_SOCKET` longer than a socket address holds made a file nothing
/// could connect to, and the app said nothing.
#[test]
fn a_socket_path_too_long_for_a_socket_address_is_refused_saying_so() {
    let dir = temp_dir("long");
    let name = "s".repeat(120usize.saturating_sub(dir.as_os_str().len()).max(8));
    let socket = dir.join(format!("{name}.sock"));
    assert!(socket.as_os_str().len() > 108);
    let options = Session::builder("long")
        .socket(&socket)
        .terminal_input(false);
    let error = options.clone().try_start().unwrap_err();
    assert!(
        matches!(error, taria::EndpointError::PathTooLong { .. }),
        "{error}"
    );
    let message = error.to_string();
    assert!(
        message.contains("at most 107 bytes") && message.contains("TARIA_SOCKET"),
        "{message}"
    );
    assert!(!socket.exists(), "no file nothing can connect to");
    // The app still runs, and knows why agent access is off.
    let session = options.start();
    assert!(session.start_error().is_some_and(|e| e.contains("at most")));
}

/// An app killed by a signal leaves its socket file: taria installs no signal
/// handlers (they would change how the app dies). A client is refused meanwhile (the
/// bridge then says the socket is left over from an app that is no longer running),
/// and the app's next start replaces the file.
#[test]
fn an_app_killed_by_a_signal_leaves_its_socket_and_its_next_start_replaces_it() {
    let socket = temp_dir("killed").join("app.sock");
    let mut child = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "app_serving_until_killed",
            "--ignored",
            "--nocapture",
        ])
        .env("TARIA_TEST_SOCKET", &socket)
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    while std::os::unix::net::UnixStream::connect(&socket).is_err() {
        assert!(
            Instant::now() < deadline,
            "the app process did not serve its socket"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let killed = std::process::Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .unwrap();
    assert!(killed.success());
    let status = child.wait().unwrap();
    assert!(!status.success(), "{status:?}");
    assert!(socket.exists(), "the file is left behind");
    let refused = std::os::unix::net::UnixStream::connect(&socket).unwrap_err();
    assert_eq!(refused.kind(), std::io::ErrorKind::ConnectionRefused);
    let app = RunningApp::start_at(&socket);
    let (client, _) = Client::handshake(&app.socket);
    assert!(client.current().get("volume").is_some());
}

/// The app [`an_app_killed_by_a_signal_leaves_its_socket_and_its_next_start_replaces_it`]
/// runs in a process of its own: it serves `TARIA_TEST_SOCKET` until it is killed.
#[test]
#[ignore = "the app process an_app_killed_by_a_signal_… starts"]
fn app_serving_until_killed() {
    let socket = std::env::var_os("TARIA_TEST_SOCKET").expect("TARIA_TEST_SOCKET");
    let _app = RunningApp::start_at(std::path::Path::new(&socket));
    std::thread::sleep(Duration::from_secs(60));
}

#[test]
fn a_client_that_stops_reading_does_not_block_the_app() {
    let app = RunningApp::start("stall");
    let mut client = Client::connect(&app.socket);
    client.stream.set_nonblocking(true).unwrap();
    // Flood requests for screens and trees and never read an answer.
    let flood = b"{\"type\":\"get_screen\"}\n{\"type\":\"get_tree\"}\n".repeat(200);
    for _ in 0..200 {
        let _ = client.stream.write(&flood);
    }
    // Keep the app redrawing: each loop turn waits up to 20 ms for an event. The
    // deadline stays under the endpoint's 5 s send timeout, after which it drops the
    // stalled client (and a blocked loop would turn again).
    let before = app.turns.load(Ordering::Relaxed);
    let deadline = Instant::now() + Duration::from_secs(3);
    while app.turns.load(Ordering::Relaxed) <= before + 5 {
        assert!(
            Instant::now() < deadline,
            "the app loop stopped turning ({before} -> {})",
            app.turns.load(Ordering::Relaxed)
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// The socket file appears only once the app accepts connections: a client that
/// connects the moment it sees the file is never refused. (Binding creates the file a
/// moment before listening; a connection in between is refused as if the app were
/// dead.) A watcher polls for the file while sessions start, many times over.
#[test]
fn a_client_that_sees_the_socket_file_can_connect_at_once() {
    use std::sync::atomic::AtomicBool;
    use std::sync::{Arc, Barrier};
    let dir = temp_dir("publish");
    let mut connected = 0;
    // Until the watcher has raced 200 starts: on a loaded machine it comes too late
    // to most (it raced 37 of 3,000 once), so a fixed count of rounds is not enough.
    for round in 0..30_000 {
        if connected == 200 {
            break;
        }
        let socket = dir.join(format!("{round}.sock"));
        let (ready, stop) = (Arc::new(Barrier::new(2)), Arc::new(AtomicBool::new(false)));
        let watcher = {
            let (socket, ready, stop) = (socket.clone(), Arc::clone(&ready), Arc::clone(&stop));
            std::thread::spawn(move || {
                ready.wait();
                while !stop.load(Ordering::Relaxed) {
                    if std::fs::symlink_metadata(&socket).is_ok() {
                        return Some(std::os::unix::net::UnixStream::connect(&socket).map(drop));
                    }
                }
                None
            })
        };
        let options = Session::builder("publish")
            .socket(&socket)
            .terminal_input(false);
        ready.wait();
        let session = options.try_start().unwrap();
        stop.store(true, Ordering::Relaxed);
        if let Some(connection) = watcher.join().unwrap() {
            assert!(
                connection.is_ok(),
                "round {round}: the file was there before the app listened: {connection:?}"
            );
            connected += 1;
        }
        drop(session);
    }
    // The watcher must have raced the starts, not come too late to every one (it
    // connects in about 9 rounds of 10 on an idle machine).
    assert!(
        connected >= 100,
        "the watcher saw the file in {connected} rounds only"
    );
}

/// A task list whose `delete` opens a confirmation dialog over the whole app (modal);
/// its `submit` deletes the task it was opened for. A filter can be chosen behind it.
struct ConfirmApp {
    tasks: Vec<&'static str>,
    confirming: Option<usize>,
    filter: &'static str,
}

impl ConfirmApp {
    fn new() -> ConfirmApp {
        ConfirmApp {
            tasks: vec!["Buy milk", "Write the README", "Record a demo"],
            confirming: None,
            filter: "all",
        }
    }
}

impl taria::Actions for ConfirmApp {
    fn handle_action(&mut self, inv: &taria::Invocation<'_>) -> taria::Outcome {
        let task = inv.matches("tasks/*").and_then(|i| i.parse::<usize>().ok());
        match (inv.action().as_str(), task, inv.target()) {
            ("delete", Some(i), _) if i < self.tasks.len() => self.confirming = Some(i),
            ("select", None, "filter/done") => self.filter = "done",
            ("submit", None, "confirm") => {
                if let Some(i) = self.confirming.take() {
                    self.tasks.remove(i);
                }
            }
            _ => return taria::Outcome::NotHandled,
        }
        taria::Outcome::Handled
    }
}

impl support::LoopApp for ConfirmApp {
    fn render(&mut self, frame: &mut ratatui::Frame<'_>) {
        {
            let _list = taria::scope(|n| {
                n.role(taria::Role::List).id("tasks");
            });
            for (i, title) in self.tasks.iter().enumerate() {
                taria::leaf(|n| {
                    n.role(taria::Role::ListItem)
                        .key(i)
                        .label(title)
                        .custom_action("delete");
                });
            }
        }
        taria::leaf(|n| {
            n.role(taria::Role::Tab)
                .id("filter/done")
                .label("Done")
                .selected(self.filter == "done")
                .action(taria::Action::Select);
        });
        if let Some(i) = self.confirming {
            taria::leaf(|n| {
                n.role(taria::Role::Dialog)
                    .id("confirm")
                    .label(format_args!("Delete \"{}\"?", self.tasks[i]))
                    .modal(true)
                    .action(taria::Action::Submit);
            });
        }
        frame.render_widget(
            ratatui::widgets::Paragraph::new(self.tasks.join("\n")),
            frame.area(),
        );
    }

    fn on_event(&mut self, _: &ratatui::crossterm::event::Event) {}
}

/// The bug: inputs sent in one write were all checked against the tree drawn before
/// the first, so `select` went through behind the dialog `delete` had just opened.
#[test]
fn an_input_is_checked_against_what_the_inputs_before_it_did() {
    let socket = temp_dir("settle").join("app.sock");
    let app = RunningApp::launch(&socket, ConfirmApp::new(), 40, 8);
    let (mut client, _) = Client::handshake(&app.socket);
    // Both in one write, as a bridge pipelining two calls sends them.
    client.send_raw(
        concat!(
            r#"{"type":"input","seq":1,"kind":"act","node":"tasks/2","action":"delete"}"#,
            "\n",
            r#"{"type":"input","seq":2,"kind":"act","node":"filter/done","action":"select"}"#,
            "\n",
        )
        .as_bytes(),
    );
    let first = client.until("ack 1", |m| m["type"] == "ack" && m["seq"] == 1);
    let second = client.until("ack 2", |m| m["type"] == "ack" && m["seq"] == 2);
    assert_eq!(first["status"], "delivered");
    assert_eq!(second["status"], "rejected", "{second}");
    assert_eq!(second["reason"], "action_not_offered", "{second}");
    assert_eq!(
        app.app.lock().unwrap().filter,
        "all",
        "nothing behind the dialog moved"
    );
    client.next_seq = 3;
    let (ack, tree) =
        client.input_and_tree(json!({"kind": "act", "node": "confirm", "action": "submit"}));
    assert_eq!(ack["status"], "delivered");
    let titles: Vec<_> = tree
        .iter()
        .filter(|n| n.role == taria::Role::ListItem)
        .filter_map(|n| n.label.clone())
        .collect();
    assert_eq!(
        titles,
        ["Buy milk", "Write the README"],
        "the task the dialog was for went"
    );
}

/// A node gone: the second `archive` of `tasks/1`, read before the first removed it,
/// names a task that has moved into its place; its token says so.
#[test]
fn an_input_after_one_that_removed_its_node_is_stale_not_misapplied() {
    let app = RunningApp::start("settle-gone");
    let (mut client, _) = Client::handshake(&app.socket);
    let token = taria::wire::protocol::target_token(client.current().get("tasks/1").unwrap());
    let archive = |seq: u64| json!({"type": "input", "seq": seq, "kind": "act", "node": "tasks/1", "action": "archive", "token": token});
    let mut both = serde_json::to_vec(&archive(1)).unwrap();
    both.push(b'\n');
    both.extend(serde_json::to_vec(&archive(2)).unwrap());
    both.push(b'\n');
    client.send_raw(&both);
    let first = client.until("ack 1", |m| m["type"] == "ack" && m["seq"] == 1);
    let second = client.until("ack 2", |m| m["type"] == "ack" && m["seq"] == 2);
    assert_eq!(first["status"], "delivered");
    assert_eq!(second["status"], "rejected", "{second}");
    assert_eq!(second["reason"], "stale_target", "{second}");
    let titles: Vec<String> = app
        .app
        .lock()
        .unwrap()
        .tasks
        .iter()
        .map(|t| t.0.clone())
        .collect();
    assert_eq!(
        titles,
        ["Buy milk", "Ship v0"],
        "only the task that was read went"
    );
}

/// The bug: a closed connection's text kept being typed (all but its last key).
#[test]
fn a_closed_connections_text_is_not_typed_on() {
    let app = RunningApp::start("text-closed");
    {
        let (mut client, _) = Client::handshake(&app.socket);
        let text = "x".repeat(4096);
        client.send(&json!({"type": "input", "seq": 1, "kind": "text", "text": text, "raw": true}));
        let deadline = Instant::now() + Duration::from_secs(10);
        while app.app.lock().unwrap().keys.is_empty() {
            assert!(Instant::now() < deadline, "no key was typed");
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    let (_client, _) = Client::hello_when_free(&app.socket);
    std::thread::sleep(Duration::from_millis(50));
    let typed = app.app.lock().unwrap().keys.len();
    std::thread::sleep(Duration::from_millis(500));
    let later = app.app.lock().unwrap().keys.len();
    assert_eq!(later, typed, "keys kept coming after the connection closed");
    assert!(typed < 4096, "{typed}");
}

/// An app loop on a thread, driving `session`: each turn drains, draws when `draw`
/// says so (given whether it drew before), sleeps `after_inputs` after a turn that
/// took inputs, then blocks in the event wait as `event::read` does. Stops once
/// `stop` is set and something (a client leaving) wakes it.
fn blocking_loop(
    mut session: Session,
    app: std::sync::Arc<std::sync::Mutex<support::TestApp>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    draw: fn(bool) -> bool,
    after_inputs: Duration,
) -> std::thread::JoinHandle<()> {
    std::thread::spawn(move || {
        let mut terminal =
            ratatui::Terminal::new(ratatui::backend::TestBackend::new(40, 8)).unwrap();
        let mut drawn = false;
        while !stop.load(Ordering::Relaxed) {
            let taken = {
                let mut app = app.lock().unwrap();
                let taken = session.drain(&mut *app);
                if session.is_connected() && draw(drawn) {
                    session.draw(&mut terminal, |f| app.render(f)).unwrap();
                    drawn = true;
                }
                taken
            };
            if taken > 0 {
                std::thread::sleep(after_inputs);
            }
            let _ = session.next_event(Some(Duration::from_secs(20)));
        }
    })
}

fn start_session(name: &str) -> (Session, std::path::PathBuf) {
    let socket = temp_dir(name).join("app.sock");
    let options = Session::builder(name).socket(&socket).terminal_input(false);
    (options.try_start().unwrap(), socket)
}

fn set_volume(seq: u64, value: u8) -> serde_json::Value {
    json!({"type": "input", "seq": seq, "kind": "act", "node": "volume", "action": "set_value", "value": value})
}

fn lines(messages: &[serde_json::Value]) -> Vec<u8> {
    let mut bytes = Vec::new();
    for message in messages {
        bytes.extend(serde_json::to_vec(message).unwrap());
        bytes.push(b'\n');
    }
    bytes
}

/// A loop that draws only when its own state says so (here: once) and then blocks
/// in its event wait still gets every input: the one behind an input it drew no
/// frame for waits about a second (the event wait is woken for it), not forever.
#[test]
fn inputs_behind_one_are_not_held_forever_by_a_loop_that_draws_no_frame() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let (session, socket) = start_session("no-draw");
    let stop = Arc::new(AtomicBool::new(false));
    let app = Arc::new(std::sync::Mutex::new(support::TestApp::new()));
    let draw_once = |drawn: bool| !drawn;
    let thread = blocking_loop(
        session,
        Arc::clone(&app),
        Arc::clone(&stop),
        draw_once,
        Duration::ZERO,
    );
    let (mut client, _) = Client::handshake(&socket);
    client.send_raw(&lines(&[set_volume(1, 5), set_volume(2, 6)]));
    for seq in 1..=2 {
        let ack = client.until("ack", |m| m["type"] == "ack" && m["seq"] == seq);
        assert_eq!(ack["status"], "delivered", "{ack}");
    }
    assert_eq!(app.lock().unwrap().volume, 6);
    stop.store(true, Ordering::Relaxed);
    drop(client);
    thread.join().unwrap();
}

/// The bug: the drain that emptied the session's own queue on a rejected input did
/// not look at the endpoint's queue again, and nothing woke the loop for what had
/// arrived there meanwhile: input 3 was never answered. (Found by review.)
#[test]
fn an_input_that_arrives_while_earlier_ones_are_handled_is_taken() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    let (session, socket) = start_session("late-input");
    let stop = Arc::new(AtomicBool::new(false));
    let app = Arc::new(std::sync::Mutex::new(support::TestApp::new()));
    let every_turn = |_: bool| true;
    let slow = Duration::from_millis(300);
    let thread = blocking_loop(
        session,
        Arc::clone(&app),
        Arc::clone(&stop),
        every_turn,
        slow,
    );
    let (mut client, _) = Client::handshake(&socket);
    std::thread::sleep(Duration::from_millis(700));
    client.send(&set_volume(10, 1));
    std::thread::sleep(Duration::from_millis(50));
    let unknown =
        json!({"type": "input", "seq": 2, "kind": "act", "node": "nope", "action": "activate"});
    client.send_raw(&lines(&[set_volume(1, 5), unknown]));
    std::thread::sleep(Duration::from_millis(350));
    client.send(&set_volume(3, 7));
    for seq in [10, 1, 2, 3] {
        client.until("ack", |m| m["type"] == "ack" && m["seq"] == seq);
    }
    assert_eq!(app.lock().unwrap().volume, 7);
    stop.store(true, Ordering::Relaxed);
    drop(client);
    thread.join().unwrap();
}
