//! `taria-mcp test-from FILE`: a recording (`--record`) turned into a Rust test, one
//! readable line per input and a golden-outline snapshot after each (written next to
//! it), so an agent's session becomes a regression test an author can read and edit.

use std::fmt::Write as _;
use std::path::Path;
use std::process::ExitCode;

use taria::wire::recording::{Match, Secrets};

pub(crate) use args::Options;
use taria::wire::protocol::{AckStatus, ActionData, Input, RejectReason};
use taria::wire::recording::{RecordedInput, RecordedRead, Recording, ReplayLine};
use taria::{ScrollDirection, StateFlags, Tree, Value};

pub(crate) mod args;
mod escape;

use escape::{comment_text, literal_str};

/// The widest line rustfmt leaves on one line (its `max_width`).
const MAX_WIDTH: usize = 100;
/// The widest argument list rustfmt keeps on one line (`fn_call_width`, 60% of
/// `max_width` under the default heuristics).
const CALL_WIDTH: usize = 60;

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
        for (path, outline) in &self.snapshots {
            match std::fs::read_to_string(path) {
                Ok(committed) => {
                    if let Some(difference) = first_difference(&committed, outline, 1) {
                        problems.push(format!("{path}: {difference}"));
                    }
                }
                Err(e) => problems.push(format!("cannot read {path}: {e}")),
            }
        }
        if problems.is_empty() {
            return Ok(());
        }
        Err(format!(
            "the recording no longer generates the committed test ({} file(s) differ; \
             regenerate without --check to update them):\n{}",
            problems.len(),
            problems.join("\n")
        ))
    }

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

/// The first line where `committed` and `generated` differ, as `line N: - … + …`
/// (`first`: the number of their first line in the file).
fn first_difference(committed: &str, generated: &str, first: usize) -> Option<String> {
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
        crate::tools::text::count(steps.len(), "step", "steps"),
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

/// A short name for a step's snapshot: `tasks-4-toggle`, `new-task-set-value`,
/// `press-enter`, `type-text`.
fn step_name(recorded: &RecordedInput) -> String {
    let name = match &recorded.input.input {
        Input::Act(request) => format!("{} {}", request.target, request.action.as_str()),
        Input::Key { key } if !recorded.input.redacted => format!("press {key}"),
        Input::Key { .. } => "press".into(),
        _ => "type text".into(),
    };
    truncate(&slug(&name, '-'), 32)
}

fn truncate(text: &str, max: usize) -> String {
    let mut text: String = text.chars().take(max).collect();
    text.truncate(text.trim_end_matches('-').len());
    text
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

/// The harness call for one step: its head (`h.act`) and arguments, and for a
/// redacted input whose `--secret` was not given, the `compile_error!` message that
/// says so (the call then gets `""`). A node's `--secret`s are taken in order, the
/// last one again when there are more inputs ([`Secrets`]).
fn step_call(
    recorded: &RecordedInput,
    previous: &Tree,
    secrets: &mut Secrets<String>,
) -> (String, Vec<String>, Option<String>) {
    let redacted = recorded.input.redacted;
    let missing = std::cell::RefCell::new(None);
    let secrets = std::cell::RefCell::new(secrets);
    let secret = |node: Option<&str>| -> String {
        if let Some(expr) = node.and_then(|node| secrets.borrow_mut().take(node).cloned()) {
            return expr;
        }
        let node = node.unwrap_or("the focused node");
        *missing.borrow_mut() = Some(format!(
            "step {}: the value for `{node}` was redacted in the recording: regenerate with \
             --secret {node}=EXPR",
            recorded.step
        ));
        literal_str("")
    };
    let (head, args) = step_call_parts(recorded, previous, redacted, &secret);
    (head, args, missing.into_inner())
}

fn step_call_parts(
    recorded: &RecordedInput,
    previous: &Tree,
    redacted: bool,
    secret: &dyn Fn(Option<&str>) -> String,
) -> (String, Vec<String>) {
    match &recorded.input.input {
        Input::Act(request) => {
            let node = literal_str(request.target.as_str());
            let action = request.action.as_str();
            match &request.data {
                _ if redacted && action == "set_value" => (
                    "h.set_value".into(),
                    vec![node, secret(Some(request.target.as_str()))],
                ),
                _ if redacted => (
                    "h.act_with".into(),
                    vec![
                        node,
                        literal_str(action),
                        format!(
                            "taria::Value::from({})",
                            secret(Some(request.target.as_str()))
                        ),
                    ],
                ),
                Some(ActionData::Value { value }) if action == "set_value" => {
                    ("h.set_value".into(), vec![node, value_literal(value)])
                }
                Some(ActionData::Value { value }) => (
                    "h.act_with".into(),
                    vec![
                        node,
                        literal_str(action),
                        format!("taria::Value::from({})", value_literal(value)),
                    ],
                ),
                Some(ActionData::Scroll { direction, amount }) => (
                    "h.scroll".into(),
                    vec![
                        node,
                        format!("taria::ScrollDirection::{}", direction_name(*direction)),
                        amount.to_string(),
                    ],
                ),
                None => match seen_token(recorded, previous) {
                    Some(token) => (
                        "h.act_seen".into(),
                        vec![node, literal_str(action), literal_str(token)],
                    ),
                    None => ("h.act".into(), vec![node, literal_str(action)]),
                },
            }
        }
        Input::Key { key } => {
            let key = if redacted {
                secret(focused(previous).as_deref())
            } else {
                literal_str(key)
            };
            ("h.press".into(), vec![key])
        }
        Input::Text { text, raw } => {
            let text = if redacted {
                secret(focused(previous).as_deref())
            } else {
                literal_str(text)
            };
            let call = if *raw {
                "h.type_text_raw"
            } else {
                "h.type_text"
            };
            (call.into(), vec![text])
        }
        // `Input` is non-exhaustive, but a kind this build does not know does not
        // parse: a recording never gets here.
        _ => ("h.press".into(), vec![literal_str("")]),
    }
}

/// The recorded identity token of an act, when it decides the app's answer: the id
/// is not drawn in the tree before the step (a positional id scrolled away, refused
/// because of its token), or the app refused the act as stale. Elsewhere the node
/// drawn at the id is the one the agent meant, and a plain `h.act` does the same
/// without tying the test to the node's label.
fn seen_token<'r>(recorded: &'r RecordedInput, previous: &Tree) -> Option<&'r str> {
    let Input::Act(request) = &recorded.input.input else {
        return None;
    };
    let token = request.token.as_deref()?;
    let stale = recorded
        .ack
        .as_ref()
        .is_some_and(|ack| ack.reason == Some(RejectReason::StaleTarget));
    (stale || previous.get(request.target.as_str()).is_none()).then_some(token)
}

fn focused(tree: &Tree) -> Option<String> {
    tree.find(&taria::Query::new().state(StateFlags::FOCUSED))
        .map(|n| n.id.to_string())
}

fn direction_name(direction: ScrollDirection) -> &'static str {
    match direction {
        ScrollDirection::Up => "Up",
        ScrollDirection::Down => "Down",
        ScrollDirection::Left => "Left",
        ScrollDirection::Right => "Right",
    }
}

/// A wire enum's Rust variant: `unknown_node` → `UnknownNode`.
fn variant(value: &(impl serde::Serialize + ?Sized)) -> String {
    taria::wire::protocol::wire_name(value)
        .split('_')
        .map(|part| {
            let mut chars = part.chars();
            chars.next().map_or_else(String::new, |c| {
                c.to_ascii_uppercase().to_string() + chars.as_str()
            })
        })
        .collect()
}

/// A Rust literal that converts into `value` (`"text"`, `5`, `2.5`, `true`).
fn value_literal(value: &Value) -> String {
    match value {
        Value::Text(text) => literal_str(text),
        Value::Bool(b) => b.to_string(),
        Value::Number(n) if n.fract() == 0.0 && n.abs() <= f64::from(i32::MAX) => {
            format!("{n:.0}")
        }
        Value::Number(n) => format!("{n:?}"),
    }
}

/// `prefix callee(args)tail` as rustfmt writes it: on one line when the arguments
/// fit `fn_call_width` (one argument always does) and the line `max_width`; else,
/// after a `let … =` prefix, the right-hand side alone on the next line when it fits
/// there; else one argument per line (a trailing comma for a function, none for a
/// macro), the call broken before its method when the receiver is longer than an
/// indent (as rustfmt breaks a chain).
fn stmt(prefix: &str, callee: &str, args: &[String], tail: &str, is_macro: bool) -> String {
    let pad = " ".repeat(4);
    let joined = args.join(", ");
    let args_fit = args.len() == 1 || width(&joined) <= CALL_WIDTH;
    let rhs = format!("{callee}({joined}){tail}");
    if args_fit && 4 + width(prefix) + width(&rhs) <= MAX_WIDTH {
        return format!("{pad}{prefix}{rhs}\n");
    }
    if args_fit && !prefix.is_empty() && 8 + width(&rhs) <= MAX_WIDTH {
        return format!("{pad}{}\n{pad}    {rhs}\n", prefix.trim_end());
    }
    let (receiver, method) = callee.split_once('.').unwrap_or(("", callee));
    if args.len() == 1 && receiver.len() > 4 {
        return format!("{pad}{prefix}{receiver}\n{pad}    .{method}({joined}){tail}\n");
    }
    let mut out = format!("{pad}{prefix}{callee}(\n");
    for (i, arg) in args.iter().enumerate() {
        let comma = if is_macro && i + 1 == args.len() {
            ""
        } else {
            ","
        };
        let _ = writeln!(out, "{pad}    {arg}{comma}");
    }
    let _ = writeln!(out, "{pad}){tail}");
    out
}

fn width(text: &str) -> usize {
    text.chars().count()
}

#[cfg(test)]
mod tests;
