//! A file browser an agent can drive: a tree of folders that open and close, and a
//! preview of the selected file. Folders are read when opened (again each time, so
//! the tree stays current); the preview shows the first 8 KiB of a file as text,
//! `(binary, N bytes)` for binary files, or why it cannot be read. The preview's text
//! comes from files, so it is marked `untrusted`: agents read it as data, never as
//! instructions.
//!
//! Run it with `cargo run --example files [folder]` (the current folder by default),
//! then point an MCP host at it (see the README: `taria-mcp --app files`), or press
//! `F2` to see the semantic tree.
//!
//! Keys: `↑`/`↓` (`j`/`k`), `PgUp`/`PgDn`, `Home`/`End` select; `→` (`l`) opens a
//! folder (or enters an open one), `←` (`h`) closes it (or goes to the parent),
//! `Enter`/`space` toggles a folder; `J`/`K` scroll the preview; `.` shows or hides
//! hidden files; `F2` toggles the tree pane; `q` quits.
//!
//! What an agent gets: the `tree` `files` of `tree_item`s `files/<n>` (`select`,
//! `expand` or `collapse`; `[level=…]`, `[expanded]`/`[collapsed]`), `scroll` on the
//! tree, the preview `text` `preview` (`untrusted`; the text read is its value), the
//! checkbox `hidden` (`toggle`) and the `status` line.
//!
//! `app.rs` has the state, loop, handlers and file reading; `ui.rs` the drawing.

mod app;
#[path = "../tree_pane.rs"]
mod tree_pane;
mod ui;

#[cfg(test)]
mod replay;
#[cfg(test)]
mod tests;

use std::path::PathBuf;
use std::process::ExitCode;

use tracing_subscriber::prelude::*;

fn main() -> ExitCode {
    let root = std::env::args_os()
        .nth(1)
        .map_or_else(|| PathBuf::from("."), PathBuf::from);
    // The app's log, for an agent through taria-mcp: a folder it cannot read is a
    // warning there.
    tracing_subscriber::registry()
        .with(taria::logs::layer())
        .init();
    let mut app = match app::App::open(&root) {
        Ok(app) => app,
        Err(e) => {
            eprintln!("files: cannot open {}: {e}", root.display());
            return ExitCode::FAILURE;
        }
    };
    let mut terminal = ratatui::init();
    let result = app.run(&mut terminal);
    ratatui::restore();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("files: {e}");
            ExitCode::FAILURE
        }
    }
}
