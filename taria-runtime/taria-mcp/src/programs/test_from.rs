//! `taria-mcp test-from FILE`: a recording (`--record`) turned into a Rust test, one
//! readable step per input (what it meant, what the app answered) and an insta
//! snapshot of the tree after each (written from the recorded trees), so an agent's
//! session becomes a regression test an author can read, and review with
//! `cargo insta review` when the app changes.

use std::fmt::Write as _;
use std::process::ExitCode;

pub(crate) use args::Options;
use taria_schema::Tree;
use taria_schema::protocol::{AckStatus, LogLevel};
use taria_schema::recording::{
    InputTool, RecordedInput, RecordedScreen, Recording, ReplayLine, Secrets,
};

pub(crate) mod args;
mod check;
mod notes;
mod rules;
mod snapshots;
mod unprompted;
mod warnings;

use crate::replay_code::escape::{comment_text, literal_str};
use crate::replay_code::layout::stmt;
use crate::replay_code::{StepLine, Uses, step_line, step_name};

/// `test-from`'s exit status when it wrote the test with a `compile_error!` for each
/// redacted input whose `--secret` was not given (each named on stderr).
const WROTE_INCOMPLETE: u8 = 3;

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
    for warning in &generated.warnings {
        eprintln!("taria-mcp test-from: {warning}");
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
    if generated.missing_secrets.is_empty() {
        return ExitCode::SUCCESS;
    }
    for missing in &generated.missing_secrets {
        eprintln!("taria-mcp test-from: {missing}");
    }
    eprintln!(
        "taria-mcp test-from: the test is written, but it does not compile until it is \
         regenerated with the --secret flags above"
    );
    ExitCode::from(WROTE_INCOMPLETE)
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
    /// For each `compile_error!` in the code: the redacted input whose `--secret`
    /// was not given.
    pub(crate) missing_secrets: Vec<String>,
    /// Warnings for stderr: rules that did nothing, nodes that changed on their own.
    pub(crate) warnings: Vec<String>,
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
    let unprompted = unprompted::Unprompted::of(recording, options);
    let authors_rules = options.rules.rules().len();
    let options = &unprompted.added_to(options);
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
        uses: Uses::default(),
        missing_secrets: Vec::new(),
        batch: None,
    };
    out.code.push_str(&snapshots::settings_code(
        &options.snapshots,
        &options.recording,
    ));
    let _ = writeln!(out.code, "    let mut h = {};", options.harness);
    let _ = writeln!(out.code, "    h.resize({}, {});", size.width, size.height);
    let name = format!("{:0width$}-first", 0, width = out.width);
    let about = "the first tree, before any input";
    out.snapshot(0, &name, about, first, recording.first_screen())?;
    out.lines(recording, first, &steps)?;
    out.code.push_str(&logged_errors(recording));
    let Body {
        code: body,
        snapshots,
        trees,
        uses,
        missing_secrets,
        ..
    } = out;
    let mut warnings = unprompted.notes();
    warnings.extend(warnings::warnings(recording, options, &trees)?);
    let mut code = header(recording, steps.len(), command);
    let _ = writeln!(code, "#[test]");
    // As rustfmt writes a signature too long for one line: the return type on the next.
    let signature = format!(
        "fn {}() -> Result<(), taria::testing::ReplayError> {{",
        options.name
    );
    if signature.chars().count() <= 100 {
        let _ = writeln!(code, "{signature}");
    } else {
        let _ = writeln!(
            code,
            "fn {}()\n-> Result<(), taria::testing::ReplayError> {{",
            options.name
        );
    }
    code.push_str(&uses_code(uses));
    code.push_str(&rules::rules_code(
        &options.rules,
        authors_rules,
        &unprompted.comment(),
    ));
    code.push_str(&body);
    let _ = writeln!(code, "    Ok(())");
    let _ = writeln!(code, "}}");
    Ok(Generated {
        code,
        dir: options.snapshots.clone(),
        snapshots,
        missing_secrets,
        warnings,
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

/// The `use`s the steps need: `taria::Role` for what a step was aimed at, the
/// answer's types for a refused one.
fn uses_code(uses: Uses) -> String {
    let mut out = String::new();
    if uses.role {
        out.push_str("    use taria::Role;\n");
    }
    match (uses.ack_status, uses.reject_reason) {
        (true, true) => out.push_str("    use taria::testing::{AckStatus, RejectReason};\n"),
        (true, false) => out.push_str("    use taria::testing::AckStatus;\n"),
        _ => {}
    }
    out
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
    /// The recorded trees the snapshots are made of, each with its step.
    trees: Vec<(u64, &'o Tree)>,
    /// Digits in a snapshot's step number.
    width: usize,
    /// The `--secret`s, taken in order per node.
    secrets: Secrets<String>,
    /// What the steps name, to `use` at the top.
    uses: Uses,
    /// The redacted inputs without their `--secret`, as the `compile_error!`s say.
    missing_secrets: Vec<String>,
    /// The batch call whose steps are being written.
    batch: Option<u64>,
}

impl<'o> Body<'o> {
    /// The lines after the first tree, in order: each input's step and snapshot, each
    /// resize, and what the recording says in comments (reads, refusals, batches,
    /// the app going away); an error where a test of one app cannot go on.
    fn lines(
        &mut self,
        recording: &'o Recording,
        first: &'o Tree,
        steps: &[&RecordedInput],
    ) -> Result<(), String> {
        let mut previous = first;
        let mut last_step = 0;
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
                    self.batch(recorded, steps);
                    self.step(recorded, previous)?;
                    last_step = recorded.step;
                    if let Some(tree) = &recorded.tree {
                        previous = tree;
                    }
                }
                ReplayLine::Resize { size, tree } => {
                    size.replayable()?;
                    let _ = writeln!(self.code, "    h.resize({}, {});", size.width, size.height);
                    if let Some(tree) = tree {
                        let name = format!(
                            "{last_step:0w$}-resize-{}x{}",
                            size.width,
                            size.height,
                            w = self.width
                        );
                        let about = format!(
                            "after the resize to {}x{} (after step {last_step})",
                            size.width, size.height
                        );
                        self.snapshot(last_step, &name, &about, tree, None)?;
                        previous = tree;
                    }
                }
                ReplayLine::Read(read) => self.code.push_str(&notes::read(read)),
                ReplayLine::Refused(refusal) => self.code.push_str(&notes::refused(refusal)),
                ReplayLine::Away(app) => self.code.push_str(&notes::away(app)),
                // It goes on only if the app came back as it was.
                ReplayLine::CameBack(tree) => {
                    let outline = |tree| rules::outline(self.options, tree, last_step, None);
                    if outline(tree)? != outline(previous)? {
                        return Err(
                            "the app exited or was restarted in the recorded session (an `app` \
                             line) and came back showing another tree; a test replays one app: \
                             cut the recording at its `app` line"
                                .into(),
                        );
                    }
                    let _ = writeln!(
                        self.code,
                        "    // It came back showing the same tree, and the session goes on."
                    );
                    self.trees.push((last_step, tree));
                    previous = tree;
                }
                _ => {}
            }
        }
        Ok(())
    }

    /// `snapshots.check(&h, <step>, "<name>", snapshot);`, and the snapshot: `tree`
    /// under the rules at `step`, with the recorded `screen` where the rules compare
    /// it. A step the recording has no screen for (a resize's; one the bridge got no
    /// screen for) is `check_tree`: its tree alone, and no expected picture when it
    /// fails.
    fn snapshot(
        &mut self,
        step: u64,
        name: &str,
        about: &str,
        tree: &'o Tree,
        screen: Option<&RecordedScreen>,
    ) -> Result<(), String> {
        let recorded = screen.is_some();
        let screen = screen
            .map(Vec::as_slice)
            .filter(|_| self.options.rules.checks_screen());
        let outline = rules::outline(self.options, tree, step, screen)?;
        if !recorded && self.options.rules.checks_screen() {
            let _ = writeln!(
                self.code,
                "    // The recording has no screen for this step: its tree is compared alone."
            );
        }
        let check = if recorded { "check" } else { "check_tree" };
        self.code.push_str(&stmt(
            "",
            &format!("snapshots.{check}"),
            &[
                "&h".into(),
                step.to_string(),
                literal_str(name),
                "snapshot".into(),
            ],
            ";",
            false,
        ));
        let (path, file) = snapshots::file(&self.options.snapshots, name, about, &outline);
        self.snapshots.push((path, file));
        self.trees.push((step, tree));
        Ok(())
    }

    /// Before the first step of a batch call: which steps it sent.
    fn batch(&mut self, recorded: &RecordedInput, steps: &[&RecordedInput]) {
        if recorded.tool != InputTool::Batch {
            self.batch = None;
            return;
        }
        if self.batch == Some(recorded.call) {
            return;
        }
        self.batch = Some(recorded.call);
        let last = steps
            .iter()
            .filter(|s| s.tool == InputTool::Batch && s.call == recorded.call)
            .map(|s| s.step)
            .max()
            .unwrap_or(recorded.step);
        self.code.push_str(&notes::batch(recorded.step, last));
    }

    /// One input: the step that sends it (what it was aimed at, the answer it got),
    /// and its snapshot. `previous` is the tree before it (where a redacted text's
    /// secret went: the focused node).
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
        let StepLine { code, missing } = step_line(
            recorded,
            previous,
            self.options.refind,
            &mut self.secrets,
            &mut self.uses,
        );
        if let Some(message) = missing {
            self.code.push_str(&stmt(
                "",
                "compile_error!",
                &[literal_str(&message)],
                ";",
                true,
            ));
            self.missing_secrets.push(message);
        }
        self.code.push_str(&code);
        if let Some(tree) = &recorded.tree {
            let name = format!(
                "{:0w$}-{}",
                recorded.step,
                step_name(recorded),
                w = self.width
            );
            let about = format!("after step {}: {}", recorded.step, recorded.input);
            self.snapshot(recorded.step, &name, &about, tree, recorded.screen.as_ref())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
