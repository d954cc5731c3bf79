//! A node's value and the domain a settable value must stay in.

use serde::{Deserialize, Serialize};

/// The value a node shows: text, a number or a boolean.
///
/// On the wire it is the plain JSON string, number or boolean.
///
/// # Examples
///
/// ```
/// use taria::Value;
///
/// assert_eq!(Value::from(3_u8), Value::Number(3.0));
/// assert_eq!(Value::from("Ada").to_string(), "Ada");
/// assert_eq!(serde_json::to_string(&Value::Bool(true))?, "true");
/// assert_eq!(serde_json::from_str::<Value>("42.5")?, Value::Number(42.5));
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Value {
    /// A boolean.
    Bool(bool),
    /// A number.
    Number(f64),
    /// Text.
    Text(String),
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Bool(b) => write!(f, "{b}"),
            Value::Number(n) => write!(f, "{n}"),
            Value::Text(t) => f.write_str(t),
        }
    }
}

impl From<bool> for Value {
    fn from(value: bool) -> Value {
        Value::Bool(value)
    }
}

impl From<&str> for Value {
    fn from(value: &str) -> Value {
        Value::Text(value.to_owned())
    }
}

impl From<String> for Value {
    fn from(value: String) -> Value {
        Value::Text(value)
    }
}

impl From<f64> for Value {
    fn from(value: f64) -> Value {
        Value::Number(value)
    }
}

macro_rules! value_from_integer {
    ($($int:ty),*) => {$(
        impl From<$int> for Value {
            fn from(value: $int) -> Value {
                Value::Number(f64::from(value))
            }
        }
    )*};
}

value_from_integer!(f32, i8, i16, i32, u8, u16, u32);

/// The domain of a settable value, published so a consumer can validate before sending.
///
/// # Examples
///
/// ```
/// use taria::Value;
/// use taria::node::ValueSchema;
///
/// let volume = ValueSchema::Number { min: Some(0.0), max: Some(10.0), step: Some(1.0) };
/// assert!(volume.check(&Value::Number(3.0)).is_ok());
/// assert!(volume.check(&Value::Number(11.0)).is_err());
/// ```
///
/// A node that offers `set_value` publishes the domain its builder gave it:
///
/// ```
/// use taria::node::ValueSchema;
/// use taria::{Action, Role, testing::Harness};
///
/// let tree = Harness::new(20, 1).render(|_| {
///     taria::leaf(|n| {
///         n.role(Role::Select).id("size").value("M").options(["S", "M", "L"]);
///         n.action(Action::SetValue);
///     });
/// });
/// let schema = tree.get("size").unwrap().value_schema.clone().unwrap();
/// assert_eq!(schema, ValueSchema::Options { options: vec!["S".into(), "M".into(), "L".into()] });
/// assert!(schema.check(&"XL".into()).is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "camelCase")]
#[non_exhaustive]
pub enum ValueSchema {
    /// Free text, optionally length-limited.
    #[serde(rename_all = "camelCase")]
    Text {
        /// The most characters allowed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max_len: Option<u32>,
    },
    /// A number, optionally bounded and stepped.
    Number {
        /// Lowest allowed value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min: Option<f64>,
        /// Highest allowed value.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        max: Option<f64>,
        /// Allowed values are `min + k * step` (or `k * step` without `min`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        step: Option<f64>,
    },
    /// One of a fixed list of options (sent as the option's text).
    Options {
        /// The options, in display order.
        options: Vec<String>,
    },
    /// A boolean.
    Bool,
}

/// Why a value does not fit a [`ValueSchema`].
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum DomainError {
    /// The value has the wrong type.
    #[error("expected {expected}, got {got}")]
    WrongType {
        /// The type the schema takes.
        expected: &'static str,
        /// The value that was given.
        got: String,
    },
    /// A number below `min` or above `max`.
    #[error("{value} is outside {min}..={max}")]
    OutOfRange {
        /// The value given.
        value: f64,
        /// The lowest allowed.
        min: f64,
        /// The highest allowed.
        max: f64,
    },
    /// A number between steps.
    #[error("{value} is not a multiple of the step {step}")]
    OffStep {
        /// The value given.
        value: f64,
        /// The step.
        step: f64,
    },
    /// Text longer than allowed.
    #[error("text is {len} characters, at most {max_len} allowed")]
    TooLong {
        /// The text's length in characters.
        len: usize,
        /// The most allowed.
        max_len: u32,
    },
    /// Not one of the options.
    #[error("{value:?} is not one of the options {options:?}")]
    NotAnOption {
        /// The value given.
        value: String,
        /// The allowed options.
        options: Vec<String>,
    },
}

impl ValueSchema {
    /// Checks `value` against this domain.
    pub fn check(&self, value: &Value) -> Result<(), DomainError> {
        match (self, value) {
            (ValueSchema::Text { max_len }, Value::Text(text)) => {
                let len = text.chars().count();
                match max_len {
                    Some(max_len) if len > *max_len as usize => Err(DomainError::TooLong {
                        len,
                        max_len: *max_len,
                    }),
                    _ => Ok(()),
                }
            }
            (ValueSchema::Number { min, max, step }, Value::Number(n)) => {
                check_number(*n, *min, *max, *step)
            }
            (ValueSchema::Options { options }, Value::Text(text)) => {
                if options.iter().any(|o| o == text) {
                    Ok(())
                } else {
                    Err(DomainError::NotAnOption {
                        value: text.clone(),
                        options: options.clone(),
                    })
                }
            }
            (ValueSchema::Bool, Value::Bool(_)) => Ok(()),
            (schema, value) => Err(DomainError::WrongType {
                expected: schema.type_name(),
                got: value.to_string(),
            }),
        }
    }

    /// The JSON type name of the values this schema takes.
    #[must_use]
    pub const fn type_name(&self) -> &'static str {
        match self {
            ValueSchema::Text { .. } => "text",
            ValueSchema::Number { .. } => "number",
            ValueSchema::Options { .. } => "one of the options",
            ValueSchema::Bool => "bool",
        }
    }
}

fn check_number(
    n: f64,
    min: Option<f64>,
    max: Option<f64>,
    step: Option<f64>,
) -> Result<(), DomainError> {
    let (lo, hi) = (
        min.unwrap_or(f64::NEG_INFINITY),
        max.unwrap_or(f64::INFINITY),
    );
    if !n.is_finite() || n < lo || n > hi {
        return Err(DomainError::OutOfRange {
            value: n,
            min: lo,
            max: hi,
        });
    }
    if let Some(step) = step.filter(|s| *s > 0.0) {
        let steps = (n - min.unwrap_or(0.0)) / step;
        if (steps - steps.round()).abs() > 1e-9 {
            return Err(DomainError::OffStep { value: n, step });
        }
    }
    Ok(())
}
