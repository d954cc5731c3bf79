//! [`Monthly`]: ratatui's month calendar (feature `calendar`), recorded as `text`; the
//! module stands in for `ratatui::widgets::calendar`.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;
use taria::Role;

use crate::given::Given;
use crate::semantic::SemanticWidget;
use time::Date;

pub use ratatui::widgets::calendar::{CalendarEventStore, DateStyler};

/// One month, drawn exactly like ratatui's [`calendar::Monthly`](ratatui::widgets::calendar::Monthly).
///
/// Recorded as `text`: label = the block's title, else the month shown
/// (`January 2024`); value = the display date (`2024-01-15`) when the events mark it
/// (the app styles it: the date it shows as selected), else, with a title, the month
/// shown, else none (ratatui draws the display date like any other day: a month
/// shown from its 1st does not show the 1st as anything). Each date the events style
/// (the days of the month, and those around it with
/// [`show_surrounding`](Monthly::show_surrounding)) is a child `text`: label = the
/// day as drawn (`15`), value = its date, bounds = its cell, keyed by its date.
///
/// # Examples
///
/// ```
/// use ratatui::style::{Style, Stylize};
/// use taria::testing::Harness;
/// use taria_widgets::{CalendarEventStore, Monthly};
/// use time::{Date, Month};
///
/// let first = Date::from_calendar_date(2024, Month::January, 1).unwrap();
/// let holiday = Date::from_calendar_date(2024, Month::January, 15).unwrap();
/// let mut events = CalendarEventStore::default();
/// events.add(holiday, Style::new().red());
/// let mut harness = Harness::new(22, 8);
/// let tree = harness.render(|frame| {
///     let cal = Monthly::new(first, &events).id("cal");
///     frame.render_widget(cal, frame.area());
/// });
/// let cal = tree.get("cal").unwrap();
/// assert_eq!(cal.label.as_deref(), Some("January 2024"));
/// assert_eq!(cal.value, None, "the 1st is not marked");
/// assert_eq!(cal.children[0].label.as_deref(), Some("15"));
/// assert_eq!(cal.children[0].value, Some(taria::Value::Text("2024-01-15".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Monthly<'a, DS: DateStyler> {
    display_date: Date,
    events: DS,
    block: Option<ratatui::widgets::Block<'a>>,
    show_surrounding: Option<Style>,
    show_weekday: Option<Style>,
    show_month: Option<Style>,
    default_style: Style,
    block_label: Option<Cow<'a, str>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl<'a, DS: DateStyler> Monthly<'a, DS> {
    /// See ratatui's [`Monthly::new`](ratatui::widgets::calendar::Monthly::new).
    pub const fn new(display_date: Date, events: DS) -> Self {
        Monthly {
            display_date,
            events,
            block: None,
            show_surrounding: None,
            show_weekday: None,
            show_month: None,
            default_style: Style::new(),
            block_label: None,
            id: None,
            given: Given::DEFAULT,
        }
    }

    crate::semantic::id_setter!();

    crate::given::given_setters!();

    crate::semantic::setters! { Monthly in ratatui::widgets::calendar;
        fn show_surrounding<S: Into<Style>>(style: S) => show_surrounding = Some(style.into());
        fn show_weekdays_header<S: Into<Style>>(style: S) => show_weekday = Some(style.into());
        fn show_month_header<S: Into<Style>>(style: S) => show_month = Some(style.into());
        fn default_style<S: Into<Style>>(style: S) => default_style = style.into();
    }

    crate::semantic::block_setter!(Monthly in ratatui::widgets::calendar => block, block_label);

    /// See ratatui's [`Monthly::width`](ratatui::widgets::calendar::Monthly::width).
    #[must_use]
    pub fn width(&self) -> u16 {
        self.ratatui().width()
    }

    /// See ratatui's [`Monthly::height`](ratatui::widgets::calendar::Monthly::height).
    #[must_use]
    pub fn height(&self) -> u16 {
        self.ratatui().height()
    }

    /// ratatui's calendar with these settings, borrowing the events; the block apart.
    fn ratatui(&self) -> ratatui::widgets::calendar::Monthly<'a, ByRef<'_, DS>> {
        let mut inner =
            ratatui::widgets::calendar::Monthly::new(self.display_date, ByRef(&self.events))
                .default_style(self.default_style);
        if let Some(style) = self.show_surrounding {
            inner = inner.show_surrounding(style);
        }
        if let Some(style) = self.show_weekday {
            inner = inner.show_weekdays_header(style);
        }
        if let Some(style) = self.show_month {
            inner = inner.show_month_header(style);
        }
        inner
    }

    /// Whether the events style `date` (the app draws it marked).
    fn marked(&self, date: Date) -> bool {
        self.events.get_style(date) != Style::new()
    }

    /// Records a child for each date drawn marked, in `days` (the rows of weeks).
    fn describe_events(&self, days: Rect) {
        let month = self.display_date.month();
        let Ok(first) = self.display_date.replace_day(1) else {
            return;
        };
        let mut day =
            first - time::Duration::days(first.weekday().number_days_from_sunday().into());
        let mut y = days.y;
        while day.month() != month.next() && y < days.bottom() {
            for column in 0..7u16 {
                let shown = day.month() == month || self.show_surrounding.is_some();
                let cell = Rect::new(days.x + 1 + 3 * column, y, 2, 1).intersection(days);
                if shown && self.marked(day) && !cell.is_empty() {
                    taria::leaf(|n| {
                        n.role(Role::Text)
                            .key(format_args!("{}", IsoDate(day)))
                            .label(format_args!("{}", day.day()))
                            .value(format_args!("{}", IsoDate(day)))
                            .bounds(cell);
                    });
                }
                day = day.next_day().unwrap_or(day);
            }
            y += 1;
        }
    }
}

/// A date as `2024-01-15`.
struct IsoDate(Date);

impl std::fmt::Display for IsoDate {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let date = self.0;
        write!(
            f,
            "{:04}-{:02}-{:02}",
            date.year(),
            u8::from(date.month()),
            date.day()
        )
    }
}

/// The app's events, lent to ratatui's calendar.
struct ByRef<'e, DS>(&'e DS);

impl<DS: DateStyler> DateStyler for ByRef<'_, DS> {
    fn get_style(&self, date: Date) -> Style {
        self.0.get_style(date)
    }
}

impl<DS: DateStyler> SemanticWidget for &Monthly<'_, DS> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        let date = self.display_date;
        let _calendar = taria::scope(|n| {
            n.role(self.given.role_or(Role::Text)).bounds(area);
            if self.marked(date) {
                n.value(format_args!("{}", IsoDate(date)));
            } else if self.block_label.is_some() {
                n.value(format_args!("{} {}", date.month(), date.year()));
            }
            match &self.block_label {
                Some(label) => n.label(label),
                None => n.label(format_args!("{} {}", date.month(), date.year())),
            };
            if let Some(id) = self.id {
                n.id(id);
            }
            self.given.record(n, self.id);
        });
        let inner = self.block.as_ref().map_or(area, |block| block.inner(area));
        let headers = u16::from(self.show_month.is_some()) + u16::from(self.show_weekday.is_some());
        let days = Rect {
            y: inner.y.saturating_add(headers),
            height: inner.height.saturating_sub(headers),
            ..inner
        };
        self.describe_events(days);
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        let inner = match &self.block {
            Some(block) => {
                block.render(area, buf);
                block.inner(area)
            }
            None => area,
        };
        (&self.ratatui()).render(inner, buf);
    }
}

crate::semantic::widget_impls!([DS: DateStyler] Monthly<'_, DS>: Widget by ref);

#[cfg(test)]
mod tests {
    use ratatui::style::Color;
    use time::Month;

    use super::*;
    use crate::Block;

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 24, 10);
        for (month, day) in [(Month::February, 29), (Month::September, 1)] {
            let date = Date::from_calendar_date(2024, month, day).expect("a date");
            let mut events = CalendarEventStore::default();
            events.add(date, Style::new().fg(Color::Red));
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            Monthly::new(date, &events)
                .show_surrounding(Color::DarkGray)
                .show_weekdays_header(Style::new().bold())
                .show_month_header(Color::Cyan)
                .default_style(Color::White)
                .block(Block::bordered().title("Cal"))
                .render(area, &mut a);
            ratatui::widgets::calendar::Monthly::new(date, &events)
                .show_surrounding(Color::DarkGray)
                .show_weekdays_header(Style::new().bold())
                .show_month_header(Color::Cyan)
                .default_style(Color::White)
                .block(ratatui::widgets::Block::bordered().title("Cal"))
                .render(area, &mut b);
            assert_eq!(a, b);
        }
    }

    fn day(month: Month, day: u8) -> Date {
        Date::from_calendar_date(2024, month, day).expect("a date")
    }

    /// Draws `cal` on a 24x10 screen: its node, and the screen's rows.
    fn recorded(cal: &Monthly<'_, &CalendarEventStore>) -> (taria::Node, Vec<String>) {
        let mut harness = taria::testing::Harness::new(24, 10);
        let tree = harness.render(|frame| frame.render_widget(cal, frame.area()));
        let node = tree.roots[0].clone();
        (node, harness.screen_text())
    }

    /// Issue 30: a month shown from its 1st recorded the 1st as its value, which the
    /// calendar draws like any other day; a date the app marks (styles) is its value.
    #[test]
    fn the_value_is_the_date_the_app_marks_not_the_first() {
        let events = CalendarEventStore::default();
        let (node, _) = recorded(&Monthly::new(day(Month::March, 1), &events).id("cal"));
        assert_eq!(node.label.as_deref(), Some("March 2024"));
        assert_eq!(node.value, None, "the 1st is drawn as any day: {node:?}");
        let mut events = CalendarEventStore::default();
        events.add(day(Month::March, 12), Style::new().reversed());
        let (node, _) = recorded(&Monthly::new(day(Month::March, 12), &events));
        assert_eq!(node.value, Some(taria::Value::Text("2024-03-12".into())));
        // Under a title, the month shown is the value.
        let titled =
            Monthly::new(day(Month::March, 1), &events).block(Block::bordered().title("Due"));
        let (node, _) = recorded(&titled);
        assert_eq!(node.label.as_deref(), Some("Due"));
        assert_eq!(node.value, Some(taria::Value::Text("March 2024".into())));
    }

    /// Issue 30: the events (the dates the app styles) were not recorded; each is a
    /// child whose bounds hold the day as drawn, those around the month only when
    /// they are shown.
    #[test]
    fn the_events_are_recorded_where_they_are_drawn() {
        let mut events = CalendarEventStore::default();
        for (month, date) in [(Month::February, 28), (Month::March, 8), (Month::March, 31)] {
            events.add(day(month, date), Style::new().fg(Color::Red));
        }
        let cal = Monthly::new(day(Month::March, 1), &events)
            .show_month_header(Style::new())
            .show_weekdays_header(Style::new())
            .block(Block::bordered());
        let (node, screen) = recorded(&cal);
        let dates: Vec<_> = node.children.iter().map(|c| c.value.clone()).collect();
        assert_eq!(
            dates,
            [
                Some(taria::Value::Text("2024-03-08".into())),
                Some(taria::Value::Text("2024-03-31".into()))
            ],
            "February's 28th is not shown"
        );
        for child in &node.children {
            let b = child.bounds;
            let row: Vec<char> = screen[usize::from(b.y)].chars().collect();
            let drawn: String = row[usize::from(b.x)..usize::from(b.x + b.width)]
                .iter()
                .collect();
            assert_eq!(drawn.trim(), child.label.as_deref().unwrap(), "{screen:#?}");
        }
        let (node, _) = recorded(&cal.show_surrounding(Color::DarkGray));
        assert_eq!(node.children.len(), 3, "the 28th is shown now");
        assert_eq!(node.children[0].label.as_deref(), Some("28"));
    }
}
