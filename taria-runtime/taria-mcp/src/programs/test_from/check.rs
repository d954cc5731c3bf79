//! `test-from --check`: whether the committed test and its snapshots are what the
//! recording generates, saying the first difference of each file that differs, and
//! each snapshot file in the folder that no step checks.

use std::path::Path;

use super::Generated;

impl Generated {
    /// Whether the test at `test` (but its first line, the command that made it) and
    /// its snapshots on disk are what this recording generates: the first difference
    /// of each file that differs.
    pub(crate) fn check(&self, test: &Path) -> Result<(), String> {
        let mut problems = Vec::new();
        let after_header = |text: &str| {
            text.split_once('\n')
                .map_or("", |(_, rest)| rest)
                .to_owned()
        };
        match std::fs::read_to_string(test) {
            Ok(committed) => {
                let (committed, generated) = (after_header(&committed), after_header(&self.code));
                if let Some(difference) = first_difference(&committed, &generated, 2) {
                    problems.push(format!("{}: {difference}", test.display()));
                }
            }
            Err(e) => problems.push(format!("cannot read {}: {e}", test.display())),
        }
        for (path, text) in &self.snapshots {
            match Generated::snapshot_difference(path, text) {
                Ok(None) => {}
                Ok(Some(difference)) => problems.push(format!("{path}: {difference}")),
                Err(e) => problems.push(e),
            }
        }
        match self.stale() {
            Ok(stale) => problems.extend(stale.into_iter().map(|path| {
                format!("{path}: no step of the test checks it (a step the recording no longer has, or a pending snapshot)")
            })),
            Err(e) => problems.push(e),
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(format!(
            "the recording no longer generates the committed test ({} file(s) differ; \
             regenerate without --check to update them, and to remove stale snapshots):\n{}",
            problems.len(),
            problems.join("\n")
        ))
    }
}

/// The first line where `committed` and `generated` differ, as `line N: - … + …`
/// (`first`: the number of their first line in the file).
pub(super) fn first_difference(committed: &str, generated: &str, first: usize) -> Option<String> {
    if committed == generated {
        return None;
    }
    let (mut old, mut new) = (committed.lines(), generated.lines());
    let mut number = first;
    loop {
        match (old.next(), new.next()) {
            (Some(a), Some(b)) if a == b => number += 1,
            (a, b) => {
                return Some(format!(
                    "line {number}:\n  - {}\n  + {}",
                    a.unwrap_or("(end of file)"),
                    b.unwrap_or("(end of file)")
                ));
            }
        }
    }
}
