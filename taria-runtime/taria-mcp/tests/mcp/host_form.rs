//! What a model's host gets (issue 29): started as hosts start it (no
//! `--structured`), every result, reads, inputs, batches, refusals and errors, is
//! its text alone, so a host that hands the model `structuredContent` when there is
//! one (Claude Code, Codex) hands it the text. An argument a tool does not name
//! (gemini-cli adds `wait_for_previous` to every tool) is ignored, not refused.

use serde_json::{Value, json};

use crate::harness::{Mcp, RunningApp};

/// The result's only content: one text block, and no `structuredContent`.
fn text_only(result: &Value) -> &str {
    assert!(
        result.get("structuredContent").is_none(),
        "a host would show the model this JSON: {result}"
    );
    let content = result["content"].as_array().unwrap();
    assert_eq!(content.len(), 1, "{result}");
    assert_eq!(content[0]["type"], "text", "{result}");
    content[0]["text"].as_str().unwrap()
}

#[test]
fn a_hosts_session_gets_every_result_as_text_only() {
    let app = RunningApp::start("host-form");
    let socket = app.socket.to_str().unwrap();
    let mut mcp = Mcp::launch_for_host(&["--socket", socket]);

    let read = mcp.call("read_tree", json!({}));
    let text = text_only(&read);
    assert!(text.starts_with("revision "), "{text}");
    assert!(
        text.contains("- slider \"Volume\": 0 [id=volume]"),
        "{text}"
    );

    let set = mcp.call(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 3}),
    );
    assert_eq!(set["isError"], false, "{set}");
    let text = text_only(&set);
    assert!(text.starts_with("delivered"), "{text}");
    assert!(text.contains(": 3 [id=volume]"), "{text}");

    let batch = mcp.call(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "volume", "action": "set_value", "value": 4},
            {"tool": "type_text", "text": "hi"},
        ], "read": true}),
    );
    assert_eq!(batch["isError"], false, "{batch}");
    assert!(text_only(&batch).starts_with("2 steps: "), "{batch}");

    let refused = mcp.call("act", json!({"node": "refuse", "action": "activate"}));
    assert_eq!(refused["isError"], true, "{refused}");
    let text = text_only(&refused);
    assert!(text.starts_with("error app_rejected: "), "{text}");
    assert!(text.contains("not today"), "{text}");

    let missing = mcp.call("act", json!({"node": "nope", "action": "activate"}));
    assert_eq!(missing["isError"], true, "{missing}");
    assert!(
        text_only(&missing).starts_with("error not_found: "),
        "{missing}"
    );

    let bad = mcp.call("press_key", json!({"key": 7}));
    assert_eq!(bad["isError"], true, "{bad}");
    assert!(
        text_only(&bad).starts_with("error invalid_arguments: "),
        "{bad}"
    );
    mcp.finish();
}

/// gemini-cli adds `wait_for_previous` to every tool's schema and forwards it; other
/// hosts add fields of their own. The call does what it would without it.
#[test]
fn an_argument_a_tool_does_not_name_is_ignored() {
    let app = RunningApp::start("host-extra");
    let socket = app.socket.to_str().unwrap();
    let mut mcp = Mcp::launch_for_host(&["--socket", socket]);
    let read = mcp.call("read_tree", json!({"wait_for_previous": true}));
    assert_eq!(read["isError"], false, "{read}");
    // Said, so a model that misnamed an argument hears of it; a strict host's empty
    // fillers go unsaid.
    assert!(
        text_only(&read).ends_with(
            "\n(ignored: wait_for_previous, not an argument of read_tree: the call did what \
             it does without it)"
        ),
        "{read}"
    );
    let quiet = mcp.call(
        "find_nodes",
        json!({"role": "slider", "wait_for_previous": false, "nodes": ""}),
    );
    assert!(!text_only(&quiet).contains("ignored"), "{quiet}");
    let set = mcp.call(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 5,
               "wait_for_previous": true, "confirm": "yes"}),
    );
    assert_eq!(set["isError"], false, "{set}");
    assert_eq!(app.app.lock().unwrap().volume, 5);
    let batch = mcp.call(
        "batch",
        json!({"steps": [{"tool": "type_text", "text": "ok", "wait_for_previous": true}],
               "wait_for_previous": false}),
    );
    assert_eq!(batch["isError"], false, "{batch}");
    for (tool, arguments) in [
        (
            "find_nodes",
            json!({"role": "slider", "wait_for_previous": true}),
        ),
        ("read_logs", json!({"wait_for_previous": true})),
        (
            "wait_for_change",
            json!({"id": "volume", "timeout_ms": 100, "wait_for_previous": true}),
        ),
    ] {
        let result = mcp.call(tool, arguments);
        let text = text_only(&result);
        assert!(!text.contains("unknown field"), "{tool}: {text}");
        assert_eq!(result["isError"], false, "{tool}: {result}");
    }
    mcp.finish();
}

/// Issue 29.7: every answer stays under the cap on results (40,000 characters), what
/// the agent sent included: a wait for a 1 MiB label times out saying so in a short
/// message (it echoed the whole filter), and an act on a 1 MiB id, whose message
/// names the id, is cut, saying how much it showed.
#[test]
fn answers_to_huge_arguments_stay_under_the_cap() {
    let app = RunningApp::start("host-huge");
    let socket = app.socket.to_str().unwrap();
    let mut mcp = Mcp::launch_for_host(&["--socket", socket]);
    let huge = "x".repeat(1 << 20);
    let waited = mcp.call("wait_for_change", json!({"label": huge, "timeout_ms": 200}));
    assert_eq!(waited["isError"], true, "{waited}");
    let text = text_only(&waited);
    assert!(text.starts_with("error timeout: "), "{text}");
    assert!(
        text.chars().count() < 1_000,
        "{} characters",
        text.chars().count()
    );
    for (tool, arguments) in [
        ("act", json!({"node": huge, "action": "activate"})),
        ("find_nodes", json!({"label": huge})),
        ("press_key", json!({"key": huge})),
    ] {
        let result = mcp.call(tool, arguments);
        let text = text_only(&result);
        let chars = text.chars().count();
        assert!(chars <= 40_000, "{tool}: {chars} characters");
    }
    mcp.finish();
}
