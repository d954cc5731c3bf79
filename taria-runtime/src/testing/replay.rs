//! [`Replay`]: a recorded agent session (`taria-mcp --record`) run again headless
//! against an [`AppHarness`], its trees compared step by step.

use super::logs::{describe_entry, errors};
use super::step::{Aim, StepInput};
use super::{AppHarness, diff::diff};
use crate::dispatch::Actions;
use taria_schema::protocol::{AckStatus, Input, LogEntry, LogLevel, RejectReason};
use taria_schema::recording::{
    Match, RecordedInput, RecordedInputData, RecordedSize, Recording, ReplayLine, Secrets, Unused,
    Uses,
};
use taria_schema::{ActionData, StateFlags, Tree, Value};

pub(super) mod error;

pub use error::{ReplayError, ReplayFailure, TargetChange};

/// A recording replayed as a test: each input goes through the harness the way an
/// agent's input goes through the bridge (validated against the last tree, routed to
/// a handler, a widget or a key fallback); its answer is compared with the recorded
/// ack, and the tree drawn after it with the recorded tree, under [`Match`]'s rules.
/// Reads are not replayed (they change nothing); the error for a failing step lists
/// the last ones, what the agent had looked at. A resize resizes the harness, then
/// compares the tree drawn at the new size when one was recorded.
///
/// Before an act, the node at its id must be the one the agent acted on (the role
/// and label recorded with it, the label under the rules): when an item added
/// before it shifted the ids, the step fails rather than act on another node,
/// unless [`refind_moved`](Replay::refind_moved) says to act on the node with that
/// role and label wherever it is now. A refusal is compared whole: its status, its
/// reason and its message (under the rules, as the label of the node acted on).
///
/// The harness is resized to the recorded size first (a recording of a 120 × 40
/// session replays with the test's usual harness), then its first tree is compared
/// with the recording's, which catches an app started in another state. A redacted
/// input (a password's `set_value`, text typed into it) was recorded without its
/// secret: give it with [`secret`](Replay::secret), or that step fails saying so.
///
/// # Examples
///
/// ```
/// use taria::testing::{AppHarness, Match, Replay};
/// use taria::testing::Recording;
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
    refind: bool,
}

/// What a successful replay did.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Replayed {
    /// How many inputs were sent.
    pub steps: usize,
    /// The outline of the last tree, under the rules: what the last comparison saw.
    pub outline: String,
    /// The rules that did nothing over the whole replay (also said on stderr, as a
    /// warning): a rule that matched no node, a label pattern that fit no label.
    pub unused_rules: Vec<Unused>,
}

impl<'r> Replay<'r> {
    /// Replays `recording` with the default rules ([`Match::new`]).
    #[must_use]
    pub fn new(recording: &'r Recording) -> Replay<'r> {
        Replay {
            recording,
            rules: Match::new(),
            secrets: Secrets::new(),
            refind: false,
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

    /// An act whose id names another node now than the one the agent acted on goes to
    /// the one node with the recorded role and label, wherever it is now (an item
    /// added before it moved it), instead of failing; it still fails when no node, or
    /// more than one, has them. For an app whose ids are expected to shift.
    #[must_use]
    pub fn refind_moved(mut self) -> Replay<'r> {
        self.refind = true;
        self
    }

    /// Replays the recording against `harness`.
    ///
    /// # Errors
    ///
    /// The first step whose node, answer or tree differs from the recorded one, that logs
    /// an error the recorded session did not log at that step (checked when the
    /// recording has the app's log,
    /// [`RecordingHeader::logs`](taria_schema::recording::RecordingHeader::logs), and the harness
    /// captures it, see [`AppHarness::logs`]), or that
    /// cannot be replayed (a redacted input without its [`secret`](Replay::secret), a
    /// session that restarts the app midway, a screen larger than
    /// [`RecordedSize::MAX_WIDTH`](taria_schema::recording::RecordedSize::MAX_WIDTH) ×
    /// [`MAX_HEIGHT`](taria_schema::recording::RecordedSize::MAX_HEIGHT)); the error names the step and its input
    /// and shows the outline lines that differ.
    pub fn run<A: Actions>(&self, harness: &mut AppHarness<A>) -> Result<Replayed, ReplayError> {
        let size = self.recording.header.size;
        resize(harness, size).map_err(|why| ReplayError::new(0, None, why))?;
        let Some(first) = self.recording.first_tree() else {
            return Err(ReplayError::new(
                0,
                None,
                ReplayFailure::NotReplayable("the recording has no tree line: it is empty".into()),
            ));
        };
        let mut uses = Uses::new(&self.rules);
        let shown = Shown {
            tree: first,
            screen: self.recording.first_screen().map(Vec::as_slice),
        };
        self.differs(0, shown, harness, &mut uses)
            .map_err(|differs| ReplayError::new(0, None, differs))?;
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
                ReplayLine::Resize { size, tree } => {
                    let at = |failure| {
                        let input = format!("resize {}x{}", size.width, size.height);
                        ReplayError::new(last_step, Some(input), failure)
                            .between()
                            .after(&reads)
                    };
                    resize(harness, size).map_err(at)?;
                    if let Some(tree) = tree {
                        let shown = Shown { tree, screen: None };
                        self.differs(last_step, shown, harness, &mut uses)
                            .map_err(at)?;
                    }
                }
                // The app came back (a reconnect after an idle release, a restart): the
                // replay goes on when it shows what the replayed app shows now, as after
                // a reconnect to the same app; a restarted app that lost its state does not.
                ReplayLine::CameBack(tree) => {
                    self.came_back(tree, harness, last_step, &mut uses)?;
                }
                ReplayLine::Gone(recorded) => {
                    return Err(ReplayError::at(
                        recorded,
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
                    if recorded
                        .ack
                        .as_ref()
                        .is_some_and(|ack| ack.status == AckStatus::Dropped)
                    {
                        // It never reached the app.
                        continue;
                    }
                    let step = self
                        .step(recorded, harness, &mut secrets)
                        .map_err(|e| e.after(&reads))?;
                    let logged_before = harness.logs().len();
                    step.run(harness, &self.rules)
                        .map_err(|e| e.after(&reads))?;
                    steps += 1;
                    if checks_log {
                        self.no_new_error(recorded.step, &harness.logs()[logged_before..])
                            .map_err(|failure| ReplayError::at(recorded, failure).after(&reads))?;
                    }
                    if let Some(tree) = &recorded.tree {
                        let shown = Shown {
                            tree,
                            screen: recorded.screen.as_deref(),
                        };
                        self.differs(recorded.step, shown, harness, &mut uses)
                            .map_err(|differs| ReplayError::at(recorded, differs).after(&reads))?;
                    }
                    reads.clear();
                }
                // The bridge's own refusals never reached the app; an app that went
                // away is followed by a `CameBack`, a `Gone`, or the end.
                _ => {}
            }
        }
        self.replayed(steps, last_step, harness, &mut uses)
    }

    /// What a replay that got through did: its last outline, and the rules that did
    /// nothing (said on stderr too).
    fn replayed<A: Actions>(
        &self,
        steps: usize,
        last_step: u64,
        harness: &AppHarness<A>,
        uses: &mut Uses,
    ) -> Result<Replayed, ReplayError> {
        let now = harness.tree();
        let shown = Shown {
            tree: &now,
            screen: None,
        };
        let (_, outline) = self
            .outlines(last_step, shown, harness, uses)
            .map_err(|failure| ReplayError::new(last_step, None, failure))?;
        let unused_rules = uses.unused(&self.rules);
        for unused in &unused_rules {
            eprintln!("warning: the replay's rule {unused}");
        }
        Ok(Replayed {
            steps,
            outline,
            unused_rules,
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
        recorded: &Tree,
        harness: &AppHarness<A>,
        last_step: u64,
        uses: &mut Uses,
    ) -> Result<(), ReplayError> {
        let shown = Shown {
            tree: recorded,
            screen: None,
        };
        let (then, now) = self
            .outlines(last_step, shown, harness, uses)
            .map_err(|failure| ReplayError::new(last_step, None, failure))?;
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

    /// How the harness's tree (and screen, where a screen rule asks) differs from
    /// `recorded` under the rules at `step`, if it does.
    fn differs<A: Actions>(
        &self,
        step: u64,
        recorded: Shown<'_>,
        harness: &AppHarness<A>,
        uses: &mut Uses,
    ) -> Result<(), ReplayFailure> {
        let (then, now) = self.outlines(step, recorded, harness, uses)?;
        if then == now {
            return Ok(());
        }
        Err(ReplayFailure::TreeDiffers(diff(&then, &now)))
    }

    /// What the rules compare at `step` of `recorded` and of the harness: the
    /// outlines, and the screens where a screen rule asks and the recording has one;
    /// two label rules on one node make the step not replayable.
    fn outlines<A: Actions>(
        &self,
        step: u64,
        recorded: Shown<'_>,
        harness: &AppHarness<A>,
        uses: &mut Uses,
    ) -> Result<(String, String), ReplayFailure> {
        let screen_now = recorded
            .screen
            .filter(|_| self.rules.checks_screen())
            .map(|_| super::screen_text(harness.buffer()));
        let mut outline = |tree: &Tree, screen: Option<&[String]>| {
            self.rules
                .compared(tree, step, screen, uses)
                .map_err(|conflict| ReplayFailure::NotReplayable(conflict.to_string()))
        };
        let then = outline(
            recorded.tree,
            recorded.screen.filter(|_| screen_now.is_some()),
        )?;
        Ok((then, outline(&harness.tree(), screen_now.as_deref())?))
    }

    /// The step to run for `recorded`: its input as recorded, with its secret filled
    /// in (taken from `secrets`, this run's copy of the given ones), the node it was
    /// aimed at (not for a refusal as stale: the agent had aimed at another node than
    /// the app drew) and the recorded answer. A recorded identity token
    /// ([`replay_token`]) is sent as the node drawn at that id now gives it, so a
    /// label the rules let change does not make it stale; the recorded one when no
    /// node is drawn there (the app then refuses it as it did) or the app refused it
    /// as stale.
    fn step<A: Actions>(
        &self,
        recorded: &RecordedInput,
        harness: &AppHarness<A>,
        secrets: &mut Secrets<Value>,
    ) -> Result<StepInput, ReplayError> {
        let mut input = recorded.input.input.clone();
        let stale = refused_as_stale(recorded);
        if let Input::Act(request) = &mut input {
            request.token = replay_token(recorded, &harness.tree());
        }
        if recorded.input.redacted {
            let missing = || {
                ReplayError::at(
                    recorded,
                    ReplayFailure::SecretMissing(redacted_node(recorded, harness)),
                )
            };
            let node = redacted_node(recorded, harness).ok_or_else(missing)?;
            let secret = secrets.take(&node).ok_or_else(missing)?.clone();
            input = match input {
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
            };
        }
        Ok(StepInput {
            number: recorded.step,
            sent: RecordedInputData {
                input,
                redacted: recorded.input.redacted,
            },
            aim: recorded
                .target
                .clone()
                .filter(|_| !stale)
                .map(|target| Aim {
                    target,
                    refind: self.refind,
                }),
            answer: recorded.ack.clone(),
        })
    }
}

/// Resizes `harness` to `size` when it has another, refusing a size no terminal of
/// taria-mcp's has.
fn resize<A: Actions>(
    harness: &mut AppHarness<A>,
    size: RecordedSize,
) -> Result<(), ReplayFailure> {
    size.replayable().map_err(ReplayFailure::NotReplayable)?;
    if harness.size() != (size.width, size.height) {
        harness.resize(size.width, size.height);
    }
    Ok(())
}

/// A recorded tree and the screen drawn with it, when the recording has one.
#[derive(Clone, Copy)]
struct Shown<'r> {
    tree: &'r Tree,
    screen: Option<&'r [String]>,
}

/// Whether the app refused the recorded act as stale: the agent saw another node at
/// its id than the app had drawn.
fn refused_as_stale(recorded: &RecordedInput) -> bool {
    recorded
        .ack
        .as_ref()
        .is_some_and(|ack| ack.reason == Some(RejectReason::StaleTarget))
}

/// The identity token to send for a recorded act: none when none was recorded; the
/// recorded one when the app refused it as stale (the agent saw another node than the
/// app had drawn) or no node is at that id in `now` (a positional id scrolled away:
/// the app refuses it, where without a token a list's widget would take the index);
/// else the token of the node at that id in `now`, which is the node the agent meant.
fn replay_token(recorded: &RecordedInput, now: &Tree) -> Option<String> {
    let Input::Act(request) = &recorded.input.input else {
        return None;
    };
    let token = request.token.as_ref()?;
    match now.get(request.target.as_str()) {
        Some(node) if !refused_as_stale(recorded) => {
            Some(taria_schema::protocol::target_token(node))
        }
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
            .find(&taria_schema::Query::new().state(StateFlags::FOCUSED))
            .map(|node| node.id.to_string()),
    }
}

#[cfg(test)]
mod tests;
