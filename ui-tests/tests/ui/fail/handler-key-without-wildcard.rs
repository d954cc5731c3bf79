struct App;

#[taria::actions]
impl App {
    #[action(node = "save", activate)]
    fn save(&mut self, key: String) {
        let _ = key;
    }
}

fn main() {}
