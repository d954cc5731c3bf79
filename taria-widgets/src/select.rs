//! [`Select`]: a choice among options (ratatui has none), recorded as `select`.

use crate::field::FieldState;
use crate::semantic::{SemanticWidget, id_and_label};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use taria::{Action, Invocation, Outcome, Role, Value};

/// The state of a [`Select`]: the index of the chosen option.
///
/// # Examples
///
/// ```
/// let mut state = taria_widgets::SelectState::default();
/// state.select(Some(2));
/// assert_eq!(state.selected(), Some(2));
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub struct SelectState {
    selected: Option<usize>,
}

impl SelectState {
    /// The chosen option's index.
    #[must_use]
    pub const fn selected(&self) -> Option<usize> {
        self.selected
    }

    /// Chooses an option (or none).
    pub const fn select(&mut self, index: Option<usize>) {
        self.selected = index;
    }
}

/// The chosen option and a `▾`: `‹Medium› ▾`.
///
/// Recorded as `select`: label, value = the chosen option's text, and the options,
/// which agents see as the `valueSchema`. With an [`id`](Select::id) it offers
/// `set_value` (an option's text; anything else is refused before it reaches the app)
/// and takes it into its [`SelectState`].
///
/// # Examples
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::StatefulWidget};
/// use taria_widgets::{Select, SelectState};
///
/// let mut state = SelectState::default();
/// state.select(Some(1));
/// let mut buf = Buffer::empty(Rect::new(0, 0, 12, 1));
/// Select::new(["Low", "Medium", "High"]).render(buf.area, &mut buf, &mut state);
/// assert_eq!(buf, Buffer::with_lines(["‹Medium› ▾  "]));
/// ```
///
/// The node it records, with an id and the app's state:
///
/// ```
/// use taria::{Value, node::ValueSchema, testing::Harness};
/// use taria_widgets::{Select, SelectState};
///
/// let mut state = SelectState::default();
/// state.select(Some(1));
/// let tree = Harness::new(12, 1).render(|frame| {
///     let select = Select::new(["Low", "Medium", "High"]).label("Priority").id("priority");
///     frame.render_stateful_widget(select, frame.area(), &mut state);
/// });
/// let priority = tree.get("priority").unwrap();
/// assert_eq!(priority.value, Some(Value::Text("Medium".into())));
/// let Some(ValueSchema::Options { options }) = &priority.value_schema else { panic!() };
/// assert_eq!(options, &["Low", "Medium", "High"]);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Select<'a> {
    options: Vec<Line<'a>>,
    label: Option<Line<'a>>,
    style: Style,
    id: Option<&'a str>,
    field: FieldState<'a>,
}

impl<'a> Select<'a> {
    /// A choice among `options`.
    pub fn new<I>(options: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Line<'a>>,
    {
        Select {
            options: options.into_iter().map(Into::into).collect(),
            ..Select::default()
        }
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id; the select then takes the agent's `set_value`.
    );

    /// What the choice is called (recorded, not drawn).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label<T: Into<Line<'a>>>(mut self, label: T) -> Self {
        self.label = Some(label.into());
        self
    }

    crate::field::field_methods!();
}

/// What the select does with an agent's `set_value`.
pub(crate) fn apply_action(
    state: &mut SelectState,
    options: &[Line<'_>],
    inv: &Invocation<'_>,
) -> Outcome {
    if !inv.is(taria::Action::SetValue) {
        return Outcome::NotHandled;
    }
    let Some(Value::Text(text)) = inv.value() else {
        return Outcome::Rejected("a select takes one of its options' text".into());
    };
    match options.iter().position(|o| o.to_string() == *text) {
        Some(i) => {
            state.selected = Some(i);
            Outcome::Handled
        }
        None => Outcome::Rejected(format!("`{text}` is not one of the options")),
    }
}

impl SemanticWidget for Select<'_> {
    type State = SelectState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn apply(&self, state: &mut SelectState, inv: &Invocation<'_>) -> Outcome {
        apply_action(state, &self.options, inv)
    }

    fn describe(&self, area: Rect, state: &SelectState, offer: crate::semantic::Offer) {
        let chosen = state.selected.and_then(|i| self.options.get(i));
        taria::leaf(|n| {
            n.role(Role::Select).options(&self.options).bounds(area);
            self.field.record(n);
            if let Some(chosen) = chosen {
                n.value(format_args!("{chosen}"));
            }
            id_and_label(n, None, self.label.as_ref());
            id_and_label(n, self.id, None::<&str>);
            if offer.takes() {
                n.action(Action::SetValue);
            }
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut SelectState) {
        let chosen = state.selected.and_then(|i| self.options.get(i));
        let mut line = chosen.cloned().unwrap_or_default();
        line.spans.insert(0, Span::raw("‹"));
        line.spans.push(Span::raw("› ▾"));
        line.style(self.field.style(self.style)).render(area, buf);
    }
}

crate::semantic::widget_impls!(Select<'_>: StatefulWidget<SelectState>);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_value_picks_an_option() {
        let options = [Line::from("Low"), Line::from("High")];
        let mut state = SelectState::default();
        let high = Value::Text("High".into());
        assert_eq!(
            apply_action(
                &mut state,
                &options,
                &Invocation::new("s", "set_value").with_value(&high)
            ),
            Outcome::Handled
        );
        assert_eq!(state.selected(), Some(1));
        let nope = Value::Text("Max".into());
        assert!(matches!(
            apply_action(
                &mut state,
                &options,
                &Invocation::new("s", "set_value").with_value(&nope)
            ),
            Outcome::Rejected(_)
        ));
    }
}
