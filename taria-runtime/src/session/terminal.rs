//! The terminal-input thread: reads terminal events into the app's queue, and stops
//! touching the terminal while the app has paused it ([`crate::event::pause`]).

use std::io;
use std::time::{Duration, Instant};

use ratatui::crossterm::event::{self, Event};

use crate::endpoint::Signal;
use crate::lock::lock;

/// How long the reader waits for input before it looks whether the app paused it:
/// what [`pause_reader`] may have to wait for.
pub(crate) const READ_SLICE: Duration = Duration::from_millis(50);

/// Where terminal events come from: crossterm, or a test's stand-in.
pub(crate) trait TerminalEvents {
    /// Whether an event is ready within `timeout`.
    fn poll(&mut self, timeout: Duration) -> io::Result<bool>;
    /// The ready event.
    fn read(&mut self) -> io::Result<Event>;
}

/// The terminal, through crossterm.
pub(crate) struct Crossterm;

impl TerminalEvents for Crossterm {
    fn poll(&mut self, timeout: Duration) -> io::Result<bool> {
        event::poll(timeout)
    }

    fn read(&mut self) -> io::Result<Event> {
        event::read()
    }
}

/// Reads events into `signal`'s queue until the terminal fails. While paused it waits
/// without touching the terminal: crossterm reads the terminal in `poll` too, so it
/// must not even poll.
pub(crate) fn read_terminal(signal: &Signal, events: &mut impl TerminalEvents) {
    lock(&signal.wake).reader_running = true;
    loop {
        {
            let mut wake = lock(&signal.wake);
            while wake.paused > 0 {
                wake.reader_parked = true;
                signal.cond.notify_all();
                wake = signal
                    .cond
                    .wait(wake)
                    .unwrap_or_else(std::sync::PoisonError::into_inner);
            }
            wake.reader_parked = false;
        }
        let event = match events.poll(READ_SLICE) {
            Ok(false) => continue,
            // Paused meanwhile: leave the event for after the pause.
            Ok(true) if lock(&signal.wake).paused > 0 => continue,
            Ok(true) => events.read(),
            Err(error) => Err(error),
        };
        let mut wake = lock(&signal.wake);
        match event {
            Ok(event) => wake.terminal.push_back(event),
            Err(error) => {
                wake.terminal_error = Some(error);
                wake.reader_running = false;
                drop(wake);
                signal.cond.notify_all();
                return;
            }
        }
        drop(wake);
        signal.cond.notify_all();
    }
}

/// Asks the reader to stop and, if it runs, waits (at most four read slices) until it
/// has. A reader that starts later parks before it first touches the terminal.
/// Pauses nest: each needs its [`resume_reader`].
pub(crate) fn pause_reader(signal: &Signal) {
    let mut wake = lock(&signal.wake);
    wake.paused += 1;
    signal.cond.notify_all();
    let deadline = Instant::now() + READ_SLICE * 4;
    while wake.reader_running && !wake.reader_parked {
        let now = Instant::now();
        if now >= deadline {
            break;
        }
        wake = signal
            .cond
            .wait_timeout(wake, deadline - now)
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .0;
    }
}

thread_local! {
    /// The signal of this thread's current session, for [`crate::event::pause`]:
    /// reachable while the session itself is borrowed (inside an `#[action]` handler).
    static THREAD_SIGNAL: std::cell::RefCell<Option<std::sync::Arc<Signal>>> =
        const { std::cell::RefCell::new(None) };
    /// Whether the event `taria::event::read` returned last came from an agent.
    static LAST_FROM_AGENT: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Makes `signal` this thread's, for pauses.
pub(crate) fn set_thread_signal(signal: &std::sync::Arc<Signal>) {
    THREAD_SIGNAL.with(|slot| *slot.borrow_mut() = Some(std::sync::Arc::clone(signal)));
}

/// This thread's session's signal, if it has a session.
pub(crate) fn thread_signal() -> Option<std::sync::Arc<Signal>> {
    THREAD_SIGNAL.with(|slot| slot.borrow().clone())
}

/// Notes where the event being handed to the app came from.
pub(crate) fn set_last_from_agent(from_agent: bool) {
    LAST_FROM_AGENT.with(|last| last.set(from_agent));
}

/// Whether the last event handed to the app came from an agent.
pub(crate) fn last_from_agent() -> bool {
    LAST_FROM_AGENT.with(std::cell::Cell::get)
}

/// Ends one pause; the reader reads again when none is left.
pub(crate) fn resume_reader(signal: &Signal) {
    let mut wake = lock(&signal.wake);
    wake.paused = wake.paused.saturating_sub(1);
    drop(wake);
    signal.cond.notify_all();
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

    use ratatui::crossterm::event::{KeyCode, KeyEvent};

    use super::*;

    /// A terminal that has a key ready every poll, counts polls, and fails once told to.
    struct Keys {
        polls: Arc<AtomicUsize>,
        fail: Arc<AtomicBool>,
    }

    impl TerminalEvents for Keys {
        fn poll(&mut self, _: Duration) -> io::Result<bool> {
            self.polls.fetch_add(1, Ordering::SeqCst);
            if self.fail.load(Ordering::SeqCst) {
                return Err(io::Error::other("closed"));
            }
            std::thread::sleep(Duration::from_millis(1));
            Ok(true)
        }

        fn read(&mut self) -> io::Result<Event> {
            Ok(Event::Key(KeyEvent::from(KeyCode::Char('k'))))
        }
    }

    /// A reader thread on a [`Keys`] terminal: its poll count, its "fail now"
    /// switch, and the thread.
    fn start_reader(
        signal: &Arc<Signal>,
    ) -> (
        Arc<AtomicUsize>,
        Arc<AtomicBool>,
        std::thread::JoinHandle<()>,
    ) {
        let polls = Arc::new(AtomicUsize::new(0));
        let fail = Arc::new(AtomicBool::new(false));
        let mut keys = Keys {
            polls: Arc::clone(&polls),
            fail: Arc::clone(&fail),
        };
        let signal = Arc::clone(signal);
        let reader = std::thread::spawn(move || read_terminal(&signal, &mut keys));
        (polls, fail, reader)
    }

    fn polls_settle(polls: &AtomicUsize) -> usize {
        std::thread::sleep(Duration::from_millis(100));
        polls.load(Ordering::SeqCst)
    }

    #[test]
    fn a_paused_reader_does_not_touch_the_terminal_until_the_last_pause_ends() {
        let signal = Arc::new(Signal::default());
        let (polls, fail, reader) = start_reader(&signal);
        let deadline = Instant::now() + Duration::from_secs(5);
        while polls.load(Ordering::SeqCst) == 0 {
            assert!(Instant::now() < deadline, "the reader never started");
            std::thread::sleep(Duration::from_millis(1));
        }

        pause_reader(&signal);
        assert!(
            lock(&signal.wake).reader_parked,
            "pause returns once parked"
        );
        let parked_at = polls.load(Ordering::SeqCst);
        assert_eq!(polls_settle(&polls), parked_at, "no poll while paused");

        // A second pause; ending the first one does not wake the reader.
        pause_reader(&signal);
        resume_reader(&signal);
        assert_eq!(polls_settle(&polls), parked_at, "one pause is still alive");

        let queued = lock(&signal.wake).terminal.len();
        resume_reader(&signal);
        let deadline = Instant::now() + Duration::from_secs(5);
        while lock(&signal.wake).terminal.len() == queued {
            assert!(Instant::now() < deadline, "the reader never read again");
            std::thread::sleep(Duration::from_millis(5));
        }

        fail.store(true, Ordering::SeqCst);
        reader.join().unwrap();
        assert!(lock(&signal.wake).terminal_error.is_some());
        // With the reader gone, a pause does not wait for it.
        let started = Instant::now();
        pause_reader(&signal);
        assert!(started.elapsed() < READ_SLICE * 4);
    }

    #[test]
    fn a_reader_started_during_a_pause_waits_for_it_to_end() {
        let signal = Arc::new(Signal::default());
        pause_reader(&signal);
        let (polls, fail, reader) = start_reader(&signal);
        assert_eq!(
            polls_settle(&polls),
            0,
            "it parks before touching the terminal"
        );
        fail.store(true, Ordering::SeqCst);
        resume_reader(&signal);
        reader.join().unwrap();
        assert_eq!(polls.load(Ordering::SeqCst), 1);
    }
}
