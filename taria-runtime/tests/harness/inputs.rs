//! A notes app driven as an agent drives it: handlers, validation against the last
//! frame, keys and text, a key fallback, an input no route takes, the outline's golden
//! file, a resize.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::widgets::Paragraph;
use taria::testing::{ActError, AppHarness};
use taria::{Action, Query, Role, ScrollDirection, StateFlags, Value};
use taria_schema::protocol::{AckStatus, RejectReason};

#[derive(Default)]
struct Notes {
    items: Vec<String>,
    selected: usize,
    draft: String,
    locked: bool,
    scrolled: u32,
    keys: Vec<KeyEvent>,
}

#[taria::actions]
impl Notes {
    #[action(node = "draft", set_value)]
    fn set_draft(&mut self, value: String) {
        self.draft = value;
    }

    #[action(node = "add", activate)]
    fn add(&mut self) -> Result<(), String> {
        if self.draft.trim().is_empty() {
            return Err("write a note first".into());
        }
        self.items.push(std::mem::take(&mut self.draft));
        Ok(())
    }

    #[action(node = "notes", scroll)]
    fn scroll(&mut self, amount: u32) {
        self.scrolled += amount;
    }
}

impl Notes {
    fn on_event(&mut self, event: &Event) {
        let Event::Key(key) = *event else { return };
        self.keys.push(key);
        match key.code {
            KeyCode::Down => {
                self.selected = (self.selected + 1).min(self.items.len().saturating_sub(1));
            }
            KeyCode::Up => self.selected = self.selected.saturating_sub(1),
            KeyCode::Char('x')
                if key.modifiers == KeyModifiers::CONTROL && self.selected < self.items.len() =>
            {
                self.items.remove(self.selected);
                self.selected = self.selected.min(self.items.len().saturating_sub(1));
            }
            KeyCode::Char(c) => self.draft.push(c),
            KeyCode::Backspace => {
                self.draft.pop();
            }
            _ => {}
        }
    }
}

fn draw(frame: &mut ratatui::Frame<'_>, app: &mut Notes) {
    let list = taria::scope(|n| {
        n.role(Role::List)
            .id("notes")
            .label("Notes")
            .action(Action::Scroll);
    });
    for (i, note) in app.items.iter().enumerate() {
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .key(i)
                .label(note)
                .index(i)
                .selected(i == app.selected)
                .action(Action::Select)
                .custom_action("delete")
                .custom_key_fallback("delete", "ctrl+x");
        });
    }
    drop(list);
    taria::leaf(|n| {
        n.role(Role::TextInput)
            .id("draft")
            .label("New note")
            .value(app.draft.as_str())
            .max_len(20)
            .action(Action::SetValue);
    });
    taria::leaf(|n| {
        n.role(Role::Button)
            .id("add")
            .label("Add")
            .action(Action::Activate)
            .disabled(app.locked);
    });
    // Offers `activate`, but the app has no handler and no key for it.
    taria::leaf(|n| {
        n.role(Role::Button)
            .id("help")
            .label("Help")
            .action(Action::Activate);
    });
    let mut text = app
        .items
        .iter()
        .enumerate()
        .map(|(i, note)| format!("{} {note}", if i == app.selected { '>' } else { ' ' }))
        .collect::<Vec<_>>();
    text.push(format!("new: {}", app.draft));
    frame.render_widget(Paragraph::new(text.join("\n")), frame.area());
}

fn harness() -> AppHarness<Notes> {
    AppHarness::new(Notes::default(), 30, 6, draw).on_event(|app, event| app.on_event(&event))
}

#[test]
fn handlers_run_and_the_next_frame_shows_their_effect() {
    let mut h = harness();
    h.set_value("draft", "buy milk").unwrap();
    assert_eq!(h.node("draft").value, Some(Value::Text("buy milk".into())));
    h.act("add", "activate").unwrap();
    assert_eq!(h.node("notes/0").label.as_deref(), Some("buy milk"));
    assert_eq!(h.screen(), "> buy milk\nnew:");
    h.scroll("notes", ScrollDirection::Down, 3).unwrap();
    assert_eq!(h.app().scrolled, 3);
}

#[test]
fn a_handler_refusal_comes_back_as_an_error_with_its_reason() {
    let mut h = harness();
    let error = h.act("add", "activate").unwrap_err();
    assert_eq!(error.status, AckStatus::Rejected);
    assert_eq!(error.reason, RejectReason::HandlerRejected);
    assert_eq!(error.message, "write a note first");
    assert_eq!(error.to_string(), "rejected: write a note first");
}

#[test]
fn inputs_are_validated_against_the_last_frame_like_an_agents() {
    let mut h = harness();
    let unknown = h.act("nope", "activate").unwrap_err();
    assert_eq!(unknown.reason, RejectReason::UnknownNode);
    assert!(unknown.message.contains("read the tree again"), "{unknown}");

    let not_offered = h.act("add", "toggle").unwrap_err();
    assert_eq!(not_offered.reason, RejectReason::ActionNotOffered);
    assert_eq!(
        not_offered.message,
        "`add` does not offer `toggle`; it offers: activate"
    );

    let too_long = h
        .set_value("draft", "a note longer than twenty")
        .unwrap_err();
    assert_eq!(too_long.reason, RejectReason::OutOfDomain);
    let wrong_type = h.set_value("draft", 3).unwrap_err();
    assert_eq!(wrong_type.reason, RejectReason::OutOfDomain);
    assert_eq!(h.app().draft, "", "nothing reached the app");

    h.app_mut().locked = true;
    h.render();
    let disabled = h.act("add", "activate").unwrap_err();
    assert_eq!(disabled.reason, RejectReason::Disabled);

    let bad_key = h.press("ctrl+").unwrap_err();
    assert_eq!(bad_key.reason, RejectReason::InvalidInput);
}

#[test]
fn keys_and_text_reach_the_event_handler() {
    let mut h = harness();
    // No text input has focus: the keys go raw to the app, which types them.
    h.type_text_raw("Hi").unwrap();
    assert_eq!(h.app().draft, "Hi");
    let shift = h.app().keys[0];
    assert_eq!(
        (shift.code, shift.modifiers),
        (KeyCode::Char('H'), KeyModifiers::SHIFT)
    );
    h.press("backspace").unwrap();
    assert_eq!(h.node("draft").value, Some(Value::Text("H".into())));
    assert_eq!(h.screen_text()[0].trim_end(), "new: H");
}

#[test]
fn an_action_without_a_handler_is_pressed_through_its_key_fallback_after_selecting() {
    let mut h = harness();
    h.app_mut().items = vec!["one".into(), "two".into(), "three".into()];
    h.render();
    // `notes/2` is not selected: the harness presses ↓ ↓ to reach it, then ctrl+x.
    h.act("notes/2", "delete").unwrap();
    assert_eq!(h.app().items, ["one", "two"]);
    let codes: Vec<KeyCode> = h.app().keys.iter().map(|k| k.code).collect();
    assert_eq!(codes, [KeyCode::Down, KeyCode::Down, KeyCode::Char('x')]);
    let labels: Vec<String> = h
        .find_all(&Query::new().role(Role::ListItem))
        .into_iter()
        .filter_map(|n| n.label)
        .collect();
    assert_eq!(labels, ["one", "two"]);
    assert_eq!(
        h.find(&Query::new().state(StateFlags::SELECTED))
            .and_then(|n| n.label),
        Some("two".into())
    );
}

#[test]
fn an_action_with_no_route_is_ignored_and_says_why() {
    let mut h = harness();
    let error: ActError = h.act("help", "activate").unwrap_err();
    assert_eq!(error.status, AckStatus::Ignored);
    assert_eq!(error.reason, RejectReason::NoRoute);
    assert!(
        error
            .message
            .starts_with("nothing in the app takes `activate` on `help`"),
        "{error}"
    );
    assert!(h.app().keys.is_empty());
}

#[test]
fn without_an_event_handler_keys_are_ignored_with_a_reason() {
    let mut h = AppHarness::new(Notes::default(), 30, 6, draw);
    let error = h.press("a").unwrap_err();
    assert_eq!(error.status, AckStatus::Ignored);
    assert!(error.message.contains("does not read events"), "{error}");
}

#[test]
fn the_outline_snapshot_matches_its_golden_file() {
    let mut h = harness();
    h.app_mut().items = vec!["buy milk".into()];
    h.render();
    h.assert_snapshot("tests/snapshots/notes.outline");
}

#[test]
fn resizing_redraws_at_the_new_size() {
    let mut h = harness();
    h.resize(12, 2);
    assert_eq!(h.screen_text(), ["new:        ", "            "]);
}
