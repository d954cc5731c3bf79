//! [`Session`]: the app's side of taria on its UI thread, split by concern:
//!
//! * `builder.rs`: the one way to start it ([`Session::builder`]), start errors;
//! * `transport.rs`: the consumer's connection (the socket endpoint, or in-process
//!   for `AppHarness`) behind one interface;
//! * `record.rs`: recording each frame while a consumer is connected, publishing it;
//! * `drain.rs`: taking the agent's inputs one at a time, in order, each against a
//!   frame drawn after the one before it;
//! * `answer.rs`: the one way an input's answer goes out (counted as handled, then
//!   sent over the transport);
//! * `route.rs`: where an input goes (handler, widget, key fallback, ignored);
//! * `events.rs`: the merge of the agent's keys and the terminal's events that
//!   [`crate::event`] reads;
//! * `assistive.rs`: a screen reader's side (the AT-SPI export of cargo feature
//!   `atspi`), whose actions are inputs too;
//! * `terminal.rs`: the thread that reads the terminal, paused while the app hands the
//!   terminal to another program;
//! * `current.rs`: the thread's session behind the free functions `#[taria::app]`
//!   generates calls to.
//!
//! The handler API the router calls is `dispatch.rs` at the crate root.
//!
//! `drain` is a method of an owned `Session`, not a free function over global state (the
//! design brief's `drain(&mut app)`): an app with its own loop owns its session and needs
//! no thread-local state. The thread-local current session (`current.rs`) only backs the
//! free functions `taria::drain`, `taria::draw` and `taria::event::*` that
//! `#[taria::app]` generates calls to.

mod answer;
mod assistive;
mod builder;
mod current;
mod drain;
mod events;
mod publish;
mod route;
mod terminal;
mod transport;

pub use builder::SessionBuilder;
pub use current::{drain, drain_with, draw, install, with_session};
pub(crate) use current::{record, with_current, with_current_or_start};
pub use publish::{DrawOutput, FrameEnd};
pub use route::{agent_changed, take_widget_actions, widget_state, widget_state_rebuilt};
pub(crate) use terminal::{last_from_agent, pause_reader, resume_reader, thread_signal};
pub(crate) use transport::InProcess;

use std::path::Path;
use std::sync::Arc;

use ratatui::crossterm::event::Event;

use taria_schema::Tree;

use crate::logs::{LogHub, LogSink};
use crate::recorder::Recorder;
use answer::{Answer, Answers};
use builder::StartError;
use events::{Events, KeyEnd, PendingEvent};
use route::Router;
use transport::Transport;

/// taria's side of an app: a recorder, the consumer's transport, the router of its
/// inputs and the merge of its keys with the terminal's.
///
/// Most apps never name it: `#[taria::app]` starts one for the UI thread. Apps with
/// their own loop (async, tokio) start it with [`Session::builder`] and call
/// [`Session::draw`] and [`Session::drain`] (or [`install`] it and use the free
/// functions [`drain`](crate::session::drain), [`draw`](crate::session::draw) and [`crate::event`]).
///
/// If the endpoint cannot start (label in use, no runtime directory), the app runs
/// exactly as before (see [`SessionBuilder::start`]).
///
/// # Examples
///
/// A loop of its own: the agent's inputs, then the frame. No bridge is connected
/// here, so the session is told to record anyway, to read the frame's tree.
///
/// ```
/// use ratatui::{Terminal, backend::TestBackend};
/// use taria::{Role, Session};
///
/// let dir = std::env::temp_dir().join(format!("taria-doc-{}-session", std::process::id()));
/// let mut session = Session::builder("notes")
///     .socket(dir.join("notes.sock"))
///     .terminal_input(false) // a test: no terminal to read
///     .start();
/// assert!(session.start_error().is_none() && !session.is_connected());
/// session.set_always_record(true);
///
/// let mut terminal = Terminal::new(TestBackend::new(20, 1))?;
/// assert_eq!(session.drain(&mut ()), 0, "no agent, no inputs");
/// session.draw(&mut terminal, |frame| {
///     frame.render_widget("Ready", frame.area());
///     taria::leaf(|n| {
///         n.role(Role::Status).id("status").label("Ready").bounds(frame.area());
///     });
/// })?;
/// assert_eq!(session.tree().get("status").unwrap().label.as_deref(), Some("Ready"));
/// # drop(session);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Session {
    label: String,
    recorder: Recorder,
    /// Record even with no consumer connected.
    always_record: bool,
    /// `None` when the endpoint could not start.
    transport: Option<Arc<dyn Transport>>,
    start_error: Option<StartError>,
    events: Events,
    router: Router,
    inputs: drain::Inputs,
    answers: Answers,
    /// The tree exported to screen readers (cargo feature `atspi`).
    assistive: assistive::Assistive,
}

/// An app whose endpoint could not start hears why when the session ends (see
/// [`SessionBuilder::start`]): one line on stderr, after a `#[taria::app]` app has
/// restored the terminal (the thread's session ends with the thread).
impl Drop for Session {
    fn drop(&mut self) {
        self.report_start_error();
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("label", &self.label)
            .field("socket", &self.socket_path())
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Sets up a session for the app labelled `label`; start it with
    /// [`SessionBuilder::start`] or [`SessionBuilder::try_start`].
    ///
    /// # Examples
    ///
    /// ```
    /// let session = taria::Session::builder("not a label!").start();
    /// assert!(session.start_error().is_some());
    /// ```
    pub fn builder(label: &str) -> SessionBuilder {
        SessionBuilder::new(label)
    }

    fn new(
        label: String,
        transport: Option<Arc<dyn Transport>>,
        events: Events,
        logs: Option<Arc<LogSink>>,
        assistive: assistive::Assistive,
    ) -> Session {
        Session {
            label,
            recorder: Recorder::new(),
            always_record: false,
            answers: Answers::new(transport.clone(), logs),
            transport,
            start_error: None,
            events,
            router: Router::default(),
            inputs: drain::Inputs::default(),
            assistive,
        }
    }

    /// A session whose consumer is in this process: the test harness's, which takes
    /// the entries `logs` captures.
    pub(crate) fn in_process(label: &str, logs: Option<&Arc<LogHub>>) -> (Session, Arc<InProcess>) {
        SessionBuilder::new(label).in_process(logs)
    }

    /// The app's label.
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The socket path, when the endpoint is up.
    #[must_use]
    pub fn socket_path(&self) -> Option<&Path> {
        self.transport.as_deref().and_then(Transport::path)
    }

    /// Why the endpoint did not start, if it did not. An app that shows this itself
    /// (e.g. in a status line) can call [`Session::take_start_error`] instead, so the
    /// session does not print it when it ends.
    #[must_use]
    pub fn start_error(&self) -> Option<&str> {
        self.start_error.as_ref().map(|e| e.message.as_str())
    }

    /// Takes why the endpoint did not start: the app reports it, the session will not.
    pub fn take_start_error(&mut self) -> Option<String> {
        self.start_error.take().map(|e| e.message)
    }

    /// Whether a bridge is connected now (frames are recorded only then).
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.transport
            .as_deref()
            .is_some_and(Transport::is_connected)
    }

    /// The tree of the last recorded frame.
    #[must_use]
    pub fn tree(&self) -> Tree {
        self.recorder.tree()
    }

    /// The connection whose inputs count now (0: none), read without a lock.
    fn live_connection(&self) -> u64 {
        self.transport.as_deref().map_or(0, Transport::live)
    }

    /// Says the app reads its events (so key inputs are queued for it) without it
    /// calling [`crate::event`]: a harness hands the events over itself.
    pub(crate) fn set_reads_events(&mut self) {
        self.events.app_reads = true;
    }

    /// The next queued agent key event, without waiting or reading the terminal
    /// (a harness hands these to the app itself).
    pub(crate) fn next_agent_event(&mut self) -> Option<Event> {
        let event = self.events.pop_pending(self.live_connection())?;
        Some(self.deliver(event))
    }

    /// The next event for the app: agent keys first, then terminal events; a
    /// `FocusGained` event when agent inputs wait to be drained (so the loop turns).
    /// `None` when `timeout` passes first.
    pub fn next_event(
        &mut self,
        timeout: Option<std::time::Duration>,
    ) -> std::io::Result<Option<Event>> {
        if let Some(event) = self.take_event(timeout)? {
            return Ok(Some(self.deliver(event)));
        }
        Ok(None)
    }

    /// Whether an event is ready within `timeout` (it is kept for the next read).
    pub fn poll_event(&mut self, timeout: std::time::Duration) -> std::io::Result<bool> {
        if !self.events.has_peeked() {
            let event = self.take_event(Some(timeout))?;
            return Ok(self.events.peek(event));
        }
        Ok(true)
    }

    fn take_event(
        &mut self,
        timeout: Option<std::time::Duration>,
    ) -> std::io::Result<Option<PendingEvent>> {
        let wake_by = self.settle_by().into_iter().chain(self.recheck_by()).min();
        let transport = self.transport.clone();
        let live = || transport.as_deref().map_or(0, Transport::live);
        let event = self.events.take(timeout, wake_by, &live)?;
        if event.is_some() {
            self.loop_turned();
        }
        Ok(event)
    }

    /// Hands an event to the app; reading an input's last key completes the input,
    /// reading a key fallback's last navigation key turns the loop (the frame it
    /// draws next is checked before the fallback's own keys are pressed).
    fn deliver(&mut self, event: PendingEvent) -> Event {
        terminal::set_last_from_agent(event.input.is_some());
        if let Some(key) = event.input
            && key.connection == self.answers.connection()
        {
            match key.ends {
                KeyEnd::Input => {
                    self.answers.send(key.seq, Answer::delivered());
                }
                KeyEnd::Stage => self.events.signal.poke(),
                KeyEnd::Nothing => {}
            }
        }
        event.event
    }
}
