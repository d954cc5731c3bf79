struct App {
    count: u32,
}

// Handlers only: the loop is elsewhere.
#[taria::app]
impl App {
    #[action(node = "count", increment)]
    fn increment(&mut self) {
        self.count += 1;
    }
}

fn main() {
    let mut app = App { count: 0 };
    app.increment();
}
