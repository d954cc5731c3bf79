use ratatui::DefaultTerminal;

struct App;

#[taria::app]
impl App {
    #[taria::app]
    fn run(&mut self, terminal: &mut DefaultTerminal) -> std::io::Result<()> {
        loop {
            terminal.draw(|frame| frame.render_widget("hi", frame.area()))?;
        }
    }
}

fn main() {
    let _ = App::run;
}
