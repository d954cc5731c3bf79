//! What holds whatever a decoder was fed: a message decodes to itself again, an
//! outline has one line per node, a mirrored tree is sane.

use std::collections::HashSet;

use taria::node::NodeId;
use taria::{Node, Tree};
use taria_schema::mirror::FlatTree;
use taria_schema::outline::{OutlineRules as _, outline_line_id};
use taria_schema::protocol::{AppMessage, BridgeMessage};

use crate::generators::ids;

/// Decoding `bytes` as the app (or the bridge) does never panics, and what decodes
/// survives a round trip through its own JSON.
pub(crate) fn decodes_sanely(bytes: &[u8]) {
    if let Ok(message) = serde_json::from_slice::<BridgeMessage>(bytes) {
        let again = serde_json::to_vec(&message).unwrap();
        let back: BridgeMessage = serde_json::from_slice(&again).unwrap();
        assert_eq!(back, message);
    }
    if let Ok(message) = serde_json::from_slice::<AppMessage>(bytes) {
        let again = serde_json::to_vec(&message).unwrap();
        let back: AppMessage = serde_json::from_slice(&again).unwrap();
        assert_eq!(back, message);
        if let AppMessage::Tree { tree, .. } = &message {
            outline_has_a_line_per_node(tree);
            let _ = FlatTree::from_tree(tree).to_tree();
        }
    }
}

/// The outline has one line per node, in `tree.iter()` order, each giving back its
/// node's id (or none, for an inert part of its parent).
pub(crate) fn outline_has_a_line_per_node(tree: &Tree) {
    fn expected<'t>(node: &'t Node, parent: Option<&Node>, out: &mut Vec<Option<&'t str>>) {
        out.push((!node.id_implied(parent)).then(|| node.id.as_str()));
        for child in &node.children {
            expected(child, Some(node), out);
        }
    }
    let outline = tree.outline();
    let lines: Vec<&str> = outline.split('\n').filter(|l| !l.is_empty()).collect();
    assert_eq!(lines.len(), tree.len(), "{outline}");
    let mut want = Vec::new();
    for root in &tree.roots {
        expected(root, None, &mut want);
    }
    for (line, id) in lines.iter().zip(want) {
        assert!(line.trim_start_matches(' ').starts_with("- "), "{line}");
        assert_eq!(outline_line_id(line).as_deref(), id, "{line}");
    }
}

/// What `FlatTree` promises whatever it was fed: a tree with each id once, at most
/// `MAX_DEPTH` + 1 levels, that flattens back to itself.
pub(crate) fn flat_tree_is_sane(flat: &FlatTree) {
    fn depth(node: &Node) -> usize {
        1 + node.children.iter().map(depth).max().unwrap_or(0)
    }
    let tree = flat.to_tree();
    let all = ids(&tree);
    let unique: HashSet<&NodeId> = all.iter().collect();
    assert_eq!(unique.len(), all.len(), "an id twice: {all:?}");
    let deepest = tree.roots.iter().map(depth).max().unwrap_or(0);
    assert!(deepest <= taria::builder::MAX_DEPTH + 1, "{deepest} levels");
    assert_eq!(FlatTree::from_tree(&tree).to_tree(), tree);
    outline_has_a_line_per_node(&tree);
}
