//! [`Tabs`]: ratatui's [`Tabs`](ratatui::widgets::Tabs), recorded as `tabs` with a
//! `tab` per title.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Widget;
use taria::{Action, Invocation, Outcome, Role};

use crate::semantic::{SemanticWidget, id_and_label};

/// A row of tab titles, drawn exactly like ratatui's `Tabs`.
///
/// Recorded as `tabs` (label: its block's title) with one `tab` per title (label,
/// `selected`, `index` of `count`, bounds: the cells its title is drawn in, none for a
/// title past the right edge), all offering `select`.
///
/// **State route.** Besides ratatui's `Widget`, `Tabs` is a
/// [`StatefulWidget`](ratatui::widgets::StatefulWidget) whose state is the selected index (`Option<usize>`, overriding [`Tabs::select`]): with
/// an [`id`](Tabs::id), an agent's `select` on `tabs/2` sets it to `Some(2)` — no app
/// code.
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::Tabs;
///
/// let mut selected = Some(0);
/// let mut harness = Harness::new(30, 1);
/// let tree = harness.render(|frame| {
///     let tabs = Tabs::new(["Inbox", "Sent"]).id("folders");
///     frame.render_stateful_widget(tabs, frame.area(), &mut selected);
/// });
/// let folders = tree.get("folders").unwrap();
/// assert_eq!(folders.children.len(), 2);
/// assert!(tree.get("folders/0").unwrap().state.selected);
/// assert_eq!(tree.get("folders/1").unwrap().label.as_deref(), Some("Sent"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Tabs<'a> {
    inner: ratatui::widgets::Tabs<'a>,
    titles: Vec<Line<'a>>,
    block: Option<ratatui::widgets::Block<'a>>,
    label: Option<Cow<'a, str>>,
    selected: Option<usize>,
    id: Option<&'a str>,
    /// The widths of the padding and the divider ratatui draws around each title
    /// (the tabs' bounds are read from them).
    spacing: Spacing,
    /// What agents call the tabs whose titles draw no text ([`Tabs::names`]).
    names: Vec<Cow<'a, str>>,
    /// Nothing switches them ([`Tabs::fixed`]).
    fixed: bool,
}

/// The widths, in cells, of what ratatui's `Tabs` draws around each title.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct Spacing {
    left: u16,
    right: u16,
    divider: u16,
}

impl Default for Spacing {
    /// ratatui's: a space on each side, `│` between.
    fn default() -> Self {
        Spacing {
            left: 1,
            right: 1,
            divider: 1,
        }
    }
}

/// The cells `line` takes when ratatui's `Buffer::set_line` draws it in at most `max`
/// cells: each span's graphemes while they fit (one that does not, a wide character
/// at the edge, ends its span; a later, narrower one may still fit), control
/// characters and zero-width ones left out, as `set_stringn` does.
fn drawn_width(line: &Line<'_>, max: u16) -> u16 {
    use unicode_width::UnicodeWidthStr as _;
    let mut remaining = max;
    for span in &line.spans {
        if remaining == 0 {
            break;
        }
        for grapheme in span.styled_graphemes(Style::default()) {
            let symbol = grapheme.symbol;
            let width = cells(symbol.width());
            if symbol.contains(char::is_control) || width == 0 {
                continue;
            }
            match remaining.checked_sub(width) {
                Some(left) => remaining = left,
                None => break,
            }
        }
    }
    max - remaining
}

/// A width in cells, as a `u16` (a title wider than the terminal is as good as that).
fn cells(width: usize) -> u16 {
    u16::try_from(width).unwrap_or(u16::MAX)
}

impl Default for Tabs<'_> {
    fn default() -> Self {
        Tabs::new(Vec::<Line<'_>>::new())
    }
}

impl<'a> Tabs<'a> {
    /// See ratatui's [`Tabs::new`](ratatui::widgets::Tabs::new).
    pub fn new<Iter>(titles: Iter) -> Self
    where
        Iter: IntoIterator,
        Iter::Item: Into<Line<'a>>,
    {
        let titles: Vec<Line<'a>> = titles.into_iter().map(Into::into).collect();
        let selected = if titles.is_empty() { None } else { Some(0) };
        Tabs {
            inner: ratatui::widgets::Tabs::default(),
            titles,
            block: None,
            label: None,
            selected,
            id: None,
            spacing: Spacing::default(),
            names: Vec::new(),
            fixed: false,
        }
    }

    /// Names for agents, in the order of the titles, used where a title draws no text
    /// (a blank title, as ratatui's demo2 gives its first tab): such a tab is labelled
    /// with its name, and a title with text keeps its own. Without one, a blank tab has
    /// no name an agent could read.
    ///
    /// # Examples
    ///
    /// ```
    /// use taria::testing::Harness;
    /// use taria_widgets::Tabs;
    ///
    /// let mut harness = Harness::new(30, 1);
    /// let tree = harness.render(|frame| {
    ///     let tabs = Tabs::new(["", " Recipe "]).names(["About", "Recipe"]).id("tabs");
    ///     frame.render_stateful_widget(tabs, frame.area(), &mut Some(1));
    /// });
    /// assert_eq!(tree.get("tabs/0").unwrap().label.as_deref(), Some("About"));
    /// assert_eq!(tree.get("tabs/1").unwrap().label.as_deref(), Some(" Recipe "));
    /// ```
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn names<Iter>(mut self, names: Iter) -> Self
    where
        Iter: IntoIterator,
        Iter::Item: Into<Cow<'a, str>>,
    {
        self.names = names.into_iter().map(Into::into).collect();
        self
    }

    /// Says that nothing switches these tabs: a header that always shows the same tab
    /// selected (ratatui's demo2 draws its mail folders `Inbox`, `Sent`, `Drafts` with
    /// `Inbox` selected, and no key changes it). They are recorded as drawn, selection
    /// included, but offer no `select`: an agent is not offered what nothing performs,
    /// and its arrow keys are not thought to move them.
    ///
    /// # Examples
    ///
    /// ```
    /// use taria::testing::Harness;
    /// use taria_widgets::Tabs;
    ///
    /// let mut harness = Harness::new(30, 1);
    /// let tree = harness.render(|frame| {
    ///     let folders = Tabs::new(["Inbox", "Sent"]).select(0).fixed().id("folders");
    ///     frame.render_widget(folders, frame.area());
    /// });
    /// let inbox = tree.get("folders/0").unwrap();
    /// assert!(inbox.state.selected);
    /// assert!(inbox.actions.is_empty());
    /// ```
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn fixed(mut self) -> Self {
        self.fixed = true;
        self
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id: tabs get `id/0`, `id/1`, …, and the widget takes
        /// the agent's `select` into its state.
    );

    /// See ratatui's [`Tabs::titles`](ratatui::widgets::Tabs::titles).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn titles<Iter>(mut self, titles: Iter) -> Self
    where
        Iter: IntoIterator,
        Iter::Item: Into<Line<'a>>,
    {
        self.titles = titles.into_iter().map(Into::into).collect();
        self.selected = if self.titles.is_empty() {
            None
        } else {
            Some(0)
        };
        self
    }

    crate::semantic::block_setter!(Tabs in ratatui::widgets => block, label);

    /// See ratatui's [`Tabs::select`](ratatui::widgets::Tabs::select).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn select<T: Into<Option<usize>>>(mut self, selected: T) -> Self {
        self.selected = selected.into();
        self
    }

    crate::semantic::setters! { Tabs in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => inner;
        fn highlight_style<S: Into<Style>>(style: S) => inner;
    }

    /// See ratatui's [`Tabs::divider`](ratatui::widgets::Tabs::divider).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn divider<T: Into<Span<'a>>>(mut self, divider: T) -> Self {
        let divider = divider.into();
        self.spacing.divider = cells(divider.width());
        self.inner = self.inner.divider(divider);
        self
    }

    /// See ratatui's [`Tabs::padding`](ratatui::widgets::Tabs::padding).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn padding<T, U>(mut self, left: T, right: U) -> Self
    where
        T: Into<Line<'a>>,
        U: Into<Line<'a>>,
    {
        let (left, right) = (left.into(), right.into());
        self.spacing.left = cells(left.width());
        self.spacing.right = cells(right.width());
        self.inner = self.inner.padding(left, right);
        self
    }

    /// See ratatui's [`Tabs::padding_left`](ratatui::widgets::Tabs::padding_left).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn padding_left<T: Into<Line<'a>>>(mut self, padding: T) -> Self {
        let padding = padding.into();
        self.spacing.left = cells(padding.width());
        self.inner = self.inner.padding_left(padding);
        self
    }

    /// See ratatui's [`Tabs::padding_right`](ratatui::widgets::Tabs::padding_right).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn padding_right<T: Into<Line<'a>>>(mut self, padding: T) -> Self {
        let padding = padding.into();
        self.spacing.right = cells(padding.width());
        self.inner = self.inner.padding_right(padding);
        self
    }

    /// Draws the tabs selected as [`Tabs::select`] says (ratatui's `Widget::render`).
    ///
    /// An inherent method, so `tabs.render(area, buf)` keeps compiling where both
    /// `Widget` and `StatefulWidget` are in scope (ratatui's `Tabs` has no state).
    pub fn render(self, area: Rect, buf: &mut Buffer) {
        Widget::render(self, area, buf);
    }

    fn record(&self, area: Rect, selected: Option<usize>, offer: crate::semantic::Offer) {
        let _tabs = taria::scope(|n| {
            n.role(Role::Tabs).bounds(area);
            if offer.takes() && !self.fixed {
                n.action(Action::Select);
            }
            id_and_label(n, self.id, self.label.as_ref());
        });
        let count = self.titles.len();
        // Where ratatui's `render_tabs` draws each title: left padding, the title,
        // right padding, the divider, from the left of the block's inner area, each cut
        // at its right edge.
        let row = match &self.block {
            Some(block) => block.inner(area),
            None => area,
        };
        let mut x = row.left();
        let spacing = self.spacing;
        let advance = |x: u16, width: u16| x.saturating_add(width).min(row.right());
        for (i, title) in self.titles.iter().enumerate() {
            let start = advance(x, spacing.left);
            let end = start + drawn_width(title, row.right() - start);
            let drawn = if row.is_empty() || end == start {
                Rect::default()
            } else {
                Rect::new(start, row.top(), end - start, 1)
            };
            x = advance(advance(end, spacing.right), spacing.divider);
            let blank = title.spans.iter().all(|s| s.content.trim().is_empty());
            taria::leaf(|n| {
                n.role(Role::Tab)
                    .key(i)
                    .selected(selected == Some(i))
                    .index(i)
                    .count(count)
                    .bounds(drawn);
                match self.names.get(i) {
                    Some(name) if blank => n.label(name.as_ref()),
                    _ => n.label(title),
                };
                if !self.fixed {
                    n.action(Action::Select);
                }
            });
        }
    }

    fn draw(self, area: Rect, buf: &mut Buffer, selected: Option<usize>) {
        let Tabs {
            inner,
            titles,
            block,
            ..
        } = self;
        let mut tabs = inner.titles(titles).select(selected);
        if let Some(block) = block {
            tabs = tabs.block(block);
        }
        Widget::render(tabs, area, buf);
    }
}

/// What the tabs do with an agent's `select`.
pub(crate) fn apply_action(
    selected: &mut Option<usize>,
    count: usize,
    inv: &Invocation<'_>,
) -> Outcome {
    if !inv.is(taria::Action::Select) {
        return Outcome::NotHandled;
    }
    match crate::item_index(inv) {
        Some(i) if i < count => {
            *selected = Some(i);
            Outcome::Handled
        }
        Some(i) => Outcome::Rejected(format!("no tab {i}: there are {count}")),
        None => Outcome::Rejected("select one of the tabs".into()),
    }
}

/// Drawn with `Widget`, the tabs show [`Tabs::select`]'s choice and take no
/// agent actions; with `StatefulWidget`, the selected index is the state.
impl SemanticWidget for Tabs<'_> {
    type State = Option<usize>;

    fn own_state(&self) -> Option<usize> {
        self.selected
    }

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn fingerprint(selected: &Option<usize>) -> Option<u64> {
        Some(crate::semantic::fingerprint(selected))
    }

    fn apply(&self, state: &mut Option<usize>, inv: &Invocation<'_>) -> Outcome {
        apply_action(state, self.titles.len(), inv)
    }

    fn describe(&self, area: Rect, selected: &Option<usize>, offer: crate::semantic::Offer) {
        self.record(area, *selected, offer);
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, selected: &mut Option<usize>) {
        self.draw(area, buf, *selected);
    }
}

crate::semantic::widget_impls!(Tabs<'_>: Widget, StatefulWidget<Option<usize>>);
crate::semantic::widget_impls!(Tabs<'_>: &Widget by clone);

crate::semantic::styled!(Tabs<'_>: inner);

/// The rendered width, as ratatui's `Tabs` measures it: the titles, dividers and
/// padding, without the block.
impl unicode_width::UnicodeWidthStr for Tabs<'_> {
    fn width(&self) -> usize {
        self.measured(false)
    }

    fn width_cjk(&self) -> usize {
        self.measured(true)
    }
}

impl Tabs<'_> {
    /// The rendered width (ambiguous characters double with `cjk`): our titles, plus the
    /// dividers and padding measured by ratatui's tabs given as many empty titles.
    fn measured(&self, cjk: bool) -> usize {
        use unicode_width::UnicodeWidthStr as _;
        let empty = self
            .inner
            .clone()
            .titles(std::iter::repeat_n(Line::default(), self.titles.len()));
        if cjk {
            self.titles.iter().map(Line::width_cjk).sum::<usize>() + empty.width_cjk()
        } else {
            self.titles.iter().map(Line::width).sum::<usize>() + empty.width()
        }
    }
}

impl<'a, Item: Into<Line<'a>>> FromIterator<Item> for Tabs<'a> {
    fn from_iter<I: IntoIterator<Item = Item>>(iter: I) -> Self {
        Tabs::new(iter)
    }
}

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Stylize};

    use super::*;
    use crate::Block;
    use ratatui::widgets::StatefulWidget;

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 30, 3);
        for selected in [None, Some(0), Some(2), Some(5)] {
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            Widget::render(
                Tabs::new(["One", "Two", "Three"])
                    .select(selected)
                    .block(Block::bordered().title("T"))
                    .divider("•")
                    .padding("[", "]")
                    .highlight_style(Color::Red)
                    .blue(),
                area,
                &mut a,
            );
            Widget::render(
                ratatui::widgets::Tabs::new(["One", "Two", "Three"])
                    .select(selected)
                    .block(ratatui::widgets::Block::bordered().title("T"))
                    .divider("•")
                    .padding("[", "]")
                    .highlight_style(Color::Red)
                    .blue(),
                area,
                &mut b,
            );
            assert_eq!(a, b);
            let mut c = Buffer::empty(area);
            let mut state = selected;
            StatefulWidget::render(
                Tabs::new(["One", "Two", "Three"])
                    .block(Block::bordered().title("T"))
                    .divider("•")
                    .padding("[", "]")
                    .highlight_style(Color::Red)
                    .blue(),
                area,
                &mut c,
                &mut state,
            );
            assert_eq!(c, b, "the state selects like `select`");
        }
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        Widget::render(
            Tabs::default()
                .titles(["a", "b"])
                .padding_left("<")
                .padding_right(">"),
            area,
            &mut a,
        );
        Widget::render(
            ratatui::widgets::Tabs::default()
                .titles(["a", "b"])
                .padding_left("<")
                .padding_right(">"),
            area,
            &mut b,
        );
        assert_eq!(a, b);
    }

    /// Issue 30: each tab's bounds are the cells its title is drawn in (they were
    /// `[0,0,0,0]`), read against ratatui's own drawing: the selected title's cells
    /// are the highlighted ones, whatever the padding, divider and block; a title cut
    /// at the right edge is bounded there, and one past it has none.
    #[test]
    fn each_tab_is_bounded_where_its_title_is_drawn() {
        use taria::testing::Harness;
        /// Titles, padding, divider, the width drawn in, bordered.
        type Case<'a> = (
            &'a [&'a str],
            Option<(&'a str, &'a str)>,
            Option<&'a str>,
            u16,
            bool,
        );
        let cases: [Case<'_>; 6] = [
            (&["One", "Two", "Three"], None, None, 30, false),
            (
                &["One", "Two", "Three"],
                Some(("[", "]]")),
                Some(" • "),
                30,
                true,
            ),
            (
                &["日本", "é", "Long title"],
                Some(("", "")),
                Some(""),
                14,
                false,
            ),
            // A wide character that meets the right edge is not drawn.
            (&["ab", "日本"], None, None, 7, false),
            (&["ab", "x日"], None, None, 7, false),
            (&["a", "b", "c", "d"], None, None, 9, true),
        ];
        for (titles, padding, divider, width, bordered) in cases {
            for selected in 0..titles.len() {
                let mut harness = Harness::new(width, 3);
                let tree = harness.render(|frame| {
                    let mut tabs = Tabs::new(titles.iter().copied())
                        .id("t")
                        .highlight_style(Color::Red);
                    if let Some((left, right)) = padding {
                        tabs = tabs.padding(left, right);
                    }
                    if let Some(divider) = divider {
                        tabs = tabs.divider(divider);
                    }
                    if bordered {
                        tabs = tabs.block(Block::bordered());
                    }
                    let mut state = Some(selected);
                    frame.render_stateful_widget(tabs, frame.area(), &mut state);
                });
                let buffer = harness.buffer();
                let row = u16::from(bordered);
                // A wide character's second cell is the first's (ratatui styles
                // only the first).
                let mut highlighted: Vec<u16> = Vec::new();
                for x in 0..width {
                    let cell = &buffer[(x, row)];
                    if cell.fg == Color::Red {
                        let wide = unicode_width::UnicodeWidthStr::width(cell.symbol());
                        highlighted.extend((x..x + cells(wide).max(1)).filter(|&c| c < width));
                    }
                }
                highlighted.dedup();
                let tab = tree.get(&format!("t/{selected}")).expect("the tab");
                let bounds = tab.bounds;
                let cells: Vec<u16> = (bounds.x..bounds.x + bounds.width).collect();
                assert_eq!(
                    cells, highlighted,
                    "{titles:?} {padding:?} {divider:?} width {width}: tab {selected} at {bounds:?}"
                );
                if !cells.is_empty() {
                    assert_eq!((bounds.y, bounds.height), (row, 1));
                }
            }
        }
    }

    #[test]
    fn renders_by_method_with_both_traits_in_scope() {
        let area = Rect::new(0, 0, 10, 1);
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        Tabs::new(["a", "b"]).render(area, &mut a);
        ratatui::widgets::Tabs::new(["a", "b"]).render(area, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn select_changes_the_state() {
        let mut selected = None;
        let inv = Invocation::new("t/1", "select").with_index(1);
        assert_eq!(apply_action(&mut selected, 2, &inv), Outcome::Handled);
        assert_eq!(selected, Some(1));
        let inv = Invocation::new("t/4", "select").with_index(4);
        assert!(matches!(
            apply_action(&mut selected, 2, &inv),
            Outcome::Rejected(_)
        ));
    }
}
