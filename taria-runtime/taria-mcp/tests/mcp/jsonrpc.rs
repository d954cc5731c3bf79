//! JSON-RPC edges: lines rmcp cannot serve are answered by the bridge's line filter; and
//! what attach mode refuses or explains.

use serde_json::{Value, json};

use crate::harness::{MODERN, Mcp, RunningApp, temp_socket};
use crate::support;

/// In each MCP era (a session after `initialize`, and one with no handshake), the
/// bridge answers `line` with an error of `code` carrying `id` (`null`: none), and
/// keeps serving.
fn answers_with(line: &[u8], code: i64, id: Value) {
    for modern in [false, true] {
        let socket = temp_socket("edge");
        let mut mcp = Mcp::launch_as(&["--socket", socket.to_str().unwrap()], modern);
        let answer = mcp.answer_to(line);
        let era = if modern { MODERN } else { "2025-11-25" };
        assert_eq!(answer["error"]["code"], code, "{era}: {answer}");
        // JSON-RPC 2.0: an id that cannot be read is `null`, not left out.
        assert_eq!(answer.get("id"), Some(&id), "{era}: {answer}");
        assert!(
            answer["error"]["message"].as_str().unwrap().len() > 20,
            "{era}: {answer}"
        );
        let listed = mcp.request("tools/list", json!({}));
        assert!(listed["result"]["tools"].is_array(), "{era}: {listed}");
        mcp.finish();
    }
}

#[test]
fn a_lone_surrogate_in_a_call_is_invalid_params_with_the_id() {
    answers_with(
        br#"{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"type_text","arguments":{"text":"\ud800"}}}"#,
        -32602,
        json!(41),
    );
}

#[test]
fn bytes_that_are_not_utf8_in_a_call_are_invalid_params_with_the_id() {
    answers_with(
        b"{\"jsonrpc\":\"2.0\",\"id\":\"u8\",\"method\":\"tools/call\",\"params\":{\"name\":\"type_text\",\"arguments\":{\"text\":\"\xff\"}}}",
        -32602,
        json!("u8"),
    );
}

#[test]
fn truncated_json_is_a_parse_error_with_the_id_read_before_the_cut() {
    answers_with(
        br#"{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"act""#,
        -32700,
        json!(42),
    );
}

#[test]
fn a_line_that_is_not_json_is_a_parse_error_with_id_null() {
    answers_with(b"hello?", -32700, Value::Null);
}

/// Issue 20.7: an error whose request id cannot be read says `"id": null` (it had no
/// `id` member): a line that is not JSON, an id of a type JSON-RPC does not allow, a
/// message that is not an object; in a batch, each request that has no readable id.
#[test]
fn an_error_whose_id_cannot_be_read_carries_id_null() {
    for (line, code) in [
        (&b"{not json"[..], -32700),
        (br#"{"jsonrpc":"2.0","id":[7],"method":"ping""#, -32700),
        (br#"{"jsonrpc":"2.0","id":{"n":1},"method":"ping"}"#, -32600),
        (
            br#"{"jsonrpc":"2.0","id":true,"method":"tools/list"}"#,
            -32600,
        ),
        (b"42", -32600),
    ] {
        answers_with(line, code, Value::Null);
    }
    let socket = temp_socket("batch-null");
    let mut mcp = Mcp::start(&socket, &[]);
    let answer = mcp.answer_to(br#"[1,{"jsonrpc":"2.0","id":{},"method":"ping"},{"jsonrpc":"2.0","id":3,"method":"ping"}]"#);
    let ids: Vec<Option<&Value>> = answer
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a.get("id"))
        .collect();
    assert_eq!(
        ids,
        [Some(&Value::Null), Some(&Value::Null), Some(&json!(3))],
        "{answer}"
    );
    let listed = mcp.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    mcp.finish();
}

#[test]
fn a_request_without_a_method_is_invalid_with_its_id() {
    answers_with(br#"{"jsonrpc":"2.0","id":43}"#, -32600, json!(43));
}

#[test]
fn params_that_are_not_an_object_are_invalid_with_the_id() {
    answers_with(
        br#"{"jsonrpc":"2.0","id":"p","method":"tools/list","params":"nope"}"#,
        -32600,
        json!("p"),
    );
}

#[test]
fn tool_call_params_that_do_not_fit_are_invalid_params_not_an_unknown_method() {
    answers_with(
        br#"{"jsonrpc":"2.0","id":44,"method":"tools/call","params":{"name":"act","arguments":"nope"}}"#,
        -32602,
        json!(44),
    );
    answers_with(
        br#"{"jsonrpc":"2.0","id":45,"method":"tools/call"}"#,
        -32602,
        json!(45),
    );
}

#[test]
fn an_id_that_is_not_an_integer_is_echoed_in_the_refusal() {
    answers_with(
        br#"{"jsonrpc":"2.0","id":4.5,"method":"ping"}"#,
        -32600,
        json!(4.5),
    );
}

/// A line over the 16 MiB a message may take is refused with the id its start shows
/// (rmcp drops it unanswered), and the next line is read as usual.
#[test]
fn a_line_too_long_is_refused_with_its_id() {
    let socket = temp_socket("long");
    let mut mcp = Mcp::start(&socket, &[]);
    let text = "a".repeat(16 * 1024 * 1024);
    let line = format!(
        r#"{{"jsonrpc":"2.0","id":47,"method":"tools/call","params":{{"name":"type_text","arguments":{{"text":"{text}"}}}}}}"#
    );
    let answer = mcp.answer_to(line.as_bytes());
    assert_eq!(answer["error"]["code"], -32600, "{answer}");
    assert_eq!(answer["id"], 47, "{answer}");
    let listed = mcp.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    mcp.finish();
}

/// rmcp 3.11 ends the session when the first message is not a request: a notification
/// or a response sent before `initialize` (or, without a handshake, before the first
/// request) is dropped instead, and the session starts as usual.
#[test]
fn a_notification_before_the_session_starts_does_not_end_it() {
    for modern in [false, true] {
        let socket = temp_socket("early");
        let first: [&[u8]; 3] = [
            br#"{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":1}}"#,
            br#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            br#"{"jsonrpc":"2.0","id":"s1","result":{}}"#,
        ];
        let mut mcp = Mcp::launch_after(&["--socket", socket.to_str().unwrap()], modern, &first);
        let listed = mcp.request("tools/list", json!({}));
        assert!(listed["result"]["tools"].is_array(), "{listed}");
        mcp.finish();
    }
}

/// MCP 2026-07-28 has no `initialize`, `ping`, `logging/setLevel` or
/// `resources/(un)subscribe`: a request for one that names that version in `_meta` is
/// method not found (-32601), before the session starts (rmcp answered `ping` there)
/// and after, with only `_meta` as params (-32602 before) or with the old params (rmcp
/// served `resources/subscribe`). A 2025-11-25 session still has them.
#[test]
fn the_methods_2026_07_28_removed_are_not_found_in_its_requests() {
    let old_params = [
        (
            "initialize",
            json!({"protocolVersion": "2025-11-25", "capabilities": {},
                "clientInfo": {"name": "taria-test", "version": "0"}}),
        ),
        ("ping", json!({})),
        ("logging/setLevel", json!({"level": "info"})),
        ("resources/subscribe", json!({"uri": "taria://tree"})),
        ("resources/unsubscribe", json!({"uri": "taria://tree"})),
    ];
    let socket = temp_socket("removed");
    let args = ["--socket", socket.to_str().unwrap()];
    let mut mcp = Mcp::start_modern(&socket);
    // Before the session starts (`server/discover` does not start it), as the
    // conformance suite sends them: `_meta` alone.
    for (method, _) in &old_params {
        let answer = mcp.request(method, json!({}));
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    let listed = mcp.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    for (method, params) in &old_params {
        let answer = mcp.request(method, params.clone());
        assert_eq!(answer["error"]["code"], -32601, "{method}: {answer}");
    }
    let listed = mcp.request("tools/list", json!({}));
    assert!(listed["result"]["tools"].is_array(), "{listed}");
    mcp.finish();

    let mut mcp = Mcp::launch(&args);
    for method in ["ping", "resources/subscribe", "resources/unsubscribe"] {
        let params = old_params
            .iter()
            .find(|(m, _)| *m == method)
            .unwrap()
            .1
            .clone();
        let answer = mcp.request(method, params);
        assert_eq!(answer["result"], json!({}), "{method}: {answer}");
    }
    mcp.finish();
}

/// rmcp reads no batches (MCP dropped them in 2025-06-18): each request in one is
/// answered, in an array as JSON-RPC answers a batch, that they are not supported.
#[test]
fn a_batch_is_refused_request_by_request() {
    for modern in [false, true] {
        let socket = temp_socket("batch");
        let mut mcp = Mcp::launch_as(&["--socket", socket.to_str().unwrap()], modern);
        let answer = mcp.answer_to(
            br#"[{"jsonrpc":"2.0","id":46,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"tools/list"}]"#,
        );
        let answers = answer.as_array().unwrap_or_else(|| panic!("{answer}"));
        let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
        assert_eq!(ids, [&json!(46), &json!("b")], "{answer}");
        for answer in answers {
            assert_eq!(answer["error"]["code"], -32600, "{answer}");
        }
        mcp.finish();
    }
}

#[test]
fn resize_is_refused_in_attach_mode() {
    let app = RunningApp::start("resize-attach");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let refused = mcp.fails(
        "resize",
        json!({"cols": 100, "rows": 30}),
        "invalid_arguments",
    );
    assert!(
        refused["message"].as_str().unwrap().contains("spawn mode"),
        "{refused}"
    );
    mcp.finish();
}

#[test]
fn a_wrong_socket_path_is_explained() {
    let dir = support::temp_dir("wrong-socket");
    let file = dir.join("notes.txt");
    std::fs::write(&file, "not a socket").unwrap();
    let mut mcp = Mcp::start(&file, &[]);
    let wrong = mcp.fails("read_tree", json!({}), "app_not_connected");
    let message = wrong["message"].as_str().unwrap();
    assert!(message.ends_with("notes.txt is not a socket; check --socket/--app: it must be the socket of a running taria app"), "{wrong}");
    assert!(message.contains("check --socket/--app"), "{wrong}");
    mcp.finish();

    // A socket file whose app is gone (it crashed without removing it).
    let stale = dir.join("stale.sock");
    drop(std::os::unix::net::UnixListener::bind(&stale).unwrap());
    let mut mcp = Mcp::start(&stale, &[]);
    let left_over = mcp.fails("read_tree", json!({}), "app_not_connected");
    assert!(
        left_over["message"]
            .as_str()
            .unwrap()
            .contains("is left over from an app that is no longer running"),
        "{left_over}"
    );
    mcp.finish();

    // A path no socket address can hold: no app can listen there (issue 11.10).
    let long = dir.join(format!("{}.sock", "s".repeat(120)));
    let mut mcp = Mcp::start(&long, &[]);
    let too_long = mcp.fails("read_tree", json!({}), "app_not_connected");
    let message = too_long["message"].as_str().unwrap();
    assert!(
        message.contains("over the 107 a socket path can have") && message.contains("shorter path"),
        "{too_long}"
    );
    mcp.finish();
}

/// With `TARIA_SOCKET` in a directory others can enter, the app refuses to serve (and
/// runs on without agent access); the bridge, finding no app there, says that is why
/// rather than listing every other cause (issue 14.3).
#[cfg(unix)]
#[test]
fn a_socket_directory_an_app_refuses_is_named() {
    use std::os::unix::fs::PermissionsExt as _;
    let dir = support::temp_dir("open-dir").join("shared");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    let socket = dir.join("app.sock");
    // The app's side: it will not bind there.
    let refused = taria::Session::builder("open-dir")
        .socket(&socket)
        .terminal_input(false)
        .try_start();
    assert!(
        matches!(refused, Err(taria::EndpointError::InsecureDirectory { .. })),
        "{refused:?}"
    );
    let mut mcp = Mcp::start(&socket, &[]);
    let why = mcp.fails("read_tree", json!({}), "app_not_connected");
    let message = why["message"].as_str().unwrap();
    assert!(
        message.contains("none can") && message.contains("its mode is 755"),
        "{why}"
    );
    assert!(message.contains("chmod 700"), "{why}");
    mcp.finish();
    // A 0700 directory with no app in it is the ordinary case.
    std::fs::set_permissions(&dir, std::fs::Permissions::from_mode(0o700)).unwrap();
    let mut mcp = Mcp::start(&socket, &[]);
    let none = mcp.fails("read_tree", json!({}), "app_not_connected");
    assert!(
        none["message"]
            .as_str()
            .unwrap()
            .starts_with("no app is running at"),
        "{none}"
    );
    mcp.finish();
}
