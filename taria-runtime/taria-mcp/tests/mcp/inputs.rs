//! Inputs on a real app: the ack and the tree after, refusals with stable codes, stale
//! positional ids.

use std::time::Duration;

use serde_json::json;

use crate::harness::{Mcp, RunningApp, outline};

#[test]
fn inputs_answer_with_the_ack_and_the_tree_after() {
    let app = RunningApp::start("inputs");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let before = mcp.ok("read_tree", json!({}))["revision"].as_u64().unwrap();

    let set = mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 7}),
    );
    assert_eq!(set["status"], "delivered");
    assert_eq!(set["changed"], true);
    assert_eq!(set["changedIds"], json!(["volume"]));
    assert!(
        set["changes"].as_str().unwrap().contains("\"Volume\": 7"),
        "{set}"
    );
    assert!(set["revision"].as_u64().unwrap() > before);
    assert!(
        set.get("outline").is_none(),
        "only what changed comes back by default: {set}"
    );
    let whole = mcp.ok(
        "batch",
        json!({"steps": [{"tool": "act", "node": "volume", "action": "set_value", "value": 7}], "read": true}),
    );
    assert!(
        whole["read"].as_str().unwrap().contains("[id=refuse]"),
        "the whole tree when asked for: {whole}"
    );
    assert_eq!(app.app.lock().unwrap().volume, 7);
    // A number given as text is read as one when the domain is numeric.
    let text_number = mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": "3"}),
    );
    assert_eq!(text_number["status"], "delivered");
    // Setting the same value again: handled, nothing changed.
    let same = mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 3}),
    );
    assert_eq!(same["changed"], false);
    assert!(
        same["note"]
            .as_str()
            .unwrap()
            .contains("nothing in the tree changed")
    );

    let typed = mcp.ok("type_text", json!({"text": "hi"}));
    assert_eq!(typed["status"], "delivered");
    assert_eq!(app.app.lock().unwrap().typed, "hi");
    assert!(
        typed["changes"].as_str().unwrap().contains("\"hi\""),
        "{typed}"
    );

    let pressed = mcp.ok("press_key", json!({"key": "x", "repeat": 3}));
    assert_eq!(pressed["delivered"], 3);
    assert_eq!(app.app.lock().unwrap().typed, "hixxx");
    assert!(
        pressed["changes"].as_str().unwrap().contains("hixxx"),
        "the tree after the last press: {pressed}"
    );

    let archived = mcp.ok(
        "act",
        json!({"node": "tasks/list_item#0", "action": "archive"}),
    );
    assert!(
        archived["removedIds"]
            .as_array()
            .unwrap()
            .iter()
            .any(|id| id == "tasks/list_item#2"),
        "{archived}"
    );
    assert_eq!(app.app.lock().unwrap().tasks, ["Walk dog", "Ship v0"]);
    mcp.finish();
}

#[test]
fn refused_inputs_carry_stable_codes() {
    let app = RunningApp::start("refused");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    mcp.fails(
        "act",
        json!({"node": "nope", "action": "activate"}),
        "not_found",
    );
    let unsupported = mcp.fails(
        "act",
        json!({"node": "volume", "action": "toggle"}),
        "action_unsupported",
    );
    assert_eq!(unsupported["offered"], json!(["set_value"]));
    let domain = mcp.fails(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 11}),
        "out_of_domain",
    );
    assert!(
        domain["message"].as_str().unwrap().contains("valueSchema"),
        "{domain}"
    );
    mcp.fails(
        "act",
        json!({"node": "volume", "action": "set_value", "value": [1]}),
        "out_of_domain",
    );
    mcp.fails(
        "act",
        json!({"node": "volume", "action": "set_value"}),
        "out_of_domain",
    );
    assert_eq!(
        app.app.lock().unwrap().volume,
        0,
        "nothing refused reached the app"
    );
    let rejected = mcp.fails(
        "act",
        json!({"node": "refuse", "action": "activate"}),
        "app_rejected",
    );
    assert!(rejected["message"].as_str().unwrap().contains("not today"));
    let grammar = mcp.fails(
        "press_key",
        json!({"key": "ctrl+nope"}),
        "invalid_arguments",
    );
    assert!(
        grammar["message"]
            .as_str()
            .unwrap()
            .contains("modifiers ctrl"),
        "{grammar}"
    );
    mcp.fails(
        "press_key",
        json!({"key": "a", "repeat": 65}),
        "invalid_arguments",
    );
    mcp.fails(
        "type_text",
        json!({"text": "x".repeat(taria_schema::protocol::MAX_TEXT_CHARS + 1)}),
        "invalid_arguments",
    );
    mcp.fails("act", json!({"node": "volume"}), "invalid_arguments");
    // An argument a tool does not name is ignored (hosts add their own): a misspelt
    // `value` leaves set_value without one, which says what it needs.
    let misspelt = mcp.fails(
        "act",
        json!({"node": "volume", "action": "set_value", "vaule": 1}),
        "out_of_domain",
    );
    assert!(
        misspelt["message"]
            .as_str()
            .unwrap()
            .contains("set_value needs a `value`"),
        "{misspelt}"
    );
    mcp.finish();
}

#[test]
fn an_action_on_a_reshuffled_positional_id_is_stale() {
    let app = RunningApp::start("stale");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let seen = mcp.ok("read_tree", json!({}))["revision"].as_u64().unwrap();
    // The list changes by itself after the agent read it: item #0 is now "Walk dog".
    app.app.lock().unwrap().tasks.remove(0);
    mcp.ok(
        "wait_for_change",
        json!({"since": seen, "timeout_ms": 5000}),
    );
    // wait_for_change showed the agent the new tree, so read the old one again first.
    app.app.lock().unwrap().tasks.insert(0, "Buy milk".into());
    let seen = mcp.ok(
        "wait_for_change",
        json!({"since": seen + 1, "timeout_ms": 5000}),
    );
    assert!(outline(&seen).contains("Buy milk"));
    app.app.lock().unwrap().tasks.remove(0);
    let mut changes = 0;
    // Let the bridge receive the change without showing it to the agent.
    while changes == 0 {
        std::thread::sleep(Duration::from_millis(20));
        let found = mcp.request("resources/read", json!({"uri": "taria://tree"}));
        let text = found["result"]["contents"][0]["text"]
            .as_str()
            .unwrap()
            .to_owned();
        if !text.contains("Buy milk") {
            changes += 1;
        }
    }
    let stale = mcp.fails(
        "act",
        json!({"node": "tasks/list_item#0", "action": "archive"}),
        "stale_reference",
    );
    assert!(
        stale["message"].as_str().unwrap().contains("Buy milk"),
        "{stale}"
    );
    assert_eq!(
        app.app.lock().unwrap().tasks,
        ["Walk dog", "Ship v0"],
        "nothing was archived"
    );
    mcp.finish();
}

/// Issue 30: an input whose effect the app shows a frame late was answered "nothing in
/// the tree changed" while the next frame showed it; the answer now looks at the
/// frame after, and says so. One that changes nothing still says nothing changed.
#[test]
fn an_effect_shown_a_frame_late_is_answered_with_it() {
    let socket = crate::harness::temp_socket("late-effect");
    let app = crate::support::RunningApp::launch(&socket, crate::knob::Knob::late(), 20, 2);
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let result = mcp.call(
        "act",
        json!({"node": "level", "action": "set_value", "value": 4}),
    );
    let text = result["content"][0]["text"].as_str().unwrap();
    assert!(!text.contains("nothing in the tree changed"), "{text}");
    assert!(text.contains("- slider \"Level\": 4 [id=level]"), "{text}");
    // Said when the bridge saw the frame drawn right after it (under load the app's
    // writer may send only the newer frame, which shows the change itself).
    if text.lines().count() > 2 {
        assert!(
            text.contains("(the frame drawn right after it showed no change; the next one did)"),
            "{text}"
        );
    }
    let same = mcp.call(
        "act",
        json!({"node": "level", "action": "set_value", "value": 4}),
    );
    let text = same["content"][0]["text"].as_str().unwrap();
    assert!(text.contains("nothing in the tree changed"), "{text}");
    mcp.finish();
}
