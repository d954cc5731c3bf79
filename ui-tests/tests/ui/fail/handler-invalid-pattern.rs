struct App;

#[taria::actions]
impl App {
    #[action(node = "board/**/*", toggle)]
    fn toggle(&mut self) {}

    #[action(node = "tasks/ new", set_value)]
    fn set(&mut self) {}

    // The id of the key `50%` is `sale/50%25`: a lone `%` never matches one.
    #[action(node = "sale/50%", activate)]
    fn buy(&mut self) {}
}

fn main() {}
