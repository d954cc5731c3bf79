struct App;

#[taria::actions]
impl App {
    #[action(node = "board/*/*", toggle)]
    fn toggle(&mut self) {}

    #[action(node = "tasks/ new", set_value)]
    fn set(&mut self) {}
}

fn main() {}
