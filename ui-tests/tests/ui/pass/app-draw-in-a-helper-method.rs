//! An impl block whose loop calls helpers: the frame drawn in a `&mut self` method
//! with no loop around it drains just before the draw; drawn in a `&self` method, the
//! drain goes before the event read of the `&mut self` helper the loop calls.

use std::io;

use ratatui::crossterm::event::{self, Event, KeyCode};
use ratatui::DefaultTerminal;

struct Mutating {
    frames: u32,
    quit: bool,
}

#[taria::app(label = "helpers")]
impl Mutating {
    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.quit {
            self.render(terminal)?;
            self.quit = matches!(event::read()?, Event::Key(k) if k.code == KeyCode::Char('q'));
        }
        Ok(())
    }

    fn render(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        self.frames += 1;
        terminal.draw(|frame| frame.render_widget(self.frames.to_string(), frame.area()))?;
        Ok(())
    }
}

struct Shared {
    quit: bool,
}

#[taria::app(label = "helpers")]
impl Shared {
    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.quit {
            self.render(terminal)?;
            self.handle_events()?;
        }
        Ok(())
    }

    fn render(&self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        terminal.draw(|frame| frame.render_widget("shared", frame.area()))?;
        Ok(())
    }

    fn handle_events(&mut self) -> io::Result<()> {
        if let Event::Key(key) = event::read()? {
            self.quit = key.code == KeyCode::Char('q');
        }
        Ok(())
    }
}

fn main() {
    let _ = (Mutating::run, Shared::run);
}
