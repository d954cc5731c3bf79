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
            {"tool": "set_value", "node": "volume", "value": 5},
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
            {"tool": "set_value", "node": "volume", "value": 6},
            {"tool": "act", "node": "nope", "action": "activate"},
            {"tool": "set_value", "node": "volume", "value": 9},
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
            && message.ends_with("step 1 was delivered, the rest were not sent"),
        "{message}"
    );
    assert_eq!(failed["changedIds"], json!(["volume"]), "{failed}");
    assert_eq!(app.app.lock().unwrap().volume, 6, "step 3 was not sent");

    let malformed = mcp.fails(
        "batch",
        json!({"steps": [
            {"tool": "set_value", "node": "volume", "value": 7},
            {"tool": "act", "node": "volume"},
        ]}),
        "invalid_arguments",
    );
    assert!(
        malformed["message"]
            .as_str()
            .unwrap()
            .contains("step 2 (act) needs `action`"),
        "{malformed}"
    );
    assert_eq!(app.app.lock().unwrap().volume, 6, "nothing was sent");
    mcp.finish();
}
