//! `taria-mcp test-from FILE`: a recording (`--record`) turned into a Rust test, one
//! readable line per input and a golden-outline snapshot after each (written next to
//! it), so an agent's session becomes a regression test an author can read and edit.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

pub(crate) use args::Options;
use taria::Tree;
use taria::wire::protocol::AckStatus;
use taria::wire::recording::{InputTool, Match, RecordedInput, Recording, ReplayLine, Secrets};

pub(crate) mod args;
mod check;
mod escape;
mod layout;
mod notes;
mod step;

use escape::{comment_text, literal_str};
use layout::{chain, stmt};
use step::{Uses, modifiers, step_call, step_name};

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
    /// For each `compile_error!` in the code: the redacted input whose `--secret`
    /// was not given.
    pub(crate) missing_secrets: Vec<String>,
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
        uses: Uses::default(),
        missing_secrets: Vec::new(),
        batch: None,
    };
    out.code.push_str(&stmt(
        "let snapshots = ",
        "taria::testing::Snapshots::new",
        &[literal_str(&options.snapshots), "rules.clone()".into()],
        ";",
        false,
    ));
    let _ = writeln!(out.code, "    let mut h = {};", options.harness);
    let _ = writeln!(out.code, "    h.resize({}, {});", size.width, size.height);
    out.snapshot(&format!("{:0width$}-first", 0, width = out.width), first);
    out.lines(recording, first, &steps)?;
    let Body {
        code: body,
        snapshots,
        uses,
        missing_secrets,
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
        "fn {}() -> Result<(), taria::testing::ReplayError> {{",
        options.name
    );
    code.push_str(&uses_code(uses));
    code.push_str(&rules_code(&options.rules));
    code.push_str(&body);
    let _ = writeln!(code, "    Ok(())");
    let _ = writeln!(code, "}}");
    Ok(Generated {
        code,
        snapshots,
        missing_secrets,
    })
}

/// The `use`s the steps need: `taria::Role` for what a step was aimed at, the
/// answer's types for a refused one.
fn uses_code(uses: Uses) -> String {
    let mut out = String::new();
    if uses.role {
        out.push_str("    use taria::Role;\n");
    }
    match (uses.ack_status, uses.reject_reason) {
        (true, true) => out.push_str("    use taria::wire::protocol::{AckStatus, RejectReason};\n"),
        (true, false) => out.push_str("    use taria::wire::protocol::AckStatus;\n"),
        _ => {}
    }
    out
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
    /// What the steps name, to `use` at the top.
    uses: Uses,
    /// The redacted inputs without their `--secret`, as the `compile_error!`s say.
    missing_secrets: Vec<String>,
    /// The batch call whose steps are being written.
    batch: Option<u64>,
}

impl Body<'_> {
    /// The lines after the first tree, in order: each input's step and snapshot, each
    /// resize, and what the recording says in comments (reads, refusals, batches,
    /// the app going away); an error where a test of one app cannot go on.
    fn lines(
        &mut self,
        recording: &Recording,
        first: &Tree,
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
                    self.step(recorded, previous);
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
                        self.snapshot(&name, tree);
                        previous = tree;
                    }
                }
                ReplayLine::Read(read) => self.code.push_str(&notes::read(read)),
                ReplayLine::Refused(refusal) => self.code.push_str(&notes::refused(refusal)),
                ReplayLine::Away(app) => self.code.push_str(&notes::away(app)),
                // It goes on only if the app came back as it was.
                ReplayLine::CameBack(tree) => {
                    if self.options.rules.outline(tree) != self.options.rules.outline(previous) {
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
                    previous = tree;
                }
                _ => {}
            }
        }
        Ok(())
    }

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
        let (method, args, missing) = step_call(recorded, previous, &mut self.secrets);
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
        let mut calls = vec![("step", vec![recorded.step.to_string(), "&rules".into()])];
        calls.extend(modifiers(recorded, self.options.refind, &mut self.uses));
        calls.push((method.as_str(), args));
        self.code.push_str(&chain("h", &calls, "?;"));
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
