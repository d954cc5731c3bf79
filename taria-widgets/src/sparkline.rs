//! [`Sparkline`]: ratatui's sparkline, recorded as a `chart` with a one-line summary.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::symbols;
use ratatui::widgets::Widget;
use taria::Role;

use crate::given::Given;
use crate::semantic::{SemanticWidget, id_and_label};

pub use ratatui::widgets::RenderDirection;

use crate::summary::Stats;

/// One bar of a [`Sparkline`]: ratatui's [`SparklineBar`](ratatui::widgets::SparklineBar),
/// whose value stays readable so the sparkline can be summarised.
///
/// # Examples
///
/// ```
/// use ratatui::style::{Color, Style};
/// use taria_widgets::SparklineBar;
///
/// let bar = SparklineBar::from(3).style(Some(Style::new().fg(Color::Red)));
/// assert_eq!(bar.value(), Some(3));
/// ```
#[derive(Debug, Default, Copy, Clone, Eq, PartialEq)]
pub struct SparklineBar {
    value: Option<u64>,
    style: Option<Style>,
}

impl SparklineBar {
    /// See ratatui's [`SparklineBar::style`](ratatui::widgets::SparklineBar::style).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn style<S: Into<Option<Style>>>(mut self, style: S) -> Self {
        self.style = style.into();
        self
    }

    /// The bar's value; `None` for an absent value.
    #[must_use]
    pub const fn value(&self) -> Option<u64> {
        self.value
    }

    fn into_ratatui(self) -> ratatui::widgets::SparklineBar {
        ratatui::widgets::SparklineBar::from(self.value).style(self.style)
    }
}

impl From<Option<u64>> for SparklineBar {
    fn from(value: Option<u64>) -> Self {
        Self { value, style: None }
    }
}

impl From<u64> for SparklineBar {
    fn from(value: u64) -> Self {
        Self::from(Some(value))
    }
}

impl From<&u64> for SparklineBar {
    fn from(value: &u64) -> Self {
        Self::from(Some(*value))
    }
}

impl From<&Option<u64>> for SparklineBar {
    fn from(value: &Option<u64>) -> Self {
        Self::from(*value)
    }
}

/// A row of bars, drawn exactly like ratatui's `Sparkline`.
///
/// Recorded as a `chart`: label = [`label`](Sparkline::label), else the block's title;
/// value = a summary such as `120 points min 3 max 97 last 42` (`, 4 absent` after
/// the count when some values are absent).
///
/// The summary is taken while [`data`](Sparkline::data) passes the values to ratatui,
/// and only while a frame is being recorded (build the sparkline inside the draw
/// closure, as usual); otherwise the values go straight to ratatui's sparkline and
/// nothing else is kept.
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::Sparkline;
///
/// let mut harness = Harness::new(20, 3);
/// let tree = harness.render(|frame| {
///     let spark = Sparkline::default().data([3, 97, 42]).label("cpu").id("cpu");
///     frame.render_widget(spark, frame.area());
/// });
/// let cpu = tree.get("cpu").unwrap();
/// assert_eq!(cpu.label.as_deref(), Some("cpu"));
/// assert_eq!(
///     cpu.value,
///     Some(taria::Value::Text("3 points min 3 max 97 last 42".into()))
/// );
/// ```
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Sparkline<'a> {
    inner: ratatui::widgets::Sparkline<'a>,
    stats: Option<Stats>,
    label: Option<Cow<'a, str>>,
    block_label: Option<Cow<'a, str>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

/// `Eq` as ratatui's sparkline is: the only floats, the summary's, come from its `u64`
/// data (never NaN), so equality is reflexive.
impl Eq for Sparkline<'_> {}

impl<'a> Sparkline<'a> {
    crate::semantic::id_setter!();

    crate::given::given_setters!();

    /// Labels the chart for agents (ratatui's sparkline draws no label).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn label(mut self, label: impl Into<Cow<'a, str>>) -> Self {
        self.label = Some(label.into());
        self
    }

    crate::semantic::block_setter!(Sparkline in ratatui::widgets => inner, block_label);

    crate::semantic::setters! { Sparkline in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => inner;
        fn absent_value_style<S: Into<Style>>(style: S) => inner;
        fn absent_value_symbol(symbol: impl Into<String>) => inner;
    }

    /// See ratatui's [`Sparkline::data`](ratatui::widgets::Sparkline::data).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn data<T>(mut self, data: T) -> Self
    where
        T: IntoIterator,
        T::Item: Into<SparklineBar>,
    {
        let bars = data.into_iter().map(Into::<SparklineBar>::into);
        if taria::widget::is_recording() {
            let mut stats = Stats::default();
            #[expect(clippy::cast_precision_loss, reason = "a summary for reading")]
            let bars = bars.inspect(|bar| stats.add(bar.value.map(|v| v as f64)));
            self.inner = self.inner.data(bars.map(SparklineBar::into_ratatui));
            self.stats = Some(stats);
        } else {
            self.inner = self.inner.data(bars.map(SparklineBar::into_ratatui));
            self.stats = None;
        }
        self
    }

    crate::semantic::setters! { Sparkline in ratatui::widgets;
        fn max(max: u64) => inner;
        fn bar_set(bar_set: symbols::bar::Set<'a>) => inner;
        fn direction(direction: RenderDirection) => inner;
    }
}

impl SemanticWidget for &Sparkline<'_> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(self.given.role_or(Role::Chart)).bounds(area);
            id_and_label(
                n,
                self.id,
                self.label.as_ref().or(self.block_label.as_ref()),
            );
            if let Some(stats) = &self.stats {
                n.value(format_args!("{stats}"));
            }
            self.given.record(n, self.id);
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        (&self.inner).render(area, buf);
    }
}

crate::semantic::widget_impls!(Sparkline<'_>: Widget by ref);

crate::semantic::styled!(Sparkline<'_>: inner);

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Stylize};
    use taria::testing::Harness;

    use super::*;
    use crate::Block;

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 12, 5);
        let data = [
            Some(0),
            Some(3),
            None,
            Some(8),
            Some(1),
            Some(5),
            None,
            Some(2),
        ];
        for direction in [RenderDirection::LeftToRight, RenderDirection::RightToLeft] {
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            Sparkline::default()
                .data(data)
                .block(Block::bordered().title("S"))
                .direction(direction)
                .absent_value_symbol("x")
                .absent_value_style(Color::Red)
                .max(6)
                .bar_set(symbols::bar::THREE_LEVELS)
                .blue()
                .render(area, &mut a);
            ratatui::widgets::Sparkline::default()
                .data(data)
                .block(ratatui::widgets::Block::bordered().title("S"))
                .direction(direction)
                .absent_value_symbol("x")
                .absent_value_style(Color::Red)
                .max(6)
                .bar_set(symbols::bar::THREE_LEVELS)
                .blue()
                .render(area, &mut b);
            assert_eq!(a, b);
        }
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        Sparkline::default()
            .data([
                SparklineBar::from(4).style(Some(Style::new().red())),
                1.into(),
            ])
            .render(area, &mut a);
        ratatui::widgets::Sparkline::default()
            .data([
                ratatui::widgets::SparklineBar::from(4).style(Some(Style::new().red())),
                1.into(),
            ])
            .render(area, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn records_a_summary_and_the_block_title() {
        let mut harness = Harness::new(12, 4);
        let tree = harness.render(|frame| {
            let spark = Sparkline::default()
                .data([Some(5), None, Some(2)])
                .block(Block::bordered().title("Load"));
            frame.render_widget(spark, frame.area());
        });
        let node = &tree.roots[0];
        assert_eq!(node.role, Role::Chart);
        assert_eq!(node.label.as_deref(), Some("Load"));
        assert_eq!(
            node.value,
            Some(taria::Value::Text(
                "3 points, 1 absent min 2 max 5 last 2".into()
            ))
        );
    }
}
