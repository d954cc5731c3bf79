//! [`ListItem`]: one item of a [`List`](super::List), its text kept readable.

use ratatui::style::Style;
use ratatui::text::Text;

/// One item of a [`List`](crate::List): the same as ratatui's
/// [`ListItem`](ratatui::widgets::ListItem), but its text stays readable so the item
/// can be labelled.
///
/// # Examples
///
/// ```
/// use ratatui::style::Stylize;
/// use taria_widgets::ListItem;
///
/// let item = ListItem::new("Buy milk").red();
/// assert_eq!(item.height(), 1);
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ListItem<'a> {
    // The same fields as ratatui's item, so that converting a `Vec` of ours into
    // ratatui's reuses the allocation.
    pub(super) content: Text<'a>,
    pub(super) style: Style,
}

impl<'a> ListItem<'a> {
    /// See ratatui's [`ListItem::new`](ratatui::widgets::ListItem::new).
    pub fn new<T: Into<Text<'a>>>(content: T) -> Self {
        ListItem {
            content: content.into(),
            style: Style::default(),
        }
    }

    crate::semantic::setters! { ListItem in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => style = style.into();
    }

    /// The item's height in lines.
    #[must_use]
    pub fn height(&self) -> usize {
        self.content.height()
    }

    /// The item's width (its widest line).
    #[must_use]
    pub fn width(&self) -> usize {
        self.content.width()
    }

    pub(super) fn into_ratatui(self) -> ratatui::widgets::ListItem<'a> {
        ratatui::widgets::ListItem::new(self.content).style(self.style)
    }
}

impl<'a, T: Into<Text<'a>>> From<T> for ListItem<'a> {
    fn from(content: T) -> Self {
        ListItem::new(content)
    }
}

crate::semantic::styled!(ListItem<'_>: field style);
