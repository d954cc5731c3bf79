//! [`Monthly`]: ratatui's month calendar (feature `calendar`), recorded as `text`; the
//! module stands in for `ratatui::widgets::calendar`.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::widgets::Widget;
use taria::Role;

use crate::given::Given;
use crate::semantic::Semantic;
use time::Date;

pub use ratatui::widgets::calendar::{CalendarEventStore, DateStyler};

/// One month, drawn exactly like ratatui's [`calendar::Monthly`](ratatui::widgets::calendar::Monthly).
///
/// Recorded as `text`: label = the block's title, else the month shown
/// (`January 2024`); value = the display date (`2024-01-15`). The events' styles are
/// not recorded (a [`DateStyler`] cannot be listed).
///
/// ```
/// use taria::testing::Harness;
/// use taria_widgets::{CalendarEventStore, Monthly};
/// use time::{Date, Month};
///
/// let day = Date::from_calendar_date(2024, Month::January, 15).unwrap();
/// let mut harness = Harness::new(22, 8);
/// let tree = harness.render(|frame| {
///     let cal = Monthly::new(day, CalendarEventStore::default()).id("cal");
///     frame.render_widget(cal, frame.area());
/// });
/// let cal = tree.get("cal").unwrap();
/// assert_eq!(cal.label.as_deref(), Some("January 2024"));
/// assert_eq!(cal.value, Some(taria::Value::Text("2024-01-15".into())));
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Monthly<'a, DS: DateStyler> {
    inner: ratatui::widgets::calendar::Monthly<'a, DS>,
    display_date: Date,
    block_label: Option<Cow<'a, str>>,
    id: Option<&'a str>,
    given: Given<'a>,
}

impl<'a, DS: DateStyler> Monthly<'a, DS> {
    /// See ratatui's [`Monthly::new`](ratatui::widgets::calendar::Monthly::new).
    pub const fn new(display_date: Date, events: DS) -> Self {
        Monthly {
            inner: ratatui::widgets::calendar::Monthly::new(display_date, events),
            display_date,
            block_label: None,
            id: None,
            given: Given::DEFAULT,
        }
    }

    crate::semantic::id_setter!();

    crate::given::given_setters!();

    crate::semantic::setters! { Monthly in ratatui::widgets::calendar;
        fn show_surrounding<S: Into<Style>>(style: S) => inner;
        fn show_weekdays_header<S: Into<Style>>(style: S) => inner;
        fn show_month_header<S: Into<Style>>(style: S) => inner;
        fn default_style<S: Into<Style>>(style: S) => inner;
    }

    crate::semantic::block_setter!(Monthly in ratatui::widgets::calendar => inner, block_label);

    /// See ratatui's [`Monthly::width`](ratatui::widgets::calendar::Monthly::width).
    #[must_use]
    pub fn width(&self) -> u16 {
        self.inner.width()
    }

    /// See ratatui's [`Monthly::height`](ratatui::widgets::calendar::Monthly::height).
    #[must_use]
    pub fn height(&self) -> u16 {
        self.inner.height()
    }
}

impl<DS: DateStyler> Semantic for &Monthly<'_, DS> {
    type State = ();

    fn describe(&self, area: Rect, (): &(), _: crate::semantic::Offer) {
        let date = self.display_date;
        taria::leaf(|n| {
            n.role(self.given.role_or(Role::Text))
                .value(format_args!(
                    "{:04}-{:02}-{:02}",
                    date.year(),
                    u8::from(date.month()),
                    date.day()
                ))
                .bounds(area);
            match &self.block_label {
                Some(label) => n.label(label),
                None => n.label(format_args!("{} {}", date.month(), date.year())),
            };
            if let Some(id) = self.id {
                n.id(id);
            }
            self.given.record(n, self.id);
        });
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, (): &mut ()) {
        (&self.inner).render(area, buf);
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
}
