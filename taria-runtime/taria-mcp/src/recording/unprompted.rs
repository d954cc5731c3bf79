//! [`Unprompted`]: which nodes changed in frames the app drew with no input to show
//! (a timer's tick, data streaming in), noted between inputs and written as an
//! `unprompted` line before the next input or resize: what `test-from` needs to know
//! which nodes a replay, which draws only after its inputs, cannot reproduce.

use std::sync::Arc;
use std::time::Instant;

use taria_schema::Tree;
use taria_schema::recording::RecordedUnprompted;

use crate::unprompted_frame::InputStamps;

/// The frames since the last input or resize, compared as they come.
#[derive(Default)]
pub(super) struct Unprompted {
    /// The newest frame of the open connection.
    last: Option<LastDrawn>,
    /// The newest frame's stamp, and when a frame last showed an input (or a resize,
    /// or the connection's start): a frame soon after it may show the input's effect
    /// late.
    stamps: InputStamps,
    /// The newest input sent: its connection and `seq`.
    newest_sent: Option<(u64, u64)>,
    /// What changed so far.
    noted: RecordedUnprompted,
}

struct LastDrawn {
    generation: u64,
    tree: Arc<Tree>,
}

impl Unprompted {
    /// The app drew `tree` (`revision`) on connection `generation`, showing inputs up
    /// to `stamp`; `first`: the connection's first. A frame that shows no new input,
    /// while no input sent waits to be shown, and not soon after one that did
    /// ([`InputStamps::unprompted`]), is compared with the frame before it.
    pub(super) fn drawn(
        &mut self,
        generation: u64,
        first: bool,
        revision: u64,
        stamp: u64,
        tree: &Arc<Tree>,
    ) {
        let now = Instant::now();
        let waiting = self
            .newest_sent
            .is_some_and(|(sent_on, seq)| sent_on == generation && stamp < seq);
        let continues = |last: &LastDrawn| !first && !waiting && last.generation == generation;
        if let Some(last) = self.last.as_mut().filter(|last| continues(last)) {
            if self.stamps.unprompted(stamp, now) {
                self.noted.note(&last.tree, tree, revision);
            }
            last.tree = Arc::clone(tree);
        } else {
            self.stamps.prompted(stamp, now);
            self.last = Some(LastDrawn {
                generation,
                tree: Arc::clone(tree),
            });
        }
    }

    /// Input `seq` was sent on connection `generation`: what was noted before it, if
    /// anything, for its own line ahead of the input's.
    pub(super) fn sent(&mut self, generation: u64, seq: u64) -> Option<RecordedUnprompted> {
        self.newest_sent = Some((generation, seq));
        self.take()
    }

    /// The terminal was resized (the next frame shows it), or the connection ended:
    /// what was noted before, if anything.
    pub(super) fn interrupted(&mut self) -> Option<RecordedUnprompted> {
        self.last = None;
        self.take()
    }

    fn take(&mut self) -> Option<RecordedUnprompted> {
        (self.noted.frames > 0).then(|| std::mem::take(&mut self.noted))
    }
}
