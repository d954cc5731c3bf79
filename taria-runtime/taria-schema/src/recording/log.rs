//! A `log` line: an entry the app logged during the recorded session, so a test made
//! from it can check that a replay logs no error the session did not.

use serde::{Deserialize, Serialize};

use crate::protocol::{LogEntry, LogLevel};

/// A `log` line's fields: an entry the app logged (see
/// [`LogEntry`](crate::protocol::LogEntry)), after the line of the input it was
/// logged while handling.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedLog {
    /// The input step the app had in hand when it logged this (the one being handled,
    /// or the last one handled); absent before the first input, or when that input's
    /// line was not written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub step: Option<u64>,
    /// How severe.
    pub level: LogLevel,
    /// The event's target.
    pub target: String,
    /// Its message.
    #[serde(default)]
    pub message: String,
    /// Its other fields.
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub fields: serde_json::Map<String, serde_json::Value>,
}

impl RecordedLog {
    /// The line for `entry`, logged while `step` was in hand.
    #[must_use]
    pub fn of(entry: LogEntry, step: Option<u64>) -> RecordedLog {
        let LogEntry {
            level,
            target,
            message,
            fields,
            input: _,
        } = entry;
        RecordedLog {
            step,
            level,
            target,
            message,
            fields,
        }
    }
}
