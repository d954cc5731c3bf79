//! A checklist in the style of ratatui's `todo-list` example, as a ratatui author writes
//! it without taria: a `List` with a `ListState` that starts with nothing selected, a
//! status per item, and a panel with the selected item's notes.
//!
//! `taria.rs` beside it is the same app made agent-drivable; `cargo run --example
//! checklist-plain` runs this one.

use std::io;

use ratatui::DefaultTerminal;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style, Stylize};
use ratatui::text::Line;
use taria_widgets::prelude::*;

const SELECTED_STYLE: Style = Style::new()
    .bg(Color::DarkGray)
    .add_modifier(Modifier::BOLD);

fn main() -> io::Result<()> {
    let terminal = ratatui::init();
    let result = App::default().run(terminal);
    ratatui::restore();
    result
}

struct App {
    should_exit: bool,
    items: Vec<Item>,
    state: ListState,
}

struct Item {
    title: &'static str,
    notes: &'static str,
    done: bool,
}

impl Default for App {
    fn default() -> Self {
        let items = [
            (false, "Water the plants", "The fern by the window first."),
            (true, "Book the dentist", "Any weekday morning works."),
            (false, "Return library books", "Two are due on Friday."),
            (false, "Call grandma", "Ask about the recipe."),
            (true, "Renew the bike lock code", "Write it down this time."),
        ];
        Self {
            should_exit: false,
            items: items
                .into_iter()
                .map(|(done, title, notes)| Item { title, notes, done })
                .collect(),
            state: ListState::default(),
        }
    }
}

#[taria::app(label = "checklist")]
impl App {
    fn run(mut self, mut terminal: DefaultTerminal) -> io::Result<()> {
        while !self.should_exit {
            terminal.draw(|frame| frame.render_widget(&mut self, frame.area()))?;
            if let Event::Key(key) = event::read()? {
                self.handle_key(key);
            }
        }
        Ok(())
    }

    fn handle_key(&mut self, key: KeyEvent) {
        if key.kind != KeyEventKind::Press {
            return;
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => self.should_exit = true,
            KeyCode::Char('h') | KeyCode::Left => self.state.select(None),
            KeyCode::Char('j') | KeyCode::Down => self.state.select_next(),
            KeyCode::Char('k') | KeyCode::Up => self.state.select_previous(),
            KeyCode::Char('g') | KeyCode::Home => self.state.select_first(),
            KeyCode::Char('G') | KeyCode::End => self.state.select_last(),
            KeyCode::Char('l') | KeyCode::Right | KeyCode::Enter => self.toggle_selected(),
            _ => {}
        }
    }

    fn toggle_selected(&mut self) {
        if let Some(item) = self.state.selected().and_then(|i| self.items.get_mut(i)) {
            item.done = !item.done;
        }
    }
}

impl Widget for &mut App {
    fn render(self, area: Rect, buf: &mut Buffer) {
        let [header, main, footer] = Layout::vertical([
            Constraint::Length(2),
            Constraint::Fill(1),
            Constraint::Length(1),
        ])
        .areas(area);
        let [list_area, notes_area] =
            Layout::vertical([Constraint::Fill(1), Constraint::Fill(1)]).areas(main);
        Paragraph::new("Checklist")
            .bold()
            .centered()
            .render(header, buf);
        Paragraph::new("↓↑ move, ← unselect, → or enter: done/undo, q quit")
            .centered()
            .render(footer, buf);
        self.render_list(list_area, buf);
        self.render_notes(notes_area, buf);
    }
}

impl App {
    fn render_list(&mut self, area: Rect, buf: &mut Buffer) {
        let block = Block::new()
            .title(Line::raw("To do").centered())
            .borders(Borders::TOP);
        let items: Vec<ListItem<'_>> = self.items.iter().map(ListItem::from).collect();
        let list = List::new(items)
            .id("todo")
            .checked(self.items.iter().map(|item| item.done))
            .toggle_key("enter")
            .block(block)
            .highlight_style(SELECTED_STYLE)
            .highlight_symbol(">")
            .highlight_spacing(HighlightSpacing::Always);
        StatefulWidget::render(list, area, buf, &mut self.state);
    }

    fn render_notes(&self, area: Rect, buf: &mut Buffer) {
        let notes = match self.state.selected().and_then(|i| self.items.get(i)) {
            Some(item) if item.done => format!("✓ DONE: {}", item.notes),
            Some(item) => format!("☐ TODO: {}", item.notes),
            None => "Nothing selected...".to_owned(),
        };
        let block = Block::new()
            .title(Line::raw("Notes").centered())
            .borders(Borders::TOP);
        Paragraph::new(notes)
            .block(block)
            .wrap(Wrap { trim: false })
            .render(area, buf);
    }
}

impl From<&Item> for ListItem<'_> {
    fn from(item: &Item) -> Self {
        let mark = if item.done { '✓' } else { '☐' };
        ListItem::new(Line::from(format!(" {mark} {}", item.title)))
    }
}
