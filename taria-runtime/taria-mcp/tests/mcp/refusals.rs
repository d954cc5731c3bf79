//! A refused input leaves the app as it was, through the real bridge: a key fallback
//! that could land on other tabs presses nothing, and text with no text input focused
//! is refused unless `raw`.

use serde_json::json;

use crate::harness::{Mcp, temp_socket};
use crate::support::nested_tabs::NestedTabs;
use crate::support::{LoopApp, RunningApp};

impl LoopApp for NestedTabs {
    fn render(&mut self, frame: &mut ratatui::Frame<'_>) {
        NestedTabs::render(self, frame);
    }

    fn on_event(&mut self, event: &ratatui::crossterm::event::Event) {
        NestedTabs::on_event(self, event);
    }
}

fn nested(name: &str, app: NestedTabs) -> (RunningApp<NestedTabs>, Mcp) {
    let app = RunningApp::launch(&temp_socket(name), app, 30, 4);
    let mcp = Mcp::start(&app.socket, &[]);
    (app, mcp)
}

/// Found in the wild: `select` on a nested tab pressed `right`, which switched the
/// outer tabs, and the answer said it "was not performed".
#[test]
fn a_select_on_a_nested_tab_is_refused_through_the_bridge_and_nothing_is_pressed() {
    let (app, mut mcp) = nested("nested-select", NestedTabs::default());
    mcp.ok("read_tree", json!({}));
    let refused = mcp.fails(
        "act",
        json!({"node": "inner/2", "action": "select"}),
        "action_unsupported",
    );
    let message = refused["message"].as_str().unwrap();
    assert!(
        message.contains(
            "`select` on `inner/2` was not performed and no key was pressed: `right` may move \
             the selection of `outer` instead"
        ),
        "{message}"
    );
    // taria's router wrote those words, in the app: not put in the app's mouth.
    assert!(
        message.starts_with("ignored: taria in the app says \"`select` on `inner/2`"),
        "{message}"
    );
    // The bridge adds no advice of its own that contradicts it ("nothing handles it;
    // try press_key …" after a refusal that names what to do).
    assert!(
        !message.contains("nothing in the app handles it"),
        "{message}"
    );
    let app = app.app.lock().unwrap();
    assert_eq!(app.keys, Vec::<String>::new(), "nothing was pressed");
    assert_eq!((app.outer, app.inner), (0, 0), "the app is as it was");
}

#[test]
fn type_text_with_no_text_input_focused_is_refused_unless_raw() {
    let (app, mut mcp) = nested(
        "nested-type",
        NestedTabs {
            marks_focus: true,
            ..NestedTabs::default()
        },
    );
    let refused = mcp.fails("type_text", json!({"text": "q"}), "action_unsupported");
    assert!(
        refused["message"]
            .as_str()
            .unwrap()
            .starts_with("no text input has focus (`outer` (tabs \"Sections\") has it)"),
        "{refused}"
    );
    let in_batch = mcp.call(
        "batch",
        json!({"steps": [{"tool": "type_text", "text": "q"}]}),
    );
    assert_eq!(in_batch["isError"], true, "{in_batch}");
    assert_eq!(app.app.lock().unwrap().keys, Vec::<String>::new());
    // Raw keys go where the app sends them: `tab` moves the focus to the inner tabs.
    let typed = mcp.ok("type_text", json!({"text": "\t", "raw": true}));
    assert_eq!(typed["status"], "delivered", "{typed}");
    assert!(app.app.lock().unwrap().inner_has_focus);
    mcp.ok(
        "batch",
        json!({"steps": [{"tool": "type_text", "text": "\t", "raw": true}]}),
    );
    assert_eq!(app.app.lock().unwrap().keys, ["tab", "tab"]);
}

/// Issue 30: whose words a refusal quotes: the app's handler's as the app's, a
/// widget's as the widget's (`select one of the tabs` was "the app says", in an app
/// with no handler).
#[test]
fn a_refusal_quotes_its_words_as_whose_they_are() {
    let app = crate::fake_app::FakeApp::start("whose-words", 1, |seq, n| match n {
        1 => json!({"type": "ack", "seq": seq, "status": "rejected",
            "reason": "handler_rejected", "message": "not on Sundays"}),
        _ => json!({"type": "ack", "seq": seq, "status": "rejected",
            "reason": "widget_rejected", "message": "select one of the tabs"}),
    });
    let mut mcp = Mcp::start(&app.socket, &[]);
    let handler = mcp.fails(
        "act",
        json!({"node": "ok", "action": "activate"}),
        "app_rejected",
    );
    assert!(
        handler["message"]
            .as_str()
            .unwrap()
            .starts_with("rejected: the app says \"not on Sundays\" — the app's handler"),
        "{handler}"
    );
    let widget = mcp.fails(
        "act",
        json!({"node": "ok", "action": "activate"}),
        "app_rejected",
    );
    assert!(
        widget["message"].as_str().unwrap().starts_with(
            "rejected: the widget says \"select one of the tabs\" — the widget that holds `ok`"
        ),
        "{widget}"
    );
    mcp.finish();
}
