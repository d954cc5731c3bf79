//! The chat port headless: the input line is one `text_input` node an agent focuses,
//! types into and submits through the app's own keys; nothing is recorded twice and
//! nothing is offered that nothing performs.

use ratatui::crossterm::event::Event;
use taria::testing::RejectReason;
use taria::testing::{AppHarness, unperformed_offers};

use super::App;

fn chat() -> AppHarness<App> {
    AppHarness::new(App::new(), 60, 12, |frame, app: &mut App| app.draw(frame)).on_event(
        |app, event| {
            if let Event::Key(key) = event {
                app.handle_key(key);
            }
        },
    )
}

/// The input line's id, read from the tree as an agent reads it.
fn input(h: &AppHarness<App>) -> String {
    let node = h
        .find(&taria::Query::new().role(taria::Role::TextInput))
        .expect("the input line is a text_input");
    node.id.to_string()
}

#[test]
fn the_input_line_is_one_text_input_node_and_the_messages_a_list() {
    let h = chat();
    let node = h.node(&input(&h));
    assert_eq!(node.label.as_deref(), Some("Input"));
    assert!(!node.state.focused);
    let offered: Vec<&str> = node
        .actions
        .iter()
        .map(taria::node::ActionName::as_str)
        .collect();
    // `submit` (its key `enter`) waits for the focus: the text field rule.
    assert_eq!(offered, ["focus"]);
    assert_eq!(node.keys.get("submit").map(String::as_str), Some("enter"));
    assert!(
        h.find(
            &taria::Query::new()
                .role(taria::Role::List)
                .label("Messages")
        )
        .is_some()
    );
    h.assert_text_drawn();
    h.assert_no_duplicate_nodes();
    h.assert_accessible();
}

#[test]
fn an_agent_focuses_types_and_sends_a_message() {
    let mut h = chat();
    let id = input(&h);
    let refused = h.type_text("hi").unwrap_err();
    assert_eq!(refused.reason, RejectReason::NoTextInput, "not editing yet");
    h.act(&id, "focus").unwrap();
    assert!(h.node(&id).state.focused);
    assert!(h.node(&id).offers("submit"), "offered with the focus");
    h.type_text("hello there").unwrap();
    assert_eq!(
        h.node(&id).value,
        Some(taria::Value::Text("hello there".into()))
    );
    h.act(&id, "submit").unwrap();
    assert_eq!(h.app().messages, ["hello there"]);
    assert!(h.screen().contains("0: hello there"), "{}", h.screen());
    assert_eq!(h.node(&id).value, Some(taria::Value::Text(String::new())));
    h.assert_text_drawn();
    h.assert_no_duplicate_nodes();
    h.assert_accessible();
}

#[test]
fn everything_the_chat_offers_is_performed() {
    assert_eq!(unperformed_offers(chat), Vec::<String>::new());
}
