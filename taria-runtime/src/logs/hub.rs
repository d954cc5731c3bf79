//! Where captured entries wait for their consumer: a [`LogHub`] per layer, and a
//! [`LogSink`] per session (one connection's consumer at a time), each a bounded ring.
//!
//! Locks are taken in one order: the hub's list of sinks, then a sink's state, then
//! (through a sink's wake-up) the consumer's own. A consumer never holds its own lock
//! while it takes from a sink.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, Weak};

use crate::lock::lock;
use taria_schema::protocol::LogEntry;

/// The most entries a sink keeps for its consumer; older ones are dropped (counted).
pub(crate) const SINK_ENTRIES: usize = 1024;

/// The most text a sink keeps for its consumer, in bytes (messages, targets and
/// fields, roughly); older entries are dropped (counted) past it.
pub(crate) const SINK_BYTES: usize = 1024 * 1024;

/// What a consumer calls when entries are waiting for it.
pub(crate) type Wake = Arc<dyn Fn() + Send + Sync>;

/// The sinks of one layer, and the one flag the layer checks.
#[derive(Debug, Default)]
pub(crate) struct LogHub {
    /// How many sinks are open: nonzero while some consumer takes entries.
    open: AtomicUsize,
    sinks: Mutex<Vec<Weak<LogSink>>>,
}

impl LogHub {
    pub(crate) fn new() -> Arc<LogHub> {
        Arc::new(LogHub::default())
    }

    /// Whether any consumer takes entries now: the layer's one check.
    pub(crate) fn wanted(&self) -> bool {
        self.open.load(Ordering::Relaxed) != 0
    }

    /// A new sink for one session's consumer (closed until one opens it).
    pub(crate) fn sink(self: &Arc<Self>) -> Arc<LogSink> {
        let sink = Arc::new(LogSink {
            hub: Arc::clone(self),
            input: AtomicU64::new(0),
            state: Mutex::new(SinkState::default()),
        });
        let mut sinks = lock(&self.sinks);
        sinks.retain(|sink| sink.strong_count() > 0);
        sinks.push(Arc::downgrade(&sink));
        sink
    }

    /// Hands `entry` to every open sink.
    pub(super) fn deliver(&self, entry: &LogEntry) {
        let sinks = lock(&self.sinks);
        for sink in sinks.iter().filter_map(Weak::upgrade) {
            sink.push(entry);
        }
    }
}

/// An entry waiting for its consumer.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Waiting {
    /// The entry, stamped with the sink's newest input.
    pub(crate) entry: LogEntry,
    /// How many entries the sink dropped just before this one.
    pub(crate) dropped: u64,
}

/// One session's entries, waiting for the consumer that opened it.
#[derive(Debug)]
pub(crate) struct LogSink {
    hub: Arc<LogHub>,
    /// The newest input the session has taken (0: none): every entry is stamped with
    /// it.
    input: AtomicU64,
    state: Mutex<SinkState>,
}

#[derive(Default)]
struct SinkState {
    /// The consumer taking entries, while one is.
    open: Option<Open>,
    ring: VecDeque<Waiting>,
    /// The text the ring holds, roughly (see [`size`]).
    bytes: usize,
    /// Entries dropped since the last one kept, for an entry that comes after them.
    dropped: u64,
}

impl std::fmt::Debug for SinkState {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SinkState")
            .field("open", &self.open.as_ref().map(|open| open.connection))
            .field("waiting", &self.ring.len())
            .finish_non_exhaustive()
    }
}

struct Open {
    /// The consumer's connection: only it takes entries, only it closes the sink.
    connection: u64,
    wake: Option<Wake>,
}

impl LogSink {
    /// Connection `connection`'s consumer takes entries from now on (another one's
    /// waiting entries are dropped); `wake` is called when some wait.
    pub(crate) fn open(&self, connection: u64, wake: Option<Wake>) {
        let mut state = lock(&self.state);
        if state.open.is_none() {
            self.hub.open.fetch_add(1, Ordering::Relaxed);
        }
        state.open = Some(Open { connection, wake });
        state.clear();
    }

    /// Connection `connection`'s consumer is gone: nothing is kept for it (unless
    /// another connection opened the sink since).
    pub(crate) fn close(&self, connection: u64) {
        let mut state = lock(&self.state);
        if state
            .open
            .as_ref()
            .is_some_and(|o| o.connection == connection)
        {
            state.open = None;
            state.clear();
            self.hub.open.fetch_sub(1, Ordering::Relaxed);
        }
    }

    /// The session took input `seq` (0: none, for a new connection): entries from
    /// now on are stamped with it.
    pub(crate) fn set_input(&self, seq: u64) {
        self.input.store(seq, Ordering::Relaxed);
    }

    /// Moves the entries waiting for connection `connection` into `into`, oldest
    /// first (none for another connection).
    pub(crate) fn take(&self, connection: u64, into: &mut Vec<Waiting>) {
        let mut state = lock(&self.state);
        if state
            .open
            .as_ref()
            .is_some_and(|o| o.connection == connection)
        {
            into.extend(state.ring.drain(..));
            state.bytes = 0;
        }
    }

    /// Keeps `entry` for the consumer, stamped with the newest input, and wakes it.
    fn push(&self, entry: &LogEntry) {
        let wake = {
            let mut state = lock(&self.state);
            let Some(open) = &state.open else {
                return;
            };
            let wake = open.wake.clone();
            let mut entry = entry.clone();
            entry.input = self.input.load(Ordering::Relaxed);
            let dropped = std::mem::take(&mut state.dropped);
            state.bytes += size(&entry);
            state.ring.push_back(Waiting { entry, dropped });
            state.keep_bounded();
            wake
        };
        if let Some(wake) = wake {
            wake();
        }
    }
}

impl SinkState {
    fn clear(&mut self) {
        self.ring.clear();
        self.bytes = 0;
        self.dropped = 0;
    }

    /// Drops the oldest entries past [`SINK_ENTRIES`] or [`SINK_BYTES`] (the newest
    /// is always kept); the next one kept counts them.
    fn keep_bounded(&mut self) {
        while self.ring.len() > 1 && (self.ring.len() > SINK_ENTRIES || self.bytes > SINK_BYTES) {
            let Some(gone) = self.ring.pop_front() else {
                break;
            };
            self.bytes = self.bytes.saturating_sub(size(&gone.entry));
            if let Some(next) = self.ring.front_mut() {
                next.dropped += gone.dropped + 1;
            }
        }
    }
}

impl Drop for LogSink {
    fn drop(&mut self) {
        let state = lock(&self.state);
        if state.open.is_some() {
            self.hub.open.fetch_sub(1, Ordering::Relaxed);
        }
    }
}

/// About how many bytes an entry's text takes.
fn size(entry: &LogEntry) -> usize {
    let fields: usize = entry
        .fields
        .iter()
        .map(|(name, value)| name.len() + value.as_str().map_or(8, str::len))
        .sum();
    entry.target.len() + entry.message.len() + fields
}

#[cfg(test)]
mod tests {
    use super::{LogHub, SINK_ENTRIES, Waiting};
    use taria_schema::protocol::{LogEntry, LogLevel};

    fn entry(message: &str) -> LogEntry {
        LogEntry {
            level: LogLevel::Warn,
            target: "app".into(),
            message: message.into(),
            fields: serde_json::Map::new(),
            input: 0,
        }
    }

    /// Entries are kept only for an open sink, stamped with the newest input, and
    /// taken by the connection that opened it; the hub is wanted only while one is
    /// open.
    #[test]
    fn a_sink_keeps_entries_only_while_open_for_its_connection() {
        let hub = LogHub::new();
        let sink = hub.sink();
        assert!(!hub.wanted());
        hub.deliver(&entry("nobody listens"));
        sink.open(7, None);
        assert!(hub.wanted());
        sink.set_input(3);
        hub.deliver(&entry("kept"));
        let mut taken = Vec::new();
        sink.take(8, &mut taken);
        assert!(taken.is_empty(), "another connection takes nothing");
        sink.take(7, &mut taken);
        assert_eq!(taken.len(), 1);
        assert_eq!(
            (taken[0].entry.message.as_str(), taken[0].entry.input),
            ("kept", 3)
        );
        sink.close(8);
        assert!(hub.wanted(), "only its own connection closes it");
        sink.close(7);
        assert!(!hub.wanted());
        drop(sink);
        let reopened = hub.sink();
        reopened.open(1, None);
        assert!(hub.wanted());
        drop(reopened);
        assert!(!hub.wanted(), "a sink dropped open is closed");
    }

    /// A full sink drops its oldest entries, and the oldest it keeps says how many
    /// went before it.
    #[test]
    fn a_full_sink_drops_the_oldest_and_counts_them() {
        let hub = LogHub::new();
        let sink = hub.sink();
        sink.open(1, None);
        for n in 0..SINK_ENTRIES + 5 {
            hub.deliver(&entry(&n.to_string()));
        }
        let mut taken: Vec<Waiting> = Vec::new();
        sink.take(1, &mut taken);
        assert_eq!(taken.len(), SINK_ENTRIES);
        assert_eq!(
            (taken[0].entry.message.as_str(), taken[0].dropped),
            ("5", 5)
        );
        assert_eq!(taken[1].dropped, 0);
        let big = "x".repeat(600 * 1024);
        hub.deliver(&entry(&big));
        hub.deliver(&entry(&big));
        taken.clear();
        sink.take(1, &mut taken);
        assert_eq!(taken.len(), 1, "over the byte bound the older one goes");
        assert_eq!(taken[0].dropped, 1);
    }
}
