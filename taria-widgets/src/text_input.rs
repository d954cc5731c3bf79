//! [`TextInput`]: a one-line text field (ratatui has none), recorded as `text_input`.

use crate::field::FieldState;
use crate::semantic::{SemanticWidget, id_and_label};
use ratatui::buffer::Buffer;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use ratatui::layout::Rect;
use ratatui::style::{Modifier, Style};
use ratatui::text::Line;
use ratatui::widgets::Widget;
use taria::{Action, Invocation, Outcome, Role, Value};

/// The state of a [`TextInput`]: its text and the cursor (a char index).
///
/// Typing reaches it through the app's own key handler: call
/// [`TextInputState::handle_key`] there (an agent's `type_text` arrives as ordinary
/// key events). An agent's `set_value` lands here without app code when the input
/// has an id.
///
/// # Examples
///
/// ```
/// use ratatui::crossterm::event::{KeyCode, KeyEvent};
/// use taria_widgets::TextInputState;
///
/// let mut name = TextInputState::new("Ad");
/// assert!(name.handle_key(KeyEvent::from(KeyCode::Char('a'))));
/// assert_eq!(name.value(), "Ada");
/// assert!(name.handle_key(KeyEvent::from(KeyCode::Home)));
/// assert_eq!(name.cursor(), 0);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TextInputState {
    value: String,
    cursor: usize,
}

impl TextInputState {
    /// A state holding `value`, the cursor at its end.
    #[must_use]
    pub fn new(value: impl Into<String>) -> Self {
        let value = value.into();
        let cursor = value.chars().count();
        TextInputState { value, cursor }
    }

    /// The text.
    #[must_use]
    pub fn value(&self) -> &str {
        &self.value
    }

    /// Replaces the text; the cursor moves to its end.
    pub fn set_value(&mut self, value: impl Into<String>) {
        *self = TextInputState::new(value);
    }

    /// The cursor, as a char index (0 = before the first char).
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    fn byte_at(&self, char_index: usize) -> usize {
        self.value
            .char_indices()
            .nth(char_index)
            .map_or(self.value.len(), |(i, _)| i)
    }

    /// Edits the text for a key press: characters insert at the cursor,
    /// `backspace`/`delete` remove, `left`/`right`/`home`/`end` move. Returns whether
    /// the key was used (so the app can let other keys through).
    pub fn handle_key(&mut self, key: KeyEvent) -> bool {
        if key.kind == KeyEventKind::Release {
            return false;
        }
        let len = self.value.chars().count();
        match key.code {
            KeyCode::Char(c)
                if !key
                    .modifiers
                    .intersects(KeyModifiers::CONTROL | KeyModifiers::ALT) =>
            {
                let at = self.byte_at(self.cursor);
                self.value.insert(at, c);
                self.cursor += 1;
            }
            KeyCode::Backspace if self.cursor > 0 => {
                self.cursor -= 1;
                let at = self.byte_at(self.cursor);
                self.value.remove(at);
            }
            KeyCode::Delete if self.cursor < len => {
                let at = self.byte_at(self.cursor);
                self.value.remove(at);
            }
            KeyCode::Left => self.cursor = self.cursor.saturating_sub(1),
            KeyCode::Right => self.cursor = (self.cursor + 1).min(len),
            KeyCode::Home => self.cursor = 0,
            KeyCode::End => self.cursor = len,
            KeyCode::Backspace | KeyCode::Delete => {}
            _ => return false,
        }
        true
    }
}

/// A one-line text field: the text (or `•` per char in password mode, or the
/// placeholder, dimmed, when empty), scrolled so the cursor stays visible; the
/// cursor cell is reversed while [`focused`](TextInput::focused).
///
/// Recorded as `text_input`: label; value = the text (in password mode the node is
/// `redacted`: the text never leaves the app, only its length does); `max_len`; `focused`. With an
/// [`id`](TextInput::id) it offers `set_value` (the runtime checks `max_len` first)
/// and takes it into its [`TextInputState`].
///
/// # Examples
///
/// ```
/// use ratatui::{buffer::Buffer, layout::Rect, widgets::StatefulWidget};
/// use taria_widgets::{TextInput, TextInputState};
///
/// let mut buf = Buffer::empty(Rect::new(0, 0, 10, 1));
/// let mut state = TextInputState::default();
/// TextInput::new().placeholder("Name").render(buf.area, &mut buf, &mut state);
/// let mut expected = Buffer::with_lines(["Name      "]);
/// expected.set_style(expected.area, ratatui::style::Modifier::DIM);
/// assert_eq!(buf, expected);
/// ```
///
/// The node it records, with an id and the app's state:
///
/// ```
/// use taria::{Role, Value, testing::Harness};
/// use taria_widgets::{TextInput, TextInputState};
///
/// let mut name = TextInputState::new("Ada");
/// let tree = Harness::new(10, 1).render(|frame| {
///     let input = TextInput::new().label("Name").max_len(20).id("name");
///     frame.render_stateful_widget(input, frame.area(), &mut name);
/// });
/// let node = tree.get("name").unwrap();
/// assert_eq!((node.role, node.label.as_deref()), (Role::TextInput, Some("Name")));
/// assert_eq!(node.value, Some(Value::Text("Ada".into())));
/// assert!(node.offers("set_value"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct TextInput<'a> {
    label: Option<Line<'a>>,
    placeholder: Option<&'a str>,
    password: bool,
    max_len: Option<usize>,
    style: Style,
    id: Option<&'a str>,
    field: FieldState<'a>,
}

impl<'a> TextInput<'a> {
    /// An empty, unlabelled input.
    #[must_use]
    pub fn new() -> Self {
        TextInput::default()
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id; the input then takes the agent's `set_value`.
    );

    /// What the field is called (recorded, not drawn: draw it beside the field).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label<T: Into<Line<'a>>>(mut self, label: T) -> Self {
        self.label = Some(label.into());
        self
    }

    /// Text shown, dimmed, while the field is empty.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn placeholder(mut self, placeholder: &'a str) -> Self {
        self.placeholder = Some(placeholder);
        self
    }

    /// Password mode: draws `•` per char and records the node `redacted`.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn password(mut self, password: bool) -> Self {
        self.password = password;
        self
    }

    /// The most chars the text may have (published to agents, enforced on `set_value`).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn max_len(mut self, max_len: usize) -> Self {
        self.max_len = Some(max_len);
        self
    }

    crate::field::field_methods!();
}

/// What the input does with an agent's `set_value`.
pub(crate) fn apply_action(
    state: &mut TextInputState,
    max_len: Option<usize>,
    inv: &Invocation<'_>,
) -> Outcome {
    if !inv.is(taria::Action::SetValue) {
        return Outcome::NotHandled;
    }
    match inv.value() {
        Some(Value::Text(text)) if max_len.is_some_and(|m| text.chars().count() > m) => {
            Outcome::Rejected(format!(
                "at most {} characters",
                max_len.unwrap_or_default()
            ))
        }
        Some(Value::Text(text)) => {
            state.set_value(text.as_str());
            Outcome::Handled
        }
        _ => Outcome::Rejected("a text input takes text".into()),
    }
}

impl SemanticWidget for TextInput<'_> {
    type State = TextInputState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn apply(&self, state: &mut TextInputState, inv: &Invocation<'_>) -> Outcome {
        apply_action(state, self.max_len, inv)
    }

    fn describe(&self, area: Rect, state: &TextInputState, offer: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(Role::TextInput).bounds(area);
            self.field.record(n);
            if let Some(id) = self.id {
                n.id(id);
            }
            if offer.takes() {
                n.action(Action::SetValue);
            }
            id_and_label(n, None, self.label.as_ref());
            // A password's text is dropped where the tree is built (only its
            // length leaves the app), so it is recorded like any other.
            n.redacted(self.password).value(state.value.as_str());
            if let Some(max_len) = self.max_len {
                n.max_len(max_len);
            }
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut TextInputState) {
        let area = area.intersection(buf.area);
        if area.is_empty() {
            return;
        }
        buf.set_style(area, self.field.style(self.style));
        let width = usize::from(area.width);
        if state.value.is_empty() {
            if let Some(placeholder) = self.placeholder {
                Line::styled(placeholder, Modifier::DIM).render(area, buf);
            }
        } else {
            let skip = state.cursor.saturating_sub(width.saturating_sub(1));
            for (x, c) in (area.left()..area.right()).zip(state.value.chars().skip(skip)) {
                let mut glyph = [0; 4];
                let symbol = if self.password {
                    "•"
                } else {
                    c.encode_utf8(&mut glyph)
                };
                buf[(x, area.y)].set_symbol(symbol);
            }
        }
        if self.field.focused {
            let skip = state.cursor.saturating_sub(width.saturating_sub(1));
            let x = area
                .x
                .saturating_add(u16::try_from(state.cursor - skip).unwrap_or(u16::MAX));
            if x < area.right() {
                buf[(x, area.y)].set_style(Modifier::REVERSED);
            }
        }
    }
}

crate::semantic::widget_impls!(TextInput<'_>: StatefulWidget<TextInputState>);

#[cfg(test)]
mod tests {
    use taria::testing::Harness;

    use super::*;
    use ratatui::widgets::StatefulWidget;

    #[test]
    fn draws_text_placeholder_password_and_cursor() {
        let area = Rect::new(0, 0, 6, 1);
        let mut buf = Buffer::empty(area);
        let mut state = TextInputState::new("secret!");
        TextInput::new()
            .password(true)
            .focused(true)
            .render(area, &mut buf, &mut state);
        let mut expected = Buffer::with_lines(["••••• "]);
        expected.set_style(Rect::new(5, 0, 1, 1), Modifier::REVERSED);
        assert_eq!(buf, expected, "scrolled so the cursor at the end shows");
        let mut buf = Buffer::empty(area);
        let mut state = TextInputState::new("hi");
        TextInput::new()
            .placeholder("unused")
            .render(area, &mut buf, &mut state);
        assert_eq!(buf, Buffer::with_lines(["hi    "]));
    }

    #[test]
    fn edits_with_keys() {
        let mut s = TextInputState::new("héllo");
        for code in [
            KeyCode::Left,
            KeyCode::Left,
            KeyCode::Backspace,
            KeyCode::Char('L'),
            KeyCode::Delete,
            KeyCode::End,
        ] {
            assert!(s.handle_key(KeyEvent::from(code)));
        }
        assert_eq!(s.value(), "héLo");
        assert_eq!(s.cursor(), 4);
        assert!(!s.handle_key(KeyEvent::from(KeyCode::Enter)));
        assert!(!s.handle_key(KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)));
    }

    #[test]
    fn records_value_or_redacts_it() {
        let mut harness = Harness::new(20, 2);
        let (mut name, mut pin) = (TextInputState::new("Ada"), TextInputState::new("1234"));
        let tree = harness.render(|f| {
            let [a, b] = f.area().layout(&ratatui::layout::Layout::vertical([1, 1]));
            f.render_stateful_widget(
                TextInput::new()
                    .label("Name")
                    .max_len(8)
                    .id("name")
                    .focused(true),
                a,
                &mut name,
            );
            f.render_stateful_widget(
                TextInput::new().label("PIN").password(true).id("pin"),
                b,
                &mut pin,
            );
        });
        let node = tree.get("name").expect("name");
        assert_eq!(node.value, Some(Value::Text("Ada".into())));
        assert_eq!(
            node.value_schema,
            Some(taria::node::ValueSchema::Text { max_len: Some(8) })
        );
        assert!(node.state.focused);
        let pin = tree.get("pin").expect("pin");
        assert!(pin.state.redacted);
        assert_eq!(pin.value, None);
        assert!(!serde_json::to_string(&tree).expect("json").contains("1234"));
    }

    #[test]
    fn set_value_changes_the_state() {
        let mut state = TextInputState::default();
        let value = Value::Text("Grace".into());
        let inv = Invocation::new("name", "set_value").with_value(&value);
        assert_eq!(apply_action(&mut state, Some(8), &inv), Outcome::Handled);
        assert_eq!((state.value(), state.cursor()), ("Grace", 5));
        assert!(matches!(
            apply_action(&mut state, Some(3), &inv),
            Outcome::Rejected(_)
        ));
    }
}
