struct App;

#[taria::actions]
impl App {
    #[action(node = "tasks/*", toggle)]
    fn toggle(&mut self, id: u64) {
        let _ = id;
    }
}

fn main() {}
