//! When the app goes away under a call: a spawned app killed by a signal is reported
//! as the app taria-mcp started (its exit, what it printed), never with attach-mode
//! advice or the private socket's path.

use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::Mcp;
use crate::spawn::{before_after, gone_within, spawned_pid};

/// The private socket the bridge gave the spawned app, from its log.
fn private_socket(mcp: &Mcp) -> String {
    let line = mcp.log_line("taria-mcp serving on stdio");
    line.split("socket=")
        .nth(1)
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_owned()
}

/// An answer says spawn-mode things about an app that was killed: it was killed by
/// a signal, and nothing about starting the app or where its socket was.
fn check_killed(answer: &Value, socket: &str) {
    let text = answer["content"][0]["text"].as_str().unwrap();
    let content = &answer["structuredContent"];
    assert_eq!(answer["isError"], true, "{answer}");
    assert_eq!(content["code"], "app_exited", "{answer}");
    assert!(text.contains("killed by a signal"), "{text}");
    assert!(content["signal"].is_string(), "{answer}");
    let dir = std::path::Path::new(socket).parent().unwrap();
    let advice = [
        "no app is listening",
        "no app is running",
        "Start the app",
        "start it again",
        "once the app is back",
        "reconnects on the next call",
    ];
    for leak in [socket, dir.to_str().unwrap()].into_iter().chain(advice) {
        assert!(!text.contains(leak), "{leak:?} in {text}");
    }
}

/// A spawned app killed (SIGKILL) while a call waits on it: that call, and the calls after,
/// say that the app taria-mcp started was killed by a signal (not "start the app", not
/// the private socket's path).
#[test]
fn a_spawned_app_killed_mid_call_is_reported_as_killed() {
    use rustix::process::{Pid, Signal, kill_process};

    let mut mcp = Mcp::launch(&["--cols", "60", "--rows", "12", "--", &before_after()]);
    let tree = mcp.ok("read_tree", json!({}));
    let revision = tree["revision"].as_u64().unwrap();
    let socket = private_socket(&mcp);
    let pid = spawned_pid(&mcp);
    // Stopped first, so that a key waits for its answer when the kill comes.
    let app = Pid::from_raw(pid).unwrap();
    kill_process(app, Signal::STOP).unwrap();
    let waiting = mcp.start_calls(&[
        (
            "wait_for_change",
            json!({"since": revision, "timeout_ms": 20000}),
        ),
        ("press_key", json!({"key": "down"})),
    ]);
    std::thread::sleep(Duration::from_millis(500));
    kill_process(app, Signal::KILL).unwrap();
    assert!(gone_within(pid, Duration::from_secs(3)));
    let answers = mcp.results(waiting);
    for answer in &answers {
        check_killed(answer, &socket);
    }
    let key = answers[1]["content"][0]["text"].as_str().unwrap();
    assert!(
        key.starts_with("error app_exited: sent, but before answering, the app (`"),
        "{key}"
    );
    for (tool, arguments) in [
        ("act", json!({"node": "tasks", "action": "select"})),
        ("read_tree", json!({})),
        ("type_text", json!({"text": "x"})),
    ] {
        let answer = mcp.call(tool, arguments);
        check_killed(&answer, &socket);
    }
    mcp.finish();
}

/// Opens a `subscriptions/listen` stream `id` for the tree; waits for its
/// acknowledgement.
fn listen_for_the_tree(mcp: &mut Mcp, id: &str) {
    let params = mcp.params(json!({"notifications": {"resourceSubscriptions": ["taria://tree"]}}));
    mcp.send(
        &json!({"jsonrpc": "2.0", "id": id, "method": "subscriptions/listen", "params": params}),
    );
    mcp.notification("acknowledgement", |n| {
        n["method"] == "notifications/subscriptions/acknowledged"
            && n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == id
    });
}

/// Waits up to `limit` for the final answer to request `id`.
fn final_answer(mcp: &mut Mcp, id: &str, limit: Duration) -> Option<Value> {
    let deadline = std::time::Instant::now() + limit;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        let message = mcp.lines.recv_timeout(left).ok()?;
        if message["id"] == id && message.get("method").is_none() {
            return Some(message);
        }
        mcp.notifications.push(message);
    }
}

/// A listen stream (MCP 2026-07-28) on a spawned app ends when the app exits: its
/// final result comes, not silence.
#[test]
fn a_listen_stream_ends_when_the_spawned_app_exits() {
    use rustix::process::{Pid, Signal, kill_process};

    let mut mcp = Mcp::launch_as(
        &["--cols", "60", "--rows", "12", "--", &before_after()],
        true,
    );
    mcp.ok("read_tree", json!({}));
    listen_for_the_tree(&mut mcp, "tree-stream");
    let pid = spawned_pid(&mcp);
    kill_process(Pid::from_raw(pid).unwrap(), Signal::KILL).unwrap();
    let end = final_answer(&mut mcp, "tree-stream", Duration::from_secs(5))
        .expect("the stream ends when the app is gone");
    assert_eq!(end["result"]["resultType"], "complete", "{end}");
    mcp.finish();
}

/// In attach mode a listen stream outlives an app that comes back within 5 s (a
/// restart), and ends once the app has been gone for longer.
#[test]
fn a_listen_stream_ends_when_the_attached_app_does_not_come_back() {
    let socket = crate::harness::temp_socket("listen-gone");
    let mut app = crate::harness::RunningApp::start_at(&socket);
    let mut mcp = Mcp::start_modern(&socket);
    mcp.ok("read_tree", json!({}));
    listen_for_the_tree(&mut mcp, "tree-stream");
    // A restart: the stream stays and hears of the new app's tree.
    app.stop();
    drop(app);
    let _ = std::fs::remove_file(&socket);
    let app = crate::harness::RunningApp::start_at(&socket);
    assert!(
        final_answer(&mut mcp, "tree-stream", Duration::from_secs(6)).is_none(),
        "the stream ended although the app came back"
    );
    mcp.ok(
        "act",
        json!({"node": "volume", "action": "set_value", "value": 4}),
    );
    mcp.notification("an update on the stream", |n| {
        n["method"] == "notifications/resources/updated"
            && n["params"]["_meta"]["io.modelcontextprotocol/subscriptionId"] == "tree-stream"
    });
    drop(app);
    let end = final_answer(&mut mcp, "tree-stream", Duration::from_secs(10))
        .expect("the stream ends when the app is gone for good");
    assert_eq!(end["result"]["resultType"], "complete", "{end}");
    mcp.finish();
}
