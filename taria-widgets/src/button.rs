//! [`Button`]: a push button (ratatui has none), recorded as `button`.

use crate::field::FieldState;
use crate::semantic::{SemanticWidget, id_and_label};
use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use taria::{Action, Role};

/// `[ Label ]`, dimmed while disabled.
///
/// Recorded as `button`: label, `disabled`, `focused`; offers `activate` where the app
/// can perform it. A button has no state to change, so `activate` goes to the app: an
/// `#[action(node = "…", activate)]` handler on its [`id`](Button::id), or the key
/// given with [`Button::activate_key`]; with neither, it offers nothing.
///
/// # Examples
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::Widget};
/// use taria_widgets::Button;
///
/// let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
/// Button::new("Save").id("save").activate_key("ctrl+s").render(buf.area, &mut buf);
/// assert_eq!(buf, Buffer::with_lines(["[ Save ]  "]));
/// ```
///
/// The node it records, offering `activate` by its key:
///
/// ```
/// use taria::{Role, testing::Harness};
/// use taria_widgets::Button;
///
/// let tree = Harness::new(10, 1).render(|frame| {
///     frame.render_widget(Button::new("Save").id("save").activate_key("ctrl+s"), frame.area());
/// });
/// let save = tree.get("save").unwrap();
/// assert_eq!((save.role, save.label.as_deref()), (Role::Button, Some("Save")));
/// assert_eq!(save.keys.get("activate").map(String::as_str), Some("ctrl+s"));
/// assert!(save.offers("activate"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Button<'a> {
    label: Line<'a>,
    style: Style,
    activate_key: Option<&'a str>,
    id: Option<&'a str>,
    field: FieldState<'a>,
}

impl<'a> Button<'a> {
    /// A button labelled `label`.
    pub fn new<T: Into<Line<'a>>>(label: T) -> Self {
        Button {
            label: label.into(),
            ..Button::default()
        }
    }

    crate::semantic::id_setter!();

    /// The key the app's input path takes to press the button (e.g. `"enter"`).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn activate_key(mut self, key: &'a str) -> Self {
        self.activate_key = Some(key);
        self
    }

    crate::field::field_methods!();
}

impl SemanticWidget for Button<'_> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(Role::Button).label(&self.label).bounds(area);
            self.field.record(n);
            // The app performs it: a handler on the explicit id, or the key.
            match self.activate_key {
                Some(key) => {
                    n.key_fallback(Action::Activate, key);
                }
                None if crate::semantic::Offer::app_performs(self.id, None) => {
                    n.action(Action::Activate);
                }
                None => {}
            }
            id_and_label(n, self.id, None::<&str>);
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        let mut style = self.field.style(self.style);
        if self.field.focused {
            style = style.add_modifier(Modifier::REVERSED);
        }
        let mut line = self.label;
        line.spans.insert(0, Span::raw("[ "));
        line.spans.push(Span::raw(" ]"));
        line.style(style).render(area, buf);
    }
}

crate::semantic::widget_impls!(Button<'_>: Widget);
