//! The macros tell that one handler takes every argument another would (so the later
//! one is never called) with their own model of what each parameter's conversion lets
//! through (`taria-derive/src/actions/accepts.rs`, included here as a module); this
//! checks the model against the conversions the generated code calls: what it admits
//! is what they take, and a type it says covers another takes everything that one does.

#[path = "../../../../taria-derive/src/actions/accepts.rs"]
mod accepts;

use accepts::{Accepts, Slot, accepts, admits_key, covers};
use taria::__private::{amount_arg, direction_arg, index_arg, key_arg, value_arg};
use taria::{Invocation, ScrollDirection, Value};

/// One argument as the runtime passes it.
#[derive(Clone, Debug)]
enum Sample {
    Missing,
    Key(&'static str),
    Value(Value),
    Count(u32),
    Direction,
}

/// What the model says `accepts` lets through.
fn admits(accepts: &Accepts, slot: Slot, sample: &Sample) -> bool {
    match (accepts, sample) {
        (Accepts::Everything, _) => true,
        (Accepts::Whole { lo, hi }, Sample::Missing) if slot == Slot::Amount => *lo <= 1 && 1 <= *hi,
        (_, Sample::Missing) => false,
        (Accepts::Present, _) => true,
        (Accepts::Text, Sample::Value(v)) => matches!(v, Value::Text(_)),
        (Accepts::Bool, Sample::Value(v)) => matches!(v, Value::Bool(_)),
        (Accepts::Number { lo, hi, whole }, Sample::Value(Value::Number(n))) => {
            n.is_finite() && lo <= n && n <= hi && (!whole || n.fract() == 0.0)
        }
        (Accepts::Whole { lo, hi }, Sample::Count(n)) => *lo <= i128::from(*n) && i128::from(*n) <= *hi,
        (Accepts::Whole { .. }, Sample::Key(key)) => admits_key(accepts, key).expect("a known type"),
        (Accepts::Named(name), _) => panic!("{name} is a type the model knows"),
        _ => false,
    }
}

fn invocation<'a>(sample: &'a Sample, index: bool) -> Invocation<'a> {
    let inv = Invocation::new("x", "set_value");
    match sample {
        Sample::Value(v) => inv.with_value(v),
        Sample::Count(n) if index => inv.with_index(*n),
        Sample::Count(n) => inv.with_scroll(ScrollDirection::Down, *n),
        Sample::Direction => inv.with_scroll(ScrollDirection::Up, 1),
        _ => inv,
    }
}

// The runtime's verdicts: what the generated code's conversion for a `T` parameter does.
fn value_ok<T: taria::FromValue>(s: &Sample) -> bool {
    value_arg::<T>(&invocation(s, false)).is_ok()
}
fn key_ok<T: std::str::FromStr>(s: &Sample) -> bool {
    let Sample::Key(key) = s else { unreachable!() };
    key_arg::<T>(key).is_ok()
}
fn index_ok<T: TryFrom<u32>>(s: &Sample) -> bool {
    index_arg::<T>(&invocation(s, true)).is_ok()
}
fn amount_ok<T: TryFrom<u32>>(s: &Sample) -> bool {
    amount_arg::<T>(&invocation(s, false)).is_ok()
}
fn direction_ok(s: &Sample) -> bool {
    direction_arg::<taria::ScrollDirection>(&invocation(s, false)).is_ok()
}

/// For no parameter and each type named: its name, and the runtime's verdict on each
/// sample.
macro_rules! verdicts {
    ($ok:ident, $samples:expr; $($ty:ty),*) => {{
        let mut out: Vec<(Option<&str>, Vec<bool>)> = vec![(None, vec![true; $samples.len()])];
        $(out.push((Some(stringify!($ty)), $samples.iter().map($ok::<$ty>).collect()));)*
        out
    }};
}

fn check(slot: Slot, samples: &[Sample], verdicts: &[(Option<&str>, Vec<bool>)]) {
    for (ty, runtime) in verdicts {
        let model = accepts(slot, *ty);
        for (sample, ok) in samples.iter().zip(runtime) {
            assert_eq!(admits(&model, slot, sample), *ok, "{slot:?} {ty:?} on {sample:?}");
        }
    }
    // A cover the model claims holds on every sample, by the runtime's verdicts.
    for (wide, wide_ok) in verdicts {
        for (narrow, narrow_ok) in verdicts {
            if covers(&accepts(slot, *wide), &accepts(slot, *narrow)) {
                for ((sample, w), n) in samples.iter().zip(wide_ok).zip(narrow_ok) {
                    assert!(w | !n, "{slot:?}: {wide:?} said to cover {narrow:?}, not on {sample:?}");
                }
            }
        }
    }
}

fn main() {
    let numbers = [
        0.0, 1.0, -1.0, 1.5, -0.5, 127.0, 128.0, -128.0, -129.0, 255.0, 256.0, 32767.0, 32768.0,
        -32768.0, -32769.0, 65535.0, 65536.0, 2147483647.0, 2147483648.0, -2147483648.0,
        -2147483649.0, 4294967295.0, 4294967296.0, 9007199254740993.0, 9.223372036854776e18,
        -9.223372036854776e18, 1.8446744073709552e19, 1e300, -1e300, f64::INFINITY,
        f64::NEG_INFINITY, f64::NAN, f64::MIN_POSITIVE,
    ];
    let mut values = vec![
        Sample::Missing,
        Sample::Value(Value::Text("36".into())),
        Sample::Value(Value::Text(String::new())),
        Sample::Value(Value::Bool(true)),
    ];
    values.extend(numbers.iter().map(|n| Sample::Value(Value::Number(*n))));
    let verdicts = verdicts!(value_ok, values;
        Value, taria::Value, String, bool, f64, f32, u8, u16, u32, u64, i8, i16, i32, i64,
        Option<u8>, Option<String>, Option<f64>);
    check(Slot::Value, &values, &verdicts);

    let keys: Vec<Sample> = [
        "0", "7", "+7", "-7", "-0", "+0", "007", "127", "128", "-128", "-129", "255", "256",
        "65535", "65536", "-32769", "4294967295", "4294967296", "2147483648", "-2147483649",
        "18446744073709551615", "18446744073709551616", "9223372036854775807",
        "-9223372036854775808", "-9223372036854775809", "000000000000000000000000000001",
        "99999999999999999999999999999999999999999", "+", "-", "+-1", "a", "1.5", " 7", "7 ",
        "1e3", "٣", "a/b", "50%", "First Name",
    ]
    .into_iter()
    .map(Sample::Key)
    .collect();
    let verdicts = verdicts!(key_ok, keys; String, u8, u16, u32, u64, i8, i16, i32, i64);
    check(Slot::Key, &keys, &verdicts);

    let counts: Vec<Sample> = [0, 1, 127, 128, 255, 256, 32767, 32768, 65535, 65536, i32::MAX as u32, 1 << 31, u32::MAX]
        .into_iter()
        .map(Sample::Count)
        .chain([Sample::Missing])
        .collect();
    let verdicts = verdicts!(index_ok, counts; u8, u16, u32, u64, i8, i16, i32, i64);
    check(Slot::Index, &counts, &verdicts);
    let verdicts = verdicts!(amount_ok, counts; u8, u16, u32, u64, i8, i16, i32, i64);
    check(Slot::Amount, &counts, &verdicts);
    let directions = [Sample::Missing, Sample::Direction];
    let verdicts = vec![
        (None, vec![true, true]),
        (Some("ScrollDirection"), directions.iter().map(direction_ok).collect()),
    ];
    check(Slot::Direction, &directions, &verdicts);
}
