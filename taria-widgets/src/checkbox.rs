//! [`Checkbox`]: a labelled check box (ratatui has none), recorded as `checkbox`.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use taria::{Action, Invocation, Outcome, Role, Value};

use crate::field::FieldState;
use crate::semantic::SemanticWidget;

/// `[x] Label` / `[ ] Label`. Its state is a `bool` (checked).
///
/// Recorded as `checkbox`: label, `checked`, and the form state
/// ([`focused`](Checkbox::focused), [`required`](Checkbox::required),
/// [`disabled`](Checkbox::disabled), [`invalid`](Checkbox::invalid)). With an [`id`](Checkbox::id) it offers
/// `toggle` and `set_value` (a bool) and takes them into its state.
///
/// # Examples
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::StatefulWidget};
/// use taria_widgets::Checkbox;
///
/// let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
/// Checkbox::new("Done").render(buf.area, &mut buf, &mut true);
/// assert_eq!(buf, Buffer::with_lines(["[x] Done    "]));
/// ```
///
/// The node it records, with an id and the app's state:
///
/// ```
/// use taria::{Checked, Role, testing::Harness};
/// use taria_widgets::Checkbox;
///
/// let mut done = true;
/// let tree = Harness::new(12, 1).render(|frame| {
///     frame.render_stateful_widget(Checkbox::new("Done").id("done"), frame.area(), &mut done);
/// });
/// let node = tree.get("done").unwrap();
/// assert_eq!((node.role, node.label.as_deref()), (Role::Checkbox, Some("Done")));
/// assert_eq!(node.state.checked, Some(Checked::True));
/// assert!(node.offers("toggle") && node.offers("set_value"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Checkbox<'a> {
    label: Line<'a>,
    style: Style,
    id: Option<&'a str>,
    field: FieldState<'a>,
}

impl<'a> Checkbox<'a> {
    /// A check box labelled `label`.
    pub fn new<T: Into<Line<'a>>>(label: T) -> Self {
        Checkbox {
            label: label.into(),
            ..Checkbox::default()
        }
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id; the box then takes `toggle` and `set_value`.
    );

    crate::field::field_methods!();
}

/// What the box does with an agent's `toggle` or `set_value`.
pub(crate) fn apply_action(checked: &mut bool, inv: &Invocation<'_>) -> Outcome {
    match (inv.action().core(), inv.value()) {
        (Some(Action::Toggle), _) => *checked = !*checked,
        (Some(Action::SetValue), Some(Value::Bool(b))) => *checked = *b,
        (Some(Action::SetValue), _) => {
            return Outcome::Rejected("a check box takes true or false".into());
        }
        _ => return Outcome::NotHandled,
    }
    Outcome::Handled
}

impl SemanticWidget for Checkbox<'_> {
    type State = bool;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn apply(&self, checked: &mut bool, inv: &Invocation<'_>) -> Outcome {
        apply_action(checked, inv)
    }

    fn describe(&self, area: Rect, checked: &bool, offer: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(Role::Checkbox)
                .label(&self.label)
                .checked(*checked)
                .bounds(area);
            self.field.record(n);
            if let Some(id) = self.id {
                n.id(id);
            }
            if offer.takes() {
                n.actions([Action::Toggle, Action::SetValue]);
            }
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, checked: &mut bool) {
        let mark = if *checked { "[x] " } else { "[ ] " };
        let mut line = self.label;
        line.spans.insert(0, Span::raw(mark));
        line.style(self.field.style(self.style)).render(area, buf);
    }
}

crate::semantic::widget_impls!(Checkbox<'_>: StatefulWidget<bool>);

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::widgets::StatefulWidget;

    #[test]
    fn toggle_and_set_value() {
        let mut checked = false;
        assert_eq!(
            apply_action(&mut checked, &Invocation::new("c", "toggle")),
            Outcome::Handled
        );
        assert!(checked);
        let no = Value::Bool(false);
        assert_eq!(
            apply_action(
                &mut checked,
                &Invocation::new("c", "set_value").with_value(&no)
            ),
            Outcome::Handled
        );
        assert!(!checked);
        let text = Value::Text("yes".into());
        assert!(matches!(
            apply_action(
                &mut checked,
                &Invocation::new("c", "set_value").with_value(&text)
            ),
            Outcome::Rejected(_)
        ));
    }

    #[test]
    fn draws_the_mark() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 8, 1));
        Checkbox::new("Tea").render(buf.area, &mut buf, &mut false);
        assert_eq!(buf, Buffer::with_lines(["[ ] Tea "]));
    }
}
