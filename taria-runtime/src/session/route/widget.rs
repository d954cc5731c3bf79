//! The widget-state route: actions no handler took are held for the next frame, and a
//! stateful widget takes the ones addressed to it while it renders (as egui widgets
//! take AccessKit requests), so `select` on a list lands in the app's own `ListState`
//! with no app code.

use std::cell::{Cell, RefCell};

use crate::{ActionRequest, Invocation, KeyChord, Outcome};

/// An action waiting for a widget to take it during the next frame.
pub(super) struct WidgetAction {
    pub(super) connection: u64,
    pub(super) seq: u64,
    pub(super) request: ActionRequest,
    /// The target's position index, as drawn when the request was validated.
    pub(super) index: Option<u32>,
    /// The keys that perform it through the app's input path if no widget takes it,
    /// `Ok(None)` when there are none, or why keys cannot do it.
    pub(super) fallback: Result<Option<Vec<KeyChord>>, String>,
    /// What a widget did with it.
    pub(super) outcome: Option<Outcome>,
    /// Its target was not drawn ([`super::validate::undrawn_holder`]): if no widget
    /// takes it, it is answered `unknown_node` with `fallback`'s message.
    pub(super) undrawn: bool,
}

thread_local! {
    static PENDING: RefCell<Vec<WidgetAction>> = const { RefCell::new(Vec::new()) };
    static ANY_PENDING: Cell<bool> = const { Cell::new(false) };
}

/// Lends `actions` to this thread for one draw; returns them when dropped.
pub(super) struct Lent<'a> {
    actions: &'a mut Vec<WidgetAction>,
}

impl<'a> Lent<'a> {
    pub(super) fn new(actions: &'a mut Vec<WidgetAction>) -> Lent<'a> {
        if !actions.is_empty() {
            PENDING.with(|p| std::mem::swap(&mut *p.borrow_mut(), actions));
            ANY_PENDING.with(|a| a.set(true));
        }
        Lent { actions }
    }
}

impl Drop for Lent<'_> {
    fn drop(&mut self) {
        if ANY_PENDING.with(|a| a.replace(false)) {
            PENDING.with(|p| std::mem::swap(&mut *p.borrow_mut(), self.actions));
        }
    }
}

/// For stateful widgets: runs `handle` for each agent action waiting for this frame
/// whose target is `id` or one of its children (`id/…`). Return [`Outcome::Handled`]
/// for an action the widget performed (it is answered `delivered`),
/// [`Outcome::Rejected`] to refuse it, or [`Outcome::NotHandled`] to leave it to the
/// node's key fallback.
///
/// Call it at the start of `render`, before recording the widget's nodes, so the tree
/// drawn in this frame shows the action's effect. Costs one thread-local check when
/// no action waits.
///
/// ```
/// use taria::{Action, Invocation, Outcome};
///
/// struct Counter<'a> { value: &'a mut i64 }
///
/// impl Counter<'_> {
///     fn render(self) {
///         taria::take_widget_actions("counter", |action: &Invocation<'_>| {
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
pub fn take_widget_actions(id: &str, mut handle: impl FnMut(&Invocation<'_>) -> Outcome) {
    if !ANY_PENDING.with(Cell::get) {
        return;
    }
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
            match handle(&Invocation::of(&action.request, action.index)) {
                Outcome::NotHandled => {}
                outcome => action.outcome = Some(outcome),
            }
        }
    });
}
