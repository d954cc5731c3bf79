struct App;

#[taria::actions]
impl App {
    #[action(node = "tasks/*", toggle)]
    fn toggle(&mut self) {}

    #[action(node = "tasks/*", "archive")]
    #[action(node = "tasks/*", toggle)]
    fn archive_or_toggle(&mut self) {}
}

fn main() {}
