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

fn main() -> std::io::Result<()> {
    log_to_file()?;
    let mut terminal = ratatui::init();
    let result = app::App::with_sample_tasks().run(&mut terminal);
    ratatui::restore();
    result
}

/// Sends taria's log to the file `TARIA_LOG_FILE` names, if set (the terminal is the
/// app's screen), filtered by `TARIA_LOG` (default: warnings).
fn log_to_file() -> std::io::Result<()> {
    let Some(path) = std::env::var_os("TARIA_LOG_FILE") else {
        return Ok(());
    };
    let file = std::fs::File::create(path)?;
    let filter = tracing_subscriber::EnvFilter::try_from_env("TARIA_LOG")
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::sync::Mutex::new(file))
        .with_ansi(false)
        .init();
    Ok(())
}
