//! The snapshots of a generated test: the insta settings the test binds, each
//! snapshot file as insta reads it, and the folder kept to exactly those files.

use std::fmt::Write as _;
use std::path::Path;

use super::Generated;
use crate::replay_code::escape::literal_str;

/// What a file is a snapshot of, by its name's ending: insta's snapshots and the
/// pending ones `cargo insta review` reads, and the `.outline` files tests generated
/// before insta wrote.
const SNAPSHOT_ENDINGS: &[&str] = &[".snap", ".snap.new", ".outline"];

/// The pictures a failing step leaves beside its snapshot (`taria::testing::Snapshots`).
const PICTURE_ENDINGS: &[&str] = &[".expected.svg", ".actual.svg"];

/// The statements that make the test's snapshots insta's, in `dir` (relative to the
/// package root, which `CARGO_MANIFEST_DIR` names wherever the test runs from), named
/// as given (no module prefix), without the expression (`snapshots.check(…)` says
/// nothing a reviewer needs); a failing step's screens go beside them as pictures,
/// the expected one from `recording` (the file the test was generated from, as given
/// relative to the package root, or absolute).
pub(super) fn settings_code(dir: &str, recording: &str) -> String {
    let mut out = String::new();
    out.push_str(&path_let("dir", dir));
    out.push_str(&path_let("recording", recording));
    let _ = writeln!(
        out,
        "    let snapshots = taria::testing::Snapshots::new(rules.clone());"
    );
    let _ = writeln!(
        out,
        "    let snapshots = snapshots.pictures(dir, recording);"
    );
    let _ = writeln!(
        out,
        "    let snapshot = |name: &str, text: String| insta::assert_snapshot!(name, text);"
    );
    let _ = writeln!(
        out,
        "    let mut settings = insta::Settings::clone_current();"
    );
    let _ = writeln!(out, "    settings.set_snapshot_path(dir);");
    let _ = writeln!(out, "    settings.set_prepend_module_to_snapshot(false);");
    let _ = writeln!(out, "    settings.set_omit_expression(true);");
    let _ = writeln!(out, "    let _settings = settings.bind_to_scope();");
    out
}

/// `let NAME = PATH;` for a path relative to the package root (`concat!` with
/// `CARGO_MANIFEST_DIR`) or absolute (as given: this machine's), as rustfmt lays it
/// out: on one line when `concat!`'s arguments fit the call width (60) and the line
/// the max width (100), else one argument per line.
fn path_let(name: &str, path: &str) -> String {
    if Path::new(path).is_absolute() {
        // rustfmt moves a literal too long for the line to the next, if it fits there.
        let literal = literal_str(path);
        let line = format!("    let {name} = {literal};");
        return if line.chars().count() <= 100 || 8 + literal.chars().count() + 1 > 100 {
            format!("{line}\n")
        } else {
            format!("    let {name} =\n        {literal};\n")
        };
    }
    let manifest = "env!(\"CARGO_MANIFEST_DIR\")";
    let path = literal_str(&format!("/{path}"));
    let args = format!("{manifest}, {path}");
    let line = format!("    let {name} = concat!({args});");
    if args.chars().count() <= 60 && line.chars().count() <= 100 {
        format!("{line}\n")
    } else {
        format!("    let {name} = concat!(\n        {manifest},\n        {path}\n    );\n")
    }
}

/// The snapshot named `name` in `dir`: its path and its text, an insta snapshot file
/// (a metadata header saying which step it shows, then `outline`).
pub(super) fn file(dir: &str, name: &str, about: &str, outline: &str) -> (String, String) {
    let description = serde_json::to_string(about).unwrap_or_default();
    let text = format!(
        "---\ndescription: {description}\n---\n{}\n",
        outline.trim_end()
    );
    (format!("{dir}/{name}.snap"), text)
}

/// A snapshot file's contents, without its metadata header, as insta compares them
/// (line ends normalized, trailing whitespace dropped).
fn contents(file: &str) -> String {
    let file = file.replace("\r\n", "\n");
    let body = match file.strip_prefix("---\n") {
        Some(rest) => rest.split_once("\n---\n").map_or("", |(_, body)| body),
        None => &file,
    };
    body.trim_end().to_owned()
}

impl Generated {
    /// Writes the snapshots, and removes the other snapshot files in their folder
    /// (steps a longer recording had, pending snapshots of the old test), each said
    /// in `removed`.
    pub(super) fn write_snapshots(&self, removed: &mut Vec<String>) -> Result<(), String> {
        let dir = Path::new(&self.dir);
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the snapshot folder {}: {e}", dir.display()))?;
        for (path, text) in &self.snapshots {
            std::fs::write(path, text).map_err(|e| format!("cannot write {path}: {e}"))?;
        }
        for stale in self.stale()? {
            std::fs::remove_file(&stale).map_err(|e| format!("cannot remove {stale}: {e}"))?;
            removed.push(stale);
        }
        // A failed run's pictures show screens of the test before this one: gone with
        // it (not counted by --check: they are not committed).
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let name = entry.file_name();
            let name = name.to_string_lossy();
            if PICTURE_ENDINGS.iter().any(|ending| name.ends_with(ending)) {
                let _ = std::fs::remove_file(entry.path());
            }
        }
        Ok(())
    }

    /// The snapshot files in the folder that no step of this test checks.
    pub(super) fn stale(&self) -> Result<Vec<String>, String> {
        let dir = Path::new(&self.dir);
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(format!(
                    "cannot list the snapshot folder {}: {e}",
                    dir.display()
                ));
            }
        };
        let mut stale = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = format!("{}/{name}", self.dir);
            let is_snapshot = SNAPSHOT_ENDINGS.iter().any(|end| name.ends_with(end));
            if is_snapshot && !self.snapshots.iter().any(|(written, _)| *written == path) {
                stale.push(path);
            }
        }
        stale.sort();
        Ok(stale)
    }

    /// The first difference between the snapshot at `path` on disk and `text`, by
    /// contents (the metadata header may be insta's own, once a change was reviewed).
    pub(super) fn snapshot_difference(path: &str, text: &str) -> Result<Option<String>, String> {
        let committed =
            std::fs::read_to_string(path).map_err(|e| format!("cannot read {path}: {e}"))?;
        Ok(super::check::first_difference(
            &contents(&committed),
            &contents(text),
            1,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::{contents, file};

    #[test]
    fn a_snapshot_file_is_insta_s_header_then_the_outline() {
        let (path, text) = file(
            "snapshots/t",
            "03-tasks-4-toggle",
            "after step 3: act tasks/4 toggle",
            "- a\n- b\n",
        );
        assert_eq!(path, "snapshots/t/03-tasks-4-toggle.snap");
        assert_eq!(
            text,
            "---\ndescription: \"after step 3: act tasks/4 toggle\"\n---\n- a\n- b\n"
        );
        assert_eq!(contents(&text), "- a\n- b");
        // As insta writes it after a review: another header, the same contents.
        let insta = "---\nsource: examples/todo/replay.rs\n---\n- a\n- b\n";
        assert_eq!(contents(insta), contents(&text));
        assert_eq!(contents("---\ndescription: x\n---\n\n"), "");
    }
}
