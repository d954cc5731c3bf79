//! The key grammar as the macros check a `key("…")` fallback at compile time: the
//! same words and the same reading as `taria_schema::protocol::KeyChord`'s parser
//! (`taria-runtime/taria-schema/src/protocol/keys.rs`), which the macro crate cannot call.
//! The ui-tests pass case `key-grammar-matches-the-runtime.rs` includes this file and
//! checks that both accept exactly the same chords and that `GRAMMAR` is
//! `taria_schema::protocol::KEY_GRAMMAR`.

/// The modifiers, with their aliases.
pub(crate) const MODIFIERS: &[&str] = &[
    "ctrl", "control", "alt", "meta", "option", "shift", "super", "cmd", "win",
];

/// The named keys, with their aliases.
pub(crate) const NAMED_KEYS: &[&str] = &[
    "enter",
    "return",
    "tab",
    "backtab",
    "space",
    "esc",
    "escape",
    "backspace",
    "delete",
    "del",
    "insert",
    "ins",
    "up",
    "down",
    "left",
    "right",
    "home",
    "end",
    "pageup",
    "pgup",
    "pagedown",
    "pgdn",
    "plus",
];

/// What a key chord must look like (`taria_schema::protocol::KEY_GRAMMAR`, word for word).
pub(crate) const GRAMMAR: &str = "a key is `[modifier+]…key`: modifiers ctrl, alt, shift, super; key a single character \
     (`a`, `A`, `?`), f1-f24, or one of enter, tab, space, esc, backspace, delete, insert, up, down, left, right, \
     home, end, pageup, pagedown, plus (e.g. `ctrl+s`, `shift+tab`, `f5`)";

/// What is wrong with a key chord.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum KeyProblem {
    /// A `+` with no key after it (`ctrl+`).
    NoKey,
    /// A part before the key that is not a modifier.
    Modifier(String),
    /// The key: not one character, `f1`–`f24`, or a named key.
    Key(String),
}

/// Reads `input` as `taria_schema::protocol::KeyChord` does, saying what is wrong when
/// it would not parse.
pub(crate) fn check_key(input: &str) -> Result<(), KeyProblem> {
    let trimmed = input.trim();
    // `+` alone or as the last part (`ctrl++`) is the plus key.
    let (mods, key) = match trimmed.strip_suffix("++") {
        Some(rest) => (rest, "+"),
        None => match trimmed.rsplit_once('+') {
            Some((mods, key)) if !key.is_empty() => (mods, key),
            Some(_) if trimmed == "+" => ("", "+"),
            Some(_) => return Err(KeyProblem::NoKey),
            None => ("", trimmed),
        },
    };
    if !mods.is_empty() {
        for part in mods.split('+') {
            if !MODIFIERS.contains(&part.to_ascii_lowercase().as_str()) {
                return Err(KeyProblem::Modifier(part.to_owned()));
            }
        }
    }
    let mut chars = key.chars();
    if let (Some(_), None) = (chars.next(), chars.next()) {
        return Ok(());
    }
    let lower = key.to_ascii_lowercase();
    let known = match lower.strip_prefix('f').and_then(|n| n.parse::<u8>().ok()) {
        Some(n) => (1..=24).contains(&n),
        None => NAMED_KEYS.contains(&lower.as_str()),
    };
    if known {
        Ok(())
    } else {
        Err(KeyProblem::Key(key.to_owned()))
    }
}
