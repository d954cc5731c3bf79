//! `read_tree`: the tree (outline or JSON, a part of it by `root` and `depth`), or
//! with `format: screen` the screen's text, with `format: picture` the screen as a
//! PNG image; and the `taria://tree` resource's text.

use std::fmt::Write as _;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value as Json;
use taria_schema::Node;
use taria_schema::outline::OutlineName;

use super::args;
use super::lookup::find;
use super::reply::{ForModel, UNTRUSTED, compact, one_line, push_block, push_cut};
use crate::errors::{Code, ToolError};
use crate::link::Link;
use crate::plural::{self, count};
use crate::render::{self, Format};
use crate::seen::Seen;
use crate::styled_screen::StyledScreen;

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
    /// The screen as a PNG image, colours and lines as drawn (at most 2000 px, 1 MB).
    Picture,
}

/// `read_tree` result: the tree, or the screen.
#[derive(Debug, Serialize)]
#[serde(untagged)]
pub(crate) enum ReadResult {
    /// Format `outline` or `json`.
    Tree(ReadTreeResult),
    /// Format `screen`.
    Screen(ReadScreenResult),
    /// Format `picture`.
    Picture(ReadPictureResult),
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
        Some(whole @ (FormatArg::Screen | FormatArg::Picture)) => {
            if args.root.is_some() || args.depth.is_some() || args.bounds {
                let name = if matches!(whole, FormatArg::Screen) {
                    "screen"
                } else {
                    "picture"
                };
                return Err(ToolError::invalid(format!(
                    "format {name} reads the whole screen: root, depth and bounds are for the \
                     tree's formats (outline, json)"
                )));
            }
            return match whole {
                FormatArg::Screen => read_screen(link).await.map(ReadResult::Screen),
                _ => read_picture(link).await.map(ReadResult::Picture),
            };
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

impl ForModel for ReadResult {
    fn for_model(&self) -> String {
        match self {
            ReadResult::Tree(tree) => tree.for_model(),
            ReadResult::Screen(screen) => screen.for_model(),
            ReadResult::Picture(picture) => picture.for_model(),
        }
    }

    fn attachments(&self) -> Vec<rmcp::model::ContentBlock> {
        match self {
            ReadResult::Picture(picture) => picture.attachments(),
            ReadResult::Tree(_) | ReadResult::Screen(_) => Vec::new(),
        }
    }
}

impl ForModel for ReadTreeResult {
    fn for_model(&self) -> String {
        let mut out = format!(
            "revision {}, {}",
            self.revision,
            count(self.node_count, "node", "nodes")
        );
        if self.shown < self.node_count {
            let _ = write!(out, ", {} shown", self.shown);
        }
        if let Some(focused) = &self.focused {
            let _ = write!(out, ", focused {}", OutlineName(focused));
        }
        if let Some(outline) = &self.outline {
            push_block(&mut out, outline);
        }
        if let Some(tree) = &self.tree {
            push_block(&mut out, &compact(tree));
        }
        push_cut(&mut out, self.truncated.as_deref());
        for diagnostic in &self.diagnostics {
            let _ = write!(out, "\n(diagnostic: {})", compact(diagnostic));
        }
        out
    }
}

impl ForModel for ReadScreenResult {
    fn for_model(&self) -> String {
        let mut out = match &self.note {
            None => format!(
                "screen of revision {}, {} columns, {} rows:",
                self.revision,
                self.cols,
                self.rows.len()
            ),
            Some(note) => format!(
                "screen, {} columns, {} rows ({}):",
                self.cols,
                self.rows.len(),
                one_line(note)
            ),
        };
        for row in &self.rows {
            out.push('\n');
            out.push_str(&one_line(row));
        }
        out
    }
}

/// `read_tree`'s result with `format: picture`: the PNG goes to the model as an
/// image after the text, and is not in the structured content.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct ReadPictureResult {
    /// The bridge's revision of the tree drawn with this screen.
    pub(crate) revision: u64,
    /// Width in columns.
    pub(crate) cols: u16,
    /// Height in rows.
    pub(crate) rows: usize,
    /// The picture's width in pixels.
    pub(crate) width: u32,
    /// The picture's height in pixels.
    pub(crate) height: u32,
    /// The PNG's size in bytes.
    pub(crate) bytes: usize,
    /// Where the colours came from: `app`, `terminal` (spawn mode's emulated
    /// terminal, for an app of an earlier taria release), `none` (text only).
    pub(crate) colors: &'static str,
    #[serde(skip)]
    pub(crate) png: Vec<u8>,
}

/// `read_tree` with `format: picture`: the screen with its colours, drawn as PNG
/// off the runtime's threads (it takes about 0.1 s).
async fn read_picture(link: &Link) -> Result<ReadPictureResult, ToolError> {
    use taria_schema::picture::{self, Look, PngLimits};
    let screen = StyledScreen::read(link).await?;
    let StyledScreen {
        revision,
        cols,
        styled,
        colors,
    } = screen;
    let rows = styled.rows.len();
    let drawn = tokio::task::spawn_blocking(move || {
        picture::png(&styled, &Look::default(), PngLimits::default())
    })
    .await
    .map_err(|e| ToolError::new(Code::Internal, format!("drawing the picture failed: {e}")))?;
    let png = drawn.map_err(|e| match e {
        picture::PngError::Empty => ToolError::new(Code::NotFound, "the screen is empty"),
        e @ picture::PngError::TooLarge { .. } => ToolError::new(Code::TooLarge, e.to_string()),
        e => ToolError::new(Code::Internal, e.to_string()),
    })?;
    Ok(ReadPictureResult {
        revision,
        cols,
        rows,
        width: png.width,
        height: png.height,
        bytes: png.bytes.len(),
        colors,
        png: png.bytes,
    })
}

impl ForModel for ReadPictureResult {
    fn for_model(&self) -> String {
        let colors = match self.colors {
            "app" => "",
            "terminal" => "; colours from its terminal",
            _ => "; no colours: the app sent none",
        };
        // Some hosts drop an image from a tool's result (fast-agent) and give the
        // model this line alone: it says so, and where the text is
        // (examples/e2e/hosts/README.md).
        format!(
            "screen of revision {}, {} columns, {} rows, as a {} × {} PNG ({} kB{colors}) below; \
             if none follows, your host dropped it: read_tree {{format: \"screen\"}} has the \
             text.",
            self.revision,
            self.cols,
            self.rows,
            self.width,
            self.height,
            self.bytes.div_ceil(1000),
        )
    }

    fn attachments(&self) -> Vec<rmcp::model::ContentBlock> {
        use base64::Engine as _;
        let data = base64::engine::general_purpose::STANDARD.encode(&self.png);
        vec![rmcp::model::ContentBlock::image(data, "image/png")]
    }
}

/// The `read_tree` tool.
pub(crate) struct ReadTree;

impl super::Tool for ReadTree {
    const NAME: &'static str = "read_tree";
    const DESCRIPTION: &'static str = "Reads the UI tree or the screen.";
    const KIND: super::Kind = super::Kind::Read;
    const READ_THE_REST: &'static str =
        "read_tree with root (an id shown above) and depth reads one part at a time";
    type Args = ReadTreeArgs;
    type Result = ReadResult;

    fn annotations() -> Option<rmcp::model::ToolAnnotations> {
        Some(rmcp::model::ToolAnnotations::new().read_only(true))
    }

    async fn run(cx: super::Cx<'_>, args: ReadTreeArgs) -> Result<ReadResult, ToolError> {
        read_tree(cx.link, cx.seen, args).await
    }
}
