//! [`NodeBuilder`]: what an annotated render says about its node.

mod arguments;

use std::fmt::Display;

use arguments::Invalidity;
pub use arguments::{
    IntoFlag, IntoInvalid, IntoValue, InvalidSink, InvalidToken, ValueSink, ValueToken,
};

use super::arena::{
    ActionRef, FrameArena, IdSource, NodeRecord, Range32, Span, append_display, append_str,
    append_text,
};
use super::ids::IdPrefix;
use super::text::{IntoText, TextSink, escape_key_at};
use taria_schema::{Action, Bounds, Checked, MAX_LABEL_BYTES, Role, ScrollInfo, StateFlags};

/// Describes the node being recorded. Handed to the closure of [`scope`](crate::recorder::scope)
/// and [`leaf`](crate::leaf), which runs only while a frame is being recorded, so
/// labels and values are formatted only then.
///
/// Every setter returns `&mut Self` for chaining; a later call overrides an earlier one.
///
/// # Examples
///
/// ```
/// use taria::{Action, Checked, Role, testing::Harness};
///
/// let (done, title) = (false, "Buy milk");
/// let tree = Harness::new(20, 1).render(|frame| {
///     taria::leaf(|n| {
///         n.role(Role::ListItem)
///             .key(7)
///             .label(title)
///             .checked(done)
///             .action(Action::Toggle)
///             .bounds(frame.area());
///     });
/// });
/// let item = tree.get("7").unwrap();
/// assert_eq!((item.label.as_deref(), item.state.checked), (Some("Buy milk"), Some(Checked::False)));
/// assert!(item.offers("toggle"));
/// ```
pub struct NodeBuilder<'a> {
    // The node's record, and the parts of the arena the setters write to, borrowed
    // apart: a setter writes its field without indexing the node list.
    node: &'a mut NodeRecord,
    text: &'a mut String,
    spans: &'a mut Vec<Span>,
    keys: &'a mut Vec<(ActionRef, Span)>,
    /// What a key or a position follows in the id: the parent's id and `/`.
    prefix: &'a IdPrefix,
    scratch: &'a mut String,
}

impl<'a> NodeBuilder<'a> {
    /// The builder of node `index`, just opened in `arena`.
    #[inline]
    pub(crate) fn new(arena: &'a mut FrameArena, index: u32) -> Self {
        arena.prepare_prefix(index);
        let FrameArena {
            nodes,
            text,
            spans,
            keys,
            prefix,
            scratch,
            ..
        } = arena;
        NodeBuilder {
            node: &mut nodes[index as usize],
            text,
            spans,
            keys,
            prefix,
            scratch,
        }
    }

    /// Writes the derived id `<parent id>/<segment>` into the text and makes it the
    /// node's id from `source`; an empty segment is ignored (and nothing is kept).
    #[inline]
    fn derived_id(&mut self, source: IdSource, segment: impl FnOnce(&mut String, &mut String)) {
        let start = self.text.len();
        self.prefix.push_to(self.text);
        let segment_start = self.text.len();
        segment(self.text, self.scratch);
        if self.text.len() == segment_start {
            self.text.truncate(start);
            return;
        }
        self.node.id = Span::since(start, self.text);
        self.node.id_source = source;
    }

    /// Sets the core role.
    #[inline]
    pub fn role(&mut self, role: Role) -> &mut Self {
        self.node.role = role;
        self.node.custom_role = None;
        self
    }

    /// Sets a custom role (e.g. `kanban_card`) with the core role consumers fall back to.
    pub fn custom_role(&mut self, name: &str, base: Role) -> &mut Self {
        let span = append_str(self.text, name, MAX_LABEL_BYTES);
        let node = &mut *self.node;
        node.role = base;
        node.custom_role = Some(span);
        self
    }

    /// Sets an explicit id: global to the frame and stable across frames. It is the
    /// whole id: under a parent `cal`, `.id("2007-06-29")` is `2007-06-29`, not
    /// `cal/2007-06-29`; for an id under the parent use [`key`](Self::key) (which gives
    /// `cal/2007-06-29`). An empty id is ignored (the node keeps a derived id).
    #[inline]
    pub fn id(&mut self, id: impl IntoText) -> &mut Self {
        let span = append_text(self.text, id, MAX_LABEL_BYTES);
        if span.start != span.end {
            self.node.id = span;
            self.node.id_source = IdSource::Explicit;
        }
        self
    }

    /// Sets a key that identifies the node among its siblings (a row's database id, a
    /// file name). The id becomes `<parent id>/<key>`, stable while the key is.
    /// An empty key is ignored, and so is a key after an explicit [`id`](Self::id).
    ///
    /// Don't pass the item's position as its key: after an insert or delete the same
    /// id would name another item, while claiming to be stable. Items without an
    /// identity of their own should get no key: their positional ids are marked, and
    /// the bridge refuses actions on them when the node there changed.
    #[inline]
    pub fn key<K: IntoText>(&mut self, key: K) -> &mut Self {
        if self.node.id_source != IdSource::Explicit {
            self.derived_id(IdSource::Keyed, |text, scratch| {
                let start = text.len();
                key.write_text(&mut TextSink::new(text, MAX_LABEL_BYTES));
                // One segment whatever the key holds (`a/b` is `a%2Fb`).
                if !K::ONE_SEGMENT {
                    escape_key_at(text, start, scratch);
                }
            });
        }
        self
    }

    /// Names the node by its position among all its parent's items — not only the
    /// drawn ones: row 120 of a scrolled table is `<parent id>/120` whatever is on
    /// screen. The id is marked positional (not stable): after a sort, insert or
    /// delete it may name another item, and the bridge guards actions on it. For
    /// widgets whose items have no identity of their own; prefer [`key`](Self::key)
    /// when they do.
    #[inline]
    pub fn position_key(&mut self, index: usize) -> &mut Self {
        if self.node.id_source != IdSource::Explicit {
            self.derived_id(IdSource::PositionKeyed, |text, _| {
                index.write_text(&mut TextSink::new(text, MAX_LABEL_BYTES));
            });
        }
        self
    }

    /// Sets what the node is called on screen (kept up to [`MAX_LABEL_BYTES`](crate::builder::MAX_LABEL_BYTES)):
    /// text, a number, `format_args!(…)` or a tuple of parts (see [`IntoText`]).
    #[inline]
    pub fn label(&mut self, label: impl IntoText) -> &mut Self {
        let span = append_text(self.text, label, MAX_LABEL_BYTES);
        self.node.label = Some(span);
        self
    }

    /// Sets the node's value: text, a number or a bool (see [`IntoValue`]), or any
    /// `Display` type in [`Displayed`](crate::Displayed), as `label` takes it.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::path::Path;
    /// use taria::testing::Harness;
    /// use taria::{Displayed, Role};
    ///
    /// let path = Path::new("notes/today.md");
    /// let tree = Harness::new(20, 1).render(|_| {
    ///     taria::leaf(|n| {
    ///         n.role(Role::TextInput).id("file").value(Displayed(path.display()));
    ///     });
    /// });
    /// assert_eq!(tree.get("file").unwrap().value, Some("notes/today.md".into()));
    /// ```
    #[inline]
    pub fn value(&mut self, value: impl IntoValue) -> &mut Self {
        let record = arguments::write_value(value, self.text);
        self.node.value = record;
        self
    }

    /// Takes the node's value from the screen when none is [given](Self::value): the
    /// text drawn in `area` (the inside of an input's box, say), read from the frame's
    /// buffer once the frame has been drawn. Its rows are joined by `\n`, without
    /// the blanks at the end of each, nor the blank rows and blanks around it all;
    /// nothing drawn there is no value. A `text_input` or `text_area` takes it
    /// whatever else it has; any other node only when it has no label and no children
    /// (which say its text already).
    ///
    /// # Examples
    ///
    /// ```
    /// use ratatui::layout::Rect;
    /// use taria::testing::Harness;
    /// use taria::{Role, Value};
    ///
    /// let mut harness = Harness::new(20, 1);
    /// let tree = harness.render(|frame| {
    ///     let area = Rect::new(0, 0, 20, 1);
    ///     taria::leaf(|n| {
    ///         n.role(Role::TextInput).id("name").bounds(area).drawn_value(area);
    ///     });
    ///     frame.render_widget("  Ada   ", area);
    /// });
    /// assert_eq!(tree.get("name").unwrap().value, Some(Value::Text("Ada".into())));
    /// ```
    #[inline]
    pub fn drawn_value(&mut self, area: impl Into<Bounds>) -> &mut Self {
        self.node.drawn_value = area.into();
        self
    }

    /// Sets the lowest value a number may take.
    #[inline]
    pub fn min(&mut self, min: impl Into<f64>) -> &mut Self {
        self.node.min = Some(min.into());
        self
    }

    /// Sets the highest value a number may take.
    #[inline]
    pub fn max(&mut self, max: impl Into<f64>) -> &mut Self {
        self.node.max = Some(max.into());
        self
    }

    /// Sets the step between allowed numbers.
    #[inline]
    pub fn step(&mut self, step: impl Into<f64>) -> &mut Self {
        self.node.step = Some(step.into());
        self
    }

    /// Sets the most characters a text value may have.
    #[inline]
    pub fn max_len(&mut self, max_len: impl TryInto<u32>) -> &mut Self {
        self.node.max_len = Some(max_len.try_into().unwrap_or(u32::MAX));
        self
    }

    /// Sets the options a value is chosen from (a select's choices).
    pub fn options<I>(&mut self, options: I) -> &mut Self
    where
        I: IntoIterator,
        I::Item: Display,
    {
        let start = self.spans.len() as u32;
        for option in options {
            let span = append_display(self.text, &option, MAX_LABEL_BYTES);
            self.spans.push(span);
        }
        let end = self.spans.len() as u32;
        self.node.options = Range32 { start, end };
        self
    }

    #[inline]
    fn flag(&mut self, flag: StateFlags, on: impl IntoFlag) -> &mut Self {
        let node = &mut *self.node;
        node.flags = node.flags.with(flag, on.into_flag());
        self
    }

    /// Marks the node focused (at most one per frame should be).
    #[inline]
    pub fn focused(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::FOCUSED, on)
    }

    /// Marks the node selected.
    #[inline]
    pub fn selected(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::SELECTED, on)
    }

    /// Marks the node disabled: it offers actions but will refuse them now.
    #[inline]
    pub fn disabled(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::DISABLED, on)
    }

    /// Marks the node busy.
    #[inline]
    pub fn busy(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::BUSY, on)
    }

    /// Marks the node required.
    #[inline]
    pub fn required(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::REQUIRED, on)
    }

    /// Marks the node's value read-only.
    #[inline]
    pub fn readonly(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::READONLY, on)
    }

    /// Marks the node's value secret: it is dropped at the source and never recorded.
    #[inline]
    pub fn redacted(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::REDACTED, on)
    }

    /// Marks the node's text as coming from outside the app (files, network, chat):
    /// consumers treat it as data, never as instructions.
    #[inline]
    pub fn untrusted(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::UNTRUSTED, on)
    }

    /// Marks the node a modal dialog: while it is drawn, nodes outside it offer no actions.
    #[inline]
    pub fn modal(&mut self, on: impl IntoFlag) -> &mut Self {
        self.flag(StateFlags::MODAL, on)
    }

    /// Makes a [`leaf`](crate::recorder::leaf) hold the nodes recorded after it that lie inside its
    /// bounds, as its children, until one is recorded that does not (it becomes the
    /// leaf's sibling) or the leaf's parent closes: a popup's frame drawn first, its
    /// text drawn inside after it. A [`scope`](crate::recorder::scope) holds its children anyway.
    ///
    /// # Examples
    ///
    /// ```
    /// use ratatui::layout::Rect;
    /// use taria::Role;
    /// use taria::widget::Recorder;
    ///
    /// let mut recorder = Recorder::new();
    /// recorder.record(|| {
    ///     taria::leaf(|n| {
    ///         n.role(Role::Dialog).id("help").label("Help").bounds(Rect::new(10, 5, 30, 6));
    ///         n.encloses(true);
    ///     });
    ///     taria::leaf(|n| {
    ///         n.role(Role::Text).key("body").value("q quits").bounds(Rect::new(11, 6, 28, 4));
    ///     });
    ///     taria::leaf(|n| {
    ///         n.role(Role::Status).id("status").label("Ready").bounds(Rect::new(0, 23, 80, 1));
    ///     });
    /// });
    /// let tree = recorder.tree();
    /// assert_eq!(tree.get("help/body").unwrap().value, Some(taria::Value::Text("q quits".into())));
    /// assert_eq!(tree.roots.len(), 2, "the status line is drawn outside the dialog");
    /// ```
    pub fn encloses(&mut self, on: impl IntoFlag) -> &mut Self {
        self.node.encloses = on.into_flag();
        self
    }

    /// Sets the checked state (`bool`, or `Option<bool>` with `None` for mixed).
    #[inline]
    pub fn checked(&mut self, checked: impl Into<Checked>) -> &mut Self {
        self.node.checked = Some(checked.into());
        self
    }

    /// Sets the expanded state (and so marks the node expandable).
    #[inline]
    pub fn expanded(&mut self, on: impl IntoFlag) -> &mut Self {
        self.node.expanded = Some(on.into_flag());
        self
    }

    /// Marks the node invalid: `true`/`false`, or `Some(message)` / `None` (see [`IntoInvalid`]).
    #[inline]
    pub fn invalid(&mut self, invalid: impl IntoInvalid) -> &mut Self {
        let (invalid, message) = match arguments::write_invalid(invalid, self.text) {
            Invalidity::Valid => (false, None),
            Invalidity::Invalid => (true, None),
            Invalidity::Because(span) => (true, Some(span)),
        };
        let node = &mut *self.node;
        node.flags = node.flags.with(StateFlags::INVALID, invalid);
        node.invalid_message = message;
        self
    }

    /// Offers a core action.
    #[inline]
    pub fn action(&mut self, action: Action) -> &mut Self {
        let node = &mut *self.node;
        node.actions = node.actions.with(action);
        self
    }

    /// Offers several core actions.
    pub fn actions(&mut self, actions: impl IntoIterator<Item = Action>) -> &mut Self {
        for action in actions {
            self.action(action);
        }
        self
    }

    /// Offers a custom action by name (e.g. `archive`).
    pub fn custom_action(&mut self, name: &str) -> &mut Self {
        if let Some(action) = Action::from_name(name) {
            return self.action(action);
        }
        let offered = self.node.custom_actions;
        if self.spans[offered.indices()]
            .iter()
            .any(|span| span.text(self.text) == name)
        {
            return self;
        }
        let span = append_str(self.text, name, MAX_LABEL_BYTES);
        // Custom actions of one node are contiguous: they are added while its builder runs.
        let start = if offered.start == offered.end {
            self.spans.len() as u32
        } else {
            offered.start
        };
        self.spans.push(span);
        let end = self.spans.len() as u32;
        self.node.custom_actions = Range32 { start, end };
        self
    }

    /// Offers `action` and says which key the app's own input path takes for it, so an
    /// agent can drive the node without a handler (`toggle` ⇒ `"space"`).
    #[inline]
    pub fn key_fallback(&mut self, action: Action, key: &str) -> &mut Self {
        self.action(action);
        self.push_key(ActionRef::Core(action), key)
    }

    /// Offers a custom action by name with the key the app takes for it.
    pub fn custom_key_fallback(&mut self, name: &str, key: &str) -> &mut Self {
        if let Some(action) = Action::from_name(name) {
            return self.key_fallback(action, key);
        }
        self.custom_action(name);
        let span = append_str(self.text, name, MAX_LABEL_BYTES);
        self.push_key(ActionRef::Custom(span), key)
    }

    /// Offers `focus` with the keys the app moves the focus by among the nodes that
    /// declare the same two (its siblings, in the order they are drawn): `next` to the
    /// next one, `previous` to the one before (a kanban board's columns, `l` and `h`).
    /// An action on one of them, or on an item in one of them, that does not have
    /// focus presses `next` or `previous` as many times as the tree says it is away
    /// first. In the tree its key for `focus` reads `"l (next) / h (previous)"`.
    /// `#[taria::widget(actions(focus = cycle("l", "h")))]` writes this.
    pub fn focus_cycle(&mut self, next: &str, previous: &str) -> &mut Self {
        self.action(Action::Focus);
        let key = append_display(
            self.text,
            &format_args!("{next} (next) / {previous} (previous)"),
            MAX_LABEL_BYTES,
        );
        self.push_key_span(ActionRef::Core(Action::Focus), key)
    }

    #[inline]
    fn push_key(&mut self, action: ActionRef, key: &str) -> &mut Self {
        let key = append_str(self.text, key, MAX_LABEL_BYTES);
        self.push_key_span(action, key)
    }

    #[inline]
    fn push_key_span(&mut self, action: ActionRef, key: Span) -> &mut Self {
        let declared = self.node.keys;
        // Key fallbacks of one node are contiguous: they are added while its builder runs.
        let start = if declared.start == declared.end {
            self.keys.len() as u32
        } else {
            declared.start
        };
        self.keys.push((action, key));
        let end = self.keys.len() as u32;
        self.node.keys = Range32 { start, end };
        self
    }

    /// Sets the index among the container's items (zero-based).
    #[inline]
    pub fn index(&mut self, index: impl TryInto<u32>) -> &mut Self {
        self.node.position.index = Some(index.try_into().unwrap_or(u32::MAX));
        self
    }

    /// Sets how many items the container has in all.
    #[inline]
    pub fn count(&mut self, count: impl TryInto<u32>) -> &mut Self {
        self.node.position.count = Some(count.try_into().unwrap_or(u32::MAX));
        self
    }

    /// Sets the nesting level in a tree (1 for top-level items).
    #[inline]
    pub fn level(&mut self, level: impl TryInto<u32>) -> &mut Self {
        self.node.position.level = Some(level.try_into().unwrap_or(u32::MAX));
        self
    }

    /// Sets the scroll position: first visible line, content length, visible lines.
    #[inline]
    pub fn scroll(
        &mut self,
        offset: impl TryInto<u32>,
        content: impl TryInto<u32>,
        viewport: impl TryInto<u32>,
    ) -> &mut Self {
        self.node.scroll = Some(ScrollInfo {
            offset: offset.try_into().unwrap_or(u32::MAX),
            content: content.try_into().unwrap_or(u32::MAX),
            viewport: viewport.try_into().unwrap_or(u32::MAX),
        });
        self
    }

    /// Sets where the node was drawn (a ratatui `Rect`).
    #[inline]
    pub fn bounds(&mut self, bounds: impl Into<Bounds>) -> &mut Self {
        self.node.bounds = bounds.into();
        self
    }
}
