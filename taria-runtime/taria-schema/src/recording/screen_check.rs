//! The screen in a recording ([`RecordedScreen`]) and the screen check: the text
//! drawn inside the bounds of each node a [`screen`](super::Match::screen) rule
//! names, as a section after the outline.

use std::fmt::Write as _;

use unicode_width::UnicodeWidthChar;

use crate::model::{Bounds, Node, OutlineName, OutlineQuoted, Tree};

/// The heading of the section, after the outline.
const HEADING: &str = "screen (the text inside each node's bounds):";

/// The screen the app drew with a recorded tree, for a replay's screen check
/// ([`Match::screen`](super::Match::screen)): one string per row, wide characters once (the app's `screen`
/// message), keeping only the cells inside some node's bounds, and blanking those
/// of redacted nodes (what they draw may be the secret). Absent from a line when
/// the bridge got none for that tree (a bridge older than the field, or the app drew
/// again before it answered).
pub type RecordedScreen = Vec<String>;

/// `rows` (the app's screen drawn with `tree`) as a recording keeps them
/// ([`RecordedScreen`]): the cells inside some node's bounds, those of redacted
/// nodes blank.
#[must_use]
pub fn recordable_screen(tree: &Tree, rows: &[String]) -> RecordedScreen {
    recordable(tree, rows)
}

/// `rows` as a recording keeps them: only the cells inside some node's bounds, and
/// those blank where a redacted node owns them (its text may be the secret); each
/// row's trailing blanks dropped.
fn recordable(tree: &Tree, rows: &[String]) -> Vec<String> {
    let grid = Grid::new(tree, rows);
    grid.cells
        .iter()
        .enumerate()
        .map(|(row, cells)| {
            let mut text = String::new();
            for (col, cell) in cells.iter().enumerate() {
                match grid.owner[row][col] {
                    Some(index) if !grid.drawn[index].redacted => text.push_str(cell),
                    _ if cell.is_empty() => {}
                    _ => text.push(' '),
                }
            }
            text.truncate(text.trim_end().len());
            text
        })
        .collect()
}

/// The screen's cells and the node that owns each.
struct Grid {
    cells: Vec<Vec<String>>,
    drawn: Vec<Drawn>,
    /// Who owns each cell: the index in `drawn` of the last node over it.
    owner: Vec<Vec<Option<usize>>>,
}

/// A node as the screen check needs it.
struct Drawn {
    id: String,
    bounds: Bounds,
    redacted: bool,
}

impl Grid {
    fn new(tree: &Tree, rows: &[String]) -> Grid {
        let cells: Vec<Vec<String>> = rows.iter().map(|row| cells(row)).collect();
        let mut drawn = Vec::new();
        walk(&tree.roots, &mut drawn);
        let mut owner: Vec<Vec<Option<usize>>> =
            cells.iter().map(|row| vec![None; row.len()]).collect();
        for (index, node) in drawn.iter().enumerate() {
            for_cells(node.bounds, &cells, |row, col| {
                owner[row][col] = Some(index);
            });
        }
        Grid {
            cells,
            drawn,
            owner,
        }
    }
}

/// The screen section for `screened` (ids with their bounds, in the order compared)
/// on `rows` (the screen, one string per row, wide characters once, as
/// `taria::testing::screen_text` and the app's `screen` message give
/// it). A cell counts for the last node drawn over it in `tree` (a child over its
/// parent, a dialog over what it covers): a node's text is the cells it owns, the
/// others blank, each row's trailing blanks dropped; one line per row holding text,
/// `row N` before it for a node taller than a row; `""` for a node with none.
pub(super) fn section(tree: &Tree, screened: &[(String, Bounds)], rows: &[String]) -> String {
    if screened.is_empty() {
        return String::new();
    }
    let Grid {
        cells,
        drawn,
        owner,
    } = Grid::new(tree, rows);
    let mut out = format!("{HEADING}\n");
    for (id, bounds) in screened {
        // What a redacted node draws is blank, as a recording keeps it.
        let index = drawn
            .iter()
            .position(|node| node.id == *id)
            .filter(|&index| !drawn[index].redacted);
        let mut lines = Vec::new();
        for r in 0..bounds.height {
            let row = usize::from(bounds.y) + usize::from(r);
            let Some(row_cells) = cells.get(row) else {
                break;
            };
            let mut text = String::new();
            for c in 0..bounds.width {
                let col = usize::from(bounds.x) + usize::from(c);
                match row_cells.get(col) {
                    Some(cell) if index.is_some() && owner[row][col] == index => {
                        text.push_str(cell);
                    }
                    Some(_) => text.push(' '),
                    None => break,
                }
            }
            let text = text.trim_end();
            if !text.is_empty() {
                lines.push((r, text.to_owned()));
            }
        }
        let name = OutlineName(id);
        if lines.is_empty() {
            let _ = writeln!(out, "  [id={name}] \"\"");
        }
        for (r, text) in lines {
            if bounds.height > 1 {
                let _ = writeln!(out, "  [id={name}] row {r} {}", OutlineQuoted(&text));
            } else {
                let _ = writeln!(out, "  [id={name}] {}", OutlineQuoted(&text));
            }
        }
    }
    out
}

/// The nodes in the order drawn (pre-order).
fn walk(nodes: &[Node], out: &mut Vec<Drawn>) {
    for node in nodes {
        out.push(Drawn {
            id: node.id.to_string(),
            bounds: node.bounds,
            redacted: node.state.redacted,
        });
        walk(&node.children, out);
    }
}

/// Calls `each(row, col)` for each cell of `bounds` on the screen.
fn for_cells(bounds: Bounds, cells: &[Vec<String>], mut each: impl FnMut(usize, usize)) {
    for r in 0..usize::from(bounds.height) {
        let row = usize::from(bounds.y) + r;
        let Some(width) = cells.get(row).map(Vec::len) else {
            break;
        };
        for c in 0..usize::from(bounds.width) {
            let col = usize::from(bounds.x) + c;
            if col >= width {
                break;
            }
            each(row, col);
        }
    }
}

/// A row's cells: each character in the cell it starts in (a wide one's second cell
/// empty, a zero-width one with the character before it).
fn cells(row: &str) -> Vec<String> {
    let mut cells: Vec<String> = Vec::new();
    for c in row.chars() {
        match c.width().unwrap_or(0) {
            0 => match cells.last_mut() {
                Some(last) => last.push(c),
                None => cells.push(c.to_string()),
            },
            width => {
                cells.push(c.to_string());
                cells.extend((1..width).map(|_| String::new()));
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::{cells, recordable, section};
    use crate::model::{Bounds, Tree};

    fn tree() -> Tree {
        let json = serde_json::json!({"frame": 1, "roots": [
            {"id": "tasks", "role": "list", "label": "Tasks", "bounds": [0, 0, 20, 3], "children": [
                {"id": "tasks/1", "role": "list_item", "label": "Milk", "bounds": [1, 1, 18, 1]},
            ]},
            {"id": "dialog", "role": "dialog", "label": "Sure?", "bounds": [10, 0, 7, 1]},
        ]});
        serde_json::from_value(json).unwrap()
    }

    fn screened(ids: &[&str]) -> Vec<(String, Bounds)> {
        let tree = tree();
        let all = [&tree.roots[0], &tree.roots[0].children[0], &tree.roots[1]];
        ids.iter()
            .map(|id| {
                let node = all.iter().find(|n| n.id == *id).unwrap();
                (id.to_string(), node.bounds)
            })
            .collect()
    }

    #[test]
    fn a_node_shows_the_cells_no_node_drawn_after_it_covers() {
        let rows = [
            "┌Tasks────[Sure?]──┐".to_owned(),
            "│[x] Milk          │".to_owned(),
            "└──────────────────┘".to_owned(),
        ];
        let text = section(&tree(), &screened(&["tasks", "tasks/1", "dialog"]), &rows);
        assert_eq!(
            text,
            "screen (the text inside each node's bounds):\n\
             \x20 [id=tasks] row 0 \"┌Tasks────       ──┐\"\n\
             \x20 [id=tasks] row 1 \"│                  │\"\n\
             \x20 [id=tasks] row 2 \"└──────────────────┘\"\n\
             \x20 [id=tasks/1] \"[x] Milk\"\n\
             \x20 [id=dialog] \"[Sure?]\"\n"
        );
        // The marker no longer drawn: the item's line differs.
        let undrawn = [
            rows[0].clone(),
            "│    Milk          │".to_owned(),
            rows[2].clone(),
        ];
        let text = section(&tree(), &screened(&["tasks/1"]), &undrawn);
        assert!(text.ends_with("  [id=tasks/1] \"    Milk\"\n"), "{text}");
    }

    #[test]
    fn a_node_with_nothing_drawn_or_off_screen_says_so() {
        let rows = [String::new()];
        let text = section(&tree(), &screened(&["tasks/1"]), &rows);
        assert!(text.ends_with("  [id=tasks/1] \"\"\n"), "{text}");
        assert_eq!(section(&tree(), &[], &rows), "");
    }

    #[test]
    fn a_recording_keeps_the_cells_of_nodes_only_and_blanks_redacted_ones() {
        let json = serde_json::json!({"frame": 1, "roots": [
            {"id": "name", "role": "text_input", "label": "Name", "bounds": [0, 0, 10, 1]},
            {"id": "pin", "role": "text_input", "label": "PIN", "redacted": true,
             "redactedLength": 4, "bounds": [0, 1, 10, 1]},
        ]});
        let tree: Tree = serde_json::from_value(json).unwrap();
        let rows = [
            "Name: Ada   (not a node)".to_owned(),
            "PIN: 1234  echo: 1234".to_owned(),
            "界".to_owned(),
        ];
        assert_eq!(recordable(&tree, &rows), ["Name: Ada", "", ""]);
        // The screen check blanks the redacted node the same way on both sides.
        let screened = [("pin".to_owned(), tree.roots[1].bounds)];
        let recorded = section(&tree, &screened, &recordable(&tree, &rows));
        assert_eq!(recorded, section(&tree, &screened, &rows));
        assert!(recorded.ends_with("  [id=pin] \"\"\n"), "{recorded}");
    }

    #[test]
    fn a_wide_character_takes_two_cells_and_a_combining_one_none() {
        assert_eq!(cells("a界b"), ["a", "界", "", "b"]);
        assert_eq!(cells("e\u{301}x"), ["e\u{301}", "x"]);
    }
}
