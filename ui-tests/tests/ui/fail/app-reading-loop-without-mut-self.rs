use ratatui::crossterm::event::{self, Event};

struct App;

// Nothing here draws (the draw is elsewhere); the loop reads, in a `&self` method.
#[taria::app]
impl App {
    fn wait_for_key(&self) -> std::io::Result<()> {
        loop {
            if let Event::Key(_) = event::read()? {
                return Ok(());
            }
        }
    }
}

fn main() {
    let _ = App::wait_for_key;
}
