//! The app's log on the wire: sent to a bridge that asks in its hello, before the
//! ack of the input that logged it and stamped with that input; never to one that
//! does not ask; a panic logged as an error before the app goes.

use serde_json::{Value, json};

use crate::support::{Client, RunningApp};

/// Reads until the ack of input `seq`, returning every line before it.
fn lines_until_ack(client: &mut Client, seq: u64) -> Vec<Value> {
    let mut lines = Vec::new();
    loop {
        let line = client.until("a line", |_| true);
        if line["type"] == "ack" && line["seq"] == seq {
            return lines;
        }
        lines.push(line);
    }
}

#[test]
fn a_bridge_that_asks_gets_the_log_before_the_ack_stamped_with_the_input() {
    let app = RunningApp::start("logs-asked");
    let (mut client, hello) = Client::handshake_with_logs(&app.socket);
    assert_eq!(hello["logs"], true, "the app says it captures its log");
    client.send(
        &json!({"type": "input", "seq": 5, "kind": "act", "node": "refuse", "action": "activate"}),
    );
    let before = lines_until_ack(&mut client, 5);
    let logs: Vec<&Value> = before.iter().filter(|l| l["type"] == "log").collect();
    assert_eq!(logs.len(), 1, "{before:?}");
    assert_eq!(
        *logs[0],
        json!({"type": "log", "level": "warn", "target": "test_app",
               "message": "refused a press: not today", "input": 5})
    );
    client.send(&json!({"type": "input", "seq": 6, "kind": "act", "node": "volume", "action": "set_value", "value": 10}));
    let before = lines_until_ack(&mut client, 6);
    let error = before
        .iter()
        .find(|l| l["type"] == "log")
        .expect("the error");
    assert_eq!(error["level"], "error");
    assert_eq!(error["fields"], json!({"volume": 10}));
    assert_eq!(error["input"], 6);
}

/// An older bridge says hello without `logs`: it never gets a line it does not know.
#[test]
fn a_bridge_that_does_not_ask_gets_no_log_lines() {
    let app = RunningApp::start("logs-unasked");
    let (mut client, _) = Client::handshake(&app.socket);
    client.send(&json!({"type": "hello", "v": 1, "client": "taria-mcp 0.0.9"}));
    let ack = client.input(json!({"kind": "act", "node": "refuse", "action": "activate"}));
    assert_eq!(ack["status"], "rejected");
    // Another input after it, and its tree: nothing between was a log line.
    client.send(&json!({"type": "input", "seq": 2, "kind": "act", "node": "volume", "action": "set_value", "value": 10}));
    let lines = lines_until_ack(&mut client, 2);
    assert!(lines.iter().all(|l| l["type"] != "log"), "{lines:?}");
}

#[test]
fn a_panic_is_logged_as_an_error_before_the_app_goes() {
    let app = RunningApp::start("logs-panic");
    let (mut client, _) = Client::handshake_with_logs(&app.socket);
    client.send(&json!({"type": "input", "seq": 1, "kind": "act", "node": "name", "action": "set_value", "value": "panic!"}));
    let mut lines = Vec::new();
    while let Some(line) = client.next() {
        lines.push(line);
    }
    let panic = lines
        .iter()
        .find(|l| l["type"] == "log")
        .unwrap_or_else(|| panic!("no log line before the connection closed: {lines:?}"));
    assert_eq!(panic["level"], "error");
    assert_eq!(panic["target"], "panic");
    assert_eq!(panic["message"], "asked to panic by name");
    assert!(
        panic["fields"]["location"]
            .as_str()
            .is_some_and(|at| at.contains("support/mod.rs")),
        "{panic}"
    );
    assert_eq!(panic["input"], 1, "stamped with the input that caused it");
}
