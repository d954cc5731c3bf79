use ratatui::DefaultTerminal;

// No `#[taria::actions]` impl: nothing to route agent actions to.
struct App {
    on: bool,
}

#[taria::app(handlers = app)]
fn run(terminal: &mut DefaultTerminal, app: &mut App) -> std::io::Result<()> {
    loop {
        terminal.draw(|frame| frame.render_widget(if app.on { "on" } else { "off" }, frame.area()))?;
        app.on = !app.on;
    }
}

fn main() {
    let _ = run;
}
