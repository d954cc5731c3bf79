//! The "after" app differs from the "before" app by attributes plus a few lines.

/// Lines that are part of a taria attribute (`#[taria::…(…)]`, `#[action(…)]`),
/// including continuation lines of a multi-line one.
fn without_attributes(source: &str) -> Vec<&str> {
    let mut lines = Vec::new();
    let mut in_attribute = false;
    for line in source.lines() {
        let trimmed = line.trim_start();
        if trimmed.starts_with("#[taria::") || trimmed.starts_with("#[action(") {
            in_attribute = !trimmed.ends_with(")]");
            continue;
        }
        if in_attribute {
            in_attribute = !trimmed.ends_with(")]");
            continue;
        }
        lines.push(line);
    }
    lines
}

/// How many lines are added or removed going from `a` to `b` (longest common subsequence).
fn changed_lines(a: &[&str], b: &[&str]) -> usize {
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] {
                lcs[i + 1][j + 1] + 1
            } else {
                lcs[i + 1][j].max(lcs[i][j + 1])
            };
        }
    }
    a.len() + b.len() - 2 * lcs[0][0]
}

#[test]
fn the_taria_version_changes_at_most_15_lines_beyond_attributes() {
    let before = without_attributes(include_str!("../before-after/plain.rs"));
    let after = without_attributes(include_str!("../before-after/taria.rs"));
    // The module doc comments differ by design (they describe each file); skip them.
    let before: Vec<&str> = before
        .into_iter()
        .filter(|l| !l.starts_with("//!"))
        .collect();
    let after: Vec<&str> = after
        .into_iter()
        .filter(|l| !l.starts_with("//!"))
        .collect();
    let changed = changed_lines(&before, &after);
    assert!(changed <= 15, "{changed} lines changed beyond attributes");
    assert!(changed > 0, "the taria version adds its item annotations");
}
