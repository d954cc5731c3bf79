//! The node an agent names by id, in the view it reads.

use crate::errors::{Code, ToolError};
use crate::link::View;
use taria_schema::Node;

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
