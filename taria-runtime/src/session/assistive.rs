//! The session's screen reader: the AT-SPI export (`crate::atspi`, cargo feature
//! `atspi` on Linux) as the session sees it, and nothing at all without it (a type
//! with no fields, whose checks are constant `false`).
//!
//! A screen reader's action is queued as an input of the connection the session
//! follows (0 with no bridge), numbered in a space of its own ([`ASSISTIVE`]): it
//! is validated, routed, held for widgets and turned into keys as an agent's is, but
//! its answer is logged, not sent (`Answers::send`), and it does not count as the
//! bridge's input handled.

use std::collections::VecDeque;
use std::sync::Arc;

#[cfg(all(feature = "atspi", target_os = "linux"))]
use crate::atspi::Export;
use crate::endpoint::{QueuedInput, Signal};
use crate::recorder::Recorder;
use taria_schema::protocol::{ActionRequest, Input};

/// The bit that marks a screen reader's input numbers; a bridge's count up from 1.
pub(super) const ASSISTIVE: u64 = 1 << 63;

/// Whether input `seq` is a screen reader's.
pub(super) fn is_assistive(seq: u64) -> bool {
    seq & ASSISTIVE != 0
}

/// The AT-SPI export, when the session has one.
#[derive(Default)]
pub(super) struct Assistive {
    export: Option<Export>,
    /// The last screen reader's input number handed out (without [`ASSISTIVE`]).
    seq: u64,
}

impl Assistive {
    /// The export for the app labelled `label`, when `on` and built with it;
    /// `signal` wakes the app's loop.
    pub(super) fn start(label: &str, signal: &Arc<Signal>, on: bool) -> Assistive {
        #[cfg(all(feature = "atspi", target_os = "linux"))]
        let export = on.then(|| Export::start(label, signal));
        #[cfg(not(all(feature = "atspi", target_os = "linux")))]
        let export = {
            let _ = (label, signal, on);
            None
        };
        Assistive { export, seq: 0 }
    }

    /// Whether a screen reader reads the app now (frames are recorded then).
    #[inline]
    pub(super) fn is_active(&self) -> bool {
        self.export.as_ref().is_some_and(Export::is_active)
    }

    /// Exports the frame `recorder` just recorded, when a screen reader reads the app.
    pub(super) fn publish(&mut self, recorder: &Recorder) {
        if let Some(export) = &mut self.export {
            export.publish(recorder);
        }
    }

    /// Queues the screen reader's requests in `inbox` as inputs of `connection`;
    /// whether any came.
    pub(super) fn take_inputs(
        &mut self,
        connection: u64,
        inbox: &mut VecDeque<QueuedInput>,
    ) -> bool {
        let Some(export) = &mut self.export else {
            return false;
        };
        let before = inbox.len();
        let seq = &mut self.seq;
        export.take_requests(&mut |request: ActionRequest| {
            *seq += 1;
            inbox.push_back(QueuedInput {
                connection,
                seq: ASSISTIVE | *seq,
                input: Input::Act(request),
            });
        });
        inbox.len() > before
    }
}

/// Without the export: a type with no values, so `Assistive::export` is always `None`
/// and each method above is a `None` check.
#[cfg(not(all(feature = "atspi", target_os = "linux")))]
enum Export {}

#[cfg(not(all(feature = "atspi", target_os = "linux")))]
impl Export {
    fn is_active(&self) -> bool {
        match *self {}
    }

    fn publish(&mut self, _: &Recorder) {
        match *self {}
    }

    fn take_requests(&mut self, _: &mut impl FnMut(ActionRequest)) {
        match *self {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::answer::{Answer, Answers};
    use super::super::transport::{InProcess, Transport};
    use super::*;

    #[test]
    fn a_screen_readers_answer_is_not_sent_and_stamps_no_frame() {
        let transport = InProcess::new(None);
        let mut answers = Answers::new(Some(Arc::clone(&transport) as Arc<dyn Transport>), None);
        answers.follow(1);
        assert!(
            answers.send(ASSISTIVE | 1, Answer::delivered()),
            "delivered: the app changed"
        );
        assert!(
            transport.take_answer(ASSISTIVE | 1).is_none(),
            "no bridge waits for it"
        );
        assert_eq!(answers.stamp(None), 0, "not the bridge's input");
        answers.send(ASSISTIVE | 2, Answer::ignored("nothing takes it".into()));
        assert!(transport.take_answer(ASSISTIVE | 2).is_none());
        // The bridge's inputs are answered and counted as before, around them.
        answers.send(3, Answer::delivered());
        assert!(transport.take_answer(3).is_some());
        assert_eq!(answers.stamp(None), 3);
        assert!(!is_assistive(3) && is_assistive(ASSISTIVE | 3));
    }

    /// A reader's click goes the agent's way to the app's handler: with no bridge, and
    /// after a bridge the session followed has gone (its inputs' check would drop
    /// the reader's as that bridge's).
    #[cfg(all(feature = "atspi", target_os = "linux"))]
    #[test]
    fn a_readers_click_reaches_the_handler_with_no_bridge_and_after_one_has_gone() {
        use crate::dispatch::{Actions, Invocation, Outcome};
        use crate::session::Session;
        use ratatui::{Terminal, backend::TestBackend};
        use taria_schema::{Action, Role};

        struct Check(bool);
        impl Actions for Check {
            fn handle_action(&mut self, invocation: &Invocation<'_>) -> Outcome {
                if invocation.is(Action::Toggle) {
                    self.0 = !self.0;
                    return Outcome::Handled;
                }
                Outcome::NotHandled
            }
        }
        fn draw(session: &mut Session, terminal: &mut Terminal<TestBackend>, checked: bool) {
            session
                .draw(terminal, |frame| {
                    let area = frame.area();
                    crate::recorder::leaf(|n| {
                        n.role(Role::Checkbox)
                            .id("done")
                            .label("Done")
                            .checked(checked)
                            .action(Action::Toggle)
                            .bounds(area);
                    });
                })
                .expect("drawn");
        }

        let dir = std::env::temp_dir().join(format!("taria-reader-{}", std::process::id()));
        let mut session = Session::builder("reader")
            .socket(dir.join("reader.sock"))
            .terminal_input(false)
            .start();
        session.set_always_record(true);
        let mut terminal = Terminal::new(TestBackend::new(20, 1)).expect("terminal");
        let mut app = Check(false);
        for bridge_gone in [false, true] {
            draw(&mut session, &mut terminal, app.0);
            let tree = session.tree();
            let export = session
                .assistive
                .export
                .as_mut()
                .expect("the export started");
            export.exported_for_test(tree);
            if bridge_gone {
                // The connection the session followed; none is connected now.
                session.answers.follow(7);
            }
            let before = app.0;
            session
                .assistive
                .export
                .as_ref()
                .expect("started")
                .click_for_test("done");
            assert_eq!(session.drain(&mut app), 1, "bridge gone: {bridge_gone}");
            assert_eq!(
                app.0, !before,
                "the handler toggled it (bridge gone: {bridge_gone})"
            );
        }
        drop(session);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn without_a_screen_reader_nothing_is_recorded_or_queued() {
        let mut assistive = Assistive::start("app", &Arc::new(Signal::default()), false);
        assert!(!assistive.is_active());
        let mut inbox = VecDeque::new();
        assert!(!assistive.take_inputs(1, &mut inbox));
        assert!(inbox.is_empty());
    }
}
