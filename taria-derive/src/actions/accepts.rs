//! What a handler parameter's conversion lets through (`__private::key_arg`,
//! `value_arg`, `index_arg`, `amount_arg`, `direction_arg`), read from its type's name,
//! so that a handler is called shadowed only when an earlier one matches every id it
//! does and takes every argument it would. The ui pass case
//! `accepts-matches-the-runtime.rs` holds [`accepts`], [`covers`] and [`admits_key`]
//! to the runtime's conversions.

/// The arguments a parameter's conversion lets through.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Accepts {
    /// Anything, and also no argument at all: a handler without such a parameter, a
    /// `key: String` or `key: &str`.
    Everything,
    /// Any argument, but one must be there: `value: taria::Value`, `direction`.
    Present,
    /// A text value (`String`).
    Text,
    /// `true` or `false` (`bool`).
    Bool,
    /// A finite number value in `lo..=hi`, a whole one if `whole`.
    Number { lo: f64, hi: f64, whole: bool },
    /// A whole number in `lo..=hi`: a key parsed as an integer type, an index or an
    /// amount (a `u32`) converted to one.
    Whole { lo: i128, hi: i128 },
    /// A type this model does not know: it takes what its own type takes.
    Named(String),
}

/// What a handler parameter is, for [`accepts`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Slot {
    Key,
    Value,
    Index,
    Amount,
    Direction,
}

/// What a parameter of type `ty` (written as `type_name` prints it: `u8`,
/// `Option<u8>`, `&str`, `taria::Value`) in `slot` lets through; `None` (no such
/// parameter) takes everything, or, for an amount (which defaults to 1), every `u32`.
pub(crate) fn accepts(slot: Slot, ty: Option<&str>) -> Accepts {
    let Some(ty) = ty else {
        return match slot {
            Slot::Amount => Accepts::Whole {
                lo: 0,
                hi: u32::MAX.into(),
            },
            _ => Accepts::Everything,
        };
    };
    let named = || Accepts::Named(ty.to_owned());
    match slot {
        Slot::Key => match ty {
            "String" | "&str" | "std::string::String" => Accepts::Everything,
            _ if ty.starts_with("&'") && ty.ends_with(" str") => Accepts::Everything,
            _ => whole(ty).map_or_else(named, |(lo, hi)| Accepts::Whole { lo, hi }),
        },
        Slot::Value => value(ty).unwrap_or_else(named),
        // An index or amount is a `u32`: a type that holds every `u32` takes it all.
        Slot::Index | Slot::Amount => whole(ty).map_or_else(named, |(lo, hi)| Accepts::Whole {
            lo: lo.max(0),
            hi: hi.min(u32::MAX.into()),
        }),
        Slot::Direction => Accepts::Present,
    }
}

/// The range of an integer type; `usize` and `isize` differ by target, so are left out.
fn whole(ty: &str) -> Option<(i128, i128)> {
    Some(match ty {
        "u8" => (0, u8::MAX.into()),
        "u16" => (0, u16::MAX.into()),
        "u32" => (0, u32::MAX.into()),
        "u64" => (0, u64::MAX.into()),
        "i8" => (i8::MIN.into(), i8::MAX.into()),
        "i16" => (i16::MIN.into(), i16::MAX.into()),
        "i32" => (i32::MIN.into(), i32::MAX.into()),
        "i64" => (i64::MIN.into(), i64::MAX.into()),
        _ => return None,
    })
}

/// What `FromValue` for `ty` takes (`Option<T>` takes what `T` does); `usize` and
/// `isize` differ by target, so are left out.
#[expect(
    clippy::cast_precision_loss,
    reason = "the bounds are the runtime's: `MIN as f64` and `MAX as f64`"
)]
fn value(ty: &str) -> Option<Accepts> {
    if let Some(inner) = ty
        .strip_prefix("Option<")
        .and_then(|rest| rest.strip_suffix('>'))
    {
        return value(inner);
    }
    Some(match ty {
        "Value" | "taria::Value" | "::taria::Value" => Accepts::Present,
        "String" | "std::string::String" => Accepts::Text,
        "bool" => Accepts::Bool,
        "f64" | "f32" => Accepts::Number {
            lo: f64::NEG_INFINITY,
            hi: f64::INFINITY,
            whole: false,
        },
        _ => {
            let (lo, hi) = whole(ty)?;
            Accepts::Number {
                lo: lo as f64,
                hi: hi as f64,
                whole: true,
            }
        }
    })
}

/// Whether everything `later` lets through, `earlier` does too.
pub(crate) fn covers(earlier: &Accepts, later: &Accepts) -> bool {
    use Accepts::{Bool, Everything, Named, Number, Present, Text, Whole};
    match (earlier, later) {
        (Everything, _) | (Text, Text) | (Bool, Bool) => true,
        (_, Everything) => false,
        (Present, _) => true,
        (
            Number { lo, hi, whole },
            Number {
                lo: lo2,
                hi: hi2,
                whole: whole2,
            },
        ) => lo <= lo2 && hi >= hi2 && (!whole || *whole2),
        (Whole { lo, hi }, Whole { lo: lo2, hi: hi2 }) => lo <= lo2 && hi >= hi2,
        (Named(a), Named(b)) => a == b,
        _ => false,
    }
}

/// Whether a `key` parameter that takes `accepts` converts `key` as the runtime does
/// (`None` for a type the model does not know).
pub(crate) fn admits_key(accepts: &Accepts, key: &str) -> Option<bool> {
    match accepts {
        Accepts::Everything => Some(true),
        Accepts::Whole { lo, hi } => {
            Some(parse_whole(key, *lo < 0).is_some_and(|n| *lo <= n && n <= *hi))
        }
        _ => None,
    }
}

/// An integer key as `FromStr` reads one: an optional `+` (or `-`, for a signed type),
/// then one or more ASCII digits.
fn parse_whole(key: &str, signed: bool) -> Option<i128> {
    let (negative, digits) = match key.as_bytes().first() {
        Some(b'+') => (false, &key[1..]),
        Some(b'-') if signed => (true, &key[1..]),
        _ => (false, key),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let digits = digits.trim_start_matches('0');
    // Longer than any `i64`/`u64`: out of every range this model knows.
    if digits.len() > 20 {
        return Some(if negative { i128::MIN } else { i128::MAX });
    }
    let n: i128 = if digits.is_empty() {
        0
    } else {
        digits.parse().ok()?
    };
    Some(if negative { -n } else { n })
}

#[cfg(test)]
mod tests {
    use super::{Accepts, Slot, accepts, covers};

    fn value(ty: &str) -> Accepts {
        accepts(Slot::Value, Some(ty))
    }

    #[test]
    fn wider_types_cover_narrower_ones() {
        assert!(covers(&value("u16"), &value("u8")));
        assert!(covers(&value("f64"), &value("u8")));
        assert!(covers(&value("Value"), &value("String")));
        assert!(covers(&value("Option<u8>"), &value("u8")));
        assert!(!covers(&value("u8"), &value("u16")));
        assert!(!covers(&value("String"), &value("u8")));
        assert!(!covers(&value("u8"), &value("f64")));
        assert!(!covers(&value("u8"), &value("i8")));
        // A `value` parameter needs a value; a handler without one does not.
        assert!(!covers(&value("Value"), &accepts(Slot::Value, None)));
        assert!(covers(&accepts(Slot::Value, None), &value("u8")));
        let key = |ty| accepts(Slot::Key, Some(ty));
        assert!(covers(&key("String"), &key("u32")));
        assert!(covers(&key("&str"), &key("Id")));
        assert!(!covers(&key("u32"), &key("String")));
        assert!(covers(&key("Id"), &key("Id")));
        assert!(!covers(&key("Id"), &key("u8")));
        let index = |ty| accepts(Slot::Index, Some(ty));
        assert!(covers(&index("u32"), &index("u64")));
        assert!(!covers(&index("u8"), &index("u32")));
        assert!(!covers(&index("u32"), &accepts(Slot::Index, None)));
        assert!(covers(
            &accepts(Slot::Amount, None),
            &accepts(Slot::Amount, Some("u64"))
        ));
    }
}
