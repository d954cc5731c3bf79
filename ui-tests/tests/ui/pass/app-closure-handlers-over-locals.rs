//! State in `main`'s locals, handlers as closures over them given to
//! `taria::drain_with` at the top of the `ratatui::run` loop: every parameter kind.
use ratatui::crossterm::event::{self, Event, KeyCode};
use taria::{Action, FromValue, Index, Key, Outcome, Value};

#[derive(Clone, Copy)]
struct Day(u8);

impl FromValue for Day {
    fn from_value(value: &Value) -> Result<Self, String> {
        match u8::from_value(value)? {
            day @ 1..=31 => Ok(Day(day)),
            day => Err(format!("no month has a day {day}")),
        }
    }
}

#[taria::app(label = "locals")]
fn calendar() -> std::io::Result<()> {
    let mut day = Day(1);
    let mut marked = vec![false; 31];
    let mut selected = 0_usize;
    let mut note = String::new();
    ratatui::run(|terminal| loop {
        taria::drain_with(
            taria::on("day", Action::SetValue, |value: Day| day = value)
                .on("days/*", Action::Toggle, |Key(d): Key<usize>| {
                    let mark = marked.get_mut(d).ok_or("no such day")?;
                    *mark = !*mark;
                    Ok::<(), &str>(())
                })
                .on("days/*", Action::Select, |Index(i): Index<usize>| selected = i)
                .on("notes/*", Action::SetValue, |Key(d): Key<u8>, text: String| {
                    note = format!("{d}: {text}");
                })
                // A second closure over `marked`: each is made only in its turn.
                .on("days", "clear", || {
                    marked.fill(false);
                    Outcome::Handled
                })
                .on_invocation("days", Action::Scroll, |inv: &taria::Invocation<'_>| {
                    let _ = inv.scroll();
                }),
        );
        terminal.draw(|frame| {
            let text = format!("{} {selected} {note} {}", day.0, marked.len());
            frame.render_widget(text, frame.area());
        })?;
        if let Event::Key(key) = event::read()?
            && key.code == KeyCode::Char('q')
        {
            break Ok(());
        }
    })
}

fn main() {
    // Running it needs a terminal.
    let _ = calendar;
}
