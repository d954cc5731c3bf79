//! Where an input goes: a handler, the app's input path (keys, text, a key fallback),
//! a stateful widget; and every refusal, with its reason.

use serde_json::json;
use taria::{Checked, Value};

use crate::support::{Client, RunningApp, TestApp, temp_dir};

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
            json!({"kind": "text", "text": "x".repeat(taria_schema::protocol::MAX_TEXT_CHARS + 1)}),
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
    let token = taria_schema::protocol::target_token(tree.get("tasks/1").unwrap());
    let (ack, _) =
        client.input_and_tree(json!({"kind": "act", "node": "tasks/0", "action": "archive"}));
    assert_eq!(ack["status"], "delivered");
    // tasks/1 is now "Ship v0": the token for "Walk dog" no longer matches.
    let ack = client
        .input(json!({"kind": "act", "node": "tasks/1", "action": "archive", "token": token}));
    assert_eq!(ack["reason"], "stale_target", "{ack}");
    assert_eq!(app.app.lock().unwrap().tasks.len(), 2);
}
