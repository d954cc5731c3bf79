//! What every form control says about itself besides its value: focus, required,
//! disabled, and why its value is invalid.

use ratatui::style::{Modifier, Style};
use taria::{Action, NodeBuilder};

/// The form state a control records on its node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
#[expect(
    clippy::struct_excessive_bools,
    reason = "one bool per independent state a control records, as in taria::node::State"
)]
pub(crate) struct FieldState<'a> {
    pub(crate) focused: bool,
    pub(crate) focusable: bool,
    pub(crate) required: bool,
    pub(crate) disabled: bool,
    pub(crate) invalid: Option<&'a str>,
}

impl FieldState<'_> {
    /// `style`, dimmed while disabled.
    pub(crate) fn style(&self, style: Style) -> Style {
        if self.disabled {
            style.add_modifier(Modifier::DIM)
        } else {
            style
        }
    }

    /// Records the state on the control's node.
    pub(crate) fn record(&self, n: &mut NodeBuilder<'_>) {
        n.focused(self.focused)
            .required(self.required)
            .disabled(self.disabled)
            .invalid(self.invalid);
        if self.focusable {
            n.action(Action::Focus);
        }
    }
}

/// The builder methods for [`FieldState`] and the style, on a control with `field`
/// and `style` fields.
macro_rules! field_methods {
    () => {
        /// The control's style (dimmed while it is disabled).
        #[must_use = "method moves the value of self and returns the modified value"]
        pub fn style<S: Into<ratatui::style::Style>>(mut self, style: S) -> Self {
            self.style = style.into();
            self
        }

        /// Whether the control has the focus (recorded as `focused`).
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn focused(mut self, focused: bool) -> Self {
            self.field.focused = focused;
            self
        }

        /// Offers agents `focus` on the control. The app moves its focus: a
        /// `#[action(node = "<id>", focus)]` handler (the control keeps no focus
        /// state of its own).
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn focusable(mut self, focusable: bool) -> Self {
            self.field.focusable = focusable;
            self
        }

        /// Whether the form needs a value here (recorded as `required`).
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn required(mut self, required: bool) -> Self {
            self.field.required = required;
            self
        }

        /// Disables the control: drawn dimmed, recorded `disabled`, and agents'
        /// actions on it are refused.
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn disabled(mut self, disabled: bool) -> Self {
            self.field.disabled = disabled;
            self
        }

        /// Why the current value is not accepted (recorded as `invalid` with this
        /// message, which agents read; draw it near the control for people), or
        /// `None` when it is.
        #[must_use = "method moves the value of self and returns the modified value"]
        pub const fn invalid(mut self, message: Option<&'a str>) -> Self {
            self.field.invalid = message;
            self
        }
    };
}

pub(crate) use field_methods;

#[cfg(test)]
mod tests {
    use ratatui::widgets::{StatefulWidget, Widget};
    use taria::testing::Harness;

    use crate::{
        Button, Checkbox, Select, SelectState, Slider, SliderState, TextInput, TextInputState,
    };

    #[test]
    fn every_control_records_focus_required_disabled_and_why_it_is_invalid() {
        let mut harness = Harness::new(20, 5);
        let tree = harness.render(|frame| {
            let buf = frame.buffer_mut();
            let row = |y| ratatui::layout::Rect::new(0, y, 20, 1);
            TextInput::new()
                .id("email")
                .focused(true)
                .required(true)
                .focusable(true)
                .invalid(Some("not an email address"))
                .render(row(0), buf, &mut TextInputState::new("ada@"));
            Checkbox::new("Terms")
                .id("terms")
                .required(true)
                .invalid(Some("accept the terms"))
                .render(row(1), buf, &mut false);
            Select::new(["Solo", "Team"])
                .id("plan")
                .disabled(true)
                .render(row(2), buf, &mut SelectState::default());
            Slider::new(1.0, 10.0).id("seats").focused(true).render(
                row(3),
                buf,
                &mut SliderState::new(2.0),
            );
            Button::new("Send")
                .id("send")
                .disabled(true)
                .render(row(4), buf);
        });
        let outline = tree.outline();
        assert_eq!(
            outline,
            "\
- text_input: \"ada@\" [id=email] [focused] [required] [invalid=\"not an email address\"] {focus, set_value}
- checkbox \"Terms\" [id=terms] [required] [unchecked] [invalid=\"accept the terms\"] {toggle, set_value}
- select [id=plan] [disabled] {set_value}
- slider: 2 [id=seats] [focused] {increment, decrement, set_value}
- button \"Send\" [id=send] [disabled] {activate}
"
        );
        // Disabled controls are dimmed for people too.
        let dim = ratatui::style::Modifier::DIM;
        assert!(harness.buffer()[(0, 2)].modifier.contains(dim));
        assert!(harness.buffer()[(0, 4)].modifier.contains(dim));
        assert!(!harness.buffer()[(0, 1)].modifier.contains(dim));
    }
}
