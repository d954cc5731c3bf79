//! What the agent saw: the tree of the last result it was given, and the last one
//! with no modal dialog open. Tools note each tree they show; the transport notes, as
//! each input call arrives, the tree that call's positional ids were read from
//! ([`crate::order`]); what an input changed is said against them
//! ([`crate::tools::change`]).

use std::sync::{Arc, Mutex};

use taria_schema::Tree;

use crate::lock::lock;

/// What the agent saw. Cheap to clone (the clones share it).
#[derive(Clone, Default)]
pub(crate) struct Seen(Arc<Mutex<Saw>>);

#[derive(Default)]
struct Saw {
    /// The tree of the last result the agent was given.
    last: Option<Arc<Tree>>,
    /// The last tree the agent saw with no modal dialog open: how the nodes behind a
    /// dialog were, with their actions, before it made them inert.
    live: Option<Arc<Tree>>,
}

impl Seen {
    /// Notes `tree` as the one the agent saw last: actions on positional ids are
    /// checked against it, so they cannot hit a node that moved into the place.
    pub(crate) fn saw(&self, tree: &Arc<Tree>) {
        let modal_free = !tree.iter().any(|n| n.state.modal);
        let mut saw = lock(&self.0);
        saw.last = Some(Arc::clone(tree));
        if modal_free {
            saw.live = Some(Arc::clone(tree));
        }
    }

    /// The tree the agent saw last.
    pub(crate) fn last(&self) -> Option<Arc<Tree>> {
        lock(&self.0).last.clone()
    }

    /// The last tree the agent saw with no modal dialog open.
    pub(crate) fn last_live(&self) -> Option<Arc<Tree>> {
        lock(&self.0).live.clone()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use taria_schema::{Node, Tree};

    use super::Seen;

    fn tree(frame: u64, modal: bool) -> Arc<Tree> {
        let mut tree = Tree::default();
        tree.frame = frame;
        let mut node = Node::default();
        node.id = "dialog".into();
        node.state.modal = modal;
        tree.roots.push(node);
        Arc::new(tree)
    }

    /// While a dialog is open, the last tree without one is kept: how the nodes
    /// behind it were before the dialog made them inert.
    #[test]
    fn the_last_tree_without_a_dialog_is_kept_beside_the_last() {
        let seen = Seen::default();
        assert!(seen.last().is_none() && seen.last_live().is_none());
        seen.saw(&tree(1, false));
        seen.saw(&tree(2, true));
        assert_eq!(seen.last().map(|t| t.frame), Some(2));
        assert_eq!(seen.last_live().map(|t| t.frame), Some(1));
        seen.saw(&tree(3, false));
        assert_eq!(seen.last_live().map(|t| t.frame), Some(3));
    }
}
