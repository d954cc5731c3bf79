//! Key fallbacks that move the selection first: from nothing selected, from a
//! selected sibling, by the app's `select` handler or the widget; refused, with
//! nothing toggled, when the keys do not reach the item.

use ratatui::crossterm::event::{Event, KeyCode};
use ratatui::widgets::Paragraph;
use taria::testing::AppHarness;
use taria::{Action, Role};
use taria_schema::protocol::{AckStatus, RejectReason};

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

/// A hand-made list of 10 rows drawn 4 at a time (the view follows the selection, as
/// ratatui's does), each row `index` of `count`; it declares `scroll` and handles no
/// action: ↓ and ↑ move its selection.
struct Window {
    selected: usize,
    offset: usize,
    keys: Vec<KeyCode>,
}

impl taria::Actions for Window {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

fn window() -> AppHarness<Window> {
    let app = Window {
        selected: 0,
        offset: 0,
        keys: Vec::new(),
    };
    let draw = |frame: &mut ratatui::Frame<'_>, app: &mut Window| {
        if app.selected < app.offset {
            app.offset = app.selected;
        }
        if app.selected >= app.offset + 4 {
            app.offset = app.selected - 3;
        }
        let _rows = taria::scope(|n| {
            n.role(Role::List).id("rows").action(Action::Scroll);
        });
        let mut text = Vec::new();
        for (line, i) in (app.offset..app.offset + 4).enumerate() {
            taria::leaf(|n| {
                n.role(Role::ListItem)
                    .key(i)
                    .label(("row ", i))
                    .index(i)
                    .count(10)
                    .selected(i == app.selected)
                    .bounds(ratatui::layout::Rect::new(0, line as u16, 20, 1));
            });
            text.push(format!("row {i}"));
        }
        frame.render_widget(Paragraph::new(text.join("\n")), frame.area());
    };
    AppHarness::new(app, 20, 4, draw).on_event(|app: &mut Window, event| {
        let Event::Key(key) = event else { return };
        app.keys.push(key.code);
        match key.code {
            KeyCode::Down => app.selected = (app.selected + 1).min(9),
            KeyCode::Up => app.selected = app.selected.saturating_sub(1),
            _ => {}
        }
    })
}

/// Found on a tree app at 60×12: its hand-made rows offered no `scroll`, so the rows
/// below the view could not be reached. A `scroll` a hand-made list declares is its
/// arrow keys, once per row, stopping at its first and last row.
#[test]
fn a_hand_made_list_s_scroll_moves_its_selection_by_its_keys_within_its_rows() {
    use taria::ScrollDirection::{Down, Left, Up};
    let mut h = window();
    assert!(h.tree().get("rows/7").is_none(), "below the view");
    h.scroll("rows", Down, 7).unwrap();
    assert_eq!(h.app().keys, vec![KeyCode::Down; 7]);
    assert!(h.node("rows/7").state.selected, "{}", h.tree().outline());
    h.scroll("rows", Down, 100).unwrap();
    assert_eq!(h.app().selected, 9);
    assert_eq!(h.app().keys.len(), 9, "clamped at the last row");
    // Refused on its state, as a value out of its domain: the scroll is performed, not
    // from the last row.
    let error = h.scroll("rows", Down, 1).unwrap_err();
    assert_eq!(
        (error.status, error.reason),
        (AckStatus::Rejected, RejectReason::OutOfDomain),
        "{error}"
    );
    assert!(
        error
            .message
            .contains("its last item (9) is selected already"),
        "{error}"
    );
    h.scroll("rows", Up, 2).unwrap();
    assert_eq!(h.app().selected, 7);
    let error = h.scroll("rows", Left, 1).unwrap_err();
    assert!(
        error.message.contains("scrolls up and down only"),
        "{error}"
    );
    assert_eq!(h.app().keys.len(), 11, "nothing pressed for a refusal");
}

/// A log that scrolls with `j` and `k`, and declares `j` as its `scroll` key.
struct Pager {
    top: usize,
    keys: Vec<KeyCode>,
}

impl taria::Actions for Pager {
    fn handle_action(&mut self, _: &taria::Invocation<'_>) -> taria::Outcome {
        taria::Outcome::NotHandled
    }
}

/// A declared `scroll` key was pressed once, whatever the direction and amount the
/// agent asked for: `scroll up 5` pressed the key that scrolls down, once. It goes
/// once per line, and its opposite the other way.
#[test]
fn a_declared_scroll_key_goes_its_way_by_the_amount_and_its_opposite_back() {
    use taria::ScrollDirection::{Down, Left, Up};
    let app = Pager {
        top: 0,
        keys: Vec::new(),
    };
    let draw = |frame: &mut ratatui::Frame<'_>, app: &mut Pager| {
        let text = format!("line {}", app.top);
        taria::leaf(|n| {
            n.role(Role::Log)
                .id("log")
                .value(text.as_str())
                .action(Action::Scroll)
                .key_fallback(Action::Scroll, "j")
                .bounds(frame.area());
        });
        frame.render_widget(Paragraph::new(text.as_str()), frame.area());
    };
    let mut h = AppHarness::new(app, 20, 1, draw).on_event(|app: &mut Pager, event| {
        let Event::Key(key) = event else { return };
        app.keys.push(key.code);
        match key.code {
            KeyCode::Char('j') => app.top += 1,
            KeyCode::Char('k') => app.top = app.top.saturating_sub(1),
            _ => {}
        }
    });
    h.scroll("log", Down, 3).unwrap();
    assert_eq!(h.app().keys, vec![KeyCode::Char('j'); 3]);
    h.scroll("log", Up, 2).unwrap();
    assert_eq!(h.app().top, 1);
    assert_eq!(&h.app().keys[3..], [KeyCode::Char('k'); 2]);
    let error = h.scroll("log", Left, 1).unwrap_err();
    assert_eq!(error.reason, RejectReason::OutOfDomain, "{error}");
    assert!(
        error.message.contains("scrolls up and down only"),
        "{error}"
    );
    assert_eq!(h.app().keys.len(), 5, "nothing pressed for a refusal");
}
