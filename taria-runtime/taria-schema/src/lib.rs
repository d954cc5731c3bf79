//! taria's shared schema: what an app and its consumers agree on, and nothing either
//! side runs alone.
//!
//! An app built with [`taria`](https://docs.rs/taria) records this model each frame
//! and serves it on a local socket; a consumer (`taria-mcp`, another bridge, a tool)
//! reads it from there. Both depend on this crate, and neither builds what only the
//! other needs: a bridge does not compile the recorder, the event loop or the
//! derive macro, and an app does not compile the bridge.
//!
//! * **The node model**, at the crate root: a [`Tree`] of [`Node`]s, each with a
//!   [`Role`], a label, a [`Value`], [`State`], the [`Action`]s it offers and its
//!   [`Bounds`]; [`Query`] finds nodes.
//! * [`protocol`]: the messages of protocol v1 (`docs/protocol.md`), the key grammar,
//!   the target token.
//! * [`socket`]: finding an app (where the app labelled so listens, and why it would
//!   refuse to serve at a path).
//! * [`check`]: the one check of an action on a node, which the app and a bridge's
//!   pre-check share.
//! * [`mirror`]: keeping a copy of the app's tree from a whole [`Tree`] and then
//!   [`Patch`](mirror::Patch)es.
//! * [`outline`]: the outline writer, piece by piece (a subtree, under a size cap),
//!   with the same lines as [`Tree::outline`].
//! * [`picture`]: a screen's cells as a picture (SVG; PNG with the `png` feature).
//! * [`recording`]: a recorded session (`taria-mcp --record`) and reading it back.
//!
//! # Examples
//!
//! A tree as a consumer receives it, read back and written as the outline an agent
//! reads:
//!
//! ```
//! use taria_schema::{Role, Tree};
//!
//! let tree: Tree = serde_json::from_str(
//!     r#"{"frame": 3, "roots": [{"id": "save", "role": "button", "label": "Save",
//!        "actions": ["activate"], "bounds": [0, 0, 6, 1]}]}"#,
//! )?;
//! let save = tree.get("save").expect("in the tree");
//! assert_eq!(save.role, Role::Button);
//! assert!(save.offers("activate"));
//! assert_eq!(tree.outline(), "- button \"Save\" [id=save] {activate}\n");
//! # Ok::<(), serde_json::Error>(())
//! ```

mod model;

pub mod check;
pub mod mirror;
pub mod outline;
pub mod picture;
pub mod protocol;
pub mod recording;
pub mod socket;

#[doc(hidden)]
pub use model::hash_id_text;
pub use model::{
    Action, ActionData, ActionName, ActionRequest, ActionSet, Bounds, Checked, Diagnostic,
    DomainError, MAX_DEPTH, MAX_LABEL_BYTES, MAX_NODES, MAX_VALUE_BYTES, Node, NodeId, Position,
    Query, Role, ScrollDirection, ScrollInfo, State, StateFlags, Tree, Value, ValueSchema,
};
