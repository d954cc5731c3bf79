//! The widget-state route: actions no handler took are held for the next frame, and a
//! stateful widget takes the ones addressed to it while it renders (as egui widgets
//! take AccessKit requests), so `select` on a list lands in the app's own `ListState`
//! with no app code. [`agent_changed`] tells the app which widgets took one, for
//! state it derives from theirs.
//!
//! Why not the app's input path: a widget takes the action while it renders, where the
//! app's key handler does not run, so state the app updates in that handler (ratatui's
//! table example moves its `ScrollbarState` in `next_row`) would go stale with no error.
//! Sending the action as keys instead does not scale (row 5,000 is 5,000 presses), needs
//! keys the widget does not know, and an event the app would match needs a variant
//! crossterm's `Event` does not have. So the rule the integration guide documents is the
//! one that cannot go wrong: derive such values where you draw, after the widget (the
//! frame the agent reads is the one after the widget took the input, so even a
//! derivation drawn before it is caught up there). For reactions that are not values
//! (load a preview, save), `agent_changed(id)` is true from the moment widget `id` took
//! an action until the next frame begins: a thread-local list filled only when a widget
//! takes one, so with no agent it costs one thread-local read and allocates nothing.
//! `taria-widgets/tests/person_path.rs` drives a table and scrollbar by agent actions and
//! by a person's keys and asserts the same screen.

use std::cell::{Cell, RefCell};

use super::keys::{KeyPlan, NoKeys};
use crate::dispatch::{Invocation, Outcome};
use taria_schema::ActionRequest;

/// An action waiting for a widget to take it during the next frame.
pub(super) struct WidgetAction {
    pub(super) connection: u64,
    pub(super) seq: u64,
    pub(super) request: ActionRequest,
    /// The target's position index, as drawn when the request was validated.
    pub(super) index: Option<u32>,
    /// The keys that perform it through the app's input path if no widget takes it,
    /// `Ok(None)` when there are none, or why keys cannot do it.
    pub(super) fallback: Result<Option<KeyPlan>, NoKeys>,
    /// What a widget did with it.
    pub(super) outcome: Option<Outcome>,
    /// A `select` on the same node, offered to the widget that does not take the
    /// action itself, so its key fallback need not move the selection by keys.
    pub(super) select_first: Option<SelectFirst>,
    /// Its target was not drawn ([`super::validate::undrawn_holder`]): if no widget
    /// takes it, it is answered `unknown_node` with `fallback`'s message.
    pub(super) undrawn: bool,
    /// The id of the widget that took it, to hear from the next frame whether the
    /// app kept what the widget set ([`widget_state`]).
    pub(super) taken_by: Option<String>,
}

/// A `select` a widget may take before an action's key fallback is pressed.
pub(super) struct SelectFirst {
    pub(super) request: ActionRequest,
    /// What a widget did with it.
    pub(super) outcome: Option<Outcome>,
}

thread_local! {
    static PENDING: RefCell<Vec<WidgetAction>> = const { RefCell::new(Vec::new()) };
    static ANY_PENDING: Cell<bool> = const { Cell::new(false) };
    /// The ids of the widgets that took an agent action since the last frame began.
    static CHANGED: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    static ANY_CHANGED: Cell<bool> = const { Cell::new(false) };
    /// What widgets that took an agent action left in their state, for the next frame
    /// to compare with what the app hands in ([`widget_state`]).
    static KEPT: RefCell<Vec<Kept>> = const { RefCell::new(Vec::new()) };
    /// Frames begun on this thread (for [`Kept::frame`]).
    static FRAME: Cell<u64> = const { Cell::new(0) };
    /// The ids of widgets whose state the app was seen to rebuild each frame.
    static REBUILT: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// What a widget left in its state after taking an agent's action.
struct Kept {
    id: String,
    /// The frame it took the action in.
    frame: u64,
    /// Its state's fingerprint as it left it.
    left: u64,
    /// Whether the next frame handed in that state (`None`: not drawn since).
    verdict: Option<bool>,
}

/// Lends `actions` to this thread for one draw, until [`return_held`]. A frame
/// begins: what widgets took before it is the app's past.
pub(super) fn lend_held(actions: &mut Vec<WidgetAction>) {
    if ANY_CHANGED.with(|c| c.replace(false)) {
        CHANGED.with(|c| c.borrow_mut().clear());
    }
    FRAME.with(|f| f.set(f.get().wrapping_add(1)));
    if !actions.is_empty() {
        PENDING.with(|p| std::mem::swap(&mut *p.borrow_mut(), actions));
        ANY_PENDING.with(|a| a.set(true));
    }
}

/// Takes back what [`lend_held`] lent, less what the frame's widgets took.
pub(super) fn return_held(actions: &mut Vec<WidgetAction>) {
    if ANY_PENDING.with(|a| a.replace(false)) {
        PENDING.with(|p| std::mem::swap(&mut *p.borrow_mut(), actions));
    }
}

/// For stateful widgets: runs `handle` for each agent action waiting for this frame
/// whose target is `id` or one of its children (`id/…`) and that no app handler took.
/// Return [`Outcome::Handled`] for an action the widget performed (it is answered
/// `delivered`), [`Outcome::Rejected`] to refuse it, or [`Outcome::NotHandled`] to
/// leave it to the node's key fallback.
///
/// Most actions were validated against the node the app last drew (it exists, offers
/// the action, is enabled, the value fits). One kind was not: an id under `id` that
/// the app did not draw, where `id` scrolls (an item off screen,
/// [`Invocation::is_undrawn`]: no index, no value). Nothing checked that such an item
/// exists or what it offers: the widget must look it up among all its items and
/// check the action itself; `NotHandled` answers it `unknown_node` (it has no key
/// fallback).
///
/// Call it at the start of `render`, before recording the widget's nodes, so the tree
/// drawn in this frame shows the action's effect; it returns whether the widget took
/// one ([`Outcome::Handled`]). Costs one thread-local check when no action waits.
///
/// # Examples
///
/// ```
/// use taria::{Action, Invocation, Outcome};
///
/// struct Counter<'a> { value: &'a mut i64 }
///
/// impl Counter<'_> {
///     fn render(self) {
///         taria::widget::take_widget_actions("counter", |action: &Invocation<'_>| {
///             if action.is(Action::Increment) {
///                 *self.value += 1;
///                 return Outcome::Handled;
///             }
///             Outcome::NotHandled
///         });
///         // … record and draw with the updated value …
///     }
/// }
/// # let mut value = 0;
/// # Counter { value: &mut value }.render();
/// ```
pub fn take_widget_actions(id: &str, mut handle: impl FnMut(&Invocation<'_>) -> Outcome) -> bool {
    if !ANY_PENDING.with(Cell::get) {
        return false;
    }
    let mut took = false;
    PENDING.with(|pending| {
        // A widget that renders another widget from inside `handle` finds the list
        // borrowed; the inner one then takes nothing this frame rather than panicking.
        let Ok(mut pending) = pending.try_borrow_mut() else {
            return;
        };
        for action in pending.iter_mut().filter(|a| a.outcome.is_none()) {
            let target = action.request.target.as_str();
            let addressed = target == id
                || target
                    .strip_prefix(id)
                    .is_some_and(|rest| rest.starts_with('/'));
            if !addressed {
                continue;
            }
            let mut invocation = Invocation::of(&action.request, action.index);
            if action.undrawn {
                invocation = invocation.as_undrawn();
            }
            match handle(&invocation) {
                Outcome::NotHandled => {}
                outcome => {
                    if changed(id, &outcome) {
                        took = true;
                        action.taken_by = Some(id.to_owned());
                    }
                    action.outcome = Some(outcome);
                    continue;
                }
            }
            if let Some(select) = action.select_first.as_mut().filter(|s| s.outcome.is_none()) {
                match handle(&Invocation::of(&select.request, action.index)) {
                    Outcome::NotHandled => {}
                    outcome => {
                        took |= changed(id, &outcome);
                        select.outcome = Some(outcome);
                    }
                }
            }
        }
    });
    took
}

/// Notes that widget `id` changed its state for an agent, when it did.
fn changed(id: &str, outcome: &Outcome) -> bool {
    if *outcome != Outcome::Handled {
        return false;
    }
    CHANGED.with(|c| {
        let mut changed = c.borrow_mut();
        if !changed.iter().any(|w| w == id) {
            changed.push(id.to_owned());
        }
    });
    ANY_CHANGED.with(|c| c.set(true));
    true
}

/// For stateful widgets that take agent actions, so an app that rebuilds the
/// widget's state each frame (`TableState::default().with_selected(app.row)` in its
/// draw) is told, not answered "delivered" for a change the next frame undoes.
///
/// Call it at the end of `render` with fingerprints of the part of the state an
/// agent's action sets (the selection, the scroll offset): `handed`, as the app
/// handed the state in (before [`take_widget_actions`]), and `left`, as the widget
/// leaves it (after drawing); `took` is what [`take_widget_actions`] returned. The
/// frame after the widget took an action compares what the app hands in with what
/// the widget left: when they differ, the app rebuilt the state, and the item the
/// widget left selected is offered to the app's `select` handler (which routes it to
/// the app's own field: delivered once a frame shows it); when no handler takes it
/// (or nothing was selected), the action is answered `ignored` with reason
/// `state_rebuilt` instead of `delivered`, and [`widget_state_rebuilt`] is true for
/// `id` from then on.
pub fn widget_state(id: &str, handed: u64, left: u64, took: bool) {
    let frame = FRAME.with(Cell::get);
    KEPT.with(|kept| {
        let Ok(mut kept) = kept.try_borrow_mut() else {
            return;
        };
        if let Some(entry) = kept
            .iter_mut()
            .find(|k| k.id == id && k.frame != frame && k.verdict.is_none())
        {
            entry.verdict = Some(entry.left == handed);
        }
        if took {
            kept.retain(|k| k.id != id || k.verdict.is_some());
            kept.push(Kept {
                id: id.to_owned(),
                frame,
                left,
                verdict: None,
            });
        }
    });
}

/// Notes that the app rebuilds the state of widget `id` each frame and no `select`
/// handler of the app takes what the widget selects.
pub(super) fn mark_rebuilt(id: &str) {
    REBUILT.with(|r| {
        let mut rebuilt = r.borrow_mut();
        if !rebuilt.iter().any(|w| w == id) {
            rebuilt.push(id.to_owned());
        }
    });
}

/// Whether the app was seen to rebuild the state of the widget with id `id` each
/// frame ([`widget_state`]), with no `select` handler of its own taking what the
/// widget selected: the widget's own actions (`select`, `scroll`) then do not stick,
/// so it neither offers nor takes them. (With such a handler they do: the item the
/// widget selects is handed to it, see the integration guide, "State rebuilt each
/// frame".)
#[must_use]
pub fn widget_state_rebuilt(id: &str) -> bool {
    REBUILT.with(|r| r.try_borrow().is_ok_and(|r| r.iter().any(|w| w == id)))
}

/// Whether widget `id` reported ([`widget_state`]) what it left after taking an
/// action in the frame just drawn: its answer then waits for the next frame.
pub(super) fn awaits_next_frame(id: &str) -> bool {
    let frame = FRAME.with(Cell::get);
    KEPT.with(|k| {
        k.borrow()
            .iter()
            .any(|k| k.id == id && k.frame == frame && k.verdict.is_none())
    })
}

/// What the frame after showed of what widget `id` left: `Some(false)` when the app
/// handed in another state (rebuilt), `Some(true)` kept, `None` not drawn. Forgets it.
pub(super) fn take_verdict(id: &str) -> Option<bool> {
    let frame = FRAME.with(Cell::get);
    KEPT.with(|k| {
        let mut kept = k.borrow_mut();
        let at = kept.iter().position(|k| k.id == id && k.frame != frame)?;
        kept.remove(at).verdict
    })
}

/// Forgets what widgets left and which rebuild their state (a new connection).
pub(super) fn forget_states() {
    KEPT.with(|k| k.borrow_mut().clear());
    REBUILT.with(|r| r.borrow_mut().clear());
}

/// Whether the `taria-widgets` widget with id `id` took an agent's action (a
/// `select`, a `scroll`, a value) into its state in the frame being drawn or the
/// last one drawn: true from the moment it took it until the next frame begins.
///
/// For what the app does when the widget's state changes beyond deriving values
/// from it (load the selected row's details, save, log): a person's key reaches the
/// app's input handler, an agent's action reaches the widget, and this says so.
/// Ask after rendering the widget, or after `terminal.draw` in the loop. Values the
/// app derives from the widget's state (a scrollbar's position from the table's
/// selection) need no flag: derive them where you draw, after the widget (see the
/// integration guide, "State derived from a widget's state"). Costs one
/// thread-local read when no agent acts.
///
/// # Examples
///
/// A widget that takes `increment` into the app's volume (as a `taria-widgets`
/// widget with an id does), and the app saving what the agent set:
///
/// ```
/// use taria::{Action, Invocation, Outcome, Role, testing::AppHarness};
///
/// #[derive(Default)]
/// struct Mixer { volume: u32, saved: Vec<u32> }
///
/// impl taria::Actions for Mixer {
///     fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
///         Outcome::NotHandled // no handlers: the widget takes the action
///     }
/// }
///
/// fn draw(frame: &mut ratatui::Frame<'_>, mixer: &mut Mixer) {
///     taria::widget::take_widget_actions("volume", |action: &Invocation<'_>| {
///         if !action.is(Action::Increment) {
///             return Outcome::NotHandled;
///         }
///         mixer.volume += 1;
///         Outcome::Handled
///     });
///     taria::leaf(|n| {
///         n.role(Role::Slider).id("volume").value(mixer.volume).action(Action::Increment);
///         n.bounds(frame.area());
///     });
///     if taria::agent_changed("volume") {
///         mixer.saved.push(mixer.volume);
///     }
/// }
///
/// let mut harness = AppHarness::new(Mixer::default(), 10, 1, draw);
/// harness.act("volume", "increment")?;
/// assert_eq!(harness.app().saved, [1]);
/// # Ok::<(), taria::testing::ActError>(())
/// ```
#[must_use]
pub fn agent_changed(id: &str) -> bool {
    ANY_CHANGED.with(Cell::get) && CHANGED.with(|c| c.borrow().iter().any(|w| w == id))
}
