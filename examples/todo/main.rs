//! A todo list annotated with taria. Press `F2` to show the semantic tree taria
//! records each frame beside the UI.
//!
//! Keys: `↑`/`↓` select, `space` toggles done, `a` adds a task, `d` deletes (with a
//! confirmation), `tab` cycles the filter, `F2` toggles the tree pane, `q` quits.
//!
//! Run it with `cargo run --example todo`.

mod app;
mod ui;

use std::io;

use ratatui::crossterm::event::{self, Event, KeyEventKind};
use taria::Recorder;

fn main() -> io::Result<()> {
    let mut terminal = ratatui::init();
    let mut app = app::App::with_sample_tasks();
    let mut recorder = Recorder::new();
    let result = (|| -> io::Result<()> {
        while !app.should_quit {
            recorder.record(|| terminal.draw(|frame| ui::draw(frame, &mut app)))?;
            if app.show_tree {
                // Show the tree of the frame just drawn: redraw once when it changed.
                let outline = recorder.tree().outline();
                if outline != app.tree_outline {
                    app.tree_outline = outline;
                    terminal.draw(|frame| ui::draw(frame, &mut app))?;
                }
            }
            if let Event::Key(key) = event::read()?
                && key.kind == KeyEventKind::Press
            {
                app.on_key(key);
            }
        }
        Ok(())
    })();
    ratatui::restore();
    result
}
