struct App;

#[taria::actions]
impl App {
    #[action(node = "log", scroll)]
    fn scroll(&mut self, direction: String) {
        let _ = direction;
    }
}

fn main() {}
