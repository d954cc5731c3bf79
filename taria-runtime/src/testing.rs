//! Headless tests that assert on meaning — role, label, id, state — not on cells.
//!
//! [`AppHarness`] runs a whole app headless: its draw function, its `#[action]`
//! handlers, and its event handler, with agent inputs (`act`, `set_value`, `press`,
//! `type_text`) going through the same validation and routing an agent's go
//! through. [`Harness`] draws single frames for widget tests. [`assert_snapshot`]
//! compares a tree's outline with a golden file (`TARIA_SNAPSHOTS=overwrite`
//! rewrites it). [`Replay`] runs an agent's recorded session (`taria-mcp --record`)
//! again against an [`AppHarness`], comparing each step's tree under [`Match`]'s
//! rules; `taria-mcp test-from` writes such a session as a test whose steps are
//! checked against [`Snapshots`].
//!
//! # Examples
//!
//! ```
//! use ratatui::widgets::Paragraph;
//! use taria::{Query, Role, StateFlags, testing::Harness};
//!
//! let mut harness = Harness::new(30, 3);
//! let tree = harness.render(|frame| {
//!     let _scope = taria::scope(|n| {
//!         n.role(Role::Button).id("save").label("Save").focused(true).bounds(frame.area());
//!     });
//!     frame.render_widget(Paragraph::new("[ Save ]"), frame.area());
//! });
//! let focused = tree.find(&Query::new().state(StateFlags::FOCUSED)).unwrap();
//! assert_eq!(focused.id, "save");
//! assert_eq!(harness.screen_text()[0].trim_end(), "[ Save ]");
//! ```

mod app_harness;
pub mod audit;
mod diff;
mod logs;
mod offers;
mod replay;
mod snapshot;
mod step;

pub use crate::endpoint::screen_text;
pub use app_harness::{ActError, AppHarness};
pub use audit::{AuditReport, Check, Violation, audit};
pub use replay::{Replay, ReplayError, ReplayFailure, Replayed, TargetChange};
pub use step::Step;
pub use taria_audit::{inaccessible_nodes, undrawn_text};
// Defined with the recording format, whose rules they are (taria-mcp test-from follows
// them too); here for the test author, who names them with the rest of a replay.
pub use taria_audit::duplicate_nodes;
pub use taria_schema::recording::{
    Match, Pattern, PatternError, Rule, RuleConflict, RuleKind, Secrets, Unused,
};
// What a test author compares an answer or reads a recording with: the schema's,
// here so that an app's tests need no other crate.
pub use offers::unperformed_offers;
pub use snapshot::{SNAPSHOTS_ENV, Snapshots, assert_snapshot};
pub use taria_schema::protocol::{AckStatus, RejectReason};
pub use taria_schema::recording::Recording;

use ratatui::{Frame, Terminal, backend::TestBackend, buffer::Buffer};

use taria_schema::Tree;

use crate::recorder::Recorder;

/// A headless terminal with a recorder: each [`Harness::render`] draws one frame.
///
/// # Examples
///
/// ```
/// use taria::{Role, testing::Harness};
///
/// let mut harness = Harness::new(12, 1);
/// let tree = harness.render(|frame| {
///     frame.render_widget("Saved", frame.area());
///     taria::leaf(|n| {
///         n.role(Role::Status).id("status").label("Saved").bounds(frame.area());
///     });
/// });
/// assert_eq!(tree.get("status").unwrap().label.as_deref(), Some("Saved"));
/// assert_eq!(harness.screen_text(), ["Saved       "]);
/// ```
pub struct Harness {
    terminal: Terminal<TestBackend>,
    recorder: Recorder,
}

impl Harness {
    /// A harness with a `width` × `height` screen.
    #[must_use]
    pub fn new(width: u16, height: u16) -> Harness {
        let terminal = match Terminal::new(TestBackend::new(width, height)) {
            Ok(terminal) => terminal,
            Err(never) => match never {},
        };
        Harness {
            terminal,
            recorder: Recorder::new(),
        }
    }

    /// Draws one frame with recording on and returns its tree.
    pub fn render(&mut self, draw: impl FnOnce(&mut Frame<'_>)) -> Tree {
        let terminal = &mut self.terminal;
        let drawn = self.recorder.record(|| terminal.draw(draw).map(|_| ()));
        if let Err(never) = drawn {
            match never {}
        }
        self.recorder.read_drawn(self.terminal.backend().buffer());
        self.recorder.tree()
    }

    /// The tree of the last frame.
    #[must_use]
    pub fn tree(&self) -> Tree {
        self.recorder.tree()
    }

    /// The screen as drawn by the last frame.
    #[must_use]
    pub fn buffer(&self) -> &Buffer {
        self.terminal.backend().buffer()
    }

    /// The screen's text, one string per row (trailing spaces kept).
    #[must_use]
    pub fn screen_text(&self) -> Vec<String> {
        screen_text(self.buffer())
    }

    /// Changes the screen size for the next frame.
    pub fn resize(&mut self, width: u16, height: u16) {
        self.terminal.backend_mut().resize(width, height);
    }
}
