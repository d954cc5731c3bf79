struct App;

#[taria::actions]
impl App {
    #[action(node = "tasks/*", togle)]
    fn toggle(&mut self) {}
}

fn main() {}
