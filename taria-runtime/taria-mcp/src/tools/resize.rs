//! `resize`: the pseudo-terminal's size, in spawn mode.

use std::fmt::Write as _;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use taria_schema::Node;

use super::reply::{ForModel, one_line, push_block, push_cut};
use crate::errors::ToolError;
use crate::link::Link;
use crate::order::Turn;
use crate::render::{self, Format};
use crate::seen::Seen;
use crate::spawn::size::{COLS, ROWS, Size};

/// How long `resize` waits for the app to draw at the new size.
pub(crate) const RESIZE_WAIT: Duration = Duration::from_secs(3);

/// `resize` arguments.
#[derive(Debug, Deserialize, JsonSchema)]
pub(crate) struct ResizeArgs {
    // 10 to 1000 and 5 to 500: not in the schema (tools/list is read every turn); a
    // size out of range is refused saying the range.
    pub(crate) cols: u32,
    pub(crate) rows: u32,
}

/// `resize` result.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ResizeResult {
    /// The terminal's width now.
    pub(crate) cols: u16,
    /// The terminal's height now.
    pub(crate) rows: u16,
    /// Whether the app drew a new tree after the resize.
    pub(crate) changed: bool,
    /// The current revision.
    pub(crate) revision: u64,
    /// The tree the app drew at the new size (capped like `read_tree`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) outline: Option<String>,
    /// What was left out, when the outline was cut.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) truncated: Option<String>,
    /// What happened, when it is unusual.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(crate) note: Option<String>,
}

/// `resize`: resizes the pseudo-terminal (the app gets SIGWINCH) in the call's `turn`
/// (arrival order, among inputs too), then waits (bounded) for the tree the app
/// draws next.
pub(crate) async fn resize(
    link: &Link,
    seen: &Seen,
    args: ResizeArgs,
    turn: &mut Turn,
) -> Result<ResizeResult, ToolError> {
    let Some(spawned) = link.spawned_app() else {
        return Err(ToolError::invalid(
            "resize only works in spawn mode (taria-mcp -- <command>), where taria-mcp owns the \
             app's terminal; this session attached to an app running in someone else's terminal",
        ));
    };
    let in_range = |n: u32, range: &std::ops::RangeInclusive<u16>| {
        u16::try_from(n).ok().filter(|n| range.contains(n))
    };
    let (Some(cols), Some(rows)) = (in_range(args.cols, &COLS), in_range(args.rows, &ROWS)) else {
        return Err(ToolError::invalid(format!(
            "{}×{} is out of bounds: cols {}..={}, rows {}..={}",
            args.cols,
            args.rows,
            COLS.start(),
            COLS.end(),
            ROWS.start(),
            ROWS.end()
        )));
    };
    let size = Size { cols, rows };
    turn.wait().await;
    let before = link.view().await?;
    if spawned.size() == Some(size) {
        return Ok(ResizeResult {
            cols,
            rows,
            changed: false,
            revision: before.revision,
            outline: None,
            truncated: None,
            note: Some("the terminal already has that size; nothing changed".into()),
        });
    }
    spawned.resize(size)?;
    let size = taria_schema::recording::RecordedSize {
        width: cols,
        height: rows,
    };
    link.record_resize(size, before.revision);
    // Resized: the next call may go while this one waits for the app to draw.
    turn.done_sending();
    let waited = link
        .wait_past(before.revision, RESIZE_WAIT, std::future::pending())
        .await?;
    Ok(match waited {
        Some(view) => {
            seen.saw(&view.tree);
            let roots: Vec<&Node> = view.tree.roots.iter().collect();
            let shown = render::render(&roots, Format::Outline, None, render::MAX_CHARS);
            ResizeResult {
                cols,
                rows,
                changed: true,
                revision: view.revision,
                outline: shown.outline,
                truncated: shown.truncated,
                note: None,
            }
        }
        None => ResizeResult {
            cols,
            rows,
            changed: false,
            revision: link.mirror().view().map_or(before.revision, |v| v.revision),
            outline: None,
            truncated: None,
            note: Some(format!(
                "resized, but the app drew no new tree within {} s (its tree may not depend on \
                 the size); read_tree (format screen for the text) to check",
                RESIZE_WAIT.as_secs()
            )),
        },
    })
}

impl ForModel for ResizeResult {
    fn for_model(&self) -> String {
        let mut out = format!(
            "resized to {}x{}, revision {}",
            self.cols, self.rows, self.revision
        );
        if !self.changed {
            out.push_str(", no new tree yet");
        }
        if let Some(note) = &self.note {
            let _ = write!(out, " ({})", one_line(note));
        }
        if let Some(outline) = &self.outline {
            push_block(&mut out, outline);
        }
        push_cut(&mut out, self.truncated.as_deref());
        out
    }
}

/// The `resize` tool.
pub(crate) struct Resize;

impl super::Tool for Resize {
    const NAME: &'static str = "resize";
    const DESCRIPTION: &'static str = "Resizes the terminal.";
    const KIND: super::Kind = super::Kind::Ordered;
    type Args = ResizeArgs;
    type Result = ResizeResult;

    fn annotations() -> Option<rmcp::model::ToolAnnotations> {
        Some(
            rmcp::model::ToolAnnotations::new()
                .destructive(false)
                .idempotent(true),
        )
    }

    async fn run(mut cx: super::Cx<'_>, args: ResizeArgs) -> Result<ResizeResult, ToolError> {
        resize(cx.link, cx.seen, args, cx.turn()?).await
    }
}
