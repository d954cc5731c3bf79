//! `taria_widgets::prelude` stands in for `ratatui::prelude::*`, `ratatui::widgets::*`
//! and `use ratatui::widgets::{…}` blocks: every ratatui name is there (checked against
//! ratatui's source by `tests/prelude.py --check`, which also checks that the modules
//! below name each one), the prelude alone or beside ratatui's makes no name ambiguous,
//! and each name is taria's where taria wraps the widget, ratatui's item otherwise.

// A name two globs give as different items is an error (E0659), but only a warning
// when the import comes from a macro (`every_name!`): made an error here too.
#![deny(ambiguous_glob_imports)]

use taria::testing::Harness;

/// Imports every name of ratatui's prelude and `ratatui::widgets` again, by name, in the
/// module it is written in (`tests/prelude.py --check` holds the list to ratatui's).
macro_rules! every_name {
    () => {
        use self::{
            Alignment as _, Axis as _, Backend as _, Bar as _, BarChart as _, BarGroup as _,
            Block as _, BlockExt as _, BorderType as _, Borders as _, Buffer as _, Cell as _,
            CellEffect as _, Chart as _, Clear as _, Color as _, Constraint as _,
            CrosstermBackend as _, Dataset as _, Dimmed as _, Direction as _, Fill as _,
            Frame as _, FromCrossterm as _, Gauge as _, GraphType as _, HighlightSpacing as _,
            HorizontalAlignment as _, IntoCrossterm as _, Layout as _, LegendPosition as _,
            Line as _, LineGauge as _, List as _, ListDirection as _, ListItem as _,
            ListState as _, Margin as _, MascotEyeColor as _, Masked as _, Modifier as _,
            Padding as _, Paragraph as _, Position as _, RatatuiLogo as _, RatatuiLogoSize as _,
            RatatuiMascot as _, Rect as _, RenderDirection as _, Row as _, ScrollDirection as _,
            Scrollbar as _, ScrollbarOrientation as _, ScrollbarState as _, Shadow as _, Size as _,
            Span as _, Sparkline as _, SparklineBar as _, StatefulWidget as _, Style as _,
            Stylize as _, Table as _, TableState as _, Tabs as _, Terminal as _, Text as _,
            TitlePosition as _, VerticalAlignment as _, Widget as _, Wrap as _, backend as _,
            buffer as _, calendar as _, canvas as _, dimmed as _, layout as _, style as _,
            symbols as _, text as _,
        };
    };
}

/// The prelude alone: every name, imported again by name (a name two globs give as
/// different items is a compile error, E0659).
mod alone {
    #![expect(
        unused_imports,
        reason = "the names are imported to check they resolve"
    )]
    use taria_widgets::prelude::*;

    every_name!();
}

/// `use ratatui::prelude::*;` beside the prelude: the names both give are the same
/// items, so none is ambiguous.
mod beside_ratatui_s_prelude {
    #![expect(
        unused_imports,
        reason = "the names are imported to check they resolve"
    )]
    use ratatui::prelude::*;
    use taria_widgets::prelude::*;

    every_name!();
}

/// `A` and `B` are one type.
trait Same<T> {}
impl<T> Same<T> for T {}
fn same<A: Same<B>, B>() {}

#[test]
fn what_taria_wraps_is_taria_s_and_the_rest_is_ratatui_s() {
    use taria_widgets::prelude as p;
    // taria's (recorded).
    same::<p::Block<'static>, taria_widgets::Block<'static>>();
    same::<p::List<'static>, taria_widgets::List<'static>>();
    same::<p::ListItem<'static>, taria_widgets::ListItem<'static>>();
    same::<p::Paragraph<'static>, taria_widgets::Paragraph<'static>>();
    same::<p::Table<'static>, taria_widgets::Table<'static>>();
    same::<p::Row<'static>, taria_widgets::Row<'static>>();
    same::<p::Cell<'static>, taria_widgets::Cell<'static>>();
    same::<p::Tabs<'static>, taria_widgets::Tabs<'static>>();
    same::<p::Gauge<'static>, taria_widgets::Gauge<'static>>();
    same::<p::LineGauge<'static>, taria_widgets::LineGauge<'static>>();
    same::<p::Scrollbar<'static>, taria_widgets::Scrollbar<'static>>();
    same::<p::ScrollbarState, taria_widgets::ScrollbarState>();
    same::<p::Sparkline<'static>, taria_widgets::Sparkline<'static>>();
    same::<p::SparklineBar, taria_widgets::SparklineBar>();
    same::<p::BarChart<'static>, taria_widgets::BarChart<'static>>();
    same::<p::Bar<'static>, taria_widgets::Bar<'static>>();
    same::<p::BarGroup<'static>, taria_widgets::BarGroup<'static>>();
    same::<p::Chart<'static>, taria_widgets::Chart<'static>>();
    same::<p::Dataset<'static>, taria_widgets::Dataset<'static>>();
    same::<p::Axis<'static>, taria_widgets::Axis<'static>>();
    same::<
        p::canvas::Canvas<'static, fn(&mut p::canvas::Context<'_>)>,
        taria_widgets::Canvas<'static, fn(&mut p::canvas::Context<'_>)>,
    >();
    // ratatui's (drawn only, or not widgets).
    same::<p::Borders, ratatui::widgets::Borders>();
    same::<p::BorderType, ratatui::widgets::BorderType>();
    same::<p::Padding, ratatui::widgets::Padding>();
    same::<p::Clear, ratatui::widgets::Clear>();
    same::<p::Wrap, ratatui::widgets::Wrap>();
    same::<p::HighlightSpacing, ratatui::widgets::HighlightSpacing>();
    same::<p::ListState, ratatui::widgets::ListState>();
    same::<p::TableState, ratatui::widgets::TableState>();
    same::<p::ScrollDirection, ratatui::widgets::ScrollDirection>();
    same::<p::Frame<'static>, ratatui::Frame<'static>>();
    same::<p::Rect, ratatui::layout::Rect>();
    same::<p::Position, ratatui::layout::Position>();
    same::<p::Style, ratatui::style::Style>();
    same::<p::Line<'static>, ratatui::text::Line<'static>>();
    same::<p::canvas::Map, ratatui::widgets::canvas::Map>();
    same::<p::canvas::Line, ratatui::widgets::canvas::Line>();
}

#[cfg(feature = "calendar")]
#[test]
fn the_calendar_s_month_is_taria_s() {
    use taria_widgets::prelude as p;
    same::<
        p::calendar::Monthly<'static, p::calendar::CalendarEventStore>,
        taria_widgets::Monthly<'static, p::calendar::CalendarEventStore>,
    >();
}

/// A draw written against ratatui's names, with the prelude as its only import of
/// them, records its widgets.
#[test]
fn a_draw_importing_only_the_prelude_records_its_widgets() {
    mod app {
        use taria_widgets::prelude::*;

        pub(super) fn draw(frame: &mut Frame<'_>, state: &mut TableState) {
            let [top, bottom] =
                Layout::vertical([Constraint::Fill(1), Constraint::Length(3)]).areas(frame.area());
            let rows = [Row::new(["Ada", "36"]), Row::new(["Alan", "41"])];
            let table = Table::new(rows, [Constraint::Length(6), Constraint::Length(3)])
                .block(Block::new().borders(Borders::ALL).title("People"))
                .row_highlight_style(Style::new().add_modifier(Modifier::REVERSED))
                .id("people");
            frame.render_stateful_widget(table, top, state);
            frame.render_widget(Clear, bottom);
            let help = Paragraph::new(Line::from(vec![Span::raw("q "), Span::raw("quits")]))
                .block(
                    Block::bordered()
                        .border_type(BorderType::Rounded)
                        .title("Help"),
                )
                .wrap(Wrap { trim: true });
            frame.render_widget(help, bottom);
        }
    }
    let mut state = ratatui::widgets::TableState::default().with_selected(Some(1));
    let mut harness = Harness::new(24, 8);
    let tree = harness.render(|frame| app::draw(frame, &mut state));
    let people = tree.get("people").expect("the table is recorded");
    assert_eq!(people.label.as_deref(), Some("People"));
    assert!(tree.get("people/1").expect("its second row").state.selected);
    let help = tree
        .find(&taria::Query::new().label("Help"))
        .expect("the help text is recorded");
    assert_eq!(help.value, Some(taria::Value::Text("q quits".into())));
}
