//! A bare `#[action]` with nothing in scope of that name: what rustc says.
struct App;

impl App {
    #[action(node = "quit", activate)]
    fn quit(&mut self) {}
}

fn main() {}
