//! Drop-in parity: every taria-widgets type that mirrors one of ratatui's implements
//! the traits and conversions ratatui's does, so swapping the import keeps an app
//! compiling (issue 14: `Block` lacked `Styled`, and `.bg(…)` failed).
//!
//! One test per type; each row lists ratatui's impls for the type of the same name,
//! then (after `&`) those for a reference to it. The rows' lists come from ratatui's
//! source: `python3 taria-widgets/tests/parity.py --check` reads ratatui-widgets'
//! derives and `impl … for` items and fails when a row here misses one. A test
//! compiles only if the traits are there; it has nothing to run.

use ratatui::style::Styled;
use ratatui::text::{Line, Span, Text};
use ratatui::widgets::canvas::Context;
use ratatui::widgets::{StatefulWidget, Widget};
use std::fmt::Debug;
use std::hash::Hash;
use taria_widgets::{
    Axis, Bar, BarChart, BarGroup, Block, Canvas, Cell, Chart, Dataset, Gauge, LineGauge, List,
    ListItem, Paragraph, Row, Scrollbar, ScrollbarState, Sparkline, SparklineBar, Table, Tabs,
};
use unicode_width::UnicodeWidthStr;

/// A date styler that is `Hash`, as `Monthly`'s derives need (ratatui's
/// `CalendarEventStore` is not).
#[cfg(feature = "calendar")]
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct Plain;

#[cfg(feature = "calendar")]
impl taria_widgets::DateStyler for Plain {
    fn get_style(&self, _: time::Date) -> ratatui::style::Style {
        ratatui::style::Style::new()
    }
}

/// `fn test: Type => [traits of Type], &[traits of &Type];` asserts each bound.
macro_rules! parity {
    ($(
        $(#[$attr:meta])*
        fn $test:ident: $ty:ty => [$($owned:path),* $(,)?] $(, &[$($by_ref:path),* $(,)?])?;
    )*) => {$(
        $(#[$attr])*
        #[test]
        fn $test() {
            fn owned<T: $($owned +)* Sized>() {}
            $(
                fn by_ref<T: $($by_ref +)* Sized>() {}
                by_ref::<&'static $ty>();
            )?
            owned::<$ty>();
        }
    )*};
}

parity! {
    fn bar: Bar<'static> => [Clone, Debug, Default, Eq, Hash, PartialEq, Styled];
    fn bar_chart: BarChart<'static> =>
        [Clone, Debug, Default, Eq, Hash, PartialEq, Styled, Widget], &[Widget];
    fn bar_group: BarGroup<'static> => [
        Clone, Debug, Default, Eq, Hash, PartialEq,
        From<&'static [(&'static str, u64)]>,
        From<&'static [(&'static str, u64); 3]>,
        From<&'static Vec<(&'static str, u64)>>,
    ];
    fn block: Block<'static> =>
        [Clone, Debug, Default, Eq, Hash, PartialEq, Styled, Widget], &[Widget];
    fn canvas: Canvas<'static, fn(&mut Context<'_>)> =>
        [Clone, Debug, Default, PartialEq, Widget], &[Widget];
    fn axis: Axis<'static> => [Clone, Debug, Default, PartialEq, Styled];
    fn chart: Chart<'static> => [Clone, Debug, Default, PartialEq, Styled, Widget], &[Widget];
    fn dataset: Dataset<'static> => [Clone, Debug, Default, PartialEq, Styled];
    fn gauge: Gauge<'static> => [Clone, Debug, Default, PartialEq, Styled, Widget], &[Widget];
    fn line_gauge: LineGauge<'static> =>
        [Clone, Debug, Default, PartialEq, Styled, Widget], &[Widget];
    fn list: List<'static> => [
        Clone, Debug, Default, Eq, Hash, PartialEq, Styled, Widget, StatefulWidget,
        FromIterator<&'static str>, FromIterator<ListItem<'static>>,
    ], &[Widget, StatefulWidget];
    fn list_item: ListItem<'static> => [
        Clone, Debug, Eq, Hash, PartialEq, Styled,
        From<&'static str>, From<String>, From<Span<'static>>, From<Line<'static>>,
        From<Text<'static>>,
    ];
    #[cfg(feature = "calendar")]
    fn monthly: taria_widgets::Monthly<'static, Plain> =>
        [Clone, Debug, Eq, Hash, PartialEq, Widget], &[Widget];
    fn paragraph: Paragraph<'static> =>
        [Clone, Debug, Default, Eq, Hash, PartialEq, Styled, Widget], &[Widget];
    fn scrollbar: Scrollbar<'static> =>
        [Clone, Debug, Default, Eq, Hash, PartialEq, StatefulWidget];
    fn scrollbar_state: ScrollbarState =>
        [Clone, Copy, Debug, Default, Eq, Hash, PartialEq];
    fn sparkline: Sparkline<'static> =>
        [Clone, Debug, Default, Eq, PartialEq, Styled, Widget], &[Widget];
    fn sparkline_bar: SparklineBar => [
        Clone, Copy, Debug, Default, Eq, PartialEq,
        From<u64>, From<&'static u64>, From<Option<u64>>, From<&'static Option<u64>>,
    ];
    fn table: Table<'static> => [
        Clone, Debug, Default, Eq, Hash, PartialEq, Styled, Widget, StatefulWidget,
        FromIterator<Row<'static>>,
    ], &[Widget, StatefulWidget];
    fn row: Row<'static> => [
        Clone, Debug, Default, Eq, Hash, PartialEq, Styled,
        FromIterator<&'static str>, FromIterator<Cell<'static>>,
    ];
    fn cell: Cell<'static> => [
        Clone, Debug, Default, Eq, Hash, PartialEq, Styled,
        From<&'static str>, From<String>, From<Span<'static>>, From<Line<'static>>,
        From<Text<'static>>,
    ];
    fn tabs: Tabs<'static> => [
        Clone, Debug, Default, Eq, Hash, PartialEq, Styled, Widget, UnicodeWidthStr,
        FromIterator<&'static str>, FromIterator<Line<'static>>,
    ], &[Widget];
}

/// ratatui's `Tabs::width` (its `UnicodeWidthStr`) is the width of the rendered tabs;
/// taria's says the same.
#[test]
fn tabs_measure_what_ratatui_s_do() {
    let titles = ["Tab1", "Tab2", "Tab3"];
    let ours = Tabs::new(titles).padding("[", "]").divider("||");
    let theirs = ratatui::widgets::Tabs::new(titles)
        .padding("[", "]")
        .divider("||");
    assert_eq!(ours.width(), theirs.width());
    assert_eq!(ours.width_cjk(), theirs.width_cjk());
    assert_eq!(Tabs::new(titles).width(), 20);
}

/// The widgets that draw `&Widget` through a copy draw what they draw by value, as
/// ratatui's do, and the stateful ones write the state back.
#[test]
#[expect(
    clippy::needless_borrows_for_generic_args,
    reason = "drawing through the reference is what is tested"
)]
fn a_reference_draws_what_the_widget_draws() {
    use ratatui::buffer::Buffer;
    use ratatui::layout::{Constraint, Rect};
    use taria_widgets::{ListState, TableState};
    let area = Rect::new(0, 0, 12, 3);
    let drawn = |draw: &dyn Fn(&mut Buffer)| {
        let mut buf = Buffer::empty(area);
        draw(&mut buf);
        buf
    };
    let list = List::new(["a", "b", "c", "d"]).highlight_symbol(">");
    let theirs = ratatui::widgets::List::new(["a", "b", "c", "d"]).highlight_symbol(">");
    let (mut ours_state, mut their_state) = (
        ListState::default().with_selected(Some(3)),
        ListState::default().with_selected(Some(3)),
    );
    let a = drawn(&|buf| StatefulWidget::render(&list, area, buf, &mut ours_state.clone()));
    let b = drawn(&|buf| StatefulWidget::render(&theirs, area, buf, &mut their_state.clone()));
    assert_eq!(a, b);
    StatefulWidget::render(&list, area, &mut Buffer::empty(area), &mut ours_state);
    StatefulWidget::render(&theirs, area, &mut Buffer::empty(area), &mut their_state);
    assert_eq!(ours_state, their_state);
    let table = Table::new([Row::new(["1", "2"])], [Constraint::Length(3); 2]);
    let their_table =
        ratatui::widgets::Table::new([ratatui::widgets::Row::new(["1", "2"])], [3, 3]);
    assert_eq!(
        drawn(&|buf| StatefulWidget::render(&table, area, buf, &mut TableState::default())),
        drawn(&|buf| StatefulWidget::render(&their_table, area, buf, &mut TableState::default())),
    );
    assert_eq!(
        drawn(&|buf| Widget::render(&Paragraph::new("hi"), area, buf)),
        drawn(&|buf| Widget::render(&ratatui::widgets::Paragraph::new("hi"), area, buf)),
    );
    assert_eq!(
        drawn(&|buf| Widget::render(&Gauge::default().ratio(0.5), area, buf)),
        drawn(&|buf| Widget::render(&ratatui::widgets::Gauge::default().ratio(0.5), area, buf)),
    );
}
