//! The outline of trees full of hostile strings: one line per node, each giving
//! back its id.

use proptest::prelude::*;
use taria::{Node, Tree};

use crate::checks::outline_has_a_line_per_node;
use crate::generators::{config, tree};

proptest! {
    #![proptest_config(config())]

    #[test]
    fn the_outline_has_one_line_per_node_whatever_the_strings(tree in tree()) {
        outline_has_a_line_per_node(&tree);
        for root in &tree.roots {
            let _ = root.outline(1);
            prop_assert!(!root.outline_line().contains('\n'));
        }
    }
}

/// An `[index=…]` of `u32::MAX` from a peer overflowed the outline's "follows its
/// sibling" check (`index + 1`): a panic in the bridge's reader.
#[test]
fn an_index_of_u32_max_does_not_overflow_the_outline() {
    let mut tree = Tree::default();
    let mut list = Node::default();
    list.id = "list".into();
    for (id, index) in [("list/a", u32::MAX), ("list/b", 0)] {
        let mut item = Node::default();
        item.id = id.into();
        item.position.index = Some(index);
        list.children.push(item);
    }
    tree.roots.push(list);
    assert_eq!(tree.outline().lines().count(), 3);
}
