struct App;

#[taria::actions]
impl App {
    #[action(node = "save", activate)]
    fn save(&mut self) -> bool {
        true
    }
}

fn main() {}
