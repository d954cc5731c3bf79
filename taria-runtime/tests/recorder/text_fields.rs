//! The text field rule: a text field with a declared `focus` key offers its other
//! keyed actions only while it has focus (log-time-machine's filter: `submit` on the
//! closed filter pressed `/` then `enter` and re-applied what was there).

use taria::testing::Harness;
use taria::{Action, Role};

/// A filter line as log-time-machine draws it: `/` opens it, `enter` applies, `esc`
/// cancels; `also` is one more core action it declares without a key.
fn filter(role: Role, focused: bool, focus_key: bool) {
    taria::leaf(|n| {
        n.role(role).id("filter").label("Filter").value("deadlock");
        n.focused(focused);
        if focus_key {
            n.key_fallback(Action::Focus, "/");
        }
        n.key_fallback(Action::Submit, "enter")
            .key_fallback(Action::Dismiss, "esc")
            .action(Action::SetValue);
    });
}

fn offers(role: Role, focused: bool, focus_key: bool) -> Vec<String> {
    let tree = Harness::new(20, 1).render(|_| filter(role, focused, focus_key));
    let node = tree.get("filter").expect("recorded");
    node.actions.iter().map(ToString::to_string).collect()
}

#[test]
fn an_unfocused_field_with_a_focus_key_offers_focus_and_not_its_other_keys() {
    for role in [Role::TextInput, Role::TextArea] {
        assert_eq!(
            offers(role, false, true),
            ["focus", "set_value"],
            "{role:?}"
        );
        assert_eq!(
            offers(role, true, true),
            ["focus", "set_value", "dismiss", "submit"],
            "{role:?} focused"
        );
    }
}

#[test]
fn the_keys_stay_listed_while_their_actions_wait_for_focus() {
    let tree = Harness::new(20, 1).render(|_| filter(Role::TextInput, false, true));
    let keys = &tree.get("filter").unwrap().keys;
    assert_eq!(keys.get("submit").map(String::as_str), Some("enter"));
    assert_eq!(keys.get("focus").map(String::as_str), Some("/"));
}

#[test]
fn a_field_without_a_focus_key_or_a_node_of_another_role_keeps_every_offer() {
    // Without a focus key the app says nothing of how focus reaches it (many apps
    // have one input, always taking keys): its offers stand.
    assert_eq!(
        offers(Role::TextInput, false, false),
        ["set_value", "dismiss", "submit"]
    );
    assert_eq!(
        offers(Role::Dialog, false, true),
        ["focus", "set_value", "dismiss", "submit"]
    );
}
