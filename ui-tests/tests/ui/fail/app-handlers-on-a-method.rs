use ratatui::DefaultTerminal;

struct App;

#[taria::actions]
impl App {
    #[taria::app(handlers = self)]
    fn run(&mut self, terminal: &mut DefaultTerminal) -> std::io::Result<()> {
        loop {
            terminal.draw(|frame| frame.render_widget("hi", frame.area()))?;
        }
    }
}

fn main() {
    let _ = App::run;
}
