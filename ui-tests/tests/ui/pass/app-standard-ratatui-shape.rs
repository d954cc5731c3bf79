//! `#[taria::app]` on an app in the standard ratatui shape: the loop, the draw call
//! and the event reads stay as written; handlers come along as with `#[taria::actions]`.

use std::io;
use std::time::Duration;

use ratatui::DefaultTerminal;
use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::widgets::Paragraph;
use taria::{Actions, Invocation, Outcome};

#[derive(Default)]
struct App {
    counter: i32,
    exit: bool,
}

#[taria::app(label = "counter")]
impl App {
    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.exit {
            terminal.draw(|frame| self.draw(frame))?;
            self.handle_events()?;
        }
        Ok(())
    }

    fn draw(&self, frame: &mut Frame<'_>) {
        frame.render_widget(Paragraph::new(self.counter.to_string()), frame.area());
    }

    fn handle_events(&mut self) -> io::Result<()> {
        if !event::poll(Duration::from_millis(250))? {
            return Ok(());
        }
        match event::read()? {
            Event::Key(key) if key.kind == KeyEventKind::Press => match key.code {
                KeyCode::Char('q') => self.exit = true,
                KeyCode::Right => self.counter += 1,
                _ => {}
            },
            _ => {}
        }
        Ok(())
    }

    #[action(node = "counter", increment)]
    fn increment(&mut self) {
        self.counter += 1;
    }

    #[action(node = "quit", activate)]
    fn quit(&mut self) {
        self.exit = true;
    }
}

/// An app that owns its terminal and is consumed by its loop; default label.
struct Owned {
    terminal: DefaultTerminal,
    quit: bool,
}

#[taria::app]
impl Owned {
    fn run(mut self) -> io::Result<()> {
        loop {
            self.terminal.draw(|frame| frame.render_widget("owned", frame.area()))?;
            // Any key quits.
            ratatui::crossterm::event::read()?;
            self.quit = true;
            if self.quit {
                return Ok(());
            }
        }
    }
}

fn main() {
    // Running the loops needs a terminal; the handlers can be driven directly.
    let _ = (App::run, Owned::run);
    let mut app = App::default();
    assert_eq!(app.handle_action(&Invocation::new("counter", "increment")), Outcome::Handled);
    assert_eq!(app.counter, 1);
    assert_eq!(app.handle_action(&Invocation::new("quit", "activate")), Outcome::Handled);
    assert!(app.exit);
    assert_eq!(app.handle_action(&Invocation::new("other", "activate")), Outcome::NotHandled);
}
