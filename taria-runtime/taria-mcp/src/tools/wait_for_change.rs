//! `wait_for_change`: until the tree changes after a revision, or until a node
//! matching `find_nodes`' filters is drawn (or, `gone`, none is), answering with the
//! tree at that moment, or on timeout saying what it last saw.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use taria_schema::{Node, Role};

use super::args;
use super::filters::{Custom, Filters};
use super::reply::{ForModel, one_line, push_block, push_cut};
use crate::errors::{Code, ToolError};
use crate::link::{Link, View};
use crate::plural::count;
use crate::render::{self, Format};
use crate::seen::Seen;

/// The longest wait, in milliseconds.
const MAX_WAIT_MS: u64 = 60_000;

/// The wait when none is given, in milliseconds.
const DEFAULT_WAIT_MS: u64 = 10_000;

/// `wait_for_change` arguments: `since`, or `find_nodes`' filters (the tool's
/// description says so: theirs are undescribed, to keep `tools/list` small).
#[derive(Debug, Default, Deserialize, JsonSchema)]
pub(crate) struct WaitArgs {
    /// A revision from a result.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) since: Option<u64>,
    /// Default 10000, max 60000.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) timeout_ms: Option<u64>,
    // find_nodes' filters.
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) role: Option<String>,
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) label: Option<String>,
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) value: Option<String>,
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) id: Option<String>,
    #[serde(default, deserialize_with = "args::optional")]
    pub(crate) action: Option<String>,
    #[serde(default, deserialize_with = "args::names")]
    pub(crate) state: Vec<String>,
    /// Until none matches.
    #[serde(default, deserialize_with = "args::flag")]
    pub(crate) gone: bool,
}

impl WaitArgs {
    /// The filters given.
    fn filters(&self) -> Filters<'_> {
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

/// `wait_for_change` result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct WaitResult {
    /// Whether the tree changed after `since` (a wait for a change), or the node
    /// waited for is drawn, or gone (a wait for a node).
    pub(crate) changed: bool,
    /// The current revision.
    pub(crate) revision: u64,
    /// For a wait for a node: how many match the filters in this tree.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) matches: Option<usize>,
    /// For a wait for a node: what was waited for (`role=row state=["selected"]`,
    /// `gone` when waiting for none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) waited_for: Option<String>,
    /// The tree's outline (capped like `read_tree`), when it changed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) outline: Option<String>,
    /// What was left out, when the outline was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) truncated: Option<String>,
}

/// `wait_for_change`: with filters, the first tree (the current one, or after
/// `since`) where a node matches them (`gone`: none does); else the next tree after
/// `since`, or `changed: false` on timeout or cancellation.
pub(crate) async fn wait_for_change(
    link: &Link,
    seen: &Seen,
    args: WaitArgs,
    cancel: impl Future<Output = ()>,
) -> Result<WaitResult, ToolError> {
    let timeout =
        Duration::from_millis(args.timeout_ms.unwrap_or(DEFAULT_WAIT_MS).min(MAX_WAIT_MS));
    let filters = args.filters();
    if filters.any() {
        return wait_for_node(link, seen, &args, timeout, cancel).await;
    }
    if args.gone {
        return Err(ToolError::invalid(
            "gone waits until no node matches find_nodes filters: give role, label, value, id, \
             action or state",
        ));
    }
    let Some(since) = args.since else {
        return Err(ToolError::invalid(
            "give since (a revision from a result) to wait for a change after it, or find_nodes \
             filters (role, label, value, id, action, state) to wait for a node",
        ));
    };
    match link.wait_past(since, timeout, cancel).await? {
        Some(view) => Ok(shown(seen, &view, None)),
        None => Ok(WaitResult {
            changed: false,
            revision: link.mirror().view().map_or(since, |v| v.revision),
            matches: None,
            waited_for: None,
            outline: None,
            truncated: None,
        }),
    }
}

/// The result for a tree the wait ends on: its outline, and for a wait for a node
/// what matched.
fn shown(seen: &Seen, view: &View, matched: Option<(usize, String)>) -> WaitResult {
    seen.saw(&view.tree);
    let roots: Vec<&Node> = view.tree.roots.iter().collect();
    let shown = render::render(&roots, Format::Outline, None, render::MAX_CHARS);
    let (matching, waited_for) = matched.unzip();
    WaitResult {
        changed: true,
        revision: view.revision,
        matches: matching,
        waited_for,
        outline: shown.outline,
        truncated: shown.truncated,
    }
}

/// Waits until a node matching the filters is drawn (`gone`: none is), looking at the
/// current tree first (or the first after `since`, when given).
async fn wait_for_node(
    link: &Link,
    seen: &Seen,
    args: &WaitArgs,
    timeout: Duration,
    cancel: impl Future<Output = ()>,
) -> Result<WaitResult, ToolError> {
    let filters = args.filters();
    let deadline = Instant::now() + timeout;
    let mut waited_for = filters.describe();
    if args.gone {
        waited_for.push_str(" gone");
    }
    tokio::pin!(cancel);
    let mut view = match args.since {
        Some(since) => link.wait_past(since, timeout, cancel.as_mut()).await?,
        None => Some(link.view().await?),
    };
    let mut last: Option<View> = None;
    while let Some(now) = view {
        // Checked on each tree: a custom name is refused only when it is not a core
        // one, since a node that has it may not be drawn yet.
        let query = filters.query(&now.tree, Custom::Any)?;
        let matching = now.tree.find_all(&query).len();
        if (matching > 0) != args.gone {
            return Ok(shown(seen, &now, Some((matching, waited_for))));
        }
        let left = deadline.saturating_duration_since(Instant::now());
        let revision = now.revision;
        last = Some(now);
        view = link.wait_past(revision, left, cancel.as_mut()).await?;
    }
    Err(timed_out(args, &filters, last.as_ref(), timeout))
}

/// The timeout, saying what the wait last saw: for a node that never showed, how
/// many nodes match each filter alone; for one that never went, the first still
/// there.
fn timed_out(
    args: &WaitArgs,
    filters: &Filters<'_>,
    last: Option<&View>,
    timeout: Duration,
) -> ToolError {
    let Some(last) = last else {
        return ToolError::new(
            Code::Timeout,
            format!(
                "waited {} ms for a tree after revision {}; none came",
                timeout.as_millis(),
                args.since.unwrap_or(0)
            ),
        );
    };
    let tree = &last.tree;
    let mut message = format!(
        "waited {} ms; in revision {} (the newest), ",
        timeout.as_millis(),
        last.revision
    );
    if args.gone {
        let query = filters.query(tree, Custom::Any).unwrap_or_default();
        let still = tree.find_all(&query);
        let _ = write!(
            message,
            "{} still match{} {}",
            count(still.len(), "node", "nodes"),
            if still.len() == 1 { "es" } else { "" },
            filters.describe()
        );
        if let Some(first) = still.first() {
            let _ = write!(message, ", the first: {}", first.outline_line());
        }
        return ToolError::new(Code::Timeout, message).with("revision", last.revision);
    }
    let _ = write!(message, "no node matches {}", filters.describe());
    let alone: Vec<String> = each_alone(filters)
        .into_iter()
        .filter_map(|(said, one)| {
            let query = one.query(tree, Custom::Any).ok()?;
            Some(format!("{said}: {}", tree.find_all(&query).len()))
        })
        .collect();
    if alone.len() > 1 {
        let _ = write!(
            message,
            " (nodes matching each filter alone: {})",
            alone.join(", ")
        );
    }
    if let Some(role) = filters.role
        && Role::from_name(role).is_none()
    {
        let _ = write!(
            message,
            "; `{}` is not a core role, so it was taken as a custom one",
            taria_schema::outline::OutlineText(&super::filters::clipped(role))
        );
    }
    message.push_str("; read_tree to see what is there, or wait again");
    ToolError::new(Code::Timeout, message).with("revision", last.revision)
}

/// Each filter given, on its own, with how it reads.
fn each_alone<'a>(filters: &Filters<'a>) -> Vec<(String, Filters<'a>)> {
    let mut alone = Vec::new();
    let none = Filters::default();
    for one in [
        Filters {
            role: filters.role,
            ..none
        },
        Filters {
            label: filters.label,
            ..none
        },
        Filters {
            value: filters.value,
            ..none
        },
        Filters {
            id: filters.id,
            ..none
        },
        Filters {
            action: filters.action,
            ..none
        },
        Filters {
            state: filters.state,
            ..none
        },
    ] {
        if one.any() {
            alone.push((one.describe(), one));
        }
    }
    alone
}

impl ForModel for WaitResult {
    fn for_model(&self) -> String {
        let mut out = match (&self.waited_for, self.matches) {
            (Some(waited_for), Some(matches)) => format!(
                "{}, revision {}: {}",
                if waited_for.ends_with(" gone") {
                    "gone".to_owned()
                } else {
                    count(matches, "match", "matches")
                },
                self.revision,
                one_line(waited_for)
            ),
            _ if self.changed => format!("changed, revision {}", self.revision),
            _ => format!("no change, revision {}", self.revision),
        };
        if let Some(outline) = &self.outline {
            push_block(&mut out, outline);
        }
        push_cut(&mut out, self.truncated.as_deref());
        out
    }
}

/// The `wait_for_change` tool.
pub(crate) struct WaitForChange;

impl super::Tool for WaitForChange {
    const NAME: &'static str = "wait_for_change";
    const DESCRIPTION: &'static str =
        "Waits for a tree after `since`, or for `find_nodes` filters to match.";
    const KIND: super::Kind = super::Kind::Read;
    const READ_THE_REST: &'static str = "read_tree with root and depth reads the tree part by part";
    type Args = WaitArgs;
    type Result = WaitResult;

    fn annotations() -> Option<rmcp::model::ToolAnnotations> {
        Some(rmcp::model::ToolAnnotations::new().read_only(true))
    }

    async fn run(cx: super::Cx<'_>, args: WaitArgs) -> Result<WaitResult, ToolError> {
        wait_for_change(cx.link, cx.seen, args, cx.cancelled).await
    }
}

#[cfg(test)]
mod tests {
    use super::each_alone;
    use crate::tools::filters::Filters;

    #[test]
    fn each_filter_is_described_alone() {
        let state = vec!["selected".to_owned()];
        let filters = Filters {
            role: Some("row"),
            label: Some("fire fox"),
            state: &state,
            ..Filters::default()
        };
        let alone: Vec<String> = each_alone(&filters)
            .into_iter()
            .map(|(said, _)| said)
            .collect();
        assert_eq!(
            alone,
            ["role=row", "label=\"fire fox\"", "state=[\"selected\"]"]
        );
        assert_eq!(
            filters.describe(),
            "role=row label=\"fire fox\" state=[\"selected\"]"
        );
    }
}
