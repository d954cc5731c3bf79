//! The frame drawn in a method with no loop around it, the loop in `main` (a typing
//! test's shape): `#[taria::app]` on the function with the loop, which drains and
//! reads through taria there, and `taria::draw` where the method draws.

use std::io;

use ratatui::crossterm::event::{self, Event, KeyCode};
use ratatui::{DefaultTerminal, Frame};

struct Test {
    typed: String,
}

impl Test {
    fn render(&self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        taria::draw(terminal, |frame| self.draw(frame))?;
        Ok(())
    }

    fn draw(&self, frame: &mut Frame<'_>) {
        frame.render_widget(self.typed.as_str(), frame.area());
    }
}

#[taria::app(label = "typing")]
fn typing() -> io::Result<String> {
    let mut terminal = ratatui::init();
    let mut test = Test { typed: String::new() };
    loop {
        test.render(&mut terminal)?;
        match event::read()? {
            Event::Key(key) if key.code == KeyCode::Esc => break,
            Event::Key(key) => test.typed.extend(key.code.as_char()),
            _ => {}
        }
    }
    ratatui::restore();
    Ok(test.typed)
}

fn main() {
    let _ = typing;
}
