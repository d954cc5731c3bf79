//! A live system dashboard an agent can drive: three gauges, a CPU sparkline, a
//! network chart, a sortable and filterable table of 10,000 processes and a
//! scrolling log, all moving on a one-second timer (so an agent's `wait_for_change`
//! has something to see). The data is simulated from a fixed seed: every run shows
//! the same machine.
//!
//! Run it with `cargo run --example dashboard`, then point an MCP host at it (see
//! the README: `taria-mcp --app dashboard`), or press `F2` to see the semantic tree.
//!
//! Keys: `↑`/`↓` (`j`/`k`), `PgUp`/`PgDn`, `Home`/`End` select a process; `1`–`6`
//! sort by a column (again: reverse), `r` reverses; `/` filters by name, user or PID
//! (`Enter` keeps, `Esc` clears); `[`/`]` scroll the log (`]` to the bottom follows
//! it again); `p` pauses and resumes the timer; `F2` toggles the tree pane; `q` quits.
//!
//! What an agent gets: the gauges `cpu`, `memory`, `disk`; the charts `cpu-history`
//! and `network` (summaries); the table `processes` (rows on screen only; `select` a
//! row, `scroll`); the sort tabs `sort/<column>` (`select`, and `reverse` on `sort`);
//! the text input `filter` (`set_value`); the switch `live` (`toggle`); the `log`
//! (`scroll`); and the `status` line.
//!
//! `sim.rs` is the simulated machine, `app.rs` the state, loop and handlers, `ui.rs`
//! the drawing; `replay.rs` replays the e2e agent's recorded session
//! (`recordings/`).

mod app;
#[cfg(test)]
mod replay;
mod sim;
#[path = "../tree_pane.rs"]
mod tree_pane;
mod ui;

#[cfg(test)]
mod tests;

use tracing_subscriber::prelude::*;

fn main() -> std::io::Result<()> {
    // The app's log, for an agent through taria-mcp.
    tracing_subscriber::registry()
        .with(taria::logs::layer())
        .init();
    let mut terminal = ratatui::init();
    let result = app::App::new(app::SEED).run(&mut terminal);
    ratatui::restore();
    result
}
