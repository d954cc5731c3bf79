//! How big a recorded tree may be: the recorder leaves out what is beyond these (and
//! reports it in [`Tree::diagnostics`](super::Tree::diagnostics)), and a mirror of
//! an app's tree refuses to nest deeper.

/// How deep nodes may nest; deeper nodes are left out and reported.
pub const MAX_DEPTH: usize = 64;
/// How many nodes one frame may hold; more are left out and reported.
pub const MAX_NODES: usize = 65_536;
/// The most bytes kept of a label (cut at a character boundary).
pub const MAX_LABEL_BYTES: usize = 1024;
/// The most bytes kept of a text value (cut at a character boundary).
pub const MAX_VALUE_BYTES: usize = 64 * 1024;
