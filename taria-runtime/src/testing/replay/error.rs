//! [`ReplayError`]: where a replay (or a generated test's step) failed, and why, in
//! words that name the step, its input, what was recorded and what is now.

use std::fmt;

use super::super::ActError;
use taria_schema::outline::{OutlineName, OutlineQuoted};
use taria_schema::protocol::{AckStatus, wire_name};
use taria_schema::recording::{RecordedAck, RecordedInput, RecordedTarget};

/// How many of the agent's reads before a failing step its error lists.
const READS_SHOWN: usize = 3;

/// Why a replay failed, and at which step. Its `Debug` is its message, so a test
/// returning `Result<(), ReplayError>` prints it whole.
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub struct ReplayError {
    /// The recorded step (`step` of its input line); 0 for the first tree. For a
    /// line between steps (`between` set), the step before it.
    pub step: u64,
    /// The step's input as one line (`act tasks/4 toggle`; `resize 120x40` for a
    /// resize); `None` for the first tree and for a tree between steps (an app that
    /// came back after step `step`).
    pub input: Option<String>,
    /// The failure is at a line after step `step` (a resize, an app that came
    /// back), not at the step itself.
    pub between: bool,
    /// What went wrong.
    pub failure: ReplayFailure,
    /// What the agent read after the previous input, oldest first (at most the last
    /// three): `find_nodes {"label":"ship v0"}`.
    pub read_before: Vec<String>,
}

/// What went wrong at a step of a [`Replay`](super::Replay).
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
        now: Option<Box<ActError>>,
    },
    /// The id the step acts on names another node now than the one the agent acted
    /// on (an item added before it shifts keyed ids): acting would replay another
    /// session. Checked before the step acts.
    TargetChanged(Box<TargetChange>),
    /// A redacted input whose secret the test did not give ([`Replay::secret`](super::Replay::secret)); the
    /// node it was for, when known.
    SecretMissing(Option<String>),
    /// The recording cannot be replayed from here.
    NotReplayable(String),
    /// The app's code panicked while the step ran (its handler, or a frame drawn
    /// after it): the panic's message.
    Panicked(String),
    /// The app logged more errors at this step than the recorded session did.
    ErrorLogged {
        /// How many the session logged at this step.
        recorded: usize,
        /// The errors it logged now, one line each (`error todo: "message" {…}`).
        now: Vec<String>,
    },
}

/// What [`ReplayFailure::TargetChanged`] found.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TargetChange {
    /// The id.
    pub id: String,
    /// The node the agent acted on, as it saw it.
    pub recorded: RecordedTarget,
    /// The node at that id now.
    pub now: Option<RecordedTarget>,
    /// When the step re-finds a moved node: the ids of the nodes that have the
    /// recorded role and label now (none, or more than one).
    pub refound: Option<Vec<String>>,
}

impl ReplayError {
    pub(in crate::testing) fn new(
        step: u64,
        input: Option<String>,
        failure: ReplayFailure,
    ) -> ReplayError {
        ReplayError {
            step,
            input,
            between: false,
            failure,
            read_before: Vec::new(),
        }
    }

    /// A failure at a recorded input's step, naming the input.
    pub(in crate::testing) fn at(recorded: &RecordedInput, failure: ReplayFailure) -> ReplayError {
        ReplayError::new(recorded.step, Some(recorded.input.to_string()), failure)
    }

    /// At a line after step `step`, not the step itself.
    pub(super) fn between(mut self) -> ReplayError {
        self.between = true;
        self
    }

    pub(super) fn after(mut self, reads: &[String]) -> ReplayError {
        self.read_before = reads[reads.len().saturating_sub(READS_SHOWN)..].to_vec();
        self
    }
}

/// `button "Save"`, or `"Save"` alone when `role_too` is false; `button (no label)`.
fn node_words(target: &RecordedTarget, role_too: bool) -> String {
    let label = target
        .label
        .as_deref()
        .map(|label| OutlineQuoted(label).to_string());
    match (role_too, label) {
        (true, Some(label)) => format!("{} {label}", target.role.name()),
        (false, Some(label)) => label,
        (_, None) => format!("{} (no label)", target.role.name()),
    }
}

/// An answer in words: `delivered`, `rejected (handler_rejected): "the title is
/// empty"`.
fn answer_words(status: AckStatus, reason: Option<String>, message: Option<&str>) -> String {
    let mut words = wire_name(&status);
    if let Some(reason) = reason {
        words = format!("{words} ({reason})");
    }
    if let Some(message) = message.filter(|m| !m.is_empty()) {
        words = format!("{words}: {}", OutlineQuoted(message));
    }
    words
}

const REFIND_HINT: &str = "if the node moved on purpose, re-find it by its role and label: \
     `Replay::refind_moved`, or in a generated test `.refind(…)` for this step's `.seen(…)` \
     (`taria-mcp test-from --refind` writes that for every step)";

fn target_changed(f: &mut fmt::Formatter<'_>, change: &TargetChange) -> fmt::Result {
    let TargetChange {
        id,
        recorded,
        now,
        refound,
    } = change;
    let role_too = now.as_ref().is_none_or(|now| now.role != recorded.role);
    let then = node_words(recorded, role_too);
    let at_id = match now {
        Some(now) => format!("{} is now {}", OutlineName(id), node_words(now, role_too)),
        None => format!("{} is not drawn now", OutlineName(id)),
    };
    let wanted = node_words(recorded, true);
    match refound.as_deref() {
        None => writeln!(
            f,
            "{at_id}; the recorded session acted on {then}. Acting on it would replay another \
             session than the agent's; {REFIND_HINT}"
        ),
        Some([]) => writeln!(
            f,
            "{at_id}, and no node is {wanted} now: the node the recorded session acted on is \
             gone"
        ),
        Some(ids) => writeln!(
            f,
            "{at_id}, and several nodes are {wanted} now ({}): which one the recorded session \
             acted on is not known",
            ids.iter()
                .map(|id| OutlineName(id).to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

impl fmt::Display for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.input, &self.failure) {
            (Some(input), _) if self.between && self.step == 0 => {
                write!(f, "replay, before the first input ({input}): ")?;
            }
            (Some(input), _) if self.between => {
                write!(f, "replay, after step {} ({input}): ", self.step)?;
            }
            (Some(input), _) => write!(f, "replay step {} ({input}): ", self.step)?,
            (None, ReplayFailure::TreeDiffers(_)) if self.step == 0 => {
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
                let then = answer_words(
                    recorded.status,
                    recorded.reason.map(|r| wire_name(&r)),
                    recorded.message.as_deref(),
                );
                match now {
                    None => writeln!(
                        f,
                        "the app now takes it (delivered); the recorded session got {then}"
                    )?,
                    Some(error) => writeln!(
                        f,
                        "the app now answers {}; the recorded session got {then}",
                        answer_words(
                            error.status,
                            Some(wire_name(&error.reason)),
                            Some(&error.message)
                        )
                    )?,
                }
            }
            ReplayFailure::TargetChanged(change) => target_changed(f, change)?,
            ReplayFailure::SecretMissing(node) => writeln!(
                f,
                "this input was redacted in the recording: give its value with \
                 Replay::secret({:?}, …)",
                node.as_deref().unwrap_or("<the focused node>")
            )?,
            ReplayFailure::NotReplayable(why) => writeln!(f, "{why}")?,
            ReplayFailure::Panicked(message) => {
                writeln!(f, "the app panicked: {}", OutlineQuoted(message))?;
            }
            ReplayFailure::ErrorLogged { recorded, now } => {
                let errors = if now.len() == 1 { "error" } else { "errors" };
                writeln!(
                    f,
                    "the app logged {} {errors} here, the recorded session {recorded}:",
                    now.len()
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

/// The message itself: a test that returns `Err(ReplayError)` prints `Debug`.
impl fmt::Debug for ReplayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for ReplayError {}
