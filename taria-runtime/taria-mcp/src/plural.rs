//! Counts in words: `1 step`, `3 nodes`. Shared by the tools' text, the outline's
//! cut markers and the tests `test-from` writes.

/// `n` and its noun, in the singular for one: `1 step`, `3 steps`.
pub(crate) fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", noun(n, one, many))
}

/// The noun for `n` of it: `one` for 1, else `many`.
pub(crate) fn noun<'a>(n: usize, one: &'a str, many: &'a str) -> &'a str {
    if n == 1 { one } else { many }
}
