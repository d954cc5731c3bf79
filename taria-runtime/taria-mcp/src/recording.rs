//! `--record FILE`: what the agent's session did, written as a recording
//! (`taria_schema::recording`, docs/protocol.md "Recordings") for `taria::testing` to
//! replay.
//!
//! The link tells the [`SessionRecorder`] what happens as it happens, under its own lock, so
//! the order is the app's: an input when it takes its `seq`, its ack, each tree the
//! app draws (stamped with the inputs it shows), a resize of the app's terminal, the
//! end of a connection and the app's exit. Each input's line waits until its ack and
//! the tree drawn after it are in (a resize's for the tree drawn at the new size, an
//! exit's for its status); lines leave in the order their events began (a read noted
//! while an earlier input waits for its tree waits behind it), kept in the
//! [`book`]. Writing is on a thread of its own ([`write`](mod@write)): nothing here blocks on
//! the file, and a file that fails is logged once, and recording stops; the session
//! goes on.

use std::collections::{HashMap, VecDeque};
use std::path::PathBuf;
use std::sync::mpsc;
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Instant;

use taria_schema::Tree;
use taria_schema::protocol::{AckStatus, Input, LogEntry};
use taria_schema::recording::{
    AppEvent, InputTool, RecordedAck, RecordedApp, RecordedLine, RecordedRead, RecordedRefusal,
    RecordedResize, RecordedSize, RecordedTarget, RecordingMode,
};

use crate::lock::lock;
use crate::spawn::Spawned;

mod book;
mod redact;
mod screens;
#[cfg(test)]
mod tests;
mod unprompted;
mod write;

use book::{Book, Entry, Header, Out, PendingExit, PendingInput, PendingResize};
pub(crate) use redact::moves_focus;
use redact::redact_arguments;
use screens::{PendingTree, ScreenSlot, Screens};
use unprompted::Unprompted;

/// Which tool call an input or read belongs to: its tool, its number in the
/// recording (given the first time the call records something, so the inputs' calls
/// are numbered in the order they were sent), and the tree the agent had seen when
/// the call arrived.
#[derive(Clone, Debug)]
pub(crate) struct CallTag {
    tool: InputTool,
    number: Arc<OnceLock<u64>>,
    seen: Option<Arc<Tree>>,
}

impl CallTag {
    /// The tag of a new call of `tool`, which the agent sent having seen `seen`.
    pub(crate) fn new(tool: InputTool, seen: Option<Arc<Tree>>) -> CallTag {
        CallTag {
            tool,
            number: Arc::new(OnceLock::new()),
            seen,
        }
    }
}

/// Writes the session's recording. Cheap to clone.
#[derive(Clone)]
pub(crate) struct SessionRecorder(Arc<Shared>);

struct Shared {
    book: Mutex<Book>,
    /// Notified when a screen comes or a connection ends (`SessionRecorder::finish` waits
    /// for the screens owed).
    screened: Condvar,
    /// The writing thread, joined by [`SessionRecorder::finish`].
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// Why the file failed, until a tool result has told the agent.
    failure: Arc<Mutex<Option<String>>>,
}

/// A refused input call, as [`SessionRecorder::refused`] records it.
pub(crate) struct Refusal<'a> {
    /// The call's tag (its number), when it has one.
    pub(crate) tag: Option<&'a CallTag>,
    pub(crate) tool: InputTool,
    /// For a batch refused at one of its steps: which, from 1.
    pub(crate) step: Option<u64>,
    pub(crate) arguments: serde_json::Map<String, serde_json::Value>,
    pub(crate) code: &'a str,
    pub(crate) message: &'a str,
}

impl SessionRecorder {
    /// Starts recording into `file` (created by the caller, so that a path that cannot
    /// be written fails before the session starts). The header is written with the
    /// first tree, once the app's label is known.
    pub(crate) fn start(
        file: std::fs::File,
        path: PathBuf,
        mode: RecordingMode,
        pty: Option<RecordedSize>,
    ) -> SessionRecorder {
        let (tx, rx) = mpsc::channel();
        let failure = Arc::new(Mutex::new(None));
        let failed = Arc::clone(&failure);
        let thread = std::thread::Builder::new()
            .name("taria-mcp-record".into())
            .spawn(move || write::write_all(file, &path, &rx, &failed))
            .inspect_err(|e| tracing::error!(error = %e, "cannot start the recording's writer; not recording"))
            .ok();
        SessionRecorder(Arc::new(Shared {
            book: Mutex::new(Book {
                out: thread.is_some().then_some(tx),
                mode,
                pty,
                header: Header::NotYet,
                generation: 0,
                pending: VecDeque::new(),
                screens: Screens::default(),
                next_call: 1,
                next_step: 1,
                last_seq: 0,
                open: false,
                exit: None,
                exit_told: false,
                steps: HashMap::new(),
                unprompted: Unprompted::default(),
            }),
            screened: Condvar::new(),
            thread: Mutex::new(thread),
            failure,
        }))
    }

    /// Input `seq` on connection `generation` takes its place (`tree`: the newest).
    /// An act's target is the node at its id in that tree, which the bridge checked
    /// the act against (what the agent read, unless the app changed since), else in
    /// the tree the agent saw (an id it saw drawn, scrolled off screen since).
    pub(crate) fn sent(
        &self,
        generation: u64,
        seq: u64,
        input: &Input,
        tag: Option<&CallTag>,
        tree: Option<&Arc<Tree>>,
    ) {
        let mut book = lock(&self.0.book);
        let (tool, call) = match tag {
            Some(tag) => (tag.tool, book.call_number(tag)),
            None => (tool_of(input), book.new_call()),
        };
        let target = match input {
            Input::Act(request) => tree
                .into_iter()
                .chain(tag.and_then(|tag| tag.seen.as_ref()))
                .find_map(|tree| tree.get(request.target.as_str()))
                .map(RecordedTarget::of),
            _ => None,
        };
        let noted = book.unprompted.sent(generation, seq);
        book.push_unprompted(noted);
        book.last_seq = book.last_seq.max(seq);
        // A tree drawn from now on may show this input even when it is stamped below
        // it (the frame in which a widget takes an input is: its effect is complete in
        // the next), so a resize still waiting for its tree goes without one.
        for entry in &mut book.pending {
            if let Entry::Resize(resize) = entry
                && resize.generation == generation
            {
                resize.done = true;
            }
        }
        book.pending.push_back(Entry::Input(Box::new(PendingInput {
            generation,
            seq,
            call,
            tool,
            input: input.clone(),
            target,
            before: tree.cloned(),
            ack: None,
            acked: None,
            sent: Instant::now(),
            after: None,
            screen: ScreenSlot::default(),
            folded: false,
            done: false,
        })));
    }

    /// Input `seq` could not be written to the app: it never reached it.
    pub(crate) fn unsent(&self, seq: u64) {
        let mut book = lock(&self.0.book);
        book.pending
            .retain(|entry| !matches!(entry, Entry::Input(input) if input.seq == seq));
        book.flush();
    }

    /// The app answered input `seq` with `ack` (`None`: a status this bridge does not
    /// know, so its effect is unknown); `now` is the newest tree, its revision and stamp.
    pub(crate) fn acked(
        &self,
        generation: u64,
        seq: u64,
        ack: Option<RecordedAck>,
        now: Option<(u64, &Arc<Tree>, u64)>,
    ) {
        let mut book = lock(&self.0.book);
        let delivered = ack.as_ref().map(|a| a.status) == Some(AckStatus::Delivered);
        let folded = now.is_some_and(|(_, _, stamp)| {
            delivered && stamp > seq && book.shows_later(generation, seq, stamp)
        });
        if let Some(input) = book.input_mut(generation, seq) {
            input.acked = Some(Instant::now());
            // An ack of a status this bridge does not know: its effect is unknown.
            if ack.is_none() {
                input.done = true;
            }
            input.ack = ack;
            if folded {
                input.folded = true;
            } else if let Some((revision, tree, stamp)) = now
                && (!delivered || stamp >= seq)
            {
                input.after = Some((revision, Arc::clone(tree)));
            }
        }
        book.flush();
    }

    /// The app drew `tree` (the bridge's `revision`), showing inputs up to `stamp`;
    /// `first` when it is the first tree of connection `generation`: the app's label,
    /// and whether it sends its log (its hello's `logs`).
    pub(crate) fn drew(
        &self,
        generation: u64,
        first: Option<(&str, bool)>,
        revision: u64,
        stamp: u64,
        tree: &Arc<Tree>,
    ) {
        let mut book = lock(&self.0.book);
        if let Some((app, logs)) = first {
            if matches!(book.header, Header::NotYet) {
                match book.pty {
                    Some(size) => book.write_header(app, logs, size),
                    None => {
                        book.header = Header::Sizing {
                            app: app.to_owned(),
                            logs,
                            tree: Arc::clone(tree),
                            asked: false,
                        };
                    }
                }
            } else if book.generation != generation {
                book.pending
                    .push_back(Entry::Ready(Out::Line(RecordedLine::App(
                        RecordedApp::new(AppEvent::Reconnected, None),
                    ))));
            }
            book.generation = generation;
            book.open = true;
            book.pending
                .push_back(Entry::Tree(Box::new(PendingTree::new(
                    generation, revision, tree,
                ))));
        }
        let waiting: Vec<u64> = book
            .pending
            .iter()
            .filter_map(|entry| match entry {
                Entry::Input(input)
                    if input.generation == generation
                        && input.seq <= stamp
                        && input.acked.is_some()
                        && input.after.is_none()
                        && !input.folded =>
                {
                    Some(input.seq)
                }
                _ => None,
            })
            .collect();
        for seq in waiting {
            let folded = book.shows_later(generation, seq, stamp);
            if let Some(input) = book.input_mut(generation, seq) {
                if folded && input.may_have_acted() {
                    input.folded = true;
                } else {
                    input.after = Some((revision, Arc::clone(tree)));
                }
            }
        }
        for entry in &mut book.pending {
            if let Entry::Resize(resize) = entry {
                resize.drawn(generation, revision, stamp, tree);
            }
        }
        book.unprompted
            .drawn(generation, first.is_some(), revision, stamp, tree);
        book.flush();
    }

    /// Connection `generation` ended (`why`, in words): what waited on it is written
    /// as it stands. The `app` line of a spawned app waits for its exit (at most
    /// `EXIT_WAIT`), to say its status and what it printed.
    pub(crate) fn closed(&self, generation: u64, why: &str) {
        let mut book = lock(&self.0.book);
        let noted = book.unprompted.interrupted();
        book.push_unprompted(noted);
        book.open = false;
        book.give_up(Some(generation), false);
        if !matches!(book.header, Header::NotYet) {
            let mut line = RecordedApp::new(AppEvent::Exited, Some(why.to_owned()));
            let entry = match (book.mode, book.exit.take()) {
                (RecordingMode::Spawn, None) => Entry::Exit(Box::new(PendingExit {
                    line,
                    since: Instant::now(),
                    done: false,
                })),
                (_, exit) => {
                    if let Some(exit) = exit {
                        with_exit(&mut line, exit);
                    }
                    Entry::Ready(Out::Line(RecordedLine::App(line)))
                }
            };
            book.pending.push_back(entry);
        }
        book.flush();
        self.0.screened.notify_all();
    }

    /// The spawned app's terminal was resized to `size` while connection
    /// `generation` was open, the bridge's newest tree being of revision `before`: a
    /// `resize` line, with the first tree drawn after it when that shows no input
    /// sent since. `now` is the newest tree, its revision and stamp, taken while no
    /// tree can come ([`Link::record_resize`](crate::link::Link::record_resize)): an
    /// app quick to redraw has drawn it already.
    pub(crate) fn resized(
        &self,
        generation: u64,
        size: RecordedSize,
        before: u64,
        now: Option<(u64, &Arc<Tree>, u64)>,
    ) {
        let mut book = lock(&self.0.book);
        let noted = book.unprompted.interrupted();
        book.push_unprompted(noted);
        let call = book.new_call();
        let mut resize = PendingResize {
            generation,
            after_seq: book.last_seq,
            line: RecordedResize {
                call,
                size,
                revision: None,
                tree: None,
            },
            since: Instant::now(),
            done: false,
        };
        if let Some((revision, tree, stamp)) = now
            && revision > before
        {
            resize.drawn(generation, revision, stamp, tree);
        }
        book.pending.push_back(Entry::Resize(resize));
        book.flush();
    }

    /// An input call the bridge refused without sending it (or a batch, the step it
    /// refused): a `refused` line, its secrets left out as an input's are (judged by
    /// `trees`: the newest and the one the agent saw).
    pub(crate) fn refused(&self, refusal: Refusal<'_>, trees: &[&Tree]) {
        let Refusal {
            tag,
            tool,
            step,
            mut arguments,
            code,
            message,
        } = refusal;
        let redacted = redact_arguments(&mut arguments, trees);
        let mut book = lock(&self.0.book);
        let call = match tag {
            Some(tag) => book.call_number(tag),
            None => book.new_call(),
        };
        let line = RecordedRefusal {
            call,
            tool,
            step,
            arguments,
            code: code.to_owned(),
            message: (!redacted).then(|| message.to_owned()),
            redacted,
        };
        book.pending
            .push_back(Entry::Ready(Out::Line(RecordedLine::Refused(Box::new(
                line,
            )))));
        book.flush();
    }

    /// The spawned app exited (`code`, or `signal`), having printed `output` after
    /// leaving its screen: said in the `app` line its connection's end wrote or
    /// will write, or in one of its own when that line was written without it.
    pub(crate) fn exited(&self, code: u32, signal: Option<String>, output: Option<String>) {
        let mut book = lock(&self.0.book);
        if std::mem::replace(&mut book.exit_told, true) {
            return;
        }
        let mut exit = RecordedApp::new(AppEvent::Exited, None);
        exit.exit_code = Some(code);
        exit.signal = signal;
        exit.output = output;
        let wait_for_close = book.open || matches!(book.header, Header::NotYet);
        let waiting = book.pending.iter_mut().find_map(|entry| match entry {
            Entry::Exit(pending) if !pending.done => Some(pending),
            _ => None,
        });
        match waiting {
            Some(pending) => {
                with_exit(&mut pending.line, exit);
                pending.done = true;
            }
            // Its connection is still open (it ends in a moment), or the header is
            // not written: the line waits for it.
            None if wait_for_close => {
                book.exit = Some(exit);
            }
            None => book
                .pending
                .push_back(Entry::Ready(Out::Line(RecordedLine::App(exit)))),
        }
        book.flush();
    }

    /// The app logged `entry` on connection `generation`: written after the lines
    /// of the events before it, naming the step of the input it was stamped with.
    pub(crate) fn logged(&self, generation: u64, entry: &LogEntry) {
        let mut book = lock(&self.0.book);
        book.pending
            .push_back(Entry::Log(generation, Box::new(entry.clone())));
        book.flush();
    }

    /// Tells [`SessionRecorder::exited`] of `spawned`'s exit if it has exited, for when the
    /// session ends before [`follow_exit`](SessionRecorder::follow_exit)'s task had its turn
    /// (the runtime stops with the session).
    pub(crate) fn exit_if_seen(&self, spawned: &Spawned) {
        if let Some(exit) = spawned.exit() {
            self.exited(exit.code, exit.signal, spawned.printed());
        }
    }

    /// Tells [`SessionRecorder::exited`] of the spawned app's exit when it comes.
    pub(crate) fn follow_exit(&self, spawned: Arc<Spawned>) {
        let recorder = self.clone();
        tokio::spawn(async move {
            if let Some(exit) = spawned.exited().await {
                let output = spawned.printed();
                recorder.exited(exit.code, exit.signal, output);
            }
        });
    }

    /// A read tool's call was answered from the tree at `revision`.
    pub(crate) fn read(
        &self,
        tag: Option<&CallTag>,
        tool: &str,
        arguments: serde_json::Map<String, serde_json::Value>,
        revision: u64,
    ) {
        let mut book = lock(&self.0.book);
        let call = match tag {
            Some(tag) => book.call_number(tag),
            None => book.new_call(),
        };
        book.pending
            .push_back(Entry::Ready(Out::Line(RecordedLine::Read(RecordedRead {
                call,
                tool: tool.to_owned(),
                arguments,
                revision,
            }))));
        book.flush();
    }

    /// Once, after the file failed: the sentence that tells the agent (the next tool
    /// result carries it).
    pub(crate) fn take_failure(&self) -> Option<String> {
        lock(&self.0.failure).take()
    }

    /// Whether the header waits for the terminal's size (attach mode), which the
    /// caller then asks the app for and gives to [`SessionRecorder::sized`]; `true` once.
    pub(crate) fn wants_size(&self) -> bool {
        match &mut lock(&self.0.book).header {
            Header::Sizing { asked, .. } if !*asked => {
                *asked = true;
                true
            }
            _ => false,
        }
    }

    /// The terminal's size, from the app's screen (`None`: it did not come; the
    /// first tree's extent is used).
    pub(crate) fn sized(&self, size: Option<RecordedSize>) {
        let mut book = lock(&self.0.book);
        book.sized(size);
        book.flush();
    }

    /// Writes what is left (inputs still waiting, as they stand, once the screens
    /// owed for the trees that came are in) and waits for the writer to finish.
    pub(crate) fn finish(&self) {
        self.await_owed_screens();
        {
            let mut book = lock(&self.0.book);
            let noted = book.unprompted.interrupted();
            book.push_unprompted(noted);
            book.sized(None);
            book.give_up(None, true);
            book.flush();
            book.out = None;
        }
        if let Some(thread) = lock(&self.0.thread).take() {
            let _ = thread.join();
        }
    }
}

/// Moves `exit`'s status and output into `line`.
fn with_exit(line: &mut RecordedApp, exit: RecordedApp) {
    line.exit_code = exit.exit_code;
    line.signal = exit.signal;
    line.output = exit.output;
}

/// The tool an input came from when no call says (it cannot be a batch's).
fn tool_of(input: &Input) -> InputTool {
    match input {
        Input::Key { .. } => InputTool::PressKey,
        Input::Text { .. } => InputTool::TypeText,
        Input::Act(_) => InputTool::Act,
    }
}
