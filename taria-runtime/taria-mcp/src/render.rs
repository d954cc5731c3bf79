//! A tree (or a subtree) as an outline or JSON, kept under a size cap: when the whole
//! tree does not fit, the depth shown is reduced first, then children lists are cut,
//! always with a marker saying how many nodes were left out and how to ask for them.

use std::fmt::Write as _;

use serde_json::Value as Json;
use taria_schema::Node;
use taria_schema::outline::{
    self, Around, OutlineName, OutlineQuoted, OutlineRules as _, OutlineStep, OutlineVisitor,
    walk_outline,
};

use crate::plural;

/// The most characters of tree one answer carries: below the cap on a whole result
/// (`server/deliver.rs`' 40,000, which agent hosts' limits set), leaving room for the
/// status line and the notes that follow the tree, which that cap would cut first.
pub(crate) const MAX_CHARS: usize = 37_000;

/// Room kept per open level for the marker a cut may need.
const MARKER_ROOM: usize = 160;

/// How to show the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Format {
    /// One line per node.
    Outline,
    /// The nodes' JSON: what the outline says, as fields (see [`node_json`]); with
    /// `bounds`, each node's `[x, y, width, height]` too.
    Json {
        /// Include each node's bounds.
        bounds: bool,
    },
}

/// A rendered tree.
#[derive(Debug)]
pub(crate) struct Rendered {
    /// The outline (format outline).
    pub(crate) outline: Option<String>,
    /// The nodes (format json).
    pub(crate) json: Option<Vec<Json>>,
    /// How many nodes are shown.
    pub(crate) shown: usize,
    /// How many nodes under the shown ones are left out.
    pub(crate) omitted: usize,
    /// When something was left out: what and how to see it.
    pub(crate) truncated: Option<String>,
}

/// Renders `roots` down to `depth` levels below them (`None`: all), within `cap` characters.
pub(crate) fn render(
    roots: &[&Node],
    format: Format,
    depth: Option<usize>,
    cap: usize,
) -> Rendered {
    write(roots, format, depth, cap, usize::MAX)
}

/// The whole outline of `roots`, as [`render`] writes it, when it is at most `limit`
/// bytes long and nothing in it is cut; `None` otherwise, which is found by writing
/// little more than `limit` bytes: an input's answer asks whether the whole tree
/// would cost little more than its changes, and for most inputs it would not.
/// (Measuring the tree first, as `render` does to choose its cuts, was half of an
/// answer's work: it writes every node's line.)
pub(crate) fn outline_within(roots: &[&Node], limit: usize) -> Option<String> {
    // Nothing measured, nothing cut: the whole outline, written no further than `limit`.
    outline::outline_within(roots.iter().copied(), usize::MAX, limit)?;
    // Short enough: what `render` writes, unless the tree is too large to write whole.
    let rendered = write(roots, Format::Outline, None, MAX_CHARS, limit);
    rendered
        .outline
        .filter(|outline| rendered.truncated.is_none() && outline.len() <= limit)
}

/// [`render`], stopping once the outline is longer than `stop_past` (then what it
/// returns is cut short: only its length past `stop_past` is meaningful).
fn write(
    roots: &[&Node],
    format: Format,
    depth: Option<usize>,
    cap: usize,
    stop_past: usize,
) -> Rendered {
    let asked = depth.unwrap_or(usize::MAX);
    // The size of each level, to pick the deepest view that fits whole.
    let mut measure = Measure {
        asked,
        format,
        levels: Vec::new(),
    };
    walk_outline(roots.iter().copied(), &mut measure);
    let levels = measure.levels;
    let mut total = 0;
    let mut fits = 0;
    for (level, size) in levels.iter().enumerate() {
        total += size;
        if total + MARKER_ROOM * (level + 1) > cap {
            break;
        }
        fits = level + 1;
    }
    // Levels 0..fits fit whole; show at least roots and their children (cut if needed).
    let depth_shown = if fits == levels.len() {
        asked
    } else {
        fits.saturating_sub(1).max(1).min(asked)
    };
    // Levels above the deepest one shown are kept whole: their room is set aside first,
    // so a long list cannot crowd out its later siblings (a status bar, buttons).
    let reserved_below = if depth_shown <= fits { depth_shown } else { 0 };
    let reserved: usize = levels.iter().take(reserved_below).sum();
    let mut out = Writer::new(format, cap, stop_past);
    out.roots = roots;
    out.depth = depth_shown;
    out.reserved_below = reserved_below;
    out.used = reserved;
    walk_outline(roots.iter().copied(), &mut out);
    let truncated = out.truncation(depth_shown, asked);
    Rendered {
        outline: (format == Format::Outline).then_some(out.text),
        json: matches!(format, Format::Json { .. }).then_some(out.json),
        shown: out.shown,
        omitted: out.omitted,
        truncated,
    }
}

/// Adds up the size of each level's entries down to level `asked`, each measured
/// where it is written.
struct Measure {
    asked: usize,
    format: Format,
    /// The size of each level so far.
    levels: Vec<usize>,
}

impl OutlineVisitor for Measure {
    fn enter(&mut self, step: &OutlineStep<'_>) -> bool {
        let (node, level) = (step.node, step.depth);
        if self.levels.len() <= level {
            self.levels.resize(level + 1, 0);
        }
        self.levels[level] += cost(node, &step.around, step.columns, self.format, level);
        // A row written on one line (see `cost`) has no lines below it.
        let one_line =
            matches!(self.format, Format::Outline) && node.compact_cells(step.columns).is_some();
        level < self.asked && !one_line
    }
}

/// The size of a node's own entry, written where `around` says (`columns`: those of
/// the table `node` is a row of). JSON is measured as written there (a cell's
/// implied id, the actions its parent lists once for every child, left out), plus
/// room for a comma and its `"children":[]`; an outline line with a row's plain
/// cells on it (`Node::compact_cells`) is measured with them.
fn cost(
    node: &Node,
    around: &Around<'_>,
    columns: Option<&[&str]>,
    format: Format,
    level: usize,
) -> usize {
    match format {
        Format::Outline => {
            let cells = node.compact_cells(columns).map_or(0, |c| c.len());
            node.outline_line().len() + cells + 2 * level + 24
        }
        Format::Json { bounds } => node_json(node, around, bounds).to_string().len() + 16,
    }
}

/// A checked state as agents read it in JSON: `true`, `false`, or `"mixed"` (the
/// wire's `"true"`/`"false"` strings are a protocol detail).
pub(crate) fn checked_json(checked: taria_schema::Checked) -> Json {
    match checked {
        taria_schema::Checked::True => Json::Bool(true),
        taria_schema::Checked::False => Json::Bool(false),
        taria_schema::Checked::Mixed => Json::from("mixed"),
    }
}

/// A node's own JSON, as compact as its outline line: default fields are left out
/// (by the model's serde), and so are key fallbacks (taria presses them for the
/// agent), the id of an inert part of its parent (see [`Node::id_implied`]), bounds
/// unless asked for, an index and count where they are drawn implies
/// them (see [`Node::position_implied`]), a tree item's level 1, and the actions every
/// sibling offers — their parent lists them once as `childActions`.
pub(crate) fn node_json(node: &Node, around: &Around<'_>, bounds: bool) -> Json {
    let Around {
        parent,
        previous,
        shared,
        ..
    } = *around;
    let mut value = serde_json::to_value(node.clone_without_children()).unwrap_or(Json::Null);
    let Json::Object(fields) = &mut value else {
        return value;
    };
    fields.remove("keys");
    if let Some(checked) = node.state.checked {
        fields.insert("checked".into(), checked_json(checked));
    }
    if node.id_implied(parent) {
        // An inert part of its parent (a cell): the outline shows no id either.
        fields.remove("id");
        fields.remove("stable");
    }
    if !bounds {
        fields.remove("bounds");
    }
    if !shared.is_empty() {
        let own: Vec<Json> = node
            .own_actions(shared)
            .map(|a| Json::from(a.as_str()))
            .collect();
        if own.is_empty() {
            fields.remove("actions");
        } else {
            fields.insert("actions".into(), Json::Array(own));
        }
    }
    let for_children = around.shared_by_children(node);
    if !for_children.is_empty() {
        let names: Vec<Json> = for_children
            .iter()
            .map(|a| Json::from(a.as_str()))
            .collect();
        fields.insert("childActions".into(), Json::Array(names));
    }
    if let Some(Json::Object(position)) = fields.get_mut("position") {
        if node.position_implied(parent, previous) || node.count_implied() {
            position.remove("index");
            position.remove("count");
        }
        if node.level_implied() {
            position.remove("level");
        }
        if position.is_empty() {
            fields.remove("position");
        }
    }
    value
}

fn subtree_size(node: &Node) -> usize {
    node.descendants().count()
}

/// Writes a cut view of the tree, as [`write()`] chose it: an [`OutlineVisitor`] that
/// leaves out what does not fit, with a marker saying what and how to see it.
struct Writer<'r> {
    format: Format,
    cap: usize,
    /// Writing stops once the text is longer than this (see [`outline_within`]).
    stop_past: usize,
    /// The roots walked, for the marker of those left out.
    roots: &'r [&'r Node],
    /// The levels shown below the roots: a node deeper has its children left out.
    depth: usize,
    /// Nodes above this level were paid for up front.
    reserved_below: usize,
    used: usize,
    shown: usize,
    omitted: usize,
    cut_children: bool,
    cut_depth: bool,
    text: String,
    /// The roots' JSON (format json).
    json: Vec<Json>,
    /// Format json: each node entered and not left, with its children's JSON so far.
    open: Vec<(Json, Vec<Json>)>,
}

impl<'r> Writer<'r> {
    /// Nothing written yet, no level paid for.
    fn new(format: Format, cap: usize, stop_past: usize) -> Writer<'r> {
        Writer {
            format,
            cap,
            stop_past,
            roots: &[],
            depth: usize::MAX,
            reserved_below: 0,
            used: 0,
            shown: 0,
            omitted: 0,
            cut_children: false,
            cut_depth: false,
            text: String::new(),
            json: Vec::new(),
            open: Vec::new(),
        }
    }

    /// What was left out and how to see it, when something was (`depth_shown`: the
    /// levels shown; `asked`: the levels asked for).
    fn truncation(&self, depth_shown: usize, asked: usize) -> Option<String> {
        if !self.cut_depth && !self.cut_children {
            return None;
        }
        let mut why = format!("{} left out", plural::count(self.omitted, "node", "nodes"));
        if self.cut_depth {
            let levels = plural::count(depth_shown + 1, "level", "levels");
            let cap = self.cap;
            let _ = if depth_shown < asked {
                write!(why, "; shown {levels} deep to stay under {cap} characters")
            } else {
                write!(why, "; shown {levels} deep as asked")
            };
        }
        why.push_str(
            ". Nodes marked `(+N children)` (json: `childrenOmitted`) have more: call \
             read_tree with root=<that id> (and depth), or find_nodes to pick nodes by \
             role/label",
        );
        Some(why)
    }

    /// Whether the text is past [`Writer::stop_past`]: nothing more is written. (The
    /// text only grows, so the whole outline would be longer still.)
    fn stopped(&self) -> bool {
        self.text.len() > self.stop_past
    }

    /// Whether `child`, at `level`, can still be written: its level was paid for up
    /// front, or its entry fits with room left for the markers of the open levels.
    /// A node is admitted on this; a row asks it of its first cell, to know whether it
    /// may leave its label to that cell's line.
    fn fits(
        &self,
        child: &Node,
        around: &Around<'_>,
        columns: Option<&[&str]>,
        level: usize,
    ) -> bool {
        level < self.reserved_below
            || self.used
                + cost(child, around, columns, self.format, level)
                + MARKER_ROOM * (level + 1)
                <= self.cap
    }

    /// Writes `step`'s outline line; a row of plain cells gets them on it
    /// (`Node::compact_cells`), and then true: its children are on that line.
    fn outline_line(&mut self, step: &OutlineStep<'_>, hidden_below: bool) -> bool {
        let (node, level) = (step.node, step.depth);
        for _ in 0..level {
            self.text.push_str("  ");
        }
        let cells = (!hidden_below)
            .then(|| node.compact_cells(step.columns))
            .flatten();
        let around = Around {
            children_shown: cells.is_some()
                || !hidden_below
                    && node.children.first().is_some_and(|c| {
                        let first = step.child_around(0);
                        self.fits(c, &first, step.table_columns, level + 1)
                    }),
            ..step.around
        };
        self.text.push_str(&node.outline_line_around(&around));
        if hidden_below {
            let _ = write!(self.text, " (+{} children)", node.children.len());
        }
        self.text.push('\n');
        match cells {
            Some(cells) => {
                self.text.pop();
                self.text.push_str(&cells);
                self.text.push('\n');
                self.shown += node.children.len();
                true
            }
            None => false,
        }
    }

    /// Leaves out root number `i` and those after it (too large), with a marker.
    fn leave_out_roots(&mut self, i: usize) {
        let roots = self.roots;
        let left: usize = roots[i..].iter().map(|r| subtree_size(r)).sum();
        self.omitted += left;
        self.cut_children = true;
        let note = format!(
            "{} more top-level {} left out (too large)",
            roots.len() - i,
            plural::noun(roots.len() - i, "node", "nodes")
        );
        match self.format {
            Format::Outline => {
                let _ = writeln!(
                    self.text,
                    "- … {note}: read_tree with root=<id> or use find_nodes"
                );
            }
            Format::Json { .. } => {
                self.json
                    .push(serde_json::json!({ "omitted": left, "note": note }));
            }
        }
    }

    /// Leaves out `parent`'s child number `i` and those after it (too large), with a
    /// marker below `parent`, at `level`.
    fn leave_out_children(&mut self, parent: &Node, i: usize, level: usize) {
        let left = &parent.children[i..];
        let count: usize = left.iter().map(subtree_size).sum();
        self.omitted += count;
        self.cut_children = true;
        match self.format {
            Format::Outline => {
                for _ in 0..level {
                    self.text.push_str("  ");
                }
                let _ = writeln!(
                    self.text,
                    "- … {} more {} of {} left out (too large): read_tree with \
                     root={}, or find_nodes",
                    left.len(),
                    plural::noun(left.len(), "child", "children"),
                    OutlineName(parent.id.as_str()),
                    OutlineQuoted(parent.id.as_str())
                );
            }
            Format::Json { .. } => {
                if let Some((Json::Object(fields), _)) = self.open.last_mut() {
                    fields.insert("childrenOmitted".into(), left.len().into());
                }
            }
        }
        self.used += MARKER_ROOM;
    }
}

impl OutlineVisitor for Writer<'_> {
    /// A node is written while the text is not past [`Writer::stop_past`] and it fits
    /// ([`Writer::fits`]; a root, unless its level was paid for up front).
    fn admit(&mut self, step: &OutlineStep<'_>) -> bool {
        if self.stopped() {
            return false;
        }
        let (node, level) = (step.node, step.depth);
        match step.around.parent {
            None => {
                let too_large = self.reserved_below == 0
                    && self.used + cost(node, &step.around, None, self.format, 0) + MARKER_ROOM
                        > self.cap;
                if too_large {
                    self.leave_out_roots(step.index);
                }
                !too_large
            }
            Some(parent) => {
                let fits = self.fits(node, &step.around, step.columns, level);
                if !fits {
                    self.leave_out_children(parent, step.index, level);
                }
                fits
            }
        }
    }

    /// Writes `node`; its children are walked unless they are below the depth shown,
    /// or on its line.
    fn enter(&mut self, step: &OutlineStep<'_>) -> bool {
        let (node, level) = (step.node, step.depth);
        self.shown += 1;
        if level >= self.reserved_below {
            self.used += cost(node, &step.around, step.columns, self.format, level);
        }
        let hidden_below = level >= self.depth && !node.children.is_empty();
        if hidden_below {
            self.cut_depth = true;
            self.omitted += node.descendants().count() - 1;
        }
        match self.format {
            Format::Outline => {
                if self.outline_line(step, hidden_below) {
                    return false;
                }
            }
            Format::Json { bounds } => {
                let mut value = node_json(node, &step.around, bounds);
                if hidden_below && let Json::Object(fields) = &mut value {
                    fields.insert("childrenOmitted".into(), node.children.len().into());
                }
                self.open.push((value, Vec::new()));
            }
        }
        !hidden_below
    }

    /// Format json: the node's JSON, with its children's, goes into its parent's.
    fn leave(&mut self, _: &OutlineStep<'_>) {
        if !matches!(self.format, Format::Json { .. }) {
            return;
        }
        let Some((mut value, children)) = self.open.pop() else {
            return;
        };
        if let Json::Object(fields) = &mut value
            && !children.is_empty()
        {
            fields.insert("children".into(), Json::Array(children));
        }
        match self.open.last_mut() {
            Some((_, siblings)) => siblings.push(value),
            None => self.json.push(value),
        }
    }
}

#[cfg(test)]
mod tests;
