//! How a session meets its consumer: a [`Transport`] takes the consumer's inputs,
//! carries the app's answers back and publishes its frames. The socket endpoint is
//! one; [`InProcess`] (for `AppHarness`) is the other: inputs submitted and answers
//! read in the same process, no socket.

use std::collections::VecDeque;
use std::path::Path;
use std::sync::{Arc, Mutex};

use ratatui::buffer::Buffer;

use crate::endpoint::{Endpoint, QueuedInput};
use crate::lock::lock;
use crate::logs::{LogSink, Waiting};
use crate::recorder::FrameArena;
use taria_schema::protocol::{AppMessage, Input};

/// A session's side of its consumer's connection.
pub(crate) trait Transport: Send + Sync {
    /// The connection whose inputs count now (0: none). Cheap: the app's event wait
    /// checks it for every agent key.
    fn live(&self) -> u64;

    /// Whether a consumer is connected (frames are recorded only then).
    fn is_connected(&self) -> bool {
        self.live() != 0
    }

    /// The socket path, for a socket transport.
    fn path(&self) -> Option<&Path> {
        None
    }

    /// Calls `take` with the current connection (0: none) and the queue of inputs
    /// that came in, atomically; returns what `take` returns.
    fn take_inputs(&self, take: &mut dyn FnMut(u64, &mut VecDeque<QueuedInput>) -> bool) -> bool;

    /// Sends an answer to `connection`, if it is still the current one.
    fn send(&self, connection: u64, message: AppMessage);

    /// Publishes the frame in `arena` and `buffer`, stamped with what `stamp` returns
    /// for the current connection; nothing when no consumer is connected.
    fn publish(&self, arena: &FrameArena, buffer: &Buffer, stamp: &mut dyn FnMut(u64) -> u64);
}

/// The socket endpoint as a transport.
pub(crate) struct Socket(pub(crate) Endpoint);

impl Transport for Socket {
    fn live(&self) -> u64 {
        self.0
            .shared
            .live
            .load(std::sync::atomic::Ordering::Acquire)
    }

    fn path(&self) -> Option<&Path> {
        Some(self.0.path())
    }

    fn take_inputs(&self, take: &mut dyn FnMut(u64, &mut VecDeque<QueuedInput>) -> bool) -> bool {
        let mut state = self.0.shared.lock();
        let connection = state.connection;
        take(connection, &mut state.inbox)
    }

    fn send(&self, connection: u64, message: AppMessage) {
        self.0.shared.send(connection, message);
    }

    fn publish(&self, arena: &FrameArena, buffer: &Buffer, stamp: &mut dyn FnMut(u64) -> u64) {
        let shared = &self.0.shared;
        let mut state = shared.lock();
        if state.connection == 0 {
            return;
        }
        let input = stamp(state.connection);
        // The same tree as the frame published before it on this connection, with the
        // same stamp (the loop turned to see a handler's change it had drawn): the
        // writer would send nothing for it, so it is not woken. It takes this frame
        // (its screen) the next time it wakes.
        let unchanged =
            state.frame.any && state.frame.input == input && state.frame.arena.same_tree(arena);
        state.frame.arena.copy_from(arena);
        copy_buffer(&mut state.frame.buffer, buffer);
        state.frame.input = input;
        state.frame.fresh = true;
        state.frame.any = true;
        drop(state);
        if !unchanged {
            shared.writer.notify_all();
        }
    }
}

/// Copies `from` into `into`, reusing its cells. ratatui's `Buffer` derives `Clone`,
/// so its `clone_from` allocated a new buffer every frame and freed the last one
/// (120 x 40 cells are ~190 KB: a fresh mapping and its page faults each time).
fn copy_buffer(into: &mut Buffer, from: &Buffer) {
    into.area = from.area;
    into.content.clone_from(&from.content);
}

/// The one connection an in-process consumer has.
const IN_PROCESS_CONNECTION: u64 = 1;

/// A consumer in the same process (the test harness): it submits inputs and reads
/// their answers (and the app's log, when captured) through its own handle to this
/// transport.
#[derive(Default)]
pub(crate) struct InProcess {
    state: Mutex<Local>,
    /// The app's log, opened for this consumer.
    logs: Option<Arc<LogSink>>,
}

#[derive(Default)]
struct Local {
    inbox: VecDeque<QueuedInput>,
    answers: Vec<AppMessage>,
    /// The last input number handed out by [`InProcess::submit`].
    seq: u64,
}

impl InProcess {
    /// A transport and the consumer's handle to it; `logs` is taken from as the app
    /// logs.
    pub(crate) fn new(logs: Option<Arc<LogSink>>) -> Arc<InProcess> {
        if let Some(logs) = &logs {
            logs.open(IN_PROCESS_CONNECTION, None);
        }
        Arc::new(InProcess {
            state: Mutex::default(),
            logs,
        })
    }

    /// Moves the entries the app logged since the last call into `into`, oldest
    /// first; `false` when the app's log is not captured.
    pub(crate) fn take_logs(&self, into: &mut Vec<Waiting>) -> bool {
        match &self.logs {
            Some(logs) => {
                logs.take(IN_PROCESS_CONNECTION, into);
                true
            }
            None => false,
        }
    }

    /// Queues an input as if an agent had sent it; returns its number for
    /// [`InProcess::take_answer`].
    pub(crate) fn submit(&self, input: Input) -> u64 {
        let mut local = lock(&self.state);
        local.seq += 1;
        let seq = local.seq;
        local.inbox.push_back(QueuedInput {
            connection: IN_PROCESS_CONNECTION,
            seq,
            input,
        });
        seq
    }

    /// The answer to input `seq`, once there is one.
    pub(crate) fn take_answer(&self, seq: u64) -> Option<AppMessage> {
        let mut local = lock(&self.state);
        let at = local
            .answers
            .iter()
            .position(|m| matches!(m, AppMessage::Ack { seq: s, .. } if *s == seq))?;
        Some(local.answers.remove(at))
    }
}

impl Transport for InProcess {
    fn live(&self) -> u64 {
        IN_PROCESS_CONNECTION
    }

    fn take_inputs(&self, take: &mut dyn FnMut(u64, &mut VecDeque<QueuedInput>) -> bool) -> bool {
        take(IN_PROCESS_CONNECTION, &mut lock(&self.state).inbox)
    }

    fn send(&self, _connection: u64, message: AppMessage) {
        lock(&self.state).answers.push(message);
    }

    /// The consumer reads the session's tree itself: nothing to publish.
    fn publish(&self, _: &FrameArena, _: &Buffer, _: &mut dyn FnMut(u64) -> u64) {}
}
