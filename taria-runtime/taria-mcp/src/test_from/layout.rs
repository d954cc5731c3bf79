//! The generated code laid out as rustfmt lays it out, so a generated test passes
//! `cargo fmt --check` as it is (`test_from/tests.rs` runs `rustfmt --check` on it).

use std::fmt::Write as _;

/// The widest line rustfmt leaves on one line (its `max_width`).
const MAX_WIDTH: usize = 100;
/// The widest argument list rustfmt keeps on one line (`fn_call_width`, 60% of
/// `max_width` under the default heuristics).
const CALL_WIDTH: usize = 60;

/// `prefix callee(args)tail` as rustfmt writes it: on one line when the arguments
/// fit `fn_call_width` (one argument always does) and the line `max_width`; else,
/// after a `let … =` prefix, the right-hand side alone on the next line when it fits
/// there; else one argument per line (a trailing comma for a function, none for a
/// macro), the call broken before its method when the receiver is longer than an
/// indent (as rustfmt breaks a chain).
pub(super) fn stmt(
    prefix: &str,
    callee: &str,
    args: &[String],
    tail: &str,
    is_macro: bool,
) -> String {
    let pad = " ".repeat(4);
    let joined = args.join(", ");
    let args_fit = args.len() == 1 || width(&joined) <= CALL_WIDTH;
    let rhs = format!("{callee}({joined}){tail}");
    if args_fit && 4 + width(prefix) + width(&rhs) <= MAX_WIDTH {
        return format!("{pad}{prefix}{rhs}\n");
    }
    if args_fit && !prefix.is_empty() && 8 + width(&rhs) <= MAX_WIDTH {
        return format!("{pad}{}\n{pad}    {rhs}\n", prefix.trim_end());
    }
    let (receiver, method) = callee.split_once('.').unwrap_or(("", callee));
    if args.len() == 1 && receiver.len() > 4 {
        return format!("{pad}{prefix}{receiver}\n{pad}    .{method}({joined}){tail}\n");
    }
    let mut out = format!("{pad}{prefix}{callee}(\n");
    for (i, arg) in args.iter().enumerate() {
        let comma = if is_macro && i + 1 == args.len() {
            ""
        } else {
            ","
        };
        let _ = writeln!(out, "{pad}    {arg}{comma}");
    }
    let _ = writeln!(out, "{pad}){tail}");
    out
}

fn width(text: &str) -> usize {
    text.chars().count()
}
