//! `taria::testing::AppHarness`: an app driven headless through the same validation
//! and routing an agent's inputs take — handlers first, then key fallbacks into the
//! app's event handler — with the screen and tree showing each input's effect.

use ratatui::crossterm::event::{Event, KeyCode, KeyEvent, KeyModifiers};
use ratatui::widgets::Paragraph;
use taria::testing::{ActError, AppHarness};
use taria::wire::protocol::{AckStatus, RejectReason};
use taria::{Action, Query, Role, ScrollDirection, StateFlags, Value};

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

/// A counter whose total, drawn first, sums a spin button that takes `increment`
/// itself while it renders (as a stateful widget does).
#[derive(Default)]
struct Total {
    count: u32,
}

impl taria::Actions for Total {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

fn draw_total(frame: &mut ratatui::Frame<'_>, app: &mut Total) {
    let total = format!("Total: {}", app.count);
    taria::leaf(|n| {
        n.role(Role::Status).id("total").label(&total);
    });
    frame.render_widget(Paragraph::new(total.as_str()), frame.area());
    let count = &mut app.count;
    taria::widget::take_widget_actions("count", |action| {
        if action.is(taria::Action::Increment) {
            *count += 1;
            taria::Outcome::Handled
        } else {
            taria::Outcome::NotHandled
        }
    });
    taria::leaf(|n| {
        n.role(Role::SpinButton)
            .id("count")
            .value(*count)
            .action(Action::Increment);
    });
}

#[test]
fn after_a_widget_takes_an_input_the_app_draws_again_and_shows_its_reaction() {
    let mut h = AppHarness::new(Total::default(), 20, 1, draw_total);
    h.act("count", "increment").unwrap();
    assert_eq!(h.node("count").value, Some(Value::Number(1.0)));
    // The total was drawn before the widget took the input: only the frame after
    // shows it right, and that is the one the harness (like an agent) gets.
    assert_eq!(h.node("total").label.as_deref(), Some("Total: 1"));
    assert_eq!(h.screen(), "Total: 1");
}

/// Fields keyed by their labels: ids with a space inside (`form/First Name`).
#[derive(Default)]
struct Named {
    first: String,
    other: String,
}

#[taria::actions]
impl Named {
    // Issue 14: a pattern names an id made from a key with a space, as it is.
    #[action(node = "form/First Name", set_value)]
    fn set_first(&mut self, value: String) {
        self.first = value;
    }

    #[action(node = "form/*", set_value)]
    fn set_other(&mut self, value: String) {
        self.other = value;
    }
}

fn draw_named(frame: &mut ratatui::Frame<'_>, app: &mut Named) {
    frame.render_widget(Paragraph::new(app.first.as_str()), frame.area());
    let _form = taria::scope(|n| {
        n.role(Role::Form).id("form");
    });
    for (label, value) in [("First Name", &app.first), ("Last Name", &app.other)] {
        taria::leaf(|n| {
            n.role(Role::TextInput)
                .key(label)
                .label(label)
                .value(value.as_str())
                .action(Action::SetValue);
        });
    }
}

#[test]
fn a_handler_pattern_names_an_id_with_a_space_inside() {
    let mut h = AppHarness::new(Named::default(), 20, 2, draw_named);
    h.set_value("form/First Name", "Ada").unwrap();
    h.set_value("form/Last Name", "Lovelace").unwrap();
    assert_eq!(
        (h.app().first.as_str(), h.app().other.as_str()),
        ("Ada", "Lovelace")
    );
    assert_eq!(
        h.node("form/First Name").value,
        Some(Value::Text("Ada".into()))
    );
}

/// A todo list as ratatui's examples write one, with key fallbacks only: nothing is
/// selected at first, ↓ is `ListState::select_next` (from nothing: the first item),
/// space toggles the selected item. `step` is how far ↓ moves (0: an app whose ↓
/// does nothing; 2: one that skips items); `select_handler` and `widget` give it a
/// `select` handler, or make the list a widget that takes `select` itself.
struct Todos {
    done: Vec<bool>,
    selected: Option<usize>,
    step: usize,
    select_handler: bool,
    widget: bool,
    keys: Vec<KeyCode>,
}

impl Todos {
    fn new(items: usize) -> Todos {
        Todos {
            done: vec![false; items],
            selected: None,
            step: 1,
            select_handler: false,
            widget: false,
            keys: Vec::new(),
        }
    }

    fn on_event(&mut self, event: &Event) {
        let Event::Key(key) = *event else { return };
        self.keys.push(key.code);
        match key.code {
            KeyCode::Down if self.step > 0 => {
                let last = self.done.len() - 1;
                self.selected = Some(self.selected.map_or(0, |i| (i + self.step).min(last)));
            }
            KeyCode::Char(' ') => {
                if let Some(i) = self.selected {
                    self.done[i] = !self.done[i];
                }
            }
            _ => {}
        }
    }

    fn done(&self) -> Vec<usize> {
        (0..self.done.len()).filter(|&i| self.done[i]).collect()
    }
}

impl taria::Actions for Todos {
    fn handle_action(&mut self, inv: &taria::Invocation<'_>) -> taria::Outcome {
        if self.select_handler
            && inv.is(Action::Select)
            && let Some(key) = inv.matches("todos/*").and_then(|k| k.parse().ok())
        {
            self.selected = Some(key);
            return taria::Outcome::Handled;
        }
        taria::Outcome::NotHandled
    }
}

fn draw_todos(frame: &mut ratatui::Frame<'_>, app: &mut Todos) {
    if app.widget {
        let selected = &mut app.selected;
        taria::widget::take_widget_actions("todos", |inv| match inv.index() {
            Some(i) if inv.is(Action::Select) => {
                *selected = Some(i as usize);
                taria::Outcome::Handled
            }
            _ => taria::Outcome::NotHandled,
        });
    }
    let list = taria::scope(|n| {
        n.role(Role::List).id("todos").label("Todos");
    });
    let count = app.done.len();
    for (i, done) in app.done.iter().enumerate() {
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .key(i)
                .label(("Task ", i))
                .index(i)
                .count(count)
                .checked(*done)
                .selected(app.selected == Some(i))
                .actions([Action::Select, Action::Toggle])
                .key_fallback(Action::Toggle, "space");
        });
    }
    drop(list);
    let text: Vec<String> = app
        .done
        .iter()
        .enumerate()
        .map(|(i, done)| {
            let cursor = if app.selected == Some(i) { '>' } else { ' ' };
            format!("{cursor} [{}] Task {i}", if *done { 'x' } else { ' ' })
        })
        .collect();
    frame.render_widget(Paragraph::new(text.join("\n")), frame.area());
}

fn todos(app: Todos) -> AppHarness<Todos> {
    AppHarness::new(app, 20, 6, draw_todos).on_event(|app, event| app.on_event(&event))
}

#[test]
fn a_key_fallback_from_nothing_selected_presses_down_to_the_item_then_its_key() {
    let mut h = todos(Todos::new(4));
    h.act("todos/2", "toggle").unwrap();
    assert_eq!(h.app().done(), [2], "the third item, only");
    assert_eq!(
        h.app().keys,
        [
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Down,
            KeyCode::Char(' ')
        ],
        "the first ↓ selects the first item, as a person's does"
    );
    let item = h.node("todos/2");
    assert!(item.state.selected && item.state.checked == Some(taria::Checked::True));
    assert_eq!(h.screen_text()[2].trim_end(), "> [x] Task 2");

    // `select` by keys from nothing selected too.
    let mut h = todos(Todos::new(4));
    h.act("todos/1", "select").unwrap();
    assert_eq!(h.app().selected, Some(1));
    assert_eq!(h.app().keys, [KeyCode::Down, KeyCode::Down]);
}

#[test]
fn a_key_fallback_whose_keys_do_not_reach_the_item_is_refused_and_nothing_is_toggled() {
    let mut h = todos(Todos {
        step: 0,
        ..Todos::new(4)
    });
    let error = h.act("todos/2", "toggle").unwrap_err();
    assert_eq!(error.status, AckStatus::Ignored);
    assert_eq!(
        error.message,
        "`toggle` on `todos/2` was not performed, but keys were pressed: `down` 3 times from \
         nothing selected; after them, nothing in `todos` is shown as selected (the app's keys \
         do not move its selection that way), and they changed nothing in the tree; the app \
         can add #[action(node = \"todos/2\", toggle)], or a `select` handler for it"
    );
    assert!(h.app().done().is_empty(), "nothing toggled");
    assert_eq!(h.app().keys, [KeyCode::Down; 3], "space was never pressed");
}

#[test]
fn a_key_fallback_from_a_selected_sibling_is_checked_before_its_key_too() {
    // ↓ skips an item: from `todos/0`, two presses land on `todos/4`, not `todos/2`.
    let mut h = todos(Todos {
        step: 2,
        selected: Some(0),
        ..Todos::new(6)
    });
    let error = h.act("todos/2", "toggle").unwrap_err();
    assert!(
        error.message.starts_with(
            "`toggle` on `todos/2` was not performed, but keys were pressed: `down` 2 times; \
             after them, `todos/4` is selected, not `todos/2` (the app's keys do not move its \
             selection that way), and they changed: `todos/0`, `todos/4`;"
        ),
        "{error}"
    );
    assert!(h.app().done().is_empty(), "the wrong item was not toggled");
    // The agent can go on from the tree it is told about.
    h.act("todos/4", "toggle").unwrap();
    assert_eq!(h.app().done(), [4]);
}

#[test]
fn a_select_handler_selects_the_item_before_its_key_fallback() {
    let mut h = todos(Todos {
        select_handler: true,
        ..Todos::new(4)
    });
    h.act("todos/2", "toggle").unwrap();
    assert_eq!(h.app().done(), [2]);
    assert_eq!(h.app().keys, [KeyCode::Char(' ')], "no navigation keys");
}

#[test]
fn a_widget_that_takes_select_selects_the_item_before_its_key_fallback() {
    // ↓ 551 times would be refused (more than 512 key presses); the widget
    // selects the item in one frame instead.
    let mut h = todos(Todos {
        widget: true,
        ..Todos::new(600)
    });
    h.act("todos/550", "toggle").unwrap();
    assert_eq!(h.app().done(), [550]);
    assert_eq!(h.app().keys, [KeyCode::Char(' ')], "no navigation keys");
}

/// A form whose fields share one pattern but take different value types.
#[derive(Default)]
struct Profile {
    name: String,
    age: Option<u8>,
}

#[taria::actions]
impl Profile {
    // Issue 14: the `String` handler first no longer hides the `u8` one (it refuses
    // numbers, so the next handler is tried).
    #[action(node = "profile/*", set_value)]
    fn set_text(&mut self, value: String) {
        self.name = value;
    }

    #[action(node = "profile/Age", set_value)]
    fn set_age(&mut self, value: u8) {
        self.age = Some(value);
    }
}

fn draw_profile(frame: &mut ratatui::Frame<'_>, app: &mut Profile) {
    frame.render_widget(Paragraph::new(app.name.as_str()), frame.area());
    let _form = taria::scope(|n| {
        n.role(Role::Form).id("profile");
    });
    taria::leaf(|n| {
        n.role(Role::TextInput)
            .key("Name")
            .value(app.name.as_str())
            .action(Action::SetValue);
    });
    taria::leaf(|n| {
        n.role(Role::SpinButton)
            .key("Age")
            .value(app.age.unwrap_or(0))
            .min(0)
            .max(1000)
            .action(Action::SetValue);
    });
}

#[test]
fn dispatch_picks_the_handler_whose_value_type_fits() {
    let mut h = AppHarness::new(Profile::default(), 20, 2, draw_profile);
    h.set_value("profile/Age", 36).unwrap();
    h.set_value("profile/Name", "Ada").unwrap();
    assert_eq!((h.app().name.as_str(), h.app().age), ("Ada", Some(36)));
    // In the node's range (0..=1000), but no handler takes it: each one is named.
    let error = h.set_value("profile/Age", 300).unwrap_err();
    assert_eq!(error.reason, RejectReason::HandlerRejected);
    assert_eq!(
        error.message,
        "no handler takes `set_value` on `profile/Age`: `set_text(value: String)` (for \
         profile/*): expected text, got 300; `set_age(value: u8)` (for profile/Age): \
         expected a whole number in 0..=255, got 300"
    );
    assert_eq!(h.app().age, Some(36));
}

/// Entries keyed by names that hold `/` and `%`.
#[derive(Default)]
struct Paths {
    names: Vec<&'static str>,
    opened: Vec<String>,
}

#[taria::actions]
impl Paths {
    #[action(node = "paths/*", activate)]
    fn open(&mut self, key: String) {
        self.opened.push(key);
    }

    // A pattern names a keyed id as the tree shows it: escaped.
    #[action(node = "paths/a%2Fb", toggle)]
    fn toggle_ab(&mut self) {
        self.opened.push("toggled a/b".into());
    }

    #[action(node = "tree/**", activate)]
    fn open_nested(&mut self, key: &str) {
        self.opened.push(format!("nested {key}"));
    }
}

fn draw_paths(frame: &mut ratatui::Frame<'_>, app: &mut Paths) {
    frame.render_widget(Paragraph::new("paths"), frame.area());
    let list = taria::scope(|n| {
        n.role(Role::List).id("paths");
    });
    for name in &app.names {
        taria::leaf(|n| {
            n.role(Role::ListItem)
                .key(*name)
                .label(*name)
                .actions([Action::Activate, Action::Toggle]);
        });
    }
    drop(list);
    let _tree = taria::scope(|n| {
        n.role(Role::Tree).id("tree");
    });
    let _folder = taria::scope(|n| {
        n.role(Role::TreeItem).key("src");
    });
    taria::leaf(|n| {
        n.role(Role::TreeItem).key("a/b").action(Action::Activate);
    });
}

#[test]
fn a_key_with_a_slash_is_one_escaped_segment_and_the_handler_gets_it_back() {
    let mut h = AppHarness::new(
        Paths {
            names: vec!["a/b", "50%", "First Name"],
            ..Paths::default()
        },
        20,
        2,
        draw_paths,
    );
    let tree = h.tree();
    let ids: Vec<&str> = tree
        .get("paths")
        .unwrap()
        .children
        .iter()
        .map(|c| c.id.as_str())
        .collect();
    assert_eq!(ids, ["paths/a%2Fb", "paths/50%25", "paths/First Name"]);
    assert!(tree.get("paths/a/b").is_none() && tree.get("paths/a").is_none());
    assert!(tree.get("paths/a%2Fb").unwrap().stable);
    h.act("paths/a%2Fb", "activate").unwrap();
    h.act("paths/50%25", "activate").unwrap();
    h.act("paths/First Name", "activate").unwrap();
    h.act("paths/a%2Fb", "toggle").unwrap();
    // `**` stands for segments: the `/` between them stays, an escaped one comes back.
    h.act("tree/src/a%2Fb", "activate").unwrap();
    assert_eq!(
        h.app().opened,
        ["a/b", "50%", "First Name", "toggled a/b", "nested src/a/b"]
    );
    assert_eq!(taria::builder::escape_key("a/b"), "a%2Fb");
}
