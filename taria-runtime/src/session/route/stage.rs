//! A key fallback in stages, so an action's key never lands on the wrong item: the
//! selection is moved onto the node first (by the app's `select` handler, by the
//! node's widget, else by navigation keys through the app's input path), a frame is
//! drawn, and the action's key is pressed only if that frame shows the node
//! selected. Otherwise the agent hears which node is selected and that the action
//! was not performed: the app's keys may not move the selection the way a
//! ratatui list's do.
//!
//! The cheapest way the app has goes first: its `select` handler for the node (called
//! right after its handler for the action said no), else a `select` held with the action
//! for the node's widget (a `List`'s row far down costs no keys), else navigation keys,
//! from the selected sibling or, with none selected, from the first "next" key, which
//! ratatui's `ListState`/`TableState::select_next` turn into item 0. Trusting the keys
//! blind is what an agent hit on the todo app: one wrong step, and `delete` removed the
//! wrong task. An item of a list that does not have focus, where the list declares its
//! `focus` keys, is staged one step earlier (`Selecting::AfterFocus`): the focus keys
//! alone, a frame that must show the list focused, then the navigation keys read from
//! *that* frame, since an app may keep, clamp or reset a list's selection when the focus
//! comes to it (planned from the frame before, a kanban board's `down` landed on the wrong
//! card). A staged fallback counts as held (`Router::held`), so later inputs, keys
//! included, wait behind it.

use std::borrow::Cow;

use super::keys::{KeyPlan, NoKeys, Selecting};
use super::widget::{SelectFirst, WidgetAction};
use super::{keys_unreachable, press};
use crate::dispatch::{Actions, Invocation, Outcome};
use crate::recorder::FrameArena;
use crate::session::answer::Answer;
use crate::session::events::Events;
use taria_schema::outline::OutlineName;
use taria_schema::protocol::{KeyChord, RejectReason};
use taria_schema::{Action, ActionName, ActionRequest, StateFlags, Tree};

/// Key fallbacks whose navigation keys are queued: each waits for the app to read
/// them and draw a frame, which must show its node selected.
#[derive(Default)]
pub(super) struct Stages {
    waiting: Vec<Staged>,
}

/// One key fallback between its navigation keys and its own keys.
struct Staged {
    connection: u64,
    seq: u64,
    target: String,
    action: ActionName,
    /// What moved the selection, in words ("pressing `down` 3 times").
    how: Cow<'static, str>,
    /// The node's own keys (focus, the action's), pressed once it is selected.
    keys: Vec<KeyChord>,
    /// The parent list's id, to say which sibling is selected instead.
    parent: Option<String>,
    /// The navigation keys pressed, in words (`` `down` 3 times ``), with the tree
    /// before them, to say what they changed if the node is not selected after.
    pressed: Option<(String, Tree)>,
    /// The list it is an item of, while the keys that give that list the focus wait
    /// for the frame that must show it focused ([`Selecting::AfterFocus`]).
    focusing: Option<String>,
}

/// What a staged key fallback does after a frame.
enum Step {
    /// It is answered (`None`: its keys are pressed, the answer comes with their
    /// effect).
    Done(Option<Answer>),
    /// It pressed more keys and waits for the frame after them.
    Wait(Box<Staged>),
}

impl Stages {
    /// How many wait for a frame.
    pub(super) fn len(&self) -> usize {
        self.waiting.len()
    }

    /// Drops them all (a new connection starts with none).
    pub(super) fn clear(&mut self) {
        self.waiting.clear();
    }

    /// Starts the key fallback of `action`, which no widget took in the frame just
    /// drawn (`arena`); the answer, unless it waits for its keys to be read.
    pub(super) fn start(
        &mut self,
        action: WidgetAction,
        arena: &FrameArena,
        events: &mut Events,
    ) -> Option<Answer> {
        let WidgetAction {
            connection,
            seq,
            request,
            fallback,
            select_first,
            ..
        } = action;
        let plan = match fallback {
            Ok(Some(plan)) => plan,
            Ok(None) => {
                return Some(Answer::ignored(format!(
                    "nothing in the app takes `{action}` on `{node}`: no handler, no widget, no key fallback \
                     (the app can add #[action(node = \"{node}\", {action})], a taria::on(\"{node}\", …) closure \
                     for state in locals, or actions({action} = key(\"…\")))",
                    action = request.action,
                    node = request.target,
                )));
            }
            Err(refused) => return Some(refused.answer()),
        };
        let KeyPlan {
            mut selecting,
            keys,
            parent,
        } = plan;
        match select_first.and_then(|s| s.outcome) {
            Some(Outcome::Handled) => selecting = Selecting::Selected("its widget took `select`"),
            Some(Outcome::Rejected(reason)) => return Some(refused_select(&request, &reason)),
            _ => {}
        }
        let mut staged = Staged {
            connection,
            seq,
            target: request.target.as_str().to_owned(),
            action: request.action,
            how: Cow::Borrowed(""),
            keys,
            parent,
            pressed: None,
            focusing: None,
        };
        match selecting {
            Selecting::Already => press(events, connection, seq, &staged.keys),
            Selecting::Selected(how) => {
                staged.how = Cow::Borrowed(how);
                self.step(staged.finish(arena, events))
            }
            Selecting::AfterFocus { keys, holder } => {
                if !events.press_stage(connection, seq, &keys) {
                    return Some(keys_unreachable());
                }
                staged.how = Cow::Owned(format!("pressing {}", in_words(&keys)));
                staged.pressed = Some((in_words(&keys), arena.to_tree()));
                staged.focusing = Some(holder);
                self.waiting.push(staged);
                None
            }
            Selecting::ByKeys(Err(message)) => Some(Answer::ignored(message)),
            Selecting::ByKeys(Ok(navigation)) => {
                staged.how = Cow::Owned(navigation.how);
                if navigation.keys.is_empty() {
                    return self.step(staged.finish(arena, events));
                }
                if !events.press_stage(connection, seq, &navigation.keys) {
                    return Some(keys_unreachable());
                }
                staged.pressed = Some((navigation.pressed, arena.to_tree()));
                self.waiting.push(staged);
                None
            }
        }
    }

    /// After a frame (`arena`): each fallback of `connection` whose navigation keys
    /// the app read before it is checked against it, then its keys are pressed or it
    /// is refused; `on` gets the answers. Those of other connections are dropped.
    pub(super) fn advance(
        &mut self,
        connection: u64,
        arena: &FrameArena,
        events: &mut Events,
        mut on: impl FnMut(u64, Answer),
    ) {
        if self.waiting.is_empty() {
            return;
        }
        let mut waiting = std::mem::take(&mut self.waiting);
        for staged in waiting.drain(..) {
            if staged.connection != connection {
                continue;
            }
            if events.keys_left_of(connection, staged.seq) {
                self.waiting.push(staged);
                continue;
            }
            let seq = staged.seq;
            if let Some(answer) = self.step(staged.finish(arena, events)) {
                on(seq, answer);
            }
        }
    }

    /// The answer of a step, if it has one now; a fallback that waits again is kept.
    fn step(&mut self, step: Step) -> Option<Answer> {
        match step {
            Step::Done(answer) => answer,
            Step::Wait(staged) => {
                self.waiting.push(*staged);
                None
            }
        }
    }
}

/// Keys in words: `` `l` twice `` for one key pressed twice, else each in order.
fn in_words(keys: &[KeyChord]) -> String {
    match keys {
        [] => "no key".to_owned(),
        [one] => format!("`{one}` once"),
        [first, rest @ ..] if rest.iter().all(|k| k == first) => {
            format!("`{first}` {} times", keys.len())
        }
        _ => keys
            .iter()
            .map(|k| format!("`{k}`"))
            .collect::<Vec<_>>()
            .join(", "),
    }
}

impl Staged {
    /// After the frame `arena`: once its list shows focus, moves the selection onto
    /// the node by the keys that frame calls for; once the node is selected, presses
    /// its keys; else refuses, saying what is focused or selected instead.
    fn finish(mut self, arena: &FrameArena, events: &mut Events) -> Step {
        let Some(holder) = self.focusing.take() else {
            return Step::Done(self.press_if_selected(arena, events));
        };
        let focused = arena
            .find(&holder)
            .is_some_and(|h| arena.nodes[h as usize].flags.contains(StateFlags::FOCUSED));
        let target = arena.find(&self.target);
        let selected =
            target.is_some_and(|t| arena.nodes[t as usize].flags.contains(StateFlags::SELECTED));
        if !focused || selected {
            if !focused {
                let instead = match arena
                    .nodes
                    .iter()
                    .find(|n| n.flags.contains(StateFlags::FOCUSED))
                {
                    Some(other) => format!("`{}` has focus, not `{holder}`", arena.str(other.id)),
                    None => format!("`{holder}` is not shown focused"),
                };
                return Step::Done(Some(self.not_performed(
                    arena,
                    &instead,
                    "(the app's keys do not move the focus that way)",
                )));
            }
            return Step::Done(self.press_if_selected(arena, events));
        }
        let Some(target) = target else {
            let instead = format!("`{}` is not in the frame the app drew", self.target);
            return Step::Done(Some(self.not_performed(arena, &instead, "")));
        };
        match super::keys::navigation(arena, target, &self.action) {
            Err(message) => Step::Done(Some(Answer::ignored(message))),
            Ok(navigation) => {
                if !events.press_stage(self.connection, self.seq, &navigation.keys) {
                    return Step::Done(Some(keys_unreachable()));
                }
                let focus = self
                    .pressed
                    .take()
                    .map(|(keys, _)| keys)
                    .unwrap_or_default();
                self.how = Cow::Owned(format!("{}, then {}", self.how, navigation.how));
                self.pressed = Some((
                    format!("{focus}, then {}", navigation.pressed),
                    arena.to_tree(),
                ));
                Step::Wait(Box::new(self))
            }
        }
    }

    /// Presses the node's keys if `arena` shows it selected; else refuses, saying
    /// what is selected instead.
    fn press_if_selected(self, arena: &FrameArena, events: &mut Events) -> Option<Answer> {
        let selected = |node: u32| {
            arena.nodes[node as usize]
                .flags
                .contains(StateFlags::SELECTED)
        };
        let instead = match arena.find(&self.target) {
            Some(node) if selected(node) => {
                return press(events, self.connection, self.seq, &self.keys);
            }
            None => format!("`{}` is not in the frame the app drew", self.target),
            Some(_) => {
                let parent = self
                    .parent
                    .as_deref()
                    .and_then(|p| arena.find(p).map(|i| (p, i)));
                match parent {
                    Some((id, parent)) => match arena.children(parent).find(|&c| selected(c)) {
                        Some(other) => format!(
                            "`{}` is selected, not `{}`",
                            arena.str(arena.nodes[other as usize].id),
                            self.target
                        ),
                        None => format!("nothing in `{id}` is shown as selected"),
                    },
                    None => format!("`{}` is not shown as selected", self.target),
                }
            }
        };
        Some(self.not_performed(
            arena,
            &instead,
            "(the app's keys do not move its selection that way)",
        ))
    }

    /// The refusal: the node is not where its keys were to be pressed (`instead`,
    /// `why`), after what was pressed to get it there.
    fn not_performed(&self, arena: &FrameArena, instead: &str, why: &str) -> Answer {
        let done = match &self.pressed {
            Some((keys, before)) => format!(
                ", but keys were pressed: {keys}; after them, {instead} {why}, and {}",
                changed(before, &arena.to_tree())
            ),
            None => format!(": after {}, {instead} {why}", self.how),
        };
        Answer::ignored(format!(
            "`{action}` on `{target}` was not performed{done}; the app can add \
             #[action(node = \"{target}\", {action})], or a `select` handler for it",
            action = self.action,
            target = self.target,
        ))
    }
}

/// The most ids a refusal names of what keys changed.
const MAX_NAMED: usize = 8;

/// What keys changed from `before` to `after`, in words: `` they changed: `a`, `b`;
/// removed `c` `` (the first few ids of each), or that they changed nothing.
fn changed(before: &Tree, after: &Tree) -> String {
    let patch = after.diff(before);
    let names = |ids: Vec<&str>| {
        let mut text: Vec<String> = ids
            .iter()
            .take(MAX_NAMED)
            .map(|id| format!("`{}`", OutlineName(id)))
            .collect();
        if ids.len() > MAX_NAMED {
            text.push(format!("{} more", ids.len() - MAX_NAMED));
        }
        text.join(", ")
    };
    let touched: Vec<&str> = patch
        .added
        .iter()
        .map(|n| n.node.id.as_str())
        .chain(patch.updated.iter().map(|u| u.id.as_str()))
        .collect();
    let removed: Vec<&str> = patch
        .removed
        .iter()
        .map(taria_schema::NodeId::as_str)
        .collect();
    match (touched.is_empty(), removed.is_empty()) {
        (true, true) => "they changed nothing in the tree".to_owned(),
        (false, true) => format!("they changed: {}", names(touched)),
        (true, false) => format!("they removed {}", names(removed)),
        (false, false) => format!(
            "they changed: {}; removed {}",
            names(touched),
            names(removed)
        ),
    }
}

/// Before an action's key fallback moves the selection by keys: the app's `select`
/// handler for the node selects it instead, when there is one (the frame drawn next
/// must show it selected); else a `select` is offered to the node's widget with the
/// action (returned, to hold with it). An `Err` is the answer: the handler refused.
pub(super) fn select_first<A: Actions + ?Sized>(
    app: &mut A,
    arena: &FrameArena,
    (index, position): (u32, Option<u32>),
    request: &ActionRequest,
    fallback: &mut Result<Option<KeyPlan>, NoKeys>,
) -> Result<Option<SelectFirst>, Answer> {
    let Ok(Some(plan)) = fallback else {
        return Ok(None);
    };
    if !plan.needs_selecting() || !arena.nodes[index as usize].actions.contains(Action::Select) {
        return Ok(None);
    }
    let select = ActionRequest::new(request.target.clone(), Action::Select);
    match app.handle_action(&Invocation::of(&select, position)) {
        Outcome::Handled => {
            plan.selecting = Selecting::Selected("the app's `select` handler ran");
            Ok(None)
        }
        Outcome::Rejected(reason) => Err(refused_select(request, &reason)),
        Outcome::NotHandled => Ok(Some(SelectFirst {
            request: select,
            outcome: None,
        })),
    }
}

/// The answer when selecting the node first was refused.
fn refused_select(request: &ActionRequest, reason: &str) -> Answer {
    Answer::rejected(
        RejectReason::HandlerRejected,
        format!(
            "`{}` on `{}` was not performed: selecting it first was refused: {reason}",
            request.action, request.target
        ),
    )
}
