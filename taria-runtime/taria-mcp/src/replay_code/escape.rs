//! How text from outside (the command line, the recording) goes into the generated
//! code: only inside a `//` comment or a string literal, never as code of its own.
//!
//! Two arguments are code by design: `--harness EXPR` and `--secret ID=EXPR` are Rust
//! expressions the author writes for the test.

use std::fmt::Write as _;

/// A word as a shell reads it back, and as a `//` comment holds it: plain words as
/// they are, others in `'…'`, and a word with a character a comment cannot hold (a
/// newline, a text-direction override) in bash's `$'…'` with that character escaped.
pub(crate) fn shell_word(word: &str) -> String {
    let plain = !word.is_empty()
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./=:,+@".contains(c));
    if plain {
        return word.to_owned();
    }
    if word.chars().all(comment_safe) {
        return format!("'{}'", word.replace('\'', r"'\''"));
    }
    let mut out = String::from("$'");
    for c in word.chars() {
        match c {
            '\\' => out.push_str(r"\\"),
            '\'' => out.push_str(r"\'"),
            '\n' => out.push_str(r"\n"),
            '\t' => out.push_str(r"\t"),
            '\r' => out.push_str(r"\r"),
            c if comment_safe(c) => out.push(c),
            c if c.is_ascii() => {
                let _ = write!(out, r"\x{:02x}", u32::from(c));
            }
            c => {
                let _ = write!(out, r"\u{:04x}", u32::from(c));
            }
        }
    }
    out.push('\'');
    out
}

/// `text` as a `//` comment can hold it: each character [`comment_safe`] refuses as `?`.
pub(crate) fn comment_text(text: &str) -> String {
    text.chars()
        .map(|c| if comment_safe(c) { c } else { '?' })
        .collect()
}

/// Whether `c` may be written in a `//` comment: not a control character (a newline
/// would end the comment) and not a text-direction override (which rustc refuses in
/// comments).
pub(crate) fn comment_safe(c: char) -> bool {
    !c.is_control()
        && !matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{2028}' | '\u{2029}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// A Rust string literal (`Debug` of a `str` is one: it escapes newlines, quotes and
/// the text-direction overrides).
pub(crate) fn literal_str(text: &str) -> String {
    format!("{text:?}")
}
