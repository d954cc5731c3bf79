//! A semantic layer for [ratatui] apps that AI agents and tests can read and drive.
//!
//! Annotated render code records, each frame, what every widget *is* — role, label,
//! value, state, the actions it offers, its bounds — into a per-frame arena that
//! costs one flag check when nobody is recording. See the crate README for a tour.
//!
//! The crate root is what an app author uses:
//!
//! * **Annotating render code:** [`widget`] (attribute) and [`Semantic`] (derive);
//!   [`scope`] and [`leaf`] by hand, for nodes drawn in a loop, each describing its
//!   node through a [`NodeBuilder`];
//! * **Running the app:** [`app`] on the event loop's `impl` (or a [`Session`] by
//!   hand), which serves the tree on a local socket and hands agents' inputs to
//!   [`actions`] handlers ([`Invocation`], [`Outcome`]) and widgets
//!   ([`take_widget_actions`]; [`agent_changed`] tells the app which took one);
//! * **The semantic model** both sides read: [`Tree`], [`Node`], [`Role`], [`Action`],
//!   [`Value`], [`State`], [`Query`].
//!
//! Two layers for other audiences: [`testing`] renders an app headless and drives it
//! as an agent would, for test authors; [`wire`] is what a consumer of a running app
//! (`taria-mcp`, another bridge) builds on. [`builder`] holds the argument traits of
//! [`NodeBuilder`]'s setters and the recorder's limits, which code rarely names.
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

/// The argument traits of [`NodeBuilder`]'s setters (what a flag, a text, a value or
/// an invalid mark may be given as), and the recorder's limits. Code rarely names them;
/// they are here so their documentation says what each setter takes.
pub mod builder {
    pub use crate::recorder::{
        IntoFlag, IntoInvalid, IntoText, IntoValue, InvalidSink, InvalidToken, MAX_DEPTH,
        MAX_LABEL_BYTES, MAX_NODES, MAX_VALUE_BYTES, TextSink, ValueSink, ValueToken,
    };
}

#[doc(hidden)]
pub mod __private;

pub use dispatch::{Actions, FromDirection, FromValue, IntoOutcome, Invocation, Outcome};
pub use endpoint::{EndpointError, SOCKET_ENV, check_socket_path};
pub use keys::{KEY_GRAMMAR, KeyChord, KeyParseError};
pub use model::{
    Action, ActionName, ActionSet, Bounds, Checked, Diagnostic, DomainError, Node, NodeId,
    Position, Query, Role, ScrollDirection, ScrollInfo, State, StateFlags, Tree, Value,
    ValueSchema,
};
pub(crate) use model::{ActionData, ActionRequest};
pub use recorder::{
    Displayed, NodeBuilder, Recorder, Scope, escape_key, is_recording, leaf, scope, unescape_key,
};
pub use semantic::Semantic;
pub use session::{
    DrawOutput, Session, SessionBuilder, agent_changed, drain, install, take_widget_actions,
    widget_state, widget_state_rebuilt, with_session,
};
pub use taria_derive::{Semantic, action, actions, app, widget};

#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
