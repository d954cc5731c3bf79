//! A line diff of two outlines: only the lines that differ, with a little context.

/// Lines of context kept around each changed run.
const CONTEXT: usize = 1;

/// Above this many line pairs the diff is the span between the common first and
/// last lines, not a longest-common-subsequence (whose table would be too big).
const MAX_TABLE: usize = 4_000_000;

/// The lines that differ between `old` and `new`: `- old`, `+ new`, and `  same`
/// lines of context around each change; `  …` stands for unchanged lines left out.
/// Empty when they are equal.
pub(crate) fn diff(old: &str, new: &str) -> String {
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    let ops = edits(&old, &new);
    if ops.iter().all(|op| matches!(op, Op::Same(_))) {
        return String::new();
    }
    let changed: Vec<bool> = ops.iter().map(|op| !matches!(op, Op::Same(_))).collect();
    let near = |i: usize| {
        let from = i.saturating_sub(CONTEXT);
        let to = (i + CONTEXT).min(changed.len() - 1);
        changed[from..=to].iter().any(|&c| c)
    };
    let mut out = String::new();
    let mut skipped = false;
    for (i, op) in ops.iter().enumerate() {
        if !near(i) {
            skipped = true;
            continue;
        }
        if skipped && !out.is_empty() {
            out.push_str("  …\n");
        }
        skipped = false;
        let (mark, line) = match op {
            Op::Same(line) => (' ', line),
            Op::Removed(line) => ('-', line),
            Op::Added(line) => ('+', line),
        };
        out.push(mark);
        out.push(' ');
        out.push_str(line);
        out.push('\n');
    }
    out
}

enum Op<'a> {
    Same(&'a str),
    Removed(&'a str),
    Added(&'a str),
}

/// The edit script from `old` to `new`, removals before additions in each run.
fn edits<'a>(old: &[&'a str], new: &[&'a str]) -> Vec<Op<'a>> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    let mut ops: Vec<Op<'a>> = old[..prefix].iter().map(|l| Op::Same(l)).collect();
    if a.len().saturating_mul(b.len()) > MAX_TABLE {
        ops.extend(a.iter().map(|l| Op::Removed(l)));
        ops.extend(b.iter().map(|l| Op::Added(l)));
    } else {
        // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
        let width = b.len() + 1;
        let mut lcs = vec![0u32; (a.len() + 1) * width];
        for i in (0..a.len()).rev() {
            for j in (0..b.len()).rev() {
                lcs[i * width + j] = if a[i] == b[j] {
                    lcs[(i + 1) * width + j + 1] + 1
                } else {
                    lcs[(i + 1) * width + j].max(lcs[i * width + j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        let mut added = Vec::new();
        while i < a.len() || j < b.len() {
            if i < a.len() && j < b.len() && a[i] == b[j] {
                ops.append(&mut added);
                ops.push(Op::Same(a[i]));
                i += 1;
                j += 1;
            } else if j < b.len()
                && (i == a.len() || lcs[i * width + j + 1] >= lcs[(i + 1) * width + j])
            {
                added.push(Op::Added(b[j]));
                j += 1;
            } else {
                ops.push(Op::Removed(a[i]));
                i += 1;
            }
        }
        ops.extend(added);
    }
    ops.extend(old[old.len() - suffix..].iter().map(|l| Op::Same(l)));
    ops
}

#[cfg(test)]
mod tests {
    use super::diff;

    #[test]
    fn only_the_changed_lines_and_their_neighbours_are_shown() {
        assert_eq!(diff("a\nb\n", "a\nb\n"), "");
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n";
        let new = "1\n2\nX\n4\n5\n6\n7\nY\n";
        assert_eq!(diff(old, new), "  2\n- 3\n+ X\n  4\n  …\n  7\n- 8\n+ Y\n");
        assert_eq!(diff("a\nb\nc\n", "a\nc\n"), "  a\n- b\n  c\n");
        assert_eq!(diff("a\n", "a\nb\n"), "  a\n+ b\n");
    }
}
