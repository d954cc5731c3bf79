//! A `tracing` event as a [`LogEntry`]: its message and fields, each cut to the
//! protocol's limits while it is written (a huge `Debug` value is never formatted
//! whole).

use std::fmt::Write as _;

use serde_json::{Map, Value};
use tracing::Event;
use tracing::field::{Field, Visit};

use taria_schema::protocol::{
    LogEntry, MAX_LOG_FIELD_BYTES, MAX_LOG_FIELDS, MAX_LOG_MESSAGE_BYTES,
};

/// The field that says how many fields were left out past [`MAX_LOG_FIELDS`].
const FIELDS_LEFT_OUT: &str = "taria.fields_left_out";

/// `event` as an entry (its `input` is stamped by the sink).
pub(super) fn entry_of(event: &Event<'_>) -> LogEntry {
    let metadata = event.metadata();
    let mut visit = Visited::default();
    event.record(&mut visit);
    if visit.left_out > 0 {
        visit
            .named
            .insert(FIELDS_LEFT_OUT.into(), visit.left_out.into());
    }
    LogEntry {
        level: (*metadata.level()).into(),
        target: capped(MAX_LOG_FIELD_BYTES, |out| out.write_str(metadata.target())),
        message: visit.message,
        fields: visit.named,
        input: 0,
    }
}

/// What a visit of an event's fields collects.
#[derive(Default)]
struct Visited {
    message: String,
    /// The fields but the message.
    named: Map<String, Value>,
    left_out: u64,
}

impl Visited {
    /// Keeps `value` as field `field`, or counts it as left out past the limit.
    fn keep(&mut self, field: &Field, value: impl FnOnce() -> Value) {
        if self.named.len() >= MAX_LOG_FIELDS {
            self.left_out += 1;
            return;
        }
        let name = capped(MAX_LOG_FIELD_BYTES, |out| out.write_str(field.name()));
        self.named.insert(name, value());
    }
}

impl Visit for Visited {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            self.message = capped(MAX_LOG_MESSAGE_BYTES, |out| write!(out, "{value:?}"));
        } else {
            self.keep(field, || {
                Value::String(capped(MAX_LOG_FIELD_BYTES, |out| write!(out, "{value:?}")))
            });
        }
    }

    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "message" {
            self.message = capped(MAX_LOG_MESSAGE_BYTES, |out| out.write_str(value));
        } else {
            self.keep(field, || {
                Value::String(capped(MAX_LOG_FIELD_BYTES, |out| out.write_str(value)))
            });
        }
    }

    fn record_error(&mut self, field: &Field, value: &(dyn std::error::Error + 'static)) {
        self.keep(field, || {
            Value::String(capped(MAX_LOG_FIELD_BYTES, |out| write!(out, "{value}")))
        });
    }

    fn record_i64(&mut self, field: &Field, value: i64) {
        self.keep(field, || value.into());
    }

    fn record_u64(&mut self, field: &Field, value: u64) {
        self.keep(field, || value.into());
    }

    fn record_bool(&mut self, field: &Field, value: bool) {
        self.keep(field, || value.into());
    }

    /// A number JSON cannot hold (NaN, an infinity) as its text.
    fn record_f64(&mut self, field: &Field, value: f64) {
        self.keep(field, || {
            serde_json::Number::from_f64(value)
                .map_or_else(|| Value::String(value.to_string()), Value::Number)
        });
    }
}

/// What `write` writes, cut at a character boundary to at most `max` bytes, `…` added
/// when cut (the writing stops there).
fn capped(max: usize, write: impl FnOnce(&mut Capped) -> std::fmt::Result) -> String {
    let mut out = Capped {
        text: String::new(),
        max,
        cut: false,
    };
    let _ = write(&mut out);
    if out.cut {
        out.text.push('…');
    }
    out.text
}

/// A writer that keeps at most `max` bytes.
struct Capped {
    text: String,
    max: usize,
    cut: bool,
}

impl std::fmt::Write for Capped {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        let room = self.max - self.text.len();
        if s.len() <= room {
            self.text.push_str(s);
            return Ok(());
        }
        let mut end = room;
        while !s.is_char_boundary(end) {
            end -= 1;
        }
        self.text.push_str(&s[..end]);
        self.cut = true;
        Err(std::fmt::Error)
    }
}

#[cfg(test)]
mod tests {
    use super::capped;
    use std::fmt::Write as _;

    #[test]
    fn text_is_cut_at_a_character_boundary_with_a_mark() {
        assert_eq!(capped(5, |out| out.write_str("hello")), "hello");
        assert_eq!(capped(4, |out| out.write_str("héllo")), "hél…");
        assert_eq!(capped(2, |out| out.write_str("héllo")), "h…");
        let long = capped(3, |out| write!(out, "{:?}", vec![1, 2, 3]));
        assert_eq!(long, "[1,…");
    }
}
