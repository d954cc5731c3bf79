use std::io;

use ratatui::DefaultTerminal;

struct Test {
    typed: String,
}

// The draw is here, the loop in `main`: this block has nowhere to run agent actions.
#[taria::app]
impl Test {
    fn render(&self, terminal: &mut DefaultTerminal) -> io::Result<()> {
        terminal.draw(|frame| frame.render_widget(self.typed.as_str(), frame.area()))?;
        Ok(())
    }
}

fn main() {
    let _ = Test::render;
    let _ = Test { typed: String::new() }.typed;
}
