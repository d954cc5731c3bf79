//! A contacts table with a scrollbar in the style of ratatui's `table` example, as a
//! ratatui author writes it without taria: rows four lines high (the address takes two),
//! a `TableState` with a row and a column selection, and a `ScrollbarState` the key
//! handler keeps in step with the selected row.
//!
//! `taria.rs` beside it is the same app made agent-drivable; `cargo run --example
//! contacts-plain` runs this one.

use std::io;

use ratatui::crossterm::event::{self, KeyCode};
use ratatui::layout::{Constraint, Layout, Margin, Rect};
use ratatui::style::{Modifier, Style};
use ratatui::text::Text;
use ratatui::{DefaultTerminal, Frame};
use taria_widgets::prelude::*;

const ITEM_HEIGHT: usize = 4;
const INFO_TEXT: &str = "(q) quit | (↑/↓) move up/down | (←/→) move left/right";

fn main() -> io::Result<()> {
    let mut terminal = ratatui::init();
    let result = App::new().run(&mut terminal);
    ratatui::restore();
    result
}

struct Contact {
    name: String,
    address: String,
    email: String,
}

struct App {
    state: TableState,
    items: Vec<Contact>,
    scroll_state: ScrollbarState,
}

#[taria::app(label = "contacts")]
impl App {
    fn new() -> Self {
        let items = sample_contacts();
        Self {
            state: TableState::default().with_selected(0),
            scroll_state: ScrollbarState::new((items.len() - 1) * ITEM_HEIGHT),
            items,
        }
    }

    fn next_row(&mut self) {
        let i = match self.state.selected() {
            Some(i) if i + 1 < self.items.len() => i + 1,
            _ => 0,
        };
        self.state.select(Some(i));
        self.scroll_state = self.scroll_state.position(i * ITEM_HEIGHT);
    }

    fn previous_row(&mut self) {
        let i = match self.state.selected() {
            Some(0) | None => self.items.len() - 1,
            Some(i) => i - 1,
        };
        self.state.select(Some(i));
        self.scroll_state = self.scroll_state.position(i * ITEM_HEIGHT);
    }

    fn run(mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        loop {
            terminal.draw(|frame| self.render(frame))?;
            if let Some(key) = event::read()?.as_key_press_event() {
                match key.code {
                    KeyCode::Char('q') | KeyCode::Esc => return Ok(()),
                    KeyCode::Char('j') | KeyCode::Down => self.next_row(),
                    KeyCode::Char('k') | KeyCode::Up => self.previous_row(),
                    KeyCode::Char('l') | KeyCode::Right => self.state.select_next_column(),
                    KeyCode::Char('h') | KeyCode::Left => self.state.select_previous_column(),
                    _ => {}
                }
            }
        }
    }

    fn render(&mut self, frame: &mut Frame<'_>) {
        let [table_area, footer_area] =
            Layout::vertical([Constraint::Min(5), Constraint::Length(3)]).areas(frame.area());
        self.render_table(frame, table_area);
        self.scroll_state = self
            .scroll_state
            .position(self.state.selected().unwrap_or(0) * ITEM_HEIGHT);
        self.render_scrollbar(frame, table_area);
        frame.render_widget(
            Paragraph::new(INFO_TEXT)
                .centered()
                .block(Block::bordered()),
            footer_area,
        );
    }

    fn render_table(&mut self, frame: &mut Frame<'_>, area: Rect) {
        let header = ["Name", "Address", "Email"]
            .into_iter()
            .map(Cell::from)
            .collect::<Row<'_>>()
            .style(Style::new().add_modifier(Modifier::BOLD));
        let rows = self.items.iter().map(|contact| {
            [&contact.name, &contact.address, &contact.email]
                .into_iter()
                .map(|content| Cell::from(Text::from(format!("\n{content}\n"))))
                .collect::<Row<'_>>()
                .height(4)
        });
        let table = Table::new(
            rows,
            [
                Constraint::Length(18),
                Constraint::Min(24),
                Constraint::Min(26),
            ],
        )
        .id("contacts")
        .header(header)
        .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED))
        .column_highlight_style(Style::new().add_modifier(Modifier::BOLD))
        .cell_highlight_style(Style::new().add_modifier(Modifier::UNDERLINED))
        .highlight_symbol(Text::from(vec![
            "".into(),
            " █ ".into(),
            " █ ".into(),
            "".into(),
        ]))
        .highlight_spacing(HighlightSpacing::Always);
        frame.render_stateful_widget(table, area, &mut self.state);
    }

    fn render_scrollbar(&mut self, frame: &mut Frame<'_>, area: Rect) {
        frame.render_stateful_widget(
            Scrollbar::default()
                .orientation(ScrollbarOrientation::VerticalRight)
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

/// Twenty made-up contacts, sorted by name (the same every run).
fn sample_contacts() -> Vec<Contact> {
    const FIRST: [&str; 5] = ["Ada", "Bruno", "Chiara", "Dmitri", "Esme"];
    const LAST: [&str; 4] = ["Okafor", "Lindqvist", "Moreau", "Tanaka"];
    const STREETS: [&str; 4] = ["Elm Row", "Harbour Lane", "Mill Street", "Quarry Road"];
    const CITIES: [&str; 3] = ["Porto", "Tromsø", "Nagoya"];
    let mut contacts: Vec<Contact> = (0..20)
        .map(|i| {
            let (first, last) = (FIRST[i % 5], LAST[i % 4]);
            Contact {
                name: format!("{first} {last}"),
                address: format!(
                    "{} {}\n{} {}",
                    10 + i * 7,
                    STREETS[i % 4],
                    CITIES[i % 3],
                    1000 + i * 37
                ),
                email: format!(
                    "{}.{}@example.org",
                    first.to_lowercase(),
                    last.to_lowercase()
                ),
            }
        })
        .collect();
    contacts.sort_by(|a, b| a.name.cmp(&b.name));
    contacts
}
