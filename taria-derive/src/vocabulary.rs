//! The names the macros accept, and "did you mean" hints for near misses.
//!
//! Role and action names must match `taria::Role` / `taria::Action`; the ui-tests
//! pass case `every-role-and-action.rs` uses each of them, so a name missing on
//! either side fails to compile there.

pub(crate) const ROLES: &[&str] = &[
    "app",
    "region",
    "group",
    "dialog",
    "tabs",
    "tab",
    "menu",
    "menu_item",
    "list",
    "list_item",
    "tree",
    "tree_item",
    "table",
    "row",
    "cell",
    "column_header",
    "text_input",
    "text_area",
    "button",
    "checkbox",
    "radio",
    "switch",
    "select",
    "option",
    "slider",
    "spin_button",
    "link",
    "text",
    "heading",
    "log",
    "progress",
    "status",
    "scrollbar",
    "chart",
    "image",
    "terminal",
    "form",
    "form_field",
    "notification",
    "toolbar",
    "separator",
    "tooltip",
];

pub(crate) const ACTIONS: &[&str] = &[
    "activate",
    "focus",
    "select",
    "toggle",
    "expand",
    "collapse",
    "increment",
    "decrement",
    "scroll",
    "set_value",
    "dismiss",
    "copy",
    "submit",
];

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
pub(crate) fn did_you_mean(word: &str, candidates: &[&str]) -> String {
    let best = candidates
        .iter()
        .map(|c| (distance(&word.to_ascii_lowercase(), c), *c))
        .min_by_key(|(d, _)| *d);
    match best {
        Some((d, c)) if d <= 2.max(word.len() / 3) => format!(" (did you mean `{c}`?)"),
        _ => String::new(),
    }
}

/// Levenshtein distance.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != *cb);
            cur.push((prev[j] + cost).min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
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
