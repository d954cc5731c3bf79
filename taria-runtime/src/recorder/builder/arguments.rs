//! What [`NodeBuilder`](super::NodeBuilder)'s setters take besides text: flags
//! ([`IntoFlag`]), values ([`IntoValue`] through a [`ValueSink`]) and the invalid
//! state ([`IntoInvalid`] through an [`InvalidSink`]).

use std::fmt::Display;

use crate::recorder::arena::{Span, ValueRecord, append_display, append_text};
use crate::recorder::text::{Displayed, IntoText};
use taria_schema::{MAX_LABEL_BYTES, MAX_VALUE_BYTES};

/// A boolean state argument: `bool` or `&bool`.
pub trait IntoFlag {
    /// The flag's value.
    fn into_flag(self) -> bool;
}

impl IntoFlag for bool {
    fn into_flag(self) -> bool {
        self
    }
}

impl IntoFlag for &bool {
    fn into_flag(self) -> bool {
        *self
    }
}

/// Where an [`IntoValue`] writes itself.
pub struct ValueSink<'a> {
    text: &'a mut String,
}

#[doc(hidden)]
pub struct ValueToken(ValueRecord);

/// Writes `value` into `text`; what the node records.
pub(super) fn write_value(value: impl IntoValue, text: &mut String) -> ValueRecord {
    value.write_value(&mut ValueSink { text }).0
}

impl ValueSink<'_> {
    /// Records a text value (kept up to [`MAX_VALUE_BYTES`](crate::builder::MAX_VALUE_BYTES)).
    pub fn text(&mut self, text: &dyn Display) -> ValueToken {
        ValueToken(ValueRecord::Text(append_display(
            self.text,
            text,
            MAX_VALUE_BYTES,
        )))
    }

    /// Records a text value through its fast path (see [`IntoText`]).
    fn fast_text(&mut self, text: impl IntoText) -> ValueToken {
        ValueToken(ValueRecord::Text(append_text(
            self.text,
            text,
            MAX_VALUE_BYTES,
        )))
    }

    /// Records a numeric value.
    #[must_use]
    pub fn number(&mut self, n: f64) -> ValueToken {
        ValueToken(ValueRecord::Number(n))
    }

    /// Records a boolean value.
    #[must_use]
    pub fn bool(&mut self, b: bool) -> ValueToken {
        ValueToken(ValueRecord::Bool(b))
    }

    /// Records no value.
    #[must_use]
    pub fn none(&mut self) -> ValueToken {
        ValueToken(ValueRecord::None)
    }
}

/// A node value: text types record as text, numbers as numbers, `bool` as a bool,
/// `Option::None` as no value, and any `Display` type wrapped in
/// [`Displayed`](crate::Displayed) as its text.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value taria knows",
    label = "not text, a number, a bool or `format_args!`",
    note = "wrap a `Display` type in `taria::Displayed(…)`, or write `format_args!(\"{{}}\", …)`"
)]
pub trait IntoValue {
    /// Writes the value into the sink.
    fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken;
}

macro_rules! text_values {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
                sink.fast_text(self)
            }
        }
    )*};
}
text_values!(
    &str,
    &&str,
    String,
    &String,
    std::borrow::Cow<'_, str>,
    &std::borrow::Cow<'_, str>,
    std::fmt::Arguments<'_>,
    char,
    &char
);

/// Any `Display` type, as its text: `n.value(Displayed(date))`.
impl<T: Display> IntoValue for Displayed<T> {
    fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
        sink.fast_text(self)
    }
}

macro_rules! number_values {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
                sink.number(f64::from(self))
            }
        }
        impl IntoValue for &$t {
            fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
                sink.number(f64::from(*self))
            }
        }
    )*};
}
number_values!(u8, u16, u32, i8, i16, i32, f32, f64);

macro_rules! wide_number_values {
    ($($t:ty),*) => {$(
        impl IntoValue for $t {
            #[expect(clippy::cast_precision_loss, reason = "values are shown, not computed with")]
            fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
                sink.number(self as f64)
            }
        }
        impl IntoValue for &$t {
            fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
                (*self).write_value(sink)
            }
        }
    )*};
}
wide_number_values!(u64, usize, i64, isize);

impl IntoValue for bool {
    fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
        sink.bool(self)
    }
}

impl IntoValue for &bool {
    fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
        sink.bool(*self)
    }
}

impl<T: IntoValue> IntoValue for Option<T> {
    fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
        match self {
            Some(value) => value.write_value(sink),
            None => sink.none(),
        }
    }
}

impl<'a, T> IntoValue for &'a Option<T>
where
    &'a T: IntoValue,
{
    fn write_value(self, sink: &mut ValueSink<'_>) -> ValueToken {
        self.as_ref().write_value(sink)
    }
}

/// Where an [`IntoInvalid`] writes itself.
pub struct InvalidSink<'a> {
    text: &'a mut String,
}

#[doc(hidden)]
pub struct InvalidToken(Invalidity);

/// Writes `invalid` into `text`; whether the node is invalid, and why.
pub(super) fn write_invalid(invalid: impl IntoInvalid, text: &mut String) -> Invalidity {
    invalid.write_invalid(&mut InvalidSink { text }).0
}

/// Whether a node is invalid, and why.
pub(super) enum Invalidity {
    Valid,
    Invalid,
    Because(Span),
}

impl InvalidSink<'_> {
    /// The node is valid.
    #[must_use]
    pub fn valid(&mut self) -> InvalidToken {
        InvalidToken(Invalidity::Valid)
    }

    /// The node is invalid, with no message.
    #[must_use]
    pub fn invalid(&mut self) -> InvalidToken {
        InvalidToken(Invalidity::Invalid)
    }

    /// The node is invalid because of `message`.
    pub fn message(&mut self, message: &dyn Display) -> InvalidToken {
        InvalidToken(Invalidity::Because(append_display(
            self.text,
            message,
            MAX_LABEL_BYTES,
        )))
    }
}

/// An invalid-state argument: `bool`, or an optional message (`Option<&str>`,
/// `Option<String>`, `&Option<String>`) where `Some` means invalid.
pub trait IntoInvalid {
    /// Writes the state into the sink.
    fn write_invalid(self, sink: &mut InvalidSink<'_>) -> InvalidToken;
}

impl IntoInvalid for bool {
    fn write_invalid(self, sink: &mut InvalidSink<'_>) -> InvalidToken {
        if self { sink.invalid() } else { sink.valid() }
    }
}

impl IntoInvalid for &bool {
    fn write_invalid(self, sink: &mut InvalidSink<'_>) -> InvalidToken {
        (*self).write_invalid(sink)
    }
}

impl<T: Display> IntoInvalid for Option<T> {
    fn write_invalid(self, sink: &mut InvalidSink<'_>) -> InvalidToken {
        match self {
            Some(message) => sink.message(&message),
            None => sink.valid(),
        }
    }
}

impl<T: Display> IntoInvalid for &Option<T> {
    fn write_invalid(self, sink: &mut InvalidSink<'_>) -> InvalidToken {
        self.as_ref().write_invalid(sink)
    }
}
