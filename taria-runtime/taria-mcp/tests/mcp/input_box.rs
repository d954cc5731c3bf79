//! Issue 31.3: a search box drawn as a taria-widgets `Block` given the `text_input`
//! role, with the text typed so far drawn inside it by a plain ratatui `Paragraph`.
//! The block's value is that text, so an agent's `type_text` is answered with the
//! value it changed (before, the block had no value and the answer was "nothing in
//! the tree changed").

use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode};
use serde_json::json;
use taria::{Actions, Invocation, Outcome, Role};

use crate::harness::{Mcp, temp_socket};

/// A focused search box that takes every character typed.
#[derive(Default)]
struct SearchBox {
    query: String,
}

impl Actions for SearchBox {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

impl crate::support::LoopApp for SearchBox {
    fn render(&mut self, frame: &mut Frame<'_>) {
        let block = taria_widgets::Block::bordered()
            .title("Search")
            .id("search")
            .role(Role::TextInput)
            .focused(true);
        let inner = block.inner(frame.area());
        frame.render_widget(block, frame.area());
        frame.render_widget(ratatui::widgets::Paragraph::new(self.query.as_str()), inner);
    }

    fn on_event(&mut self, event: &Event) {
        if let Event::Key(key) = event {
            match key.code {
                KeyCode::Char(c) => self.query.push(c),
                KeyCode::Backspace => {
                    self.query.pop();
                }
                _ => {}
            }
        }
    }
}

#[test]
fn typing_into_a_block_given_the_text_input_role_changes_its_value() {
    let socket = temp_socket("input-box");
    let app = crate::support::RunningApp::launch(&socket, SearchBox::default(), 30, 3);
    let mut mcp = Mcp::start(&app.socket, &[]);
    let read = mcp.ok("read_tree", json!({}));
    assert!(
        read["outline"]
            .as_str()
            .unwrap()
            .contains("- text_input \"Search\" [id=search] [focused]"),
        "{read}"
    );

    let typed = mcp.ok("type_text", json!({"text": "rust tui"}));
    assert_eq!(typed["status"], "delivered", "{typed}");
    assert_eq!(typed["changed"], true, "{typed}");
    assert_eq!(typed["changedIds"], json!(["search"]), "{typed}");
    // What changed, or the whole tree when that is most of it (here: one node).
    let shown = |answer: &serde_json::Value| {
        let shown = answer.get("changes").or_else(|| answer.get("outline"));
        shown
            .and_then(|s| s.as_str())
            .unwrap_or_default()
            .to_owned()
    };
    assert!(
        shown(&typed).contains("- text_input \"Search\": \"rust tui\" [id=search]"),
        "{typed}"
    );
    let note = typed["note"].as_str().unwrap_or_default();
    assert!(!note.contains("nothing in the tree changed"), "{typed}");
    assert_eq!(app.app.lock().unwrap().query, "rust tui");

    let erased = mcp.ok("press_key", json!({"key": "backspace", "repeat": 4}));
    assert_eq!(erased["changed"], true, "{erased}");
    assert!(shown(&erased).contains("\"Search\": \"rust\""), "{erased}");
    mcp.finish();
}
