use ratatui::DefaultTerminal;
use taria::Actions;

struct App;

#[taria::app(label = "my app")]
impl App {
    fn run(&mut self, terminal: &mut DefaultTerminal) -> std::io::Result<()> {
        loop {
            terminal.draw(|frame| frame.render_widget("hi", frame.area()))?;
        }
    }
}

fn main() {
    let _ = App.handle_action(&taria::Invocation::new("x", "activate"));
    let _ = App::run;
}
