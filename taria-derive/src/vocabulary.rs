//! The names the macros accept (defined once in [`table`]), "did you mean" hints for
//! near misses, and the checks of ids and custom names.
//!
//! [`table`] must match the runtime (`taria::Role`, `taria::Action`, `NodeBuilder`):
//! the ui-tests pass case `every-role-and-action.rs` includes it and checks that;
//! [`keys`] must read key chords as `taria_schema::protocol::KeyChord` does, which
//! `key-grammar-matches-the-runtime.rs` checks.

mod keys;
mod table;

pub(crate) use keys::{GRAMMAR as KEY_GRAMMAR, KeyProblem, MODIFIERS, NAMED_KEYS, check_key};

pub(crate) use table::{
    ACTIONS, Field, PROPERTIES, Property, ROLES, Syntax, Takes, property_named,
};

/// `list_item` → `ListItem`.
pub(crate) fn camel_case(snake: &str) -> String {
    snake
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .map(|c| c.to_ascii_uppercase().to_string() + chars.as_str())
                .unwrap_or_default()
        })
        .collect()
}

/// ` (did you mean `x`?)` for the closest candidate, or an empty string.
///
/// A candidate is close when at most a third of the word (at least one edit) differs,
/// counting a swap of two neighbouring letters as one edit: `lable` → `label`,
/// `listitem` → `list_item`, but not `card` → `chart`.
pub(crate) fn did_you_mean(word: &str, candidates: &[&str]) -> String {
    let word = word.to_ascii_lowercase();
    let best = candidates
        .iter()
        .map(|c| (distance(&word, c), *c))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, c)) if d <= 1.max(word.chars().count() / 3) => format!(" (did you mean `{c}`?)"),
        _ => String::new(),
    }
}

/// Edit distance with adjacent transpositions (optimal string alignment).
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // rows[i][j]: distance between a[..i] and b[..j].
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j - 1] + cost)
                .min(rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[a.len()][b.len()]
}

/// Whether `id` is a valid explicit id: ASCII letters, digits, `-`, `_`, `.`, `:`.
pub(crate) fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// Whether `name` is a valid custom role or action name: `snake_case` ASCII.
pub(crate) fn is_valid_name(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_')
}

/// Checks a custom action name written as a string literal: `snake_case`, and not a
/// core action's name. Returns the name.
pub(crate) fn check_custom_action(lit: &syn::LitStr) -> syn::Result<String> {
    let name = lit.value();
    if ACTIONS.contains(&name.as_str()) {
        return Err(syn::Error::new(
            lit.span(),
            format!("`{name}` is a core action: write it without quotes"),
        ));
    }
    if !is_valid_name(&name) {
        return Err(syn::Error::new(
            lit.span(),
            "a custom action name is snake_case: lowercase letters, digits and `_`",
        ));
    }
    Ok(name)
}

#[cfg(test)]
mod tests {
    use super::{ACTIONS, ROLES, did_you_mean, distance};

    #[test]
    fn near_misses_get_a_hint_and_far_ones_do_not() {
        assert_eq!(
            did_you_mean("listitem", ROLES),
            " (did you mean `list_item`?)"
        );
        assert_eq!(did_you_mean("Button", ROLES), " (did you mean `button`?)");
        assert_eq!(did_you_mean("togle", ACTIONS), " (did you mean `toggle`?)");
        assert_eq!(
            did_you_mean("lable", &["label", "value"]),
            " (did you mean `label`?)"
        );
        assert_eq!(did_you_mean("card", ROLES), "");
        assert_eq!(did_you_mean("archive", ACTIONS), "");
    }

    #[test]
    fn a_swap_of_neighbours_is_one_edit() {
        assert_eq!(distance("lable", "label"), 1);
        assert_eq!(distance("abc", "abc"), 0);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("kitten", "sitting"), 3);
    }
}
