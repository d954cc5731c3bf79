//! A todo list an agent can drive. Run it with `cargo run --example todo`, then
//! point an MCP host at it (see the README), or press `F2` to see the semantic tree
//! taria records beside the UI.
//!
//! Keys: `↑`/`↓` select, `space` toggles done, `a` adds a task, `e` edits the selected
//! task's title in `$EDITOR`, `d` deletes (with a confirmation), `tab` cycles the
//! filter, `F2` toggles the tree pane, `q` quits.
//!
//! The app is ordinary ratatui: `app.rs` has its state, loop and key handling plus
//! the `#[taria::app]` and `#[action]` attributes; `ui.rs` draws it, with
//! `#[taria::widget]` attributes saying what each part is.

mod app;
#[cfg(test)]
mod replay;
#[cfg(test)]
mod tests;
#[path = "../tree_pane.rs"]
mod tree_pane;
mod ui;

use tracing_subscriber::prelude::*;

fn main() -> std::io::Result<()> {
    // The app's log, for an agent through taria-mcp (`read_logs`, and a note in the
    // result of an input that logged a warning or an error).
    tracing_subscriber::registry()
        .with(taria::logs::layer())
        .init();
    let mut terminal = ratatui::init();
    let result = app::App::with_sample_tasks().run(&mut terminal);
    ratatui::restore();
    result
}
