//! Issue 20, through the real bridge and a real app in its pty: an app that rebuilds
//! its table's state each frame (`examples/rebuilt`) hears that an agent's `select`
//! did not stick, not "delivered … nothing changed"; with the documented handler
//! (`--routed`) the select works, on rows off screen and by scrolling too, within the
//! table's rows.

use serde_json::json;

use crate::harness::{Mcp, outline};

/// The built `rebuilt` example.
fn rebuilt() -> String {
    crate::spawn::example_app("rebuilt")
}

#[test]
fn a_select_an_app_undoes_each_frame_is_answered_as_undone_through_the_bridge() {
    let app = rebuilt();
    let mut mcp = Mcp::launch(&["--cols", "40", "--rows", "12", "--", &app]);
    let tree = outline(&mcp.ok("read_tree", json!({})));
    assert!(tree.contains("[id=people]"), "{tree}");
    let refused = mcp.fails(
        "act",
        json!({"node": "people/3", "action": "select"}),
        "action_unsupported",
    );
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("did not stick"), "{message}");
    assert!(
        message.contains("rebuilds `people`'s state each frame"),
        "{message}"
    );
    assert!(!message.contains("delivered"), "{message}");
    let tree = outline(&mcp.ok("read_tree", json!({})));
    assert!(
        tree.lines()
            .any(|l| l.contains("[id=people/0") && l.contains("[selected]")),
        "the app's row is still selected:\n{tree}"
    );
}

#[test]
fn with_the_documented_handler_the_select_works_through_the_bridge() {
    let app = rebuilt();
    let mut mcp = Mcp::launch(&["--cols", "40", "--rows", "12", "--", &app, "--routed"]);
    mcp.ok("read_tree", json!({}));
    let done = mcp.ok("act", json!({"node": "people/3", "action": "select"}));
    assert_eq!(done["status"], "delivered", "{done}");
    let selected = |mcp: &mut Mcp, row: &str| {
        let tree = outline(&mcp.ok("read_tree", json!({})));
        assert!(
            tree.lines()
                .any(|l| l.contains(&format!("[id=people/{row} ")) && l.contains("[selected]")),
            "people/{row} selected:\n{tree}"
        );
    };
    selected(&mut mcp, "3");
    // Issue 21.4: the same handler takes a row off screen and a scroll, each resolved
    // by the table within its 20 rows; past them, nothing reaches the handler.
    let done = mcp.ok("act", json!({"node": "people/15", "action": "select"}));
    assert_eq!(done["status"], "delivered", "{done}");
    selected(&mut mcp, "15");
    let done = mcp.ok(
        "act",
        json!({"node": "people", "action": "scroll", "direction": "down", "amount": 100}),
    );
    assert_eq!(done["status"], "delivered", "{done}");
    selected(&mut mcp, "19");
    let refused = mcp.fails(
        "act",
        json!({"node": "people/40", "action": "select"}),
        "not_found",
    );
    let message = refused["message"].as_str().unwrap();
    assert!(message.contains("of its 20"), "{message}");
    selected(&mut mcp, "19");
}
