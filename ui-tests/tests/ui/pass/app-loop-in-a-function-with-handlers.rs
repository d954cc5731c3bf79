//! `#[taria::app(handlers = app)]` on a free function holding the loop: the app's
//! `#[taria::actions]` handlers take agent actions, whether the function has the app
//! by value or by `&mut`.

use std::io;

use ratatui::crossterm::event::{self, Event, KeyCode};
use ratatui::DefaultTerminal;
use taria::{Actions, Invocation, Outcome};

#[derive(Default)]
struct Counter {
    count: i32,
    quit: bool,
}

#[taria::actions]
impl Counter {
    #[action(node = "count", increment)]
    fn increment(&mut self) {
        self.count += 1;
    }
}

#[taria::app(label = "counter", handlers = counter)]
fn run(terminal: &mut DefaultTerminal, counter: &mut Counter) -> io::Result<()> {
    while !counter.quit {
        terminal.draw(|frame| frame.render_widget(counter.count.to_string(), frame.area()))?;
        if let Event::Key(key) = event::read()? {
            counter.quit = key.code == KeyCode::Char('q');
        }
    }
    Ok(())
}

#[taria::app(label = "counter", handlers = counter)]
fn run_owned(mut terminal: DefaultTerminal) -> io::Result<Counter> {
    let mut counter = Counter::default();
    loop {
        terminal.draw(|frame| frame.render_widget(counter.count.to_string(), frame.area()))?;
        if let Event::Key(_) = event::poll(std::time::Duration::ZERO).and_then(|_| event::read())? {
            return Ok(counter);
        }
    }
}

fn main() {
    let _ = (run, run_owned);
    let mut counter = Counter::default();
    assert_eq!(counter.handle_action(&Invocation::new("count", "increment")), Outcome::Handled);
    assert_eq!(counter.count, 1);
}
