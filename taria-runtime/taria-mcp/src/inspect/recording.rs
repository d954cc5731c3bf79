//! A `--record` file as the page's recording viewer steps through it: one step per
//! line after the header (the first tree, each input with its ack and the tree drawn
//! after it, the agent's reads, the app's exits), and each tree as outline entries,
//! which the page compares step by step. Read from the command line (`taria-mcp view
//! FILE`) or from a file the page sends.

use serde::Serialize;
use serde_json::Value as Json;
use taria_schema::Tree;
use taria_schema::protocol::AckStatus;
use taria_schema::protocol::wire_name;
use taria_schema::recording::{RecordedInput, RecordedLine, Recording, Secrets};

use super::outline::{Entry, entries};
use crate::replay_code::{StepLine, Uses, step_line};

/// A recording, for the viewer.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Viewed {
    /// The app's label.
    app: String,
    /// The terminal's size: `[width, height]`.
    size: [u16; 2],
    /// `spawn` or `attach`.
    mode: String,
    /// The taria-mcp release that wrote it.
    taria: String,
    /// The lines after the header, in order.
    steps: Vec<Step>,
    /// The trees the steps drew, as outline entries (a step names its tree by index).
    trees: Vec<Vec<Entry>>,
    /// The screens drawn with those trees, as the recording keeps them (the text
    /// inside some node's bounds, one string per row); a step names its screen by
    /// index.
    screens: Vec<Vec<String>>,
}

/// One line of the recording.
#[derive(Debug, Default, Serialize)]
#[serde(rename_all = "camelCase")]
struct Step {
    /// `tree`, `input`, `read` or `app`.
    kind: &'static str,
    /// What happened, in a few words: `act tasks/4 toggle`, `read_tree`, `exited`.
    title: String,
    /// An input's number among the inputs.
    #[serde(rename = "step", skip_serializing_if = "Option::is_none")]
    input_number: Option<u64>,
    /// The tool call it came from.
    #[serde(skip_serializing_if = "Option::is_none")]
    call: Option<u64>,
    /// That call's tool (for a batch's step, `batch`).
    #[serde(skip_serializing_if = "Option::is_none")]
    tool: Option<String>,
    /// An input's answer: `delivered`, `ignored`, `rejected`, `dropped`.
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<String>,
    /// Why, when it was not delivered.
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    /// The app's sentence (app text), or what an `app` line says.
    #[serde(skip_serializing_if = "Option::is_none")]
    message: Option<String>,
    /// A read's arguments.
    #[serde(skip_serializing_if = "Option::is_none")]
    arguments: Option<Json>,
    /// The bridge's revision.
    #[serde(skip_serializing_if = "Option::is_none")]
    revision: Option<u64>,
    /// The tree drawn after it: an index into [`Viewed::trees`].
    #[serde(skip_serializing_if = "Option::is_none")]
    tree: Option<usize>,
    /// The screen drawn with that tree: an index into [`Viewed::screens`].
    #[serde(skip_serializing_if = "Option::is_none")]
    screen: Option<usize>,
    /// How long the app took to answer an input, in microseconds.
    #[serde(skip_serializing_if = "Option::is_none")]
    answered_in_us: Option<u64>,
    /// An input as `taria-mcp test-from` writes its step, unindented.
    #[serde(skip_serializing_if = "Option::is_none")]
    test_line: Option<String>,
    /// Why the line cannot replay the input as it is (a secret the recording left out).
    #[serde(skip_serializing_if = "Option::is_none")]
    test_note: Option<String>,
}

/// The trees and screens the steps drew, each kept once and named by its index.
#[derive(Default)]
struct Drawn {
    trees: Vec<Vec<Entry>>,
    screens: Vec<Vec<String>>,
}

impl Drawn {
    fn tree(&mut self, tree: &taria_schema::Tree) -> usize {
        self.trees.push(entries(tree));
        self.trees.len() - 1
    }

    fn screen(&mut self, rows: &[String]) -> usize {
        self.screens.push(rows.to_vec());
        self.screens.len() - 1
    }
}

/// Each input's step as `taria-mcp test-from` writes it ([`step_line`]), from the
/// tree before it, with no `--secret`s: a redacted input's line sends `""` and says
/// why.
#[derive(Default)]
struct TestLines<'r> {
    /// The newest tree drawn before the line being read.
    previous: Option<&'r Tree>,
    secrets: Secrets<String>,
    uses: Uses,
}

impl<'r> TestLines<'r> {
    /// After `line`: the tree it drew, if any, is the one before the next input.
    fn after(&mut self, line: &'r RecordedLine) {
        let drew = match line {
            RecordedLine::Tree(t) => Some(&t.tree),
            RecordedLine::Input(input) => input.tree.as_ref(),
            RecordedLine::Resize(resize) => resize.tree.as_ref(),
            _ => None,
        };
        if drew.is_some() {
            self.previous = drew;
        }
    }

    /// `input`'s line and its note; a dropped input has no line (test-from writes
    /// none), only the note.
    fn line(&mut self, input: &'r RecordedInput) -> (Option<String>, Option<String>) {
        let dropped = input
            .ack
            .as_ref()
            .is_some_and(|ack| ack.status == AckStatus::Dropped);
        let empty = Tree::default();
        let previous = self.previous.unwrap_or(&empty);
        let written = (!dropped)
            .then(|| step_line(input, previous, false, &mut self.secrets, &mut self.uses));
        match written {
            Some(StepLine { code, missing }) => (Some(unindented(&code)), missing),
            None => (
                None,
                Some("dropped (the input queue was full): test-from writes no step for it".into()),
            ),
        }
    }
}

/// A statement of a test's body as it stands alone: its lines without the body's
/// indentation, and without the last newline.
fn unindented(code: &str) -> String {
    code.lines()
        .map(|line| line.strip_prefix("    ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("\n")
}

impl Viewed {
    /// The recording in `text`, or why it cannot be read (the line and what is wrong).
    pub(super) fn parse(text: &str) -> Result<Viewed, String> {
        Recording::parse(text)
            .map(Viewed::new)
            .map_err(|e| e.to_string())
    }

    /// The viewer's form of `recording`.
    pub(super) fn new(recording: Recording) -> Viewed {
        let header = recording.header;
        let mut drawn = Drawn::default();
        let mut test = TestLines::default();
        let steps = recording
            .lines
            .iter()
            .map(|line| {
                let step = Viewed::step(line, &mut drawn, &mut test);
                test.after(line);
                step
            })
            .collect();
        Viewed {
            app: header.app,
            size: [header.size.width, header.size.height],
            mode: wire_name(&header.mode),
            taria: header.taria,
            steps,
            trees: drawn.trees,
            screens: drawn.screens,
        }
    }

    /// The viewer's step for `line`, its tree and screen kept in `drawn`.
    fn step<'r>(line: &'r RecordedLine, drawn: &mut Drawn, test: &mut TestLines<'r>) -> Step {
        match line {
            RecordedLine::Tree(t) => Step {
                kind: "tree",
                title: "tree".to_owned(),
                revision: Some(t.revision),
                tree: Some(drawn.tree(&t.tree)),
                screen: t.screen.as_ref().map(|rows| drawn.screen(rows)),
                ..Step::default()
            },
            RecordedLine::Input(input) => {
                let (test_line, test_note) = test.line(input);
                Step {
                    kind: "input",
                    title: input.input.to_string(),
                    input_number: Some(input.step),
                    call: Some(input.call),
                    tool: Some(wire_name(&input.tool)),
                    status: input.ack.as_ref().map(|ack| wire_name(&ack.status)),
                    reason: input
                        .ack
                        .as_ref()
                        .and_then(|a| a.reason)
                        .map(|r| wire_name(&r)),
                    message: input.ack.as_ref().and_then(|ack| ack.message.clone()),
                    revision: input.revision,
                    tree: input.tree.as_ref().map(|t| drawn.tree(t)),
                    screen: input.screen.as_ref().map(|rows| drawn.screen(rows)),
                    answered_in_us: input.answered_in_us,
                    test_line,
                    test_note,
                    ..Step::default()
                }
            }
            RecordedLine::Read(read) => Step {
                kind: "read",
                title: read.tool.clone(),
                tool: Some(read.tool.clone()),
                call: Some(read.call),
                arguments: Some(Json::Object(read.arguments.clone())),
                revision: Some(read.revision),
                ..Step::default()
            },
            RecordedLine::App(app) => Step {
                kind: "app",
                title: format!("app {}", wire_name(&app.event)),
                message: match (app.exit(), &app.message) {
                    (Some(exit), Some(message)) => Some(format!("{message}: {exit}")),
                    (exit, message) => exit.or_else(|| message.clone()),
                },
                ..Step::default()
            },
            RecordedLine::Resize(resize) => Step {
                kind: "resize",
                title: format!("resize {}x{}", resize.size.width, resize.size.height),
                call: Some(resize.call),
                revision: resize.revision,
                tree: resize.tree.as_ref().map(|t| drawn.tree(t)),
                ..Step::default()
            },
            RecordedLine::Refused(refused) => Step {
                kind: "refused",
                title: format!("refused {}", wire_name(&refused.tool)),
                call: Some(refused.call),
                tool: Some(wire_name(&refused.tool)),
                arguments: Some(Json::Object(refused.arguments.clone())),
                reason: Some(refused.code.clone()),
                message: refused.message.clone(),
                ..Step::default()
            },
            RecordedLine::Log(log) => Step {
                kind: "log",
                title: format!("log {}", wire_name(&log.level)),
                input_number: log.step,
                message: Some(format!("{}: {}", log.target, log.message)),
                ..Step::default()
            },
            // A line of a later release: shown by its kind.
            other => Step {
                kind: "other",
                title: serde_json::to_value(other)
                    .ok()
                    .and_then(|v| v.get("kind").and_then(Json::as_str).map(str::to_owned))
                    .unwrap_or_else(|| "line".to_owned()),
                ..Step::default()
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_is_a_step_and_every_tree_is_its_outline() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../examples/todo/recordings/add-complete-delete.jsonl"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let viewed = Viewed::parse(&text).unwrap();
        let recording = Recording::parse(&text).unwrap();
        assert_eq!(viewed.app, "todo");
        assert_eq!(viewed.steps.len(), recording.lines.len());
        assert_eq!(viewed.steps[0].kind, "tree");
        let inputs: Vec<&Step> = viewed.steps.iter().filter(|s| s.kind == "input").collect();
        assert_eq!(inputs.len(), recording.inputs().count());
        for (step, input) in inputs.iter().zip(recording.inputs()) {
            assert_eq!(step.title, input.input.to_string());
            let shown = step.tree.map(|i| &viewed.trees[i]);
            assert_eq!(shown, input.tree.as_ref().map(entries).as_ref());
            let screen = step.screen.map(|i| &viewed.screens[i]);
            assert_eq!(screen, input.screen.as_ref());
        }
        assert!(
            viewed.screens.len() >= 2,
            "the todo recording keeps its screens"
        );
    }

    /// Issue 34.2: each input's step is offered as the line `taria-mcp test-from`
    /// wrote for it in the committed test of the same recording.
    #[test]
    fn each_input_is_offered_as_the_line_test_from_wrote_for_it() {
        let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples/todo/");
        let text =
            std::fs::read_to_string(format!("{root}recordings/add-complete-delete.jsonl")).unwrap();
        let generated =
            std::fs::read_to_string(format!("{root}replay_add_complete_delete.rs")).unwrap();
        let viewed = Viewed::parse(&text).unwrap();
        let lines: Vec<&str> = viewed
            .steps
            .iter()
            .filter(|step| step.kind == "input")
            .map(|step| step.test_line.as_deref().expect("an input has its line"))
            .collect();
        assert_eq!(lines.len(), 7);
        assert_eq!(
            lines[2],
            "h.step(3, &rules)\n    .seen(Role::ListItem, \"ship v0\")\n    .act(\"tasks/4\", \"toggle\")?;"
        );
        for line in lines {
            let indented: Vec<String> = line.lines().map(|l| format!("    {l}\n")).collect();
            assert!(
                generated.contains(&indented.concat()),
                "not in the generated test:\n{line}"
            );
        }
        assert!(viewed.steps.iter().all(|step| step.test_note.is_none()));
    }

    #[test]
    fn a_file_that_is_not_a_recording_says_what_is_wrong() {
        let error = Viewed::parse("{\"hello\":1}\n").unwrap_err();
        assert!(error.contains("not a taria recording"), "{error}");
        assert!(Viewed::parse("").unwrap_err().contains("empty"));
    }
}
