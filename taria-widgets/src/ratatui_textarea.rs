//! [ratatui-textarea](https://docs.rs/ratatui-textarea/0.9.4)'s [`TextArea`], recorded as
//! a `text_area` (feature `ratatui-textarea`): swap
//! `use ratatui_textarea::{…, TextArea};` for
//! `use taria_widgets::ratatui_textarea::{…, TextArea};` (the crate's other names are
//! re-exported here as they are).
//!
//! ratatui-textarea is the maintained successor of tui-textarea, built on ratatui 0.30;
//! tui-textarea itself (0.7, its last release) needs ratatui 0.29, which taria does not
//! build with: an app on tui-textarea moves to ratatui-textarea first (the same API).

use std::borrow::Cow;
use std::cell::OnceCell;
use std::ops::{Deref, DerefMut};

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::Widget;
use taria::{Action, Invocation, Outcome, Role, Value};

use crate::semantic::{Offer, SemanticWidget, on_screen};

pub use ratatui_textarea::{CursorMove, DataCursor, Input, Key, ScreenCursor, Scrolling, WrapMode};

/// ratatui-textarea's `TextArea`, recorded: a newtype that derefs to the crate's
/// editor (every method works as it does there: `input`, `lines`, `move_cursor`, …)
/// and draws through `&TextArea` with the crate's widget, cell for cell.
///
/// Recorded as a `text_area`: value = its lines joined by `\n`; label = its block's
/// title, given a taria [`Block`](crate::Block) in [`TextArea::set_block`] (a
/// ratatui block's title cannot be read back); `focused` (by default: the crate draws
/// its cursor whether or not the app routes keys to it; see
/// [`TextArea::set_focused`]); `redacted` with a mask char (the text never leaves the
/// app); a `submit` performed by the app's key ([`TextArea::set_submit_key`]). An
/// agent types into it with `type_text` (keys, through the app's `input`).
///
/// With an explicit id ([`TextArea::set_id`]) it also offers `set_value`, taken while it
/// draws: drawn through `&`, it keeps the new text beside the app's (cleared and
/// inserted: two edits the app's undo takes back), shows it from then on, reads as it
/// through `Deref`, and hands it to the app's editor the next time the app borrows it
/// mutably (the loop's next `input`: taria sends an event after a frame in which a
/// widget took an agent's input). A second `set_value` before that is refused, saying
/// so.
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::{Block, ratatui_textarea::TextArea};
///
/// let mut textarea = TextArea::from(["hello", "world"]);
/// textarea.set_block(Block::bordered().title("Notes"));
/// textarea.set_id("notes");
/// let tree = Harness::new(20, 5).render(|f| f.render_widget(&textarea, f.area()));
/// let notes = tree.get("notes").unwrap();
/// assert_eq!(notes.label.as_deref(), Some("Notes"));
/// assert_eq!(notes.value, Some(taria::Value::Text("hello\nworld".into())));
/// ```
#[derive(Debug, Clone)]
pub struct TextArea<'a> {
    inner: ratatui_textarea::TextArea<'a>,
    /// The editor after an agent's `set_value` taken while drawing through `&`, until
    /// the app next borrows it mutably.
    pending: OnceCell<ratatui_textarea::TextArea<'a>>,
    label: Option<Cow<'a, str>>,
    focused: bool,
    id: Option<String>,
    submit_key: Option<String>,
}

impl Default for TextArea<'_> {
    fn default() -> Self {
        TextArea::from_inner(ratatui_textarea::TextArea::default())
    }
}

impl<'a> TextArea<'a> {
    fn from_inner(inner: ratatui_textarea::TextArea<'a>) -> Self {
        TextArea {
            inner,
            pending: OnceCell::new(),
            label: None,
            focused: true,
            id: None,
            submit_key: None,
        }
    }

    /// See ratatui-textarea's `TextArea::new`.
    #[must_use]
    pub fn new(lines: Vec<String>) -> Self {
        TextArea::from_inner(ratatui_textarea::TextArea::new(lines))
    }

    /// See ratatui-textarea's `TextArea::set_block`. Takes a taria
    /// [`Block`](crate::Block), whose first title labels the node, or a ratatui one.
    pub fn set_block(&mut self, block: impl Into<crate::Block<'a>>) {
        let (block, label) = block.into().into_parts();
        self.label = label;
        self.deref_mut().set_block(block);
    }

    /// See ratatui-textarea's `TextArea::remove_block`.
    pub fn remove_block(&mut self) {
        self.label = None;
        self.deref_mut().remove_block();
    }

    /// See ratatui-textarea's `TextArea::into_lines`.
    #[must_use]
    pub fn into_lines(self) -> Vec<String> {
        self.into_inner().into_lines()
    }

    /// The crate's editor as a recorded one (unlabelled: its block's title cannot be
    /// read back; [`TextArea::set_block`] labels it).
    #[must_use]
    pub fn from_editor(inner: ratatui_textarea::TextArea<'a>) -> Self {
        TextArea::from_inner(inner)
    }

    /// The crate's editor, with any agent's `set_value` in it.
    #[must_use]
    pub fn into_inner(mut self) -> ratatui_textarea::TextArea<'a> {
        self.pending.take().unwrap_or(self.inner)
    }

    /// Sets an explicit, stable id: the node offers `set_value` and takes it.
    pub fn set_id(&mut self, id: impl Into<String>) {
        self.id = Some(id.into());
    }

    /// Whether the app routes its keys to the editor now (recorded as `focused`; an
    /// agent's `type_text` is refused while it is not). True until set.
    pub fn set_focused(&mut self, focused: bool) {
        self.focused = focused;
    }

    /// The key with which the app's input path takes the text as done (`"esc"`,
    /// `"ctrl+s"`): the node then offers `submit`, performed by that key.
    pub fn set_submit_key(&mut self, key: impl Into<String>) {
        self.submit_key = Some(key.into());
    }

    /// Whether an agent's `set_value` waits for the app's next mutable borrow.
    fn set_text(&self, text: &str) -> Outcome {
        if self.pending.get().is_some() {
            return Outcome::Rejected(
                "the text area has not yet handed the last value to the app: try again after its next frame".into(),
            );
        }
        let mut next = self.deref().clone();
        next.clear();
        next.insert_str(text);
        let _ = self.pending.set(next);
        Outcome::Handled
    }
}

impl<I> From<I> for TextArea<'_>
where
    I: IntoIterator,
    I::Item: Into<String>,
{
    fn from(lines: I) -> Self {
        TextArea::from_inner(ratatui_textarea::TextArea::from(lines))
    }
}

impl<S: Into<String>> FromIterator<S> for TextArea<'_> {
    fn from_iter<I: IntoIterator<Item = S>>(iter: I) -> Self {
        TextArea::from_inner(iter.into_iter().collect())
    }
}

impl<'a> Deref for TextArea<'a> {
    type Target = ratatui_textarea::TextArea<'a>;

    /// The editor, with any agent's `set_value` taken while it drew.
    fn deref(&self) -> &Self::Target {
        self.pending.get().unwrap_or(&self.inner)
    }
}

impl DerefMut for TextArea<'_> {
    /// The editor, after handing it any agent's `set_value` taken while it drew.
    fn deref_mut(&mut self) -> &mut Self::Target {
        if let Some(next) = self.pending.take() {
            self.inner = next;
        }
        &mut self.inner
    }
}

impl SemanticWidget for &TextArea<'_> {
    type State = ();

    fn widget_id(&self) -> Option<&str> {
        self.id.as_deref()
    }

    fn apply(&self, (): &mut (), inv: &Invocation<'_>) -> Outcome {
        if !inv.is(Action::SetValue) {
            return Outcome::NotHandled;
        }
        match inv.value() {
            Some(Value::Text(text)) => self.set_text(text),
            _ => Outcome::Rejected("a text area takes text".into()),
        }
    }

    fn describe(&self, area: Rect, (): &(), offer: Offer) {
        let lines = self.lines();
        taria::leaf(|n| {
            n.role(Role::TextArea).bounds(area).focused(self.focused);
            if let Some(id) = &self.id {
                n.id(id.as_str());
            }
            if let Some(label) = &self.label {
                n.label(label.as_ref());
            }
            if offer.takes() {
                n.action(Action::SetValue);
            }
            if let Some(key) = &self.submit_key {
                n.key_fallback(Action::Submit, key);
            }
            n.redacted(self.mask_char().is_some())
                .value(lines.join("\n"));
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        Widget::render(&**self, area, buf);
    }

    /// Drawn through `&` (as the crate's is), it still takes `set_value` with an id:
    /// into the text it keeps beside the app's (see [`TextArea`]).
    fn render_alone(self, area: Rect, buf: &mut Buffer) {
        self.take_actions(&mut ());
        if taria::widget::is_recording() && on_screen(area, buf) {
            self.describe(area, &(), Offer::new(self.widget_id(), true));
        }
        self.hand_over(area, buf, &mut ());
    }
}

impl Widget for &TextArea<'_> {
    fn render(self, area: Rect, buf: &mut Buffer) {
        SemanticWidget::render_alone(self, area, buf);
    }
}
