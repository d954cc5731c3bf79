//! `#[taria::app]` on `main` itself, run: a loop in `main` that draws (here on a test
//! backend, twice) drains before each frame and records it.

use ratatui::backend::TestBackend;
use ratatui::Terminal;

#[taria::app(label = "ui-pass-app-on-main")]
fn main() {
    let mut terminal = Terminal::new(TestBackend::new(8, 1)).unwrap();
    for word in ["one", "two"] {
        terminal.draw(|frame| frame.render_widget(word, frame.area())).unwrap();
    }
    let session = taria::with_session(|session| session.label().to_owned());
    assert_eq!(session.as_deref(), Some("ui-pass-app-on-main"));
}
