//! The error codes the happy paths do not reach, on a real app.

use std::time::{Duration, Instant};

use serde_json::json;

use crate::harness::{App, Mcp, RunningApp, temp_socket};

#[test]
fn a_disabled_node_is_refused_before_sending() {
    let app = RunningApp::start("disabled");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let disabled = mcp.fails(
        "act",
        json!({"node": "locked", "action": "activate"}),
        "disabled",
    );
    assert!(
        disabled["message"].as_str().unwrap().contains("`locked`"),
        "{disabled}"
    );
    mcp.finish();
}

#[test]
fn an_app_that_stops_reading_times_out_saying_the_input_was_sent() {
    let app = RunningApp::start("timeout");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    app.pause();
    let started = Instant::now();
    let timeout = mcp.fails("press_key", json!({"key": "z"}), "timeout");
    let took = started.elapsed();
    // The documented bound: 5 s for the ack (`ACK_TIMEOUT`), plus slack for a busy machine.
    assert!(
        took >= Duration::from_secs(5) && took < Duration::from_secs(15),
        "{took:?}"
    );
    assert_eq!(timeout["sent"], true, "{timeout}");
    assert!(
        timeout["message"]
            .as_str()
            .unwrap()
            .starts_with("sent, but"),
        "{timeout}"
    );
    // The app takes the key once it reads again: "it may still happen" was true.
    app.resume();
    let deadline = Instant::now() + Duration::from_secs(5);
    while !app.app.lock().unwrap().typed.contains('z') {
        assert!(Instant::now() < deadline, "the late key never arrived");
        std::thread::sleep(Duration::from_millis(10));
    }
    mcp.finish();
}

#[test]
fn a_screen_over_the_cap_is_too_large() {
    // 300 × 150 cells full of text: 45,000 bytes, over the 40,000-character cap.
    let full = App {
        tasks: vec!["x".repeat(300); 150],
        ..App::new()
    };
    let app = RunningApp::launch(&temp_socket("too-large"), full, 300, 150);
    let mut mcp = Mcp::start(&app.socket, &[]);
    let too_large = mcp.fails("read_tree", json!({"format": "screen"}), "too_large");
    assert!(
        too_large["message"].as_str().unwrap().contains("read_tree"),
        "{too_large}"
    );
    // The tree is small and still readable.
    mcp.ok("read_tree", json!({}));
    mcp.finish();
}
