//! The session over time: `wait_for_change`, closing stdin, the app coming and going,
//! idle release, tree subscriptions in both MCP eras, and the command line.

use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Mcp, RunningApp, outline, temp_socket};

#[test]
fn wait_for_change_times_out_or_returns_the_next_tree() {
    let app = RunningApp::start("wait");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let revision = mcp.ok("read_tree", json!({}))["revision"].as_u64().unwrap();
    let started = Instant::now();
    let idle = mcp.ok(
        "wait_for_change",
        json!({"since": revision, "timeout_ms": 200}),
    );
    assert_eq!(idle["changed"], false);
    assert_eq!(idle["revision"], revision);
    assert!(started.elapsed() >= Duration::from_millis(200));
    let app_handle = Arc::clone(&app.app);
    let later = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        app_handle.lock().unwrap().tasks.push("New task".into());
    });
    let changed = mcp.ok(
        "wait_for_change",
        json!({"since": revision, "timeout_ms": 10_000}),
    );
    later.join().unwrap();
    assert_eq!(changed["changed"], true);
    assert!(changed["revision"].as_u64().unwrap() > revision);
    assert!(outline(&changed).contains("New task"), "{changed}");
    mcp.finish();
}

/// Changes `app`'s state from another thread after a moment, as a live app would.
fn later(app: &RunningApp, change: impl FnOnce(&mut crate::harness::App) + Send + 'static) {
    let handle = Arc::clone(&app.app);
    std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        change(&mut handle.lock().unwrap());
    });
}

#[test]
fn wait_for_change_waits_for_a_node_to_appear_reach_a_value_or_go() {
    let app = RunningApp::start("wait-node");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));

    // Already there: answered at once, with the tree.
    let there = mcp.ok(
        "wait_for_change",
        json!({"role": "list_item", "label": "walk"}),
    );
    assert_eq!(
        (there["changed"].clone(), there["matches"].clone()),
        (json!(true), json!(1))
    );

    later(&app, |app| app.tasks.push("Deploy".into()));
    let waited = mcp.call(
        "wait_for_change",
        json!({"role": "list_item", "label": "deploy", "timeout_ms": 10_000}),
    );
    let content = &waited["structuredContent"];
    assert_eq!(content["matches"], 1, "{waited}");
    assert_eq!(content["waitedFor"], "role=list_item label=deploy");
    assert!(outline(content).contains("\"Deploy\""), "{waited}");
    let said = waited["content"][0]["text"].as_str().unwrap();
    assert!(said.starts_with("1 match, revision "), "{said}");

    later(&app, |app| app.volume = 7);
    let loud = mcp.ok(
        "wait_for_change",
        json!({"id": "volume", "value": "7", "timeout_ms": 10_000}),
    );
    assert_eq!(loud["matches"], 1, "{loud}");
    // Not the tree before the change: the one where the value is 7.
    assert!(outline(&loud).contains(": 7 [id=volume]"), "{loud}");

    later(&app, |app| app.tasks.retain(|task| task != "Deploy"));
    let gone = mcp.call(
        "wait_for_change",
        json!({"label": "deploy", "gone": true, "timeout_ms": 10_000}),
    );
    assert_eq!(gone["structuredContent"]["matches"], 0, "{gone}");
    assert!(
        gone["content"][0]["text"]
            .as_str()
            .unwrap()
            .starts_with("gone, revision "),
        "{gone}"
    );

    // Never drawn: the timeout says what the newest tree had, filter by filter.
    let never = mcp.fails(
        "wait_for_change",
        json!({"role": "list_item", "label": "deploy", "timeout_ms": 300}),
        "timeout",
    );
    let message = never["message"].as_str().unwrap();
    assert!(
        message.contains("no node matches role=list_item label=deploy (nodes matching each filter alone: role=list_item: 3, label=deploy: 0)"),
        "{message}"
    );
    mcp.fails(
        "wait_for_change",
        json!({"gone": true}),
        "invalid_arguments",
    );
    mcp.fails("wait_for_change", json!({}), "invalid_arguments");
    mcp.finish();
}

#[test]
fn wait_for_change_is_cancellable() {
    let app = RunningApp::start("cancel");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let revision = mcp.ok("read_tree", json!({}))["revision"].as_u64().unwrap();
    let id = 99;
    mcp.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "wait_for_change", "arguments": {"since": revision, "timeout_ms": 60_000}}}));
    std::thread::sleep(Duration::from_millis(100));
    mcp.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "test"}}),
    );
    // The server stays responsive and the cancelled wait does not linger.
    let started = Instant::now();
    mcp.ok("read_tree", json!({}));
    assert!(started.elapsed() < Duration::from_secs(5));
    mcp.finish();
}

/// rmcp gives in-flight requests 5 s to answer after stdin closes; a wait that only
/// ends when cancelled, and a listen stream, do not hold the bridge past its 500 ms
/// grace. The limit leaves room for a loaded machine.
#[test]
fn closing_stdin_ends_waits_and_streams_at_once() {
    let app = RunningApp::start("eof");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let revision = mcp.ok("read_tree", json!({}))["revision"].as_u64().unwrap();
    mcp.send(&json!({"jsonrpc": "2.0", "id": 77, "method": "tools/call",
        "params": {"name": "wait_for_change", "arguments": {"since": revision, "timeout_ms": 60_000}}}));
    std::thread::sleep(Duration::from_millis(200));
    mcp.finish_within(Duration::from_secs(4));

    let mut modern = Mcp::start_modern(&app.socket);
    modern.listen("open", json!({"resourceSubscriptions": ["taria://tree"]}));
    modern.finish_within(Duration::from_secs(4));
}

#[test]
fn no_app_then_app_then_app_exits() {
    let socket = temp_socket("lifecycle");
    let mut mcp = Mcp::start(&socket, &[]);
    let none = mcp.fails("read_tree", json!({}), "app_not_connected");
    let message = none["message"].as_str().unwrap();
    assert!(message.starts_with("no app is running at "), "{none}");
    assert!(message.contains("Start the app"), "{none}");
    assert!(message.contains("taria-mcp -- <command>"), "{none}");
    // One line on stderr for the host's log, at start.
    let line = mcp.log_line("taria-mcp: no app is running at");
    assert!(line.contains("start it"), "{line}");
    mcp.fails("press_key", json!({"key": "a"}), "app_not_connected");

    let mut app = RunningApp::start_at(&socket);
    let tree = mcp.ok("read_tree", json!({}));
    assert!(outline(&tree).contains("Tasks"));
    app.stop();
    drop(app);
    // The bridge learns of the exit when the socket closes.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let result = mcp.call("read_tree", json!({}));
        if result["isError"] == true {
            assert_eq!(
                result["structuredContent"]["code"], "app_exited",
                "{result}"
            );
            break;
        }
        assert!(Instant::now() < deadline, "the exit was not noticed");
        std::thread::sleep(Duration::from_millis(20));
    }

    // A restarted app is picked up again.
    let app = RunningApp::start_at(&socket);
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let result = mcp.call("read_tree", json!({}));
        if result["isError"] == false {
            assert!(outline(&result["structuredContent"]).contains("Tasks"));
            break;
        }
        assert!(Instant::now() < deadline, "{result}");
        std::thread::sleep(Duration::from_millis(50));
    }
    drop(app);
    mcp.finish();
}

#[test]
fn idle_release_lets_another_session_take_the_app() {
    let app = RunningApp::start("idle");
    let mut first = Mcp::start(&app.socket, &["--idle-release", "1"]);
    let mut second = Mcp::start(&app.socket, &[]);
    first.ok("read_tree", json!({}));
    let last_call = Instant::now();
    second.fails("read_tree", json!({}), "busy");
    // The first session lets go after 1 s idle (checked every 250 ms); the app then
    // has to see its connection close. Poll rather than guess how long that takes.
    let deadline = last_call + Duration::from_secs(10);
    loop {
        let result = second.call("read_tree", json!({}));
        if result["isError"] == false {
            break;
        }
        assert_eq!(result["structuredContent"]["code"], "busy", "{result}");
        assert!(Instant::now() < deadline, "the idle session never let go");
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(
        last_call.elapsed() >= Duration::from_secs(1),
        "released before it was idle for 1 s"
    );
    first.fails("read_tree", json!({}), "busy");
    second.finish();
    first.finish();
}

#[test]
fn the_tree_resource_notifies_subscribers() {
    let app = RunningApp::start("resource");
    let mut mcp = Mcp::start(&app.socket, &[]);
    let read = mcp.request("resources/read", json!({"uri": "taria://tree"}));
    let text = read["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(
        text.contains("[id=volume]") && text.contains("untrusted"),
        "{text}"
    );
    let subscribed = mcp.request("resources/subscribe", json!({"uri": "taria://tree"}));
    assert!(subscribed.get("error").is_none(), "{subscribed}");
    mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 5}),
    );
    // The notification names what changed: the slider, not the whole tree.
    mcp.notification("update notification", |n| {
        n["method"] == "notifications/resources/updated"
            && n["params"]["uri"] == "taria://tree"
            && n["params"]["_meta"]["changedIds"] == json!(["volume"])
    });
    mcp.finish();
}

/// A resource other than `taria://tree` is refused with its uri in the error's `data`
/// (SEP-2164), in both eras (-32002 before 2026-07-28, -32602 from it), by
/// `resources/read` and `resources/subscribe`. No app is needed for either.
#[test]
fn an_unknown_resource_is_refused_with_its_uri() {
    let uri = "test://no-such-resource";
    for modern in [false, true] {
        let socket = temp_socket("no-resource");
        let mut mcp = Mcp::launch_as(&["--socket", socket.to_str().unwrap()], modern);
        // resources/subscribe is not in 2026-07-28 (subscriptions/listen is).
        let (methods, code): (&[&str], i64) = if modern {
            (&["resources/read"], -32602)
        } else {
            (&["resources/read", "resources/subscribe"], -32002)
        };
        for method in methods {
            let refused = mcp.request(method, json!({"uri": uri}));
            assert_eq!(refused["error"]["code"], code, "{method}: {refused}");
            assert_eq!(refused["error"]["data"]["uri"], uri, "{method}: {refused}");
            let message = refused["error"]["message"].as_str().unwrap();
            assert!(message.contains("taria://tree"), "{message}");
        }
        mcp.finish();
    }
}

/// The `io.modelcontextprotocol/subscriptionId` a stream's notifications carry.
fn stream_of(notification: &Value) -> &Value {
    &notification["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"]
}

impl Mcp {
    /// Opens a `subscriptions/listen` stream `id` asking for `notifications`; returns
    /// what the acknowledgement says was accepted.
    fn listen(&mut self, id: &str, notifications: Value) -> Value {
        let params = self.params(json!({"notifications": notifications}));
        self.send(
            &json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen",
            "params": params}),
        );
        let acknowledged = self.notification("acknowledgement", |n| {
            n["method"] == "notifications/subscriptions/acknowledged" && stream_of(n) == id
        });
        acknowledged["params"]["notifications"].clone()
    }

    /// The tree updates received so far on stream `id`, forgotten.
    fn take_updates(&mut self, id: &str) -> Vec<Value> {
        let (on_stream, rest) = std::mem::take(&mut self.notifications)
            .into_iter()
            .partition(|n| n["method"] == "notifications/resources/updated" && stream_of(n) == id);
        self.notifications = rest;
        on_stream
    }
}

#[test]
fn the_newest_protocol_needs_no_handshake_and_streams_tree_updates() {
    let app = RunningApp::start("modern");
    let mut mcp = Mcp::start_modern(&app.socket);
    let tree = mcp.ok("read_tree", json!({}));
    assert!(outline(&tree).contains("[id=volume]"), "{tree}");
    // `resources/subscribe` is gone in 2026-07-28: a client listens instead, on as
    // many streams as it likes. One that asks for nothing taria sends gets nothing.
    let tree_uri = json!({"resourceSubscriptions": ["taria://tree"]});
    assert_eq!(mcp.listen("a", tree_uri.clone()), tree_uri);
    assert_eq!(mcp.listen("b", tree_uri.clone()), tree_uri);
    assert_eq!(
        mcp.listen("tools", json!({"toolsListChanged": true})),
        json!({})
    );
    mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 5}),
    );
    for stream in ["a", "b"] {
        let updated = mcp.notification("update on the stream", |n| {
            n["method"] == "notifications/resources/updated" && stream_of(n) == stream
        });
        assert_eq!(updated["params"]["uri"], "taria://tree");
        assert_eq!(updated["params"]["_meta"]["changedIds"], json!(["volume"]));
    }

    // Once cancelled, a stream hears nothing more; the others still do.
    mcp.send(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
        "params": {"requestId": "a", "reason": "done"}}),
    );
    // The stream ends on its own task: changes made before that may still reach it.
    // Change the value until one reaches stream b and, 200 ms on, not stream a.
    let deadline = Instant::now() + Duration::from_secs(10);
    let mut value = 6;
    loop {
        mcp.ok(
            "act",
            json!({"node": "volume", "action": "set_value", "value": value}),
        );
        mcp.notification("update on stream b", |n| {
            n["method"] == "notifications/resources/updated"
                && stream_of(n) == "b"
                && n["params"]["_meta"]["changedIds"] == json!(["volume"])
        });
        std::thread::sleep(Duration::from_millis(200));
        mcp.request("ping", json!({}));
        if mcp.take_updates("a").is_empty() {
            break;
        }
        assert!(Instant::now() < deadline, "stream a still hears changes");
        value += 1;
    }
    let read = mcp.request("resources/read", json!({"uri": "taria://tree"}));
    let text = read["result"]["contents"][0]["text"].as_str().unwrap();
    assert!(
        text.contains(&format!("slider \"Volume\": {value}")),
        "{text}"
    );
    let late = mcp.take_updates("tools");
    assert!(late.is_empty(), "updates on stream tools: {late:?}");
    mcp.finish();
}

#[test]
fn bad_command_lines_exit_2_with_one_line() {
    for args in [
        &[][..],
        &["--app"][..],
        &["--app", "a", "--socket", "b"][..],
        &["--idle-release", "soon", "--app", "a"][..],
        &["--app", "../bad"][..],
        &["spawn"][..],
        &["--cols", "5", "--", "my-app"][..],
        &["--app", "a", "--rows", "30"][..],
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("taria-mcp: "), "{stderr}");
    }
}

/// Issue 29.7: `view` refuses what is not a recording at once, saying why, instead
/// of reading it: a device that never ends (it read `/dev/zero` until memory ran
/// out), a directory, a file that is not a recording.
#[cfg(feature = "inspector")]
#[test]
fn view_refuses_what_is_not_a_recording_at_once() {
    let not_a_recording = crate::support::temp_dir("view-refuses").join("notes.txt");
    std::fs::write(&not_a_recording, "hello\n").unwrap();
    for (file, says) in [
        ("/dev/zero", "is not a file"),
        ("/tmp", "is not a file"),
        (not_a_recording.to_str().unwrap(), "not a taria recording"),
    ] {
        let started = Instant::now();
        let out = Command::new(env!("CARGO_BIN_EXE_taria-mcp"))
            .args(["view", file])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert!(started.elapsed() < Duration::from_secs(10), "{file}");
        assert_eq!(out.status.code(), Some(1), "{file}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(
            stderr.starts_with("taria-mcp view: ") && stderr.contains(says),
            "{file}: {stderr}"
        );
    }
}
