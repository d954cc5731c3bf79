use ratatui::crossterm::event::{self, Event};
use taria::{Action, Key};

#[taria::app(label = "locals")]
fn run() -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    let mut marked = vec![false; 3];
    loop {
        taria::drain_with(
            taria::on("marks/**/*", Action::Toggle, |Key(i): Key<usize>| marked[i] = true)
                .on("marks", Action::Activate, |Key(i): Key<usize>| marked[i] = false),
        );
        terminal.draw(|frame| frame.render_widget(format!("{marked:?}"), frame.area()))?;
        if let Event::Key(_) = event::read()? {
            break Ok(());
        }
    }
}

fn main() {
    let _ = run;
}
