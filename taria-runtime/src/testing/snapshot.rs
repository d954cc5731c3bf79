//! Golden-file snapshots of a tree's outline.

use std::path::Path;

/// The environment variable that makes [`assert_snapshot`] write the actual text
/// into the golden file instead of comparing: `TARIA_SNAPSHOTS=overwrite cargo test`
/// (like trybuild's `TRYBUILD=overwrite`).
pub const SNAPSHOTS_ENV: &str = "TARIA_SNAPSHOTS";

/// Compares `actual` (usually [`Tree::outline`](crate::Tree::outline)) with the
/// golden file at `path`. A relative path is taken from the current directory,
/// which `cargo test` sets to the package root.
///
/// With `TARIA_SNAPSHOTS=overwrite` the file is written (directories created)
/// instead, and the assertion passes; review and commit the change.
///
/// # Panics
///
/// When the file is missing or differs (the message shows the changed lines and
/// how to accept them), or cannot be read or written.
#[track_caller]
pub fn assert_snapshot(path: impl AsRef<Path>, actual: &str) {
    if let Err(message) = check(path.as_ref(), actual, overwrite_requested()) {
        panic!("{message}");
    }
}

/// Compares, or with `overwrite` writes; the error is the assertion's message.
fn check(path: &Path, actual: &str, overwrite: bool) -> Result<(), String> {
    let actual = with_final_newline(actual);
    if overwrite {
        if let Some(dir) = path.parent()
            && !dir.as_os_str().is_empty()
        {
            std::fs::create_dir_all(dir).map_err(|e| {
                format!(
                    "cannot create the snapshot directory {}: {e}",
                    dir.display()
                )
            })?;
        }
        return std::fs::write(path, actual.as_bytes())
            .map_err(|e| format!("cannot write the snapshot {}: {e}", path.display()));
    }
    let expected = match std::fs::read_to_string(path) {
        Ok(expected) => expected.replace("\r\n", "\n"),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(format!(
                "no snapshot at {path}; run again with {SNAPSHOTS_ENV}=overwrite to create it from:\n{actual}",
                path = path.display(),
            ));
        }
        Err(e) => return Err(format!("cannot read the snapshot {}: {e}", path.display())),
    };
    if expected == actual {
        return Ok(());
    }
    Err(format!(
        "the outline differs from the snapshot {path} (- snapshot, + now):\n{diff}\
         run again with {SNAPSHOTS_ENV}=overwrite to accept the new outline",
        path = path.display(),
        diff = line_diff(&expected, &actual),
    ))
}

fn overwrite_requested() -> bool {
    std::env::var_os(SNAPSHOTS_ENV).is_some_and(|v| v == "overwrite")
}

fn with_final_newline(text: &str) -> String {
    let mut text = text.to_owned();
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// The lines that differ between `expected` and `actual`: the span between their
/// common first and last lines, as `-`/`+` lines with a line of context each side.
fn line_diff(expected: &str, actual: &str) -> String {
    let old: Vec<&str> = expected.lines().collect();
    let new: Vec<&str> = actual.lines().collect();
    let prefix = old.iter().zip(&new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let mut diff = Vec::new();
    if prefix > 0 {
        diff.push(format!("  {}", old[prefix - 1]));
    }
    diff.extend(
        old[prefix..old.len() - suffix]
            .iter()
            .map(|l| format!("- {l}")),
    );
    diff.extend(
        new[prefix..new.len() - suffix]
            .iter()
            .map(|l| format!("+ {l}")),
    );
    if suffix > 0 {
        diff.push(format!("  {}", old[old.len() - suffix]));
    }
    diff.push(String::new());
    diff.join("\n")
}

#[cfg(test)]
mod tests {
    use super::{check, line_diff};

    #[test]
    fn a_snapshot_is_written_on_overwrite_then_compared() {
        let dir = std::env::temp_dir().join(format!("taria-snapshot-{}", std::process::id()));
        let path = dir.join("nested").join("tree.outline");
        let missing = check(&path, "- button \"Save\"", false).unwrap_err();
        assert!(missing.starts_with("no snapshot at "), "{missing}");
        assert!(missing.contains("TARIA_SNAPSHOTS=overwrite"), "{missing}");

        check(&path, "- button \"Save\"", true).unwrap();
        assert_eq!(
            std::fs::read_to_string(&path).unwrap(),
            "- button \"Save\"\n"
        );
        check(&path, "- button \"Save\"\n", false).unwrap();

        let changed = check(&path, "- button \"Send\"", false).unwrap_err();
        assert!(
            changed.contains("- - button \"Save\"\n+ - button \"Send\"\n"),
            "{changed}"
        );
        assert!(
            changed.ends_with("run again with TARIA_SNAPSHOTS=overwrite to accept the new outline")
        );
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn the_diff_shows_the_changed_lines_between_one_line_of_context() {
        let old = "a\nb\nc\nd\n";
        let new = "a\nb\nX\nY\nd\n";
        assert_eq!(line_diff(old, new), "  b\n- c\n+ X\n+ Y\n  d\n");
        assert_eq!(line_diff("a\n", "a\nb\n"), "  a\n+ b\n");
        assert_eq!(line_diff("a\nb\n", "b\n"), "- a\n  b\n");
    }
}
