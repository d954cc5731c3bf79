//! The screen drawn with each recorded tree (`screen` on `tree` and `input` lines,
//! for a replay's screen check). The bridge's hello asks a recording app for its
//! screen after each tree and patch (`screens`); an app that says it does
//! ([`SessionRecorder::pushes_screens`]) sends each right after its tree, with the same
//! revision, and a line whose tree came waits for that screen. An older app sends
//! none: its lines go without.

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::{Duration, Instant};

use taria_schema::Tree;
use taria_schema::recording::{RecordedLine, RecordedScreen, RecordedTree, recordable_screen};

use super::{Book, Entry, SessionRecorder};
use crate::lock::lock;

/// How many screens are kept for lines whose tree comes before their ack.
const KEPT: usize = 16;

/// How long the end of a session waits for the screens owed to trees that came (an
/// app sends each right after its tree: the wait is for a line still in the socket
/// when the agent's last call was answered).
const SCREEN_WAIT: Duration = Duration::from_millis(500);

/// The screen a line's tree waits for.
#[derive(Debug, Default)]
pub(super) struct ScreenSlot {
    rows: Option<RecordedScreen>,
    /// Its screen came, or none will.
    settled: bool,
}

impl ScreenSlot {
    pub(super) fn settled(&self) -> bool {
        self.settled
    }

    pub(super) fn into_rows(self) -> Option<RecordedScreen> {
        self.rows
    }

    /// Takes the screen drawn with `tree` (of the bridge's `revision`) from
    /// `screens`, as a recording keeps a screen; settles without one when its app
    /// sends none, or when a screen drawn after it came and its own did not.
    fn take(&mut self, generation: u64, revision: u64, tree: &Tree, screens: &Screens) {
        if self.settled {
            return;
        }
        if screens.pushing != Some(generation) {
            self.settled = true;
            return;
        }
        for (screen_generation, screen_revision, rows) in &screens.kept {
            if *screen_generation != generation || *screen_revision < revision {
                continue;
            }
            if *screen_revision == revision {
                self.rows = Some(recordable_screen(tree, rows));
            }
            self.settled = true;
            return;
        }
    }
}

/// The screens the app sent, and whose app sends them.
#[derive(Default)]
pub(super) struct Screens {
    /// The connection whose app sends a screen after each tree.
    pushing: Option<u64>,
    /// `(connection, revision, rows)`, oldest first.
    kept: VecDeque<(u64, u64, Vec<String>)>,
}

/// A `tree` line (the first tree of a connection) waiting for its screen.
pub(super) struct PendingTree {
    pub(super) generation: u64,
    revision: u64,
    tree: Arc<Tree>,
    screen: ScreenSlot,
    since: Instant,
    /// Nothing more will come: write it as it is.
    pub(super) done: bool,
}

impl PendingTree {
    pub(super) fn new(generation: u64, revision: u64, tree: &Arc<Tree>) -> PendingTree {
        PendingTree {
            generation,
            revision,
            tree: Arc::clone(tree),
            screen: ScreenSlot::default(),
            since: Instant::now(),
            done: false,
        }
    }

    /// Whether it can be written: its screen settled, or `wait` passed.
    pub(super) fn complete(&self, wait: Duration) -> bool {
        self.done || self.screen.settled || self.since.elapsed() >= wait
    }

    pub(super) fn line(self) -> RecordedLine {
        RecordedLine::Tree(RecordedTree {
            revision: self.revision,
            tree: Tree::clone(&self.tree),
            screen: self.screen.rows,
        })
    }
}

impl SessionRecorder {
    /// Connection `generation`'s app said in its hello whether it sends its screen
    /// after each tree (`pushes`).
    pub(crate) fn pushes_screens(&self, generation: u64, pushes: bool) {
        let mut book = lock(&self.0.book);
        if pushes {
            book.screens.pushing = Some(generation);
        } else if book.screens.pushing == Some(generation) {
            book.screens.pushing = None;
        }
    }

    /// The app's screen on connection `generation`, drawn with its tree of the
    /// bridge's `revision`.
    pub(crate) fn screen(&self, generation: u64, revision: u64, rows: Vec<String>) {
        let mut book = lock(&self.0.book);
        let kept = &mut book.screens.kept;
        if kept.len() == KEPT {
            kept.pop_front();
        }
        kept.push_back((generation, revision, rows));
        book.flush();
        self.0.screened.notify_all();
    }

    /// Waits (at most [`SCREEN_WAIT`]) until no line whose tree came waits for its
    /// screen on an open connection, so that the session's end does not cut off the
    /// screen of the tree its last call was answered with.
    pub(super) fn await_owed_screens(&self) {
        let deadline = Instant::now() + SCREEN_WAIT;
        let mut book = lock(&self.0.book);
        while book.owes_screens() {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                tracing::debug!("the session ends without a screen the app owes");
                return;
            }
            book = self
                .0
                .screened
                .wait_timeout(book, left)
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .0;
        }
    }
}

impl Book {
    /// Whether a line whose tree came still waits for its screen from an app that
    /// sends them, on a connection still open.
    fn owes_screens(&self) -> bool {
        let owed = |generation: u64, slot: &ScreenSlot| {
            self.open && self.screens.pushing == Some(generation) && !slot.settled
        };
        self.pending.iter().any(|entry| match entry {
            Entry::Tree(tree) => !tree.done && owed(tree.generation, &tree.screen),
            Entry::Input(input) => {
                !input.done && input.after.is_some() && owed(input.generation, &input.screen)
            }
            Entry::Ready(_) | Entry::Resize(_) | Entry::Exit(_) | Entry::Log(..) => false,
        })
    }

    /// Gives each line whose tree came the screen drawn with it, or settles it
    /// without one.
    pub(super) fn take_screens(&mut self) {
        let Book {
            pending, screens, ..
        } = self;
        for entry in pending.iter_mut() {
            match entry {
                Entry::Tree(pending) => {
                    let PendingTree {
                        generation,
                        revision,
                        tree,
                        screen,
                        ..
                    } = &mut **pending;
                    screen.take(*generation, *revision, tree, screens);
                }
                Entry::Input(input) => {
                    if let Some((revision, tree)) = &input.after {
                        input
                            .screen
                            .take(input.generation, *revision, tree, screens);
                    }
                }
                Entry::Ready(_) | Entry::Resize(_) | Entry::Exit(_) | Entry::Log(..) => {}
            }
        }
    }
}
