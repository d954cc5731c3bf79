//! Inside `#[taria::actions]`, a handler may be marked `#[taria::action(...)]` too (or
//! with an imported `action`): the block reads and removes it, so the attribute's own
//! stray-use error never runs.
use taria::{Actions, Invocation, Outcome};

#[derive(Default)]
struct App {
    quit: bool,
    saved: bool,
}

#[taria::actions]
impl App {
    #[taria::action(node = "quit", activate)]
    fn quit(&mut self) {
        self.quit = true;
    }

    #[action(node = "save", activate)]
    fn save(&mut self) {
        self.saved = true;
    }
}

fn main() {
    let mut app = App::default();
    assert_eq!(app.handle_action(&Invocation::new("quit", "activate")), Outcome::Handled);
    assert_eq!(app.handle_action(&Invocation::new("save", "activate")), Outcome::Handled);
    assert!(app.quit && app.saved);
}
