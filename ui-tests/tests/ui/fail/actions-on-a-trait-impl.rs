struct App;

#[taria::actions]
impl Default for App {
    #[action(node = "save", activate)]
    fn default() -> Self {
        App
    }
}

fn main() {
    let _ = App::default();
}
