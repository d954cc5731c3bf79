//! Recording and publishing: each frame is recorded while a consumer is connected
//! (or always, when asked), with the held actions lent to its widgets, then handed
//! to the transport stamped with the newest input handled before it.

use ratatui::backend::Backend;
use ratatui::buffer::Buffer;
use ratatui::{CompletedFrame, Frame, Terminal};

use super::Session;
use crate::endpoint::LATENCY;

impl Session {
    /// Records every frame, even with no bridge connected (for an in-app inspector or
    /// logging the tree). Off by default: then recording costs nothing until a bridge
    /// connects.
    pub fn set_always_record(&mut self, on: bool) {
        self.always_record = on;
    }

    /// Draws a frame: recorded and published when a bridge is connected, a plain
    /// `terminal.draw` otherwise. The frame is published as soon as `render`
    /// returns, while ratatui diffs it and writes the terminal.
    pub fn draw<'t, B: Backend>(
        &mut self,
        terminal: &'t mut Terminal<B>,
        render: impl FnOnce(&mut Frame<'_>),
    ) -> Result<CompletedFrame<'t>, B::Error> {
        self.record_frame(|end| terminal.draw(end.after(render)))
    }

    /// Runs a draw (anything returning a ratatui `CompletedFrame`, or a `Result` of
    /// one), recording and publishing it when a bridge is connected.
    ///
    /// An agent input that a stateful widget takes while this frame is drawn is
    /// answered at once, but the tree the agent gets back as its effect is the next
    /// frame's: this one was partly drawn before the widget changed its state, and
    /// the app has not yet seen the change (to validate a field, say). The app's
    /// event wait then returns at once (an `Event::FocusGained`: [`Session::drain`]
    /// woke it when it held the input for the widgets), so its loop draws that frame.
    /// A loop that draws only when its own state changed must draw on that event too,
    /// or check [`Session::redraw_owed`]. This frame is stamped below every input held
    /// for its widgets, even when a handler took a later input in the same turn.
    pub fn record<R: DrawOutput>(&mut self, draw: impl FnOnce() -> R) -> R {
        self.record_frame(|_| draw())
    }

    /// [`Session::record`], where `draw` may end the frame itself as soon as its
    /// render is done ([`FrameEnd::after`]), so that the frame is published before
    /// ratatui diffs it and writes the terminal; a frame it did not end is ended
    /// with the buffer the draw returns.
    pub(crate) fn record_frame<R: DrawOutput>(
        &mut self,
        draw: impl FnOnce(&mut FrameEnd<'_>) -> R,
    ) -> R {
        tracing::trace!(target: LATENCY, "frame begun");
        let connected = self.is_connected();
        self.recorder
            .set_enabled(connected || self.always_record || self.assistive.is_active());
        let first_held = self.router.begin_frame(self.answers.connection());
        let recording = self.recorder.begin();
        let mut end = FrameEnd {
            session: self,
            drawing: Some(recording),
            connected,
            first_held,
        };
        let output = draw(&mut end);
        end.end(output.buffer());
        output
    }

    /// Whether the last frame had a widget take an agent input, so the app should
    /// draw once more for the input's effect to be complete (see
    /// [`Session::record`]); a loop reading events through [`crate::event`] does so
    /// without asking.
    #[must_use]
    pub fn redraw_owed(&self) -> bool {
        self.router.frame_owed()
    }

    /// Hands the frame just recorded to the transport, stamped with the newest input
    /// handled before it, kept below `first_held` (the first input held for this
    /// frame's widgets: its effect is the next frame).
    fn publish(&mut self, buffer: &Buffer, first_held: Option<u64>) {
        let Some(transport) = self.transport.clone() else {
            return;
        };
        let Session {
            recorder,
            inputs,
            answers,
            router,
            events,
            ..
        } = self;
        transport.publish(recorder.arena(), buffer, &mut |connection| {
            if connection != answers.connection() {
                super::drain::switch_connection(inputs, answers, router, events, connection);
            }
            answers.stamp(first_held)
        });
    }

    /// Answers the actions held for the frame just drawn (see `Router::settle`).
    fn settle_held(&mut self) {
        let Session {
            router,
            events,
            answers,
            recorder,
            ..
        } = self;
        let connection = answers.connection();
        router.settle(connection, recorder.arena(), events, |seq, answer| {
            answers.send(seq, answer);
        });
    }
}

/// A frame being drawn ([`Session::record_frame`]): ends it once its render is done
/// (the recording closed, held actions settled, the frame published), or when the
/// draw returns if nothing said so first. Dropped by a panicking draw, it only takes
/// the arena and the held actions back.
#[doc(hidden)]
pub struct FrameEnd<'s> {
    session: &'s mut Session,
    /// While the frame is drawn: whether the recorder began recording it.
    drawing: Option<bool>,
    connected: bool,
    first_held: Option<u64>,
}

impl<'s> FrameEnd<'s> {
    /// `render`, then the frame ended with the buffer it drew: what to hand a
    /// ratatui draw in place of `render`.
    pub fn after<'e, F: FnOnce(&mut Frame<'_>)>(
        &'e mut self,
        render: F,
    ) -> impl FnOnce(&mut Frame<'_>) + use<'e, 's, F> {
        move |frame: &mut Frame<'_>| {
            render(frame);
            self.end(Some(frame.buffer_mut()));
        }
    }

    /// Ends the frame with the buffer drawn (`None`: the draw failed); does nothing
    /// the second time.
    pub(crate) fn end(&mut self, buffer: Option<&Buffer>) {
        let recorded = self.drawing == Some(true);
        if !self.stop_drawing() {
            return;
        }
        tracing::trace!(target: LATENCY, "frame drawn");
        let session = &mut *self.session;
        if let Some(buffer) = buffer {
            session.recorder.read_drawn(buffer);
        }
        session.note_frame_for_recheck();
        session.settle_held();
        if self.connected
            && let Some(buffer) = buffer
        {
            session.publish(buffer, self.first_held);
            tracing::trace!(target: LATENCY, "frame published");
        }
        if recorded && buffer.is_some() {
            session.assistive.publish(&session.recorder);
        }
        // Counts from the next frame on. No need to wake the loop for it: `drain`
        // already did when it held these actions for the widgets, so the event read
        // after this frame returns at once and the loop draws again.
        session
            .answers
            .count_handled(session.router.taken_in_last_frame());
        session.settle();
    }

    /// Takes the arena and the held actions back; whether they were still lent.
    fn stop_drawing(&mut self) -> bool {
        let Some(recording) = self.drawing.take() else {
            return false;
        };
        self.session.recorder.end(recording);
        self.session.router.end_frame();
        true
    }
}

impl Drop for FrameEnd<'_> {
    fn drop(&mut self) {
        self.stop_drawing();
    }
}

/// What a draw returns, from which the drawn buffer is published.
#[diagnostic::on_unimplemented(
    message = "taria records ratatui draws: `{Self}` is not what `Terminal::draw` returns",
    note = "`#[taria::app]` records every `.draw(…)` call in the impl block; call other `draw` methods through a helper function outside it"
)]
pub trait DrawOutput {
    /// The buffer that was drawn, if the draw succeeded.
    fn buffer(&self) -> Option<&Buffer>;
}

impl DrawOutput for CompletedFrame<'_> {
    fn buffer(&self) -> Option<&Buffer> {
        Some(self.buffer)
    }
}

impl<E> DrawOutput for Result<CompletedFrame<'_>, E> {
    fn buffer(&self) -> Option<&Buffer> {
        self.as_ref().ok().map(|frame| frame.buffer)
    }
}
