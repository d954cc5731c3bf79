//! The one walk of an outline: every writer of outline lines (the whole tree, a
//! subtree to a depth, a size cap, the bridge's cut views and its lists of changed
//! nodes, the inspector's entries) goes through [`walk_outline`] and says what it does
//! with each node in an [`OutlineVisitor`]. [`outline_lines`] and [`outline_within`]
//! are the lines [`Tree::outline`] writes, with a hook per line and a cap.

use super::{Around, OutlineRules as _, write_line};
use crate::model::{ActionName, Node};

/// A node where [`walk_outline`] reaches it, with what its line needs to be written
/// where it stands.
#[derive(Clone, Copy, Debug)]
pub struct OutlineStep<'a> {
    /// The node.
    pub node: &'a Node,
    /// How many levels below a root it is: its line's indentation.
    pub depth: usize,
    /// Its place among its siblings (the roots, or its parent's children), from 0.
    pub index: usize,
    /// What the lines around it say: its parent, the sibling before it, the actions
    /// its parent's line gives every child, its column, and (worked out once)
    /// [`Around::child_actions`]. [`Around::children_shown`] is `false`: whether its
    /// children are written below it is the visitor's to say.
    pub around: Around<'a>,
    /// The column names of the table it is a row of.
    pub columns: Option<&'a [&'a str]>,
    /// Its own column names, when it is a table: what its rows get as `columns`.
    pub table_columns: Option<&'a [&'a str]>,
}

impl<'a> OutlineStep<'a> {
    /// What is around its child number `i`, written below its line.
    #[must_use]
    pub fn child_around(&self, i: usize) -> Around<'a> {
        let shared = self.around.child_actions.unwrap_or_default();
        Around::child_of(self.node, i, shared, self.columns)
    }
}

/// What an outline's writer does at each node of [`walk_outline`], in tree order.
pub trait OutlineVisitor {
    /// Whether the walk goes on to `step`: `false` leaves it and the siblings after it
    /// out (a size cap reached). Every node, unless the visitor says otherwise.
    fn admit(&mut self, step: &OutlineStep<'_>) -> bool {
        let _ = step;
        true
    }

    /// Writes `step`'s node, before its children: whether to walk them.
    fn enter(&mut self, step: &OutlineStep<'_>) -> bool;

    /// After `step`'s children were walked (or left out), for each node entered.
    fn leave(&mut self, step: &OutlineStep<'_>) {
        let _ = step;
    }
}

/// Walks `roots` and their descendants in tree order (a node, then its children),
/// working out for each what the lines around it imply ([`OutlineStep`]).
///
/// # Examples
///
/// A visitor that lists each node's id at its depth, and leaves out the children of
/// lists:
///
/// ```
/// use taria_schema::outline::{OutlineStep, OutlineVisitor, walk_outline};
/// use taria_schema::{Role, Tree};
///
/// struct Ids(Vec<String>);
///
/// impl OutlineVisitor for Ids {
///     fn enter(&mut self, step: &OutlineStep<'_>) -> bool {
///         self.0.push(format!("{}{}", "  ".repeat(step.depth), step.node.id));
///         step.node.role != Role::List
///     }
/// }
///
/// let tree: Tree = serde_json::from_str(
///     r#"{"frame": 1, "roots": [{"id": "tasks", "role": "list", "label": "Tasks",
///        "children": [{"id": "tasks/1", "role": "list_item", "label": "Milk"},
///                     {"id": "tasks/2", "role": "list_item", "label": "Eggs"}]}]}"#,
/// )?;
/// let mut ids = Ids(Vec::new());
/// walk_outline(&tree.roots, &mut ids);
/// assert_eq!(ids.0, ["tasks"]);
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn walk_outline<'a>(
    roots: impl IntoIterator<Item = &'a Node>,
    visitor: &mut impl OutlineVisitor,
) {
    let mut previous = None;
    for (index, root) in roots.into_iter().enumerate() {
        let around = Around {
            previous,
            ..Around::default()
        };
        if !walk_node(root, around, (0, index), None, visitor) {
            return;
        }
        previous = Some(root);
    }
}

/// Walks `node` (number `index` of its siblings, `depth` levels below a root) and
/// its descendants; `columns`: those of the table `node` is a row of. `false` when
/// the visitor did not admit it.
fn walk_node(
    node: &Node,
    around: Around<'_>,
    (depth, index): (usize, usize),
    columns: Option<&[&str]>,
    visitor: &mut impl OutlineVisitor,
) -> bool {
    let shared: Vec<ActionName> = node.shared_child_actions();
    let table_columns = node.column_names();
    let step = OutlineStep {
        node,
        depth,
        index,
        around: Around {
            children_shown: false,
            child_actions: Some(&shared),
            ..around
        },
        columns,
        table_columns: table_columns.as_deref(),
    };
    if !visitor.admit(&step) {
        return false;
    }
    if visitor.enter(&step) {
        for (i, child) in node.children.iter().enumerate() {
            let around = step.child_around(i);
            if !walk_node(child, around, (depth + 1, i), step.table_columns, visitor) {
                break;
            }
        }
    }
    visitor.leave(&step);
    true
}

/// The lines of the outline of `roots` as [`Tree::outline`](crate::model::Tree::outline)
/// writes them, down to `depth` levels below them (`usize::MAX`: all; a node whose
/// children are not shown ends with `(+N children)`), each given to `per_line` with
/// its step, without indentation or line break. `per_line` returns whether to go on.
///
/// # Examples
///
/// ```
/// use taria_schema::Tree;
/// use taria_schema::outline::outline_lines;
///
/// let tree: Tree = serde_json::from_str(
///     r#"{"frame": 1, "roots": [{"id": "tasks", "role": "list", "label": "Tasks",
///        "children": [{"id": "tasks/1", "role": "list_item", "label": "Milk"},
///                     {"id": "tasks/2", "role": "list_item", "label": "Eggs"}]}]}"#,
/// )?;
/// let mut lines = Vec::new();
/// outline_lines(&tree.roots, usize::MAX, |step, line| {
///     lines.push((step.depth, line.to_owned()));
///     true
/// });
/// assert_eq!(lines[0], (0, r#"- list "Tasks" [id=tasks]"#.to_owned()));
/// assert_eq!(lines.len(), 3);
/// // Down to the roots only: the list's children are counted on its line.
/// let mut first = String::new();
/// outline_lines(&tree.roots, 0, |_, line| {
///     first = line.to_owned();
///     false
/// });
/// assert!(first.ends_with("(+2 children)"), "{first}");
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn outline_lines<'a>(
    roots: impl IntoIterator<Item = &'a Node>,
    depth: usize,
    per_line: impl FnMut(&OutlineStep<'_>, &str) -> bool,
) {
    let mut lines = Lines {
        depth,
        per_line,
        line: String::new(),
        stopped: false,
    };
    walk_outline(roots, &mut lines);
}

/// The outline of `roots` down to `depth` levels, as [`outline_lines`] writes it,
/// when it is at most `cap` bytes long; `None` otherwise, found by writing little
/// more than `cap` bytes.
///
/// # Examples
///
/// ```
/// use taria_schema::Tree;
/// use taria_schema::outline::outline_within;
///
/// let tree: Tree = serde_json::from_str(
///     r#"{"frame": 1, "roots": [{"id": "tasks", "role": "list", "label": "Tasks",
///        "children": [{"id": "tasks/1", "role": "list_item", "label": "Milk"},
///                     {"id": "tasks/2", "role": "list_item", "label": "Eggs"}]}]}"#,
/// )?;
/// let whole = tree.outline();
/// assert_eq!(outline_within(&tree.roots, usize::MAX, whole.len()), Some(whole.clone()));
/// assert_eq!(outline_within(&tree.roots, usize::MAX, whole.len() - 1), None);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[must_use]
pub fn outline_within<'a>(
    roots: impl IntoIterator<Item = &'a Node>,
    depth: usize,
    cap: usize,
) -> Option<String> {
    let mut out = String::new();
    outline_lines(roots, depth, |step, line| {
        for _ in 0..step.depth {
            out.push_str("  ");
        }
        out.push_str(line);
        out.push('\n');
        out.len() <= cap
    });
    (out.len() <= cap).then_some(out)
}

/// [`outline_lines`]' visitor.
struct Lines<F> {
    depth: usize,
    per_line: F,
    /// The line being written (its room kept from line to line).
    line: String,
    stopped: bool,
}

impl<F: FnMut(&OutlineStep<'_>, &str) -> bool> OutlineVisitor for Lines<F> {
    fn admit(&mut self, _: &OutlineStep<'_>) -> bool {
        !self.stopped
    }

    fn enter(&mut self, step: &OutlineStep<'_>) -> bool {
        let node = step.node;
        let below = step.depth < self.depth;
        self.line.clear();
        let around = Around {
            children_shown: below,
            ..step.around
        };
        write_line(&mut self.line, node, &around);
        if !below && !node.children.is_empty() {
            use std::fmt::Write as _;
            let _ = write!(self.line, " (+{} children)", node.children.len());
        }
        // A row of plain cells: one line.
        let cells = below.then(|| node.compact_cells(step.columns)).flatten();
        if let Some(cells) = &cells {
            self.line.push_str(cells);
        }
        self.stopped = !(self.per_line)(step, &self.line);
        below && cells.is_none()
    }
}
