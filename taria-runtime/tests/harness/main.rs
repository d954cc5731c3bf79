//! `taria::testing::AppHarness`: an app driven headless through the same validation
//! and routing an agent's inputs take — handlers first, then key fallbacks into the
//! app's event handler — with the screen and tree showing each input's effect. One
//! test binary, by concern: a notes app driven as an agent drives it ([`inputs`]),
//! key fallbacks that select their item first ([`key_fallbacks`]), which handler an
//! input reaches ([`handlers`]), a widget taking an input ([`widgets`]), what the app
//! logs ([`logs`]).

mod accessibility;
mod focus_cycle;
mod handlers;
mod inputs;
mod key_fallbacks;
mod logs;
mod snapshot_pictures;
mod sort;
mod widgets;

/// The message of a panic a test caught (an assertion that failed as it should).
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    panic
        .downcast_ref::<String>()
        .cloned()
        .unwrap_or_else(|| panic.downcast_ref::<&str>().unwrap_or(&"?").to_string())
}
