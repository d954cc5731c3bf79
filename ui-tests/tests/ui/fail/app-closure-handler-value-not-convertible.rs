use ratatui::crossterm::event::{self, Event};
use taria::Action;

#[derive(Debug)]
struct Date {
    day: u8,
}

#[taria::app(label = "locals")]
fn run() -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    let mut date = Date { day: 1 };
    loop {
        taria::drain_with(taria::on("date", Action::SetValue, |value: Date| date = value));
        terminal.draw(|frame| frame.render_widget(format!("{}", date.day), frame.area()))?;
        if let Event::Key(_) = event::read()? {
            break Ok(());
        }
    }
}

fn main() {
    let _ = run;
}
