use ratatui::crossterm::event::{self, Event};
use taria::Action;

#[taria::app(label = "locals")]
fn main() -> std::io::Result<()> {
    let mut terminal = ratatui::init();
    let mut count = 0_i64;
    loop {
        taria::drain_with(taria::on("count", Action::SetValue, |value: i64| count = value));
        loop {
            terminal.draw(|frame| frame.render_widget(count.to_string(), frame.area()))?;
            if let Event::Key(_) = event::read()? {
                break;
            }
        }
    }
}
