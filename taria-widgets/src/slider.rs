//! [`Slider`]: a number on a range (ratatui has none), recorded as `slider`.

use crate::field::FieldState;
use crate::semantic::{SemanticWidget, id_and_label};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use taria::{Action, Invocation, Outcome, Role, Value};

/// The state of a [`Slider`]: its value.
///
/// # Examples
///
/// ```
/// let state = taria_widgets::SliderState::new(3.0);
/// assert_eq!(state.value(), 3.0);
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct SliderState {
    value: f64,
}

impl SliderState {
    /// A state at `value`.
    #[must_use]
    pub const fn new(value: f64) -> Self {
        SliderState { value }
    }

    /// The value.
    #[must_use]
    pub const fn value(&self) -> f64 {
        self.value
    }

    /// Sets the value (the slider clamps it to its range when drawn).
    pub const fn set_value(&mut self, value: f64) {
        self.value = value;
    }
}

/// A track with a knob: `──●─────`, the knob at the value's place between `min` and
/// `max`.
///
/// Recorded as `slider`: label, value, `min`, `max`, `step` (the `valueSchema`). With
/// an [`id`](Slider::id) it offers `set_value`, `increment` and `decrement` (by
/// `step`) and takes them into its [`SliderState`].
///
/// # Examples
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::StatefulWidget};
/// use taria_widgets::{Slider, SliderState};
///
/// let mut buf = Buffer::empty(Rect::new(0, 0, 5, 1));
/// Slider::new(0.0, 10.0).render(buf.area, &mut buf, &mut SliderState::new(5.0));
/// assert_eq!(buf, Buffer::with_lines(["──●──"]));
/// ```
///
/// The node it records, with an id and the app's state:
///
/// ```
/// use taria::{Role, Value, testing::Harness};
/// use taria_widgets::{Slider, SliderState};
///
/// let mut volume = SliderState::new(5.0);
/// let tree = Harness::new(10, 1).render(|frame| {
///     let slider = Slider::new(0.0, 10.0).step(1.0).label("Volume").id("volume");
///     frame.render_stateful_widget(slider, frame.area(), &mut volume);
/// });
/// let node = tree.get("volume").unwrap();
/// assert_eq!((node.role, node.value.clone()), (Role::Slider, Some(Value::Number(5.0))));
/// assert!(node.offers("increment") && node.offers("decrement"));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Slider<'a> {
    min: f64,
    max: f64,
    step: f64,
    label: Option<&'a str>,
    style: Style,
    id: Option<&'a str>,
    field: FieldState<'a>,
}

impl<'a> Slider<'a> {
    /// A slider from `min` to `max`, step 1.
    #[must_use]
    pub const fn new(min: f64, max: f64) -> Self {
        Slider {
            min,
            max,
            step: 1.0,
            label: None,
            style: Style::new(),
            id: None,
            field: FieldState {
                focused: false,
                focusable: false,
                required: false,
                disabled: false,
                invalid: None,
            },
        }
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id; the slider then takes the agent's actions.
    );

    /// The step between allowed values (and of `increment`/`decrement`).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn step(mut self, step: f64) -> Self {
        self.step = step;
        self
    }

    /// What the slider is called (recorded, not drawn).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn label(mut self, label: &'a str) -> Self {
        self.label = Some(label);
        self
    }

    crate::field::field_methods!();

    fn clamp(&self, value: f64) -> f64 {
        if value.is_nan() || self.max < self.min {
            return self.min;
        }
        value.clamp(self.min, self.max)
    }
}

/// What the slider does with an agent's `set_value`, `increment` or `decrement`.
pub(crate) fn apply_action(
    state: &mut SliderState,
    slider: &Slider<'_>,
    inv: &Invocation<'_>,
) -> Outcome {
    let value = match (inv.action().core(), inv.value()) {
        (Some(Action::SetValue), Some(Value::Number(n))) => *n,
        (Some(Action::SetValue), _) => return Outcome::Rejected("a slider takes a number".into()),
        (Some(Action::Increment), _) if slider.clamp(state.value) >= slider.max => {
            return Outcome::Rejected(format!("it is at its maximum, {}", slider.max));
        }
        (Some(Action::Decrement), _) if slider.clamp(state.value) <= slider.min => {
            return Outcome::Rejected(format!("it is at its minimum, {}", slider.min));
        }
        (Some(Action::Increment), _) => state.value + slider.step,
        (Some(Action::Decrement), _) => state.value - slider.step,
        _ => return Outcome::NotHandled,
    };
    state.value = slider.clamp(value);
    Outcome::Handled
}

impl SemanticWidget for Slider<'_> {
    type State = SliderState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn apply(&self, state: &mut SliderState, inv: &Invocation<'_>) -> Outcome {
        apply_action(state, self, inv)
    }

    fn describe(&self, area: Rect, state: &SliderState, offer: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(Role::Slider)
                .value(self.clamp(state.value))
                .min(self.min)
                .max(self.max)
                .step(self.step)
                .bounds(area);
            self.field.record(n);
            id_and_label(n, None, self.label);
            id_and_label(n, self.id, None::<&str>);
            if offer.takes() {
                // Only what changes it: no `increment` at the maximum, no `decrement`
                // at the minimum.
                let value = self.clamp(state.value);
                n.action(Action::SetValue);
                if value < self.max {
                    n.action(Action::Increment);
                }
                if value > self.min {
                    n.action(Action::Decrement);
                }
            }
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut SliderState) {
        let value = self.clamp(state.value);
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        buf.set_style(area, self.field.style(self.style));
        let span = self.max - self.min;
        let ratio = if span > 0.0 {
            (value - self.min) / span
        } else {
            0.0
        };
        let last = f64::from(area.width - 1);
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "ratio is in 0..=1"
        )]
        let knob = area.x + (ratio * last).round() as u16;
        for x in area.left()..area.right() {
            buf[(x, area.y)].set_symbol(if x == knob { "●" } else { "─" });
        }
    }
}

crate::semantic::widget_impls!(Slider<'_>: StatefulWidget<SliderState>);

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui::widgets::StatefulWidget;

    #[test]
    fn actions_step_and_clamp() {
        let slider = Slider::new(0.0, 10.0).step(2.0);
        let mut state = SliderState::new(9.0);
        assert_eq!(
            apply_action(&mut state, &slider, &Invocation::new("s", "increment")),
            Outcome::Handled
        );
        assert!(
            (state.value() - 10.0).abs() < f64::EPSILON,
            "clamped to max"
        );
        assert_eq!(
            apply_action(&mut state, &slider, &Invocation::new("s", "decrement")),
            Outcome::Handled
        );
        assert!((state.value() - 8.0).abs() < f64::EPSILON);
        let four = Value::Number(4.0);
        assert_eq!(
            apply_action(
                &mut state,
                &slider,
                &Invocation::new("s", "set_value").with_value(&four)
            ),
            Outcome::Handled
        );
        assert!((state.value() - 4.0).abs() < f64::EPSILON);
    }

    /// Found by `taria-mcp audit` on the form example: `decrement` at the minimum was
    /// offered and answered `delivered`, and changed nothing.
    #[test]
    fn at_an_end_it_neither_offers_nor_takes_a_step_past_it() {
        let slider = || Slider::new(1.0, 5.0).id("s");
        let offered = |value: f64| {
            let mut harness = taria::testing::Harness::new(10, 1);
            let mut state = SliderState::new(value);
            let tree = harness.render(|frame| {
                frame.render_stateful_widget(slider(), frame.area(), &mut state);
            });
            let node = tree.get("s").unwrap();
            let mut names: Vec<String> = node.actions.iter().map(ToString::to_string).collect();
            names.sort();
            names
        };
        assert_eq!(offered(1.0), ["increment", "set_value"]);
        assert_eq!(offered(3.0), ["decrement", "increment", "set_value"]);
        assert_eq!(offered(5.0), ["decrement", "set_value"]);
        let mut state = SliderState::new(1.0);
        assert_eq!(
            apply_action(&mut state, &slider(), &Invocation::new("s", "decrement")),
            Outcome::Rejected("it is at its minimum, 1".into())
        );
        let mut state = SliderState::new(5.0);
        assert_eq!(
            apply_action(&mut state, &slider(), &Invocation::new("s", "increment")),
            Outcome::Rejected("it is at its maximum, 5".into())
        );
    }

    #[test]
    fn draws_the_knob_at_the_ends() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 4, 1));
        Slider::new(0.0, 1.0).render(buf.area, &mut buf, &mut SliderState::new(-3.0));
        assert_eq!(buf, Buffer::with_lines(["●───"]));
        Slider::new(0.0, 1.0).render(buf.area, &mut buf, &mut SliderState::new(1.0));
        assert_eq!(buf, Buffer::with_lines(["───●"]));
    }
}
