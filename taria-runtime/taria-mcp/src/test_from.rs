//! `taria-mcp test-from FILE`: a recording (`--record`) turned into a Rust test, one
//! readable line per input and a golden-outline snapshot after each (written next to
//! it), so an agent's session becomes a regression test an author can read and edit.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

pub(crate) use args::Options;
use taria::Tree;
use taria::wire::protocol::{AckStatus, LogLevel};
use taria::wire::recording::{Match, RecordedInput, RecordedRead, Recording, ReplayLine, Secrets};

pub(crate) mod args;
mod check;
mod escape;
mod layout;
mod step;

use escape::{comment_text, literal_str};
use layout::stmt;
use step::{step_call, step_name, variant};

/// Runs `taria-mcp test-from`: writes the test to stdout and its snapshots, or with
/// `--check` compares them with what is committed.
pub(crate) fn run(options: &Options) -> ExitCode {
    let recording = match Recording::read(&options.file) {
        Ok(recording) => recording,
        Err(e) => {
            eprintln!("taria-mcp test-from: {e}");
            return ExitCode::FAILURE;
        }
    };
    let generated = match generate(&recording, options, &options.command) {
        Ok(generated) => generated,
        Err(message) => {
            eprintln!("taria-mcp test-from: {message}");
            return ExitCode::FAILURE;
        }
    };
    if let Some(test) = &options.check {
        return match generated.check(test) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("taria-mcp test-from --check: {message}");
                ExitCode::FAILURE
            }
        };
    }
    if let Err(message) = generated.write_snapshots() {
        eprintln!("taria-mcp test-from: {message}");
        return ExitCode::FAILURE;
    }
    print!("{}", generated.code);
    ExitCode::SUCCESS
}

/// Lowercase ASCII letters and digits, runs of anything else as one `sep`.
fn slug(text: &str, sep: char) -> String {
    let mut out = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.ends_with(sep) && !out.is_empty() {
            out.push(sep);
        }
    }
    out.truncate(out.trim_end_matches(sep).len());
    out
}

/// A generated test: its code and the snapshots it checks.
#[derive(Debug)]
pub(crate) struct Generated {
    pub(crate) code: String,
    /// `(path, outline)`, paths relative to the package root.
    pub(crate) snapshots: Vec<(String, String)>,
}

impl Generated {
    fn write_snapshots(&self) -> Result<(), String> {
        for (path, outline) in &self.snapshots {
            let path = Path::new(path);
            if let Some(dir) = path.parent() {
                std::fs::create_dir_all(dir)
                    .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
            }
            std::fs::write(path, outline)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        Ok(())
    }
}

/// The test for `recording`; `command` is how it was made (said in its header).
pub(crate) fn generate(
    recording: &Recording,
    options: &Options,
    command: &str,
) -> Result<Generated, String> {
    let first = recording
        .first_tree()
        .ok_or("the recording has no tree: nothing was recorded")?;
    let size = recording.header.size;
    size.replayable()?;
    let steps: Vec<&RecordedInput> = recording.inputs().collect();
    let mut out = Body {
        options,
        code: String::new(),
        snapshots: Vec::new(),
        width: steps.last().map_or(2, |s| s.step.to_string().len().max(2)),
        secrets: options
            .secrets
            .iter()
            .fold(Secrets::new(), |mut secrets, (id, expr)| {
                secrets.give(id.as_str(), expr.clone());
                secrets
            }),
    };
    out.code.push_str(&stmt(
        "let snapshots = ",
        "taria::testing::Snapshots::new",
        &[literal_str(&options.snapshots), "rules".into()],
        ";",
        false,
    ));
    let _ = writeln!(out.code, "    let mut h = {};", options.harness);
    let _ = writeln!(out.code, "    h.resize({}, {});", size.width, size.height);
    out.snapshot(&format!("{:0width$}-first", 0, width = out.width), first);
    let mut previous = first;
    for line in recording.replay_lines() {
        match line {
            ReplayLine::Gone(recorded) => {
                return Err(format!(
                    "step {} comes after the app went away in the recorded session (an `app` \
                     line) with no tree showing it back; a test replays one app: cut the \
                     recording at its `app` line",
                    recorded.step
                ));
            }
            ReplayLine::Input(recorded) => {
                out.step(recorded, previous);
                if let Some(tree) = &recorded.tree {
                    previous = tree;
                }
            }
            ReplayLine::Read(read) => out.read(read),
            // It goes on only if the app came back as it was.
            ReplayLine::CameBack(tree) => {
                if options.rules.outline(tree) != options.rules.outline(previous) {
                    return Err(
                        "the app exited or was restarted in the recorded session (an `app` \
                         line) and came back showing another tree; a test replays one app: \
                         cut the recording at its `app` line"
                            .into(),
                    );
                }
                let _ = writeln!(
                    out.code,
                    "    // The app went away here and came back showing the same tree."
                );
                previous = tree;
            }
            _ => {}
        }
    }
    out.code.push_str(&logged_errors(recording));
    let Body {
        code: body,
        snapshots,
        ..
    } = out;
    let mut code = String::new();
    let _ = writeln!(code, "// Generated by `{}`", comment_text(command));
    let _ = writeln!(
        code,
        "// from a recording of `{}` ({} at {}x{}). TARIA_SNAPSHOTS=overwrite cargo test",
        comment_text(&recording.header.app),
        crate::plural::count(steps.len(), "step", "steps"),
        size.width,
        size.height
    );
    let _ = writeln!(
        code,
        "// re-blesses the snapshots; regenerate rather than edit."
    );
    let _ = writeln!(code);
    let _ = writeln!(code, "#[test]");
    let _ = writeln!(
        code,
        "fn {}() -> Result<(), taria::testing::ActError> {{",
        options.name
    );
    code.push_str(&rules_code(&options.rules));
    code.push_str(&body);
    let _ = writeln!(code, "    Ok(())");
    let _ = writeln!(code, "}}");
    Ok(Generated { code, snapshots })
}

/// The test's last check, of the app's log: none logged an error in the recorded
/// session, so the replay must not either; when the session logged errors, a
/// comment says how many were left unchecked; nothing when the recording has no
/// log (the app did not send it, or an older bridge recorded it).
fn logged_errors(recording: &Recording) -> String {
    if !recording.header.logs {
        return String::new();
    }
    let errors = recording
        .logs()
        .filter(|log| log.level == LogLevel::Error)
        .count();
    if errors == 0 {
        return "    // The recorded session logged no error.\n    h.assert_no_error_logged();\n"
            .to_owned();
    }
    format!(
        "    // The recorded session logged {} (its `log` lines): not checked.\n",
        crate::plural::count(errors, "error", "errors")
    )
}

/// The test's body as it is written, and the snapshots it checks.
struct Body<'o> {
    options: &'o Options,
    code: String,
    snapshots: Vec<(String, String)>,
    /// Digits in a snapshot's step number.
    width: usize,
    /// The `--secret`s, taken in order per node.
    secrets: Secrets<String>,
}

impl Body<'_> {
    /// `snapshots.check(&h, "<name>")`, and the snapshot `tree` under the rules.
    fn snapshot(&mut self, name: &str, tree: &Tree) {
        let mut outline = self.options.rules.outline(tree);
        if !outline.ends_with('\n') {
            outline.push('\n');
        }
        self.code.push_str(&stmt(
            "",
            "snapshots.check",
            &["&h".into(), literal_str(name)],
            ";",
            false,
        ));
        let path = format!("{}/{name}.outline", self.options.snapshots);
        self.snapshots.push((path, outline));
    }

    /// `// The agent read: find_nodes {"label":"ship v0"}` (80 characters at most, none
    /// that a comment cannot hold).
    fn read(&mut self, read: &RecordedRead) {
        let arguments = serde_json::Value::Object(read.arguments.clone()).to_string();
        let mut note = comment_text(&format!("{} {arguments}", read.tool));
        if note.chars().count() > 80 {
            note = note.chars().take(79).collect::<String>() + "…";
        }
        let _ = writeln!(self.code, "    // The agent read: {note}");
    }

    /// One input: its call, what its answer must be, and its snapshot. `previous` is
    /// the tree before it (where a redacted text's secret went: the focused node).
    fn step(&mut self, recorded: &RecordedInput, previous: &Tree) {
        let ack = recorded.ack.as_ref();
        if ack.is_some_and(|a| a.status == AckStatus::Dropped) {
            let _ = writeln!(
                self.code,
                "    // Step {} was dropped (the input queue was full): not replayed.",
                recorded.step
            );
            return;
        }
        let (head, args, missing) = step_call(recorded, previous, &mut self.secrets);
        let code = &mut self.code;
        if let Some(message) = missing {
            code.push_str(&stmt(
                "",
                "compile_error!",
                &[literal_str(&message)],
                ";",
                true,
            ));
        }
        match ack.map(|a| (a.status, a.reason)) {
            Some((AckStatus::Delivered, _)) => code.push_str(&stmt("", &head, &args, "?;", false)),
            None => code.push_str(&stmt("let _ = ", &head, &args, ";", false)),
            Some((status, reason)) => {
                code.push_str(&stmt("let refused = ", &head, &args, ";", false));
                // `Err(…)` on both sides: an app that now takes the step fails with
                // `left: Ok(())`, not a panic in `unwrap_err`.
                let (field, expected) = match (status, reason) {
                    (AckStatus::Rejected, Some(reason)) => (
                        "refused.map_err(|e| e.reason)",
                        format!(
                            "Err(taria::wire::protocol::RejectReason::{})",
                            variant(&reason)
                        ),
                    ),
                    (status, _) => (
                        "refused.map_err(|e| e.status)",
                        format!(
                            "Err(taria::wire::protocol::AckStatus::{})",
                            variant(&status)
                        ),
                    ),
                };
                code.push_str(&stmt(
                    "",
                    "assert_eq!",
                    &[field.into(), expected],
                    ";",
                    true,
                ));
            }
        }
        if let Some(tree) = &recorded.tree {
            let name = format!(
                "{:0w$}-{}",
                recorded.step,
                step_name(recorded),
                w = self.width
            );
            self.snapshot(&name, tree);
        }
    }
}

/// `let rules = taria::testing::Match::new();`, then one `let rules = rules.…;`
/// per rule.
fn rules_code(rules: &Match) -> String {
    let mut out = "    let rules = taria::testing::Match::new();\n".to_owned();
    for id in rules.excluded() {
        out.push_str(&stmt(
            "let rules = ",
            "rules.exclude",
            &[literal_str(id)],
            ";",
            false,
        ));
    }
    for (id, pattern) in rules.labels() {
        let args = [literal_str(id), literal_str(pattern)];
        out.push_str(&stmt("let rules = ", "rules.label", &args, ";", false));
    }
    out
}

#[cfg(test)]
mod tests;
