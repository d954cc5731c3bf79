//! The [`Book`]: what has happened and is not written yet, in the order events
//! began; each entry leaves for the writer once it is complete (an input with its
//! ack and the tree after it, a resize with the tree drawn at the new size, an exit
//! with its status), or once it has waited long enough.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, mpsc};
use std::time::{Duration, Instant};

use taria_schema::Tree;
use taria_schema::protocol::{AckStatus, Input, LogEntry};
use taria_schema::recording::{
    InputTool, RecordedAck, RecordedApp, RecordedLine, RecordedLog, RecordedResize, RecordedSize,
    RecordedTarget, RecordedUnprompted, RecordingHeader, RecordingMode,
};

use super::CallTag;
use super::screens::{PendingTree, ScreenSlot, Screens};
use super::unprompted::Unprompted;
use crate::limits::EFFECT_TIMEOUT;

/// How long a delivered input's line waits for a tree drawn after it before it is
/// written without one (as long as the input tools wait for it); a resize's line
/// likewise.
const TREE_WAIT: Duration = EFFECT_TIMEOUT;

/// How long an `app` line waits for the exit of a spawned app whose connection
/// ended, and for what it printed (a killed app's socket closes a moment before its
/// exit is seen; its last output is read half a second at most after that).
pub(super) const EXIT_WAIT: Duration = Duration::from_secs(2);

/// What has happened and is not written yet.
pub(super) struct Book {
    pub(super) out: Option<mpsc::Sender<Out>>,
    pub(super) mode: RecordingMode,
    /// The pty's size, in spawn mode.
    pub(super) pty: Option<RecordedSize>,
    pub(super) header: Header,
    /// The connection whose first tree was recorded last.
    pub(super) generation: u64,
    /// Lines in the order their events began; written from the front once complete.
    pub(super) pending: VecDeque<Entry>,
    /// The screens the app sent with its trees, newest last.
    pub(super) screens: Screens,
    pub(super) next_call: u64,
    pub(super) next_step: u64,
    /// The newest input's `seq`.
    pub(super) last_seq: u64,
    /// Whether a connection is open (its first tree came, its end did not).
    pub(super) open: bool,
    /// How the spawned app exited, once seen.
    pub(super) exit: Option<RecordedApp>,
    /// Whether the spawned app's exit was told ([`SessionRecorder::exited`](super::SessionRecorder::exited)):
    /// it is told once.
    pub(super) exit_told: bool,
    /// The step each input written got, by connection and `seq`: what a log line
    /// names the input the app had in hand by.
    pub(super) steps: HashMap<(u64, u64), u64>,
    /// What changed in frames drawn with no input since the last input or resize.
    pub(super) unprompted: Unprompted,
}

/// Where the header stands: it is written first, once the app's label and the
/// terminal's size are known.
pub(super) enum Header {
    /// No tree yet.
    NotYet,
    /// Attach mode: the app's label is known, the size is being asked for (the
    /// screen's); `tree` gives it if the screen does not come.
    Sizing {
        app: String,
        logs: bool,
        tree: Arc<Tree>,
        asked: bool,
    },
    /// Written (or given to the writer).
    Written,
}

pub(super) enum Entry {
    Ready(Out),
    /// A `tree` line waiting for its screen.
    Tree(Box<PendingTree>),
    Input(Box<PendingInput>),
    Resize(PendingResize),
    /// A spawned app's connection ended: its `app` line waits for the exit.
    Exit(Box<PendingExit>),
    /// Something the app logged on a connection, waiting behind the input it names.
    Log(u64, Box<LogEntry>),
}

/// An input sent, waiting for its ack and the tree after it.
pub(super) struct PendingInput {
    pub(super) generation: u64,
    pub(super) seq: u64,
    pub(super) call: u64,
    pub(super) tool: InputTool,
    pub(super) input: Input,
    /// What an act was aimed at.
    pub(super) target: Option<RecordedTarget>,
    /// The tree when it was sent: its focus and nodes decide what is a secret.
    pub(super) before: Option<Arc<Tree>>,
    pub(super) ack: Option<RecordedAck>,
    /// Whether the ack came (`ack` stays `None` for a status this bridge does not know).
    pub(super) acked: Option<Instant>,
    /// When it took its place, to be sent: the start of
    /// [`answered_in_us`](taria_schema::recording::RecordedInput::answered_in_us).
    pub(super) sent: Instant,
    pub(super) after: Option<(u64, Arc<Tree>)>,
    /// The screen drawn with `after`.
    pub(super) screen: ScreenSlot,
    /// The first tree drawn after it also shows a later input (the app handled both
    /// before drawing): no tree shows this one's effect alone, so it has none.
    pub(super) folded: bool,
    /// Nothing more will come: write it as it is.
    pub(super) done: bool,
}

impl PendingInput {
    fn complete(&self) -> bool {
        let delivered = self.ack.as_ref().map(|a| a.status) == Some(AckStatus::Delivered);
        self.done
            || (self.acked.is_some()
                && (self.folded
                    || (self.after.is_none() && !delivered)
                    || (self.after.is_some() && self.screen.settled())))
    }

    /// Whether it may have changed the app: not answered yet, or delivered.
    pub(super) fn may_have_acted(&self) -> bool {
        self.acked.is_none() || self.ack.as_ref().map(|a| a.status) == Some(AckStatus::Delivered)
    }
}

/// A resize applied, waiting for the first tree drawn after it.
pub(super) struct PendingResize {
    pub(super) generation: u64,
    /// The newest input sent before it: the resize's tree is one stamped with it (one
    /// stamped before shows inputs still in flight; an input sent after the resize
    /// ends the wait, `SessionRecorder::sent`, so none stamped later is looked at).
    pub(super) after_seq: u64,
    pub(super) line: RecordedResize,
    pub(super) since: Instant,
    pub(super) done: bool,
}

impl PendingResize {
    /// The app drew `tree` (`revision`) showing inputs up to `stamp`, after the resize.
    pub(super) fn drawn(&mut self, generation: u64, revision: u64, stamp: u64, tree: &Tree) {
        if self.done || generation != self.generation || stamp != self.after_seq {
            return;
        }
        self.line.revision = Some(revision);
        self.line.tree = Some(tree.clone());
        self.done = true;
    }
}

/// A spawned app's `app` line, waiting for its exit status and output.
pub(super) struct PendingExit {
    pub(super) line: RecordedApp,
    pub(super) since: Instant,
    /// The exit is in, or will not be waited for any longer.
    pub(super) done: bool,
}

/// What the writing thread writes.
pub(super) enum Out {
    Header(RecordingHeader),
    Line(RecordedLine),
    Tree(Box<PendingTree>),
    Input(Box<PendingInput>, u64),
}

impl Book {
    /// Queues the header first, ahead of any line.
    pub(super) fn write_header(&mut self, app: &str, logs: bool, size: RecordedSize) {
        let header = RecordingHeader::new(app, size, self.mode).with_logs(logs);
        self.header = Header::Written;
        self.pending.push_front(Entry::Ready(Out::Header(header)));
    }

    /// Writes a header waiting for its size, with `size` or the first tree's extent.
    pub(super) fn sized(&mut self, size: Option<RecordedSize>) {
        if let Header::Sizing {
            app, logs, tree, ..
        } = std::mem::replace(&mut self.header, Header::Written)
        {
            let size = size.unwrap_or_else(|| RecordedSize::of_tree(&tree));
            self.write_header(&app, logs, size);
        }
    }

    /// Queues an `unprompted` line, when something was noted.
    pub(super) fn push_unprompted(&mut self, noted: Option<RecordedUnprompted>) {
        if let Some(noted) = noted {
            self.pending
                .push_back(Entry::Ready(Out::Line(RecordedLine::Unprompted(noted))));
        }
    }

    pub(super) fn new_call(&mut self) -> u64 {
        let call = self.next_call;
        self.next_call += 1;
        call
    }

    pub(super) fn call_number(&mut self, tag: &CallTag) -> u64 {
        if let Some(&number) = tag.number.get() {
            return number;
        }
        let number = self.new_call();
        *tag.number.get_or_init(|| number)
    }

    /// Whether a tree stamped `stamp` also shows an input after `seq` that may have
    /// changed the app (one not answered yet, or delivered).
    pub(super) fn shows_later(&self, generation: u64, seq: u64, stamp: u64) -> bool {
        self.pending.iter().any(|entry| {
            matches!(entry, Entry::Input(later)
                if later.generation == generation
                    && later.seq > seq
                    && later.seq <= stamp
                    && later.may_have_acted())
        })
    }

    pub(super) fn input_mut(&mut self, generation: u64, seq: u64) -> Option<&mut PendingInput> {
        self.pending.iter_mut().find_map(|entry| match entry {
            Entry::Input(input) if input.generation == generation && input.seq == seq => {
                Some(&mut **input)
            }
            _ => None,
        })
    }

    /// Nothing more will come for what waits: inputs and resizes of connection
    /// `generation` (every one with `None`) are written as they stand; with `exits`,
    /// `app` lines waiting for an exit too.
    pub(super) fn give_up(&mut self, generation: Option<u64>, exits: bool) {
        let ours = |of: u64| generation.is_none_or(|generation| generation == of);
        for entry in &mut self.pending {
            match entry {
                Entry::Input(input) if ours(input.generation) => input.done = true,
                Entry::Tree(tree) if ours(tree.generation) => tree.done = true,
                Entry::Resize(resize) if ours(resize.generation) => resize.done = true,
                Entry::Exit(exit) if exits => exit.done = true,
                _ => {}
            }
        }
    }

    /// Sends the complete lines at the front to the writer, once the header is
    /// written (the app may log before its first tree). A delivered input whose tree
    /// has not come within [`TREE_WAIT`] of its ack goes without one, a resize
    /// likewise, and an `app` line without the exit after [`EXIT_WAIT`].
    pub(super) fn flush(&mut self) {
        if !matches!(self.header, Header::Written) {
            return;
        }
        self.take_screens();
        while let Some(front) = self.pending.front_mut() {
            let ready = match front {
                Entry::Ready(_) | Entry::Log(..) => true,
                Entry::Tree(tree) => tree.complete(TREE_WAIT),
                Entry::Input(input) => {
                    if !input.complete() && input.acked.is_some_and(|at| at.elapsed() >= TREE_WAIT)
                    {
                        input.done = true;
                    }
                    input.complete()
                }
                Entry::Resize(resize) => {
                    resize.done |= resize.since.elapsed() >= TREE_WAIT;
                    resize.done
                }
                Entry::Exit(exit) => {
                    exit.done |= exit.since.elapsed() >= EXIT_WAIT;
                    exit.done
                }
            };
            if !ready {
                break;
            }
            let Some(entry) = self.pending.pop_front() else {
                break;
            };
            let out = match entry {
                Entry::Ready(out) => out,
                Entry::Tree(tree) => Out::Tree(tree),
                Entry::Input(input) => {
                    let step = self.next_step;
                    self.next_step += 1;
                    self.steps.insert((input.generation, input.seq), step);
                    Out::Input(input, step)
                }
                Entry::Log(generation, entry) => {
                    let step = self.steps.get(&(generation, entry.input)).copied();
                    Out::Line(RecordedLine::Log(RecordedLog::of(*entry, step)))
                }
                Entry::Resize(resize) => Out::Line(RecordedLine::Resize(resize.line)),
                Entry::Exit(exit) => Out::Line(RecordedLine::App(exit.line)),
            };
            if let Some(tx) = &self.out
                && tx.send(out).is_err()
            {
                self.out = None;
            }
        }
    }
}
