//! `find_nodes`: the nodes matching every filter given (the filters
//! `wait_for_change` shares are [`super::filters`]), each as its outline line.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria_schema::{Node, StateFlags, Tree};

use super::args;
use super::filters::{Custom, Filters};
use super::reply::{ForModel, compact};
use crate::errors::ToolError;
use crate::link::Link;
use crate::plural::count;
use crate::seen::Seen;

/// A checked state in `find_nodes` matches: `true`, `false`, or `"mixed"`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub(crate) enum CheckedState {
    /// Checked or not.
    Set(bool),
    /// Partly checked.
    Mixed(Mixed),
}

/// The one value of a partly checked state.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Mixed {
    /// `"mixed"`.
    Mixed,
}

impl From<taria_schema::Checked> for CheckedState {
    fn from(checked: taria_schema::Checked) -> CheckedState {
        match checked {
            taria_schema::Checked::True => CheckedState::Set(true),
            taria_schema::Checked::False => CheckedState::Set(false),
            taria_schema::Checked::Mixed => CheckedState::Mixed(Mixed::Mixed),
        }
    }
}

/// `find_nodes` arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct FindNodesArgs {
    /// e.g. `button`, `list_item`.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) role: Option<String>,
    /// Part of the label (any case).
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) label: Option<String>,
    // Part of the value, any case (beside label, its name says it: undescribed).
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) value: Option<String>,
    // The exact id.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) id: Option<String>,
    /// An action it offers.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) action: Option<String>,
    /// Flags, e.g. `selected`.
    #[serde(default, deserialize_with = "args::names")]
    pub(crate) state: Vec<String>,
    /// Default 50.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) limit: Option<usize>,
}

impl FindNodesArgs {
    /// The filters given.
    pub(crate) fn filters(&self) -> Filters<'_> {
        Filters {
            role: self.role.as_deref(),
            label: self.label.as_deref(),
            value: self.value.as_deref(),
            id: self.id.as_deref(),
            action: self.action.as_deref(),
            state: &self.state,
        }
    }
}

/// One node found.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct NodeMatch {
    /// The match as the model reads it: the node's outline line, then its parent
    /// and its valueSchema (not in `structuredContent`, which has the fields).
    #[serde(skip)]
    pub(crate) line: String,
    /// The node's id.
    pub(crate) id: String,
    /// Its parent's id.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) parent_id: Option<String>,
    /// Its role.
    pub(crate) role: String,
    /// Its custom role, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) custom_role: Option<String>,
    /// Its label (untrusted app text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) label: Option<String>,
    /// Its value (untrusted app text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) value: Option<Json>,
    /// The actions it offers now.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) actions: Vec<String>,
    /// Its state flags.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) state: Vec<String>,
    /// `true`, `false` or `"mixed"` for checkable nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) checked: Option<CheckedState>,
    /// `true` when open, `false` when closed, for nodes that expand.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) expanded: Option<bool>,
    /// Its place: `index` among its siblings' items, `count`, tree `level`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) position: Option<Json>,
    /// What part of its content is shown: `offset`, `content`, `viewport`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) scroll: Option<Json>,
    /// Why its value is invalid, when the app says (untrusted app text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) invalid_message: Option<String>,
    /// For a redacted node holding a value: its length in characters (the value is
    /// never sent).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) redacted_length: Option<u32>,
    /// The values `set_value` accepts (type, range, options), for nodes offering it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) value_schema: Option<Json>,
    /// Whether the id names a position (may name another node after a change).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub(crate) positional: bool,
}

/// `find_nodes` result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct FindNodesResult {
    /// The revision searched.
    pub(crate) revision: u64,
    /// How many nodes match in all.
    pub(crate) total: usize,
    /// The matches, depth first (at most `limit`).
    pub(crate) matches: Vec<NodeMatch>,
}

/// `find_nodes`.
pub(crate) async fn find_nodes(
    link: &Link,
    seen: &Seen,
    args: FindNodesArgs,
) -> Result<FindNodesResult, ToolError> {
    let view = link.view().await?;
    let tree = &view.tree;
    let query = args.filters().query(tree, Custom::Seen)?;
    let limit = args.limit.unwrap_or(50).clamp(1, 500);
    let parents = parent_ids(tree);
    let found = tree.find_all(&query);
    seen.saw(&view.tree);
    let matches = found
        .iter()
        .take(limit)
        .map(|node| node_match(node, parents.get(node.id.as_str()).copied()))
        .collect();
    Ok(FindNodesResult {
        revision: view.revision,
        total: found.len(),
        matches,
    })
}

fn parent_ids(tree: &Tree) -> std::collections::HashMap<&str, &str> {
    let mut parents = std::collections::HashMap::new();
    for node in tree.iter() {
        for child in &node.children {
            parents.insert(child.id.as_str(), node.id.as_str());
        }
    }
    parents
}

fn node_match(node: &Node, parent: Option<&str>) -> NodeMatch {
    let flags = node.state.flags();
    let mut line = node.outline_line();
    if let Some(parent) = parent {
        let _ = write!(
            line,
            " parent={}",
            taria_schema::outline::OutlineName(parent)
        );
    }
    if let Some(schema) = &node.value_schema {
        let _ = write!(line, " valueSchema={}", compact(schema));
    }
    NodeMatch {
        line,
        id: node.id.to_string(),
        parent_id: parent.map(str::to_owned),
        role: node.role.name().to_owned(),
        custom_role: node.custom_role.clone(),
        label: node.label.clone(),
        value: node
            .value
            .as_ref()
            .and_then(|v| serde_json::to_value(v).ok()),
        actions: node.actions.iter().map(|a| a.as_str().to_owned()).collect(),
        state: StateFlags::NAMED
            .iter()
            .filter(|(f, _)| flags.contains(*f))
            .map(|(_, n)| (*n).to_owned())
            .collect(),
        checked: node.state.checked.map(CheckedState::from),
        positional: !node.stable,
        expanded: node.state.expanded,
        position: (!node.position.is_empty())
            .then(|| serde_json::to_value(node.position).ok())
            .flatten(),
        scroll: node.scroll.and_then(|s| serde_json::to_value(s).ok()),
        invalid_message: node.state.invalid_message.clone(),
        redacted_length: node.redacted_length,
        value_schema: node
            .value_schema
            .as_ref()
            .and_then(|schema| serde_json::to_value(schema).ok()),
    }
}

impl ForModel for FindNodesResult {
    fn for_model(&self) -> String {
        let mut out = format!(
            "revision {}, {} of {}",
            self.revision,
            self.matches.len(),
            count(self.total, "match", "matches")
        );
        for found in &self.matches {
            out.push('\n');
            out.push_str(&found.line);
        }
        out
    }
}

/// The `find_nodes` tool.
pub(crate) struct FindNodes;

impl super::Tool for FindNodes {
    const NAME: &'static str = "find_nodes";
    const DESCRIPTION: &'static str = "Finds nodes matching all filters.";
    const KIND: super::Kind = super::Kind::Read;
    const READ_THE_REST: &'static str = "narrow the filters, or give a smaller limit";
    type Args = FindNodesArgs;
    type Result = FindNodesResult;

    fn annotations() -> Option<rmcp::model::ToolAnnotations> {
        Some(rmcp::model::ToolAnnotations::new().read_only(true))
    }

    async fn run(cx: super::Cx<'_>, args: FindNodesArgs) -> Result<FindNodesResult, ToolError> {
        find_nodes(cx.link, cx.seen, args).await
    }
}
