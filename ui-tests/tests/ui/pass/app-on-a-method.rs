//! `#[taria::app]` on the one method that holds the loop, its handlers in the
//! `#[taria::actions]` impl block around it: the drain lends `self`.

use std::io;

use ratatui::crossterm::event::{self, Event};
use ratatui::DefaultTerminal;
use taria::{Actions, Invocation, Outcome};

#[derive(Default)]
struct App {
    exit: bool,
}

#[taria::actions]
impl App {
    #[taria::app(label = "method")]
    fn run(&mut self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        while !self.exit {
            terminal.draw(|frame| frame.render_widget("running", frame.area()))?;
            if let Event::Key(_) = event::read()? {
                self.exit = true;
            }
        }
        Ok(())
    }

    #[action(node = "quit", activate)]
    fn quit(&mut self) {
        self.exit = true;
    }
}

fn main() {
    let _ = App::run;
    let mut app = App::default();
    assert_eq!(app.handle_action(&Invocation::new("quit", "activate")), Outcome::Handled);
    assert!(app.exit);
}
