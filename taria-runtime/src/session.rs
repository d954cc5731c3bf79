//! [`Session`]: the app's side of taria on its UI thread. It records each frame
//! while a bridge is connected, publishes it to the endpoint, and turns queued agent
//! inputs into handler calls or key presses for the app's own input path.

mod route;
mod terminal;
mod widget_route;

pub(crate) use terminal::{last_from_agent, pause_reader, resume_reader, thread_signal};
pub use widget_route::take_widget_actions;

use std::cell::RefCell;
use std::collections::VecDeque;
use std::io::IsTerminal as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::Event;
use ratatui::{CompletedFrame, Frame, Terminal};

use crate::endpoint::{Endpoint, EndpointError, QueuedInput, Signal};
use crate::wire::{AckStatus, AppMessage, Input, RejectReason};
use crate::{Actions, Outcome, Recorder, Tree};

/// How a session is set up.
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct SessionOptions {
    /// Bind here instead of the path [`socket_path`](crate::wire::socket_path) resolves.
    pub socket: Option<PathBuf>,
    /// Read terminal events (on a background thread) in [`crate::event`]. Turn off
    /// for headless apps and tests, where only agent input arrives.
    pub terminal_input: bool,
}

impl SessionOptions {
    /// Binds at `path` instead of the resolved socket path.
    #[must_use]
    pub fn socket(mut self, path: impl Into<PathBuf>) -> SessionOptions {
        self.socket = Some(path.into());
        self
    }

    /// Whether [`crate::event`] also reads terminal events.
    #[must_use]
    pub fn terminal_input(mut self, on: bool) -> SessionOptions {
        self.terminal_input = on;
        self
    }
}

impl Default for SessionOptions {
    fn default() -> Self {
        SessionOptions {
            socket: None,
            terminal_input: true,
        }
    }
}

/// Why a session's endpoint did not start.
struct StartError {
    message: String,
    /// Printed already (see [`Session::report_start_error`]).
    reported: bool,
}

/// How long inputs wait behind one that may have changed the app when the app
/// draws no frame after it (see [`Session::drain`]).
const SETTLE_WITHOUT_FRAME: Duration = Duration::from_secs(1);

/// The connection number a headless session's inputs belong to.
const HEADLESS_CONNECTION: u64 = 1;

/// An event the app reads from [`crate::event`], with the input it belongs to.
struct PendingEvent {
    event: Event,
    /// The agent's input this key is part of (`None`: not an agent's key).
    input: Option<AgentKey>,
}

/// Which agent input a queued key press belongs to.
#[derive(Clone, Copy)]
struct AgentKey {
    connection: u64,
    seq: u64,
    /// Reading this key finishes the input (it is the input's last key).
    completes: bool,
}

/// taria's side of an app: a recorder, the endpoint, and the agent's pending keys.
///
/// Most apps never name it: `#[taria::app]` starts one for the UI thread. Apps with
/// their own loop (async, tokio) create it with [`Session::start`] and call
/// [`Session::draw`] and [`Session::drain`] (or [`install`] it and use the free
/// functions [`drain`](crate::drain) and [`crate::event`]).
///
/// If the endpoint cannot start (label in use, no runtime directory), the app runs
/// exactly as before; the session logs a `tracing` warning and prints one line on
/// stderr saying why and what to do — when it ends (for `#[taria::app]`, after the
/// app has restored the terminal), or at once when stderr is not a terminal.
pub struct Session {
    label: String,
    recorder: Recorder,
    endpoint: Option<Endpoint>,
    start_error: Option<StartError>,
    signal: Arc<Signal>,
    options: SessionOptions,
    pending: VecDeque<PendingEvent>,
    peeked: Option<PendingEvent>,
    /// The connection `handled` counts for.
    connection: u64,
    /// The newest input of `connection` whose handling is complete.
    handled: u64,
    /// Whether the app reads events through [`crate::event`] (so keys can reach it).
    reads_events: bool,
    terminal_thread: bool,
    inbox: VecDeque<QueuedInput>,
    always_record: bool,
    /// Actions held for the next frame's widgets.
    widget_actions: Vec<widget_route::WidgetAction>,
    /// The newest input a widget took while the last frame was drawn (0: none): it
    /// counts as handled from the frame after, which the app is owed (see
    /// [`Session::record`]).
    taken_in_last_frame: u64,
    /// Answers of a headless session (no endpoint): what a test harness reads.
    local_answers: Option<Vec<AppMessage>>,
    /// The last input number handed out by [`Session::submit`].
    local_seq: u64,
    /// Since when an input taken may have changed the app (a handler took it, it
    /// was held for the widgets, or its keys were queued): the inputs after it wait
    /// in `inbox` for a frame drawn after its effect, and are validated against that
    /// frame (a dialog the first one opened, a node it removed).
    settling: Option<Instant>,
}

/// An app whose endpoint could not start hears why when the session ends (see
/// [`Session::start`]): one line on stderr, after a `#[taria::app]` app has
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
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

impl Session {
    /// Starts a session for the app labelled `label`; never fails (see [`Session::try_start`]).
    #[must_use]
    pub fn start(label: &str) -> Session {
        Session::start_with(label, SessionOptions::default())
    }

    /// Like [`Session::start`] with options.
    #[must_use]
    pub fn start_with(label: &str, options: SessionOptions) -> Session {
        match Session::try_start_with(label, options.clone()) {
            Ok(session) => session,
            Err(error) => {
                tracing::warn!(%error, "taria: agent access is off for this run");
                let mut session = Session::detached(label, options);
                session.start_error = Some(StartError {
                    message: error.to_string(),
                    reported: false,
                });
                // The app's screen is the terminal: say it now only when stderr goes
                // elsewhere (a log file); otherwise when the session ends, which for
                // `#[taria::app]` is after the app has restored the terminal.
                if !std::io::stderr().is_terminal() {
                    session.report_start_error();
                }
                session
            }
        }
    }

    /// Starts a session, or says why its endpoint cannot start.
    pub fn try_start(label: &str) -> Result<Session, EndpointError> {
        Session::try_start_with(label, SessionOptions::default())
    }

    /// Like [`Session::try_start`] with options.
    pub fn try_start_with(label: &str, options: SessionOptions) -> Result<Session, EndpointError> {
        let mut session = Session::detached(label, options);
        let signal = Arc::clone(&session.signal);
        session.endpoint = Some(match &session.options.socket {
            Some(path) => Endpoint::bind_at(label, path, signal)?,
            None => Endpoint::bind(label, signal)?,
        });
        Ok(session)
    }

    fn detached(label: &str, options: SessionOptions) -> Session {
        Session {
            label: label.to_owned(),
            recorder: Recorder::new(),
            endpoint: None,
            start_error: None,
            signal: Arc::new(Signal::default()),
            options,
            pending: VecDeque::new(),
            peeked: None,
            connection: 0,
            handled: 0,
            reads_events: false,
            terminal_thread: false,
            inbox: VecDeque::new(),
            always_record: false,
            widget_actions: Vec::new(),
            taken_in_last_frame: 0,
            local_answers: None,
            local_seq: 0,
            settling: None,
        }
    }

    /// A session with no endpoint whose inputs come from [`Session::submit`] and
    /// whose answers are read back with [`Session::take_answer`]: the test harness's.
    /// It records every frame.
    pub(crate) fn headless(label: &str) -> Session {
        let mut session = Session::detached(label, SessionOptions::default().terminal_input(false));
        session.local_answers = Some(Vec::new());
        session.connection = HEADLESS_CONNECTION;
        session.always_record = true;
        session
    }

    /// Queues an input as if an agent had sent it (headless sessions); returns its
    /// number for [`Session::take_answer`].
    pub(crate) fn submit(&mut self, input: Input) -> u64 {
        self.local_seq += 1;
        self.inbox.push_back(QueuedInput {
            connection: self.connection,
            seq: self.local_seq,
            input,
        });
        self.local_seq
    }

    /// The answer to input `seq` of a headless session, once there is one.
    pub(crate) fn take_answer(&mut self, seq: u64) -> Option<AppMessage> {
        let answers = self.local_answers.as_mut()?;
        let at = answers
            .iter()
            .position(|m| matches!(m, AppMessage::Ack { seq: s, .. } if *s == seq))?;
        Some(answers.remove(at))
    }

    /// Says the app reads its events (so key inputs are queued for it) without it
    /// calling [`crate::event`]: a harness hands the events over itself.
    pub(crate) fn set_reads_events(&mut self) {
        self.reads_events = true;
    }

    /// The next queued agent key event, without waiting or reading the terminal
    /// (headless sessions hand these to the app themselves).
    pub(crate) fn next_agent_event(&mut self) -> Option<Event> {
        let event = self.pop_pending()?;
        Some(self.deliver(event))
    }

    /// Answers input `seq` of `connection`; a delivered input counts as handled (the
    /// next published frame is stamped with it). Returns whether it was delivered.
    fn answer(&mut self, connection: u64, seq: u64, answer: Answer) -> bool {
        let delivered = answer.status == AckStatus::Delivered;
        if delivered {
            self.handled = self.handled.max(seq);
        }
        self.send(connection, answer.into_message(seq));
        delivered
    }

    /// Sends an answer to `connection`: over the endpoint, or into the headless
    /// answer list.
    fn send(&mut self, connection: u64, message: AppMessage) {
        if let Some(endpoint) = &self.endpoint {
            endpoint.shared.send(connection, message);
        } else if let Some(answers) = &mut self.local_answers {
            answers.push(message);
        }
    }

    /// The app's label.
    #[must_use]
    pub fn label(&self) -> &str {
        &self.label
    }

    /// The socket path, when the endpoint is up.
    #[must_use]
    pub fn socket_path(&self) -> Option<&Path> {
        self.endpoint.as_ref().map(Endpoint::path)
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

    /// Prints why the endpoint did not start, once, as one line on stderr.
    fn report_start_error(&mut self) {
        if let Some(error) = &mut self.start_error
            && !std::mem::replace(&mut error.reported, true)
        {
            eprintln!(
                "taria: agent access was off for this run: {}",
                error.message
            );
        }
    }

    /// Whether a bridge is connected now (frames are recorded only then).
    #[must_use]
    pub fn is_connected(&self) -> bool {
        self.endpoint.as_ref().is_some_and(Endpoint::is_connected)
    }

    /// The tree of the last recorded frame.
    #[must_use]
    pub fn tree(&self) -> Tree {
        self.recorder.tree()
    }

    /// Records every frame, even with no bridge connected (for an in-app inspector or
    /// logging the tree). Off by default: then recording costs nothing until a bridge
    /// connects.
    pub fn set_always_record(&mut self, on: bool) {
        self.always_record = on;
    }

    /// Draws a frame: recorded and published when a bridge is connected, a plain
    /// `terminal.draw` otherwise.
    pub fn draw<'t, B: Backend>(
        &mut self,
        terminal: &'t mut Terminal<B>,
        render: impl FnOnce(&mut Frame<'_>),
    ) -> Result<CompletedFrame<'t>, B::Error> {
        self.record(|| terminal.draw(render))
    }

    /// Runs a draw (anything returning a ratatui `CompletedFrame`, or a `Result` of
    /// one), recording and publishing it when a bridge is connected.
    ///
    /// An agent input that a stateful widget takes while this frame is drawn is
    /// answered at once, but the tree the agent gets back as its effect is the next
    /// frame's: this one was partly drawn before the widget changed its state, and
    /// the app has not yet seen the change (to validate a field, say). The app's
    /// event wait then returns at once (an `Event::FocusGained`: [`Session::drain`]
    /// woke it when it held the input for the widgets), so its loop draws that frame.
    /// A loop that draws only when its own state changed must draw on that event too,
    /// or check [`Session::redraw_owed`]. This frame is stamped below every input held
    /// for its widgets, even when a handler took a later input in the same turn.
    pub fn record<R: DrawOutput>(&mut self, draw: impl FnOnce() -> R) -> R {
        self.taken_in_last_frame = 0;
        let connected = self.is_connected();
        self.recorder.set_enabled(connected || self.always_record);
        let mut actions = std::mem::take(&mut self.widget_actions);
        let first_held = actions
            .iter()
            .filter(|a| a.connection == self.connection)
            .map(|a| a.seq)
            .min();
        let output = {
            let _lent = widget_route::Lent::new(&mut actions);
            self.recorder.record(draw)
        };
        if actions.is_empty() {
            // Hand the vector back so its capacity is kept from frame to frame.
            self.widget_actions = actions;
        } else {
            self.settle_widget_actions(actions);
        }
        if connected && let Some(buffer) = output.buffer() {
            self.publish(buffer, first_held);
        }
        // Counts from the next frame on. No need to wake the loop for it: `drain`
        // already did when it held these actions for the widgets, so the event read
        // after this frame returns at once and the loop draws again.
        self.handled = self.handled.max(self.taken_in_last_frame);
        self.settle();
        output
    }

    /// Ends `settling` once the frame just drawn shows every effect of the inputs
    /// taken so far (no keys of theirs left to read, no action held for a widget, no
    /// frame owed), and wakes the loop when more inputs wait for it.
    fn settle(&mut self) {
        if self.settling.is_some() && self.effects_taken() {
            self.settling = None;
            if !self.inbox.is_empty() {
                self.signal.poke();
            }
        }
    }

    /// Whether the app has taken every effect of the inputs so far: it has read
    /// their keys, and no action waits for a widget or owes a frame.
    fn effects_taken(&self) -> bool {
        let agent_keys_left = self.pending.iter().any(|p| p.input.is_some())
            || self.peeked.as_ref().is_some_and(|p| p.input.is_some());
        !agent_keys_left && self.widget_actions.is_empty() && self.taken_in_last_frame == 0
    }

    /// A loop that draws only when its own state changed may not draw after an
    /// input that changed nothing it shows: then, once the effects are taken and
    /// [`SETTLE_WITHOUT_FRAME`] has passed, the frame it last drew is taken to show
    /// them, so the inputs after it are not held back forever.
    fn settle_without_frame(&mut self) {
        if let Some(since) = self.settling
            && since.elapsed() >= SETTLE_WITHOUT_FRAME
            && self.effects_taken()
        {
            tracing::debug!(
                "taria: no frame drawn after an input; the next is checked against the last one"
            );
            self.settling = None;
        }
    }

    /// Whether the last frame had a widget take an agent input, so the app should
    /// draw once more for the input's effect to be complete (see
    /// [`Session::record`]); a loop reading events through [`crate::event`] does so
    /// without asking.
    #[must_use]
    pub fn redraw_owed(&self) -> bool {
        self.taken_in_last_frame > 0
    }

    /// Hands the frame just recorded to the endpoint's writer, stamped with the newest
    /// input handled before it, kept below `first_held` (the first input held for this
    /// frame's widgets: its effect is the next frame).
    fn publish(&mut self, buffer: &Buffer, first_held: Option<u64>) {
        let Some(endpoint) = &self.endpoint else {
            return;
        };
        let shared = Arc::clone(&endpoint.shared);
        let mut state = shared.lock();
        if state.connection == 0 {
            return;
        }
        if state.connection != self.connection {
            self.switch_connection(state.connection);
        }
        state.frame.arena.copy_from(self.recorder.arena());
        state.frame.buffer.clone_from(buffer);
        state.frame.input = match first_held {
            Some(first) => self.handled.min(first.saturating_sub(1)),
            None => self.handled,
        };
        state.frame.fresh = true;
        state.frame.any = true;
        drop(state);
        shared.writer.notify_all();
    }

    /// Answers the actions held for the frame just drawn: taken by a widget, or else
    /// pressed through the node's key fallback, or else ignored.
    fn settle_widget_actions(&mut self, mut actions: Vec<widget_route::WidgetAction>) {
        for action in actions.drain(..) {
            if action.connection != self.connection {
                continue;
            }
            let answer = match (action.outcome, action.fallback) {
                (Some(Outcome::Handled), _) => {
                    // Answered now; counted as handled from the next frame on.
                    self.send(
                        action.connection,
                        Answer::delivered().into_message(action.seq),
                    );
                    self.taken_in_last_frame = self.taken_in_last_frame.max(action.seq);
                    None
                }
                (Some(Outcome::Rejected(reason)), _) => {
                    Some(Answer::rejected(RejectReason::HandlerRejected, reason))
                }
                (_, Ok(Some(keys))) => self.press(action.connection, action.seq, &keys),
                (_, Ok(None)) => Some(Answer::ignored(format!(
                    "nothing in the app takes `{action}` on `{node}`: no handler, no widget, no key fallback \
                     (the app can add #[action(node = \"{node}\", {action})] or actions({action} = key(\"…\")))",
                    action = action.action,
                    node = action.target,
                ))),
                (_, Err(message)) => Some(Answer::ignored(message)),
            };
            if let Some(answer) = answer {
                self.answer(action.connection, action.seq, answer);
            }
        }
        // Hand the (empty) vector back to keep its capacity.
        self.widget_actions = actions;
    }

    /// Inputs belong to their connection: a new one starts with none pending.
    fn switch_connection(&mut self, connection: u64) {
        self.connection = connection;
        self.handled = 0;
        self.taken_in_last_frame = 0;
        self.widget_actions.clear();
        self.settling = None;
        self.inbox.retain(|queued| queued.connection == connection);
        self.pending.retain(|p| p.input.is_none());
        if self.peeked.as_ref().is_some_and(|p| p.input.is_some()) {
            self.peeked = None;
        }
    }

    /// Handles the agent's queued inputs: each action is validated against the last
    /// drawn tree, then given to `app`'s handler, else turned into key presses from
    /// the node's key fallback; keys and text go to the app's input path
    /// ([`crate::event`]). Each input is answered once. Returns how many inputs were
    /// taken. Call it once per loop turn, before drawing.
    pub fn drain<A: Actions + ?Sized>(&mut self, app: &mut A) -> usize {
        self.take_queued();
        self.settle_without_frame();
        let live = self.live_connection();
        let mut count = 0;
        let mut handled_now = false;
        let held_before = self.widget_actions.len();
        // One input at a time: after one that may have changed the app, the next is
        // validated against a frame drawn after it (see `settling`), not against the
        // tree the first one was checked on. Keys need no validation: they join the
        // app's input queue behind the keys before them, unless an action held for
        // the widgets may still turn into key presses, which must come first.
        loop {
            // Inputs that arrived while these were handled are taken in this same
            // turn: no wake-up is left for them (theirs was used by the turn that ran
            // this drain). A drain that took none does not look twice: the frame loop
            // locks the endpoint once per turn.
            if self.inbox.is_empty() && (count == 0 || !self.take_queued()) {
                break;
            }
            let Some(next) = self.inbox.front() else {
                break;
            };
            let is_keys = matches!(next.input, Input::Key { .. } | Input::Text { .. });
            if self.settling.is_some() && !(is_keys && self.widget_actions.is_empty()) {
                break;
            }
            let Some(queued) = self.inbox.pop_front() else {
                break;
            };
            if queued.connection != self.connection || queued.connection != live {
                continue;
            }
            count += 1;
            let QueuedInput {
                connection,
                seq,
                input,
            } = queued;
            let answer = match input {
                Input::Key { key } => match key.parse::<crate::KeyChord>() {
                    Ok(chord) => self.press(connection, seq, &[chord]),
                    Err(e) => Some(Answer::rejected(RejectReason::InvalidInput, e.to_string())),
                },
                Input::Text { text } => {
                    let chords: Vec<crate::KeyChord> =
                        text.chars().map(route::chord_for_char).collect();
                    self.press(connection, seq, &chords)
                }
                Input::Act {
                    node,
                    action,
                    value,
                    direction,
                    amount,
                    token,
                } => {
                    let request = route::ActRequest {
                        node: node.as_str(),
                        action: &action,
                        value: value.as_ref(),
                        direction,
                        amount,
                        token: token.as_deref(),
                    };
                    self.act(app, connection, seq, &request)
                }
            };
            match answer {
                Some(answer) => {
                    let delivered = self.answer(connection, seq, answer);
                    handled_now |= delivered;
                    if delivered {
                        self.settling = Some(Instant::now());
                    }
                }
                // Held for the widgets, or keys queued for the app's input path.
                None => self.settling = Some(Instant::now()),
            }
        }
        if handled_now || self.widget_actions.len() > held_before {
            // A handler changed the app: make the next event read return at once, so
            // a loop condition the handler changed (`while !self.exit`) is seen now.
            // Inputs newly held for widgets: the loop draws the frame they are taken
            // in, and then, woken by this same poke, the frame after. Only new ones
            // wake it: a loop that does not draw on the wake-up must not spin.
            self.signal.poke();
        }
        count
    }

    /// Moves the endpoint's queued inputs into the session's inbox, once that is
    /// empty (inputs waiting there, see `settling`, come first; until they are taken
    /// the rest wait in the endpoint's bounded queue). Follows a new connection.
    /// Returns whether any came.
    fn take_queued(&mut self) -> bool {
        let Some(endpoint) = &self.endpoint else {
            return false;
        };
        let shared = Arc::clone(&endpoint.shared);
        let mut state = shared.lock();
        if state.connection != self.connection && state.connection != 0 {
            self.switch_connection(state.connection);
        }
        if !self.inbox.is_empty() || state.inbox.is_empty() {
            return false;
        }
        // `append` moves the inputs and leaves both queues' capacity in place.
        self.inbox.append(&mut state.inbox);
        true
    }

    /// Queues key presses for the app's input path; the input completes when the app
    /// reads the last one. Returns an immediate answer when nothing can be queued.
    fn press(&mut self, connection: u64, seq: u64, chords: &[crate::KeyChord]) -> Option<Answer> {
        if !self.reads_events {
            return Some(Answer::ignored(
                "the app does not read events through taria::event (use #[taria::app], or taria::event::read/poll in its loop), so keys cannot reach it".into(),
            ));
        }
        let Some((last, rest)) = chords.split_last() else {
            return Some(Answer::delivered());
        };
        let key = |completes| {
            Some(AgentKey {
                connection,
                seq,
                completes,
            })
        };
        for chord in rest {
            self.pending.push_back(PendingEvent {
                event: Event::Key(chord.to_event()),
                input: key(false),
            });
        }
        self.pending.push_back(PendingEvent {
            event: Event::Key(last.to_event()),
            input: key(true),
        });
        self.signal.poke();
        None
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
        if self.peeked.is_none() {
            self.peeked = self.take_event(Some(timeout))?;
        }
        Ok(self.peeked.is_some())
    }

    fn deliver(&mut self, event: PendingEvent) -> Event {
        terminal::set_last_from_agent(event.input.is_some());
        if let Some(key) = event.input
            && key.completes
            && key.connection == self.connection
        {
            self.answer(key.connection, key.seq, Answer::delivered());
        }
        event.event
    }

    /// The connection whose inputs count now (0: none). Read without the endpoint's
    /// lock, so the app's event wait can check it for every key.
    fn live_connection(&self) -> u64 {
        match &self.endpoint {
            Some(endpoint) => endpoint
                .shared
                .live
                .load(std::sync::atomic::Ordering::Acquire),
            None if self.local_answers.is_some() => HEADLESS_CONNECTION,
            None => 0,
        }
    }

    /// The next queued agent key of a connection that is still open; the keys of a
    /// closed one are discarded (its inputs are, see docs/protocol.md), so a text
    /// half typed when the bridge went away is not typed on.
    fn pop_pending(&mut self) -> Option<PendingEvent> {
        let live = self.live_connection();
        while let Some(event) = self.pending.pop_front() {
            match event.input {
                Some(key) if key.connection != live => {}
                _ => return Some(event),
            }
        }
        None
    }

    fn take_event(
        &mut self,
        timeout: Option<std::time::Duration>,
    ) -> std::io::Result<Option<PendingEvent>> {
        self.reads_events = true;
        if let Some(event) = self.peeked.take() {
            return Ok(Some(event));
        }
        self.start_terminal_thread();
        let deadline = timeout.map(|t| std::time::Instant::now() + t);
        // Inputs held behind one the app drew no frame for are let through after
        // SETTLE_WITHOUT_FRAME by `drain`: wake the loop then, even if it would wait
        // longer for an event.
        let settle_by = self
            .settling
            .filter(|_| self.effects_taken())
            .map(|since| since + SETTLE_WITHOUT_FRAME);
        loop {
            if let Some(event) = self.pop_pending() {
                return Ok(Some(event));
            }
            let mut wake = crate::endpoint::lock(&self.signal.wake);
            if let Some(event) = wake.terminal.pop_front() {
                return Ok(Some(PendingEvent { event, input: None }));
            }
            if std::mem::take(&mut wake.poked) {
                drop(wake);
                if !self.pending.is_empty() {
                    continue;
                }
                return Ok(Some(PendingEvent {
                    event: Event::FocusGained,
                    input: None,
                }));
            }
            if self.options.terminal_input
                && let Some(error) = wake.terminal_error.take()
            {
                return Err(error);
            }
            let now = std::time::Instant::now();
            if settle_by.is_some_and(|by| now >= by && deadline.is_none_or(|d| by < d)) {
                return Ok(Some(PendingEvent {
                    event: Event::FocusGained,
                    input: None,
                }));
            }
            match settle_by.into_iter().chain(deadline).min() {
                None => drop(
                    self.signal
                        .cond
                        .wait(wake)
                        .unwrap_or_else(std::sync::PoisonError::into_inner),
                ),
                Some(deadline) => {
                    if now >= deadline {
                        return Ok(None);
                    }
                    drop(
                        self.signal
                            .cond
                            .wait_timeout(wake, deadline - now)
                            .unwrap_or_else(std::sync::PoisonError::into_inner),
                    );
                }
            }
        }
    }

    fn start_terminal_thread(&mut self) {
        if !self.options.terminal_input || self.terminal_thread {
            return;
        }
        self.terminal_thread = true;
        let signal = Arc::clone(&self.signal);
        let spawned = std::thread::Builder::new()
            .name("taria-terminal-input".into())
            .spawn(move || terminal::read_terminal(&signal, &mut terminal::Crossterm));
        if let Err(error) = spawned {
            crate::endpoint::lock(&self.signal.wake).terminal_error = Some(error);
        }
    }
}

/// The final answer to an input, before it is addressed.
#[derive(Debug)]
struct Answer {
    status: AckStatus,
    reason: Option<RejectReason>,
    message: Option<String>,
}

impl Answer {
    fn delivered() -> Answer {
        Answer {
            status: AckStatus::Delivered,
            reason: None,
            message: None,
        }
    }

    fn ignored(message: String) -> Answer {
        Answer {
            status: AckStatus::Ignored,
            reason: Some(RejectReason::NoRoute),
            message: Some(message),
        }
    }

    fn rejected(reason: RejectReason, message: String) -> Answer {
        Answer {
            status: AckStatus::Rejected,
            reason: Some(reason),
            message: Some(message),
        }
    }

    fn into_message(self, seq: u64) -> AppMessage {
        AppMessage::Ack {
            seq,
            status: self.status,
            reason: self.reason,
            message: self.message,
        }
    }
}

/// What a draw returns, from which the drawn buffer is published.
#[diagnostic::on_unimplemented(
    message = "taria records ratatui draws: `{Self}` is not what `Terminal::draw` returns",
    note = "`#[taria::app]` records every `.draw(…)` call in the impl block; call other `draw` methods through a helper function outside it"
)]
pub trait DrawOutput {
    /// The buffer that was drawn, if the draw succeeded.
    fn buffer(&self) -> Option<&Buffer>;
}

impl DrawOutput for CompletedFrame<'_> {
    fn buffer(&self) -> Option<&Buffer> {
        Some(self.buffer)
    }
}

impl<E> DrawOutput for Result<CompletedFrame<'_>, E> {
    fn buffer(&self) -> Option<&Buffer> {
        self.as_ref().ok().map(|frame| frame.buffer)
    }
}

thread_local! {
    static CURRENT: RefCell<Option<Session>> = const { RefCell::new(None) };
}

/// Makes `session` this thread's session, for [`drain`] and [`crate::event`].
/// Returns the one it replaces.
pub fn install(session: Session) -> Option<Session> {
    terminal::set_thread_signal(&session.signal);
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
            let session = Session::start(label);
            terminal::set_thread_signal(&session.signal);
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

/// Whether a bridge is connected to this thread's session.
#[must_use]
pub fn is_connected() -> bool {
    with_current(|s| s.is_connected()).unwrap_or(false)
}
