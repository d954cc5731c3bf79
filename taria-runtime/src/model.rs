//! The semantic model: roles, actions, state, values, ids, and the owned tree.

mod action;
mod node;
mod node_id;
mod outline;
mod query;
mod role;
mod state;
mod value;

pub use action::{Action, ActionData, ActionName, ActionRequest, ActionSet, ScrollDirection};
pub use node::{Diagnostic, Node, State, Tree};
pub use node_id::NodeId;
pub use outline::{Around, OutlineName, OutlineQuoted, OutlineRules, OutlineText, outline_line_id};
pub use query::Query;
pub use role::Role;
pub use state::{Bounds, Checked, Position, ScrollInfo, StateFlags};
pub use value::{DomainError, Value, ValueSchema};
