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
pub(crate) fn stmt(
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

/// The widest chain rustfmt keeps on one line (`chain_width`, 60% of `max_width`).
const CHAIN_WIDTH: usize = 60;

/// `root.a(…).b(…)?;` as rustfmt writes a method chain in a statement (`tail` is
/// `?;`): the root with its first call on the first line; then, when every call but
/// the last fits on that line within `chain_width`, the last call there too if it
/// fits (or with its arguments broken one per line, when that takes no more lines
/// than the last call on a line of its own would); else each call on a line of its
/// own, one indent deeper, its arguments broken one per line when they do not fit
/// (rustfmt's `format_last_child`).
pub(crate) fn chain(root: &str, calls: &[(&str, Vec<String>)], tail: &str) -> String {
    let Some(((last_method, last_args), rest)) = calls.split_last() else {
        return format!("    {root}{tail}\n");
    };
    let tries = tail.trim_end_matches(';');
    let end = &tail[tries.len()..];
    // The statement's width for the expression: `max_width` less the indent and `;`.
    let shape = MAX_WIDTH - 4 - end.len();
    let prefix: Vec<String> = rest
        .iter()
        .map(|(method, args)| call_at(method, args, MAX_WIDTH - 8, 8))
        .collect();
    let head = format!("{root}{}", prefix.first().map_or("", String::as_str));
    let almost = width(root) + prefix.iter().map(|p| width(p)).sum::<usize>() + width(tries);
    let budget = shape.min(CHAIN_WIDTH).saturating_sub(almost);
    let own_line = call_at(last_method, last_args, shape - 4 - width(tries), 8);
    if budget > 0 && prefix.iter().all(|p| !p.contains('\n')) {
        let overflowed = call_at(last_method, last_args, shape - width(tries) - almost, 4);
        let fits = width(overflowed.lines().next().unwrap_or("")) <= budget;
        let lines = overflowed.lines().count();
        if fits && (lines >= 5 || own_line.lines().count() >= lines) {
            let joined: String = prefix.concat();
            return format!("    {root}{joined}{overflowed}{tail}\n");
        }
    }
    let mut out = format!("    {head}");
    for call in prefix.iter().skip(1).chain([&own_line]) {
        out.push_str("\n        ");
        out.push_str(call);
    }
    out.push_str(tail);
    out.push('\n');
    out
}

/// `.method(args)` on one line when the arguments fit `fn_call_width` (one always
/// does) and the call `avail` columns; else its arguments one per line, one indent in
/// from `indent`, the closing parenthesis at `indent`.
fn call_at(method: &str, args: &[String], avail: usize, indent: usize) -> String {
    let joined = args.join(", ");
    let one = format!(".{method}({joined})");
    if (args.len() <= 1 || width(&joined) <= CALL_WIDTH) && width(&one) <= avail {
        return one;
    }
    let mut out = format!(".{method}(");
    for arg in args {
        let _ = write!(out, "\n{}{arg},", " ".repeat(indent + 4));
    }
    let _ = write!(out, "\n{})", " ".repeat(indent));
    out
}

fn width(text: &str) -> usize {
    text.chars().count()
}
