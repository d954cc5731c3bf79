//! Where an agent's input goes, in one place. Keys and text join the app's input
//! path (text only while a focused node takes it, unless `raw`: [`check_typing`]). An action is validated against the frame the app last drew, then tried on
//! these routes in order: the app's handler ([`Actions`]); a stateful widget, which
//! takes it while the next frame is drawn ([`take_widget_actions`]); the node's key
//! fallback, pressed through the app's input path once the node is selected
//! (`stage.rs`); else it is answered `ignored`. An id not drawn but under a scrolled
//! container (an item off screen) goes to the app's handler too, marked
//! [`Invocation::is_undrawn`] (no index, not validated against a node), then is held
//! for that container's widget; it has no key fallback (nothing drawn to press keys
//! on), so if no widget takes it, it is answered `unknown_node`.

mod keys;
mod reach;
mod reoffer;
mod stage;
mod validate;
mod widget;

use keys::chord_for_char;
pub use widget::{agent_changed, take_widget_actions, widget_state, widget_state_rebuilt};

use super::answer::Answer;
use super::assistive::is_assistive;
use super::events::Events;
use crate::dispatch::{Actions, Invocation, Outcome};
use crate::recorder::FrameArena;
use taria_schema::check::{FocusedNode, check_typing};
use taria_schema::protocol::{Input, KeyChord, RejectReason};
use taria_schema::{Action, ActionName, ActionRequest, StateFlags};

/// The routes after the handler: actions held for the next frame's widgets, and key
/// fallbacks in progress.
#[derive(Default)]
pub(super) struct Router {
    /// Actions held for the next frame's widgets.
    held: Vec<widget::WidgetAction>,
    /// Key fallbacks waiting for a frame after their navigation keys.
    stages: stage::Stages,
    /// The newest input a widget took while the last frame was drawn (0: none): it
    /// counts as handled from the frame after, which the app is owed.
    taken_in_last_frame: u64,
    /// Whether a widget took a screen reader's input while the last frame was drawn
    /// (`taken_in_last_frame` counts the bridge's only: it stamps their frames).
    reader_took_in_last_frame: bool,
    /// Inputs a widget took in the last frame whose answer waits for this one: did
    /// the app hand the widget back what it set ([`widget::widget_state`])?
    confirming: Vec<Confirming>,
    /// Inputs whose effect the app undid, offered to its `select` handler.
    reoffers: Vec<reoffer::Reoffer>,
}

/// An input taken by widget `widget`, answered after the next frame.
struct Confirming {
    connection: u64,
    seq: u64,
    widget: String,
    action: ActionName,
    target: String,
    /// The item the widget left selected, as the frame it took the input in shows it.
    item: Option<(String, u32)>,
}

impl Router {
    /// Routes input `seq` of `connection`: keys and text to `events`, an action to
    /// `app`'s handler (checked against `arena`, the frame last drawn) or held for
    /// the widgets. `None` when it is not answered yet (held, or keys queued).
    pub(super) fn route<A: Actions + ?Sized>(
        &mut self,
        app: &mut A,
        arena: &FrameArena,
        events: &mut Events,
        (connection, seq): (u64, u64),
        input: Input,
    ) -> Option<Answer> {
        match input {
            Input::Key { key } => match key.parse::<KeyChord>() {
                Ok(chord) => press(events, connection, seq, &[chord]),
                Err(e) => Some(Answer::rejected(RejectReason::InvalidInput, e.to_string())),
            },
            Input::Text { text, raw } => {
                if !raw && let Err(refused) = check_typing(focused_nodes(arena)) {
                    return Some(Answer::rejected(
                        RejectReason::NoTextInput,
                        refused.to_string(),
                    ));
                }
                let chords: Vec<KeyChord> = text.chars().map(chord_for_char).collect();
                press(events, connection, seq, &chords)
            }
            Input::Act(request) => self.act(app, arena, connection, seq, request),
        }
    }

    fn act<A: Actions + ?Sized>(
        &mut self,
        app: &mut A,
        arena: &FrameArena,
        connection: u64,
        seq: u64,
        mut request: ActionRequest,
    ) -> Option<Answer> {
        let index = match validate::validate(arena, &mut request) {
            Ok(index) => index,
            Err(answer) => {
                // An id off screen, under a scrolled list or table: the app's handler
                // first, as on screen (else the app would see an on-screen `select`
                // and not an off-screen one), then held for its widget.
                let Some(message) = validate::undrawn_holder(arena, &request) else {
                    return Some(answer);
                };
                match app.handle_action(&Invocation::of(&request, None).as_undrawn()) {
                    Outcome::Handled => return Some(Answer::delivered()),
                    Outcome::Rejected(reason) => {
                        return Some(Answer::rejected(RejectReason::HandlerRejected, reason));
                    }
                    Outcome::NotHandled => {}
                }
                self.held.push(widget::WidgetAction {
                    connection,
                    seq,
                    request,
                    index: None,
                    fallback: Err(message.into()),
                    outcome: None,
                    select_first: None,
                    undrawn: true,
                    taken_by: None,
                });
                return None;
            }
        };
        let position = arena.nodes[index as usize].position.index;
        match app.handle_action(&Invocation::of(&request, position)) {
            Outcome::Handled => return Some(Answer::delivered()),
            Outcome::Rejected(reason) => {
                return Some(Answer::rejected(RejectReason::HandlerRejected, reason));
            }
            Outcome::NotHandled => {}
        }
        // `focus` on the node that has the focus is done already: no widget or key
        // needs to do it again (its focus key, pressed again, would be typed into it).
        if request.action.core() == Some(Action::Focus)
            && arena.nodes[index as usize]
                .flags
                .contains(StateFlags::FOCUSED)
        {
            return Some(Answer::delivered());
        }
        // Hold it for the next frame: a stateful widget may take it while rendering;
        // if none does, its key fallback (worked out now, against the tree the agent
        // saw) presses it through the app's input path, once the node is selected:
        // by the app's `select` handler (called now), by its widget (offered a
        // `select` with the action), else by navigation keys.
        let mut fallback = keys::fallback_keys(arena, index, &request);
        let select_first =
            match stage::select_first(app, arena, (index, position), &request, &mut fallback) {
                Ok(select_first) => select_first,
                Err(answer) => return Some(answer),
            };
        self.held.push(widget::WidgetAction {
            connection,
            seq,
            request,
            index: position,
            fallback,
            outcome: None,
            select_first,
            undrawn: false,
            taken_by: None,
        });
        None
    }

    /// How many actions may still become key presses: held for the next frame, or a
    /// key fallback waiting for a frame after its navigation keys.
    pub(super) fn held(&self) -> usize {
        self.held.len() + self.stages.len() + self.reoffers.len()
    }

    /// Whether no held action, key fallback in progress or owed frame is left.
    pub(super) fn is_idle(&self) -> bool {
        self.held() == 0 && !self.frame_owed()
    }

    /// The newest input of the bridge's a widget took in the last frame (0: none).
    pub(super) fn taken_in_last_frame(&self) -> u64 {
        self.taken_in_last_frame
    }

    /// Whether a widget took an input in the last frame: the app owes a frame after it.
    pub(super) fn frame_owed(&self) -> bool {
        self.taken_in_last_frame > 0 || self.reader_took_in_last_frame
    }

    /// Drops every held action (a new connection starts with none).
    pub(super) fn clear(&mut self) {
        self.held.clear();
        self.stages.clear();
        self.taken_in_last_frame = 0;
        self.reader_took_in_last_frame = false;
        self.confirming.clear();
        self.reoffers.clear();
        widget::forget_states();
    }

    /// Offers `app`'s `select` handler the items widgets selected for inputs of
    /// `connection` that the app then undid (see `reoffer.rs`); the inputs answered
    /// now (refused, or no handler took the item), with their answers.
    pub(super) fn reoffer<A: Actions + ?Sized>(
        &mut self,
        app: &mut A,
        connection: u64,
    ) -> Vec<(u64, Answer)> {
        let mut answered = Vec::new();
        self.reoffers.retain_mut(|reoffer| {
            if reoffer.connection != connection || reoffer.offered {
                return reoffer.connection == connection;
            }
            match reoffer.offer(app) {
                Some(answer) => {
                    answered.push((reoffer.seq, answer));
                    false
                }
                None => true,
            }
        });
        answered
    }

    /// Whether an input waits to be offered to the app's `select` handler.
    pub(super) fn reoffer_waits(&self) -> bool {
        self.reoffers.iter().any(|r| !r.offered)
    }

    /// A frame begins: the held actions are lent to this thread's widgets until
    /// [`Router::end_frame`]. Returns the first held input of `connection` (its
    /// effect is the next frame).
    pub(super) fn begin_frame(&mut self, connection: u64) -> Option<u64> {
        self.taken_in_last_frame = 0;
        self.reader_took_in_last_frame = false;
        let first_held = self
            .held
            .iter()
            .filter(|a| a.connection == connection)
            .map(|a| a.seq)
            .min();
        widget::lend_held(&mut self.held);
        first_held
    }

    /// The frame [`Router::begin_frame`] began is drawn: the held actions its
    /// widgets did not take come back.
    pub(super) fn end_frame(&mut self) {
        widget::return_held(&mut self.held);
    }

    /// Settles the actions held for the frame just drawn (`arena`), for `connection`
    /// (the others are dropped): taken by a widget, refused by it, else its key
    /// fallback starts (`stage.rs`); and key fallbacks whose navigation keys were read
    /// before this frame go on. `on` gets each input number answered and its answer.
    pub(super) fn settle(
        &mut self,
        connection: u64,
        arena: &FrameArena,
        events: &mut Events,
        mut on: impl FnMut(u64, Answer),
    ) {
        self.stages.advance(connection, arena, events, &mut on);
        // Offered to the app's handler before this frame: it shows the item selected.
        self.reoffers.retain(|reoffer| {
            if reoffer.connection == connection && reoffer.offered {
                on(reoffer.seq, reoffer.confirm(arena));
                return false;
            }
            reoffer.connection == connection
        });
        // Taken in the frame before: this frame showed whether the app kept it; if the
        // app undid it, the item the widget selected goes to the app's handler.
        for taken in self.confirming.drain(..) {
            if taken.connection != connection {
                continue;
            }
            let answer = match (widget::take_verdict(&taken.widget), taken.item) {
                (Some(false), Some(item)) => {
                    self.reoffers.push(reoffer::Reoffer {
                        connection,
                        seq: taken.seq,
                        widget: taken.widget,
                        action: taken.action,
                        target: taken.target,
                        item,
                        offered: false,
                    });
                    events.signal.poke();
                    continue;
                }
                // A scroll with nothing selected moves only the view, which no
                // handler keeps: it says nothing of a `select` handler the app may have,
                // so the widget goes on taking (and handing over) selections.
                (Some(false), None) if taken.action.core() == Some(Action::Scroll) => {
                    Answer::view_not_kept(&taken.widget, &taken.target)
                }
                (Some(false), None) => {
                    widget::mark_rebuilt(&taken.widget);
                    Answer::state_rebuilt(&taken.widget, &taken.action, &taken.target)
                }
                _ => Answer::delivered(),
            };
            on(taken.seq, answer);
        }
        let mut actions = std::mem::take(&mut self.held);
        for mut action in actions.drain(..) {
            if action.connection != connection {
                continue;
            }
            let seq = action.seq;
            match action.outcome.take() {
                Some(Outcome::Handled) => {
                    if is_assistive(seq) {
                        self.reader_took_in_last_frame = true;
                    } else {
                        self.taken_in_last_frame = self.taken_in_last_frame.max(seq);
                    }
                    match action.taken_by {
                        // Answered after the next frame, which shows if it stuck.
                        Some(widget) if widget::awaits_next_frame(&widget) => {
                            self.confirming.push(Confirming {
                                connection,
                                seq,
                                item: reoffer::selected_item(arena, &widget),
                                widget,
                                action: action.request.action,
                                target: action.request.target.as_str().to_owned(),
                            });
                        }
                        _ => on(seq, Answer::taken_in_frame()),
                    }
                }
                Some(Outcome::Rejected(reason)) => {
                    on(seq, Answer::rejected(RejectReason::WidgetRejected, reason));
                }
                // An id off screen that no widget found: it names nothing.
                Some(Outcome::NotHandled) | None if action.undrawn => {
                    let message = action.fallback.err().map(|e| e.message).unwrap_or_default();
                    on(seq, Answer::rejected(RejectReason::UnknownNode, message));
                }
                Some(Outcome::NotHandled) | None => {
                    if let Some(answer) = self.stages.start(action, arena, events) {
                        on(seq, answer);
                    }
                }
            }
        }
        // Hand the (empty) vector back to keep its capacity.
        self.held = actions;
    }
}

/// Queues keys for the app's input path (answered when the app reads the last one),
/// or answers at once when they cannot reach it.
///
/// With no keys (a `select` of the item selected already, by a key fallback), it is
/// done, and answered at once; the loop is woken (a `FocusGained`) to draw the frame
/// that shows so. The frame just drawn does not: it was stamped below the input,
/// held for its widgets. Without the wake-up, a loop that draws only when its own
/// state changed would draw nothing, and the bridge would wait for that frame in vain.
pub(super) fn press(
    events: &mut Events,
    connection: u64,
    seq: u64,
    chords: &[KeyChord],
) -> Option<Answer> {
    if !events.press(connection, seq, chords) {
        return Some(keys_unreachable());
    }
    if chords.is_empty() {
        events.signal.poke();
        return Some(Answer::delivered());
    }
    None
}

/// The nodes of the frame `arena` drawn with focus, in tree order.
fn focused_nodes(arena: &FrameArena) -> impl Iterator<Item = FocusedNode<'_>> {
    arena
        .nodes
        .iter()
        .filter(|record| record.flags.contains(StateFlags::FOCUSED))
        .map(|record| FocusedNode {
            role: record.role,
            custom_role: record.custom_role.map(|s| arena.str(s)),
            id: arena.str(record.id),
            label: record.label.map(|s| arena.str(s)),
        })
}

/// The answer when the app does not read events through taria.
fn keys_unreachable() -> Answer {
    Answer::ignored(
        "the app does not read events through taria::event (use #[taria::app], or taria::event::read/poll in its loop), so keys cannot reach it".into(),
    )
}
