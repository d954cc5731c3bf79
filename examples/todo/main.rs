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
//!
//! With `TARIA_LOG_FILE` set, taria's log goes to that file, filtered by `TARIA_LOG`
//! as `taria-mcp`'s is (`TARIA_LOG=taria::latency=trace` times each agent input's
//! steps through the app; `benches/mcp/act_latency.py --split` reads them).

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
    // result of an input that logged a warning or an error), and with
    // TARIA_LOG_FILE set, to that file too.
    tracing_subscriber::registry()
        .with(taria::logs::layer())
        .with(log_file()?)
        .init();
    let mut terminal = ratatui::init();
    let result = app::App::with_sample_tasks().run(&mut terminal);
    ratatui::restore();
    result
}

/// A layer writing taria's log to the file `TARIA_LOG_FILE` names, if set (the
/// terminal is the app's screen), filtered by `TARIA_LOG` (default: warnings).
fn log_file<S>() -> std::io::Result<Option<impl tracing_subscriber::Layer<S>>>
where
    S: tracing::Subscriber + for<'a> tracing_subscriber::registry::LookupSpan<'a>,
{
    let Some(path) = std::env::var_os("TARIA_LOG_FILE") else {
        return Ok(None);
    };
    let file = std::fs::File::create(path)?;
    let filter = tracing_subscriber::EnvFilter::try_from_env("TARIA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    Ok(Some(
        tracing_subscriber::fmt::layer()
            .with_writer(std::sync::Mutex::new(file))
            .with_ansi(false)
            .with_filter(filter),
    ))
}
