//! The app's log as the bridge keeps it: the entries the app sent (`log` lines, which
//! the bridge asks for in its `hello`), numbered for the whole session, for
//! `read_logs`, the note in an input's result, the recording and the inspector.
//!
//! Log text is the app's: untrusted, written for the model as the outline writes app
//! text (see `tools/read_logs.rs`).

use std::time::SystemTime;

use taria_schema::protocol::{LogEntry, LogLevel};
use tokio::sync::watch;

use crate::journal::{Journal, Numbered, Page};

/// How many entries the bridge keeps; older ones go (a reader is told how many it
/// missed).
pub(crate) const LOG_CAPACITY: usize = 2000;

/// One entry as the bridge keeps it.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LogLine {
    /// What the app logged. Its `input` is a `seq` of the connection it came on.
    pub(crate) entry: LogEntry,
    /// The connection it came on (the link's generation).
    pub(crate) generation: u64,
    /// Entries the app dropped just before this one (its own ring was full).
    pub(crate) dropped_before: u64,
    /// When the bridge took it.
    pub(crate) received: SystemTime,
}

/// An input as the app's log names it: the connection it went on and its `seq` there.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct InputId {
    /// The link's generation of the connection.
    pub(crate) generation: u64,
    /// The input's `seq` on that connection.
    pub(crate) seq: u64,
}

/// The app's log. Cheap to clone.
#[derive(Clone)]
pub(crate) struct AppLogs(Journal<LogLine>);

impl Default for AppLogs {
    fn default() -> AppLogs {
        AppLogs(Journal::new(LOG_CAPACITY))
    }
}

impl AppLogs {
    /// Takes an entry that came on connection `generation`, after `dropped` the app
    /// could not keep; returns its number.
    pub(crate) fn push(&self, generation: u64, entry: LogEntry, dropped: u64) -> u64 {
        self.0.push(LogLine {
            entry,
            generation,
            dropped_before: dropped,
            received: SystemTime::now(),
        })
    }

    /// The entries after cursor `since` at `level` or worse, oldest first, at most
    /// `limit`.
    pub(crate) fn read(&self, since: u64, level: LogLevel, limit: usize) -> Page<LogLine> {
        self.0
            .read(since, limit, |line| line.entry.level.at_least(level))
    }

    /// The warnings and errors logged while one of `inputs` was the newest the app
    /// had taken, numbered after `since`, oldest first.
    pub(crate) fn caused_by(&self, inputs: &[InputId], since: u64) -> Vec<Numbered<LogLine>> {
        if inputs.is_empty() {
            return Vec::new();
        }
        self.0
            .read(since, usize::MAX, |line| {
                line.entry.level.at_least(LogLevel::Warn)
                    && inputs.contains(&InputId {
                        generation: line.generation,
                        seq: line.entry.input,
                    })
            })
            .entries
    }

    /// The newest entry's number (0: none yet): a cursor for "from now on".
    pub(crate) fn newest(&self) -> u64 {
        self.0.newest()
    }

    /// A receiver of the newest entry's number, changed by every entry taken.
    pub(crate) fn subscribe(&self) -> watch::Receiver<u64> {
        self.0.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use taria_schema::protocol::{LogEntry, LogLevel};

    use super::{AppLogs, InputId};

    fn entry(level: LogLevel, input: u64, message: &str) -> LogEntry {
        LogEntry {
            level,
            target: "app".into(),
            message: message.into(),
            fields: serde_json::Map::new(),
            input,
        }
    }

    /// An input's warnings and errors are those stamped with it on its own
    /// connection: not another connection's input of the same `seq`, not infos.
    #[test]
    fn an_inputs_warnings_are_those_stamped_with_it_on_its_connection() {
        let logs = AppLogs::default();
        let newest = logs.subscribe();
        logs.push(1, entry(LogLevel::Warn, 3, "before"), 0);
        assert!(newest.has_changed().unwrap(), "a subscriber hears of it");
        let since = logs.newest();
        logs.push(1, entry(LogLevel::Info, 4, "info"), 0);
        logs.push(1, entry(LogLevel::Error, 4, "mine"), 2);
        logs.push(2, entry(LogLevel::Warn, 4, "another connection"), 0);
        logs.push(1, entry(LogLevel::Warn, 5, "later input"), 0);
        let mine = logs.caused_by(
            &[InputId {
                generation: 1,
                seq: 4,
            }],
            since,
        );
        let messages: Vec<&str> = mine
            .iter()
            .map(|l| l.entry.entry.message.as_str())
            .collect();
        assert_eq!(messages, ["mine"]);
        assert_eq!(mine[0].entry.dropped_before, 2);
        let warnings = logs.read(0, LogLevel::Warn, 10);
        assert_eq!(warnings.entries.len(), 4);
        assert_eq!(logs.read(0, LogLevel::Trace, 10).entries.len(), 5);
    }
}
