//! [`audit`]: explores an app the way an agent would — every node, every action it
//! offers — and checks each answer against the frames and the screen that follow.
//!
//! The same explorer runs headless here, over an [`AppHarness`], and against a real
//! app in a pseudo-terminal behind the real bridge (`taria-mcp audit -- <command>`),
//! through the [`Target`] trait (the `taria-audit` crate's, re-exported here): what differs is only how an app is started, driven
//! and looked at. The checks ([`Check`]) are the same, and so is the report.
//!
//! # Examples
//!
//! ```
//! use ratatui::widgets::Paragraph;
//! use taria::testing::{AppHarness, audit};
//!
//! #[derive(Default)]
//! struct Counter {
//!     count: u32,
//! }
//!
//! #[taria::actions]
//! impl Counter {
//!     #[action(node = "count", increment)]
//!     fn bump(&mut self) {
//!         self.count += 1;
//!     }
//! }
//!
//! fn draw(frame: &mut ratatui::Frame<'_>, counter: &mut Counter) {
//!     let text = format!("Count {}", counter.count);
//!     taria::leaf(|n| {
//!         n.role(taria::Role::SpinButton)
//!             .id("count")
//!             .label("Count")
//!             .value(counter.count)
//!             // Offers `decrement` too, which nothing performs: the audit says so.
//!             .actions([taria::Action::Increment, taria::Action::Decrement])
//!             .bounds(frame.area());
//!     });
//!     frame.render_widget(Paragraph::new(text), frame.area());
//! }
//!
//! let report = audit(|| AppHarness::new(Counter::default(), 20, 1, draw));
//! assert_eq!(report.violations.len(), 1, "{report}");
//! assert_eq!(report.violations[0].check, taria::testing::Check::UnperformedOffer);
//! assert!(!report.is_clean());
//! ```

mod headless;
#[cfg(test)]
mod tests;

pub use taria_audit::{
    Answer, AuditReport, Check, Coverage, Input, Limits, Observation, Target, Tried, Untried,
    Violation, direction_name, explore, frame_violations,
};

use super::AppHarness;
use crate::dispatch::Actions;

/// Audits the app `start` builds, headless: [`explore`] over [`AppHarness`]es, a
/// fresh one from `start` whenever an action changed the app's state, with the
/// default [`Limits`].
///
/// # Examples
///
/// A counter that performs what it offers, draws its label and value, and shows
/// each change:
///
/// ```
/// use taria::{Action, Role, testing::AppHarness, testing::audit::audit};
///
/// #[derive(Default)]
/// struct Counter { count: u32 }
///
/// #[taria::actions]
/// impl Counter {
///     #[action(node = "count", increment)]
///     fn bump(&mut self) { self.count += 1; }
/// }
///
/// fn draw(frame: &mut ratatui::Frame<'_>, counter: &mut Counter) {
///     frame.render_widget(format!("Count {}", counter.count), frame.area());
///     taria::leaf(|n| {
///         n.role(Role::SpinButton).id("count").label("Count").value(counter.count);
///         n.action(Action::Increment).bounds(frame.area());
///     });
/// }
///
/// let report = audit(|| AppHarness::new(Counter::default(), 20, 1, draw));
/// assert!(report.is_clean(), "{report}");
/// assert!(report.tried.iter().any(|tried| tried.node == "count" && tried.action == "increment"));
/// ```
pub fn audit<A: Actions>(start: impl FnMut() -> AppHarness<A>) -> AuditReport {
    audit_with(start, &Limits::default())
}

/// [`audit`] within `limits`.
pub fn audit_with<A: Actions>(
    start: impl FnMut() -> AppHarness<A>,
    limits: &Limits,
) -> AuditReport {
    let mut target = headless::Headless::new(start);
    explore(&mut target, limits)
}
