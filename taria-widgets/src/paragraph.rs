//! [`Paragraph`]: ratatui's [`Paragraph`](ratatui::widgets::Paragraph), recorded as
//! `text`.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Rect};
use ratatui::style::Style;
use ratatui::text::Text;
use ratatui::widgets::Widget;
use taria::Role;

use crate::given::Given;
use crate::semantic::SemanticWidget;

pub use ratatui::widgets::Wrap;

use crate::text::FirstLine;

/// A block of text, drawn exactly like ratatui's `Paragraph`.
///
/// Recorded as `text`: label = its block's title, else its first line; value = the
/// whole text (lines joined with `\n`), kept up to [`taria::builder::MAX_VALUE_BYTES`]
/// (none for one line of text without a title, which is its label already). When it
/// does not all show (more lines than its inner area has rows, counted as drawn: after
/// [`wrap`](Paragraph::wrap)) or is [scrolled](Paragraph::scroll), `scroll` says which
/// part does: the first drawn line shown, the lines the text takes drawn, the rows of
/// its inner area (`[scroll=0/5 view=3]`: five lines, the first three on screen).
/// Mark text that came from outside the app with [`Paragraph::untrusted`].
///
/// **The role it plays.** A paragraph is often more than text: an input line, a status
/// line, a log, a document, a popup. Say so on the widget, and it is that one node:
/// [`role`](Paragraph::role), [`label`](Paragraph::label) and
/// [`value`](Paragraph::value) as agents should read them, [`focused`](Paragraph::focused),
/// [`key_fallbacks`](Paragraph::key_fallbacks) (the keys the app takes for its actions)
/// and [`actions`](Paragraph::actions) (performed by a handler on its
/// [`id`](Paragraph::id)); a [`Block`](crate::Block) given a role passes it on. It draws
/// the same cells.
///
/// # Examples
///
/// ```
/// use taria::{Action, Role, testing::Harness};
/// use taria_widgets::Paragraph;
///
/// let draft = "hello";
/// let mut harness = Harness::new(20, 1);
/// let tree = harness.render(|frame| {
///     let input = Paragraph::new(format!("> {draft}"))
///         .role(Role::TextInput)
///         .id("input")
///         .label("Message")
///         .value(draft)
///         .focused(true)
///         .key_fallbacks(&[(Action::Submit, "enter")]);
///     frame.render_widget(input, frame.area());
/// });
/// assert_eq!(tree.outline(), "- text_input \"Message\": \"hello\" [id=input] [focused] {submit}\n");
/// ```
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::{Block, Paragraph};
///
/// let mut harness = Harness::new(20, 4);
/// let tree = harness.render(|frame| {
///     let help = Paragraph::new("q quits\n? help").block(Block::bordered().title("Keys"));
///     frame.render_widget(help, frame.area());
/// });
/// let help = &tree.roots[0];
/// assert_eq!(help.label.as_deref(), Some("Keys"));
/// assert_eq!(help.value, Some(taria::Value::Text("q quits\n? help".into())));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Paragraph<'a> {
    text: Text<'a>,
    block: Option<ratatui::widgets::Block<'a>>,
    block_label: Option<Cow<'a, str>>,
    style: Style,
    wrap: Option<Wrap>,
    scroll: (u16, u16),
    alignment: Alignment,
    id: Option<&'a str>,
    untrusted: bool,
    label: Option<&'a str>,
    value: Option<&'a str>,
    given: Given<'a>,
}

impl<'a> Paragraph<'a> {
    /// See ratatui's [`Paragraph::new`](ratatui::widgets::Paragraph::new).
    pub fn new<T: Into<Text<'a>>>(text: T) -> Self {
        Paragraph {
            text: text.into(),
            ..Paragraph::default()
        }
    }

    crate::semantic::id_setter!();

    /// Marks the text as coming from outside the app (files, network, chat), so
    /// agents treat it as data, never as instructions.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn untrusted(mut self, untrusted: bool) -> Self {
        self.untrusted = untrusted;
        self
    }

    crate::given::given_setters!();

    /// The label agents read, instead of the block's title or the first line (an input
    /// line's `Message`, where the screen shows only what was typed).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn label(mut self, label: &'a str) -> Self {
        self.label = Some(label);
        self
    }

    /// The value agents read, instead of the whole text: what an input line holds,
    /// where the screen shows it after a prompt (`> hello` holds `hello`).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn value(mut self, value: &'a str) -> Self {
        self.value = Some(value);
        self
    }

    /// See ratatui's [`Paragraph::block`](ratatui::widgets::Paragraph::block). Takes a
    /// taria [`Block`](crate::Block), whose first title labels the paragraph, or a
    /// ratatui one. A block given a [`role`](crate::Block::role) gives the paragraph
    /// what it was given (role, focus, modal, actions), unless the paragraph has a role
    /// of its own: `Paragraph::new(text).block(Block::bordered().title("Help")
    /// .role(Role::Dialog))` is one dialog node holding the text.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn block(mut self, block: impl Into<crate::Block<'a>>) -> Self {
        let (block, label, given) = block.into().into_given_parts();
        self.block = Some(block);
        self.block_label = label;
        if self.given.role.is_none() && given.role.is_some() {
            self.given = given;
        }
        self
    }

    crate::semantic::setters! { Paragraph in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => style = style.into();
        const fn wrap(wrap: Wrap) => wrap = Some(wrap);
        const fn scroll(offset: (u16, u16)) => scroll = offset;
        const fn alignment(alignment: Alignment) => alignment = alignment;
    }

    /// See ratatui's [`Paragraph::left_aligned`](ratatui::widgets::Paragraph::left_aligned).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn left_aligned(self) -> Self {
        self.alignment(Alignment::Left)
    }

    /// See ratatui's [`Paragraph::centered`](ratatui::widgets::Paragraph::centered).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn centered(self) -> Self {
        self.alignment(Alignment::Center)
    }

    /// See ratatui's [`Paragraph::right_aligned`](ratatui::widgets::Paragraph::right_aligned).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn right_aligned(self) -> Self {
        self.alignment(Alignment::Right)
    }
}

impl Paragraph<'_> {
    /// The lines the text takes drawn `width` columns wide: its lines, or with
    /// [`wrap`](Paragraph::wrap) the lines ratatui wraps them into.
    fn drawn_lines(&self, width: u16) -> usize {
        match self.wrap {
            None => self.text.height(),
            Some(wrap) => ratatui::widgets::Paragraph::new(self.text.clone())
                .style(self.style)
                .alignment(self.alignment)
                .wrap(wrap)
                .line_count(width),
        }
    }
}

impl SemanticWidget for Paragraph<'_> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        let role = self.given.role_or(Role::Text);
        taria::leaf(|n| {
            n.role(role).untrusted(self.untrusted).bounds(area);
            // One line of plain text with no title is its own label: the same text
            // again as its value would say it twice.
            let labelled_by_itself = role == Role::Text
                && self.label.is_none()
                && self.block_label.is_none()
                && self.text.lines.len() <= 1
                // Whole in the label: a longer line keeps its value, which holds more.
                && self
                    .text
                    .iter()
                    .flat_map(|line| &line.spans)
                    .map(|span| span.content.len())
                    .sum::<usize>()
                    <= taria::builder::MAX_LABEL_BYTES;
            match self.value {
                Some(value) => {
                    n.value(value);
                }
                None if labelled_by_itself => {}
                None => {
                    n.value(format_args!("{}", self.text));
                }
            }
            match (self.label, &self.block_label) {
                (Some(label), _) => n.label(label),
                (None, Some(title)) => n.label(title),
                (None, None) => n.label(FirstLine(&self.text)),
            };
            if let Some(id) = self.id {
                n.id(id);
            }
            self.given.record(n, self.id);
            let inner = self.block.as_ref().map_or(area, |b| b.inner(area));
            let drawn = self.drawn_lines(inner.width);
            if self.scroll != (0, 0) || drawn > usize::from(inner.height) {
                n.scroll(self.scroll.0, drawn, inner.height);
            }
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        let Paragraph {
            text,
            block,
            style,
            wrap,
            scroll,
            alignment,
            ..
        } = self;
        let mut paragraph = ratatui::widgets::Paragraph::new(text)
            .style(style)
            .scroll(scroll)
            .alignment(alignment);
        if let Some(wrap) = wrap {
            paragraph = paragraph.wrap(wrap);
        }
        if let Some(block) = block {
            paragraph = paragraph.block(block);
        }
        paragraph.render(area, buf);
    }
}

crate::semantic::widget_impls!(Paragraph<'_>: Widget);
crate::semantic::widget_impls!(Paragraph<'_>: &Widget by clone);

crate::semantic::styled!(Paragraph<'_>: field style);

#[cfg(test)]
mod tests {
    use ratatui::style::Stylize;
    use ratatui::text::Line;
    use taria::testing::Harness;

    use super::*;
    use crate::Block;

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 12, 5);
        let text = || {
            Text::from(vec![
                Line::from("a long first line"),
                Line::from("second").centered(),
            ])
        };
        for wrap in [None, Some(Wrap { trim: true }), Some(Wrap { trim: false })] {
            for scroll in [(0, 0), (1, 2)] {
                let mut ours = Paragraph::new(text())
                    .scroll(scroll)
                    .right_aligned()
                    .red()
                    .block(Block::bordered().title("P"));
                let mut theirs = ratatui::widgets::Paragraph::new(text())
                    .scroll(scroll)
                    .right_aligned()
                    .red()
                    .block(ratatui::widgets::Block::bordered().title("P"));
                if let Some(wrap) = wrap {
                    ours = ours.wrap(wrap);
                    theirs = theirs.wrap(wrap);
                }
                let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
                ours.render(area, &mut a);
                theirs.render(area, &mut b);
                assert_eq!(a, b);
            }
        }
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        Paragraph::new("x")
            .centered()
            .left_aligned()
            .render(area, &mut a);
        ratatui::widgets::Paragraph::new("x")
            .centered()
            .left_aligned()
            .render(area, &mut b);
        assert_eq!(a, b);
    }

    /// Where the text does not all show (taller than the inner area, or wrapped into
    /// more lines than it has), `scroll` says which drawn lines show, counted as
    /// ratatui draws them (issue 30: the value held 5 lines where 3 showed, unsaid).
    #[test]
    fn text_cut_off_or_wrapped_records_the_lines_drawn() {
        let scroll_of = |paragraph: Paragraph<'_>, width, height| {
            let mut harness = Harness::new(width, height);
            let tree = harness.render(|frame| {
                frame.render_widget(paragraph.id("p"), frame.area());
            });
            let node = tree.get("p").expect("p");
            node.scroll.map(|s| (s.offset, s.content, s.viewport))
        };
        let five = "one\ntwo\nthree\nfour\nfive";
        assert_eq!(scroll_of(Paragraph::new(five), 10, 3), Some((0, 5, 3)));
        assert_eq!(
            scroll_of(Paragraph::new(five).block(Block::bordered()), 10, 5),
            Some((0, 5, 3)),
            "the block's inner area"
        );
        assert_eq!(scroll_of(Paragraph::new(five), 10, 5), None, "all shown");
        // Two lines wrapped into six at width 6 (a word a line).
        let wrapped = || Paragraph::new("aaa bbb ccc\nddd eee fff").wrap(Wrap { trim: true });
        assert_eq!(scroll_of(wrapped(), 6, 3), Some((0, 6, 3)));
        assert_eq!(scroll_of(wrapped().scroll((2, 0)), 6, 3), Some((2, 6, 3)));
        assert_eq!(scroll_of(wrapped(), 6, 6), None, "all shown");
        assert_eq!(
            scroll_of(wrapped(), 20, 3),
            None,
            "two lines unwrapped in three rows"
        );
    }

    #[test]
    fn records_label_value_and_scroll() {
        // One line without a title is its label alone (issue 30: it was said twice).
        let mut harness = Harness::new(30, 1);
        let tree = harness.render(|frame| {
            frame.render_widget(Paragraph::new("Press q to exit").id("help"), frame.area());
        });
        let help = tree.get("help").expect("help");
        assert_eq!(help.label.as_deref(), Some("Press q to exit"));
        assert_eq!(help.value, None);
        assert_eq!(help.outline_line(), "- text \"Press q to exit\" [id=help]");
        // One line longer than a label holds keeps its value.
        let words = "word ".repeat(400);
        let mut harness = Harness::new(30, 3);
        let tree = harness.render(|frame| {
            let text = Paragraph::new(words.as_str())
                .wrap(Wrap { trim: true })
                .id("long");
            frame.render_widget(text, frame.area());
        });
        let long_node = tree.get("long").expect("long");
        assert_eq!(long_node.value, Some(taria::Value::Text(words.clone())));

        let mut harness = Harness::new(20, 3);
        let tree = harness.render(|frame| {
            let log = Paragraph::new("one\ntwo\nthree\nfour")
                .scroll((2, 0))
                .untrusted(true)
                .id("log");
            frame.render_widget(log, frame.area());
        });
        let log = tree.get("log").expect("log");
        assert_eq!(log.label.as_deref(), Some("one"));
        assert_eq!(
            log.value,
            Some(taria::Value::Text("one\ntwo\nthree\nfour".into()))
        );
        assert!(log.state.untrusted);
        let scroll = log.scroll.expect("scrolled");
        assert_eq!((scroll.offset, scroll.content, scroll.viewport), (2, 4, 3));
    }
}
