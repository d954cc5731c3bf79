//! A one-button app for the tests of `taria-mcp audit` (tests/mcp/audit.rs): `s` saves,
//! and the button says how many times. Run with `--broken`, the button still offers
//! `activate` by its key `s`, but the app no longer handles the key: an offer that
//! does nothing, the defect the audit must report. `q` quits.

use std::io;

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::Rect;
use ratatui::widgets::Paragraph;

#[taria::app(label = "audit-probe")]
fn main() -> io::Result<()> {
    let broken = std::env::args().any(|arg| arg == "--broken");
    let mut saves = 0u32;
    let mut terminal = ratatui::init();
    let result = loop {
        if let Err(err) = terminal.draw(|frame| draw(frame, saves)) {
            break Err(err);
        }
        match event::read() {
            Ok(Event::Key(key)) if key.kind == KeyEventKind::Press => match key.code {
                KeyCode::Char('q') => break Ok(()),
                KeyCode::Char('s') if !broken => saves += 1,
                _ => {}
            },
            Ok(_) => {}
            Err(err) => break Err(err),
        }
    };
    ratatui::restore();
    result
}

#[taria::widget(role = button, id = "save", label = "Save", actions(activate = key("s")))]
fn draw(frame: &mut Frame<'_>, saves: u32) {
    let button = Paragraph::new(format!("[ Save ] saved {saves}"));
    frame.render_widget(button, Rect::new(0, 0, 30, 1));
}
