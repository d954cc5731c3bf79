//! `--record FILE`: what the agent's session did, written as a recording
//! (`taria::wire::recording`, docs/protocol.md "Recordings") for `taria::testing` to
//! replay.
//!
//! The link tells the [`Recorder`] what happens as it happens, under its own lock, so
//! the order is the app's: an input when it takes its `seq`, its ack, each tree the
//! app draws (stamped with the inputs it shows), the end of a connection. Each input's
//! line waits until its ack and the tree drawn after it are in; lines leave in the
//! order their events began (a read noted while an earlier input waits for its tree
//! waits behind it). Writing is on a thread of its own: nothing here blocks on the
//! file, and a file that fails is logged once, and recording stops; the session goes on.

use std::collections::{HashMap, VecDeque};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use taria::Tree;
use taria::wire::protocol::{AckStatus, Input, LogEntry};
use taria::wire::recording::{
    AppEvent, InputTool, RecordedAck, RecordedApp, RecordedLine, RecordedLog, RecordedRead,
    RecordedSize, RecordingHeader, RecordingMode, RecordingWriter,
};

use crate::limits::EFFECT_TIMEOUT;
use crate::lock::lock;

mod redact;

use redact::input_line;
pub(crate) use redact::moves_focus;

/// How long a delivered input's line waits for a tree drawn after it before it is
/// written without one (as long as the input tools wait for it).
const TREE_WAIT: Duration = EFFECT_TIMEOUT;

/// Which tool call an input or read belongs to: its tool, and its number in the
/// recording (given the first time the call records something, so the inputs' calls
/// are numbered in the order they were sent).
#[derive(Clone, Debug)]
pub(crate) struct CallTag {
    tool: InputTool,
    number: Arc<OnceLock<u64>>,
}

impl CallTag {
    /// The tag of a new call of `tool`.
    pub(crate) fn new(tool: InputTool) -> CallTag {
        CallTag {
            tool,
            number: Arc::new(OnceLock::new()),
        }
    }
}

/// Writes the session's recording. Cheap to clone.
#[derive(Clone)]
pub(crate) struct Recorder(Arc<Shared>);

struct Shared {
    book: Mutex<Book>,
    /// The writing thread, joined by [`Recorder::finish`].
    thread: Mutex<Option<std::thread::JoinHandle<()>>>,
    /// Why the file failed, until a tool result has told the agent.
    failure: Arc<Mutex<Option<String>>>,
}

/// What has happened and is not written yet.
struct Book {
    out: Option<mpsc::Sender<Out>>,
    mode: RecordingMode,
    /// The pty's size, in spawn mode.
    pty: Option<RecordedSize>,
    header: Header,
    /// The connection whose first tree was recorded last.
    generation: u64,
    /// Lines in the order their events began; written from the front once complete.
    pending: VecDeque<Entry>,
    next_call: u64,
    next_step: u64,
    /// The step each input written got, by connection and `seq`: what a log line
    /// names the input the app had in hand by.
    steps: HashMap<(u64, u64), u64>,
}

/// Where the header stands: it is written first, once the app's label and the
/// terminal's size are known.
enum Header {
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

enum Entry {
    Ready(Out),
    Input(Box<PendingInput>),
    /// Something the app logged on a connection, waiting behind the input it names.
    Log(u64, Box<LogEntry>),
}

/// An input sent, waiting for its ack and the tree after it.
struct PendingInput {
    generation: u64,
    seq: u64,
    call: u64,
    tool: InputTool,
    input: Input,
    /// The tree when it was sent: its focus and nodes decide what is a secret.
    before: Option<Arc<Tree>>,
    ack: Option<RecordedAck>,
    /// Whether the ack came (`ack` stays `None` for a status this bridge does not know).
    acked: Option<Instant>,
    after: Option<(u64, Arc<Tree>)>,
    /// The first tree drawn after it also shows a later input (the app handled both
    /// before drawing): no tree shows this one's effect alone, so it has none.
    folded: bool,
    /// Nothing more will come: write it as it is.
    done: bool,
}

impl PendingInput {
    fn complete(&self) -> bool {
        self.done
            || (self.acked.is_some()
                && (self.after.is_some()
                    || self.folded
                    || self.ack.as_ref().map(|a| a.status) != Some(AckStatus::Delivered)))
    }

    /// Whether it may have changed the app: not answered yet, or delivered.
    fn may_have_acted(&self) -> bool {
        self.acked.is_none() || self.ack.as_ref().map(|a| a.status) == Some(AckStatus::Delivered)
    }
}

/// What the writing thread writes.
enum Out {
    Header(RecordingHeader),
    Line(RecordedLine),
    Tree(u64, Arc<Tree>),
    Input(Box<PendingInput>, u64),
}

impl Recorder {
    /// Starts recording into `file` (created by the caller, so that a path that cannot
    /// be written fails before the session starts). The header is written with the
    /// first tree, once the app's label is known.
    pub(crate) fn start(
        file: std::fs::File,
        path: PathBuf,
        mode: RecordingMode,
        pty: Option<RecordedSize>,
    ) -> Recorder {
        let (tx, rx) = mpsc::channel();
        let failure = Arc::new(Mutex::new(None));
        let failed = Arc::clone(&failure);
        let thread = std::thread::Builder::new()
            .name("taria-mcp-record".into())
            .spawn(move || write_all(file, &path, &rx, &failed))
            .inspect_err(|e| tracing::error!(error = %e, "cannot start the recording's writer; not recording"))
            .ok();
        Recorder(Arc::new(Shared {
            book: Mutex::new(Book {
                out: thread.is_some().then_some(tx),
                mode,
                pty,
                header: Header::NotYet,
                generation: 0,
                pending: VecDeque::new(),
                next_call: 1,
                next_step: 1,
                steps: HashMap::new(),
            }),
            thread: Mutex::new(thread),
            failure,
        }))
    }

    /// Input `seq` on connection `generation` takes its place (`tree`: the newest).
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
        book.pending.push_back(Entry::Input(Box::new(PendingInput {
            generation,
            seq,
            call,
            tool,
            input: input.clone(),
            before: tree.cloned(),
            ack: None,
            acked: None,
            after: None,
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
                    .push_back(Entry::Ready(Out::Line(RecordedLine::App(RecordedApp {
                        event: AppEvent::Reconnected,
                        message: None,
                    }))));
            }
            book.generation = generation;
            book.pending
                .push_back(Entry::Ready(Out::Tree(revision, Arc::clone(tree))));
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
        book.flush();
    }

    /// Connection `generation` ended (`why`, in words): what waited on it is written
    /// as it stands.
    pub(crate) fn closed(&self, generation: u64, why: &str) {
        let mut book = lock(&self.0.book);
        for entry in &mut book.pending {
            if let Entry::Input(input) = entry
                && input.generation == generation
            {
                input.done = true;
            }
        }
        if !matches!(book.header, Header::NotYet) {
            book.pending
                .push_back(Entry::Ready(Out::Line(RecordedLine::App(RecordedApp {
                    event: AppEvent::Exited,
                    message: Some(why.to_owned()),
                }))));
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
    /// caller then asks the app for and gives to [`Recorder::sized`]; `true` once.
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

    /// Writes what is left (inputs still waiting, as they stand) and waits for the
    /// writer to finish.
    pub(crate) fn finish(&self) {
        {
            let mut book = lock(&self.0.book);
            book.sized(None);
            for entry in &mut book.pending {
                if let Entry::Input(input) = entry {
                    input.done = true;
                }
            }
            book.flush();
            book.out = None;
        }
        if let Some(thread) = lock(&self.0.thread).take() {
            let _ = thread.join();
        }
    }
}

impl Book {
    /// Queues the header first, ahead of any line.
    fn write_header(&mut self, app: &str, logs: bool, size: RecordedSize) {
        let header = RecordingHeader::new(app, size, self.mode).with_logs(logs);
        self.header = Header::Written;
        self.pending.push_front(Entry::Ready(Out::Header(header)));
    }

    /// Writes a header waiting for its size, with `size` or the first tree's extent.
    fn sized(&mut self, size: Option<RecordedSize>) {
        if let Header::Sizing {
            app, logs, tree, ..
        } = std::mem::replace(&mut self.header, Header::Written)
        {
            let size = size.unwrap_or_else(|| RecordedSize::of_tree(&tree));
            self.write_header(&app, logs, size);
        }
    }

    fn new_call(&mut self) -> u64 {
        let call = self.next_call;
        self.next_call += 1;
        call
    }

    fn call_number(&mut self, tag: &CallTag) -> u64 {
        if let Some(&number) = tag.number.get() {
            return number;
        }
        let number = self.new_call();
        *tag.number.get_or_init(|| number)
    }

    /// Whether a tree stamped `stamp` also shows an input after `seq` that may have
    /// changed the app (one not answered yet, or delivered).
    fn shows_later(&self, generation: u64, seq: u64, stamp: u64) -> bool {
        self.pending.iter().any(|entry| {
            matches!(entry, Entry::Input(later)
                if later.generation == generation
                    && later.seq > seq
                    && later.seq <= stamp
                    && later.may_have_acted())
        })
    }

    fn input_mut(&mut self, generation: u64, seq: u64) -> Option<&mut PendingInput> {
        self.pending.iter_mut().find_map(|entry| match entry {
            Entry::Input(input) if input.generation == generation && input.seq == seq => {
                Some(&mut **input)
            }
            _ => None,
        })
    }

    /// Sends the complete lines at the front to the writer, once the header is
    /// written (the app may log before its first tree). A delivered input whose tree
    /// has not come within [`TREE_WAIT`] of its ack goes without one.
    fn flush(&mut self) {
        if !matches!(self.header, Header::Written) {
            return;
        }
        while let Some(front) = self.pending.front_mut() {
            if let Entry::Input(input) = front
                && !input.complete()
            {
                if input.acked.is_some_and(|at| at.elapsed() >= TREE_WAIT) {
                    input.done = true;
                } else {
                    break;
                }
            }
            let Some(entry) = self.pending.pop_front() else {
                break;
            };
            let out = match entry {
                Entry::Ready(out) => out,
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
            };
            if let Some(tx) = &self.out
                && tx.send(out).is_err()
            {
                self.out = None;
            }
        }
    }
}

/// The tool an input came from when no call says (it cannot be a batch's).
fn tool_of(input: &Input) -> InputTool {
    match input {
        Input::Key { .. } => InputTool::PressKey,
        Input::Text { .. } => InputTool::TypeText,
        _ => InputTool::Act,
    }
}

/// The writing thread: writes each line as it comes, until the recorder finishes or
/// the file fails (logged once, and noted for the agent; the rest is not written).
fn write_all(
    file: std::fs::File,
    path: &Path,
    rx: &mpsc::Receiver<Out>,
    failure: &Mutex<Option<String>>,
) {
    let failed = |error: &std::io::Error| {
        tracing::error!(
            path = %path.display(),
            error = %error,
            "cannot write the recording; recording stops here (the session goes on)"
        );
        *lock(failure) = Some(format!(
            "note: the recording {} stopped here: it cannot be written ({error}); the \
             session goes on unrecorded",
            path.display()
        ));
    };
    let mut writer: Option<RecordingWriter<std::fs::File>> = None;
    let mut file = Some(file);
    for out in rx {
        let line = match out {
            Out::Header(header) => {
                let Some(file) = file.take() else { continue };
                match RecordingWriter::new(file, &header) {
                    Ok(w) => writer = Some(w),
                    Err(e) => return failed(&e),
                }
                continue;
            }
            Out::Line(line) => line,
            Out::Tree(revision, tree) => RecordedLine::tree(revision, Tree::clone(&tree)),
            Out::Input(input, step) => input_line(*input, step),
        };
        let Some(w) = writer.as_mut() else { continue };
        if let Err(e) = w.write(&line) {
            return failed(&e);
        }
    }
}
