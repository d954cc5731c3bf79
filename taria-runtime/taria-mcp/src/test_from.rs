//! `taria-mcp test-from FILE`: a recording (`--record`) turned into a Rust test, one
//! readable line per input and an insta snapshot of the tree after each (written
//! from the recorded trees), so an agent's session becomes a regression test an
//! author can read, and review with `cargo insta review` when the app changes.

use std::fmt::Write as _;
use std::process::ExitCode;

pub(crate) use args::Options;
use taria::Tree;
use taria::wire::protocol::AckStatus;
use taria::wire::recording::{
    RecordedInput, RecordedRead, RecordedScreen, Recording, ReplayLine, Secrets,
};

pub(crate) mod args;
mod check;
mod escape;
mod layout;
mod notes;
mod rules;
mod snapshots;
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
    for note in &generated.notes {
        eprintln!("taria-mcp test-from: {note}");
    }
    if let Some(test) = &options.check {
        return match generated.check(test) {
            Ok(()) => ExitCode::SUCCESS,
            Err(message) => {
                eprintln!("taria-mcp test-from --check: {message}");
                ExitCode::FAILURE
            }
        };
    }
    let mut removed = Vec::new();
    let written = generated.write_snapshots(&mut removed);
    for stale in removed {
        eprintln!("taria-mcp test-from: removed {stale}: no step of the test checks it");
    }
    if let Err(message) = written {
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

/// A generated test: its code, the snapshots it checks, and what to tell its author.
#[derive(Debug)]
pub(crate) struct Generated {
    pub(crate) code: String,
    /// The folder of the snapshots, relative to the package root.
    pub(crate) dir: String,
    /// `(path, file)`: each snapshot file's path (relative to the package root) and
    /// its text, insta's header included.
    pub(crate) snapshots: Vec<(String, String)>,
    /// Warnings for stderr: rules that did nothing, nodes that changed on their own.
    pub(crate) notes: Vec<String>,
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
        trees: Vec::new(),
        width: steps.last().map_or(2, |s| s.step.to_string().len().max(2)),
        secrets: options
            .secrets
            .iter()
            .fold(Secrets::new(), |mut secrets, (id, expr)| {
                secrets.give(id.as_str(), expr.clone());
                secrets
            }),
    };
    out.code
        .push_str(&snapshots::settings_code(&options.snapshots));
    let _ = writeln!(out.code, "    let mut h = {};", options.harness);
    let _ = writeln!(out.code, "    h.resize({}, {});", size.width, size.height);
    let name = format!("{:0width$}-first", 0, width = out.width);
    let about = "the first tree, before any input";
    out.snapshot(0, &name, about, first, recording.first_screen())?;
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
                out.step(recorded, previous)?;
                if let Some(tree) = &recorded.tree {
                    previous = tree;
                }
            }
            ReplayLine::Read(read) => out.read(read),
            // It goes on only if the app came back as it was.
            ReplayLine::CameBack(tree) => {
                let step = out.trees.last().map_or(0, |(step, _)| *step);
                let outline = |tree| rules::outline(options, tree, step, None);
                if outline(tree)? != outline(previous)? {
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
                out.trees.push((step, tree));
                previous = tree;
            }
            _ => {}
        }
    }
    let Body {
        code: body,
        snapshots,
        trees,
        ..
    } = out;
    let notes = notes::notes(recording, options, &trees)?;
    let mut code = header(recording, steps.len(), command);
    let _ = writeln!(code, "#[test]");
    let _ = writeln!(
        code,
        "fn {}() -> Result<(), taria::testing::ActError> {{",
        options.name
    );
    code.push_str(&rules::rules_code(&options.rules));
    code.push_str(&body);
    let _ = writeln!(code, "    Ok(())");
    let _ = writeln!(code, "}}");
    Ok(Generated {
        code,
        dir: options.snapshots.clone(),
        snapshots,
        notes,
    })
}

/// The comment the test starts with: the command that made it, what was recorded,
/// and how to review a change.
fn header(recording: &Recording, steps: usize, command: &str) -> String {
    let size = recording.header.size;
    let mut code = String::new();
    let _ = writeln!(code, "// Generated by `{}`", comment_text(command));
    let _ = writeln!(
        code,
        "// from a recording of `{}` ({} at {}x{}). A step whose tree differs leaves",
        comment_text(&recording.header.app),
        crate::plural::count(steps, "step", "steps"),
        size.width,
        size.height
    );
    let _ = writeln!(
        code,
        "// its new snapshot pending: review it with `cargo insta review`. Regenerate, not edit."
    );
    let _ = writeln!(code);
    code
}

/// The test's body as it is written, and the snapshots it checks.
struct Body<'o> {
    options: &'o Options,
    code: String,
    snapshots: Vec<(String, String)>,
    /// The recorded trees the snapshots are made of, each with its step.
    trees: Vec<(u64, &'o Tree)>,
    /// Digits in a snapshot's step number.
    width: usize,
    /// The `--secret`s, taken in order per node.
    secrets: Secrets<String>,
}

impl<'o> Body<'o> {
    /// `insta::assert_snapshot!("<name>", snapshots.of(&h, <step>));`, and the
    /// snapshot: `tree` under the rules at `step`, with the recorded `screen` where
    /// the rules compare it (`snapshots.tree_of` for a step the recording has no
    /// screen for).
    fn snapshot(
        &mut self,
        step: u64,
        name: &str,
        about: &str,
        tree: &'o Tree,
        screen: Option<&RecordedScreen>,
    ) -> Result<(), String> {
        let screen = screen
            .map(Vec::as_slice)
            .filter(|_| self.options.rules.checks_screen());
        let outline = rules::outline(self.options, tree, step, screen)?;
        let of = if screen.is_none() && self.options.rules.checks_screen() {
            let _ = writeln!(
                self.code,
                "    // The recording has no screen for this step: its tree is compared alone."
            );
            "tree_of"
        } else {
            "of"
        };
        self.code.push_str(&stmt(
            "",
            "insta::assert_snapshot!",
            &[literal_str(name), format!("snapshots.{of}(&h, {step})")],
            ";",
            true,
        ));
        let (path, file) = snapshots::file(&self.options.snapshots, name, about, &outline);
        self.snapshots.push((path, file));
        self.trees.push((step, tree));
        Ok(())
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
    fn step(&mut self, recorded: &'o RecordedInput, previous: &Tree) -> Result<(), String> {
        let ack = recorded.ack.as_ref();
        if ack.is_some_and(|a| a.status == AckStatus::Dropped) {
            let _ = writeln!(
                self.code,
                "    // Step {} was dropped (the input queue was full): not replayed.",
                recorded.step
            );
            return Ok(());
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
            let about = format!(
                "after step {}: {}",
                recorded.step,
                taria::testing::describe(recorded)
            );
            self.snapshot(recorded.step, &name, &about, tree, recorded.screen.as_ref())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
