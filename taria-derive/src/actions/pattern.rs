//! Node id patterns as handlers match them (`taria::Invocation::matches`: each `*` one
//! path segment, a `**` one or more), for telling at compile time that one handler's pattern
//! takes every id another's does. The ui pass case `pattern-cover-matches-the-runtime.rs`
//! holds [`match_pattern`] to the runtime's.

/// Matches `id` against `pattern`; what the wildcards stood for (empty without one).
pub(crate) fn match_pattern<'a>(pattern: &str, id: &'a str) -> Option<&'a str> {
    if pattern.split('/').filter(|segment| *segment == "*").count() > 1 {
        return match_segments(pattern, id);
    }
    let (prefix, suffix, many) = match pattern.split_once("**") {
        Some((prefix, suffix)) => (prefix, suffix, true),
        None => match pattern.split_once('*') {
            Some((prefix, suffix)) => (prefix, suffix, false),
            None => return (pattern == id).then_some(""),
        },
    };
    let middle = id.strip_prefix(prefix)?.strip_suffix(suffix)?;
    let fits = if many {
        !middle.is_empty() && middle.split('/').all(|segment| !segment.is_empty())
    } else {
        !middle.is_empty() && !middle.contains('/')
    };
    fits.then_some(middle)
}

/// Matches `id` against a pattern of several `*` segments (`table/*/*`: a cell, not a
/// row), each one whole segment of the id and the others equal: what the wildcards
/// stood for, from the first to the last (`r5/c2`), or `None`.
fn match_segments<'a>(pattern: &str, id: &'a str) -> Option<&'a str> {
    let mut start = 0;
    let mut segments = Vec::new();
    for segment in id.split('/') {
        segments.push((start, segment));
        start += segment.len() + 1;
    }
    let parts: Vec<&str> = pattern.split('/').collect();
    if parts.len() != segments.len() {
        return None;
    }
    let mut stood = None::<(usize, usize)>;
    for (part, &(at, segment)) in parts.iter().zip(&segments) {
        if *part == "*" && !segment.is_empty() {
            let from = stood.map_or(at, |(from, _)| from);
            stood = Some((from, at + segment.len()));
        } else if *part != segment || part.contains('*') {
            return None;
        }
    }
    stood.map(|(from, to)| &id[from..to])
}

/// Whether every id `later` matches is matched by `earlier` too (so a handler for
/// `later` declared after one for `earlier`, for the same action, is never reached).
/// Exact for a `later` without a wildcard; for one with a wildcard, said only where
/// `earlier` is `prefix/**suffix` around it. Equal patterns are a duplicate, said
/// apart.
pub(crate) fn covers(earlier: &str, later: &str) -> bool {
    if earlier == later {
        return false;
    }
    if !later.contains('*') {
        return match_pattern(earlier, later).is_some();
    }
    let Some((prefix, suffix)) = earlier.split_once("**") else {
        return false;
    };
    later.len() > prefix.len() + suffix.len()
        && later.starts_with(prefix)
        && later.ends_with(suffix)
        && (prefix.is_empty() || prefix.ends_with('/'))
        && (suffix.is_empty() || suffix.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::covers;

    #[test]
    fn a_wider_pattern_declared_first_covers_a_narrower_one() {
        assert!(covers("form/*", "form/Age"));
        assert!(covers("files/**", "files/src/main.rs"));
        assert!(covers("files/**", "files/*"));
        assert!(covers("files/**", "files/src/*"));
        assert!(!covers("form/Age", "form/*"));
        assert!(!covers("form/*", "form/a/b"));
        assert!(!covers("form/*", "other/x"));
        assert!(!covers("tasks/*", "tasks/*"));
        assert!(!covers("tasks/*/title", "tasks/*"));
        assert!(!covers("files/**", "files/**"));
        assert!(covers("table/*/*", "table/r5/c2"));
        assert!(!covers("table/*/*", "table/r5"));
        assert!(covers("table/**", "table/*/*"));
    }
}
