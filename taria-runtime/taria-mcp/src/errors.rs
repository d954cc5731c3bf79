//! The stable error codes a tool answers with, and the tool error itself (as a tool
//! result: `tools::failure`).

use serde_json::{Map, Value as Json};

/// Why a tool call failed. The names are stable: agents may branch on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Code {
    /// No node has that id.
    NotFound,
    /// The node does not offer that action, or nothing in the app takes it.
    ActionUnsupported,
    /// The node is disabled.
    Disabled,
    /// The value does not fit the node's domain.
    OutOfDomain,
    /// The node at a positional id is no longer the one the agent saw.
    StaleReference,
    /// The arguments are malformed.
    InvalidArguments,
    /// No app is listening (or the connection was released).
    AppNotConnected,
    /// The app went away while the call was in flight.
    AppExited,
    /// The app did not answer in time.
    Timeout,
    /// Another client holds the app, or its input queue is full.
    Busy,
    /// The answer would be too large.
    TooLarge,
    /// The app's own handler refused the action.
    AppRejected,
    /// The app speaks another wire protocol version: inputs are refused.
    ProtocolMismatch,
    /// taria-mcp hit a bug of its own while handling the call (it is logged).
    Internal,
}

impl Code {
    /// The code's wire name.
    pub(crate) const fn as_str(self) -> &'static str {
        match self {
            Code::NotFound => "not_found",
            Code::ActionUnsupported => "action_unsupported",
            Code::Disabled => "disabled",
            Code::OutOfDomain => "out_of_domain",
            Code::StaleReference => "stale_reference",
            Code::InvalidArguments => "invalid_arguments",
            Code::AppNotConnected => "app_not_connected",
            Code::AppExited => "app_exited",
            Code::Timeout => "timeout",
            Code::Busy => "busy",
            Code::TooLarge => "too_large",
            Code::AppRejected => "app_rejected",
            Code::ProtocolMismatch => "protocol_mismatch",
            Code::Internal => "internal",
        }
    }
}

/// A tool failure the agent sees (`isError: true`) with `{code, message, …}`.
#[derive(Clone, Debug)]
pub(crate) struct ToolError {
    /// The stable code.
    pub(crate) code: Code,
    /// What happened and what to do next.
    pub(crate) message: String,
    /// More fields for the structured content.
    pub(crate) extra: Map<String, Json>,
    /// What the failed call did before it failed, when it did something (a batch's
    /// steps before the one that failed).
    pub(crate) detail: Option<Box<Detail>>,
}

/// Lines for the model after the status line, and the fields they say, for the
/// structured content only (not repeated on the status line).
#[derive(Clone, Debug)]
pub(crate) struct Detail {
    pub(crate) text: Option<String>,
    pub(crate) fields: Map<String, Json>,
}

impl ToolError {
    /// An error with a code and a message.
    pub(crate) fn new(code: Code, message: impl Into<String>) -> ToolError {
        ToolError {
            code,
            message: message.into(),
            extra: Map::new(),
            detail: None,
        }
    }

    /// Adds a field to the structured content.
    #[must_use]
    pub(crate) fn with(mut self, key: &str, value: impl Into<Json>) -> ToolError {
        self.extra.insert(key.to_owned(), value.into());
        self
    }

    /// Shorthand for [`Code::InvalidArguments`].
    pub(crate) fn invalid(message: impl Into<String>) -> ToolError {
        ToolError::new(Code::InvalidArguments, message)
    }
}

impl std::fmt::Display for ToolError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code.as_str(), self.message)
    }
}
