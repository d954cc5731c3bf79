//! The app's answer to an input, on its one way out: an [`Answer`] says what became
//! of the input, wherever that was decided (the router, a widget, the app reading
//! its last key); [`Answers::send`] counts a delivered input as handled (the next
//! frame published is stamped with it) and hands the `ack` to the transport.
//! [`Answers::taking`] stamps the app's log with the input in hand.

use std::sync::Arc;

use super::assistive::is_assistive;
use super::transport::Transport;
use crate::logs::LogSink;
use taria_schema::ActionName;
use taria_schema::protocol::{AckStatus, AppMessage, RejectReason};

/// The final answer to an input, before it is addressed.
#[derive(Debug)]
pub(super) struct Answer {
    status: AckStatus,
    reason: Option<RejectReason>,
    message: Option<String>,
    /// Delivered, but its effect shows from the next frame on: it counts as handled
    /// from then (`Router::taken_in_last_frame`), not when it is sent.
    counted_later: bool,
}

impl Answer {
    pub(super) fn delivered() -> Answer {
        Answer {
            status: AckStatus::Delivered,
            reason: None,
            message: None,
            counted_later: false,
        }
    }

    /// A widget took the input while the frame just drawn was being drawn: delivered,
    /// counted as handled from the next frame on.
    pub(super) fn taken_in_frame() -> Answer {
        Answer {
            counted_later: true,
            ..Answer::delivered()
        }
    }

    pub(super) fn ignored(message: String) -> Answer {
        Answer {
            status: AckStatus::Ignored,
            reason: Some(RejectReason::NoRoute),
            message: Some(message),
            counted_later: false,
        }
    }

    /// Not performed, for `reason`.
    pub(super) fn ignored_as(reason: RejectReason, message: String) -> Answer {
        Answer {
            status: AckStatus::Ignored,
            reason: Some(reason),
            message: Some(message),
            counted_later: false,
        }
    }

    /// A widget took `action` on `target`, but the next frame handed the widget
    /// `widget`'s state back as the app keeps it: the app rebuilds it each frame, and
    /// no `select` handler of the app took the item the widget had selected.
    pub(super) fn state_rebuilt(widget: &str, action: &ActionName, target: &str) -> Answer {
        Answer::ignored_as(
            RejectReason::StateRebuilt,
            format!(
                "`{action}` on `{target}` did not stick: the app rebuilds `{widget}`'s state \
                 each frame (e.g. `TableState::default().with_selected(…)` in its draw), so the \
                 next frame undid what the widget set and nothing changed; the app can route \
                 `select` and `scroll` to its own field with a handler on its items, \
                 #[action(node = \"{widget}/*\", select)] taking `index` (see the integration \
                 guide, \"State rebuilt each frame\"); meanwhile its keys may do it"
            ),
        )
    }

    /// A widget took a `scroll` on `target` with nothing selected, which moved only its
    /// view, and the next frame handed `widget`'s state back as the app keeps it.
    pub(super) fn view_not_kept(widget: &str, target: &str) -> Answer {
        Answer::ignored_as(
            RejectReason::StateRebuilt,
            format!(
                "`scroll` on `{target}` did not stick: the app rebuilds `{widget}`'s state each \
                 frame, and with nothing selected a scroll moves only the view, which the next \
                 frame undid; select an item first (act select on it, off screen too): then a \
                 scroll moves the selection"
            ),
        )
    }

    pub(super) fn rejected(reason: RejectReason, message: String) -> Answer {
        Answer {
            status: AckStatus::Rejected,
            reason: Some(reason),
            message: Some(message),
            counted_later: false,
        }
    }
}

/// The inputs of the connection the session follows: where their answers go, and
/// how far the app has got with them.
pub(super) struct Answers {
    /// `None` when the endpoint could not start.
    transport: Option<Arc<dyn Transport>>,
    /// The connection the session follows (0: none); inputs of another are dropped.
    connection: u64,
    /// The newest input of `connection` whose handling is complete.
    handled: u64,
    /// The app's log, stamped with the newest input taken.
    logs: Option<Arc<LogSink>>,
}

impl Answers {
    pub(super) fn new(
        transport: Option<Arc<dyn Transport>>,
        logs: Option<Arc<LogSink>>,
    ) -> Answers {
        Answers {
            transport,
            connection: 0,
            handled: 0,
            logs,
        }
    }

    /// The connection the session follows.
    pub(super) fn connection(&self) -> u64 {
        self.connection
    }

    /// Follows a new connection: none of its inputs is handled yet.
    pub(super) fn follow(&mut self, connection: u64) {
        self.connection = connection;
        self.handled = 0;
        self.taking(0);
    }

    /// Input `seq` of the connection followed is in hand: what the app logs from now
    /// on (until the next) is stamped with it.
    pub(super) fn taking(&self, seq: u64) {
        if let Some(logs) = &self.logs {
            // A screen reader's input is no input of the bridge's.
            logs.set_input(if is_assistive(seq) { 0 } else { seq });
        }
    }

    /// Answers input `seq` of the connection followed. A delivered input counts as
    /// handled (unless [`Answer::taken_in_frame`]); returns whether it did.
    pub(super) fn send(&mut self, seq: u64, answer: Answer) -> bool {
        let Answer {
            status,
            reason,
            message,
            counted_later,
        } = answer;
        let counted = status == AckStatus::Delivered && !counted_later;
        if is_assistive(seq) {
            // A screen reader's: no bridge waits for its answer, and the frames
            // after it are stamped with the bridge's inputs only.
            if status != AckStatus::Delivered {
                tracing::info!(
                    target: "taria::atspi",
                    "taria: a screen reader's action was {status:?}: {}",
                    message.as_deref().unwrap_or("no reason given")
                );
            }
            return counted;
        }
        if counted {
            self.count_handled(seq);
        }
        if let Some(transport) = &self.transport {
            let ack = AppMessage::Ack {
                seq,
                status,
                reason,
                message,
            };
            transport.send(self.connection, ack);
        }
        counted
    }

    /// Counts inputs up to `seq` as handled (0: none).
    pub(super) fn count_handled(&mut self, seq: u64) {
        self.handled = self.handled.max(seq);
    }

    /// What the next published frame is stamped with: the newest input handled,
    /// kept below `first_held` (the first input held for that frame's widgets: its
    /// effect is the frame after).
    pub(super) fn stamp(&self, first_held: Option<u64>) -> u64 {
        match first_held {
            Some(first) => self.handled.min(first.saturating_sub(1)),
            None => self.handled,
        }
    }
}
