struct App;

#[taria::actions]
impl App {
    #[action(node = "save", activate)]
    fn save(&self) {}
}

fn main() {}
