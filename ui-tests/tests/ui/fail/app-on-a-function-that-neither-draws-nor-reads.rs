use std::io;

use ratatui::DefaultTerminal;

struct App;

impl App {
    fn run(self, _terminal: DefaultTerminal) -> io::Result<()> {
        Ok(())
    }
}

// The loop is `App::run`'s: the attribute goes on that impl block.
#[taria::app]
fn main() -> io::Result<()> {
    let terminal = ratatui::init();
    let result = App.run(terminal);
    ratatui::restore();
    result
}
