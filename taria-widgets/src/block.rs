//! [`Block`]: ratatui's [`Block`](ratatui::widgets::Block), recorded as a titled
//! `region`.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::symbols::{border, merge::MergeStrategy};
use ratatui::text::Line;
use ratatui::widgets::{BorderType, Borders, Padding, Widget};
use taria::Role;

use crate::given::Given;
use crate::semantic::{SemanticWidget, id_and_label};

pub use ratatui::widgets::{Shadow, TitlePosition};

use crate::text::line_text;

/// A bordered, titled box. Drawn exactly like ratatui's `Block`; recorded as a
/// `region` labelled with its first title.
///
/// Rendered on its own it is a leaf; [`Block::render_scoped`] draws it and keeps its
/// node open, so the nodes of what is drawn inside become its children. Given to
/// another widget (`List::block`, `Paragraph::block`, …), its title labels that widget.
///
/// **The role it plays.** Given a [`role`](Block::role) (a `dialog`, a `form`, a
/// `group`), the block is recorded as that, and holds the nodes drawn after it inside
/// its area as its children, until one is drawn outside it: a popup drawn as `Clear`,
/// the block, then a `Paragraph` in its inner area is one dialog with the text in it.
/// [`modal`](Block::modal) makes what is behind it inert;
/// [`key_fallbacks`](Block::key_fallbacks) and [`actions`](Block::actions) say what
/// the app performs on it. It draws the same cells.
///
/// **An input's box.** Given an input role (`text_input`, `text_area`), the block's
/// value is the text drawn inside it (its inner area, read from the screen once the
/// frame is drawn, trimmed), whatever draws it: an agent that types into it sees its
/// value change.
///
/// # Examples
///
/// ```
/// use ratatui::widgets::Paragraph;
/// use taria::{Role, Value, testing::Harness};
/// use taria_widgets::Block;
///
/// let mut harness = Harness::new(20, 3);
/// let tree = harness.render(|frame| {
///     let block = Block::bordered().title("Search").role(Role::TextInput).id("search");
///     let inner = block.inner(frame.area());
///     frame.render_widget(block.focused(true), frame.area());
///     frame.render_widget(Paragraph::new("rust tui"), inner);
/// });
/// let search = tree.get("search").unwrap();
/// assert_eq!(search.value, Some(Value::Text("rust tui".into())));
/// assert_eq!(tree.outline(), "- text_input \"Search\": \"rust tui\" [id=search] [focused]\n");
/// ```
///
/// ```
/// use ratatui::widgets::Clear;
/// use taria::{Action, Role, testing::Harness};
/// use taria_widgets::{Block, Paragraph};
///
/// let mut harness = Harness::new(30, 8);
/// let tree = harness.render(|frame| {
///     let area = frame.area().centered(
///         ratatui::layout::Constraint::Length(20),
///         ratatui::layout::Constraint::Length(4),
///     );
///     let block = Block::bordered()
///         .title("Delete?")
///         .role(Role::Dialog)
///         .id("confirm")
///         .modal(true)
///         .key_fallbacks(&[(Action::Submit, "y"), (Action::Dismiss, "n")]);
///     let inner = block.inner(area);
///     frame.render_widget(Clear, area);
///     frame.render_widget(block, area);
///     frame.render_widget(Paragraph::new("y: yes, n: no"), inner);
/// });
/// assert_eq!(
///     tree.outline(),
///     "- dialog \"Delete?\" [id=confirm] [modal] {dismiss, submit}\n  - text \"y: yes, n: no\"\n"
/// );
/// ```
///
/// ```
/// use ratatui::layout::Rect;
/// use ratatui::widgets::Paragraph;
/// use taria::testing::Harness;
/// use taria_widgets::Block;
///
/// let mut harness = Harness::new(20, 3);
/// let tree = harness.render(|frame| {
///     let (inner, _region) = Block::bordered().title("Inbox").id("inbox")
///         .render_scoped(frame.area(), frame.buffer_mut());
///     frame.render_widget(taria_widgets::Paragraph::new("3 unread"), inner);
/// });
/// let inbox = tree.get("inbox").unwrap();
/// assert_eq!(inbox.label.as_deref(), Some("Inbox"));
/// assert_eq!(inbox.children[0].label.as_deref(), Some("3 unread"));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Block<'a> {
    inner: ratatui::widgets::Block<'a>,
    label: Option<Cow<'a, str>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl<'a> From<ratatui::widgets::Block<'a>> for Block<'a> {
    /// A ratatui block, unlabelled (ratatui does not let its title be read back).
    fn from(inner: ratatui::widgets::Block<'a>) -> Self {
        Block {
            inner,
            label: None,
            id: None,
            given: Given::DEFAULT,
        }
    }
}

impl<'a> From<Block<'a>> for ratatui::widgets::Block<'a> {
    /// The ratatui block it draws with, for a third-party widget that takes ratatui's
    /// `Block` (its `block()`): the same cells; what taria records of it (label, id,
    /// role) is left behind, as the third-party widget records nothing of its block.
    fn from(block: Block<'a>) -> Self {
        block.inner
    }
}

crate::semantic::styled!(Block<'_>: inner);

impl<'a> Block<'a> {
    /// See ratatui's [`Block::new`](ratatui::widgets::Block::new).
    #[must_use]
    pub const fn new() -> Self {
        Block {
            inner: ratatui::widgets::Block::new(),
            label: None,
            id: None,
            given: Given::DEFAULT,
        }
    }

    /// See ratatui's [`Block::bordered`](ratatui::widgets::Block::bordered).
    #[must_use]
    pub const fn bordered() -> Self {
        Block {
            inner: ratatui::widgets::Block::bordered(),
            label: None,
            id: None,
            given: Given::DEFAULT,
        }
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id for the node.
    );

    crate::given::given_setters!();

    /// Adds a title through ratatui's `add`; the first one is kept as the label.
    fn with_title(
        mut self,
        title: Line<'a>,
        add: fn(ratatui::widgets::Block<'a>, Line<'a>) -> ratatui::widgets::Block<'a>,
    ) -> Self {
        if self.label.is_none() {
            self.label = Some(line_text(&title));
        }
        self.inner = add(self.inner, title);
        self
    }

    /// See ratatui's [`Block::title`](ratatui::widgets::Block::title). The first
    /// title is the node's label.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn title<T: Into<Line<'a>>>(self, title: T) -> Self {
        self.with_title(title.into(), ratatui::widgets::Block::title)
    }

    /// See ratatui's [`Block::title_top`](ratatui::widgets::Block::title_top).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn title_top<T: Into<Line<'a>>>(self, title: T) -> Self {
        self.with_title(title.into(), ratatui::widgets::Block::title_top)
    }

    /// See ratatui's [`Block::title_bottom`](ratatui::widgets::Block::title_bottom).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn title_bottom<T: Into<Line<'a>>>(self, title: T) -> Self {
        self.with_title(title.into(), ratatui::widgets::Block::title_bottom)
    }

    crate::semantic::setters! { Block in ratatui::widgets;
        fn title_style<S: Into<Style>>(style: S) => inner;
        fn title_alignment(alignment: Alignment) => inner;
        fn title_position(position: TitlePosition) => inner;
        fn border_style<S: Into<Style>>(style: S) => inner;
        fn style<S: Into<Style>>(style: S) => inner;
        fn borders(flag: Borders) => inner;
        fn border_type(border_type: BorderType) => inner;
        fn border_set(border_set: border::Set<'a>) => inner;
        fn padding(padding: Padding) => inner;
        fn merge_borders(strategy: MergeStrategy) => inner;
        fn shadow(shadow: Shadow) => inner;
    }

    /// The area inside the borders, titles and padding (ratatui's `Block::inner`).
    #[must_use]
    pub fn inner(&self, area: Rect) -> Rect {
        self.inner.inner(area)
    }

    /// The first title as plain text, if the block has one.
    #[must_use]
    pub fn label(&self) -> Option<&str> {
        self.label.as_deref()
    }

    /// Splits into ratatui's block and the label.
    pub(crate) fn into_parts(self) -> (ratatui::widgets::Block<'a>, Option<Cow<'a, str>>) {
        (self.inner, self.label)
    }

    /// Splits into ratatui's block, the label and what the block was given.
    pub(crate) fn into_given_parts(
        self,
    ) -> (ratatui::widgets::Block<'a>, Option<Cow<'a, str>>, Given<'a>) {
        (self.inner, self.label, self.given)
    }

    /// Draws the block and opens its node (a `region`, or the [`role`](Block::role)
    /// given); the nodes recorded until the returned scope drops are its children.
    /// Returns the inner area.
    pub fn render_scoped(self, area: Rect, buf: &mut Buffer) -> (Rect, taria::Scope) {
        let scope = taria::scope(|n| self.describe_node(n, area));
        let inner = self.inner.inner(area);
        self.inner.render(area, buf);
        (inner, scope)
    }

    fn describe_node(&self, n: &mut taria::NodeBuilder<'_>, area: Rect) {
        let role = self.given.role_or(Role::Region);
        n.role(role).bounds(area);
        // An input's value is the text the app draws in it, whatever draws it.
        if matches!(role, Role::TextInput | Role::TextArea) {
            n.drawn_value(self.inner.inner(area));
        }
        id_and_label(n, self.id, self.label.as_ref());
        self.given.record(n, self.id);
    }
}

/// Rendered as a widget, the block is a leaf; given a [`role`](Block::role) (a
/// dialog, a form, a group), it also holds as children the nodes drawn after it inside
/// its area, until one is drawn outside it ([`taria::NodeBuilder::encloses`]): the
/// text drawn in a popup's frame is the popup's.
impl SemanticWidget for &Block<'_> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        taria::leaf(|n| {
            self.describe_node(n, area);
            n.encloses(self.given.role.is_some());
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        (&self.inner).render(area, buf);
    }
}

crate::semantic::widget_impls!(Block<'_>: Widget by ref);
