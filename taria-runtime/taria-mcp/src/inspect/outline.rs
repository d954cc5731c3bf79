//! The tree as the page shows it: one entry per outline line, each with the line
//! [`Tree::outline`] writes (without its indentation and `- `), its depth, and the
//! bounds of its node, so hovering a line can outline where the node is drawn and a
//! click on the screen can find the line.

use serde::Serialize;
use taria_schema::Tree;
use taria_schema::outline::outline_lines;

/// One line of the outline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub(super) struct Entry {
    /// How many levels below a root.
    pub(super) depth: usize,
    /// The line, as app text is written in an outline (quoted, escaped).
    pub(super) line: String,
    /// The node's id (JSON string data: the page never reads it as markup).
    pub(super) id: String,
    /// Where the node is drawn: `[x, y, width, height]`; absent when it has no size.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) bounds: Option<[u16; 4]>,
}

/// The outline of `tree` as entries, in the order of its lines.
pub(super) fn entries(tree: &Tree) -> Vec<Entry> {
    let mut entries = Vec::new();
    outline_lines(&tree.roots, usize::MAX, |step, line| {
        let b = step.node.bounds;
        entries.push(Entry {
            depth: step.depth,
            line: line.strip_prefix("- ").unwrap_or(line).to_owned(),
            id: step.node.id.as_str().to_owned(),
            bounds: (b.width > 0 && b.height > 0).then_some([b.x, b.y, b.width, b.height]),
        });
        true
    });
    entries
}

#[cfg(test)]
mod tests {
    use taria::{Action, Role, testing::Harness};
    use taria_schema::recording::{RecordedLine, Recording};

    use super::*;

    /// The entries written back as an outline.
    fn outline(entries: &[Entry]) -> String {
        entries.iter().fold(String::new(), |mut out, e| {
            out.push_str(&"  ".repeat(e.depth));
            out.push_str("- ");
            out.push_str(&e.line);
            out.push('\n');
            out
        })
    }

    /// Every tree of the committed recordings (a list, a form, a folder tree, dialogs).
    fn recorded_trees() -> Vec<Tree> {
        let examples = concat!(env!("CARGO_MANIFEST_DIR"), "/../../examples");
        let mut trees = Vec::new();
        for path in [
            "todo/recordings/add-complete-delete.jsonl",
            "form/recordings/fill-fix-submit.jsonl",
            "files/recordings/open-preview-close.jsonl",
        ] {
            let recording = Recording::read(format!("{examples}/{path}")).unwrap();
            for line in recording.lines {
                match line {
                    RecordedLine::Tree(t) => trees.push(t.tree),
                    RecordedLine::Input(i) => trees.extend(i.tree),
                    _ => {}
                }
            }
        }
        trees
    }

    #[test]
    fn the_entries_are_the_outline_line_by_line() {
        let trees = recorded_trees();
        assert!(trees.len() > 20, "{} trees", trees.len());
        for tree in trees {
            assert_eq!(outline(&entries(&tree)), tree.outline());
        }
    }

    #[test]
    fn a_table_row_of_plain_cells_is_one_entry_with_its_bounds() {
        let mut harness = Harness::new(30, 4);
        let tree = harness.render(|_| {
            let _table = taria::scope(|n| {
                n.role(Role::Table).id("people").bounds([0, 0, 30, 4]);
            });
            {
                let _header = taria::scope(|n| {
                    n.role(Role::Row).id("people/header");
                });
                for name in ["Name", "Age"] {
                    taria::leaf(|n| {
                        n.role(Role::ColumnHeader).label(name);
                    });
                }
            }
            let _row = taria::scope(|n| {
                n.role(Role::Row)
                    .key("ada")
                    .action(Action::Select)
                    .bounds([1, 2, 28, 1]);
            });
            for value in ["Ada <b>", "36"] {
                taria::leaf(|n| {
                    n.role(Role::Cell).value(value);
                });
            }
        });
        let entries = entries(&tree);
        assert_eq!(outline(&entries), tree.outline());
        let row = entries.iter().find(|e| e.id == "people/ada").unwrap();
        assert_eq!(row.depth, 1);
        assert_eq!(row.bounds, Some([1, 2, 28, 1]));
        assert!(row.line.ends_with(r#": "Ada <b>" | "36""#), "{}", row.line);
        assert_eq!(entries.len(), 3, "the table and its two rows: {entries:?}");
    }
}
