//! A semantic layer for [ratatui] apps that AI agents and tests can read and drive.
//!
//! Annotated render code records, each frame, what every widget *is* — role, label,
//! value, state, the actions it offers, its bounds — into a per-frame arena that
//! costs one flag check when nobody is recording. See the crate README for a tour.
//!
//! The crate root is what an app author uses:
//!
//! * **Annotating render code:** [`widget`](macro@widget) (attribute) and
//!   [`Semantic`] (derive); [`scope`] and [`leaf`] by hand, for nodes drawn in a loop,
//!   each describing its node through a [`NodeBuilder`] ([`Displayed`] for any
//!   `Display` text);
//! * **Running the app:** [`app`] on the code that holds the event loop (the app's
//!   `impl`, or the function: `main` with its `ratatui::run` closure; [`draw`] for a
//!   frame drawn in a method that loop calls), or a [`Session`] by hand ([`drain`],
//!   [`install`], [`with_session`]), which serves the tree on a local socket and hands
//!   agents' inputs to [`actions`] handlers ([`Invocation`], [`Outcome`]);
//!   [`agent_changed`] tells the app which `taria-widgets` widget took one into its
//!   state;
//! * **The semantic model** an app names: [`Role`], [`Action`], [`Value`],
//!   [`Checked`], [`ScrollDirection`], and for reading its tree [`Tree`], [`Node`],
//!   [`Query`], [`StateFlags`].
//!
//! One module for each other audience:
//!
//! * [`testing`]: renders an app headless and drives it as an agent would, for test
//!   authors;
//! * [`widget`](mod@widget): what a widget's implementation calls (a recorder, the
//!   agent's actions for a stateful widget), for widget authors such as
//!   `taria-widgets`;
//!
//! A consumer of a running app (`taria-mcp`, another bridge, a tool) does not build on
//! this crate: the model, the wire protocol, the socket and the recording format are
//! the `taria-schema` crate's, which this one re-exports the model of, and the audit's
//! explorer is `taria-audit`'s.
//!
//! And two that spell out the rest of the model and the builder: [`node`], the parts
//! of a [`Node`] (its id, state, bounds, position, value schema, action names) and of
//! a [`Tree`] (its diagnostics); [`builder`], the argument traits of
//! [`NodeBuilder`]'s setters, the recorder's limits and how a key becomes part of an
//! id. [`event`] is crossterm's `event::read`/`poll` with the agent's keys merged in.
//!
//! # Cargo features
//!
//! * `atspi` (Linux): the tree exported to screen readers over AT-SPI, through
//!   AccessKit; a reader's click, focus and new value reach the app as an agent's
//!   actions do. It does nothing until a screen reader turns AT-SPI on;
//!   [`SessionBuilder::screen_reader`] turns it off for one session. The mapping:
//!   `docs/accessibility.md`.
//! * `regex`: regexes in replay rules (`taria::testing::Pattern::regex`), for tests.
//!
//! [ratatui]: https://ratatui.rs

#[cfg(all(feature = "atspi", target_os = "linux"))]
mod atspi;
mod dispatch;
mod endpoint;
pub mod event;
mod lock;
pub mod logs;
mod recorder;
mod semantic;
mod session;
pub mod testing;

/// The argument traits of [`NodeBuilder`]'s setters (what a flag, a text, a value or
/// an invalid mark may be given as), the recorder's limits, and how a key becomes one
/// segment of an id ([`escape_key`](builder::escape_key)). Code rarely names them;
/// they are here so their documentation says what each setter takes.
pub mod builder {
    pub use crate::recorder::{
        IntoFlag, IntoInvalid, IntoText, IntoValue, InvalidSink, InvalidToken, TextSink, ValueSink,
        ValueToken, escape_key, unescape_key,
    };
    pub use taria_schema::{MAX_DEPTH, MAX_LABEL_BYTES, MAX_NODES, MAX_VALUE_BYTES};
}

/// The parts of a [`Node`] and a [`Tree`]: what a test or a consumer reading a node
/// field by field names. The types an app names (roles, actions, values, state flags)
/// are at the crate root.
pub mod node {
    pub use taria_schema::{
        ActionName, ActionSet, Bounds, Diagnostic, DomainError, NodeId, Position, ScrollInfo,
        State, ValueSchema,
    };
}

/// What a widget's implementation calls, for widget authors (`taria-widgets` is one):
/// whether a frame is being recorded ([`is_recording`](widget::is_recording), to skip
/// work nobody reads), the agent's actions a stateful widget takes into its state
/// while it renders ([`take_widget_actions`](widget::take_widget_actions)) and what it
/// left there ([`widget_state`](widget::widget_state)), and a [`Recorder`](widget::Recorder)
/// to test a widget's nodes frame by frame.
pub mod widget {
    pub use crate::recorder::{Recorder, is_recording};
    pub use crate::session::{take_widget_actions, widget_state, widget_state_rebuilt};
}

#[doc(hidden)]
pub mod __private;

pub use dispatch::closures::{Index, Key, on};
pub use dispatch::{Actions, FromDirection, FromValue, IntoOutcome, Invocation, Outcome};

/// The parts of closure handlers ([`on`]), for state kept in local variables: the
/// chain's type and the traits its closures, parameters and actions are checked
/// against. Code rarely names them; their documentation says what a closure may take.
pub mod handlers {
    pub use crate::dispatch::closures::{
        Call, Chain, Handler, HandlerAction, HandlerArg, HandlerArgs, Handlers, Whole,
        WholeInvocation,
    };
}
pub use recorder::{Displayed, NodeBuilder, Scope, leaf, scope};
pub use semantic::Semantic;
pub use session::{
    DrawOutput, Session, SessionBuilder, agent_changed, drain, drain_with, draw, install,
    with_session,
};
pub use taria_derive::{Semantic, action, actions, app, widget};
pub use taria_schema::socket::EndpointError;
pub use taria_schema::{
    Action, Checked, Node, Query, Role, ScrollDirection, StateFlags, Tree, Value,
};

#[doc = include_str!("../../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;

/// The integration guide's complete examples (the loop shapes of `#[taria::app]`) are
/// compiled as doctests too; its excerpts are `rust,ignore`.
#[doc = include_str!("../../docs/integration-guide.md")]
#[cfg(doctest)]
pub struct IntegrationGuideDoctests;

/// The annotation reference's example (a widget described by the attribute, nodes drawn
/// in a loop, a test on the tree) is compiled and run as a doctest too.
#[doc = include_str!("../../docs/annotating.md")]
#[cfg(doctest)]
pub struct AnnotatingDoctests;
