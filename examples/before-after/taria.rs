//! The same todo app as `plain.rs`, made agent-drivable with taria: the "after".
//!
//! Run it with `cargo run --example before-after`. An agent can read the list, toggle
//! tasks and add one: the key fallbacks (`toggle = key("space")`, …) route its actions
//! through the app's own key handling, so the app needs no handler code. The whole
//! change from `plain.rs` is explained in `docs/integration-guide.md`.

use std::io;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::widgets::{Block, List, ListItem, ListState, Paragraph};
use ratatui::{DefaultTerminal, Frame};
use taria::{Action, Role};

fn main() -> io::Result<()> {
    let mut terminal = ratatui::init();
    let result = App::new().run(&mut terminal);
    ratatui::restore();
    result
}

struct App {
    tasks: Vec<(String, bool)>,
    list: ListState,
    draft: String,
    editing: bool,
    exit: bool,
}

#[taria::app(label = "before-after")]
impl App {
    fn new() -> App {
        let tasks = vec![
            ("Buy milk".to_owned(), false),
            ("Write docs".to_owned(), false),
        ];
        App {
            tasks,
            list: ListState::default().with_selected(Some(0)),
            draft: String::new(),
            editing: false,
            exit: false,
        }
    }

    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.exit {
            terminal.draw(|frame| self.draw(frame))?;
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                self.on_key(key.code);
            }
        }
        Ok(())
    }

    fn on_key(&mut self, code: KeyCode) {
        if self.editing {
            match code {
                KeyCode::Enter if !self.draft.trim().is_empty() => {
                    self.tasks.push((std::mem::take(&mut self.draft), false));
                    self.editing = false;
                }
                KeyCode::Esc => self.editing = false,
                KeyCode::Backspace => drop(self.draft.pop()),
                KeyCode::Char(c) => self.draft.push(c),
                _ => {}
            }
            return;
        }
        match code {
            KeyCode::Char('q') => self.exit = true,
            KeyCode::Down | KeyCode::Char('j') => self.list.select_next(),
            KeyCode::Up | KeyCode::Char('k') => self.list.select_previous(),
            KeyCode::Char(' ') => {
                if let Some(task) = self.list.selected().and_then(|i| self.tasks.get_mut(i)) {
                    task.1 = !task.1;
                }
            }
            KeyCode::Char('a') => self.editing = true,
            _ => {}
        }
    }

    fn draw(&mut self, frame: &mut Frame<'_>) {
        let [list, input] =
            Layout::vertical([Constraint::Min(3), Constraint::Length(3)]).areas(frame.area());
        draw_tasks(frame, list, &self.tasks, &mut self.list);
        draw_input(frame, input, &self.draft, self.editing);
    }
}

#[taria::widget(role = list, id = "tasks", label = "Tasks")]
fn draw_tasks(frame: &mut Frame<'_>, area: Rect, tasks: &[(String, bool)], state: &mut ListState) {
    let items = tasks
        .iter()
        .map(|(title, done)| ListItem::new(format!("[{}] {title}", if *done { "x" } else { " " })));
    let list = List::new(items)
        .block(Block::bordered().title("Tasks"))
        .highlight_symbol("> ");
    frame.render_stateful_widget(list, area, state);
    let rows = Block::bordered().inner(area).rows();
    for ((i, (title, done)), row) in tasks.iter().enumerate().skip(state.offset()).zip(rows) {
        taria::leaf(|n| {
            let selected = state.selected() == Some(i);
            n.role(Role::ListItem)
                .label(title)
                .checked(*done)
                .bounds(row);
            n.index(i).count(tasks.len()).selected(selected);
            n.key_fallback(Action::Toggle, "space");
        });
    }
}

#[taria::widget(role = text_input, id = "new-task", label = "New task", value = draft, focused = editing,
    actions(focus = key("a"), submit = key("enter").when(!draft.trim().is_empty())))]
fn draw_input(frame: &mut Frame<'_>, area: Rect, draft: &str, editing: bool) {
    let style = if editing {
        Style::new().yellow()
    } else {
        Style::new().dark_gray()
    };
    let text = if editing {
        draft
    } else {
        "press a to add a task"
    };
    frame.render_widget(
        Paragraph::new(text)
            .style(style)
            .block(Block::bordered().title("New task")),
        area,
    );
}
