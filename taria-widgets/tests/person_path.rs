//! An agent's action that a widget takes leaves the app as a person's keys would.
//!
//! A table and scrollbar app in the style of ratatui's table example: its own key
//! handler (`next_row`) moves the table's selection and the scrollbar's position
//! together; an agent's `select` and `scroll` reach the table's state directly, so
//! the scrollbar follows only through the one documented line (derive it where you
//! draw, after the table), or `taria::agent_changed` after the draw. And a list
//! that starts with nothing selected takes an agent's `select` before the key of an
//! action it does not take itself.

#![expect(clippy::unwrap_used, reason = "tests")]

use ratatui::Frame;
use ratatui::crossterm::event::{Event, KeyCode};
use ratatui::layout::{Constraint, Margin};
use taria::testing::AppHarness;
use taria::{Actions, Invocation, Outcome, Query, Role, ScrollDirection};
use taria_widgets::{
    List, ListState, Row, Scrollbar, ScrollbarOrientation, ScrollbarState, Table, TableState,
};

/// As in ratatui's table example: how far the scrollbar moves per row.
const ITEM_HEIGHT: usize = 1;

/// Where the app keeps its scrollbar in step with the table.
#[derive(Clone, Copy, PartialEq)]
enum Sync {
    /// Only in `next_row`/`previous_row`, as ratatui's example does.
    KeysOnly,
    /// Also where it draws, after the table: the one documented line.
    InDraw,
    /// Also after the draw, when `taria::agent_changed("people")`.
    AgentChanged,
}

struct People {
    state: TableState,
    scroll_state: ScrollbarState,
    items: Vec<[String; 2]>,
    sync: Sync,
    /// `agent_changed` for `people` and `other`, after each draw.
    changed: Vec<(bool, bool)>,
}

impl People {
    fn new(sync: Sync) -> People {
        let items: Vec<[String; 2]> = (0..50)
            .map(|i| [format!("Person {i}"), format!("{i}@example.com")])
            .collect();
        People {
            state: TableState::default().with_selected(0),
            scroll_state: ScrollbarState::new((items.len() - 1) * ITEM_HEIGHT),
            items,
            sync,
            changed: Vec::new(),
        }
    }

    /// ratatui's table example, as it is.
    fn next_row(&mut self) {
        let i = match self.state.selected() {
            Some(i) if i >= self.items.len() - 1 => 0,
            Some(i) => i + 1,
            None => 0,
        };
        self.state.select(Some(i));
        self.scroll_state = self.scroll_state.position(i * ITEM_HEIGHT);
    }

    fn previous_row(&mut self) {
        let i = match self.state.selected() {
            Some(0) => self.items.len() - 1,
            Some(i) => i - 1,
            None => 0,
        };
        self.state.select(Some(i));
        self.scroll_state = self.scroll_state.position(i * ITEM_HEIGHT);
    }

    fn on_event(&mut self, event: &Event) {
        if let Event::Key(key) = event {
            match key.code {
                KeyCode::Down | KeyCode::Char('j') => self.next_row(),
                KeyCode::Up | KeyCode::Char('k') => self.previous_row(),
                _ => {}
            }
        }
    }

    fn draw(&mut self, frame: &mut Frame<'_>) {
        let area = frame.area();
        let rows = self
            .items
            .iter()
            .map(|[name, email]| Row::new([name.as_str(), email.as_str()]));
        let table = Table::new(rows, [Constraint::Length(10), Constraint::Min(10)])
            .header(Row::new(["Name", "Email"]))
            .highlight_symbol(">")
            .id("people");
        frame.render_stateful_widget(table, area, &mut self.state);
        if self.sync == Sync::InDraw {
            self.scroll_state = self
                .scroll_state
                .position(self.state.selected().unwrap_or(0) * ITEM_HEIGHT);
        }
        frame.render_stateful_widget(
            Scrollbar::new(ScrollbarOrientation::VerticalRight)
                .begin_symbol(None)
                .end_symbol(None),
            area.inner(Margin {
                vertical: 1,
                horizontal: 1,
            }),
            &mut self.scroll_state,
        );
    }
}

impl Actions for People {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

fn people(sync: Sync) -> AppHarness<People> {
    AppHarness::new(People::new(sync), 40, 14, |frame, app: &mut People| {
        app.draw(frame);
        // What an app's loop does after `terminal.draw(…)`.
        if app.sync == Sync::AgentChanged && taria::agent_changed("people") {
            app.scroll_state = app
                .scroll_state
                .position(app.state.selected().unwrap_or(0) * ITEM_HEIGHT);
        }
    })
    .on_event(|app, event| app.on_event(&event))
}

/// The scrollbar node's position.
fn scrollbar(h: &AppHarness<People>) -> usize {
    let bar = h.find(&Query::new().role(Role::Scrollbar)).unwrap();
    bar.scroll.unwrap().offset as usize
}

/// The screen row of the scrollbar's thumb (its column is the screen's last but one).
fn thumb(h: &AppHarness<People>) -> usize {
    h.screen_text()
        .iter()
        .position(|row| row.chars().rev().nth(1) == Some('█'))
        .unwrap()
}

fn in_sync_after_agent_select_and_scroll(sync: Sync) {
    let mut agent = people(sync);
    let mut person = people(sync);
    let top = thumb(&agent);

    agent.act("people/8", "select").unwrap();
    for _ in 0..8 {
        person.press("down").unwrap();
    }
    assert_eq!(agent.app().state.selected(), Some(8));
    assert_eq!(
        scrollbar(&agent),
        8 * ITEM_HEIGHT,
        "the tree's scrollbar follows the table"
    );
    assert_eq!(agent.screen(), person.screen(), "the screen is a person's");
    assert!(thumb(&agent) > top, "the thumb moved");

    agent.scroll("people", ScrollDirection::Down, 30).unwrap();
    for _ in 0..30 {
        person.press("down").unwrap();
    }
    assert_eq!(agent.app().state.selected(), Some(38));
    assert_eq!(scrollbar(&agent), 38 * ITEM_HEIGHT);
    assert_eq!(agent.screen(), person.screen());

    // Another row on screen, then on by `scroll`.
    agent.act("people/30", "select").unwrap();
    agent.scroll("people", ScrollDirection::Down, 10).unwrap();
    for _ in 0..2 {
        person.press("down").unwrap();
    }
    assert_eq!(agent.app().state.selected(), Some(40));
    assert_eq!(scrollbar(&agent), 40 * ITEM_HEIGHT);
    assert_eq!(agent.screen(), person.screen());
    assert_eq!(agent.app().scroll_state, person.app().scroll_state);
}

#[test]
fn a_scrollbar_derived_where_the_app_draws_follows_an_agents_select_and_scroll() {
    in_sync_after_agent_select_and_scroll(Sync::InDraw);
}

/// The control: without the line, the scrollbar the key handler keeps stays where it
/// was after an agent's select (what issue 14 found), so the tests above can fail.
#[test]
fn a_scrollbar_synced_only_in_the_key_handler_stays_behind_an_agents_select() {
    let mut agent = people(Sync::KeysOnly);
    agent.act("people/8", "select").unwrap();
    assert_eq!(agent.app().state.selected(), Some(8));
    assert_eq!(scrollbar(&agent), 0, "the key handler never ran");
}

#[test]
fn a_scrollbar_synced_on_agent_changed_follows_an_agents_select_and_scroll() {
    in_sync_after_agent_select_and_scroll(Sync::AgentChanged);
}

#[test]
fn agent_changed_says_which_widget_took_an_agents_action_until_the_next_frame() {
    let mut h = AppHarness::new(
        People::new(Sync::KeysOnly),
        40,
        14,
        |frame, app: &mut People| {
            app.draw(frame);
            app.changed.push((
                taria::agent_changed("people"),
                taria::agent_changed("other"),
            ));
        },
    )
    .on_event(|app, event| app.on_event(&event));
    h.press("down").unwrap();
    assert!(
        h.app().changed.iter().all(|&(people, _)| !people),
        "a person's key is the app's own input"
    );
    h.app_mut().changed.clear();
    h.act("people/3", "select").unwrap();
    // Taken while the first frame was drawn, then the frame after it.
    assert_eq!(h.app().changed, [(true, false), (false, false)]);
    assert!(!taria::agent_changed("people"), "a frame began since");
}

/// A list that starts with nothing selected, as ratatui's do; enter opens the
/// selected item (its key fallback for `activate`, which the widget does not take).
#[derive(Default)]
struct Tasks {
    state: ListState,
    opened: Vec<usize>,
    keys: Vec<KeyCode>,
}

impl Actions for Tasks {
    fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
        Outcome::NotHandled
    }
}

#[test]
fn a_list_from_nothing_selected_takes_select_before_an_actions_key() {
    let draw = |frame: &mut Frame<'_>, app: &mut Tasks| {
        let list = List::new((0..40).map(|i| format!("Task {i}")))
            .id("tasks")
            .activate_key("enter");
        frame.render_stateful_widget(list, frame.area(), &mut app.state);
    };
    let mut h = AppHarness::new(Tasks::default(), 20, 10, draw).on_event(|app, event| {
        if let Event::Key(key) = event {
            app.keys.push(key.code);
            if key.code == KeyCode::Enter {
                app.opened.extend(app.state.selected());
            }
        }
    });
    h.act("tasks/Task 6", "activate").unwrap();
    assert_eq!(h.app().opened, [6]);
    assert_eq!(
        h.app().keys,
        [KeyCode::Enter],
        "no navigation keys: the list selected it"
    );
    assert!(h.node("tasks/Task 6").state.selected);
}
