//! `#[taria::app]` on the function whose `ratatui::run(|terminal| loop { … })` closure
//! holds the loop (ratatui 0.30's examples): no impl block, no handlers, nothing else
//! written.

use std::io;

use ratatui::crossterm::event::{self, Event, KeyCode, KeyEventKind};
use ratatui::layout::Rect;
use ratatui::widgets::{Block, Clear};
use ratatui::Frame;

#[taria::app(label = "popup")]
fn popup() -> io::Result<()> {
    let mut show_popup = false;
    ratatui::run(|terminal| loop {
        terminal.draw(|frame| render(frame, show_popup))?;
        if let Event::Key(key) = event::read()? {
            if key.kind == KeyEventKind::Press {
                match key.code {
                    KeyCode::Char('q') => break Ok(()),
                    KeyCode::Char('p') => show_popup = !show_popup,
                    _ => {}
                }
            }
        }
    })
}

fn render(frame: &mut Frame<'_>, show_popup: bool) {
    frame.render_widget(Block::bordered().title("Content"), frame.area());
    if show_popup {
        let area = Rect::new(2, 2, 20, 5);
        frame.render_widget(Clear, area);
        frame.render_widget(Block::bordered().title("Popup"), area);
    }
}

fn main() {
    // Running it needs a terminal.
    let _ = popup;
}
