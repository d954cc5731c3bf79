//! The app's log on the wire: one [`LogEntry`] per `tracing` event the app's
//! `taria::logs::layer()` captured, sent as a `log` line to a bridge that asked for
//! them in its `hello` (`logs: true`). Log text is the app's: untrusted, like labels.

use serde::{Deserialize, Serialize};

/// How severe a log entry is: `tracing`'s levels, most severe first.
///
/// Ordered by severity: `LogLevel::Error < LogLevel::Warn < … < LogLevel::Trace`, so
/// "this level or worse" is `level <= wanted`.
///
/// # Examples
///
/// ```
/// use taria_schema::protocol::LogLevel;
/// assert!(LogLevel::Error < LogLevel::Warn);
/// assert!(LogLevel::Warn.at_least(LogLevel::Info));
/// assert_eq!(LogLevel::from_name("warn"), Some(LogLevel::Warn));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogLevel {
    /// `tracing::Level::ERROR` (a panic is logged at this level).
    Error,
    /// `tracing::Level::WARN`.
    Warn,
    /// `tracing::Level::INFO`.
    Info,
    /// `tracing::Level::DEBUG`.
    Debug,
    /// `tracing::Level::TRACE`.
    Trace,
}

impl LogLevel {
    /// Every level, most severe first.
    pub const ALL: [LogLevel; 5] = [
        LogLevel::Error,
        LogLevel::Warn,
        LogLevel::Info,
        LogLevel::Debug,
        LogLevel::Trace,
    ];

    /// The level's name on the wire: `error`, `warn`, `info`, `debug`, `trace`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            LogLevel::Error => "error",
            LogLevel::Warn => "warn",
            LogLevel::Info => "info",
            LogLevel::Debug => "debug",
            LogLevel::Trace => "trace",
        }
    }

    /// The level named `name` (as [`LogLevel::name`] writes it).
    #[must_use]
    pub fn from_name(name: &str) -> Option<LogLevel> {
        LogLevel::ALL.into_iter().find(|level| level.name() == name)
    }

    /// Whether this level is `wanted` or more severe.
    #[must_use]
    pub fn at_least(self, wanted: LogLevel) -> bool {
        self <= wanted
    }
}

impl From<tracing::Level> for LogLevel {
    fn from(level: tracing::Level) -> LogLevel {
        match level {
            tracing::Level::ERROR => LogLevel::Error,
            tracing::Level::WARN => LogLevel::Warn,
            tracing::Level::INFO => LogLevel::Info,
            tracing::Level::DEBUG => LogLevel::Debug,
            tracing::Level::TRACE => LogLevel::Trace,
        }
    }
}

impl std::fmt::Display for LogLevel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One event the app logged: what `tracing` recorded, and the newest agent input the
/// app had taken when it was logged, so a consumer can tell which input caused it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    /// How severe.
    pub level: LogLevel,
    /// The event's target (by default the module that logged it, e.g. `todo::app`).
    pub target: String,
    /// The event's message (its `message` field), at most [`MAX_LOG_MESSAGE_BYTES`].
    #[serde(default)]
    pub message: String,
    /// Its other fields, by name: numbers and booleans as JSON numbers and booleans,
    /// everything else as the text `tracing` gives (`Display` for `%x`, `Debug`
    /// otherwise); at most [`MAX_LOG_FIELDS`], each at most [`MAX_LOG_FIELD_BYTES`].
    #[serde(default, skip_serializing_if = "serde_json::Map::is_empty")]
    pub fields: serde_json::Map<String, serde_json::Value>,
    /// The newest input of this connection the app had taken when it logged this (the
    /// one being handled, or the last one handled; 0: none yet).
    #[serde(default)]
    pub input: u64,
}

/// The longest message a [`LogEntry`] carries, in bytes; a longer one is cut at a
/// character boundary and ends with `…`.
pub const MAX_LOG_MESSAGE_BYTES: usize = 4096;

/// The most fields a [`LogEntry`] carries; the rest are left out (a field
/// `taria.fields_left_out` says how many).
pub const MAX_LOG_FIELDS: usize = 32;

/// The longest text of one field's value (and of a target), in bytes; cut like a
/// message.
pub const MAX_LOG_FIELD_BYTES: usize = 1024;

impl LogEntry {
    /// The entry within the limits an app's `taria::logs` layer keeps to
    /// ([`MAX_LOG_MESSAGE_BYTES`], [`MAX_LOG_FIELDS`], [`MAX_LOG_FIELD_BYTES`]): what a
    /// consumer keeps of an entry from a peer it does not trust, so one that ignores
    /// them cannot make it hold more. A field that is an array or an object is kept as
    /// its JSON text, cut like the others.
    ///
    /// # Examples
    ///
    /// ```
    /// use taria_schema::protocol::{LogEntry, LogLevel, MAX_LOG_MESSAGE_BYTES};
    /// let entry = LogEntry {
    ///     level: LogLevel::Warn,
    ///     target: "app".into(),
    ///     message: "é".repeat(10_000),
    ///     fields: serde_json::Map::new(),
    ///     input: 0,
    /// };
    /// let kept = entry.within_limits();
    /// assert!(kept.message.len() <= MAX_LOG_MESSAGE_BYTES + '…'.len_utf8());
    /// assert!(kept.message.ends_with('…'));
    /// ```
    #[must_use]
    pub fn within_limits(mut self) -> LogEntry {
        cut(&mut self.message, MAX_LOG_MESSAGE_BYTES);
        cut(&mut self.target, MAX_LOG_FIELD_BYTES);
        if self.fields.len() > MAX_LOG_FIELDS {
            let left_out = self.fields.len() - MAX_LOG_FIELDS;
            self.fields = std::mem::take(&mut self.fields)
                .into_iter()
                .take(MAX_LOG_FIELDS)
                .collect();
            self.fields
                .insert("taria.fields_left_out".into(), left_out.into());
        }
        self.fields = std::mem::take(&mut self.fields)
            .into_iter()
            .map(|(mut name, value)| {
                cut(&mut name, MAX_LOG_FIELD_BYTES);
                let value = match value {
                    serde_json::Value::String(mut text) => {
                        cut(&mut text, MAX_LOG_FIELD_BYTES);
                        serde_json::Value::String(text)
                    }
                    serde_json::Value::Array(_) | serde_json::Value::Object(_) => {
                        let mut text = value.to_string();
                        cut(&mut text, MAX_LOG_FIELD_BYTES);
                        serde_json::Value::String(text)
                    }
                    other => other,
                };
                (name, value)
            })
            .collect();
        self
    }
}

/// Cuts `text` to at most `max` bytes at a character boundary, ending it with `…`.
fn cut(text: &mut String, max: usize) {
    if text.len() <= max {
        return;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    text.push('…');
    // What was cut is given back, not only hidden.
    text.shrink_to_fit();
}
