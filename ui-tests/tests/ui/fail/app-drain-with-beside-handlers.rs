use ratatui::crossterm::event::{self, Event};
use ratatui::DefaultTerminal;
use taria::Action;

struct Counter {
    count: i64,
}

#[taria::actions]
impl Counter {
    #[action(node = "count", increment)]
    fn increment(&mut self) {
        self.count += 1;
    }
}

#[taria::app(label = "counter", handlers = counter)]
fn run(terminal: &mut DefaultTerminal, counter: &mut Counter) -> std::io::Result<()> {
    let mut step = 1_i64;
    loop {
        taria::drain_with(taria::on("step", Action::SetValue, |value: i64| step = value));
        terminal.draw(|frame| {
            frame.render_widget(format!("{} {step}", counter.count), frame.area());
        })?;
        if let Event::Key(_) = event::read()? {
            break Ok(());
        }
    }
}

fn main() {
    let _ = run;
}
