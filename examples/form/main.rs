//! A sign-up form an agent can fill in. Run it with `cargo run --example form`, then
//! point an MCP host at it (`taria-mcp -- cargo run --example form`, see the README).
//!
//! Keys: `tab`/`↓` next field, `shift+tab`/`↑` previous, type to edit a text field,
//! `space` toggles the check box, `←`/`→` change the plan and the seats, `enter`
//! submits, `esc` quits (and `q`, outside text fields), asking first ("Leave the
//! form?", `y`/`n`) when something typed was not submitted.
//!
//! The controls are `taria-widgets`' `TextInput` (the password one redacted),
//! `Checkbox`, `Select`, `Slider` and `Button`: given an id, they take an agent's
//! `set_value`/`toggle`/`increment` into the app's own state with no app code. Each
//! control's own node also says whether it is required and focused and, after a
//! submit, whether it is invalid and why (the same message is drawn under it), so an
//! agent that finds an invalid node fixes it with `set_value` on that same id.
//!
//! `app.rs` has the state, the loop, the keys, the validation and the `#[action]`
//! handlers; `ui.rs` draws it, with `#[taria::widget]` attributes saying what each
//! part is.

mod app;
mod ui;

#[cfg(test)]
mod replay;
#[cfg(test)]
mod tests;

use tracing_subscriber::prelude::*;

fn main() -> std::io::Result<()> {
    // The app's log, for an agent through taria-mcp.
    tracing_subscriber::registry()
        .with(taria::logs::layer())
        .init();
    let mut terminal = ratatui::init();
    let result = app::App::new().run(&mut terminal);
    ratatui::restore();
    result
}
