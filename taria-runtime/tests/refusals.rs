//! A refused input leaves the app as it was: a key fallback presses nothing it cannot
//! show reaches the node meant, and text is typed only into a focused text input
//! (unless asked for raw keys). Driven headless with `AppHarness`, through the same
//! routing an agent's inputs take.

#[path = "support/nested_tabs.rs"]
mod nested_tabs;

use nested_tabs::NestedTabs;
use taria::testing::AppHarness;
use taria::{Action, Role};
use taria_schema::protocol::{AckStatus, RejectReason};

fn nested(app: NestedTabs) -> AppHarness<NestedTabs> {
    AppHarness::new(app, 30, 4, |frame, app: &mut NestedTabs| app.render(frame))
        .on_event(|app, event| app.on_event(&event))
}

/// Found in the wild: `select` on a nested tab pressed `right`, which the app sent to
/// the outer tabs; the answer said the action "was not performed" while the outer
/// tabs had switched. Two tab lists take the arrows and nothing shows which has
/// focus, so nothing is pressed.
#[test]
fn a_select_on_a_nested_tab_whose_keys_could_reach_the_outer_tabs_is_refused_before_any_key() {
    let mut h = nested(NestedTabs::default());
    let error = h.act("inner/2", "select").unwrap_err();
    assert_eq!(
        (error.status, error.reason),
        (AckStatus::Ignored, RejectReason::NoRoute)
    );
    assert_eq!(h.app().keys, Vec::<String>::new(), "nothing was pressed");
    assert_eq!(
        (h.app().outer, h.app().inner),
        (0, 0),
        "the app is as it was"
    );
    assert!(
        error.message.starts_with(
            "`select` on `inner/2` was not performed and no key was pressed: `right` may \
             move the selection of `outer` instead (it declares no keys, so it may take \
             the arrows too), and nothing in the tree shows which has focus"
        ),
        "{error}"
    );
    assert!(error.message.contains("press_key"), "{error}");
    // `inner` offers no `focus`, and nothing says the app has a key for it: the advice
    // does not claim one (it did: "with the app's key for it").
    assert!(
        error
            .message
            .contains("if the app has a key that moves the focus to `inner`"),
        "{error}"
    );
}

#[test]
fn a_select_on_a_nested_tab_is_refused_when_the_outer_tabs_have_focus() {
    let mut h = nested(NestedTabs {
        marks_focus: true,
        ..NestedTabs::default()
    });
    let error = h.act("inner/1", "select").unwrap_err();
    assert!(
        error
            .message
            .contains("`outer` has focus, and `right` moves its selection"),
        "{error}"
    );
    assert_eq!(h.app().keys, Vec::<String>::new(), "nothing was pressed");
    assert_eq!(h.app().outer, 0);
}

#[test]
fn a_select_on_nested_tabs_that_have_focus_presses_their_keys() {
    let mut h = nested(NestedTabs {
        marks_focus: true,
        inner_has_focus: true,
        ..NestedTabs::default()
    });
    h.act("inner/2", "select").unwrap();
    assert_eq!((h.app().outer, h.app().inner), (0, 2));
    assert_eq!(h.app().keys, ["right", "right"]);
    // The outer tabs, from the outside: the arrows go to `inner`, so they are refused.
    let error = h.act("outer/1", "select").unwrap_err();
    assert!(error.message.contains("`inner` has focus"), "{error}");
    assert_eq!(h.app().outer, 0);
}

/// An app whose arrows move a selection the tree does not show: the one tab list
/// takes them, and after the keys the check fails. The answer says which keys were
/// pressed and what they changed.
#[derive(Default)]
struct Hidden {
    tab: usize,
    hidden: usize,
}

#[test]
fn a_key_fallback_whose_check_fails_says_which_keys_it_pressed_and_what_changed() {
    let draw = |frame: &mut ratatui::Frame<'_>, app: &mut Hidden| {
        let tabs = taria::scope(|n| {
            n.role(Role::Tabs).id("views");
        });
        for i in 0..3_usize {
            taria::leaf(|n| {
                n.role(Role::Tab)
                    .key(i)
                    .label(("View ", i))
                    .index(i)
                    .selected(app.tab == i)
                    .action(Action::Select);
            });
        }
        drop(tabs);
        taria::leaf(|n| {
            n.role(Role::Status).id("status").value(app.hidden);
        });
        frame.render_widget(ratatui::widgets::Paragraph::new("views"), frame.area());
    };
    let mut h = AppHarness::new(Hidden::default(), 20, 3, draw).on_event(|app, event| {
        if let ratatui::crossterm::event::Event::Key(key) = event
            && key.code == ratatui::crossterm::event::KeyCode::Right
        {
            app.hidden += 1;
        }
    });
    let error = h.act("views/2", "select").unwrap_err();
    assert_eq!(error.status, AckStatus::Ignored);
    assert!(
        error.message.starts_with(
            "`select` on `views/2` was not performed, but keys were pressed: `right` 2 times; \
             after them, `views/0` is selected, not `views/2` (the app's keys do not move its \
             selection that way), and they changed: `status`;"
        ),
        "{error}"
    );
    assert_eq!(h.app().hidden, 2);
}

impl taria::Actions for Hidden {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

#[test]
fn text_with_no_text_input_focused_is_refused_and_nothing_is_pressed() {
    let mut h = nested(NestedTabs {
        marks_focus: true,
        ..NestedTabs::default()
    });
    let error = h.type_text("q\t").unwrap_err();
    assert_eq!(
        (error.status, error.reason),
        (AckStatus::Rejected, RejectReason::NoTextInput)
    );
    assert!(
        error.message.starts_with(
            "no text input has focus (`outer` (tabs \"Sections\") has it), so nothing was \
             typed or pressed"
        ),
        "{error}"
    );
    assert_eq!(h.app().keys, Vec::<String>::new());
    // Nothing focused at all.
    let mut h = nested(NestedTabs::default());
    let error = h.type_text("x").unwrap_err();
    assert!(error.message.contains("(nothing has it)"), "{error}");
    // Raw keys go wherever the app sends them.
    h.type_text_raw("\t").unwrap();
    assert_eq!(h.app().keys, ["tab"]);
    assert!(h.app().inner_has_focus);
}

/// Two nodes take `enter`: a list's items and a button. The button's own key is
/// pressed only when the tree shows it reaches the button.
#[derive(Default)]
struct Files {
    open_has_focus: bool,
    keys: Vec<ratatui::crossterm::event::KeyCode>,
}

impl taria::Actions for Files {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

#[test]
fn an_own_key_another_node_takes_too_is_pressed_only_where_the_focus_shows_it_lands() {
    let draw = |frame: &mut ratatui::Frame<'_>, app: &mut Files| {
        let list = taria::scope(|n| {
            n.role(Role::List).id("files");
        });
        for i in 0..2_usize {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i)
                    .label(("file ", i))
                    .selected(i == 0)
                    .action(Action::Activate)
                    .key_fallback(Action::Activate, "enter");
            });
        }
        drop(list);
        taria::leaf(|n| {
            n.role(Role::Button)
                .id("open")
                .label("Open")
                .focused(app.open_has_focus)
                .action(Action::Activate)
                .key_fallback(Action::Activate, "enter");
        });
        frame.render_widget(ratatui::widgets::Paragraph::new("files"), frame.area());
    };
    let mut h = AppHarness::new(Files::default(), 20, 3, draw).on_event(|app, event| {
        if let ratatui::crossterm::event::Event::Key(key) = event {
            app.keys.push(key.code);
        }
    });
    let error = h.act("open", "activate").unwrap_err();
    assert!(
        error.message.starts_with(
            "`activate` on `open` was not performed and no key was pressed: `enter` is also \
             `files`'s key for `activate`, and nothing in the tree shows which has focus"
        ),
        "{error}"
    );
    assert!(h.app().keys.is_empty(), "nothing was pressed");
    h.app_mut().open_has_focus = true;
    h.render();
    h.act("open", "activate").unwrap();
    assert_eq!(h.app().keys, [ratatui::crossterm::event::KeyCode::Enter]);
    // The list's item, from the outside: `open` has focus, so `enter` goes there.
    let error = h.act("files/0", "activate").unwrap_err();
    assert!(error.message.contains("`open` has focus"), "{error}");
}

/// An app with a filter field and a status line whose `clear` is the key `F`.
#[derive(Default)]
struct Filtering {
    filter_has_focus: bool,
    keys: Vec<ratatui::crossterm::event::KeyCode>,
}

impl taria::Actions for Filtering {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

/// Found on log-time-machine: with its filter field focused, the status line's
/// `clear_filters`, whose key fallback is `F`, typed an `F` into the filter and was
/// answered `delivered`. A printable key is not pressed while a text field has focus.
#[test]
fn a_printable_key_fallback_is_not_typed_into_the_text_field_that_has_focus() {
    let draw = |frame: &mut ratatui::Frame<'_>, app: &mut Filtering| {
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("filter")
                .label("Filter")
                .value("dead")
                .focused(app.filter_has_focus);
        });
        taria::leaf(|n| {
            n.role(Role::Status)
                .id("status")
                .label("F clears the filter")
                .custom_action("clear_filters")
                .custom_key_fallback("clear_filters", "F");
        });
        frame.render_widget(ratatui::widgets::Paragraph::new("log"), frame.area());
    };
    let mut h = AppHarness::new(
        Filtering {
            filter_has_focus: true,
            ..Filtering::default()
        },
        30,
        3,
        draw,
    )
    .on_event(|app, event| {
        if let ratatui::crossterm::event::Event::Key(key) = event {
            app.keys.push(key.code);
        }
    });
    let error = h.act("status", "clear_filters").unwrap_err();
    assert_eq!(error.status, AckStatus::Ignored, "{error}");
    assert!(
        error.message.starts_with(
            "`clear_filters` on `status` was not performed and no key was pressed: its key \
             `F` would be typed into `filter`, the text field that has focus"
        ),
        "{error}"
    );
    assert!(h.app().keys.is_empty(), "nothing was pressed");
    // With the focus elsewhere, the key is the app's.
    h.app_mut().filter_has_focus = false;
    h.render();
    h.act("status", "clear_filters").unwrap();
    assert_eq!(
        h.app().keys,
        [ratatui::crossterm::event::KeyCode::Char('F')]
    );
}

/// Found on log-time-machine (its port needed two handlers for it): `submit` on the
/// closed filter pressed its focus key `/` then `enter`, which re-applied the filter
/// it showed, and the audit saw an offered action with no effect. A text field with a
/// focus key offers its other keys only with focus, and says so when asked.
#[test]
fn submit_on_a_text_field_without_focus_is_refused_as_waiting_for_focus_and_nothing_is_pressed() {
    let draw = |frame: &mut ratatui::Frame<'_>, app: &mut Filtering| {
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .id("filter")
                .label("Filter")
                .value("dead")
                .focused(app.filter_has_focus)
                .key_fallback(Action::Focus, "/")
                .key_fallback(Action::Submit, "enter");
        });
        frame.render_widget(ratatui::widgets::Paragraph::new("log"), frame.area());
    };
    let mut h = AppHarness::new(Filtering::default(), 30, 3, draw).on_event(|app, event| {
        if let ratatui::crossterm::event::Event::Key(key) = event {
            app.keys.push(key.code);
            app.filter_has_focus = key.code == ratatui::crossterm::event::KeyCode::Char('/');
        }
    });
    let error = h.act("filter", "submit").unwrap_err();
    assert_eq!(
        (error.status, error.reason),
        (AckStatus::Rejected, RejectReason::ActionNotOffered),
        "{error}"
    );
    assert_eq!(
        error.message,
        "`filter` does not offer `submit`; it offers: focus (its key `enter` acts on the \
         text being typed: it is offered while `filter` has focus; act focus on it first)"
    );
    assert!(h.app().keys.is_empty(), "nothing was pressed");
    // The node the agent read before focusing it is the same node after: focus and
    // submit in one batch, by a positional id, is not refused as another node
    // (`stale_target`: its offers changed, its declared keys did not).
    let seen = taria_schema::protocol::target_token(&h.node("filter"));
    h.act("filter", "focus").unwrap();
    h.act_seen("filter", "submit", &seen).unwrap();
    assert_eq!(
        h.app().keys,
        [
            ratatui::crossterm::event::KeyCode::Char('/'),
            ratatui::crossterm::event::KeyCode::Enter
        ]
    );
}
