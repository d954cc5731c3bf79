//! A `--record` file as the page's recording viewer steps through it: one step per
//! line after the header (the first tree, each input with its ack and the tree drawn
//! after it, the agent's reads, the app's exits), and each tree as outline entries,
//! which the page compares step by step. Read from the command line (`taria-mcp view
//! FILE`) or from a file the page sends.

use serde::Serialize;
use serde_json::Value as Json;
use taria_schema::protocol::wire_name;
use taria_schema::recording::{RecordedLine, Recording};

use super::outline::{Entry, entries};

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
        let steps = recording
            .lines
            .iter()
            .map(|line| match line {
                RecordedLine::Tree(t) => Step {
                    kind: "tree",
                    title: "tree".to_owned(),
                    revision: Some(t.revision),
                    tree: Some(drawn.tree(&t.tree)),
                    screen: t.screen.as_ref().map(|rows| drawn.screen(rows)),
                    ..Step::default()
                },
                RecordedLine::Input(input) => Step {
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
                    ..Step::default()
                },
                RecordedLine::Read(read) => Step {
                    kind: "read",
                    title: read.tool.clone(),
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

    #[test]
    fn a_file_that_is_not_a_recording_says_what_is_wrong() {
        let error = Viewed::parse("{\"hello\":1}\n").unwrap_err();
        assert!(error.contains("not a taria recording"), "{error}");
        assert!(Viewed::parse("").unwrap_err().contains("empty"));
    }
}
