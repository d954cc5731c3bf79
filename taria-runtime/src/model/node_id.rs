//! Node identity.

use serde::{Deserialize, Serialize};

/// A node's id: explicit (`id = "save"`, stable across frames) or derived from the
/// parent chain plus a key or a position (see [`Node::stable`](crate::model::Node::stable)).
///
/// ```
/// use taria::NodeId;
/// let id = NodeId::new("todo-list/3");
/// assert_eq!(id.as_str(), "todo-list/3");
/// assert_eq!(format!("{id:?}"), "#todo-list/3");
/// ```
#[derive(Clone, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct NodeId(Box<str>);

impl NodeId {
    /// Makes an id from its text.
    pub fn new(id: impl Into<Box<str>>) -> NodeId {
        NodeId(id.into())
    }

    /// The id's text.
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl std::fmt::Display for NodeId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for NodeId {
    fn from(id: &str) -> Self {
        NodeId::new(id)
    }
}

impl PartialEq<str> for NodeId {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for NodeId {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}
