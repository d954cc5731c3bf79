//! The reading tools: `read_tree` (the tree, or with `format: screen` the screen's
//! text) and `find_nodes` (and the filters `wait_for_change` shares), and the
//! `taria://tree` resource's text.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria_schema::{Node, StateFlags, Tree};

use super::filters::{Custom, Filters};
use super::{UNTRUSTED, args};
use crate::errors::{Code, ToolError};
use crate::link::{Link, View};
use crate::plural;
use crate::render::{self, Format};
use crate::seen::Seen;

/// `read_tree` arguments.
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct ReadTreeArgs {
    /// Default outline.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) format: Option<FormatArg>,
    /// Only this subtree.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) root: Option<String>,
    /// Levels (0: all).
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) depth: Option<usize>,
    /// json: add bounds.
    #[serde(default, deserialize_with = "args::flag")]
    pub(crate) bounds: bool,
}

/// The tree's form.
#[derive(Clone, Copy, Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub(crate) enum FormatArg {
    /// One line per node: `- role "label": value [id=…] [state] {actions}`; a parent's
    /// `children{…}` are actions every child offers too; a tree item without
    /// `[level=…]` is at level 1. Quoted text is a JSON string, and so is an id or name
    /// with spaces or symbols (`[id="notes/a b"]`).
    Outline,
    /// The nodes as JSON: the outline's information as fields (defaults left out,
    /// actions every child offers listed once on the parent as `childActions`, a tree
    /// item's `position.level` of 1 left out). `find_nodes` gives a node's every field.
    Json,
    /// The screen's text, one row per line, as drawn: for parts without semantics.
    Screen,
}

/// `read_tree` result: the tree, or the screen.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum ReadResult {
    /// Format `outline` or `json`.
    Tree(ReadTreeResult),
    /// Format `screen`.
    Screen(ReadScreenResult),
}

/// `read_tree` result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReadTreeResult {
    /// The tree's revision: pass it to `wait_for_change` as `since`.
    pub(crate) revision: u64,
    /// The focused node's id, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) focused: Option<String>,
    /// Nodes in the whole tree.
    pub(crate) node_count: usize,
    /// Nodes shown here.
    pub(crate) shown: usize,
    /// Nodes left out to stay small (see `truncated`).
    #[serde(skip_serializing_if = "is_zero")]
    pub(crate) omitted: usize,
    /// The outline (format `outline`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) outline: Option<String>,
    /// The nodes (format `json`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) tree: Option<Vec<Json>>,
    /// What was left out to stay small, and how to see it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) truncated: Option<String>,
    /// Problems the app's recorder noticed (duplicate ids, too deep…).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) diagnostics: Vec<Json>,
}

#[expect(
    clippy::trivially_copy_pass_by_ref,
    reason = "serde's skip_serializing_if passes a reference"
)]
fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// `read_tree`.
pub(crate) async fn read_tree(
    link: &Link,
    seen: &Seen,
    args: ReadTreeArgs,
) -> Result<ReadResult, ToolError> {
    let format = match args.format {
        Some(FormatArg::Screen) => {
            if args.root.is_some() || args.depth.is_some() || args.bounds {
                return Err(ToolError::invalid(
                    "format screen reads the whole screen: root, depth and bounds are for the \
                     tree's formats (outline, json)",
                ));
            }
            return read_screen(link).await.map(ReadResult::Screen);
        }
        Some(FormatArg::Json) => Format::Json {
            bounds: args.bounds,
        },
        Some(FormatArg::Outline) | None => Format::Outline,
    };
    let view = link.view().await?;
    let roots: Vec<&Node> = match &args.root {
        Some(id) => vec![find(&view, id)?],
        None => view.tree.roots.iter().collect(),
    };
    let shown = render::render(&roots, format, args.depth, render::MAX_CHARS);
    seen.saw(&view.tree);
    Ok(ReadResult::Tree(ReadTreeResult {
        revision: view.revision,
        focused: view.tree.focused().map(|n| n.id.to_string()),
        node_count: view.tree.len(),
        shown: shown.shown,
        omitted: shown.omitted,
        outline: shown.outline,
        tree: shown.json,
        truncated: shown.truncated,
        diagnostics: view
            .tree
            .diagnostics
            .iter()
            .filter_map(|d| serde_json::to_value(d).ok())
            .collect(),
    }))
}

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

/// The node `id` in the view, or `not_found`.
///
/// An id copied with the quotes the outline writes around an id that is not plain
/// (`"notes/a b"`) is read as the JSON string it is, first: the outline writes any
/// id holding a `"` quoted, so a quoted form names the decoded id, not one whose
/// text has the quotes in it (tried after).
pub(crate) fn find<'t>(view: &'t View, id: &str) -> Result<&'t Node, ToolError> {
    let unquoted = serde_json::from_str::<String>(id)
        .ok()
        .and_then(|id| view.tree.get(&id));
    unquoted.or_else(|| view.tree.get(id)).ok_or_else(|| {
        ToolError::new(
            Code::NotFound,
            format!(
                "no node has id `{id}` in revision {}; ids are exact: use find_nodes (by \
                 role/label) or read_tree to get the current ones",
                view.revision
            ),
        )
    })
}

/// The `taria://tree` resource: the outline with a header, capped like `read_tree`.
pub(crate) async fn tree_text(link: &Link) -> Result<String, ToolError> {
    let view = link.view().await?;
    let roots: Vec<&Node> = view.tree.roots.iter().collect();
    let shown = render::render(&roots, Format::Outline, None, render::MAX_CHARS);
    let mut text = format!(
        "# revision {} ({}). {UNTRUSTED}\n",
        view.revision,
        plural::count(view.tree.len(), "node", "nodes")
    );
    if let Some(truncated) = shown.truncated {
        text.push_str("# ");
        text.push_str(&truncated);
        text.push('\n');
    }
    text.push_str(&shown.outline.unwrap_or_default());
    Ok(text)
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
        let _ = write!(line, " valueSchema={}", super::text::compact(schema));
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

/// `read_tree`'s result with `format: screen`.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReadScreenResult {
    /// The revision of the tree drawn in the same frame (0: the app has drawn none
    /// since taria-mcp connected; the rows are its terminal's).
    pub(crate) revision: u64,
    /// Width in columns.
    pub(crate) cols: u16,
    /// The screen's text, one string per row, trailing spaces removed.
    pub(crate) rows: Vec<String>,
    /// Where the rows come from, when not from a frame the app drew.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

/// `read_tree` with `format: screen`: the screen's text. In spawn mode, from an app
/// that has drawn no frame since taria-mcp connected (the error says why), the text of
/// its terminal as it shows now, saying so.
async fn read_screen(link: &Link) -> Result<ReadScreenResult, ToolError> {
    let screen = match link.screen().await {
        Ok(screen) => screen,
        Err(error) => {
            let shown = (error.code == Code::Timeout)
                .then(|| link.spawned_app().and_then(|app| app.screen_text()))
                .flatten();
            let Some((cols, rows)) = shown else {
                return Err(error);
            };
            return Ok(ReadScreenResult {
                revision: 0,
                cols,
                rows,
                note: Some(format!(
                    "its terminal as it shows now, not a frame taria recorded: {}",
                    error.message
                )),
            });
        }
    };
    let mut screen = screen;
    for row in &mut screen.rows {
        row.truncate(row.trim_end_matches(' ').len());
    }
    let size: usize = screen.rows.iter().map(String::len).sum();
    if size > render::MAX_CHARS {
        return Err(ToolError::new(
            Code::TooLarge,
            format!(
                "the screen text is {size} bytes (over {}); use read_tree with format outline \
                 or json, or find_nodes, instead",
                render::MAX_CHARS
            ),
        ));
    }
    Ok(ReadScreenResult {
        revision: screen.revision,
        cols: screen.cols,
        rows: screen.rows,
        note: None,
    })
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::find;
    use crate::link::View;

    /// An id pasted as the outline writes it (quoted, because it holds a space) names
    /// that node, even when another node's id is that quoted text itself.
    #[test]
    fn a_quoted_id_names_the_node_the_outline_wrote_it_for() {
        let mut tree = taria_schema::Tree::default();
        for id in ["notes/a b", "\"notes/a b\""] {
            let mut node = taria_schema::Node::default();
            node.id = id.into();
            tree.roots.push(node);
        }
        let view = View {
            tree: Arc::new(tree),
            revision: 1,
        };
        let quoted = taria_schema::outline::OutlineName("notes/a b").to_string();
        assert_eq!(quoted, "\"notes/a b\"");
        assert_eq!(find(&view, &quoted).unwrap().id.as_str(), "notes/a b");
        assert_eq!(find(&view, "notes/a b").unwrap().id.as_str(), "notes/a b");
    }
}
