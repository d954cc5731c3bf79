//! [`AppHarness`]: a whole app run headless, driven the way an agent drives it.

use std::path::Path;

use ratatui::crossterm::event::Event;
use ratatui::{Frame, Terminal, backend::TestBackend};

use std::sync::Arc;

use super::logs::{CapturedLogs, describe_entry, errors};
use super::{Match, Replay, ReplayError, Replayed};
use crate::dispatch::Actions;
use crate::session::{InProcess, Session};
use taria_schema::protocol::{AckStatus, AppMessage, Input, LogEntry, RejectReason};
use taria_schema::recording::Recording;
use taria_schema::{Action, ActionData, ActionRequest, Node, Query, ScrollDirection, Tree, Value};

/// How many draw/event turns an input may take before the harness gives up on its
/// answer (an action held for a widget takes one frame, a key fallback two).
const MAX_TURNS: usize = 8;

/// Draws the app into a frame.
type DrawFn<A> = Box<dyn FnMut(&mut Frame<'_>, &mut A)>;
/// Handles one terminal event, as the app's loop does after `event::read()`.
type EventFn<A> = Box<dyn FnMut(&mut A, Event)>;

/// An app running headless at a chosen size: its draw function, its `#[action]`
/// handlers ([`Actions`]) and its event handler, with every frame recorded.
///
/// Inputs go through the same path an agent's do: [`act`](AppHarness::act),
/// [`set_value`](AppHarness::set_value) and [`scroll`](AppHarness::scroll) are
/// validated against the last drawn tree (unknown node, action not offered,
/// disabled, value schema), then given to the app's handler, else to a stateful
/// `taria-widgets` widget on the next frame, else pressed as the node's key
/// fallback through [`on_event`](AppHarness::on_event); [`press`](AppHarness::press)
/// and [`type_text`](AppHarness::type_text) become key events there, one per loop
/// turn with a frame drawn after each, as in an app's loop. After each input the
/// harness draws until the input is answered, so [`tree`](AppHarness::tree) and
/// [`screen`](AppHarness::screen) show its effect.
///
/// What the app logs through `tracing` is kept as a bridge would be sent it
/// ([`logs`](AppHarness::logs), [`assert_no_error_logged`](AppHarness::assert_no_error_logged)):
/// through the test's subscriber when it has a [`taria::logs`](crate::logs) layer,
/// else, when the test set up no subscriber, through one of the harness's own that
/// the app's code runs under (events at `INFO` or more severe).
///
/// # Examples
///
/// ```
/// use ratatui::crossterm::event::{Event, KeyCode};
/// use ratatui::widgets::Paragraph;
/// use taria::testing::AppHarness;
///
/// #[derive(Default)]
/// struct Counter {
///     count: u32,
/// }
///
/// #[taria::actions]
/// impl Counter {
///     #[action(node = "count", "bump")]
///     fn bump(&mut self) {
///         self.count += 1;
///     }
/// }
///
/// fn draw(frame: &mut ratatui::Frame<'_>, counter: &mut Counter) {
///     let _node = taria::scope(|n| {
///         n.role(taria::Role::Button)
///             .id("count")
///             .label("Count")
///             .value(counter.count)
///             .custom_action("bump")
///             .custom_key_fallback("bump", "+")
///             .bounds(frame.area());
///     });
///     frame.render_widget(Paragraph::new(format!("count: {}", counter.count)), frame.area());
/// }
///
/// let mut harness = AppHarness::new(Counter::default(), 20, 1, draw).on_event(|counter, event| {
///     if let Event::Key(key) = event && key.code == KeyCode::Char('+') {
///         counter.count += 1;
///     }
/// });
/// harness.act("count", "bump").unwrap();
/// harness.press("+").unwrap();
/// assert_eq!(harness.node("count").value, Some(taria::Value::Number(2.0)));
/// assert_eq!(harness.screen(), "count: 2");
///
/// let error = harness.act("count", "toggle").unwrap_err();
/// assert_eq!(error.message, "`count` does not offer `toggle`; it offers: bump");
/// ```
pub struct AppHarness<A> {
    app: A,
    terminal: Terminal<TestBackend>,
    session: Session,
    /// The harness's end of the session's in-process transport.
    agent: Arc<InProcess>,
    draw: DrawFn<A>,
    on_event: Option<EventFn<A>>,
    logs: CapturedLogs,
    /// The recorded steps sent ([`step`](AppHarness::step)), by the input's `seq`:
    /// what an error logged while one ran is said to have come at.
    steps: Vec<SentStep>,
}

/// A recorded step the harness sent: the input's `seq`, the step's number and its
/// input in words (`act tasks/4 toggle`).
pub(super) struct SentStep {
    seq: u64,
    number: u64,
    input: String,
}

impl<A: Actions> AppHarness<A> {
    /// Runs `app` on a `width` × `height` screen, drawn by `draw`; draws the first
    /// frame.
    pub fn new(
        app: A,
        width: u16,
        height: u16,
        draw: impl FnMut(&mut Frame<'_>, &mut A) + 'static,
    ) -> AppHarness<A> {
        let terminal = match Terminal::new(TestBackend::new(width, height)) {
            Ok(terminal) => terminal,
            Err(never) => match never {},
        };
        let logs = CapturedLogs::new();
        let (session, agent) = Session::in_process("test", logs.hub());
        let mut harness = AppHarness {
            app,
            terminal,
            session,
            agent,
            draw: Box::new(draw),
            on_event: None,
            logs,
            steps: Vec::new(),
        };
        harness.render();
        harness
    }

    /// How the app handles one terminal event — what its loop does with
    /// `event::read()`. Keys from [`press`](AppHarness::press),
    /// [`type_text`](AppHarness::type_text) and key fallbacks arrive here; without
    /// it they are answered as ignored, as for an app that does not read events
    /// through taria.
    #[must_use]
    pub fn on_event(mut self, handle: impl FnMut(&mut A, Event) + 'static) -> AppHarness<A> {
        self.on_event = Some(Box::new(handle));
        self.session.set_reads_events();
        self
    }

    /// Draws a frame (after changing the app directly, e.g. a timer tick) and
    /// returns its tree.
    pub fn render(&mut self) -> Tree {
        let AppHarness {
            app,
            terminal,
            session,
            draw,
            logs,
            ..
        } = self;
        if let Err(never) = logs.run(|| session.draw(terminal, |frame| draw(frame, app))) {
            match never {}
        }
        self.logs.collect(&self.agent);
        self.session.tree()
    }

    /// Performs `action` (`"toggle"`, `"select"`, a custom name …) on node `node`.
    pub fn act(&mut self, node: &str, action: &str) -> Result<(), ActError> {
        self.submit(act(node, action, None))
    }

    /// Performs `action` on node `node` with a value, as a bridge sends it (a
    /// custom action's payload; checked against the node's `valueSchema`).
    pub fn act_with(&mut self, node: &str, action: &str, value: Value) -> Result<(), ActError> {
        self.submit(act(node, action, Some(value)))
    }

    /// Performs `action` on node `node` as the agent saw it: `token` is the
    /// [`target_token`](taria_schema::protocol::target_token) of the node the agent read at that
    /// id, which a bridge sends with an action on a positional id. Refused
    /// `stale_target` when the node drawn there now is another one, and
    /// `unknown_node` when the id is not drawn (it is not held for a scrolled list's
    /// widget: the row at that index may not be the one the agent saw). What a test
    /// `taria-mcp test-from` generated does for such a recorded step.
    pub fn act_seen(&mut self, node: &str, action: &str, token: &str) -> Result<(), ActError> {
        let mut request = ActionRequest::new(node, action);
        request.token = Some(token.to_owned());
        self.submit(Input::Act(request))
    }

    /// Sets node `node`'s value (checked against its `valueSchema` first).
    pub fn set_value(&mut self, node: &str, value: impl Into<Value>) -> Result<(), ActError> {
        self.submit(act(node, "set_value", Some(value.into())))
    }

    /// Scrolls node `node` by `amount` in `direction`.
    pub fn scroll(
        &mut self,
        node: &str,
        direction: ScrollDirection,
        amount: u32,
    ) -> Result<(), ActError> {
        let mut request = ActionRequest::new(node, Action::Scroll);
        request.data = Some(ActionData::Scroll { direction, amount });
        self.submit(Input::Act(request))
    }

    /// Presses a key chord (`"enter"`, `"ctrl+s"`, `"shift+tab"`; grammar in
    /// [`KEY_GRAMMAR`](taria_schema::protocol::KEY_GRAMMAR)).
    pub fn press(&mut self, key: &str) -> Result<(), ActError> {
        self.submit(Input::Key { key: key.into() })
    }

    /// Types `text`, one key press per character (`\n` presses enter), into the
    /// focused text input: refused `no_text_input` (nothing pressed) when no focused
    /// node takes text, as an agent's `type_text` is.
    pub fn type_text(&mut self, text: &str) -> Result<(), ActError> {
        self.submit(Input::Text {
            text: text.into(),
            raw: false,
        })
    }

    /// Types `text` as raw keys, wherever the app sends them, whatever has focus
    /// (an agent's `type_text` with `raw`).
    pub fn type_text_raw(&mut self, text: &str) -> Result<(), ActError> {
        self.submit(Input::Text {
            text: text.into(),
            raw: true,
        })
    }

    /// Submits one input, then drains, hands over key events and draws until it is
    /// answered.
    pub(super) fn submit(&mut self, input: Input) -> Result<(), ActError> {
        let seq = self.agent.submit(input);
        self.answer(seq)
    }

    /// Sends step `number` of a recorded session (`described`: its input in words)
    /// as [`submit`](AppHarness::submit) does, noting it for the errors the app logs
    /// while it runs; a panic of the app's code while it runs is caught and returned
    /// as its message, so the step's failure can name the step.
    pub(super) fn submit_step(
        &mut self,
        input: Input,
        number: u64,
        described: &str,
    ) -> Result<Result<(), ActError>, String> {
        let seq = self.agent.submit(input);
        self.steps.push(SentStep {
            seq,
            number,
            input: described.to_owned(),
        });
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| self.answer(seq)))
            .map_err(|panic| panic_message(&*panic))
    }

    /// Runs the app's loop until input `seq` is answered.
    fn answer(&mut self, seq: u64) -> Result<(), ActError> {
        for _ in 0..MAX_TURNS {
            let (session, app) = (&mut self.session, &mut self.app);
            self.logs.run(|| session.drain(app));
            // One event per loop turn, with a frame after each, as an app's loop
            // draws between its `event::read()` calls.
            while let Some(event) = self.session.next_agent_event() {
                if let Some(handle) = &mut self.on_event {
                    let app = &mut self.app;
                    self.logs.run(|| handle(app, event));
                }
                self.render();
            }
            self.render();
            if let Some(answer) = self.agent.take_answer(seq) {
                // A widget took it while drawing: the app's loop draws again.
                if self.session.redraw_owed() {
                    self.render();
                }
                return ActError::check(answer);
            }
        }
        Err(ActError {
            status: AckStatus::Ignored,
            reason: RejectReason::NoRoute,
            message: format!("no answer after {MAX_TURNS} frames"),
        })
    }

    /// What the app logged through `tracing` so far, oldest first, each entry with
    /// the input the harness had given it when it was logged (`input`: the inputs
    /// count from 1). Empty when the log is not captured: the test's subscriber has
    /// no [`taria::logs`](crate::logs) layer.
    #[must_use]
    pub fn logs(&self) -> &[LogEntry] {
        self.logs.entries()
    }

    /// Whether the app's log is captured (see [`logs`](AppHarness::logs)).
    pub(crate) fn log_captured(&self) -> bool {
        self.logs.captured()
    }

    /// Checks that the app logged no error so far (a panic caught elsewhere is one:
    /// see [`taria::logs`](crate::logs)).
    ///
    /// # Panics
    ///
    /// Listing each error logged; or, when the log cannot be captured (the test's
    /// `tracing` subscriber has no `taria::logs` layer), saying so.
    #[track_caller]
    pub fn assert_no_error_logged(&self) {
        assert!(
            self.logs.captured(),
            "the app's log is not captured: this test's tracing subscriber has no \
             taria::logs::layer(); add it (registry().with(taria::logs::layer())), or set \
             no subscriber and the harness captures the log itself"
        );
        let errors: Vec<String> = errors(self.logs.entries())
            .map(
                |entry| match self.steps.iter().find(|step| step.seq == entry.input) {
                    Some(step) => format!(
                        "at step {} ({}): {}",
                        step.number,
                        step.input,
                        describe_entry(entry)
                    ),
                    None => describe_entry(entry),
                },
            )
            .collect();
        assert!(
            errors.is_empty(),
            "the app logged {} error{}:\n{}",
            errors.len(),
            if errors.len() == 1 { "" } else { "s" },
            errors.join("\n")
        );
    }

    /// The app.
    pub fn app(&self) -> &A {
        &self.app
    }

    /// The app, to change it directly (call [`render`](AppHarness::render) after).
    pub fn app_mut(&mut self) -> &mut A {
        &mut self.app
    }

    /// The screen's size: `(width, height)`.
    #[must_use]
    pub fn size(&self) -> (u16, u16) {
        let area = self.terminal.backend().buffer().area;
        (area.width, area.height)
    }

    /// Changes the screen size and draws a frame.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.terminal.backend_mut().resize(width, height);
        self.render();
    }

    /// The tree of the last frame.
    #[must_use]
    pub fn tree(&self) -> Tree {
        self.session.tree()
    }

    /// The node `id` of the last frame.
    ///
    /// # Panics
    ///
    /// When there is no such node; the message shows the tree's outline.
    #[must_use]
    #[track_caller]
    pub fn node(&self, id: &str) -> Node {
        let tree = self.tree();
        match tree.get(id) {
            Some(node) => node.clone(),
            None => panic!(
                "no node `{id}` in the last frame; its tree:\n{}",
                tree.outline()
            ),
        }
    }

    /// The first node of the last frame matching `query`.
    #[must_use]
    pub fn find(&self, query: &Query) -> Option<Node> {
        self.tree().find(query).cloned()
    }

    /// Every node of the last frame matching `query`, in tree order.
    #[must_use]
    pub fn find_all(&self, query: &Query) -> Vec<Node> {
        self.tree().find_all(query).into_iter().cloned().collect()
    }

    /// The screen as drawn by the last frame, cell by cell.
    #[must_use]
    pub fn buffer(&self) -> &ratatui::buffer::Buffer {
        self.terminal.backend().buffer()
    }

    /// The screen's rows as drawn by the last frame (trailing spaces kept).
    #[must_use]
    pub fn screen_text(&self) -> Vec<String> {
        super::screen_text(self.terminal.backend().buffer())
    }

    /// The screen as one string: rows joined by `\n`, trailing spaces and trailing
    /// empty rows removed.
    #[must_use]
    pub fn screen(&self) -> String {
        let rows = self.screen_text();
        let mut screen = rows
            .iter()
            .map(|row| row.trim_end())
            .collect::<Vec<_>>()
            .join("\n");
        screen.truncate(screen.trim_end().len());
        screen
    }

    /// Checks that every node the last frame gives bounds shows its label or value
    /// inside them on the drawn screen ([`undrawn_text`](super::undrawn_text)): the
    /// tree says nothing the screen does not show.
    ///
    /// # Panics
    ///
    /// Naming each node whose text is not drawn where its bounds say, with the screen.
    #[track_caller]
    pub fn assert_text_drawn(&self) {
        let undrawn = super::undrawn_text(&self.tree(), self.buffer());
        let (width, height) = self.size();
        assert!(
            undrawn.is_empty(),
            "at {width}x{height}, the text of these nodes is not drawn inside their bounds: \
             {undrawn:#?}\n{}",
            self.screen()
        );
    }

    /// Checks that no two nodes of the last frame say the same thing in the same
    /// place ([`duplicate_nodes`](super::duplicate_nodes)): each thing on screen is
    /// one node.
    ///
    /// # Panics
    ///
    /// Naming each pair of nodes with the same bounds and text, with the outline.
    #[track_caller]
    pub fn assert_no_duplicate_nodes(&self) {
        let tree = self.tree();
        let duplicates = super::duplicate_nodes(&tree);
        let (width, height) = self.size();
        assert!(
            duplicates.is_empty(),
            "at {width}x{height}, these nodes say the same thing in the same place: \
             {duplicates:#?}\n{}",
            tree.outline()
        );
    }

    /// Checks the last frame with the accessibility lint
    /// ([`inaccessible_nodes`](super::inaccessible_nodes)): every input has a label,
    /// everything that offers an action has a name, and the focus is on screen.
    ///
    /// # Panics
    ///
    /// Naming each node the lint finds, with the outline.
    #[track_caller]
    pub fn assert_accessible(&self) {
        let tree = self.tree();
        let found = super::inaccessible_nodes(&tree, self.buffer());
        let (width, height) = self.size();
        assert!(
            found.is_empty(),
            "at {width}x{height}, an agent or a screen reader cannot tell these nodes apart \
             or reach them: {found:#?}\n{}",
            tree.outline()
        );
    }

    /// Compares the last frame's outline with the golden file at `path` (relative
    /// to the package root under `cargo test`); see [`assert_snapshot`](super::assert_snapshot).
    ///
    /// # Panics
    ///
    /// When they differ or the file is missing, unless `TARIA_SNAPSHOTS=overwrite`.
    #[track_caller]
    pub fn assert_snapshot(&self, path: impl AsRef<Path>) {
        super::assert_snapshot(path, &self.tree().outline());
    }

    /// Like [`assert_snapshot`](AppHarness::assert_snapshot), comparing the outline
    /// as `rules` see it at `step` ([`Match::outline`]).
    ///
    /// # Panics
    ///
    /// When they differ or the file is missing, unless `TARIA_SNAPSHOTS=overwrite`;
    /// when two label rules apply to one node.
    #[track_caller]
    pub fn assert_matches(&self, path: impl AsRef<Path>, rules: &Match, step: u64) {
        match rules.outline(&self.tree(), step) {
            Ok(outline) => super::assert_snapshot(path, &outline),
            Err(conflict) => panic!("{conflict}"),
        }
    }

    /// Replays `recording` under `rules`: [`Replay::new`]`(recording).matching(rules).run(self)`
    /// (use [`Replay`] itself to give redacted secrets).
    ///
    /// # Errors
    ///
    /// The first step that differs from the recording; see [`Replay::run`].
    pub fn replay(
        &mut self,
        recording: &Recording,
        rules: &Match,
    ) -> Result<Replayed, ReplayError> {
        Replay::new(recording).matching(rules.clone()).run(self)
    }
}

fn act(node: &str, action: &str, value: Option<Value>) -> Input {
    let mut request = ActionRequest::new(node, action);
    request.data = value.map(|value| ActionData::Value { value });
    Input::Act(request)
}

/// Why an input was not delivered: what an agent's `act` would have answered.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct ActError {
    /// [`AckStatus::Rejected`] (refused before reaching the app, or by its handler)
    /// or [`AckStatus::Ignored`] (nothing in the app takes it).
    pub status: AckStatus,
    /// Why.
    pub reason: RejectReason,
    /// The message an agent reads.
    pub message: String,
}

impl ActError {
    fn check(answer: AppMessage) -> Result<(), ActError> {
        match answer {
            AppMessage::Ack {
                status: AckStatus::Delivered,
                ..
            } => Ok(()),
            AppMessage::Ack {
                status,
                reason,
                message,
                ..
            } => Err(ActError {
                status,
                reason: reason.unwrap_or(RejectReason::NoRoute),
                message: message.unwrap_or_default(),
            }),
            other => Err(ActError {
                status: AckStatus::Ignored,
                reason: RejectReason::NoRoute,
                message: format!("unexpected answer: {other:?}"),
            }),
        }
    }
}

impl std::fmt::Display for ActError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let status = match self.status {
            AckStatus::Rejected => "rejected",
            _ => "ignored",
        };
        write!(f, "{status}: {}", self.message)
    }
}

impl std::error::Error for ActError {}

/// What a panic said: its message when it is text.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|text| (*text).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "(a panic whose payload is not text)".to_owned())
}
