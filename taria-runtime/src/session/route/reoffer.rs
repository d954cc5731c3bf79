//! State rebuilt each frame, routed to the app's own field: a `select` or `scroll` a
//! widget took into a state the app then rebuilt (`TableState::default()
//! .with_selected(self.row)` in its draw) is offered to the app's `select` handler as
//! the item the widget had selected, by id and index. The widget resolved it (an id
//! off screen, a key, a scroll clamped to the items it draws), so the handler gets an
//! item that exists; the frame after the handler must show it selected, or the agent
//! hears that it did not stick.

use super::Answer;
use crate::dispatch::{Actions, Invocation, Outcome};
use crate::recorder::FrameArena;
use taria_schema::protocol::RejectReason;
use taria_schema::{Action, ActionName, ActionRequest, StateFlags};

/// An input a widget took whose effect the next frame undid, waiting to be offered to
/// the app's `select` handler (`offered: None`), or offered and taken, waiting for the
/// frame that shows it.
pub(super) struct Reoffer {
    pub(super) connection: u64,
    pub(super) seq: u64,
    /// The widget that took it.
    pub(super) widget: String,
    /// What the agent asked for, for the answer.
    pub(super) action: ActionName,
    pub(super) target: String,
    /// The item the widget selected: its id and index, as drawn.
    pub(super) item: (String, u32),
    /// Whether the app's handler took it (then the next frame is checked).
    pub(super) offered: bool,
}

/// The item under widget `widget` that frame `arena` shows selected: its id and index.
pub(super) fn selected_item(arena: &FrameArena, widget: &str) -> Option<(String, u32)> {
    let container = arena.find(widget)?;
    arena.children(container).find_map(|child| {
        let record = &arena.nodes[child as usize];
        let index = record.position.index?;
        record
            .flags
            .contains(StateFlags::SELECTED)
            .then(|| (arena.str(record.id).to_owned(), index))
    })
}

impl Reoffer {
    /// Offers it to `app`'s handlers as a `select` on the item; `Some` answer when it
    /// is answered now (refused, or nothing takes it), `None` when the app took it and
    /// the next frame is to show it.
    pub(super) fn offer<A: Actions + ?Sized>(&mut self, app: &mut A) -> Option<Answer> {
        let (id, index) = &self.item;
        let request = ActionRequest::new(id.as_str(), Action::Select);
        match app.handle_action(&Invocation::of(&request, Some(*index))) {
            Outcome::Handled => {
                self.offered = true;
                None
            }
            Outcome::Rejected(reason) => {
                Some(Answer::rejected(RejectReason::HandlerRejected, reason))
            }
            _ => {
                super::widget::mark_rebuilt(&self.widget);
                Some(Answer::state_rebuilt(
                    &self.widget,
                    &self.action,
                    &self.target,
                ))
            }
        }
    }

    /// The answer once the frame after the handler is drawn (`arena`): delivered when
    /// it shows the item selected.
    pub(super) fn confirm(&self, arena: &FrameArena) -> Answer {
        let (id, _) = &self.item;
        let shown = arena
            .find(id)
            .is_some_and(|i| arena.nodes[i as usize].flags.contains(StateFlags::SELECTED));
        if shown {
            return Answer::delivered();
        }
        Answer::ignored_as(
            RejectReason::StateRebuilt,
            format!(
                "`{}` on `{}` did not stick: the app's `select` handler took `{id}`, but the \
                 frame after it does not show `{id}` selected in `{}` (does the draw build \
                 its state from the field the handler sets?)",
                self.action, self.target, self.widget
            ),
        )
    }
}
