//! What a consumer of a running app builds on: `taria-mcp`, or any other bridge, tool
//! or test that talks to an app's socket. App code does not need this module. One
//! submodule per concern:
//!
//! * [`socket`]: finding an app (where the app labelled so listens, and why it would
//!   refuse to serve at a path);
//! * [`protocol`]: the messages of protocol v1 (`docs/protocol.md`), the key grammar,
//!   the target token;
//! * [`check`]: the one check of an action on a node, which the app and a bridge's
//!   pre-check share;
//! * [`mirror`]: keeping a copy of the app's tree from a whole [`Tree`](crate::model::Tree)
//!   and then [`Patch`](mirror::Patch)es;
//! * [`outline`]: writing outlines piece by piece (a subtree, under a size cap) with
//!   the same lines as [`Tree::outline`](crate::model::Tree::outline);
//! * [`recording`]: a recorded session (`taria-mcp --record`) and reading it back.

pub mod check;
pub mod mirror;
pub mod outline;
pub mod protocol;
pub mod recording;
pub mod socket;
