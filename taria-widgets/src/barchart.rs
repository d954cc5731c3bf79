//! [`BarChart`] with its [`Bar`]s and [`BarGroup`]s: ratatui's bar chart, recorded as
//! a `chart` whose value lists the bars.

use std::borrow::Cow;
use std::fmt;

use ratatui::buffer::Buffer;
use ratatui::layout::{Direction, Rect};
use ratatui::style::Style;
use ratatui::symbols;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use taria::Role;

use crate::given::Given;
use crate::semantic::{SemanticWidget, id_and_label};

use crate::summary::{Name, Num, Stats};

/// One bar, the same as ratatui's [`Bar`](ratatui::widgets::Bar) but with its label
/// and value readable, so the chart can be summarised.
///
/// # Examples
///
/// ```
/// use ratatui::style::Stylize;
/// use taria_widgets::Bar;
///
/// let bar = Bar::with_label("Mon", 10).red().text_value("10°C");
/// assert_eq!(bar.get_value(), 10);
/// ```
#[derive(Debug, Default, Clone, Eq, PartialEq, Hash)]
pub struct Bar<'a> {
    // ratatui's fields, so a `Vec` of ours converts into a `Vec` of ratatui's in place.
    value: u64,
    label: Option<Line<'a>>,
    style: Style,
    value_style: Style,
    text_value: Option<String>,
}

impl<'a> Bar<'a> {
    /// See ratatui's [`Bar::new`](ratatui::widgets::Bar::new).
    #[must_use]
    pub const fn new(value: u64) -> Self {
        Bar {
            value,
            label: None,
            style: Style::new(),
            value_style: Style::new(),
            text_value: None,
        }
    }

    /// See ratatui's [`Bar::with_label`](ratatui::widgets::Bar::with_label).
    pub fn with_label<T: Into<Line<'a>>>(label: T, value: u64) -> Self {
        Bar {
            label: Some(label.into()),
            ..Bar::new(value)
        }
    }

    crate::semantic::setters! { Bar in ratatui::widgets;
        const fn value(value: u64) => value = value;
    }

    /// See ratatui's [`Bar::label`](ratatui::widgets::Bar::label).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label<T: Into<Line<'a>>>(mut self, label: T) -> Self {
        self.label = Some(label.into());
        self
    }

    crate::semantic::setters! { Bar in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => style = style.into();
        fn value_style<S: Into<Style>>(style: S) => value_style = style.into();
        fn text_value<T: Into<String>>(text_value: T) => text_value = Some(text_value.into());
    }

    /// The bar's value.
    #[must_use]
    pub const fn get_value(&self) -> u64 {
        self.value
    }

    fn into_ratatui(self) -> ratatui::widgets::Bar<'a> {
        let mut bar = ratatui::widgets::Bar::new(self.value)
            .style(self.style)
            .value_style(self.value_style);
        if let Some(label) = self.label {
            bar = bar.label(label);
        }
        if let Some(text) = self.text_value {
            bar = bar.text_value(text);
        }
        bar
    }
}

crate::semantic::styled!(Bar<'_>: field style);

/// A labelled group of bars, the same as ratatui's [`BarGroup`](ratatui::widgets::BarGroup).
///
/// # Examples
///
/// ```
/// use taria::{Value, testing::Harness};
/// use taria_widgets::{Bar, BarChart, BarGroup};
///
/// let tree = Harness::new(30, 8).render(|frame| {
///     let chart = BarChart::default()
///         .data(BarGroup::with_label("Q1", [Bar::with_label("a", 1), Bar::with_label("b", 5)]))
///         .data(BarGroup::with_label("Q2", [Bar::with_label("a", 9), Bar::with_label("b", 2)]))
///         .id("sales");
///     frame.render_widget(chart, frame.area());
/// });
/// let summary = r#"2 groups, 4 bars min 1 max 9: "Q1" ("a" 1, "b" 5); "Q2" ("a" 9, "b" 2)"#;
/// assert_eq!(tree.get("sales").unwrap().value, Some(Value::Text(summary.into())));
/// ```
#[derive(Debug, Default, Clone, Eq, PartialEq, Hash)]
pub struct BarGroup<'a> {
    label: Option<Line<'a>>,
    bars: Vec<Bar<'a>>,
}

impl<'a> BarGroup<'a> {
    /// See ratatui's [`BarGroup::new`](ratatui::widgets::BarGroup::new).
    pub fn new<T: Into<Vec<Bar<'a>>>>(bars: T) -> Self {
        BarGroup {
            label: None,
            bars: bars.into(),
        }
    }

    /// See ratatui's [`BarGroup::with_label`](ratatui::widgets::BarGroup::with_label).
    pub fn with_label<T: Into<Line<'a>>, B: Into<Vec<Bar<'a>>>>(label: T, bars: B) -> Self {
        BarGroup {
            label: Some(label.into()),
            bars: bars.into(),
        }
    }

    /// See ratatui's [`BarGroup::label`](ratatui::widgets::BarGroup::label).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label<T: Into<Line<'a>>>(mut self, label: T) -> Self {
        self.label = Some(label.into());
        self
    }

    crate::semantic::setters! { BarGroup in ratatui::widgets;
        fn bars(bars: &[Bar<'a>]) => bars = bars.to_vec();
    }

    fn into_ratatui(self) -> ratatui::widgets::BarGroup<'a> {
        // Same layout on both sides: the `Vec` is reused, not reallocated.
        let bars: Vec<_> = self.bars.into_iter().map(Bar::into_ratatui).collect();
        let group = ratatui::widgets::BarGroup::new(bars);
        match self.label {
            Some(label) => group.label(label),
            None => group,
        }
    }
}

impl<'a> From<&[(&'a str, u64)]> for BarGroup<'a> {
    fn from(value: &[(&'a str, u64)]) -> Self {
        BarGroup::new(
            value
                .iter()
                .map(|&(text, v)| Bar::with_label(text, v))
                .collect::<Vec<_>>(),
        )
    }
}

impl<'a, const N: usize> From<&[(&'a str, u64); N]> for BarGroup<'a> {
    fn from(value: &[(&'a str, u64); N]) -> Self {
        Self::from(value.as_slice())
    }
}

impl<'a> From<&Vec<(&'a str, u64)>> for BarGroup<'a> {
    fn from(value: &Vec<(&'a str, u64)>) -> Self {
        Self::from(value.as_slice())
    }
}

/// Bars, optionally in groups, drawn exactly like ratatui's `BarChart`.
///
/// Recorded as a `chart`: label = [`label`](BarChart::label), else the block's title;
/// value = the bar count, min and max, then each bar's label and value:
///
/// * one unlabelled group: `3 bars min 1 max 9: "Mon" 1, "Tue" 5, "Wed" 9`
/// * groups: `2 groups, 4 bars min 1 max 9: "Q1" ("a" 1, "b" 5); "Q2" ("a" 9, "b" 2)`
///
/// A bar without a label shows its value alone; a bar drawn with a text value
/// ([`Bar::text_value`]) keeps it after the number: `"Fall" 41 shown "41-71"`. The
/// recorder caps the text at
/// [`taria::builder::MAX_VALUE_BYTES`].
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::{BarChart, Block};
///
/// let mut harness = Harness::new(30, 8);
/// let tree = harness.render(|frame| {
///     let chart = BarChart::default()
///         .data(&[("Mon", 1), ("Tue", 5), ("Wed", 9)])
///         .block(Block::bordered().title("Commits"))
///         .id("commits");
///     frame.render_widget(chart, frame.area());
/// });
/// let commits = tree.get("commits").unwrap();
/// assert_eq!(commits.label.as_deref(), Some("Commits"));
/// assert_eq!(
///     commits.value,
///     Some(taria::Value::Text(r#"3 bars min 1 max 9: "Mon" 1, "Tue" 5, "Wed" 9"#.into()))
/// );
/// ```
#[derive(Debug, Clone, Eq, PartialEq, Hash)]
pub struct BarChart<'a> {
    block: Option<ratatui::widgets::Block<'a>>,
    bar_width: u16,
    bar_gap: u16,
    group_gap: u16,
    bar_set: symbols::bar::Set<'a>,
    bar_style: Style,
    value_style: Style,
    label_style: Style,
    style: Style,
    data: Vec<BarGroup<'a>>,
    max: Option<u64>,
    direction: Direction,
    label: Option<Cow<'a, str>>,
    block_label: Option<Cow<'a, str>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl Default for BarChart<'_> {
    /// ratatui's defaults.
    fn default() -> Self {
        BarChart {
            block: None,
            bar_width: 1,
            bar_gap: 1,
            group_gap: 0,
            bar_set: symbols::bar::NINE_LEVELS,
            bar_style: Style::new(),
            value_style: Style::new(),
            label_style: Style::new(),
            style: Style::new(),
            data: Vec::new(),
            max: None,
            direction: Direction::Vertical,
            label: None,
            block_label: None,
            id: None,
            given: Given::DEFAULT,
        }
    }
}

impl<'a> BarChart<'a> {
    /// See ratatui's [`BarChart::new`](ratatui::widgets::BarChart::new).
    pub fn new<T: Into<Vec<Bar<'a>>>>(bars: T) -> Self {
        BarChart::grouped(vec![BarGroup::new(bars)])
    }

    /// See ratatui's [`BarChart::vertical`](ratatui::widgets::BarChart::vertical).
    pub fn vertical(bars: impl Into<Vec<Bar<'a>>>) -> Self {
        BarChart::new(bars)
    }

    /// See ratatui's [`BarChart::horizontal`](ratatui::widgets::BarChart::horizontal).
    pub fn horizontal(bars: impl Into<Vec<Bar<'a>>>) -> Self {
        BarChart::new(bars).direction(Direction::Horizontal)
    }

    /// See ratatui's [`BarChart::grouped`](ratatui::widgets::BarChart::grouped).
    pub fn grouped<T: Into<Vec<BarGroup<'a>>>>(groups: T) -> Self {
        let mut data: Vec<BarGroup<'a>> = groups.into();
        data.retain(|group| !group.bars.is_empty());
        BarChart {
            data,
            ..BarChart::default()
        }
    }

    crate::semantic::id_setter!();

    crate::given::given_setters!();

    /// Labels the chart for agents (instead of the block's title).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label(mut self, label: impl Into<Cow<'a, str>>) -> Self {
        self.label = Some(label.into());
        self
    }

    /// See ratatui's [`BarChart::data`](ratatui::widgets::BarChart::data).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn data(mut self, data: impl Into<BarGroup<'a>>) -> Self {
        let group: BarGroup<'a> = data.into();
        if !group.bars.is_empty() {
            self.data.push(group);
        }
        self
    }

    crate::semantic::block_setter!(BarChart in ratatui::widgets => block, block_label);

    crate::semantic::setters! { BarChart in ratatui::widgets;
        const fn max(max: u64) => max = Some(max);
        fn bar_style<S: Into<Style>>(style: S) => bar_style = style.into();
        const fn bar_width(width: u16) => bar_width = width;
        const fn bar_gap(gap: u16) => bar_gap = gap;
        const fn bar_set(bar_set: symbols::bar::Set<'a>) => bar_set = bar_set;
        fn value_style<S: Into<Style>>(style: S) => value_style = style.into();
        fn label_style<S: Into<Style>>(style: S) => label_style = style.into();
        const fn group_gap(gap: u16) => group_gap = gap;
        fn style<S: Into<Style>>(style: S) => style = style.into();
        const fn direction(direction: Direction) => direction = direction;
    }

    fn into_ratatui(self) -> ratatui::widgets::BarChart<'a> {
        let BarChart {
            block,
            bar_width,
            bar_gap,
            group_gap,
            bar_set,
            bar_style,
            value_style,
            label_style,
            style,
            data,
            max,
            direction,
            ..
        } = self;
        // Same layout on both sides: the `Vec`s are reused, not reallocated.
        let groups: Vec<_> = data.into_iter().map(BarGroup::into_ratatui).collect();
        let mut chart = ratatui::widgets::BarChart::grouped(groups)
            .bar_width(bar_width)
            .bar_gap(bar_gap)
            .group_gap(group_gap)
            .bar_set(bar_set)
            .bar_style(bar_style)
            .value_style(value_style)
            .label_style(label_style)
            .style(style)
            .direction(direction);
        if let Some(max) = max {
            chart = chart.max(max);
        }
        if let Some(block) = block {
            chart = chart.block(block);
        }
        chart
    }
}

/// The chart's value: see [`BarChart`].
struct Summary<'c, 'a>(&'c [BarGroup<'a>]);

impl fmt::Display for Summary<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let groups = self.0;
        #[expect(clippy::cast_precision_loss, reason = "a summary for reading")]
        let stats = Stats::of(
            groups
                .iter()
                .flat_map(|g| &g.bars)
                .map(|b| Some(b.value as f64)),
        );
        let flat = matches!(groups, [] | [BarGroup { label: None, .. }]);
        if !flat {
            write!(f, "{} groups, ", groups.len())?;
        }
        let noun = if stats.points == 1 { "bar" } else { "bars" };
        write!(f, "{} {noun}", stats.points)?;
        if stats.points > 0 {
            write!(f, " min {} max {}:", Num(stats.min), Num(stats.max))?;
        }
        for (i, group) in groups.iter().enumerate() {
            if !flat {
                let sep = if i == 0 { " " } else { "; " };
                let label = group.label.as_ref().map(|l| l as &dyn fmt::Display);
                write!(f, "{sep}{} (", Name(label))?;
            }
            for (j, bar) in group.bars.iter().enumerate() {
                let sep = match (j, flat) {
                    (0, true) => " ",
                    (0, false) => "",
                    _ => ", ",
                };
                f.write_str(sep)?;
                if let Some(label) = &bar.label {
                    write!(f, "\"{label}\" ")?;
                }
                write!(f, "{}", bar.value)?;
                // The text drawn for the value instead of the number (`41-71`).
                if let Some(text) = &bar.text_value {
                    write!(f, " shown \"{text}\"")?;
                }
            }
            if !flat {
                f.write_str(")")?;
            }
        }
        Ok(())
    }
}

impl SemanticWidget for BarChart<'_> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(self.given.role_or(Role::Chart))
                .value(format_args!("{}", Summary(&self.data)))
                .bounds(area);
            id_and_label(
                n,
                self.id,
                self.label.as_ref().or(self.block_label.as_ref()),
            );
            self.given.record(n, self.id);
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        self.into_ratatui().render(area, buf);
    }
}

crate::semantic::widget_impls!(BarChart<'_>: Widget);
crate::semantic::widget_impls!(BarChart<'_>: &Widget by clone);

crate::semantic::styled!(BarChart<'_>: field style);

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Stylize};
    use taria::testing::Harness;

    use super::*;
    use crate::Block;

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 30, 10);
        for direction in [Direction::Vertical, Direction::Horizontal] {
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            BarChart::grouped(vec![
                BarGroup::with_label("Q1", [Bar::with_label("a", 3).red(), Bar::new(7)]),
                BarGroup::new(Vec::new()),
                BarGroup::default()
                    .label("Q2".bold())
                    .bars(&[Bar::new(9).text_value("nine").value_style(Color::Black)]),
            ])
            .data(&[("x", 2), ("y", 5)])
            .block(Block::bordered().title("B"))
            .direction(direction)
            .bar_width(2)
            .bar_gap(0)
            .group_gap(2)
            .bar_set(symbols::bar::THREE_LEVELS)
            .bar_style(Color::Green)
            .value_style(Color::Yellow)
            .label_style(Color::Cyan)
            .max(10)
            .on_blue()
            .render(area, &mut a);
            ratatui::widgets::BarChart::grouped(vec![
                ratatui::widgets::BarGroup::with_label(
                    "Q1",
                    [
                        ratatui::widgets::Bar::with_label("a", 3).red(),
                        ratatui::widgets::Bar::new(7),
                    ],
                ),
                ratatui::widgets::BarGroup::new(Vec::new()),
                ratatui::widgets::BarGroup::default()
                    .label("Q2".bold())
                    .bars(&[ratatui::widgets::Bar::new(9)
                        .text_value("nine")
                        .value_style(Color::Black)]),
            ])
            .data(&[("x", 2), ("y", 5)])
            .block(ratatui::widgets::Block::bordered().title("B"))
            .direction(direction)
            .bar_width(2)
            .bar_gap(0)
            .group_gap(2)
            .bar_set(symbols::bar::THREE_LEVELS)
            .bar_style(Color::Green)
            .value_style(Color::Yellow)
            .label_style(Color::Cyan)
            .max(10)
            .on_blue()
            .render(area, &mut b);
            assert_eq!(a, b);
        }
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        BarChart::horizontal([Bar::new(1), Bar::with_label("z", 4)]).render(area, &mut a);
        ratatui::widgets::BarChart::horizontal([
            ratatui::widgets::Bar::new(1),
            ratatui::widgets::Bar::with_label("z", 4),
        ])
        .render(area, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn records_groups_and_bars() {
        let mut harness = Harness::new(30, 8);
        let tree = harness.render(|frame| {
            let chart = BarChart::grouped(vec![
                BarGroup::with_label("Q1", [Bar::with_label("a", 1), Bar::new(5)]),
                BarGroup::new([Bar::with_label("a", 9)]),
            ])
            .label("Sales");
            frame.render_widget(chart, frame.area());
        });
        let node = &tree.roots[0];
        assert_eq!(node.role, Role::Chart);
        assert_eq!(node.label.as_deref(), Some("Sales"));
        assert_eq!(
            node.value,
            Some(taria::Value::Text(
                r#"2 groups, 3 bars min 1 max 9: "Q1" ("a" 1, 5); (unnamed) ("a" 9)"#.into()
            ))
        );
    }

    /// Issue 20: the summary dropped a bar's text value (`41-71` drawn for 41).
    #[test]
    fn a_bar_s_text_value_is_kept_with_its_label() {
        let mut harness = Harness::new(12, 6);
        let tree = harness.render(|frame| {
            let bar = Bar::with_label("Fall", 41).text_value("41-71");
            let chart = BarChart::default()
                .data(BarGroup::new([bar]))
                .bar_width(5)
                .id("c");
            frame.render_widget(chart, frame.area());
        });
        assert!(harness.screen_text().join("\n").contains("41-71"));
        assert_eq!(
            tree.get("c").unwrap().value,
            Some(taria::Value::Text(
                r#"1 bar min 41 max 41: "Fall" 41 shown "41-71""#.into()
            ))
        );
    }
}
