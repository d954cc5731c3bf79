//! The audit of a taria app: explores it the way an agent would — every node, every
//! action it offers — and checks each answer against the frames and the screen that
//! follow.
//!
//! The same explorer ([`explore`]) runs headless, over `taria::testing::AppHarness`
//! (`taria::testing::audit`), and against a real app in a pseudo-terminal behind the
//! real bridge (`taria-mcp audit -- <command>`), through the [`Target`] trait: what
//! differs is only how an app is started, driven and looked at. The checks
//! ([`Check`]) are the same, and so is the report ([`AuditReport`]). The checks of
//! one frame ([`frame_violations`]: text not drawn where a node says, duplicates,
//! selection, the accessibility lint, …) also run alone, and so do some one by one
//! ([`undrawn_text`], [`duplicate_nodes`], [`inaccessible_nodes`]).
//!
//! # Examples
//!
//! The checks of one frame, on a tree and the screen drawn with it: a button whose
//! label is not on screen.
//!
//! ```
//! use std::collections::BTreeSet;
//!
//! use ratatui::buffer::Buffer;
//! use taria_audit::{Check, frame_violations};
//! use taria_schema::Tree;
//!
//! let tree: Tree = serde_json::from_str(
//!     r#"{"frame": 1, "roots": [{"id": "save", "role": "button", "label": "Save",
//!        "actions": ["activate"], "bounds": [0, 0, 10, 1]}]}"#,
//! )?;
//! let screen = Buffer::with_lines(["Cancel    "]);
//! // No node is moving on its own (an animation the audit learnt to leave out).
//! let violations = frame_violations(&tree, &screen, &BTreeSet::new());
//! assert_eq!(violations[0].check, Check::Undrawn);
//! # Ok::<(), serde_json::Error>(())
//! ```

mod accessibility;
mod drawn;
mod duplicates;
mod explore;
mod frame;
mod node_text;
mod report;

use std::time::Duration;

use ratatui::buffer::Buffer;

use taria_schema::{ActionName, ScrollDirection, Tree, Value};

pub use accessibility::inaccessible_nodes;
pub use drawn::undrawn_text;
pub use duplicates::duplicate_nodes;
pub use explore::explore;
pub use frame::frame_violations;
pub use report::{AuditReport, Coverage, Tried, Untried};

/// What one check is about: each violation names the check it broke.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[non_exhaustive]
pub enum Check {
    /// A node with bounds does not show its label or value inside them.
    Undrawn,
    /// A node drawn on screen has no bounds (`[0,0,0,0]`).
    ZeroBounds,
    /// A node marked `selected` is drawn like its unselected siblings, or the screen
    /// highlights another one.
    Selection,
    /// A value holds more than is drawn and does not say it is clipped (a `scroll`).
    ClippedValue,
    /// Two nodes say the same thing in the same place.
    Duplicate,
    /// A redraw with no input gave the same nodes other ids.
    UnstableIds,
    /// An actionable node without a name, an input without a label, or a focused
    /// node not on screen.
    Accessibility,
    /// An offered action that nothing in the app performs (answered `ignored`).
    UnperformedOffer,
    /// An action answered delivered that changed nothing visible (the tree and the
    /// screen are as before).
    NoVisibleEffect,
    /// An answer said nothing changed, and the frames that followed show a change.
    UntrueNothingChanged,
    /// The same input twice did more than the action promises (a second `focus`, a
    /// `select` of the selected, the same `set_value`, changed something).
    RepeatChanged,
    /// A refusal whose reason is not true (the node offers the action it says it
    /// does not; a node it says is gone is there).
    UntrueRefusal,
    /// taria's own words quoted as the app's.
    Misattributed,
    /// The app exited or stopped answering.
    AppFailed,
}

impl Check {
    /// Every check, in report order.
    pub const ALL: [Check; 14] = [
        Check::Undrawn,
        Check::ZeroBounds,
        Check::Selection,
        Check::ClippedValue,
        Check::Duplicate,
        Check::UnstableIds,
        Check::Accessibility,
        Check::UnperformedOffer,
        Check::NoVisibleEffect,
        Check::UntrueNothingChanged,
        Check::RepeatChanged,
        Check::UntrueRefusal,
        Check::Misattributed,
        Check::AppFailed,
    ];

    /// The check's name in reports (`snake_case`).
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Check::Undrawn => "undrawn",
            Check::ZeroBounds => "zero_bounds",
            Check::Selection => "selection",
            Check::ClippedValue => "clipped_value",
            Check::Duplicate => "duplicate",
            Check::UnstableIds => "unstable_ids",
            Check::Accessibility => "accessibility",
            Check::UnperformedOffer => "unperformed_offer",
            Check::NoVisibleEffect => "no_visible_effect",
            Check::UntrueNothingChanged => "untrue_nothing_changed",
            Check::RepeatChanged => "repeat_changed",
            Check::UntrueRefusal => "untrue_refusal",
            Check::Misattributed => "misattributed",
            Check::AppFailed => "app_failed",
        }
    }
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// One thing the audit found untrue.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Violation {
    /// The check it broke.
    pub check: Check,
    /// The node it is about, when one.
    pub node: Option<String>,
    /// The inputs that led to the frame or answer it is about, from a fresh start
    /// (`act list#0/3 select`, …); empty for the first frame.
    pub path: Vec<String>,
    /// What is untrue, in words.
    pub message: String,
}

impl Violation {
    /// A violation of `check` about `node` (if any), at the start.
    #[must_use]
    pub fn new(check: Check, node: Option<&str>, message: impl Into<String>) -> Violation {
        Violation {
            check,
            node: node.map(str::to_owned),
            path: Vec::new(),
            message: message.into(),
        }
    }
}

/// How far the audit goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The most inputs performed, repeats and restarts' replays included.
    pub max_inputs: usize,
    /// How long it explores; what is left is listed as not tried.
    pub max_time: Duration,
    /// How many inputs deep from a fresh start it goes: 1 tries what the first
    /// frame offers; 2 also what those inputs revealed.
    pub max_depth: usize,
    /// How long an app is watched with no input to learn what changes by itself
    /// (an animation, a clock), which the checks then leave out.
    pub idle: Duration,
    /// How long after an answer the audit waits for the frames that follow.
    pub settle: Duration,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_inputs: 400,
            max_time: Duration::from_secs(120),
            max_depth: 2,
            idle: Duration::from_millis(1200),
            settle: Duration::from_millis(300),
        }
    }
}

/// An input the audit performs.
#[derive(Clone, Debug, PartialEq)]
pub struct Input {
    /// The node acted on.
    pub node: String,
    /// The action.
    pub action: ActionName,
    /// `set_value`'s value.
    pub value: Option<Value>,
    /// `scroll`'s direction.
    pub direction: Option<ScrollDirection>,
}

impl std::fmt::Display for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "act {} {}", self.node, self.action)?;
        if let Some(value) = &self.value {
            write!(f, " {}", serde_json::to_string(value).unwrap_or_default())?;
        }
        if let Some(direction) = self.direction {
            write!(f, " {}", direction_name(direction))?;
        }
        Ok(())
    }
}

/// A scroll direction's name on the wire (`act`'s `direction`).
#[must_use]
pub fn direction_name(direction: ScrollDirection) -> &'static str {
    match direction {
        ScrollDirection::Up => "up",
        ScrollDirection::Down => "down",
        ScrollDirection::Left => "left",
        ScrollDirection::Right => "right",
    }
}

/// What an app answered an input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Delivered. `said_changed` is what the answer told the agent about the tree
    /// (`Some(false)`: "nothing changed"); `None` where the driver says nothing of
    /// it (headless, where the tree after is drawn before the answer).
    Delivered {
        /// Whether the answer said the tree changed.
        said_changed: Option<bool>,
    },
    /// Not delivered: nothing in the app took it (`ignored`).
    Ignored {
        /// The words the agent read.
        message: String,
    },
    /// Refused, by taria's checks, a widget or the app's handler.
    Refused {
        /// The error code the agent read (`action_unsupported`, `not_found`, …), or
        /// the reject reason headless.
        code: String,
        /// The words the agent read.
        message: String,
    },
    /// The app exited (or the connection to it ended) on the input.
    Exited {
        /// How, in words.
        message: String,
    },
}

/// One frame as the audit sees it: the tree, and the screen drawn with it.
#[derive(Clone, Debug)]
pub struct Observation {
    /// The tree.
    pub tree: Tree,
    /// The screen of the same frame, with its styles.
    pub screen: Buffer,
}

/// An app the audit can drive: started fresh, acted on, watched. Implemented headless
/// for `taria::testing::AppHarness` (`taria::testing::audit`) and by `taria-mcp audit` for an app in a
/// pseudo-terminal behind the bridge.
///
/// # Examples
///
/// A target of one fixed frame, whose button's `activate` nothing performs:
///
/// ```
/// use std::time::Duration;
///
/// use ratatui::buffer::Buffer;
/// use taria_audit::{Answer, Input, Observation, Target};
///
/// /// An app that draws one button and takes no action on it.
/// struct Inert;
///
/// fn frame() -> Observation {
///     let tree = serde_json::from_str(
///         r#"{"frame": 1, "roots": [{"id": "save", "role": "button", "label": "Save",
///            "actions": ["activate"], "bounds": [0, 0, 4, 1]}]}"#,
///     )
///     .expect("a tree");
///     Observation { tree, screen: Buffer::with_lines(["Save"]) }
/// }
///
/// impl Target for Inert {
///     fn start(&mut self) -> Result<Observation, String> {
///         Ok(frame())
///     }
///     fn observe(&mut self, _wait: Duration) -> Result<Observation, String> {
///         Ok(frame())
///     }
///     fn idle(&mut self, _during: Duration) -> Result<Vec<Observation>, String> {
///         Ok(vec![frame()])
///     }
///     fn perform(&mut self, _input: &Input) -> Answer {
///         Answer::Ignored { message: "nothing in the app takes `activate`".into() }
///     }
/// }
///
/// let report = taria_audit::explore(&mut Inert, &taria_audit::Limits::default());
/// assert_eq!(report.violations[0].check, taria_audit::Check::UnperformedOffer);
/// ```
pub trait Target {
    /// Starts the app afresh (stopping the one before), and returns its first frame;
    /// the error says why it could not start.
    ///
    /// # Errors
    ///
    /// When the app cannot be started or draws no frame.
    fn start(&mut self) -> Result<Observation, String>;
    /// The app's latest frame, after waiting `wait` for any frames still to come.
    ///
    /// # Errors
    ///
    /// When the app is gone.
    fn observe(&mut self, wait: Duration) -> Result<Observation, String>;
    /// Frames drawn with no input over about `during` (at least one: the latest);
    /// a target that can make the app draw again (a resize back and forth) does.
    ///
    /// # Errors
    ///
    /// When the app is gone.
    fn idle(&mut self, during: Duration) -> Result<Vec<Observation>, String>;
    /// Performs `input` as an agent's `act` does, and says what the agent was told.
    fn perform(&mut self, input: &Input) -> Answer;
}
