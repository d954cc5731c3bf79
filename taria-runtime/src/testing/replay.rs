//! [`Replay`]: a recorded agent session (`taria-mcp --record`) run again headless
//! against an [`AppHarness`], its trees compared step by step.

use std::fmt;

use super::logs::{describe_entry, errors};
use super::{ActError, AppHarness, diff::diff};
use crate::dispatch::Actions;
use crate::model::{ActionData, StateFlags, Value};
use crate::wire::protocol::{AckStatus, Input, LogEntry, LogLevel, RejectReason, wire_name};
use crate::wire::recording::{Match, RecordedAck, RecordedInput, Recording, ReplayLine, Secrets};

/// How many of the agent's reads before a failing step its error lists.
const READS_SHOWN: usize = 3;

/// A recording replayed as a test: each input goes through the harness the way an
/// agent's input goes through the bridge (validated against the last tree, routed to
/// a handler, a widget or a key fallback); its answer is compared with the recorded
/// ack, and the tree drawn after it with the recorded tree, under [`Match`]'s rules.
/// Reads are not replayed (they change nothing); the error for a failing step lists
/// the last ones, what the agent had looked at.
///
/// The harness is resized to the recorded size first (a recording of a 120 × 40
/// session replays with the test's usual harness), then its first tree is compared
/// with the recording's, which catches an app started in another state. A redacted
/// input (a password's `set_value`, text typed into it) was recorded without its
/// secret: give it with [`secret`](Replay::secret), or that step fails saying so.
///
/// ```
/// use taria::testing::{AppHarness, Match, Replay};
/// use taria::wire::recording::Recording;
///
/// # #[derive(Default)] struct Counter { count: u32 }
/// # #[taria::actions] impl Counter {
/// #     #[action(node = "count", "bump")] fn bump(&mut self) { self.count += 1; }
/// # }
/// # fn draw(frame: &mut ratatui::Frame<'_>, counter: &mut Counter) {
/// #     let _node = taria::scope(|n| {
/// #         n.role(taria::Role::Button).id("count").label(format!("Count {}", counter.count))
/// #             .custom_action("bump").bounds(frame.area());
/// #     });
/// # }
/// let text = concat!(
///     r#"{"taria_recording":1,"app":"counter","size":{"width":20,"height":1},"taria":"0","mode":"spawn"}"#, "\n",
///     r#"{"kind":"tree","revision":1,"tree":{"frame":1,"roots":[{"id":"count","role":"button","label":"Count 0","actions":["bump"]}]}}"#, "\n",
///     r#"{"kind":"input","step":1,"call":1,"tool":"act","input":{"kind":"act","node":"count","action":"bump"},"ack":{"status":"delivered"},"revision":2,"tree":{"frame":2,"roots":[{"id":"count","role":"button","label":"Count 1","actions":["bump"]}]}}"#, "\n",
/// );
/// let recording = Recording::parse(text)?;
///
/// let mut harness = AppHarness::new(Counter::default(), 40, 10, draw);
/// let replayed = Replay::new(&recording).run(&mut harness)?;
/// assert_eq!(replayed.steps, 1);
///
/// // The same session against an app whose button now counts twice.
/// let mut harness = AppHarness::new(Counter { count: 1 }, 40, 10, draw);
/// let error = Replay::new(&recording).run(&mut harness).unwrap_err();
/// assert_eq!(error.step, 0);
/// assert!(error.to_string().contains("- - button \"Count 0\""), "{error}");
///
/// // Or let the label change: any `Count …` passes.
/// let mut harness = AppHarness::new(Counter { count: 1 }, 40, 10, draw);
/// let rules = Match::new().label("count", "Count *");
/// Replay::new(&recording).matching(rules).run(&mut harness)?;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct Replay<'r> {
    recording: &'r Recording,
    rules: Match,
    secrets: Secrets<Value>,
}

/// What a successful replay did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Replayed {
    /// How many inputs were sent.
    pub steps: usize,
    /// The outline of the last tree, under the rules: what the last comparison saw.
    pub outline: String,
}

impl<'r> Replay<'r> {
    /// Replays `recording` with the default rules ([`Match::new`]).
    #[must_use]
    pub fn new(recording: &'r Recording) -> Replay<'r> {
        Replay {
            recording,
            rules: Match::new(),
            secrets: Secrets::new(),
        }
    }

    /// Compares trees under `rules`.
    #[must_use]
    pub fn matching(mut self, rules: Match) -> Replay<'r> {
        self.rules = rules;
        self
    }

    /// The secret the agent sent to node `node` (a redacted `set_value` on it, or
    /// text or a character key typed while it had the focus): the recording left it
    /// out. It must have the original's length, which the trees show. Given more than
    /// once for a node, the redacted inputs on it take the values in order (the last
    /// one for any further input).
    #[must_use]
    pub fn secret(mut self, node: impl Into<String>, value: impl Into<Value>) -> Replay<'r> {
        self.secrets.give(node, value.into());
        self
    }

    /// Replays the recording against `harness`.
    ///
    /// # Errors
    ///
    /// The first step whose answer or tree differs from the recorded one, that logs
    /// an error the recorded session did not log at that step (checked when the
    /// recording has the app's log,
    /// [`RecordingHeader::logs`](crate::wire::recording::RecordingHeader::logs), and the harness
    /// captures it, see [`AppHarness::logs`]), or that
    /// cannot be replayed (a redacted input without its [`secret`](Replay::secret), a
    /// session that restarts the app midway, a screen larger than
    /// [`RecordedSize::MAX_WIDTH`](crate::wire::recording::RecordedSize::MAX_WIDTH) ×
    /// [`MAX_HEIGHT`](crate::wire::recording::RecordedSize::MAX_HEIGHT)); the error names the step and its input
    /// and shows the outline lines that differ.
    pub fn run<A: Actions>(&self, harness: &mut AppHarness<A>) -> Result<Replayed, ReplayError> {
        let size = self.recording.header.size;
        size.replayable()
            .map_err(|why| ReplayError::new(0, None, ReplayFailure::NotReplayable(why)))?;
        if harness.size() != (size.width, size.height) {
            harness.resize(size.width, size.height);
        }
        let Some(first) = self.recording.first_tree() else {
            return Err(ReplayError::new(
                0,
                None,
                ReplayFailure::NotReplayable("the recording has no tree line: it is empty".into()),
            ));
        };
        self.compare(0, None, first, harness, &[])?;
        let mut reads: Vec<String> = Vec::new();
        let mut steps = 0;
        let mut last_step = 0;
        let mut secrets = self.secrets.clone();
        let checks_log = self.recording.header.logs && harness.log_captured();
        for line in self.recording.replay_lines() {
            match line {
                ReplayLine::Read(read) => {
                    let arguments = serde_json::Value::Object(read.arguments.clone());
                    reads.push(format!("{} {arguments}", read.tool));
                }
                // The app came back (a reconnect after an idle release, a restart): the
                // replay goes on when it shows what the replayed app shows now, as after
                // a reconnect to the same app; a restarted app that lost its state does not.
                ReplayLine::CameBack(tree) => self.came_back(tree, harness, last_step)?,
                ReplayLine::Gone(recorded) => {
                    return Err(ReplayError::new(
                        recorded.step,
                        Some(describe(recorded)),
                        ReplayFailure::NotReplayable(
                            "the recorded app went away before this step (an `app` line) \
                             and no tree shows it back; a replay runs one app: cut the \
                             recording at its `app` line"
                                .into(),
                        ),
                    ));
                }
                ReplayLine::Input(recorded) => {
                    last_step = recorded.step;
                    let described = describe(recorded);
                    if recorded
                        .ack
                        .as_ref()
                        .is_some_and(|ack| ack.status == AckStatus::Dropped)
                    {
                        // It never reached the app.
                        continue;
                    }
                    let input = Self::input(recorded, harness, &mut secrets).ok_or_else(|| {
                        ReplayError::new(
                            recorded.step,
                            Some(described.clone()),
                            ReplayFailure::SecretMissing(redacted_node(recorded, harness)),
                        )
                    })?;
                    let logged_before = harness.logs().len();
                    let answer = harness.submit(input);
                    steps += 1;
                    if let Some(ack) = &recorded.ack
                        && !same_answer(ack, &answer)
                    {
                        return Err(ReplayError::new(
                            recorded.step,
                            Some(described),
                            ReplayFailure::AckDiffers {
                                recorded: ack.clone(),
                                now: answer.err(),
                            },
                        )
                        .after(&reads));
                    }
                    if checks_log {
                        self.no_new_error(recorded.step, &harness.logs()[logged_before..])
                            .map_err(|failure| {
                                ReplayError::new(recorded.step, Some(described.clone()), failure)
                                    .after(&reads)
                            })?;
                    }
                    if let Some(tree) = &recorded.tree {
                        self.compare(recorded.step, Some(described), tree, harness, &reads)?;
                    }
                    reads.clear();
                }
            }
        }
        Ok(Replayed {
            steps,
            outline: self.rules.outline(&harness.tree()),
        })
    }

    /// Ok unless `logged` (what the app logged while replaying `step`) holds more
    /// errors than the session logged at that step.
    fn no_new_error(&self, step: u64, logged: &[LogEntry]) -> Result<(), ReplayFailure> {
        let recorded = self
            .recording
            .logs()
            .filter(|log| log.step == Some(step) && log.level == LogLevel::Error)
            .count();
        let now: Vec<String> = errors(logged).map(describe_entry).collect();
        if now.len() > recorded {
            return Err(ReplayFailure::ErrorLogged { recorded, now });
        }
        Ok(())
    }

    /// After an `app` line: Ok when the app came back showing what the replayed app
    /// shows (a reconnect to the same app), else why the replay cannot go on.
    fn came_back<A: Actions>(
        &self,
        recorded: &crate::model::Tree,
        harness: &AppHarness<A>,
        last_step: u64,
    ) -> Result<(), ReplayError> {
        let then = self.rules.outline(recorded);
        let now = self.rules.outline(&harness.tree());
        if then == now {
            return Ok(());
        }
        Err(ReplayError::new(
            last_step,
            None,
            ReplayFailure::NotReplayable(format!(
                "the recorded app exited or was restarted here (an `app` line) and came back \
                 showing another tree than the replayed app shows; a replay runs one app: cut \
                 the recording at its `app` line (- recorded, + now):\n{}",
                diff(&then, &now)
            )),
        ))
    }

    fn compare<A: Actions>(
        &self,
        step: u64,
        input: Option<String>,
        recorded: &crate::model::Tree,
        harness: &AppHarness<A>,
        reads: &[String],
    ) -> Result<(), ReplayError> {
        let then = self.rules.outline(recorded);
        let now = self.rules.outline(&harness.tree());
        if then == now {
            return Ok(());
        }
        Err(
            ReplayError::new(step, input, ReplayFailure::TreeDiffers(diff(&then, &now)))
                .after(reads),
        )
    }

    /// The input to send for `recorded`: as recorded, with its secret filled in
    /// (taken from `secrets`, this run's copy of the given ones); `None` when the
    /// secret is not given. A recorded identity token ([`replay_token`]) is sent
    /// as the node drawn at that id now gives it, so a label the rules let change does
    /// not make it stale; the recorded one when no node is drawn there (the app then
    /// refuses it as it did) or the app refused it as stale.
    fn input<A: Actions>(
        recorded: &RecordedInput,
        harness: &AppHarness<A>,
        secrets: &mut Secrets<Value>,
    ) -> Option<Input> {
        let mut input = recorded.input.input.clone();
        if let Input::Act(request) = &mut input {
            request.token = replay_token(recorded, &harness.tree());
        }
        if !recorded.input.redacted {
            return Some(input);
        }
        let node = redacted_node(recorded, harness)?;
        let secret = secrets.take(&node)?.clone();
        Some(match input {
            Input::Act(mut request) => {
                request.data = Some(ActionData::Value { value: secret });
                Input::Act(request)
            }
            Input::Key { .. } => Input::Key {
                key: secret.to_string(),
            },
            Input::Text { raw, .. } => Input::Text {
                text: secret.to_string(),
                raw,
            },
        })
    }
}

/// The identity token to send for a recorded act: none when none was recorded; the
/// recorded one when the app refused it as stale (the agent saw another node than the
/// app had drawn) or no node is at that id in `now` (a positional id scrolled away:
/// the app refuses it, where without a token a list's widget would take the index);
/// else the token of the node at that id in `now`, which is the node the agent meant.
fn replay_token(recorded: &RecordedInput, now: &crate::model::Tree) -> Option<String> {
    let Input::Act(request) = &recorded.input.input else {
        return None;
    };
    let token = request.token.as_ref()?;
    let stale = recorded
        .ack
        .as_ref()
        .is_some_and(|ack| ack.reason == Some(RejectReason::StaleTarget));
    match now.get(request.target.as_str()) {
        Some(node) if !stale => Some(crate::wire::protocol::target_token(node)),
        _ => Some(token.clone()),
    }
}

/// The node a redacted input's secret was for: an act's target, else the node that
/// has the focus now (where the text goes).
fn redacted_node<A: Actions>(recorded: &RecordedInput, harness: &AppHarness<A>) -> Option<String> {
    match &recorded.input.input {
        Input::Act(request) => Some(request.target.to_string()),
        _ => harness
            .tree()
            .find(&crate::model::Query::new().state(StateFlags::FOCUSED))
            .map(|node| node.id.to_string()),
    }
}

fn same_answer(recorded: &RecordedAck, now: &Result<(), ActError>) -> bool {
    match now {
        Ok(()) => recorded.status == AckStatus::Delivered,
        Err(error) => {
            recorded.status == error.status
                && recorded.reason.is_none_or(|reason| reason == error.reason)
        }
    }
}

/// A recorded input as one line: `act tasks/4 toggle`, `set_value name "Ada"`,
/// `press_key enter`, `type_text "ship v0\n"`.
#[must_use]
pub fn describe(recorded: &RecordedInput) -> String {
    let redacted = recorded.input.redacted;
    match &recorded.input.input {
        Input::Act(request) => {
            let node = &request.target;
            let action = request.action.as_str();
            let head = if action == "set_value" {
                format!("set_value {node}")
            } else {
                format!("act {node} {action}")
            };
            match &request.data {
                _ if redacted => format!("{head} (redacted)"),
                Some(ActionData::Value { value }) => format!("{head} {}", literal(value)),
                Some(ActionData::Scroll { direction, amount }) => {
                    format!("{head} {} {amount}", wire_name(direction))
                }
                None => head,
            }
        }
        Input::Key { .. } if redacted => "press_key (redacted)".into(),
        Input::Key { key } => format!("press_key {key}"),
        Input::Text { .. } if redacted => "type_text (redacted)".into(),
        Input::Text { text, raw: false } => format!("type_text {}", quoted(text)),
        Input::Text { text, raw: true } => format!("type_text raw {}", quoted(text)),
    }
}

fn literal(value: &Value) -> String {
    match value {
        Value::Text(text) => quoted(text),
        other => other.to_string(),
    }
}

fn quoted(text: &str) -> String {
    serde_json::to_string(text).unwrap_or_default()
}

/// Why a replay failed, and at which step.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ReplayError {
    /// The recorded step (`step` of its input line); 0 for the first tree.
    pub step: u64,
    /// The step's input as one line (`act tasks/4 toggle`); `None` for the first tree
    /// and for a tree between steps (an app that came back after step `step`).
    pub input: Option<String>,
    /// What went wrong.
    pub failure: ReplayFailure,
    /// What the agent read after the previous input, oldest first (at most the last
    /// three): `find_nodes {"label":"ship v0"}`.
    pub read_before: Vec<String>,
}

/// What went wrong at a step of a [`Replay`].
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ReplayFailure {
    /// The tree after the step differs: the outline lines that differ (`- recorded`,
    /// `+ now`, with a line of context around).
    TreeDiffers(String),
    /// The app answers the input differently now.
    AckDiffers {
        /// What it answered in the recorded session.
        recorded: RecordedAck,
        /// What it answers now (`None`: delivered).
        now: Option<ActError>,
    },
    /// A redacted input whose secret the test did not give ([`Replay::secret`]); the
    /// node it was for, when known.
    SecretMissing(Option<String>),
    /// The recording cannot be replayed from here.
    NotReplayable(String),
    /// The app logged more errors at this step than the recorded session did.
    ErrorLogged {
        /// How many the session logged at this step.
        recorded: usize,
        /// The errors it logged now, one line each (`error todo: "message" {…}`).
        now: Vec<String>,
    },
}

impl ReplayError {
    fn new(step: u64, input: Option<String>, failure: ReplayFailure) -> ReplayError {
        ReplayError {
            step,
            input,
            failure,
            read_before: Vec::new(),
        }
    }

    fn after(mut self, reads: &[String]) -> ReplayError {
        self.read_before = reads[reads.len().saturating_sub(READS_SHOWN)..].to_vec();
        self
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.input, &self.failure) {
            (Some(input), _) => write!(f, "replay step {} ({input}): ", self.step)?,
            (None, ReplayFailure::TreeDiffers(_)) => {
                f.write_str("replay, the first tree (before any input): ")?;
            }
            (None, _) if self.step == 0 => f.write_str("replay, before the first input: ")?,
            (None, _) => write!(f, "replay, after step {}: ", self.step)?,
        }
        match &self.failure {
            ReplayFailure::TreeDiffers(diff) => write!(
                f,
                "the tree differs from the recorded one (- recorded, + now):\n{diff}"
            )?,
            ReplayFailure::AckDiffers { recorded, now } => {
                let then = match recorded.status {
                    AckStatus::Delivered => "delivered".to_owned(),
                    status => {
                        let reason = recorded
                            .reason
                            .map(|r| format!(" ({})", wire_name(&r)))
                            .unwrap_or_default();
                        format!("{}{reason}", wire_name(&status))
                    }
                };
                match now {
                    None => writeln!(f, "the app now takes it; the recorded session got {then}")?,
                    Some(error) => writeln!(
                        f,
                        "the app now answers {} ({}): {}; the recorded session got {then}",
                        wire_name(&error.status),
                        wire_name(&error.reason),
                        error.message
                    )?,
                }
            }
            ReplayFailure::SecretMissing(node) => writeln!(
                f,
                "this input was redacted in the recording: give its value with \
                 Replay::secret({:?}, …)",
                node.as_deref().unwrap_or("<the focused node>")
            )?,
            ReplayFailure::NotReplayable(why) => writeln!(f, "{why}")?,
            ReplayFailure::ErrorLogged { recorded, now } => {
                writeln!(
                    f,
                    "the app logged {} here, the recorded session {recorded}:",
                    plural(now.len(), "error", "errors")
                )?;
                for line in now {
                    writeln!(f, "  {line}")?;
                }
            }
        }
        if !self.read_before.is_empty() {
            writeln!(f, "before it the agent read:")?;
            for read in &self.read_before {
                writeln!(f, "  {read}")?;
            }
        }
        Ok(())
    }
}

impl std::error::Error for ReplayError {}

/// `1 error`, `2 errors`.
fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

#[cfg(test)]
mod tests;
