//! Clients coming and going: a second one is busy, a closed one's inputs and text are
//! dropped, one that stops reading never blocks the app.

use std::io::Write;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use serde_json::json;
use taria::Value;

use crate::support::{Client, RunningApp};

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
