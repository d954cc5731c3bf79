//! [`unperformed_offers`]: the actions an app's first frame offers that nothing in the
//! app performs, found by performing each one on a fresh copy of the app.

use super::AppHarness;
use crate::dispatch::Actions;
use taria_schema::protocol::AckStatus;
use taria_schema::{Action, ActionName, Node, ScrollDirection, Value, ValueSchema};

/// Every action the first frame of the app `start` builds offers, performed one at a
/// time, each on a fresh app from `start`, as an agent performs it (`set_value` with a
/// value that fits the node's `valueSchema`, `scroll` down by one); one line for each
/// that was answered `ignored` (nothing in the app took it: no handler, no widget, a
/// key fallback that did not reach the node), saying which and why. Empty when
/// something performs every action offered. An action the app's handler or widget
/// refused with a reason counts as performed: the app answered it.
///
/// An agent acts on what the tree offers; an offer nothing performs costs it a call
/// and a wrong guess about the app.
///
/// # Examples
///
/// ```
/// use ratatui::widgets::Paragraph;
/// use taria::testing::{AppHarness, unperformed_offers};
///
/// #[derive(Default)]
/// struct Counter {
///     count: u32,
/// }
///
/// #[taria::actions]
/// impl Counter {
///     #[action(node = "count", increment)]
///     fn bump(&mut self) {
///         self.count += 1;
///     }
/// }
///
/// fn draw(frame: &mut ratatui::Frame<'_>, counter: &mut Counter) {
///     taria::leaf(|n| {
///         n.role(taria::Role::SpinButton)
///             .id("count")
///             .label("Count")
///             .value(counter.count)
///             .actions([taria::Action::Increment, taria::Action::Decrement])
///             .bounds(frame.area());
///     });
///     frame.render_widget(Paragraph::new(format!("Count {}", counter.count)), frame.area());
/// }
///
/// let unperformed = unperformed_offers(|| AppHarness::new(Counter::default(), 20, 1, draw));
/// assert_eq!(unperformed.len(), 1);
/// assert!(unperformed[0].starts_with("`count` offers `decrement`"), "{unperformed:?}");
/// ```
pub fn unperformed_offers<A: Actions>(mut start: impl FnMut() -> AppHarness<A>) -> Vec<String> {
    let first = start().tree();
    let mut offers = Vec::new();
    for root in &first.roots {
        collect(root, &mut offers);
    }
    let mut found = Vec::new();
    for (node, action) in offers {
        let mut app = start();
        let done = match &action {
            ActionName::Core(Action::SetValue) => {
                app.set_value(node.id.as_str(), value_for(node.value_schema.as_ref()))
            }
            ActionName::Core(Action::Scroll) => {
                app.scroll(node.id.as_str(), ScrollDirection::Down, 1)
            }
            action => app.act(node.id.as_str(), action.as_str()),
        };
        if let Err(error) = done
            && error.status == AckStatus::Ignored
        {
            found.push(format!(
                "`{}` offers `{action}`, but nothing performs it: {}",
                node.id, error.message
            ));
        }
    }
    found
}

/// Every node with the actions it offers, in tree order.
fn collect<'t>(node: &'t Node, into: &mut Vec<(&'t Node, ActionName)>) {
    for action in &node.actions {
        into.push((node, action.clone()));
    }
    for child in &node.children {
        collect(child, into);
    }
}

/// A value that fits `schema`: an option, a number in range, `true`, or text.
fn value_for(schema: Option<&ValueSchema>) -> Value {
    match schema {
        Some(ValueSchema::Options { options }) => {
            Value::Text(options.last().cloned().unwrap_or_default())
        }
        Some(ValueSchema::Number { min, max, .. }) => Value::Number(min.or(*max).unwrap_or(1.0)),
        Some(ValueSchema::Bool) => Value::Bool(true),
        _ => Value::Text("x".into()),
    }
}
