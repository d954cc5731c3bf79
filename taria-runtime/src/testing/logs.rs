//! What an [`AppHarness`](super::AppHarness) keeps of the app's log: the entries a
//! bridge would have been sent, captured through the test's own `taria::logs` layer,
//! or, when the test set up no `tracing` subscriber, through one of the harness's own
//! that the app's code runs under.

use std::sync::Arc;

use tracing::Dispatch;

use crate::logs::{Capture, LogHub, LogLayer, Waiting};
use crate::session::InProcess;
use taria_schema::protocol::{LogEntry, LogLevel};

/// The app's log as a harness captures it.
pub(super) struct CapturedLogs {
    /// The harness's own subscriber, when the test set none: the app's code runs
    /// under it.
    dispatch: Option<Dispatch>,
    /// Where the entries come from; `None` when the test's subscriber has no
    /// `taria::logs` layer (the log cannot be captured).
    hub: Option<Arc<LogHub>>,
    entries: Vec<LogEntry>,
    waiting: Vec<Waiting>,
}

impl CapturedLogs {
    /// Captures through the thread's subscriber's `taria::logs` layer, else, with no
    /// subscriber at all, through one of its own.
    pub(super) fn new() -> CapturedLogs {
        let (dispatch, hub) = match LogLayer::current_hub() {
            Some(hub) => (None, Some(hub)),
            None if tracing::dispatcher::get_default(
                Dispatch::is::<tracing::subscriber::NoSubscriber>,
            ) =>
            {
                let layer = crate::logs::layer();
                let hub = Arc::clone(layer.hub());
                (Some(Dispatch::new(Capture(layer))), Some(hub))
            }
            None => (None, None),
        };
        CapturedLogs {
            dispatch,
            hub,
            entries: Vec::new(),
            waiting: Vec::new(),
        }
    }

    /// The hub a session of the harness captures from.
    pub(super) fn hub(&self) -> Option<&Arc<LogHub>> {
        self.hub.as_ref()
    }

    /// Runs the app's code `f` where its events are captured.
    pub(super) fn run<R>(&self, f: impl FnOnce() -> R) -> R {
        match &self.dispatch {
            Some(dispatch) => tracing::dispatcher::with_default(dispatch, f),
            None => f(),
        }
    }

    /// Takes what the app logged since the last call from `agent`.
    pub(super) fn collect(&mut self, agent: &InProcess) {
        if agent.take_logs(&mut self.waiting) {
            self.entries
                .extend(self.waiting.drain(..).map(|waiting| waiting.entry));
        }
    }

    /// Every entry so far, oldest first.
    pub(super) fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// Whether the app's log is captured.
    pub(super) fn captured(&self) -> bool {
        self.hub.is_some()
    }
}

/// The errors among `entries`.
pub(super) fn errors(entries: &[LogEntry]) -> impl Iterator<Item = &LogEntry> {
    entries
        .iter()
        .filter(|entry| entry.level == LogLevel::Error)
}

/// An entry on one line, for a failure message: `error todo::app: "text" {fields}`.
pub(super) fn describe_entry(entry: &LogEntry) -> String {
    let mut line = format!(
        "{} {}: {}",
        entry.level,
        entry.target,
        taria_schema::outline::OutlineQuoted(&entry.message)
    );
    if !entry.fields.is_empty()
        && let Ok(fields) = serde_json::to_string(&entry.fields)
    {
        line.push(' ');
        line.push_str(&fields);
    }
    line
}
