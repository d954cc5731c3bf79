//! `batch`: several steps in one call.

use serde_json::{Value, json};

use crate::harness::{Mcp, RunningApp};

/// Issue 12.5: several steps in one call, each waiting for its answer, one combined
/// change set and a closing read; the first failing step stops the batch and says
/// which it was and what the steps before it did; a malformed step sends nothing.
#[test]
fn a_batch_runs_its_steps_in_order_and_stops_at_the_first_failure() {
    let app = RunningApp::start("batch");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let done = mcp.ok(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "volume", "action": "set_value", "value": 5},
            {"tool": "type_text", "text": "ab"},
            {"tool": "press_key", "key": "x", "repeat": 2},
        ], "read": true, "root": "volume"}),
    );
    assert_eq!(
        (&done["status"], &done["steps"]),
        (&json!("delivered"), &json!(3)),
        "{done}"
    );
    let changed: Vec<&str> = done["changedIds"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert!(
        changed.contains(&"volume") && changed.contains(&"typed"),
        "{done}"
    );
    assert!(
        done["read"].as_str().unwrap().contains("\"Volume\": 5"),
        "{done}"
    );
    {
        let app = app.app.lock().unwrap();
        assert_eq!((app.volume, app.typed.as_str()), (5, "abxx"));
    }

    let failed = mcp.fails(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "volume", "action": "set_value", "value": 6},
            {"tool": "act", "node": "nope", "action": "activate"},
            {"tool": "act", "node": "volume", "action": "set_value", "value": 9},
        ]}),
        "not_found",
    );
    assert_eq!(
        (&failed["failedStep"], &failed["delivered"]),
        (&json!(2), &json!(1)),
        "{failed}"
    );
    let message = failed["message"].as_str().unwrap();
    assert!(
        message.starts_with("step 2 of 3 (act nope activate) failed:")
            && message.ends_with("; step 3 was not sent"),
        "{message}"
    );
    assert_eq!(failed["changedIds"], json!(["volume"]), "{failed}");
    assert_eq!(app.app.lock().unwrap().volume, 6, "step 3 was not sent");

    let malformed = mcp.fails(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "volume", "action": "set_value", "value": 7},
            {"tool": "act", "node": "volume"},
        ]}),
        "invalid_arguments",
    );
    assert!(
        malformed["message"]
            .as_str()
            .unwrap()
            .contains("step 2 (act): missing field `action`"),
        "{malformed}"
    );
    assert_eq!(app.app.lock().unwrap().volume, 6, "nothing was sent");
    mcp.finish();
}

/// Issue 20.7: a batch is checked whole before anything is sent. A later step whose
/// arguments its tool would refuse (a key that is not text, text over the cap,
/// `repeat` 65) refuses the batch, naming the step, and the steps before it are not
/// sent (they were).
#[test]
fn a_batch_whose_later_step_is_invalid_sends_nothing() {
    let app = RunningApp::start("batch-whole");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let too_long = "a".repeat(taria_schema::protocol::MAX_TEXT_CHARS + 1);
    for (step, says) in [
        (
            json!({"tool": "press_key", "key": 7}),
            "invalid type: integer `7`",
        ),
        (
            json!({"tool": "type_text", "text": too_long}),
            "type at most 4096",
        ),
        (
            json!({"tool": "press_key", "key": "x", "repeat": 65}),
            "repeat must be 1 to 64, not 65",
        ),
        (
            json!({"tool": "press_key", "key": "ctrl+nope"}),
            "step 3 (press_key)",
        ),
        (
            json!({"tool": "act", "node": "tasks", "action": "scroll", "direction": "sideways"}),
            "direction `sideways`",
        ),
    ] {
        let refused = mcp.fails(
            "batch",
            json!({"steps": [
                {"tool": "act", "node": "volume", "action": "set_value", "value": 7},
                {"tool": "type_text", "text": "q"},
                step,
            ]}),
            "invalid_arguments",
        );
        let message = refused["message"].as_str().unwrap();
        assert!(
            message.starts_with("step 3 (")
                && message.contains(says)
                && message.ends_with("nothing was sent"),
            "{message}"
        );
        let app = app.app.lock().unwrap();
        assert_eq!(
            (app.volume, app.typed.as_str()),
            (0, ""),
            "a step was sent: {message}"
        );
    }
    mcp.finish();
}

/// Issue 20.6: a batch's failure reads as its success does: the status line (the
/// error, which step, what was not sent), then what the steps before it did in the
/// lines a batch's result uses, `1 step before it: delivered, …` and the change
/// lines as they are; no JSON, no `\n` escapes, nothing said twice, "1 step".
#[test]
fn a_batch_failure_is_written_as_plainly_as_its_success() {
    let app = RunningApp::start("batch-text");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let one = mcp.call(
        "batch",
        json!({"steps": [{"tool": "type_text", "text": "a"}]}),
    );
    let text = one["content"][0]["text"].as_str().unwrap();
    assert!(text.starts_with("1 step: delivered, revision "), "{text}");

    let failed = mcp.call(
        "batch",
        json!({"steps": [
            {"tool": "act", "node": "volume", "action": "set_value", "value": 6},
            {"tool": "type_text", "text": "b"},
            {"tool": "act", "node": "refuse", "action": "activate"},
            {"tool": "act", "node": "volume", "action": "set_value", "value": 9},
        ]}),
    );
    assert_eq!(failed["isError"], true, "{failed}");
    let content = &failed["structuredContent"];
    let text = failed["content"][0]["text"].as_str().unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(
        lines[0].starts_with("error app_rejected: step 3 of 4 (act refuse activate) failed: ")
            && lines[0].contains("not today")
            && lines[0].contains("failed: rejected: the app says")
            // The status is said once, not again as `; status: rejected`.
            && lines[0].ends_with("; step 4 was not sent"),
        "{text}"
    );
    let revision = content["revision"].as_u64().unwrap();
    assert!(
        lines[1].starts_with(&format!(
            "2 steps before it: delivered, revision {revision}"
        )),
        "{text}"
    );
    // The change lines as a success writes them, each on its own line.
    for line in content["changes"].as_str().unwrap().lines() {
        assert!(lines.contains(&line), "{line:?} not in {text}");
    }
    for repeat in [
        "failedStep",
        "changedIds",
        "\\n",
        "[\"",
        "1 steps",
        "were delivered",
    ] {
        assert!(!text.contains(repeat), "{repeat:?} in {text}");
    }
    assert_eq!(
        (
            &content["failedStep"],
            &content["delivered"],
            &content["changedIds"]
        ),
        (&json!(3), &json!(2), &json!(["volume", "typed"])),
        "{content}"
    );

    // A first step that fails: nothing before it, no lines after the status line.
    let first = mcp.call(
        "batch",
        json!({"steps": [{"tool": "act", "node": "nope", "action": "activate"}]}),
    );
    let text = first["content"][0]["text"].as_str().unwrap();
    assert!(
        text.starts_with("error not_found: step 1 of 1 (act nope activate) failed: ")
            && text.ends_with("; nothing before it was sent")
            && !text.contains('\n'),
        "{text}"
    );
    mcp.finish();
}

/// Issue 20.7: a step that meets the rate limit (50 inputs/s, bursts of 100) a
/// token's wait away waits for it (`RATE_WAIT_MAX`, 50 ms) instead of failing
/// `busy` "retry in 2-15 ms". The first two steps spend the burst; each step after
/// them needs a token the bucket does not have yet. A flood of calls sent at once
/// still meets `busy`, with the wait to retry after.
#[test]
fn a_batch_at_the_rate_limits_edge_waits_and_a_flood_still_gets_busy() {
    let app = RunningApp::start("batch-rate");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let mut steps = vec![
        json!({"tool": "press_key", "key": "x", "repeat": 64}),
        json!({"tool": "press_key", "key": "x", "repeat": 64}),
    ];
    steps.extend((0..10).map(|_| json!({"tool": "press_key", "key": "y"})));
    let done = mcp.call("batch", json!({"steps": steps}));
    assert_eq!(done["isError"], false, "{done}");
    assert_eq!(
        app.app.lock().unwrap().typed,
        format!("{}{}", "x".repeat(128), "y".repeat(10))
    );

    // The bucket is empty again: 20 calls at once, each in its turn, are far over it.
    let calls: Vec<(&str, Value)> = (0..20)
        .map(|_| ("press_key", json!({"key": "z"})))
        .collect();
    let results = mcp.call_all(&calls);
    let busy: Vec<&Value> = results
        .iter()
        .filter(|r| r["structuredContent"]["code"] == "busy")
        .collect();
    assert!(!busy.is_empty(), "no call met the rate limit: {results:?}");
    for refused in &busy {
        let content = &refused["structuredContent"];
        assert!(
            content["message"].as_str().unwrap().contains("retry in") && content["sent"] == false,
            "{content}"
        );
    }
    let typed = app.app.lock().unwrap().typed.matches('z').count();
    assert_eq!(typed, 20 - busy.len(), "{results:?}");
    // Single calls one after another, at the edge again, wait their moment too.
    for _ in 0..10 {
        mcp.ok("press_key", json!({"key": "w"}));
    }
    mcp.finish();
}

/// Issue 20.1: a strict host sends every property the steps' schema lists, filling the
/// ones a step's tool does not take with empty values (`null`, `""`, `0`, `false`).
/// Those are left out, as a step's own empty arguments are; a real value under a key
/// its tool does not take is ignored as well (hosts add keys of their own).
#[test]
fn a_strict_hosts_filled_in_steps_run_as_written() {
    let app = RunningApp::start("batch");
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let filled = |tool: &str, own: Value| {
        let mut step = json!({"tool": tool, "node": "", "action": null, "value": null,
            "direction": "", "amount": 0, "text": "", "key": null, "repeat": 0});
        for (key, value) in own.as_object().unwrap() {
            step[key] = value.clone();
        }
        step
    };
    let done = mcp.ok(
        "batch",
        json!({"steps": [
            filled("act", json!({"node": "volume", "action": "set_value", "value": 5})),
            filled("type_text", json!({"text": "ab"})),
            filled("press_key", json!({"key": "x", "repeat": 2})),
        ], "read": false, "root": ""}),
    );
    assert_eq!(done["steps"], json!(3), "{done}");
    {
        let app = app.app.lock().unwrap();
        assert_eq!((app.volume, app.typed.as_str()), (5, "abxx"));
    }
    let done = mcp.ok(
        "batch",
        json!({"steps": [
            {"tool": "type_text", "text": "c"},
            {"tool": "press_key", "key": "x", "node": "volume"},
        ]}),
    );
    assert_eq!(done["steps"], json!(2), "{done}");
    assert_eq!(app.app.lock().unwrap().typed, "abxxcx");
}

/// Issue 30: a batch with `read: true` whose change is the whole tree says the tree
/// once, under `read:`, not once as its change and again as the read.
#[test]
fn a_batch_that_reads_the_whole_tree_it_changed_says_it_once() {
    let socket = crate::harness::temp_socket("batch-once");
    let app = crate::support::RunningApp::launch(&socket, crate::knob::Knob::new(), 20, 2);
    let mut mcp = Mcp::start(&app.socket, &[]);
    mcp.ok("read_tree", json!({}));
    let result = mcp.call(
        "batch",
        json!({"steps": [{"tool": "act", "node": "level", "action": "set_value", "value": 4}],
               "read": true}),
    );
    let text = result["content"][0]["text"].as_str().unwrap();
    assert_eq!(
        text.matches("- slider \"Level\": 4 [id=level]").count(),
        1,
        "{text}"
    );
    assert!(text.contains("\nread:\n- slider \"Level\": 4"), "{text}");
    mcp.finish();
}
