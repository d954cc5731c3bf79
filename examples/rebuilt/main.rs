//! A table whose state the app rebuilds each frame from its own field, as many ratatui
//! apps write it: `TableState::default().with_selected(self.row)` in the draw. An
//! agent's `select` taken by the table is undone by the next frame, and taria says so
//! (`state_rebuilt`) instead of "delivered". Run with `--routed` for the route the
//! integration guide documents: a `select` handler on the app's own field, which then
//! takes every `select` (rows off screen too) and `scroll`, each resolved by the table
//! within its rows.
//!
//! `taria-runtime/taria-mcp/tests/mcp/rebuilt.rs` drives both through the real bridge.

use std::io;

use ratatui::DefaultTerminal;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::Constraint;
use ratatui::style::Style;
use taria::Outcome;
use taria_widgets::{Block, Row, Table, TableState};

fn main() -> io::Result<()> {
    let routed = std::env::args().any(|a| a == "--routed");
    let terminal = ratatui::init();
    let result = App {
        row: Some(0),
        routed,
        quit: false,
    }
    .run(terminal);
    ratatui::restore();
    result
}

struct App {
    /// The selected row: the app's own field, the state is built from it.
    row: Option<usize>,
    /// Whether the `select` handler routes an agent's select to `row`.
    routed: bool,
    quit: bool,
}

const PEOPLE: [&str; 20] = [
    "Ada", "Grace", "Alan", "Edsger", "Barbara", "Donald", "Frances", "Ken", "Dennis", "Niklaus",
    "Margaret", "John", "Radia", "Tony", "Leslie", "Shafi", "Butler", "Fran", "Robin", "Jean",
];

#[taria::app(label = "rebuilt")]
impl App {
    fn run(mut self, mut terminal: DefaultTerminal) -> io::Result<()> {
        while !self.quit {
            terminal.draw(|frame| {
                let rows = PEOPLE.iter().map(|name| Row::new([*name]));
                let table = Table::new(rows, [Constraint::Fill(1)])
                    .block(Block::bordered().title("People"))
                    .row_highlight_style(Style::new().reversed())
                    .id("people");
                let mut state = TableState::default().with_selected(self.row);
                frame.render_stateful_widget(table, frame.area(), &mut state);
            })?;
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                match key.code {
                    KeyCode::Char('q') => self.quit = true,
                    KeyCode::Down => {
                        self.row = Some(self.row.map_or(0, |r| (r + 1).min(PEOPLE.len() - 1)));
                    }
                    KeyCode::Up => self.row = Some(self.row.map_or(0, |r| r.saturating_sub(1))),
                    _ => {}
                }
            }
        }
        Ok(())
    }

    /// The documented route (with `--routed`): the agent's select lands in `row`.
    #[action(node = "people/*", select)]
    fn select_row(&mut self, index: usize) -> Outcome {
        if !self.routed {
            return Outcome::NotHandled;
        }
        self.row = Some(index);
        Outcome::Handled
    }
}
