//! [`Row`]: one row of a [`Table`](super::Table), with readable cells (or ratatui's,
//! when built with recording off).

use std::borrow::Cow;

use ratatui::style::Style;

use super::Cell;

/// One row of a [`Table`](crate::Table): ratatui's [`Row`](ratatui::widgets::Row) with readable
/// cells.
///
/// A row built while no frame is being recorded (`!taria::widget::is_recording()`, the
/// usual case for rows built in the draw closure of an unrecorded frame) holds
/// ratatui's row directly, so the table hands it over at render without touching its
/// cells; if such a row is rendered in a recorded frame after all, its `row` node
/// has no label and no `cell` children.
///
/// # Examples
///
/// ```
/// use ratatui::layout::Constraint;
/// use taria::{Value, testing::Harness};
/// use taria_widgets::{Cell, Row, Table};
///
/// let tree = Harness::new(20, 2).render(|frame| {
///     let rows = [
///         Row::new(["Buy milk", "today"]).key("17"),
///         Row::new(vec![Cell::new("Walk dog"), Cell::new("now")]).key("42"),
///     ];
///     let table = Table::new(rows, [Constraint::Length(9), Constraint::Length(6)]).id("todo");
///     frame.render_widget(table, frame.area());
/// });
/// let walk = tree.get("todo/42").unwrap();
/// assert_eq!((walk.label.as_deref(), walk.stable), (Some("Walk dog"), true));
/// assert_eq!(walk.children[1].value, Some(Value::Text("now".into())));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Row<'a> {
    pub(super) cells: Cells<'a>,
    /// How many cells the row has (ratatui's row does not say).
    pub(super) cell_count: usize,
    pub(super) height: u16,
    pub(super) top_margin: u16,
    pub(super) bottom_margin: u16,
    pub(super) style: Style,
    /// The row's identity for agents (see [`Row::key`]).
    pub(super) key: Option<Cow<'a, str>>,
}

/// A row's cells: ours (readable, for recording) or already ratatui's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) enum Cells<'a> {
    Ours(Vec<Cell<'a>>),
    /// ratatui's row, kept in step with the row's height, margins and style.
    Theirs(ratatui::widgets::Row<'a>),
}

impl Default for Cells<'_> {
    fn default() -> Self {
        Cells::Ours(Vec::new())
    }
}

impl<'a> Cells<'a> {
    /// Ours while recording, ratatui's otherwise; and how many.
    #[inline]
    fn new<T>(cells: T) -> (Self, usize)
    where
        T: IntoIterator,
        T::Item: Into<Cell<'a>>,
    {
        let cells = cells.into_iter().map(Into::into);
        if taria::widget::is_recording() {
            let cells: Vec<Cell<'a>> = cells.collect();
            let count = cells.len();
            (Cells::Ours(cells), count)
        } else {
            let mut count = 0;
            let row = ratatui::widgets::Row::new(cells.map(|c: Cell<'a>| {
                count += 1;
                c.into_ratatui()
            }));
            (Cells::Theirs(row), count)
        }
    }

    pub(super) fn ours(&self) -> Option<&[Cell<'a>]> {
        match self {
            Cells::Ours(cells) => Some(cells),
            Cells::Theirs(_) => None,
        }
    }
}

impl<'a> Row<'a> {
    /// See ratatui's [`Row::new`](ratatui::widgets::Row::new).
    #[inline]
    pub fn new<T>(cells: T) -> Self
    where
        T: IntoIterator,
        T::Item: Into<Cell<'a>>,
    {
        let (cells, cell_count) = Cells::new(cells);
        Row {
            cells,
            cell_count,
            height: 1,
            ..Row::default()
        }
    }

    /// See ratatui's [`Row::cells`](ratatui::widgets::Row::cells).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn cells<T>(mut self, cells: T) -> Self
    where
        T: IntoIterator,
        T::Item: Into<Cell<'a>>,
    {
        (self.cells, self.cell_count) = Cells::new(cells);
        let (height, top, bottom, style) = self.parts();
        self.map_theirs(|r| {
            r.height(height)
                .top_margin(top)
                .bottom_margin(bottom)
                .style(style)
        })
    }

    const fn parts(&self) -> (u16, u16, u16, Style) {
        (self.height, self.top_margin, self.bottom_margin, self.style)
    }

    /// Applies `f` to ratatui's row, if the row holds one.
    fn map_theirs(
        mut self,
        f: impl FnOnce(ratatui::widgets::Row<'a>) -> ratatui::widgets::Row<'a>,
    ) -> Self {
        self.cells = match self.cells {
            Cells::Theirs(row) => Cells::Theirs(f(row)),
            ours @ Cells::Ours(_) => ours,
        };
        self
    }

    /// Identifies the row to agents: its id becomes `<table id>/<key>`, stable while
    /// the key is (a process id, a file name, a database key). Without one, a row is
    /// named by its index, `<table id>/<index>`, marked positional: after a sort it
    /// names another row, and agents' actions on it are guarded. Not part of
    /// ratatui's `Row`; it changes nothing on screen.
    ///
    /// Key every row or none: a row keyed `"5"` and unkeyed row 5 would both be
    /// `<table id>/5` (the second is renamed `~2` and reported), as would a row keyed
    /// `"header"` and the header row. Like the row's text, the key is kept only for
    /// rows built while a frame is recorded (in the draw closure); a row built
    /// outside one goes straight to ratatui's and is recorded positional.
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn key(mut self, key: impl Into<Cow<'a, str>>) -> Self {
        self.key = Some(key.into());
        self
    }

    /// See ratatui's [`Row::height`](ratatui::widgets::Row::height).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn height(mut self, height: u16) -> Self {
        self.height = height;
        self.map_theirs(|r| r.height(height))
    }

    /// See ratatui's [`Row::top_margin`](ratatui::widgets::Row::top_margin).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn top_margin(mut self, margin: u16) -> Self {
        self.top_margin = margin;
        self.map_theirs(|r| r.top_margin(margin))
    }

    /// See ratatui's [`Row::bottom_margin`](ratatui::widgets::Row::bottom_margin).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn bottom_margin(mut self, margin: u16) -> Self {
        self.bottom_margin = margin;
        self.map_theirs(|r| r.bottom_margin(margin))
    }

    /// See ratatui's [`Row::style`](ratatui::widgets::Row::style).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn style<S: Into<Style>>(mut self, style: S) -> Self {
        self.style = style.into();
        let style = self.style;
        self.map_theirs(|r| r.style(style))
    }

    pub(super) const fn shape(&self) -> (u16, u16, u16) {
        (self.height, self.top_margin, self.bottom_margin)
    }

    #[inline]
    pub(super) fn into_ratatui(self) -> ratatui::widgets::Row<'a> {
        #[cfg(test)]
        super::tests::CONVERTED.with(|n| n.set(n.get() + 1));
        match self.cells {
            Cells::Ours(cells) => {
                ratatui::widgets::Row::new(cells.into_iter().map(Cell::into_ratatui))
                    .height(self.height)
                    .top_margin(self.top_margin)
                    .bottom_margin(self.bottom_margin)
                    .style(self.style)
            }
            Cells::Theirs(row) => row,
        }
    }
}

impl<'a, Item: Into<Cell<'a>>> FromIterator<Item> for Row<'a> {
    fn from_iter<I: IntoIterator<Item = Item>>(cells: I) -> Self {
        Row::new(cells)
    }
}

crate::semantic::styled!(Row<'_>: field style);
