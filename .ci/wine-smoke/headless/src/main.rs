//! A taria app that draws to a `TestBackend` and reads no terminal input: wine 8's
//! ConPTY gives a child no usable console (crossterm gets "Invalid handle"), so the
//! wine smoke test drives this one in spawn mode instead of a real example.

use std::time::Duration;

use ratatui::crossterm::event::{Event, KeyCode};
use ratatui::{Terminal, backend::TestBackend, widgets::Paragraph};
use taria::{Action, Actions, Invocation, Outcome, Role, Session};

struct App {
    count: u32,
}

impl Actions for App {
    fn handle_action(&mut self, inv: &Invocation<'_>) -> Outcome {
        if inv.target() == "more" && inv.is(Action::Activate) {
            self.count += 1;
            return Outcome::Handled;
        }
        Outcome::NotHandled
    }
}

fn main() {
    let options = Session::builder("headless").terminal_input(false);
    let mut session = options.try_start().expect("the session starts");
    let mut terminal = Terminal::new(TestBackend::new(40, 5)).expect("a test terminal");
    let mut app = App { count: 0 };
    loop {
        session.drain(&mut app);
        session
            .draw(&mut terminal, |frame| {
                taria::leaf(|n| {
                    n.role(Role::Button)
                        .id("more")
                        .label(format!("Count {}", app.count))
                        .action(Action::Activate);
                });
                frame.render_widget(Paragraph::new(format!("count {}", app.count)), frame.area());
            })
            .expect("drawing to a test terminal");
        let event = session.next_event(Some(Duration::from_millis(200)));
        if let Ok(Some(Event::Key(key))) = event
            && key.code == KeyCode::Char('q')
        {
            return;
        }
    }
}
