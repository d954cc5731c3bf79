//! [`Cell`]: one cell of a [`Row`](super::Row), with readable text.

use ratatui::style::Style;
use ratatui::text::Text;

/// One cell of a [`Row`](crate::Row): ratatui's [`Cell`](ratatui::widgets::Cell) with readable
/// text.
///
/// # Examples
///
/// ```
/// use ratatui::layout::Constraint;
/// use taria::{Value, testing::Harness};
/// use taria_widgets::{Cell, Row, Table};
///
/// let tree = Harness::new(20, 2).render(|frame| {
///     let row = Row::new([Cell::new("milk"), Cell::new("2")]);
///     let table = Table::new([row], [Constraint::Length(6); 2]).header(Row::new(["Item", "Qty"]));
///     frame.render_widget(table.id("cart"), frame.area());
/// });
/// let qty = tree.get("cart/0/1").unwrap();
/// assert_eq!((qty.label.as_deref(), qty.value.clone()), (Some("Qty"), Some(Value::Text("2".into()))));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Cell<'a> {
    // ratatui's fields, so converting a `Vec` of ours reuses its allocation.
    pub(super) content: Text<'a>,
    pub(super) style: Style,
    pub(super) column_span: u16,
}

impl<'a> Cell<'a> {
    /// See ratatui's [`Cell::new`](ratatui::widgets::Cell::new).
    #[inline]
    pub fn new<T: Into<Text<'a>>>(content: T) -> Self {
        Cell {
            content: content.into(),
            style: Style::default(),
            column_span: 1,
        }
    }

    /// See ratatui's [`Cell::content`](ratatui::widgets::Cell::content).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn content<T: Into<Text<'a>>>(mut self, content: T) -> Self {
        self.content = content.into();
        self
    }

    crate::semantic::setters! { Cell in ratatui::widgets;
        const fn column_span(column_span: u16) => column_span = column_span;
        fn style<S: Into<Style>>(style: S) => style = style.into();
    }

    #[inline]
    pub(super) fn into_ratatui(self) -> ratatui::widgets::Cell<'a> {
        ratatui::widgets::Cell::new(self.content)
            .style(self.style)
            .column_span(self.column_span)
    }
}

impl<'a, T: Into<Text<'a>>> From<T> for Cell<'a> {
    fn from(content: T) -> Self {
        Cell::new(content)
    }
}

crate::semantic::styled!(Cell<'_>: field style);
