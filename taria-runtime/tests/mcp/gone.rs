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
