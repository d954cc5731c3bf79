//! Drop-in replacements for crossterm's `event::poll` and `event::read` that merge
//! terminal events with the agent's key and text input.
//!
//! With a session installed on this thread (by `#[taria::app]` or
//! [`install`](crate::session::install)), agent keys arrive here as ordinary key events, in
//! order, after the app has handled the previous ones; when agent inputs wait to be
//! drained, `read` returns [`Event::FocusGained`] so the app's loop turns once (most
//! apps ignore that event); so it does shortly after an agent's action, run in the
//! drain before a frame, changed the app, so that a loop condition the handler
//! changed is seen (an action run right after a read, where `#[taria::app]` puts a
//! drain, needs no such turn). Without a session these are crossterm's own
//! functions.
//!
//! The terminal is read on a background thread. An app that hands the terminal to
//! another program (an `$EDITOR`, a pager, a shell) holds a [`pause`] guard
//! meanwhile, so that program gets every key.

use std::io;
use std::sync::Arc;
use std::time::Duration;

pub use ratatui::crossterm::event::Event;

use crate::endpoint::Signal;
use crate::session::{last_from_agent, pause_reader, resume_reader, thread_signal, with_current};

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

/// Whether the event [`read`] returned last was an agent's key (sent with
/// `press_key`, `type_text`, or pressed for an action's key fallback) rather than the
/// terminal's. For keys that only make sense for a person at the terminal, such as
/// one that hands the terminal to `$EDITOR`, which an agent could not drive.
#[must_use]
pub fn from_agent() -> bool {
    last_from_agent()
}

/// Stops taria reading the terminal until the guard is dropped: for the time the app
/// hands the terminal to another program, which would otherwise lose keys to taria's
/// background reader. Returns once the reader has stopped (it checks every 50 ms).
/// Agent keys still queue up meanwhile and arrive after.
///
/// # Examples
///
/// ```no_run
/// # fn edit(path: &str) -> std::io::Result<()> {
/// ratatui::restore();
/// let status = {
///     let _paused = taria::event::pause();
///     std::process::Command::new("vi").arg(path).status()?
/// };
/// let _terminal = ratatui::init();
/// # let _ = status;
/// # Ok(())
/// # }
/// ```
///
/// Guards nest: the reader resumes when the last one is dropped. It works from
/// anywhere on the thread of the app's session, `#[action]` handlers included; a
/// reader that has not started yet starts paused. Without a session on this thread
/// it does nothing.
#[must_use = "the terminal is read again as soon as the guard is dropped"]
pub fn pause() -> Paused {
    let signal = thread_signal();
    if let Some(signal) = &signal {
        pause_reader(signal);
    }
    Paused { signal }
}

/// Keeps taria from reading the terminal while it lives (see [`pause`]).
pub struct Paused {
    signal: Option<Arc<Signal>>,
}

impl std::fmt::Debug for Paused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Paused")
            .field("stopped_reader", &self.stopped_reader())
            .finish()
    }
}

impl Paused {
    /// Whether this thread has a session whose terminal reader the guard holds.
    #[must_use]
    pub fn stopped_reader(&self) -> bool {
        self.signal.is_some()
    }
}

impl Drop for Paused {
    fn drop(&mut self) {
        if let Some(signal) = &self.signal {
            resume_reader(signal);
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_pause_taken_while_the_session_is_in_use_still_holds_its_reader() {
        let dir = std::env::temp_dir().join(format!("taria-pause-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let session = crate::session::Session::builder("pause")
            .socket(dir.join("app.sock"))
            .terminal_input(false)
            .start();
        drop(crate::session::install(session));
        // As inside an `#[action]` handler, which runs while `drain` holds the session:
        // the guard counts as a pause of the session's reader while it lives.
        let pause_count =
            |signal: &std::sync::Arc<crate::endpoint::Signal>| signal.wake.lock().unwrap().paused;
        let (held, during, after) = crate::session::with_current(|_| {
            let guard = super::pause();
            let signal = guard.signal.clone().expect("the session's signal");
            let during = pause_count(&signal);
            let held = guard.stopped_reader();
            drop(guard);
            (held, during, pause_count(&signal))
        })
        .expect("a current session");
        assert!(held);
        assert_eq!((during, after), (1, 0));
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn without_a_session_pausing_stops_nothing() {
        let paused = super::pause();
        assert!(!paused.stopped_reader());
        assert_eq!(format!("{paused:?}"), "Paused { stopped_reader: false }");
    }
}
