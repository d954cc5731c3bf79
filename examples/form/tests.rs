//! The form driven headless with `taria::testing::AppHarness`: filled in by an agent
//! (`set_value`, `act`) and by a person (keys), validation shown on the controls' own
//! nodes and on screen, the password kept out of both, and the tree's golden outlines.

use taria::testing::RejectReason;
use taria::testing::{AppHarness, unperformed_offers};
use taria::{Checked, Node, Query, Role, StateFlags, Value};

use crate::app::App;

pub(crate) fn form() -> AppHarness<App> {
    AppHarness::new(App::new(), 80, 24, crate::ui::draw).on_event(|app, event| app.on_event(&event))
}

/// The ids of the controls whose last check failed.
fn invalid_fields(h: &AppHarness<App>) -> Vec<String> {
    h.find_all(&Query::new().state(StateFlags::INVALID))
        .into_iter()
        .map(|n| n.id.to_string())
        .collect()
}

fn message(node: &Node) -> Option<&str> {
    node.state.invalid_message.as_deref()
}

fn status(h: &AppHarness<App>) -> String {
    h.node("status").label.unwrap_or_default()
}

/// An agent fills every control with no handler code in the app: the controls take
/// the values into the app's state themselves.
fn fill_in(h: &mut AppHarness<App>, email: &str) {
    h.set_value("name", "Ada Lovelace").unwrap();
    h.set_value("email", email).unwrap();
    h.set_value("password", "correct horse").unwrap();
    h.act("terms", "toggle").unwrap();
    h.set_value("plan", "Team").unwrap();
    h.set_value("seats", 5).unwrap();
}

#[test]
fn an_agent_fills_the_form_fixes_the_invalid_field_and_submits() {
    let mut h = form();
    fill_in(&mut h, "ada@example");
    assert_eq!(
        h.node("name").value,
        Some(Value::Text("Ada Lovelace".into()))
    );
    assert_eq!(h.node("terms").state.checked, Some(Checked::True));
    assert_eq!(h.node("plan").value, Some(Value::Text("Team".into())));
    assert_eq!(h.node("seats").value, Some(Value::Number(5.0)));
    assert!(h.screen().contains("5 seats"), "{}", h.screen());
    assert!(
        invalid_fields(&h).is_empty(),
        "nothing is checked before submit"
    );

    h.act("submit", "activate").unwrap();
    // The invalid node is the control itself: its message, its value, and the
    // `set_value` that fixes it, all on one id.
    assert_eq!(invalid_fields(&h), ["email"]);
    let email = h.node("email");
    assert_eq!(email.role, Role::TextInput);
    assert_eq!(message(&email), Some("Enter an email like ada@example.com"));
    assert_eq!(email.value, Some(Value::Text("ada@example".into())));
    assert!(email.state.required);
    assert!(
        email.state.focused,
        "the focus moves to the first invalid field"
    );
    assert!(!h.node("name").state.focused);
    assert!(
        h.find_all(&Query::new().role(Role::FormField)).is_empty(),
        "no wrapper nodes"
    );
    assert!(
        h.screen().contains("✗ Enter an email like ada@example.com"),
        "{}",
        h.screen()
    );
    assert_eq!(
        status(&h),
        "1 field needs fixing: see the message under it."
    );

    h.set_value(&invalid_fields(&h)[0], "ada@example.com")
        .unwrap();
    h.act("submit", "activate").unwrap();
    assert!(invalid_fields(&h).is_empty(), "{}", h.tree().outline());
    assert_eq!(message(&h.node("email")), None);
    let done = "Submitted: Ada Lovelace <ada@example.com>, Team plan, 5 seats";
    assert_eq!(status(&h), done);
    assert!(h.screen().contains(done), "{}", h.screen());
    assert!(!h.screen().contains('✗'));
}

#[test]
fn an_empty_submit_marks_each_required_field_with_its_message() {
    let mut h = form();
    let required: Vec<_> = h
        .find_all(&Query::new().state(StateFlags::REQUIRED))
        .into_iter()
        .map(|n| n.id.to_string())
        .collect();
    assert_eq!(required, ["name", "email", "password", "terms"]);
    h.act("submit", "activate").unwrap();
    assert_eq!(invalid_fields(&h), required);
    for (id, text) in [
        ("name", "Enter your name"),
        ("email", "Enter your email"),
        ("password", "Use at least 8 characters"),
        ("terms", "Accept the terms to continue"),
    ] {
        assert_eq!(message(&h.node(id)), Some(text), "{id}");
        assert!(h.screen().contains(&format!("✗ {text}")), "{}", h.screen());
    }
    assert_eq!(
        status(&h),
        "4 fields need fixing: see the messages under them."
    );
    h.assert_snapshot("form/snapshots/empty-submit.outline");
}

#[test]
fn the_solo_plan_takes_one_seat() {
    let mut h = form();
    fill_in(&mut h, "ada@example.com");
    h.set_value("plan", "Solo").unwrap();
    h.act("submit", "activate").unwrap();
    assert_eq!(invalid_fields(&h), ["seats"]);
    let seats = h.node("seats");
    assert_eq!(seats.role, Role::Slider);
    assert_eq!(
        message(&seats),
        Some("Solo is for 1 seat: pick Team for more")
    );
    assert!(!seats.state.required);
    assert!(
        h.screen()
            .contains("✗ Solo is for 1 seat: pick Team for more"),
        "{}",
        h.screen()
    );
    // The slider steps down by its own `decrement`, one seat at a time.
    for _ in 0..4 {
        h.act("seats", "decrement").unwrap();
    }
    h.act("submit", "activate").unwrap();
    assert!(invalid_fields(&h).is_empty(), "{}", h.tree().outline());
    assert!(status(&h).ends_with("Solo plan, 1 seat"), "{}", status(&h));
}

#[test]
fn a_person_does_the_same_with_keys() {
    let mut h = form();
    assert!(h.node("name").state.focused, "the name has the focus");
    h.type_text("Ada Lovelace").unwrap();
    h.press("tab").unwrap();
    h.type_text("ada@example.com").unwrap();
    h.press("tab").unwrap();
    h.type_text("short").unwrap();
    h.press("enter").unwrap();
    assert_eq!(invalid_fields(&h), ["password", "terms"]);
    assert!(h.node("password").state.focused);
    assert_eq!(
        message(&h.node("password")),
        Some("Use at least 8 characters")
    );
    assert!(h.screen().contains("✗ Use at least 8 characters"));
    assert!(h.screen().contains("✗ Accept the terms to continue"));

    h.type_text(" and long").unwrap();
    h.press("tab").unwrap();
    assert!(h.node("terms").state.focused);
    h.press("space").unwrap();
    assert_eq!(h.node("terms").state.checked, Some(Checked::True));
    h.press("down").unwrap();
    assert!(h.node("plan").state.focused);
    h.press("right").unwrap();
    assert_eq!(h.node("plan").value, Some(Value::Text("Team".into())));
    h.press("tab").unwrap();
    assert!(h.node("seats").state.focused);
    for _ in 0..4 {
        h.press("right").unwrap();
    }
    h.press("left").unwrap();
    h.press("right").unwrap();
    h.press("tab").unwrap();
    assert!(h.node("submit").state.focused);
    h.press("space").unwrap();
    assert!(invalid_fields(&h).is_empty(), "{}", h.tree().outline());
    assert_eq!(
        status(&h),
        "Submitted: Ada Lovelace <ada@example.com>, Team plan, 5 seats"
    );
    // Back to the first field, the other way round.
    for _ in 0..6 {
        h.press("shift+tab").unwrap();
    }
    assert!(h.node("name").state.focused);
}

#[test]
fn q_types_in_text_fields_and_quits_elsewhere() {
    let mut h = form();
    h.type_text("q").unwrap();
    assert!(!h.app().should_quit);
    assert_eq!(h.node("name").value, Some(Value::Text("q".into())));
    for _ in 0..4 {
        h.press("tab").unwrap();
    }
    assert!(h.node("plan").state.focused);
    h.press("q").unwrap();
    assert!(
        !h.app().should_quit,
        "the name typed is not submitted: it asks first"
    );
    assert!(h.app().leaving);
    let mut h = form();
    h.press("esc").unwrap();
    assert!(
        h.app().should_quit,
        "esc quits from a text field too, nothing typed"
    );
}

/// Leaving with changes not submitted asks first, in a modal dialog an agent answers
/// with `submit` (leave) or `dismiss` (stay); a person with `y` or `n`.
#[test]
fn leaving_with_changes_not_submitted_asks_first() {
    let mut h = form();
    h.set_value("name", "Ada").unwrap();
    h.press("esc").unwrap();
    assert!(!h.app().should_quit);
    let dialog = h.node("confirm-leave");
    assert_eq!(dialog.role, taria::Role::Dialog);
    assert_eq!(dialog.label.as_deref(), Some("Leave the form?"));
    assert!(dialog.state.modal);
    // Behind the modal dialog the form takes no input.
    assert!(h.set_value("email", "ada@example.com").is_err());
    h.act("confirm-leave", "dismiss").unwrap();
    assert!(h.tree().get("confirm-leave").is_none());
    assert_eq!(
        h.node("name").value,
        Some(Value::Text("Ada".into())),
        "nothing lost"
    );
    h.press("esc").unwrap();
    h.press("n").unwrap();
    assert!(!h.app().should_quit && !h.app().leaving);
    h.press("esc").unwrap();
    h.act("confirm-leave", "submit").unwrap();
    assert!(h.app().should_quit);
    let mut h = form();
    h.set_value("name", "Ada").unwrap();
    h.press("esc").unwrap();
    h.press("y").unwrap();
    assert!(h.app().should_quit);
}

#[test]
fn an_agent_moves_the_focus_to_a_field_then_types_into_it() {
    let mut h = form();
    // The focused control is the one typed into; the keys a person uses move it.
    h.press("tab").unwrap();
    assert!(h.node("email").state.focused);
    assert!(!h.node("name").state.focused);
    let focused: Vec<_> = h
        .find_all(&Query::new().state(StateFlags::FOCUSED))
        .into_iter()
        .map(|n| n.id.to_string())
        .collect();
    assert_eq!(focused, ["email"], "one focused node");
    h.type_text("grace@example.org").unwrap();
    assert_eq!(
        h.node("email").value,
        Some(Value::Text("grace@example.org".into()))
    );
    assert!(h.screen().contains("grace@example.org"));

    // Or by id: the text fields offer `focus`, and the app's handler moves it there.
    h.act("password", "focus").unwrap();
    assert!(h.node("password").state.focused);
    h.type_text("longer than eight").unwrap();
    assert!(h.screen().contains("•••••••••••••••••"), "{}", h.screen());
    let refused = h.act("plan", "focus").unwrap_err();
    assert_eq!(
        refused.reason,
        taria::testing::RejectReason::ActionNotOffered
    );
}

#[test]
fn the_password_is_in_neither_the_tree_nor_the_screen() {
    let mut h = form();
    h.set_value("password", "hunter2hunter2").unwrap();
    h.press("tab").unwrap();
    h.press("tab").unwrap();
    assert!(h.node("password").state.focused);
    h.type_text("xyzzy").unwrap();
    let node = h.node("password");
    assert!(node.state.redacted);
    assert_eq!(node.value, None);
    let json = serde_json::to_string(&h.tree()).unwrap();
    for secret in ["hunter2", "xyzzy"] {
        assert!(!json.contains(secret), "{json}");
        assert!(!h.tree().outline().contains(secret));
        assert!(!h.screen().contains(secret), "{}", h.screen());
    }
    assert!(h.screen().contains(&"•".repeat(19)), "{}", h.screen());
    // The app has it, and a valid submit does not show it either.
    assert_eq!(h.app().password.value(), "hunter2hunter2xyzzy");
    // Nor an invalid submit, whose message is on the password's own node.
    h.set_value("password", "hunter2").unwrap();
    h.act("submit", "activate").unwrap();
    assert_eq!(
        message(&h.node("password")),
        Some("Use at least 8 characters")
    );
    let json = serde_json::to_string(&h.tree()).unwrap();
    assert!(!json.contains("hunter2"), "{json}");
    assert!(!h.tree().outline().contains("hunter2"));
    assert!(!h.screen().contains("hunter2"), "{}", h.screen());
    fill_in(&mut h, "ada@example.com");
    h.act("submit", "activate").unwrap();
    assert!(status(&h).starts_with("Submitted"));
    assert!(!h.screen().contains("correct horse"));
}

#[test]
fn values_outside_a_control_domain_are_refused_before_the_app() {
    let mut h = form();
    let plan = h.set_value("plan", "Gold").unwrap_err();
    assert_eq!(plan.reason, RejectReason::OutOfDomain, "{plan}");
    let seats = h.set_value("seats", 99).unwrap_err();
    assert_eq!(seats.reason, RejectReason::OutOfDomain, "{seats}");
    let name = h.set_value("name", "x".repeat(101)).unwrap_err();
    assert_eq!(name.reason, RejectReason::OutOfDomain, "{name}");
    let terms = h.set_value("terms", "yes").unwrap_err();
    assert_eq!(terms.reason, RejectReason::OutOfDomain, "{terms}");
    let missing = h.set_value("nope", "x").unwrap_err();
    assert_eq!(missing.reason, RejectReason::UnknownNode);
    assert_eq!(h.app().name.value(), "", "nothing changed");
    assert_eq!(h.app().plan_name(), "Solo");
}

#[test]
fn the_first_frame_matches_its_outline() {
    let h = form();
    assert_eq!(
        h.find(&Query::new().role(Role::Form))
            .and_then(|n| n.label)
            .as_deref(),
        Some("Sign up")
    );
    h.assert_snapshot("form/snapshots/first-frame.outline");
}

/// Issue 20: every node the tree gives bounds shows its label or value inside them
/// (`AppHarness::assert_text_drawn`), and no two nodes say the same thing in the same
/// place (`AppHarness::assert_no_duplicate_nodes`), and the accessibility lint finds
/// nothing (`AppHarness::assert_accessible`), at a few terminal sizes, empty and filled in.
#[test]
fn every_node_shows_its_text_where_the_tree_says_at_any_size() {
    for (width, height) in [(80, 24), (120, 40), (60, 30)] {
        let mut h = form();
        h.resize(width, height);
        h.assert_text_drawn();
        h.assert_no_duplicate_nodes();
        h.assert_accessible();
        fill_in(&mut h, "ada@example.com");
        h.assert_text_drawn();
        h.assert_no_duplicate_nodes();
        h.assert_accessible();
    }
}

/// Every action the tree offers is performed by something (a handler, a widget or a
/// key fallback).
#[test]
fn every_action_the_tree_offers_is_performed() {
    assert_eq!(unperformed_offers(form), Vec::<String>::new());
}
