//! A counter whose loop draws only when its own state changed, as some real apps do
//! to spare the terminal: it ignores the `Event::FocusGained` that taria's event
//! reader returns when an agent connects, so it never draws for a bridge that
//! connects after its first frame. In spawn mode taria-mcp resizes its terminal to
//! make it draw (it redraws on a resize); with `--ignore-resize` it does not, and
//! taria-mcp's error says why and what line to add.
//! `taria-runtime/taria-mcp/tests/mcp/spawn.rs` drives both.
//!
//! Keys: `+` and `-` change the count, `q` quits.

use std::io;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::widgets::{Block, Paragraph};
use ratatui::{DefaultTerminal, Frame};

fn main() -> io::Result<()> {
    let ignore_resize = std::env::args().any(|arg| arg == "--ignore-resize");
    let mut terminal = ratatui::init();
    let result = Counter::new(ignore_resize).run(&mut terminal);
    ratatui::restore();
    result
}

struct Counter {
    count: i64,
    ignore_resize: bool,
    exit: bool,
}

#[taria::app(label = "lazy")]
impl Counter {
    fn new(ignore_resize: bool) -> Counter {
        Counter {
            count: 0,
            ignore_resize,
            exit: false,
        }
    }

    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        let mut changed = true;
        while !self.exit {
            if changed {
                terminal.draw(|frame| self.draw(frame))?;
                changed = false;
            }
            match event::read()? {
                Event::Key(key) if key.kind == KeyEventKind::Press => {
                    changed = self.on_key(key.code);
                }
                Event::Resize(..) => changed = !self.ignore_resize,
                // FocusGained and the rest: nothing of its own changed.
                _ => {}
            }
        }
        Ok(())
    }

    /// Whether the key changed the count.
    fn on_key(&mut self, code: KeyCode) -> bool {
        match code {
            KeyCode::Char('+') => self.count += 1,
            KeyCode::Char('-') => self.count -= 1,
            KeyCode::Char('q') => self.exit = true,
            _ => return false,
        }
        true
    }

    fn draw(&self, frame: &mut Frame<'_>) {
        draw_count(frame, self.count);
    }
}

#[taria::widget(role = spin_button, id = "count", label = "Count", value = count,
    actions(increment = key("+"), decrement = key("-")))]
fn draw_count(frame: &mut Frame<'_>, count: i64) {
    let text = format!("Count: {count}  (+ and - change it, q quits)");
    frame.render_widget(
        Paragraph::new(text).block(Block::bordered().title("Lazy")),
        frame.area(),
    );
}
