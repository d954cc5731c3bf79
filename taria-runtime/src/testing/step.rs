//! [`Step`]: one step of a recorded session run on an [`AppHarness`] and checked as
//! [`Replay`](super::Replay) checks it: the node the agent acted on is still the one
//! at that id, and the app answers as it did. What a test `taria-mcp test-from`
//! writes calls, and what `Replay` runs for each input line, so both fail alike.

use super::replay::error::{ReplayError, ReplayFailure, TargetChange};
use super::{AppHarness, Match};
use crate::dispatch::Actions;
use taria_schema::protocol::{AckStatus, Input, RejectReason, target_token};
use taria_schema::recording::{RecordedAck, RecordedInputData, RecordedTarget};
use taria_schema::{ActionData, ActionRequest, Node, Role, ScrollDirection, Tree, Value};

/// Step `number` of a recorded session, about to be sent to an [`AppHarness`]
/// ([`AppHarness::step`]): what the agent meant by it (the node it acted on, as it saw
/// it) and what the app answered then, checked when the input is sent.
///
/// By default the app must take the input (`delivered`). The modifiers say otherwise
/// and what the node was; then one of the input methods ([`act`](Step::act),
/// [`set_value`](Step::set_value), [`press`](Step::press), …) sends it. Its error is a
/// [`ReplayError`] naming the step, the input, what was recorded and what is now.
///
/// # Examples
///
/// ```
/// use taria::testing::{AppHarness, Match};
/// use taria::testing::{AckStatus, RejectReason};
/// use taria::Role;
///
/// # #[derive(Default)] struct Counter { count: u32 }
/// # #[taria::actions] impl Counter {
/// #     #[action(node = "count", "bump")] fn bump(&mut self) { self.count += 1; }
/// # }
/// # fn draw(frame: &mut ratatui::Frame<'_>, counter: &mut Counter) {
/// #     let _node = taria::scope(|n| {
/// #         n.role(Role::Button).id("count").label(format!("Count {}", counter.count))
/// #             .custom_action("bump").bounds(frame.area());
/// #     });
/// # }
/// let rules = Match::new().label("count", "Count *");
/// let mut h = AppHarness::new(Counter::default(), 20, 1, draw);
/// h.step(1, &rules).seen(Role::Button, "Count 0").act("count", "bump")?;
/// h.step(2, &rules)
///     .refused(AckStatus::Rejected, RejectReason::ActionNotOffered)
///     .act("count", "toggle")?;
///
/// // The node at an id is another one now: the step fails before acting.
/// let error = h.step(3, &rules).seen(Role::Checkbox, "Count 1").act("count", "bump");
/// let message = error.unwrap_err().to_string();
/// assert!(message.starts_with("replay step 3 (act count bump): count is now button"), "{message}");
/// # Ok::<(), taria::testing::ReplayError>(())
/// ```
#[must_use = "a step does nothing until an input method (act, press, …) sends it"]
pub struct Step<'h, A> {
    harness: &'h mut AppHarness<A>,
    rules: &'h Match,
    number: u64,
    aim: Option<Aim>,
    answer: Option<RecordedAck>,
}

/// The node an act was aimed at, as the agent saw it, and whether a node that moved
/// to another id is found again by its role and label.
#[derive(Clone, Debug)]
pub(super) struct Aim {
    pub(super) target: RecordedTarget,
    pub(super) refind: bool,
}

impl<A: Actions> AppHarness<A> {
    /// Step `number` of a recorded session, checked under `rules` (the ones its
    /// snapshots are compared under: a label a rule lets change may change in the
    /// step's checks too). See [`Step`].
    pub fn step<'h>(&'h mut self, number: u64, rules: &'h Match) -> Step<'h, A> {
        Step {
            harness: self,
            rules,
            number,
            aim: None,
            answer: Some(delivered()),
        }
    }
}

impl<A: Actions> Step<'_, A> {
    /// The node the step acts on was a `role` labelled `label` when the agent acted
    /// on it (`""`: no label): the step fails, before it acts, when the node at that id
    /// now is another one.
    pub fn seen(mut self, role: Role, label: &str) -> Self {
        self.aim = Some(Aim {
            target: target(role, label),
            refind: false,
        });
        self
    }

    /// Like [`seen`](Step::seen), but when the node at that id now is another one,
    /// the step acts on the one node that is a `role` labelled `label`, wherever it
    /// is now (an item added before it moved it to another id); it fails when no
    /// node, or more than one, is.
    pub fn refind(mut self, role: Role, label: &str) -> Self {
        self.aim = Some(Aim {
            target: target(role, label),
            refind: true,
        });
        self
    }

    /// The app did not take the input in the recorded session: it answered `status`
    /// (`rejected`, `ignored`) for `reason` (`None`: any reason).
    pub fn refused(mut self, status: AckStatus, reason: impl Into<Option<RejectReason>>) -> Self {
        let answer = self.answer.get_or_insert_with(delivered);
        answer.status = status;
        answer.reason = reason.into();
        self
    }

    /// The app's refusal said `message`; compared as the label of the node the
    /// step acts on is (a [`Match::label`] rule on its id lets it change within its
    /// pattern).
    pub fn saying(mut self, message: &str) -> Self {
        self.answer.get_or_insert_with(delivered).message = Some(message.to_owned());
        self
    }

    /// The recorded session got no answer (the app went away first): any answer
    /// passes.
    pub fn any_answer(mut self) -> Self {
        self.answer = None;
        self
    }

    /// Sends [`AppHarness::act`].
    ///
    /// # Errors
    /// The node at `node` is not the one the agent acted on, or the app answers
    /// otherwise than recorded.
    pub fn act(self, node: &str, action: &str) -> Result<(), ReplayError> {
        self.send(Input::Act(ActionRequest::new(node, action)))
    }

    /// Sends [`AppHarness::act_with`].
    ///
    /// # Errors
    /// As [`act`](Step::act).
    pub fn act_with(self, node: &str, action: &str, value: Value) -> Result<(), ReplayError> {
        let mut request = ActionRequest::new(node, action);
        request.data = Some(ActionData::Value { value });
        self.send(Input::Act(request))
    }

    /// Sends [`AppHarness::act_seen`]: `token` names the node the agent saw at `node`.
    ///
    /// # Errors
    /// As [`act`](Step::act).
    pub fn act_seen(self, node: &str, action: &str, token: &str) -> Result<(), ReplayError> {
        let mut request = ActionRequest::new(node, action);
        request.token = Some(token.to_owned());
        self.send(Input::Act(request))
    }

    /// Sends [`AppHarness::set_value`].
    ///
    /// # Errors
    /// As [`act`](Step::act).
    pub fn set_value(self, node: &str, value: impl Into<Value>) -> Result<(), ReplayError> {
        self.act_with(node, "set_value", value.into())
    }

    /// Sends [`AppHarness::scroll`].
    ///
    /// # Errors
    /// As [`act`](Step::act).
    pub fn scroll(
        self,
        node: &str,
        direction: ScrollDirection,
        amount: u32,
    ) -> Result<(), ReplayError> {
        let mut request = ActionRequest::new(node, taria_schema::Action::Scroll);
        request.data = Some(ActionData::Scroll { direction, amount });
        self.send(Input::Act(request))
    }

    /// Sends [`AppHarness::press`].
    ///
    /// # Errors
    /// The app answers otherwise than recorded.
    pub fn press(self, key: &str) -> Result<(), ReplayError> {
        self.send(Input::Key { key: key.into() })
    }

    /// Sends [`AppHarness::type_text`].
    ///
    /// # Errors
    /// The app answers otherwise than recorded.
    pub fn type_text(self, text: &str) -> Result<(), ReplayError> {
        self.send(Input::Text {
            text: text.into(),
            raw: false,
        })
    }

    /// Sends [`AppHarness::type_text_raw`].
    ///
    /// # Errors
    /// The app answers otherwise than recorded.
    pub fn type_text_raw(self, text: &str) -> Result<(), ReplayError> {
        self.send(Input::Text {
            text: text.into(),
            raw: true,
        })
    }

    fn send(self, input: Input) -> Result<(), ReplayError> {
        let redacted = carries_secret(&input, &self.harness.tree());
        let sent = StepInput {
            number: self.number,
            sent: RecordedInputData { input, redacted },
            aim: self.aim,
            answer: self.answer,
        };
        sent.run(self.harness, self.rules)
    }
}

fn delivered() -> RecordedAck {
    RecordedAck {
        status: AckStatus::Delivered,
        reason: None,
        message: None,
    }
}

fn target(role: Role, label: &str) -> RecordedTarget {
    RecordedTarget {
        role,
        label: (!label.is_empty()).then(|| label.to_owned()),
    }
}

/// One step as it is run: the input (its secret filled in), whether it carried one
/// (then it is described without it), its aim and the recorded answer (`None`: any).
pub(super) struct StepInput {
    pub(super) number: u64,
    /// The input, its secret supplied; `redacted` when that secret must not be
    /// shown.
    pub(super) sent: RecordedInputData,
    pub(super) aim: Option<Aim>,
    pub(super) answer: Option<RecordedAck>,
}

impl StepInput {
    /// Checks the aim (re-aiming a moved node when asked), sends the input, and
    /// compares the app's answer with the recorded one.
    pub(super) fn run<A: Actions>(
        mut self,
        harness: &mut AppHarness<A>,
        rules: &Match,
    ) -> Result<(), ReplayError> {
        let described = self.sent.to_string();
        let fail = |failure| ReplayError::new(self.number, Some(described.clone()), failure);
        let now = harness.tree();
        // The aim is checked on the tree before the step, the answer after it.
        let before = Rules {
            rules,
            step: self.number.saturating_sub(1),
        };
        let after = Rules {
            rules,
            step: self.number,
        };
        if let (Input::Act(request), Some(aim)) = (&mut self.sent.input, &self.aim) {
            aim_at(request, aim, &now, before).map_err(fail)?;
        }
        let message_id = match &self.sent.input {
            Input::Act(request) => Some(request.target.to_string()),
            _ => None,
        };
        let answer = harness
            .submit_step(self.sent.input, self.number, &described)
            .map_err(|message| fail(ReplayFailure::Panicked(message)))?;
        let Some(recorded) = &self.answer else {
            return Ok(());
        };
        if same_answer(recorded, &answer, after, message_id.as_deref()).map_err(fail)? {
            return Ok(());
        }
        Err(fail(ReplayFailure::AckDiffers {
            recorded: recorded.clone(),
            now: answer.err().map(Box::new),
        }))
    }
}

/// Checks that the node at `request`'s id is the one `aim` names; with
/// [`Aim::refind`], points `request` at the one node that is, wherever it is now.
/// An id with no node drawn now passes: the app's answer says what became of it.
fn aim_at(
    request: &mut ActionRequest,
    aim: &Aim,
    now: &Tree,
    rules: Rules<'_>,
) -> Result<(), ReplayFailure> {
    let id = request.target.to_string();
    let at_id = now.get(&id);
    if let Some(node) = at_id
        && is_target(node, &aim.target, rules)?
    {
        return Ok(());
    }
    if !aim.refind {
        return match at_id {
            None => Ok(()),
            Some(node) => Err(ReplayFailure::TargetChanged(Box::new(TargetChange {
                id,
                recorded: aim.target.clone(),
                now: Some(RecordedTarget::of(node)),
                refound: None,
            }))),
        };
    }
    let mut found: Vec<&Node> = Vec::new();
    for node in now.iter() {
        if is_target(node, &aim.target, rules)? {
            found.push(node);
        }
    }
    match found.as_slice() {
        [node] => {
            request.target = node.id.clone();
            if request.token.is_some() {
                request.token = Some(target_token(node));
            }
            Ok(())
        }
        _ => Err(ReplayFailure::TargetChanged(Box::new(TargetChange {
            id,
            recorded: aim.target.clone(),
            now: at_id.map(RecordedTarget::of),
            refound: Some(found.iter().map(|node| node.id.to_string()).collect()),
        }))),
    }
}

/// The rules as they apply at one step (step 0: the first tree; step N: the tree
/// after step N).
#[derive(Clone, Copy)]
struct Rules<'r> {
    rules: &'r Match,
    step: u64,
}

/// Whether `node` is the node `target` describes: its role, and its label as
/// `rules` compare it (a label rule on its id lets it change within the pattern).
fn is_target(
    node: &Node,
    target: &RecordedTarget,
    rules: Rules<'_>,
) -> Result<bool, ReplayFailure> {
    Ok(node.role == target.role
        && same_text(
            rules,
            node.id.as_str(),
            node.label.as_deref(),
            target.label.as_deref(),
        )?)
}

/// Whether two labels of node `id` count as the same under `rules`: equal, or equal
/// once the rules have projected them (each replaced by the pattern it fits), or the
/// node is left out of comparisons altogether. Two label rules on `id` at the step
/// make it not replayable.
fn same_text(
    rules: Rules<'_>,
    id: &str,
    a: Option<&str>,
    b: Option<&str>,
) -> Result<bool, ReplayFailure> {
    let (a, b) = (a.filter(|t| !t.is_empty()), b.filter(|t| !t.is_empty()));
    if a == b {
        return Ok(true);
    }
    let projected = |label: Option<&str>| {
        let mut node = Node::default();
        node.id = id.into();
        node.label = label.map(str::to_owned);
        let mut tree = Tree::default();
        tree.roots = vec![node];
        rules
            .rules
            .project(&tree, rules.step)
            .map(|projected| projected.roots.first().map(|node| node.label.clone()))
            .map_err(|conflict| ReplayFailure::NotReplayable(conflict.to_string()))
    };
    Ok(match (projected(a)?, projected(b)?) {
        (Some(a), Some(b)) => a == b,
        // Excluded: not compared.
        _ => true,
    })
}

/// Whether the app's answer now is the recorded one: its status, its reason when one
/// was recorded, and its message when one was recorded (under `rules`, as the label
/// of node `id`, the node the step acted on).
fn same_answer(
    recorded: &RecordedAck,
    now: &Result<(), super::ActError>,
    rules: Rules<'_>,
    id: Option<&str>,
) -> Result<bool, ReplayFailure> {
    let error = match now {
        Ok(()) => return Ok(recorded.status == AckStatus::Delivered),
        Err(error) => error,
    };
    if recorded.status != error.status || recorded.reason.is_some_and(|r| r != error.reason) {
        return Ok(false);
    }
    match (recorded.message.as_deref(), id) {
        (None, _) => Ok(true),
        (Some(message), _) if message == error.message => Ok(true),
        (Some(message), Some(id)) => same_text(rules, id, Some(message), Some(&error.message)),
        (Some(_), None) => Ok(false),
    }
}

/// Whether `input` carries a secret in `tree`: a value for a redacted node, or text
/// or a character key while the focus holds a redacted node.
fn carries_secret(input: &Input, tree: &Tree) -> bool {
    fn holds_secret(node: &Node) -> bool {
        node.state.redacted || node.children.iter().any(holds_secret)
    }
    match input {
        Input::Act(ActionRequest {
            target,
            data: Some(ActionData::Value { .. }),
            ..
        }) => tree
            .get(target.as_str())
            .is_some_and(|node| node.state.redacted),
        Input::Text { .. } | Input::Key { .. } => tree.focused().is_some_and(holds_secret),
        Input::Act(_) => false,
    }
}

#[cfg(test)]
mod tests;
