//! Taking the agent's inputs in order, one at a time: after one that may have
//! changed the app, the next waits for a frame drawn after it and is validated
//! against that frame. Their answers, and the stamp of the trees after them, are
//! `answer.rs`'s.
//!
//! Why: two inputs in one write were both checked against the frame before the first,
//! so a `select` behind a confirmation dialog the first had just opened went through,
//! and the dialog then deleted the wrong task. Now an input that may have changed the app
//! (a handler took it, it was held for a widget, its keys were queued) makes the rest
//! wait, in the session's inbox and behind it in the endpoint's bounded queue, until a
//! frame is drawn with none of its keys left to read, no widget action held and no frame
//! owed; then `record` wakes the loop. A burst costs a frame per input. A `key` or `text`
//! input is taken at once even then (keys are not validated, and the pending queue keeps
//! their order), unless an action held for the widgets may still become key presses.
//!
//! A handler that changed the app may have changed the loop's condition too
//! (`while !app.exit`): after a drain before a frame, the loop, which then waits for
//! events before it looks at its condition again, is woken once more
//! (`RECHECK_AFTER`), and draws one more frame, the same. A drain right after an event
//! read ([`Session::drain_after_read`], where `#[taria::app]` puts one in a loop that
//! draws) needs no such turn: the rest of the loop turn sees the change, and an action
//! costs one frame.
//!
//! A loop that draws only when its own state changed may draw nothing after an input that
//! changed nothing it shows: once that input's effects are taken, the next waits at most
//! `SETTLE_WITHOUT_FRAME` and is checked against the frame drawn last (the event wait
//! wakes for it). An action held for a widget the loop never draws a frame for holds the
//! inputs after it until it does (loops must draw on `FocusGained`: the integration
//! guide). An input routed to keys is answered when the app reads its last key, so
//! "delivered" means it reached the app's input path.

use std::collections::VecDeque;
use std::time::{Duration, Instant};

use super::Session;
use super::answer::Answers;
use super::events::Events;
use super::route::Router;
use crate::dispatch::Actions;
use crate::endpoint::QueuedInput;
use taria_schema::protocol::Input;

/// How long inputs wait behind one that may have changed the app when the app
/// draws no frame after it (see [`Session::drain`]).
const SETTLE_WITHOUT_FRAME: Duration = Duration::from_secs(1);

/// How long after a handler changed the app, and the frame showing it was drawn,
/// the loop is woken to see the change (see [`Session::drain`]). Not at once: the
/// frame it would draw then is the same, and at once it ran beside the answer's way
/// out (the writer's patch, the bridge) on a machine with two cores. A loop that
/// waits for events before drawing is woken at once.
const RECHECK_AFTER: Duration = Duration::from_millis(2);

/// The agent's inputs on their way in (their answers go out through [`Answers`]).
#[derive(Default)]
pub(super) struct Inputs {
    /// Inputs taken from the transport, waiting their turn.
    inbox: VecDeque<QueuedInput>,
    /// Since when an input taken may have changed the app (a handler took it, it
    /// was held for the widgets, or its keys were queued): the inputs after it wait
    /// in `inbox` for a frame drawn after its effect, and are validated against that
    /// frame (a dialog the first one opened, a node it removed).
    settling: Option<Instant>,
    /// A handler changed the app: the loop is to be woken to see it (a condition
    /// like `while !app.exit`), at once if it waits for events before it draws a
    /// frame, [`RECHECK_AFTER`] later if it drew one.
    recheck: Option<Rechecking>,
}

/// Whether the loop is to be woken again to see what a handler changed.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Recheck {
    /// Yes: the drain ran before a frame, and the loop waits for events after it
    /// before it looks at its condition again.
    Owed,
    /// No: the drain ran right after an event read, and the rest of the loop turn
    /// sees the change.
    Seen,
}

/// A wake-up owed to the loop after a handler changed the app.
#[derive(Clone, Copy)]
struct Rechecking {
    /// When the handler ran, then when the first frame after it was drawn.
    since: Instant,
    /// Whether a frame was drawn since.
    drawn: bool,
}

impl Session {
    /// Handles the agent's queued inputs: each action is validated against the last
    /// drawn tree, then given to `app`'s handler, else turned into key presses from
    /// the node's key fallback; keys and text go to the app's input path
    /// ([`crate::event`]). Each input is answered once. Returns how many inputs were
    /// taken. Call it once per loop turn, before drawing. An app without `#[action]`
    /// handlers passes `&mut ()`: its actions go to its widgets and key fallbacks.
    pub fn drain<A: Actions + ?Sized>(&mut self, app: &mut A) -> usize {
        self.drain_inputs(app, Recheck::Owed)
    }

    /// [`Session::drain`], called where the loop still sees what a handler changed
    /// before it next waits for events: right after an event read, in a loop that
    /// draws after it (`#[taria::app]` places it there). The loop is then not woken
    /// once more to see the change, which costs a whole frame per action: the frame
    /// drawn after this turn is the one that shows it.
    pub fn drain_after_read<A: Actions + ?Sized>(&mut self, app: &mut A) -> usize {
        self.drain_inputs(app, Recheck::Seen)
    }

    fn drain_inputs<A: Actions + ?Sized>(&mut self, app: &mut A, recheck: Recheck) -> usize {
        self.take_queued();
        self.settle_without_frame();
        let live = self.live_connection();
        if self.router.reoffer_waits() {
            let connection = self.answers.connection();
            for (seq, answer) in self.router.reoffer(app, connection) {
                self.answers.send(seq, answer);
            }
        }
        let mut count = 0;
        let mut handled_now = false;
        let held_before = self.router.held();
        // One input at a time: after one that may have changed the app, the next is
        // validated against a frame drawn after it (see `settling`), not against the
        // tree the first one was checked on. Keys need no validation: they join the
        // app's input queue behind the keys before them, unless an action held for
        // the widgets may still turn into key presses, which must come first.
        loop {
            // Inputs that arrived while these were handled are taken in this same
            // turn: no wake-up is left for them (theirs was used by the turn that ran
            // this drain). A drain that took none does not look twice: the frame loop
            // locks the endpoint once per turn.
            if self.inputs.inbox.is_empty() && (count == 0 || !self.take_queued()) {
                break;
            }
            let Some(next) = self.inputs.inbox.front() else {
                break;
            };
            let is_keys = matches!(next.input, Input::Key { .. } | Input::Text { .. });
            if self.inputs.settling.is_some() && !(is_keys && self.router.held() == 0) {
                break;
            }
            let Some(queued) = self.inputs.inbox.pop_front() else {
                break;
            };
            if queued.connection != self.answers.connection() || queued.connection != live {
                continue;
            }
            count += 1;
            let QueuedInput {
                connection,
                seq,
                input,
            } = queued;
            self.answers.taking(seq);
            let answer = self.router.route(
                app,
                self.recorder.arena(),
                &mut self.events,
                (connection, seq),
                input,
            );
            tracing::trace!(target: crate::endpoint::LATENCY, seq, "input routed");
            match answer {
                Some(answer) => {
                    let delivered = self.answers.send(seq, answer);
                    handled_now |= delivered;
                    if delivered {
                        self.inputs.settling = Some(Instant::now());
                    }
                }
                // Held for the widgets, or keys queued for the app's input path.
                None => self.inputs.settling = Some(Instant::now()),
            }
        }
        if self.router.held() > held_before {
            // Inputs newly held for widgets: the loop draws the frame they are taken
            // in, and then, woken by this poke, the frame after, their answer. Only
            // new ones wake it: a loop that does not draw on the wake-up must not
            // spin.
            self.events.signal.poke();
        } else if handled_now && recheck == Recheck::Owed {
            // A handler changed the app: the next event read returns (see
            // `recheck_by`), so a loop condition the handler changed
            // (`while !self.exit`) is seen.
            self.inputs.recheck = Some(Rechecking {
                since: Instant::now(),
                drawn: false,
            });
        }
        count
    }

    /// When the event wait should return for a handler's change (see
    /// `Inputs::recheck`): at once while no frame was drawn since, else
    /// [`RECHECK_AFTER`] after it.
    pub(super) fn recheck_by(&self) -> Option<Instant> {
        self.inputs.recheck.map(|recheck| {
            if recheck.drawn {
                recheck.since + RECHECK_AFTER
            } else {
                recheck.since
            }
        })
    }

    /// A frame was drawn: a wake-up owed for a handler's change can wait, counted
    /// from the first frame drawn after the handler (the one showing its change).
    pub(super) fn note_frame_for_recheck(&mut self) {
        if let Some(recheck) = &mut self.inputs.recheck
            && !recheck.drawn
        {
            *recheck = Rechecking {
                since: Instant::now(),
                drawn: true,
            };
        }
    }

    /// The loop has turned (the event wait returned an event): whatever a handler
    /// changed, the loop has seen.
    pub(super) fn loop_turned(&mut self) {
        self.inputs.recheck = None;
    }

    /// Moves the transport's queued inputs into the inbox, once that is empty
    /// (inputs waiting there, see `settling`, come first; until they are taken the
    /// rest wait in the endpoint's bounded queue). Follows a new connection. Returns
    /// whether any came.
    fn take_queued(&mut self) -> bool {
        let from_transport = self.take_transport_inputs();
        // A screen reader's, behind them, as inputs of the connection followed.
        let connection = self.answers.connection();
        let from_reader = self
            .assistive
            .take_inputs(connection, &mut self.inputs.inbox);
        from_transport || from_reader
    }

    fn take_transport_inputs(&mut self) -> bool {
        let Some(transport) = self.transport.clone() else {
            return false;
        };
        transport.take_inputs(&mut |connection, queued| {
            // A new bridge, or none (0) once one has gone: its held inputs and keys
            // go with it, and inputs of no bridge (a screen reader's) are followed.
            if connection != self.answers.connection() {
                self.switch_connection(connection);
            }
            if !self.inputs.inbox.is_empty() || queued.is_empty() {
                return false;
            }
            // `append` moves the inputs and leaves both queues' capacity in place.
            self.inputs.inbox.append(queued);
            true
        })
    }

    /// Inputs belong to their connection: a new one starts with none pending.
    fn switch_connection(&mut self, connection: u64) {
        switch_connection(
            &mut self.inputs,
            &mut self.answers,
            &mut self.router,
            &mut self.events,
            connection,
        );
    }

    /// Ends `settling` once the frame just drawn shows every effect of the inputs
    /// taken so far (no keys of theirs left to read, no action held for a widget, no
    /// frame owed), and wakes the loop when more inputs wait for it.
    pub(super) fn settle(&mut self) {
        if self.inputs.settling.is_some() && self.effects_taken() {
            self.inputs.settling = None;
            if !self.inputs.inbox.is_empty() {
                self.events.signal.poke();
            }
        }
    }

    /// Whether the app has taken every effect of the inputs so far: it has read
    /// their keys, and no action waits for a widget or owes a frame.
    fn effects_taken(&self) -> bool {
        !self.events.agent_keys_left() && self.router.is_idle()
    }

    /// When the event wait should wake for inputs held behind one the app drew no
    /// frame for (`drain` lets them through then), if it should.
    pub(super) fn settle_by(&self) -> Option<Instant> {
        self.inputs
            .settling
            .filter(|_| self.effects_taken())
            .map(|since| since + SETTLE_WITHOUT_FRAME)
    }

    /// A loop that draws only when its own state changed may not draw after an
    /// input that changed nothing it shows: then, once the effects are taken and
    /// [`SETTLE_WITHOUT_FRAME`] has passed, the frame it last drew is taken to show
    /// them, so the inputs after it are not held back forever.
    fn settle_without_frame(&mut self) {
        if let Some(since) = self.inputs.settling
            && since.elapsed() >= SETTLE_WITHOUT_FRAME
            && self.effects_taken()
        {
            tracing::debug!(
                "taria: no frame drawn after an input; the next is checked against the last one"
            );
            self.inputs.settling = None;
        }
    }
}

/// Follows a new connection: the inputs, held actions and agent keys of the one
/// before are dropped.
pub(super) fn switch_connection(
    inputs: &mut Inputs,
    answers: &mut Answers,
    router: &mut Router,
    events: &mut Events,
    connection: u64,
) {
    answers.follow(connection);
    inputs.settling = None;
    inputs
        .inbox
        .retain(|queued| queued.connection == connection);
    router.clear();
    events.drop_agent_keys();
}
