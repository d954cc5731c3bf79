//! `#[taria::action]` (or an imported `action`) on a method of an impl block without
//! `#[taria::actions]` / `#[taria::app]` says where it goes.
mod qualified {
    struct App;

    impl App {
        #[taria::action(node = "quit", activate)]
        fn quit(&mut self) {}
    }
}

mod imported {
    use taria::action;

    struct App;

    impl App {
        #[action(node = "quit", activate)]
        fn quit(&mut self) {}
    }
}

fn main() {}
