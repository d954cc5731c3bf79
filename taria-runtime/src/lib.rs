//! A semantic layer for [ratatui] apps that AI agents and tests can read and drive.
//!
//! Annotated render code records, each frame, what every widget *is* — role, label,
//! value, state, the actions it offers, its bounds — into a per-frame arena that
//! costs one flag check when nobody is recording. See the crate README for a tour.
//!
//! * [`widget`] (attribute) and [`Semantic`] (derive) annotate render code;
//! * [`scope`] and [`leaf`] are the same thing by hand, for nodes drawn in a loop;
//! * [`Recorder`] records frames, [`Tree`] is what one frame means;
//! * [`testing`] renders headless and queries the tree.
//!
//! [ratatui]: https://ratatui.rs

mod dispatch;
mod endpoint;
pub mod event;
mod keys;
mod model;
mod recorder;
mod semantic;
mod session;
pub mod testing;
pub mod wire;

#[doc(hidden)]
pub mod __private;

pub use dispatch::{Actions, FromValue, IntoOutcome, Invocation, Outcome, match_pattern};
pub use endpoint::{Endpoint, EndpointError, SOCKET_ENV, check_socket_path, socket_path};
pub use keys::{KEY_GRAMMAR, KeyChord, KeyParseError};
pub use model::{
    Action, ActionData, ActionName, ActionRequest, ActionSet, Around, Bounds, Checked, Diagnostic,
    DomainError, FlatNode, FlatTree, Node, NodeId, NodeUpdate, OutlineName, OutlineQuoted,
    OutlineText, Patch, Position, Query, Role, ScrollDirection, ScrollInfo, State, StateFlags,
    Tree, Value, ValueSchema, outline_line_id,
};
pub use recorder::{
    Displayed, IntoFlag, IntoInvalid, IntoText, IntoValue, InvalidSink, InvalidToken, MAX_DEPTH,
    MAX_LABEL_BYTES, MAX_NODES, MAX_VALUE_BYTES, NodeBuilder, Recorder, Scope, TextSink, ValueSink,
    ValueToken, is_recording, leaf, scope,
};
pub use semantic::Semantic;
pub use session::{
    DrawOutput, Session, SessionOptions, drain, install, is_connected, take_widget_actions,
    with_session,
};
pub use taria_derive::{Semantic, actions, app, widget};

#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
