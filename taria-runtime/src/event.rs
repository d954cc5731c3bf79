//! Drop-in replacements for crossterm's `event::poll` and `event::read` that merge
//! terminal events with the agent's key and text input.
//!
//! With a session installed on this thread (by `#[taria::app]` or
//! [`install`](crate::install)), agent keys arrive here as ordinary key events, in
//! order, after the app has handled the previous ones; when agent inputs wait to be
//! drained, `read` returns [`Event::FocusGained`] so the app's loop turns once (most
//! apps ignore that event). Without a session these are crossterm's own functions.

use std::io;
use std::time::Duration;

pub use ratatui::crossterm::event::Event;

use crate::session::with_current;

/// Reads the next event, blocking until there is one.
pub fn read() -> io::Result<Event> {
    match with_current(|session| session.next_event(None)) {
        Some(Ok(Some(event))) => Ok(event),
        Some(Ok(None)) => Ok(Event::FocusGained),
        Some(Err(error)) => Err(error),
        None => ratatui::crossterm::event::read(),
    }
}

/// Whether an event is ready within `timeout`; the next [`read`] returns it.
pub fn poll(timeout: Duration) -> io::Result<bool> {
    match with_current(|session| session.poll_event(timeout)) {
        Some(result) => result,
        None => ratatui::crossterm::event::poll(timeout),
    }
}
