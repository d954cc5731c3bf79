//! The semantic model: roles, actions, state, values, ids, and the owned tree.

mod action;
mod limits;
mod node;
mod node_id;
mod outline;
mod query;
mod role;
mod state;
mod value;

pub use action::{Action, ActionData, ActionName, ActionRequest, ActionSet, ScrollDirection};
pub use limits::{MAX_DEPTH, MAX_LABEL_BYTES, MAX_NODES, MAX_VALUE_BYTES};
pub use node::{Diagnostic, Node, State, Tree};
pub use node_id::NodeId;
pub use node_id::hash_id_text;
pub use outline::{
    Around, OutlineName, OutlineQuoted, OutlineRules, OutlineStep, OutlineText, OutlineVisitor,
    outline_line_id, outline_lines, outline_within, walk_outline,
};
pub use query::Query;
pub use role::Role;
pub use state::{Bounds, Checked, Position, ScrollInfo, StateFlags};
pub use value::{DomainError, Value, ValueSchema};
