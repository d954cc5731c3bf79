struct App;

#[taria::actions]
impl App {
    #[action(node = "tasks/*", toggle)]
    fn toggle(&mut self, value: bool) {
        let _ = value;
    }
}

fn main() {}
