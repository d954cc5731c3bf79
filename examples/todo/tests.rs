//! The todo app driven headless with `taria::testing::AppHarness`: the agent's task
//! through actions, the same task by keys, the errors an agent gets, and the tree's
//! golden outline.

use ratatui::crossterm::event::{Event, KeyEventKind};
use taria::testing::RejectReason;
use taria::testing::{AppHarness, unperformed_offers};
use taria::{Checked, Query, Role, StateFlags};

use crate::app::App;

pub(crate) fn todo() -> AppHarness<App> {
    AppHarness::new(App::with_sample_tasks(), 60, 16, crate::ui::draw).on_event(|app, event| {
        if let Event::Key(key) = event
            && key.kind == KeyEventKind::Press
        {
            app.on_key(key);
        }
    })
}

/// The id of the task labelled `title` in the last frame.
fn task_id(h: &AppHarness<App>, title: &str) -> String {
    h.find_all(&Query::new().role(Role::ListItem))
        .into_iter()
        .find(|n| n.label.as_deref() == Some(title))
        .map_or_else(
            || panic!("no task {title:?}:\n{}", h.tree().outline()),
            |n| n.id.to_string(),
        )
}

fn selected_tab(h: &AppHarness<App>) -> Option<String> {
    h.find(&Query::new().role(Role::Tab).state(StateFlags::SELECTED))
        .and_then(|n| n.label)
}

#[test]
fn an_agent_adds_completes_filters_and_deletes_a_task() {
    let mut h = todo();
    h.set_value("new-task", "ship v0").unwrap();
    h.act("new-task", "submit").unwrap();
    let task = task_id(&h, "ship v0");
    assert_eq!(h.node(&task).state.checked, Some(Checked::False));
    assert_eq!(h.node("status").label.as_deref(), Some("Added \"ship v0\""));

    h.act(&task, "toggle").unwrap();
    assert_eq!(h.node(&task).state.checked, Some(Checked::True));

    h.act("filter/done", "select").unwrap();
    assert_eq!(selected_tab(&h).as_deref(), Some("Done"));
    assert!(h.screen().contains("[x] ship v0"), "{}", h.screen());
    assert!(
        !h.screen().contains("Record a demo"),
        "active tasks are filtered out"
    );

    h.act(&task, "delete").unwrap();
    let dialog = h.node("confirm-delete");
    assert!(dialog.state.modal);
    assert!(h.screen().contains("Delete this task? (y/n)"));
    h.act("confirm-delete", "submit").unwrap();
    assert!(h.tree().get(&task).is_none());
    assert!(h.tree().get("confirm-delete").is_none());
    assert!(!h.screen().contains("ship v0"));
    assert!(h.screen().contains("Deleted the task"));
}

#[test]
fn a_person_does_the_same_task_with_keys() {
    let mut h = todo();
    h.press("a").unwrap();
    assert!(h.node("new-task").state.focused);
    h.type_text("ship v0\n").unwrap();
    let task = task_id(&h, "ship v0");
    // The new task is last: move down to it and complete it.
    for _ in 0..3 {
        h.press("down").unwrap();
    }
    assert!(h.node(&task).state.selected);
    h.press("space").unwrap();
    assert_eq!(h.node(&task).state.checked, Some(Checked::True));
    h.press("tab").unwrap();
    h.press("tab").unwrap();
    assert_eq!(selected_tab(&h).as_deref(), Some("Done"));
    // Done shows "Write the README" then "ship v0".
    h.press("down").unwrap();
    h.press("d").unwrap();
    assert!(h.tree().get("confirm-delete").is_some());
    h.press("y").unwrap();
    assert!(h.tree().get(&task).is_none());
    assert_eq!(h.app().tasks.len(), 3);
}

#[test]
fn agent_actions_without_a_handler_go_through_the_key_fallback() {
    let mut h = todo();
    // `new-task` declares `focus = key("a")`; there is no focus handler.
    h.act("new-task", "focus").unwrap();
    assert!(h.node("new-task").state.focused);
}

/// Issue 30: `focus` on the input that has the focus changes nothing: its focus key
/// (`a`) is not pressed again, where it would be typed into the field.
#[test]
fn focus_on_the_focused_input_presses_nothing() {
    let mut h = todo();
    h.act("new-task", "focus").unwrap();
    h.type_text("abc").unwrap();
    assert_eq!(
        h.node("new-task").value,
        Some(taria::Value::Text("abc".into()))
    );
    h.act("new-task", "focus").unwrap();
    h.act("new-task", "focus").unwrap();
    assert!(h.node("new-task").state.focused);
    assert_eq!(
        h.node("new-task").value,
        Some(taria::Value::Text("abc".into()))
    );
}

#[test]
fn mistakes_get_errors_that_say_what_to_do() {
    let mut h = todo();
    let empty = h.act("new-task", "submit").unwrap_err();
    assert_eq!(empty.reason, RejectReason::HandlerRejected);
    assert!(
        empty.message.contains("set_value on new-task first"),
        "{empty}"
    );

    let too_long = h.set_value("new-task", "x".repeat(201)).unwrap_err();
    assert_eq!(too_long.reason, RejectReason::OutOfDomain);

    let task = task_id(&h, "Record a demo");
    h.act(&task, "delete").unwrap();
    // Behind the modal dialog nothing can be acted on.
    let blocked = h.act("filter/all", "select").unwrap_err();
    assert_eq!(blocked.reason, RejectReason::ActionNotOffered);
    h.act("confirm-delete", "dismiss").unwrap();
    assert!(h.tree().get(&task).is_some(), "dismissing keeps the task");

    let gone = h.act("tasks/999", "toggle").unwrap_err();
    assert_eq!(gone.reason, RejectReason::UnknownNode);
}

#[test]
fn an_agent_cannot_open_the_editor_it_could_not_drive() {
    let mut h = todo();
    h.press("e").unwrap();
    assert_eq!(
        h.node("status").label.as_deref(),
        Some("Editing in $EDITOR is for the person at the terminal")
    );
}

#[test]
fn the_first_frame_matches_its_outline() {
    todo().assert_snapshot("todo/snapshots/first-frame.outline");
}

#[test]
fn f2_shows_and_hides_the_tree_pane_beside_the_app() {
    let mut h = todo();
    assert!(!h.screen().contains("Semantic tree (F2)"));
    let list_width = |h: &AppHarness<App>| h.node("tasks").bounds.width;
    let full = list_width(&h);
    h.press("f2").unwrap();
    assert!(h.screen().contains("Semantic tree (F2)"), "{}", h.screen());
    assert!(list_width(&h) < full, "the app keeps the left part");
    h.press("f2").unwrap();
    assert!(!h.screen().contains("Semantic tree (F2)"), "{}", h.screen());
    assert_eq!(list_width(&h), full);
}

/// Every action the tree offers is performed by something (a handler, a widget or a
/// key fallback): the list itself offered `select` with nothing to take it, an offer
/// an agent would have been refused.
#[test]
fn every_action_the_tree_offers_is_performed() {
    assert_eq!(unperformed_offers(todo), Vec::<String>::new());
}

/// Issue 20: every node the tree gives bounds shows its label or value inside them
/// (`AppHarness::assert_text_drawn`), and no two nodes say the same thing in the same
/// place (`AppHarness::assert_no_duplicate_nodes`), and the accessibility lint finds
/// nothing (`AppHarness::assert_accessible`), at a few terminal sizes, before and after an edit.
#[test]
fn every_node_shows_its_text_where_the_tree_says_at_any_size() {
    for (width, height) in [(60, 16), (100, 30), (40, 10), (24, 8)] {
        let mut h = todo();
        h.resize(width, height);
        h.assert_text_drawn();
        h.assert_no_duplicate_nodes();
        h.assert_accessible();
        h.press("down").unwrap();
        h.press("space").unwrap();
        h.assert_text_drawn();
        h.assert_no_duplicate_nodes();
        h.assert_accessible();
    }
}
