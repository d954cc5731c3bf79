//! This thread's session: what `#[taria::app]` starts on its first draw, and what the
//! free functions [`drain`], [`with_session`] and [`crate::event`] use.

use std::cell::RefCell;

use super::{Session, terminal};
use crate::dispatch::Actions;

thread_local! {
    static CURRENT: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Makes `session` this thread's session, for [`drain`] and [`crate::event`].
/// Returns the one it replaces.
pub fn install(session: Session) -> Option<Session> {
    terminal::set_thread_signal(&session.events.signal);
    CURRENT.with(|current| current.borrow_mut().replace(session))
}

/// Runs `f` with this thread's session, if there is one and it is not in use.
pub(crate) fn with_current<R>(f: impl FnOnce(&mut Session) -> R) -> Option<R> {
    CURRENT.with(|current| {
        current
            .try_borrow_mut()
            .ok()
            .and_then(|mut s| s.as_mut().map(f))
    })
}

/// Runs `f` with this thread's session, starting one labelled `label` first if needed.
pub(crate) fn with_current_or_start<R>(
    label: &str,
    f: impl FnOnce(&mut Session) -> R,
) -> Option<R> {
    CURRENT.with(|current| {
        let mut current = current.try_borrow_mut().ok()?;
        let session = current.get_or_insert_with(|| {
            let session = Session::builder(label).start();
            terminal::set_thread_signal(&session.events.signal);
            session
        });
        Some(f(session))
    })
}

/// Runs `f` with this thread's session (started by `#[taria::app]` or [`install`]).
/// `None` when there is none, or while it is drawing.
///
/// ```
/// assert!(taria::with_session(|session| session.tree()).is_none());
/// ```
pub fn with_session<R>(f: impl FnOnce(&mut Session) -> R) -> Option<R> {
    with_current(f)
}

/// Handles the agent's queued inputs with this thread's session (see
/// [`Session::drain`]); does nothing without one. Returns how many were taken.
pub fn drain<A: Actions + ?Sized>(app: &mut A) -> usize {
    with_current(|session| session.drain(app)).unwrap_or(0)
}
