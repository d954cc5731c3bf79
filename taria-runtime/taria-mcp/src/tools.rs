//! The tools, one file each (`read_tree.rs`, `act.rs`, …): its arguments, what it
//! does and its result's text for the model. Below them, what they share: the reply
//! ([`reply`]), argument helpers ([`args`]), the filters of `find_nodes` and
//! `wait_for_change` ([`filters`]), finding a node by id ([`lookup`]), the input tools'
//! checks, answers and result ([`input`]) and what an input changed ([`change`]).
//! `server.rs` only routes to them.

pub(crate) mod act;
pub(crate) mod args;
pub(crate) mod batch;
pub(crate) mod change;
pub(crate) mod filters;
pub(crate) mod find_nodes;
pub(crate) mod input;
pub(crate) mod lookup;
pub(crate) mod press_key;
pub(crate) mod read_logs;
pub(crate) mod read_tree;
pub(crate) mod reply;
pub(crate) mod resize;
pub(crate) mod type_text;
pub(crate) mod wait_for_change;

use std::future::Future;
use std::pin::Pin;

use rmcp::model::ToolAnnotations;
use schemars::JsonSchema;
use serde::Serialize;
use serde::de::DeserializeOwned;
use taria_schema::recording::InputTool;

use crate::errors::ToolError;
use crate::link::{Inputs, Link};
use crate::order::Turn;
use crate::seen::Seen;
use reply::ForModel;

/// Every tool, in the order `tools/list` shows them. Adding a tool is its file (a
/// type that implements [`Tool`]) and one line here; the server's routes, the
/// arrival order of input calls and the hint for a cut result all read this list.
pub(crate) fn register(tools: &mut impl Registry) {
    tools.add::<read_tree::ReadTree>();
    tools.add::<find_nodes::FindNodes>();
    tools.add::<act::Act>();
    tools.add::<type_text::TypeText>();
    tools.add::<press_key::PressKey>();
    tools.add::<batch::Batch>();
    tools.add::<wait_for_change::WaitForChange>();
    tools.add::<read_logs::ReadLogs>();
    tools.add::<resize::Resize>();
}

/// What goes through the list of tools ([`register`]): the server building its
/// routes, or a question about the tools by name.
pub(crate) trait Registry {
    /// Takes one tool.
    fn add<T: Tool>(&mut self);
}

/// One tool: what `tools/list` shows of it, how its call runs, and what it does.
pub(crate) trait Tool: 'static {
    /// Its name, in `tools/list` and in calls: the one place it is written.
    const NAME: &'static str;
    /// What `tools/list` says it does (one line: the list is read every turn).
    const DESCRIPTION: &'static str;
    /// How its call runs.
    const KIND: Kind;
    /// How to read what a long result of it had to leave out (`server/deliver.rs`).
    const READ_THE_REST: &'static str =
        "read_tree with root and depth, or find_nodes, reads the tree part by part";
    /// Its arguments, whose schema `tools/list` shows (`server/schema.rs` slims it).
    type Args: DeserializeOwned + JsonSchema + Send;
    /// Its result: structured content, and the text the model reads.
    type Result: Serialize + ForModel + Send;

    /// Its annotations in `tools/list` (none by default).
    fn annotations() -> Option<ToolAnnotations> {
        None
    }

    /// Does the call.
    fn run(
        cx: Cx<'_>,
        args: Self::Args,
    ) -> impl Future<Output = Result<Self::Result, ToolError>> + Send;
}

/// How a tool's call runs, which the server arranges before [`Tool::run`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// A read: a recording notes it (as a `read` line, its tool) when it succeeds.
    Read,
    /// Sends inputs: the call takes its turn in arrival order (`order.rs`), and is
    /// recorded and logged as this input tool.
    Input(InputTool),
    /// Takes its turn in arrival order, as an input does, but sends none (`resize`:
    /// resizes sent at once end at the last size).
    Ordered,
}

impl Kind {
    /// Whether the call takes a turn in arrival order.
    pub(crate) fn takes_turn(self) -> bool {
        !matches!(self, Kind::Read)
    }
}

/// What a tool's call is given: the app's link, the inputs on their way, what the
/// agent saw, the call's turn (for a tool whose [`Kind`] takes one) and its
/// cancellation.
pub(crate) struct Cx<'a> {
    pub(crate) link: &'a Link,
    pub(crate) inputs: &'a Inputs,
    pub(crate) seen: &'a Seen,
    pub(crate) turn: Option<&'a mut Turn>,
    /// Ends when the client cancels the call.
    pub(crate) cancelled: Pin<Box<dyn Future<Output = ()> + Send>>,
}

impl Cx<'_> {
    /// The call's turn in arrival order; for a tool whose [`Kind`] takes no turn (a
    /// bug in its `impl Tool`), an `internal` error saying so.
    pub(crate) fn turn(&mut self) -> Result<&mut Turn, ToolError> {
        self.turn.as_deref_mut().ok_or_else(|| {
            ToolError::new(
                crate::errors::Code::Internal,
                "this tool asked for a turn in arrival order, but its Kind takes none (a bug \
                 in taria-mcp: please report it)",
            )
        })
    }
}

/// Whether a call of the tool named `name` takes a turn in arrival order (false for
/// a name that is no tool's).
pub(crate) fn takes_turn(name: &str) -> bool {
    find(name).is_some_and(|(kind, _)| kind.takes_turn())
}

/// How to read what a long result of the tool named `name` had to leave out.
pub(crate) fn read_the_rest(name: &str) -> &'static str {
    find(name).map_or(
        "read_tree with root and depth, or find_nodes, reads the tree part by part",
        |(_, hint)| hint,
    )
}

/// The kind and the cut hint of the tool named `name`.
fn find(name: &str) -> Option<(Kind, &'static str)> {
    struct Find<'n>(&'n str, Option<(Kind, &'static str)>);
    impl Registry for Find<'_> {
        fn add<T: Tool>(&mut self) {
            if T::NAME == self.0 {
                self.1 = Some((T::KIND, T::READ_THE_REST));
            }
        }
    }
    let mut found = Find(name, None);
    register(&mut found);
    found.1
}

#[cfg(test)]
mod registry_tests {
    use super::{Kind, Registry, Tool, register};

    /// The tools as [`register`] lists them: name and kind.
    fn listed() -> Vec<(&'static str, Kind)> {
        struct Names(Vec<(&'static str, Kind)>);
        impl Registry for Names {
            fn add<T: Tool>(&mut self) {
                self.0.push((T::NAME, T::KIND));
            }
        }
        let mut names = Names(Vec::new());
        register(&mut names);
        names.0
    }

    /// Each tool once; an input tool is recorded under its own name (the recording's
    /// `tool`, which `test-from` reads back); the calls that take a turn in arrival
    /// order are the input tools' and resize's.
    #[test]
    fn each_tool_is_listed_once_and_an_input_tool_is_recorded_by_its_name() {
        let tools = listed();
        let mut names: Vec<&str> = tools.iter().map(|(name, _)| *name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), tools.len(), "{tools:?}");
        for (name, kind) in &tools {
            if let Kind::Input(tool) = kind {
                assert_eq!(taria_schema::protocol::wire_name(tool), *name);
            }
        }
        let turns: Vec<&str> = tools
            .iter()
            .filter(|(name, _)| super::takes_turn(name))
            .map(|(name, _)| *name)
            .collect();
        assert_eq!(turns, ["act", "type_text", "press_key", "batch", "resize"]);
        assert!(!super::takes_turn("no_such_tool"));
    }
}

#[cfg(test)]
mod tests {
    //! The tools' argument parsing, fuzzed: any JSON object an MCP client sends is
    //! read or refused with a message, never a panic (`TARIA_FUZZ_CASES` for more);
    //! and a tool that asks for a turn it has none of.

    use proptest::collection::vec;
    use proptest::prelude::*;
    use serde_json::{Map, Value as Json};

    use super::act::ActArgs;
    use super::find_nodes::FindNodesArgs;
    use super::press_key::PressKeyArgs;
    use super::read_logs::ReadLogsArgs;
    use super::read_tree::ReadTreeArgs;
    use super::reply::parse;
    use super::resize::ResizeArgs;
    use super::type_text::TypeTextArgs;
    use super::wait_for_change::WaitArgs;

    /// Every argument name the tools take, and a few they do not.
    const NAMES: &[&str] = &[
        "format",
        "root",
        "depth",
        "bounds",
        "role",
        "label",
        "id",
        "action",
        "state",
        "limit",
        "since",
        "timeout_ms",
        "node",
        "value",
        "direction",
        "amount",
        "text",
        "key",
        "repeat",
        "cols",
        "rows",
        "timeoutMs",
        "gone",
        "level",
        "_meta",
        "",
    ];

    fn json() -> impl Strategy<Value = Json> {
        let leaf = prop_oneof![
            Just(Json::Null),
            any::<bool>().prop_map(Json::from),
            any::<i64>().prop_map(Json::from),
            any::<u64>().prop_map(Json::from),
            any::<f64>().prop_map(Json::from),
            prop::sample::select(
                &[
                    "outline", "json", "yaml", "button", "selected", "down", "ctrl+s", "", "\u{0}"
                ][..]
            )
            .prop_map(Json::from),
            any::<String>().prop_map(Json::from),
        ];
        leaf.prop_recursive(3, 24, 4, |inner| {
            prop_oneof![
                vec(inner.clone(), 0..4).prop_map(Json::Array),
                vec((prop::sample::select(NAMES), inner), 0..4).prop_map(|fields| {
                    Json::Object(fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
                }),
            ]
        })
    }

    fn arguments() -> impl Strategy<Value = Map<String, Json>> {
        vec((prop::sample::select(NAMES), json()), 0..5)
            .prop_map(|fields| fields.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
    }

    fn parses_or_explains<T: serde::de::DeserializeOwned + std::fmt::Debug>(
        args: &Map<String, Json>,
    ) -> Option<T> {
        match parse::<T>(args.clone()) {
            Ok(parsed) => Some(parsed),
            Err(e) => {
                assert!(
                    e.message.contains("see the tool's input schema"),
                    "{}",
                    e.message
                );
                None
            }
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: std::env::var("TARIA_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256),
            ..ProptestConfig::default()
        })]

        #[test]
        fn any_arguments_are_read_or_refused(args in arguments()) {
            let _ = parses_or_explains::<ReadTreeArgs>(&args);
            let _ = parses_or_explains::<FindNodesArgs>(&args);
            let _ = parses_or_explains::<WaitArgs>(&args);
            let _ = parses_or_explains::<ActArgs>(&args);
            let _ = parses_or_explains::<TypeTextArgs>(&args);
            let _ = parses_or_explains::<ResizeArgs>(&args);
            let _ = parses_or_explains::<ReadLogsArgs>(&args);
            if let Some(press) = parses_or_explains::<PressKeyArgs>(&args) {
                let _ = press.key.parse::<taria_schema::protocol::KeyChord>();
            }
        }
    }

    #[tokio::test]
    async fn a_tool_without_a_turn_that_asks_for_one_gets_an_internal_error() {
        let link = crate::link::Link::new(
            crate::link::Target::Attach(std::path::PathBuf::from("/nonexistent/taria.sock")),
            None,
            crate::link::Activity::default(),
            None,
        );
        let inputs = super::Inputs::new(link.clone());
        let seen = crate::seen::Seen::default();
        let mut cx = super::Cx {
            link: &link,
            inputs: &inputs,
            seen: &seen,
            turn: None,
            cancelled: Box::pin(std::future::pending()),
        };
        let error = cx.turn().err().expect("no turn to give");
        assert_eq!(error.code, crate::errors::Code::Internal);
        assert!(error.message.contains("takes none"), "{}", error.message);
    }
}
