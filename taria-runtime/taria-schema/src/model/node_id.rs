//! Node identity.

use serde::{Deserialize, Serialize};

/// A node's id: explicit (`id = "save"`, stable across frames) or derived from the
/// parent chain plus a key or a position (see [`Node::stable`](crate::model::Node::stable)).
///
/// # Examples
///
/// ```
/// use taria::node::NodeId;
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

/// Hashes id text: FxHash-style, fast, not DoS-resistant (ids come from the app). The
/// recorder's duplicate-id map keys on it, and a target token is one (on the wire:
/// its output must not change).
#[doc(hidden)]
pub fn hash_id_text(bytes: &[u8]) -> u64 {
    const K: u64 = 0xf135_7aea_2e62_a9c5;
    let mut h: u64 = 0;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(26) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    for &b in chunks.remainder() {
        h = (h.rotate_left(26) ^ u64::from(b)).wrapping_mul(K);
    }
    (h ^ bytes.len() as u64).wrapping_mul(K).rotate_left(20)
}

#[cfg(test)]
mod tests {
    use super::hash_id_text;

    #[test]
    fn the_id_hash_is_what_target_tokens_were_made_of() {
        // Target tokens are on the wire: these values must never change.
        assert_eq!(hash_id_text(b""), 0);
        assert_eq!(hash_id_text(b"save"), 0x2a66_4647_608d_0750);
        assert_eq!(hash_id_text(b"tasks/1007"), 0x5d8f_071a_4781_6db9);
        assert_eq!(
            hash_id_text("files/a%2Fb/é".as_bytes()),
            0x1163_16a1_ec9e_a205
        );
    }
}
