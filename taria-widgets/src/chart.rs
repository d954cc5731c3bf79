//! [`Chart`] with its [`Dataset`]s and [`Axis`]es: ratatui's line/scatter chart,
//! recorded as a `chart` with a text summary of each series and both axes.

use std::borrow::Cow;
use std::fmt;

use ratatui::buffer::Buffer;
use ratatui::layout::{Alignment, Constraint, Rect};
use ratatui::style::Style;
use ratatui::symbols;
use ratatui::text::Line;
use ratatui::widgets::Widget;
use taria::Role;

use crate::given::Given;
use crate::semantic::{SemanticWidget, id_and_label};

pub use ratatui::widgets::{GraphType, LegendPosition};

use crate::summary::{Name, Num, Stats};
use crate::text::line_text;

/// One series of a [`Chart`], the same as ratatui's [`Dataset`](ratatui::widgets::Dataset)
/// but with its name and points readable, so the chart can be summarised.
///
/// # Examples
///
/// ```
/// use ratatui::symbols::Marker;
/// use taria_widgets::{Dataset, GraphType};
///
/// let points = [(0.0, 1.0), (1.0, 3.0)];
/// let cpu = Dataset::default().name("cpu").data(&points).marker(Marker::Braille)
///     .graph_type(GraphType::Line);
/// assert_eq!(cpu.points().len(), 2);
/// ```
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Dataset<'a> {
    // ratatui's fields, so a `Vec` of ours converts into a `Vec` of ratatui's in place.
    name: Option<Line<'a>>,
    data: &'a [(f64, f64)],
    marker: symbols::Marker,
    graph_type: GraphType,
    style: Style,
    fill_to_y: f64,
}

impl<'a> Dataset<'a> {
    /// See ratatui's [`Dataset::name`](ratatui::widgets::Dataset::name).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn name<S: Into<Line<'a>>>(mut self, name: S) -> Self {
        self.name = Some(name.into());
        self
    }

    crate::semantic::setters! { Dataset in ratatui::widgets;
        const fn data(data: &'a [(f64, f64)]) => data = data;
        const fn marker(marker: symbols::Marker) => marker = marker;
        const fn graph_type(graph_type: GraphType) => graph_type = graph_type;
        fn style<S: Into<Style>>(style: S) => style = style.into();
        const fn fill_to_y(fill_to_y: f64) => fill_to_y = fill_to_y;
    }

    /// The series' points.
    #[must_use]
    pub const fn points(&self) -> &'a [(f64, f64)] {
        self.data
    }

    fn into_ratatui(self) -> ratatui::widgets::Dataset<'a> {
        let dataset = ratatui::widgets::Dataset::default()
            .data(self.data)
            .marker(self.marker)
            .graph_type(self.graph_type)
            .style(self.style)
            .fill_to_y(self.fill_to_y);
        match self.name {
            Some(name) => dataset.name(name),
            None => dataset,
        }
    }
}

crate::semantic::styled!(Dataset<'_>: field style);

/// An axis of a [`Chart`], the same as ratatui's [`Axis`](ratatui::widgets::Axis) but
/// with its title and bounds readable.
///
/// # Examples
///
/// ```
/// use taria_widgets::Axis;
///
/// let x = Axis::default().title("time").bounds([0.0, 120.0]).labels(["0", "60", "120"]);
/// assert_eq!(x.get_bounds(), [0.0, 120.0]);
/// ```
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Axis<'a> {
    title: Option<Line<'a>>,
    bounds: [f64; 2],
    labels: Vec<Line<'a>>,
    style: Style,
    labels_alignment: Alignment,
}

impl<'a> Axis<'a> {
    /// See ratatui's [`Axis::title`](ratatui::widgets::Axis::title).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn title<T: Into<Line<'a>>>(mut self, title: T) -> Self {
        self.title = Some(title.into());
        self
    }

    crate::semantic::setters! { Axis in ratatui::widgets;
        const fn bounds(bounds: [f64; 2]) => bounds = bounds;
    }

    /// See ratatui's [`Axis::labels`](ratatui::widgets::Axis::labels).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn labels<Labels>(mut self, labels: Labels) -> Self
    where
        Labels: IntoIterator,
        Labels::Item: Into<Line<'a>>,
    {
        self.labels = labels.into_iter().map(Into::into).collect();
        self
    }

    crate::semantic::setters! { Axis in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => style = style.into();
        const fn labels_alignment(alignment: Alignment) => labels_alignment = alignment;
    }

    /// The axis' bounds.
    #[must_use]
    pub const fn get_bounds(&self) -> [f64; 2] {
        self.bounds
    }

    fn into_ratatui(self) -> ratatui::widgets::Axis<'a> {
        let axis = ratatui::widgets::Axis::default()
            .bounds(self.bounds)
            .labels(self.labels)
            .style(self.style)
            .labels_alignment(self.labels_alignment);
        match self.title {
            Some(title) => axis.title(title),
            None => axis,
        }
    }
}

crate::semantic::styled!(Axis<'_>: field style);

/// A line or scatter chart of one or more series, drawn exactly like ratatui's `Chart`.
///
/// Recorded as a `chart`: label = [`label`](Chart::label), else the block's title;
/// value = a summary of what is plotted, not the points:
///
/// `2 series: "cpu" 120 points min 3 max 97 last 42; "mem" 0 points; x axis "time" [0, 120], y axis "%" [0, 100]`
///
/// Each series gives its name (`(unnamed)` without one), its point count, and min,
/// max and last of its y values; each axis its title (when it has one) and bounds.
/// The recorder caps the text at [`taria::builder::MAX_VALUE_BYTES`].
///
/// # Examples
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::{Axis, Block, Chart, Dataset};
///
/// let cpu = [(0.0, 3.0), (1.0, 97.0), (2.0, 42.0)];
/// let mut harness = Harness::new(40, 10);
/// let tree = harness.render(|frame| {
///     let chart = Chart::new(vec![Dataset::default().name("cpu").data(&cpu)])
///         .block(Block::bordered().title("Load"))
///         .x_axis(Axis::default().title("time").bounds([0.0, 2.0]))
///         .y_axis(Axis::default().title("%").bounds([0.0, 100.0]))
///         .id("load");
///     frame.render_widget(chart, frame.area());
/// });
/// let load = tree.get("load").unwrap();
/// assert_eq!(load.label.as_deref(), Some("Load"));
/// assert_eq!(
///     load.value,
///     Some(taria::Value::Text(
///         r#"1 series: "cpu" 3 points min 3 max 97 last 42; x axis "time" [0, 2], y axis "%" [0, 100]"#
///             .into()
///     ))
/// );
/// ```
#[derive(Debug, Default, Clone, PartialEq)]
pub struct Chart<'a> {
    block: Option<ratatui::widgets::Block<'a>>,
    x_axis: Axis<'a>,
    y_axis: Axis<'a>,
    datasets: Vec<Dataset<'a>>,
    style: Style,
    hidden_legend_constraints: (Constraint, Constraint),
    legend_position: Option<LegendPosition>,
    label: Option<Cow<'a, str>>,
    block_label: Option<Cow<'a, str>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl<'a> Chart<'a> {
    /// See ratatui's [`Chart::new`](ratatui::widgets::Chart::new).
    #[must_use]
    pub fn new(datasets: Vec<Dataset<'a>>) -> Self {
        Chart {
            datasets,
            hidden_legend_constraints: (Constraint::Ratio(1, 4), Constraint::Ratio(1, 4)),
            legend_position: Some(LegendPosition::default()),
            ..Chart::default()
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

    crate::semantic::block_setter!(Chart in ratatui::widgets => block, block_label);

    crate::semantic::setters! { Chart in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => style = style.into();
        fn x_axis(axis: Axis<'a>) => x_axis = axis;
        fn y_axis(axis: Axis<'a>) => y_axis = axis;
    }

    /// See ratatui's [`Chart::hidden_legend_constraints`](ratatui::widgets::Chart::hidden_legend_constraints).
    #[must_use = "method moves the value of self and returns the modified value"]
    pub const fn hidden_legend_constraints(
        mut self,
        constraints: (Constraint, Constraint),
    ) -> Self {
        self.hidden_legend_constraints = constraints;
        self
    }

    crate::semantic::setters! { Chart in ratatui::widgets;
        const fn legend_position(position: Option<LegendPosition>) => legend_position = position;
    }

    fn into_ratatui(self) -> ratatui::widgets::Chart<'a> {
        let Chart {
            block,
            x_axis,
            y_axis,
            datasets,
            style,
            hidden_legend_constraints,
            legend_position,
            ..
        } = self;
        // Same layout on both sides: the `Vec` is reused, not reallocated.
        let datasets = datasets.into_iter().map(Dataset::into_ratatui).collect();
        let chart = ratatui::widgets::Chart::new(datasets)
            .x_axis(x_axis.into_ratatui())
            .y_axis(y_axis.into_ratatui())
            .style(style)
            .hidden_legend_constraints(hidden_legend_constraints)
            .legend_position(legend_position);
        match block {
            Some(block) => chart.block(block),
            None => chart,
        }
    }
}

/// The chart's value: see [`Chart`].
struct Summary<'c, 'a>(&'c Chart<'a>);

impl fmt::Display for Summary<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let chart = self.0;
        write!(f, "{} series:", chart.datasets.len())?;
        for (i, dataset) in chart.datasets.iter().enumerate() {
            let sep = if i == 0 { " " } else { "; " };
            let name = dataset.name.as_ref().map(line_text);
            let stats = Stats::of(dataset.data.iter().map(|&(_, y)| Some(y)));
            write!(
                f,
                "{sep}{} {stats}",
                Name(name.as_ref().map(|n| n as &dyn fmt::Display))
            )?;
        }
        let sep = if chart.datasets.is_empty() { " " } else { "; " };
        write!(
            f,
            "{sep}x axis {}, y axis {}",
            AxisText(&chart.x_axis),
            AxisText(&chart.y_axis)
        )
    }
}

/// `"time" [0, 120]`, or `[0, 120]` for an untitled axis.
struct AxisText<'x, 'a>(&'x Axis<'a>);

impl fmt::Display for AxisText<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let axis = self.0;
        if let Some(title) = &axis.title {
            write!(f, "\"{title}\" ")?;
        }
        write!(f, "[{}, {}]", Num(axis.bounds[0]), Num(axis.bounds[1]))
    }
}

impl SemanticWidget for Chart<'_> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        taria::leaf(|n| {
            n.role(self.given.role_or(Role::Chart))
                .value(format_args!("{}", Summary(self)))
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

crate::semantic::widget_impls!(Chart<'_>: Widget);
crate::semantic::widget_impls!(Chart<'_>: &Widget by clone);

crate::semantic::styled!(Chart<'_>: field style);

#[cfg(test)]
mod tests {
    use ratatui::style::{Color, Stylize};
    use taria::testing::Harness;

    use super::*;
    use crate::Block;

    const A: [(f64, f64); 5] = [(0.0, 0.0), (1.0, 4.0), (2.0, 2.0), (3.0, 8.0), (4.0, 5.0)];
    const B: [(f64, f64); 3] = [(0.0, 9.0), (2.0, 1.0), (4.0, 3.5)];

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 40, 14);
        for legend in [None, Some(LegendPosition::TopLeft)] {
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            Chart::new(vec![
                Dataset::default()
                    .name("a")
                    .data(&A)
                    .marker(symbols::Marker::Braille)
                    .graph_type(GraphType::Line)
                    .red(),
                Dataset::default()
                    .name("b".bold())
                    .data(&B)
                    .graph_type(GraphType::Area)
                    .fill_to_y(1.0),
                Dataset::default().data(&B).marker(symbols::Marker::Dot),
            ])
            .block(Block::bordered().title("C"))
            .x_axis(
                Axis::default()
                    .title("x")
                    .bounds([0.0, 4.0])
                    .labels(["0", "2", "4"])
                    .labels_alignment(Alignment::Right)
                    .gray(),
            )
            .y_axis(
                Axis::default()
                    .title("y")
                    .bounds([0.0, 10.0])
                    .labels(["0", "10"]),
            )
            .legend_position(legend)
            .hidden_legend_constraints((Constraint::Percentage(90), Constraint::Percentage(90)))
            .style(Style::new().on_black())
            .render(area, &mut a);
            ratatui::widgets::Chart::new(vec![
                ratatui::widgets::Dataset::default()
                    .name("a")
                    .data(&A)
                    .marker(symbols::Marker::Braille)
                    .graph_type(GraphType::Line)
                    .red(),
                ratatui::widgets::Dataset::default()
                    .name("b".bold())
                    .data(&B)
                    .graph_type(GraphType::Area)
                    .fill_to_y(1.0),
                ratatui::widgets::Dataset::default()
                    .data(&B)
                    .marker(symbols::Marker::Dot),
            ])
            .block(ratatui::widgets::Block::bordered().title("C"))
            .x_axis(
                ratatui::widgets::Axis::default()
                    .title("x")
                    .bounds([0.0, 4.0])
                    .labels(["0", "2", "4"])
                    .labels_alignment(Alignment::Right)
                    .gray(),
            )
            .y_axis(
                ratatui::widgets::Axis::default()
                    .title("y")
                    .bounds([0.0, 10.0])
                    .labels(["0", "10"]),
            )
            .legend_position(legend)
            .hidden_legend_constraints((Constraint::Percentage(90), Constraint::Percentage(90)))
            .style(Style::new().on_black())
            .render(area, &mut b);
            assert_eq!(a, b);
        }
        // Defaults differ between `new` and `default` in ratatui: mirrored.
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        Chart::new(vec![Dataset::default().name("n").data(&A)])
            .x_axis(Axis::default().bounds([0.0, 4.0]))
            .y_axis(Axis::default().bounds([0.0, 8.0]).style(Color::Blue))
            .render(area, &mut a);
        ratatui::widgets::Chart::new(vec![
            ratatui::widgets::Dataset::default().name("n").data(&A),
        ])
        .x_axis(ratatui::widgets::Axis::default().bounds([0.0, 4.0]))
        .y_axis(
            ratatui::widgets::Axis::default()
                .bounds([0.0, 8.0])
                .style(Color::Blue),
        )
        .render(area, &mut b);
        assert_eq!(a, b);
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        Chart::default().render(area, &mut a);
        ratatui::widgets::Chart::default().render(area, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn records_a_summary_not_the_points() {
        let mut harness = Harness::new(40, 10);
        let tree = harness.render(|frame| {
            let chart = Chart::new(vec![
                Dataset::default()
                    .name(Line::from(vec!["c".red(), "pu".into()]))
                    .data(&A),
                Dataset::default().data(&[]),
            ])
            .label("Usage")
            .block(Block::bordered().title("ignored"))
            .x_axis(Axis::default().bounds([0.0, 4.5]));
            frame.render_widget(chart, frame.area());
        });
        let node = &tree.roots[0];
        assert_eq!(node.role, Role::Chart);
        assert_eq!(node.label.as_deref(), Some("Usage"));
        assert_eq!(
            node.value,
            Some(taria::Value::Text(
                r#"2 series: "cpu" 5 points min 0 max 8 last 5; (unnamed) 0 points; x axis [0, 4.5], y axis [0, 0]"#
                    .into()
            ))
        );
    }
}
