//! [`Table`]: ratatui's [`Table`](ratatui::widgets::Table), recorded as a `table`
//! whose rows *on screen* are `row`s of `cell`s, with `select` and `scroll` taken by
//! the widget itself.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::Text;
use ratatui::widgets::StatefulWidget;
use taria::{Action, Invocation, Outcome, Role, ScrollDirection};

use crate::semantic::{Semantic, id_and_label};

pub use ratatui::widgets::{HighlightSpacing, TableState};

use crate::text::FirstLine;

/// One cell of a [`Row`]: ratatui's [`Cell`](ratatui::widgets::Cell) with readable
/// text.
///
/// ```
/// let cell = taria_widgets::Cell::new("42").column_span(2);
/// # let _ = cell;
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Cell<'a> {
    // ratatui's fields, so converting a `Vec` of ours reuses its allocation.
    content: Text<'a>,
    style: Style,
    column_span: u16,
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
    fn into_ratatui(self) -> ratatui::widgets::Cell<'a> {
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

/// One row of a [`Table`]: ratatui's [`Row`](ratatui::widgets::Row) with readable
/// cells.
///
/// A row built while no frame is being recorded (`!taria::is_recording()`, the
/// usual case for rows built in the draw closure of an unrecorded frame) holds
/// ratatui's row directly, so the table hands it over at render without touching its
/// cells; if such a row is rendered in a recorded frame after all, its `row` node
/// has no label and no `cell` children.
///
/// ```
/// use taria_widgets::{Cell, Row};
///
/// let row = Row::new(["Buy milk", "today"]).height(1);
/// let other = Row::new(vec![Cell::new("Walk dog"), Cell::new("now")]);
/// # let _ = (row, other);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Row<'a> {
    cells: Cells<'a>,
    /// How many cells the row has (ratatui's row does not say).
    cell_count: usize,
    height: u16,
    top_margin: u16,
    bottom_margin: u16,
    style: Style,
    /// The row's identity for agents (see [`Row::key`]).
    key: Option<Cow<'a, str>>,
}

/// A row's cells: ours (readable, for recording) or already ratatui's.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Cells<'a> {
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
        if taria::is_recording() {
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

    fn ours(&self) -> Option<&[Cell<'a>]> {
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

    const fn shape(&self) -> (u16, u16, u16) {
        (self.height, self.top_margin, self.bottom_margin)
    }

    #[inline]
    fn into_ratatui(self) -> ratatui::widgets::Row<'a> {
        #[cfg(test)]
        tests::CONVERTED.with(|n| n.set(n.get() + 1));
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

/// A table, drawn exactly like ratatui's `Table`.
///
/// Recorded as a `table` (label: its block's title; `count`: all rows; `scroll`: the
/// first row on screen, the row count, the rows on screen) holding a `row` `header`
/// of `column_header`s (the column names) and one `row` per row *on screen* (label:
/// its first cell; `selected`; `index` of `count`; it offers `select`) of `cell`s
/// (label: the column's name, or the text without a header; value: the text;
/// `selected` for the selected column or cell; inert parts of their row). Only the
/// rows on screen are recorded, so a table of 100,000 rows records what its visible
/// rows cost.
///
/// Built while recording, the table keeps readable rows and, at render, converts
/// into ratatui's only the rows ratatui draws (it hands ratatui those, with the
/// offset and selection moved to match), so drawing it costs no more per row than
/// ratatui's table: the other rows are only dropped, as ratatui drops its own.
///
/// Built with recording off (`!taria::is_recording()`, as in the draw closure of an
/// unrecorded frame), the table and its rows hold ratatui's rows, handed to ratatui
/// at render untouched. Drawn in a recorded frame after all, such a table records
/// its rows on screen without labels or cells if all rows share a height and
/// margins, else the `table` node alone.
///
/// **State route.** Rendered with [`StatefulWidget`] and an [`id`](Table::id), the
/// table takes `select` on a row (`TableState::select`) or a cell
/// (`TableState::select_cell`) and `scroll` (up/down moves the row selection like
/// `TableState::scroll_down_by`, left/right the column) — no app code.
///
/// ```
/// use ratatui::layout::Constraint;
/// use taria::testing::Harness;
/// use taria_widgets::{Row, Table, TableState};
///
/// let mut state = TableState::default().with_selected(Some(0));
/// let mut harness = Harness::new(20, 3);
/// let tree = harness.render(|frame| {
///     let table = Table::new([Row::new(["milk", "2"])], [Constraint::Length(6); 2])
///         .header(Row::new(["Item", "Qty"]))
///         .id("cart");
///     frame.render_stateful_widget(table, frame.area(), &mut state);
/// });
/// assert_eq!(tree.get("cart/0/1").unwrap().label.as_deref(), Some("Qty"));
/// assert!(tree.get("cart/0").unwrap().state.selected);
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Table<'a> {
    /// ratatui's table without rows, header, footer, widths and block (given to it
    /// at render).
    inner: ratatui::widgets::Table<'a>,
    rows: Rows<'a>,
    header: Option<Row<'a>>,
    footer: Option<Row<'a>>,
    widths: Vec<Constraint>,
    block: Option<ratatui::widgets::Block<'a>>,
    label: Option<Cow<'a, str>>,
    column_spacing: u16,
    highlight_symbol_width: u16,
    highlight_spacing: HighlightSpacing,
    flex: Flex,
    id: Option<&'a str>,
}

/// A table's rows: ours (readable, for recording) or, when built with recording
/// off, already ratatui's, handed over at render as they are.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Rows<'a> {
    /// Converted into ratatui's at render, only those ratatui will look at (see
    /// [`Table::window`]).
    Ours {
        rows: Vec<Row<'a>>,
        /// The most cells in a row.
        columns: usize,
    },
    Theirs {
        rows: Vec<ratatui::widgets::Row<'a>>,
        /// The most cells in a row.
        columns: usize,
        /// Every row's height, top and bottom margin, if all rows share them.
        shape: Option<(u16, u16, u16)>,
    },
}

impl Default for Rows<'_> {
    fn default() -> Self {
        Rows::Ours {
            rows: Vec::new(),
            columns: 0,
        }
    }
}

impl<'a> Rows<'a> {
    #[inline]
    fn new<T>(rows: T) -> Self
    where
        T: IntoIterator,
        T::Item: Into<Row<'a>>,
    {
        let rows = rows.into_iter().map(Into::into);
        let mut columns = 0;
        if taria::is_recording() {
            let rows = rows
                .inspect(|row: &Row<'a>| columns = columns.max(row.cell_count))
                .collect();
            return Rows::Ours { rows, columns };
        }
        let (mut shape, mut mixed) = (None, false);
        let rows = rows
            .map(|row: Row<'a>| {
                columns = columns.max(row.cell_count);
                match shape {
                    None => shape = Some(row.shape()),
                    Some(first) => mixed |= first != row.shape(),
                }
                row.into_ratatui()
            })
            .collect();
        Rows::Theirs {
            rows,
            columns,
            shape: if mixed { None } else { shape },
        }
    }

    fn len(&self) -> usize {
        match self {
            Rows::Ours { rows, .. } => rows.len(),
            Rows::Theirs { rows, .. } => rows.len(),
        }
    }

    /// Row `i`'s height, top and bottom margin, if known.
    fn shape(&self, i: usize) -> Option<(u16, u16, u16)> {
        match self {
            Rows::Ours { rows, .. } => rows.get(i).map(Row::shape),
            Rows::Theirs { shape, .. } => *shape,
        }
    }

    /// Row `i`, if ours.
    fn ours(&self, i: usize) -> Option<&Row<'a>> {
        match self {
            Rows::Ours { rows, .. } => rows.get(i),
            Rows::Theirs { .. } => None,
        }
    }

    /// Where the row keyed `key` is now, if there is one.
    fn position_of_key(&self, key: &str) -> Option<usize> {
        match self {
            Rows::Ours { rows, .. } => rows.iter().position(|r| r.key.as_deref() == Some(key)),
            Rows::Theirs { .. } => None,
        }
    }

    /// Whether row `i` has a key.
    fn is_keyed(&self, i: usize) -> bool {
        self.ours(i).is_some_and(|r| r.key.is_some())
    }

    /// The most cells in a row.
    const fn columns(&self) -> usize {
        match self {
            Rows::Ours { columns, .. } | Rows::Theirs { columns, .. } => *columns,
        }
    }
}

/// ratatui's check, kept so the same tables panic at the same place.
fn ensure_percentages_less_than_100(widths: &[Constraint]) {
    for w in widths {
        if let Constraint::Percentage(p) = w {
            assert!(
                *p <= 100,
                "Percentages should be between 0 and 100 inclusively."
            );
        }
    }
}

impl<'a> Table<'a> {
    /// See ratatui's [`Table::new`](ratatui::widgets::Table::new).
    #[inline]
    pub fn new<R, C>(rows: R, widths: C) -> Self
    where
        R: IntoIterator,
        R::Item: Into<Row<'a>>,
        C: IntoIterator,
        C::Item: Into<Constraint>,
    {
        let widths: Vec<Constraint> = widths.into_iter().map(Into::into).collect();
        ensure_percentages_less_than_100(&widths);
        Table {
            rows: Rows::new(rows),
            widths,
            ..Table::default()
        }
    }

    crate::semantic::id_setter!(
        /// Sets an explicit, stable id: rows get `id/<key>` ([`Row::key`]) or else
        /// `id/<index>` (positional), the header row `id/header`, cells `<row id>/<n>`
        /// (the n-th cell of the row), and the widget takes the agent's `select`/`scroll`
        /// into its state — a keyed row's `select` lands on that row wherever it is now.
    );

    /// See ratatui's [`Table::rows`](ratatui::widgets::Table::rows).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn rows<T>(mut self, rows: T) -> Self
    where
        T: IntoIterator,
        T::Item: Into<Row<'a>>,
    {
        self.rows = Rows::new(rows);
        self
    }

    /// See ratatui's [`Table::header`](ratatui::widgets::Table::header): its cells
    /// name the columns.
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn header(mut self, header: Row<'a>) -> Self {
        self.header = Some(header);
        self
    }

    crate::semantic::setters! { Table in ratatui::widgets;
        fn footer(footer: Row<'a>) => footer = Some(footer);
    }

    /// See ratatui's [`Table::widths`](ratatui::widgets::Table::widths).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn widths<I>(mut self, widths: I) -> Self
    where
        I: IntoIterator,
        I::Item: Into<Constraint>,
    {
        self.widths = widths.into_iter().map(Into::into).collect();
        ensure_percentages_less_than_100(&self.widths);
        self
    }

    /// See ratatui's [`Table::column_spacing`](ratatui::widgets::Table::column_spacing).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn column_spacing(mut self, spacing: u16) -> Self {
        self.inner = self.inner.column_spacing(spacing);
        self.column_spacing = spacing;
        self
    }

    crate::semantic::block_setter!(Table in ratatui::widgets => block, label);

    crate::semantic::setters! { Table in ratatui::widgets;
        fn style<S: Into<Style>>(style: S) => inner;
        fn row_highlight_style<S: Into<Style>>(style: S) => inner;
        fn column_highlight_style<S: Into<Style>>(style: S) => inner;
        fn cell_highlight_style<S: Into<Style>>(style: S) => inner;
    }

    /// See ratatui's [`Table::highlight_symbol`](ratatui::widgets::Table::highlight_symbol).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn highlight_symbol<T: Into<Text<'a>>>(mut self, highlight_symbol: T) -> Self {
        let symbol = highlight_symbol.into();
        self.highlight_symbol_width = symbol.width() as u16;
        self.inner = self.inner.highlight_symbol(symbol);
        self
    }

    /// See ratatui's [`Table::highlight_spacing`](ratatui::widgets::Table::highlight_spacing).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn highlight_spacing(mut self, value: HighlightSpacing) -> Self {
        self.inner = self.inner.highlight_spacing(value.clone());
        self.highlight_spacing = value;
        self
    }

    /// See ratatui's [`Table::flex`](ratatui::widgets::Table::flex).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn flex(mut self, flex: Flex) -> Self {
        self.inner = self.inner.flex(flex);
        self.flex = flex;
        self
    }

    fn column_count(&self) -> usize {
        std::iter::once(self.rows.columns())
            .chain(self.footer.iter().map(|r| r.cell_count))
            .chain(self.header.iter().map(|r| r.cell_count))
            .max()
            .unwrap_or_default()
    }

    /// ratatui's `Table::layout`: the header, rows and footer areas.
    fn layout(&self, area: Rect) -> (Rect, Rect) {
        let part = |row: Option<&Row<'_>>| {
            row.map_or((0, 0, 0), |r| (r.top_margin, r.height, r.bottom_margin))
        };
        let (ht, hh, hb) = part(self.header.as_ref());
        let (ft, fh, fb) = part(self.footer.as_ref());
        let areas = Layout::vertical([
            Constraint::Length(ht),
            Constraint::Length(hh),
            Constraint::Length(hb),
            Constraint::Min(0),
            Constraint::Length(ft),
            Constraint::Length(fh),
            Constraint::Length(fb),
        ])
        .split(area);
        (areas[1], areas[3])
    }

    /// ratatui's `Table::get_column_widths`: each column's x (relative) and width.
    fn columns(&self, max_width: u16, selected: bool, count: usize) -> Vec<(u16, u16)> {
        let selection_width = if match self.highlight_spacing {
            HighlightSpacing::Always => true,
            HighlightSpacing::WhenSelected => selected,
            HighlightSpacing::Never => false,
        } {
            self.highlight_symbol_width
        } else {
            0
        };
        let widths = if self.widths.is_empty() {
            vec![Constraint::Length(max_width / count.max(1) as u16); count]
        } else {
            self.widths.clone()
        };
        let [_, columns_area] =
            Layout::horizontal([Constraint::Length(selection_width), Constraint::Fill(0)])
                .areas(Rect::new(0, 0, max_width, 1));
        Layout::horizontal(widths)
            .flex(self.flex)
            .spacing(self.column_spacing)
            .split(columns_area)
            .iter()
            .map(|c| (c.x, c.width))
            .collect()
    }

    /// ratatui's `Table::visible_rows`, mirrored: `(first, end)` of the rows on screen.
    /// `shape` gives each row's height, top and bottom margin.
    fn visible(
        &self,
        state: &TableState,
        height_available: u16,
        shape: impl Fn(usize) -> (u16, u16, u16),
    ) -> (usize, usize) {
        let len = self.rows.len();
        let with_margin = |i: usize| {
            let (h, t, b) = shape(i);
            h.saturating_add(t).saturating_add(b)
        };
        let last_row = len.saturating_sub(1);
        let mut start = state.offset().min(last_row);
        if let Some(selected) = state.selected() {
            start = start.min(selected);
        }
        let mut end = start;
        let mut height = 0u16;
        for i in start..len {
            if height + shape(i).0 > height_available {
                break;
            }
            height += with_margin(i);
            end += 1;
        }
        if let Some(selected) = state.selected() {
            let selected = selected.min(last_row);
            while selected >= end {
                height = height.saturating_add(with_margin(end));
                end += 1;
                while height > height_available {
                    height = height.saturating_sub(with_margin(start));
                    start += 1;
                }
            }
        }
        if height < height_available && end < len {
            end += 1;
        }
        (start, end)
    }

    fn record(&self, area: Rect, state: &TableState) {
        let table_area = self.block.as_ref().map_or(area, |b| b.inner(area));
        let len = self.rows.len();
        let column_count = self.column_count();
        // ratatui clamps the selection before drawing; record what it will draw.
        let state = self.clamped(if table_area.is_empty() {
            TableState::default().with_offset(state.offset())
        } else {
            *state
        });
        let (header_area, rows_area) = self.layout(table_area);
        // Rows built with recording off keep their heights only when all share them;
        // otherwise which rows are on screen is unknown here, and not recorded.
        let laid_out = len == 0 || self.rows.shape(0).is_some();
        let shape = |i: usize| self.rows.shape(i).unwrap_or((1, 0, 0));
        let (first, end) = if len == 0 || table_area.is_empty() {
            (state.offset(), state.offset())
        } else {
            self.visible(&state, rows_area.height, shape)
        };
        let _table = taria::scope(|n| {
            n.role(Role::Table)
                .count(len)
                .actions([Action::Select, Action::Scroll])
                .bounds(area);
            if laid_out {
                n.scroll(first, len, end - first);
            }
            id_and_label(n, self.id, self.label.as_ref());
        });
        let columns = self.columns(table_area.width, state.selected().is_some(), column_count);
        if let Some(header) = &self.header {
            let _header = taria::scope(|n| {
                n.role(Role::Row).key("header").bounds(header_area);
            });
            let names = header.cells.ours();
            for (i, &(x, width)) in columns.iter().take(header.cell_count).enumerate() {
                taria::leaf(|n| {
                    n.role(Role::ColumnHeader)
                        .key(i)
                        .bounds(cell_bounds(header_area, x, width));
                    if let Some(cell) = names.and_then(|cells| cells.get(i)) {
                        n.label(FirstLine(&cell.content));
                    }
                });
            }
        }
        if !laid_out {
            return;
        }
        let mut y = 0u16;
        for i in first..end {
            let (height, top_margin, bottom_margin) = shape(i);
            let top = rows_area.y.saturating_add(y).saturating_add(top_margin);
            let drawn =
                Rect::new(rows_area.x, top, rows_area.width, height).intersection(rows_area);
            y = y
                .saturating_add(height)
                .saturating_add(top_margin)
                .saturating_add(bottom_margin);
            self.record_row(i, self.rows.ours(i), drawn, &state, &columns);
        }
    }

    /// Records row `i` (drawn in `row_area`) and its cells: no label and no cells
    /// when its text went straight to ratatui (built with recording off).
    fn record_row(
        &self,
        i: usize,
        row: Option<&Row<'_>>,
        row_area: Rect,
        state: &TableState,
        columns: &[(u16, u16)],
    ) {
        let len = self.rows.len();
        let selected = state.selected() == Some(i);
        let cells = row.and_then(|r| r.cells.ours());
        let _row = taria::scope(|n| {
            match row.and_then(|r| r.key.as_deref()) {
                Some(key) => n.key(key),
                None => n.position_key(i),
            };
            n.role(Role::Row)
                .selected(selected)
                .index(i)
                .count(len)
                .action(Action::Select)
                .bounds(row_area);
            if let Some(cell) = cells.and_then(<[_]>::first) {
                n.label(FirstLine(&cell.content));
            }
        });
        let Some(cells) = cells else {
            return;
        };
        let mut column = 0;
        for (c, cell) in cells.iter().enumerate() {
            let Some(&(x, mut width)) = columns.get(column) else {
                break;
            };
            if cell.column_span == 0 {
                continue;
            }
            let span = usize::from(cell.column_span);
            for &(_, w) in columns.iter().skip(column + 1).take(span - 1) {
                width = width + w + self.column_spacing;
            }
            let name = self
                .header
                .as_ref()
                .and_then(|h| h.cells.ours())
                .and_then(|cells| cells.get(column))
                .map(|h| FirstLine(&h.content));
            let cell_selected = state.selected_column().is_some_and(|s| {
                (column..column + span).contains(&s) && (selected || state.selected().is_none())
            });
            taria::leaf(|n| {
                n.role(Role::Cell)
                    .key(c)
                    .value(format_args!("{}", cell.content))
                    .selected(cell_selected)
                    .bounds(cell_bounds(row_area, x, width));
                match &name {
                    Some(name) => n.label(name),
                    None => n.label(FirstLine(&cell.content)),
                };
            });
            column += span;
        }
    }

    /// `state` with the selection clamped to the rows and columns there are, as
    /// ratatui's render clamps it (and writes it back) before drawing.
    fn clamped(&self, mut state: TableState) -> TableState {
        let len = self.rows.len();
        let column_count = self.column_count();
        if state.selected().is_some_and(|s| s >= len) {
            state.select(Some(len.saturating_sub(1)));
        }
        if len == 0 {
            state.select(None);
        }
        if state.selected_column().is_some_and(|c| c >= column_count) {
            state.select_column(Some(column_count.saturating_sub(1)));
        }
        if column_count == 0 {
            state.select_column(None);
        }
        state
    }

    /// Which of `rows` (the table's, not empty) ratatui must be handed to draw
    /// `state` into `table_area` (not empty) exactly as it draws all of them.
    ///
    /// ratatui draws rows `start..end` (`visible`), found by starting at
    /// `min(offset, selected)` and, if the selected row is below the rows that fit,
    /// scrolling down to it. Handed rows `start..end` with offset 0 and the selection
    /// moved up by `start`, it finds `0..end - start`: the same rows fit, the
    /// selection is among them, and the partial row at the bottom is there if it was
    /// before. If ratatui scrolls past the selected row (a selected row taller than
    /// the rows area), the rows handed over start where ratatui starts instead,
    /// `min(offset, selected)`, which gives the same result by the same steps.
    ///
    /// ratatui also counts the columns of every row to clamp the selected column and,
    /// without widths, to split the width between them. When the rows handed over
    /// have fewer columns than the table and that count matters, an empty row with
    /// the table's column count goes first, above the offset: ratatui never draws it.
    fn window(&self, rows: &[Row<'_>], table_area: Rect, state: &TableState) -> Window {
        let drawn = self.clamped(*state);
        let (_, rows_area) = self.layout(table_area);
        let (start, end) = self.visible(&drawn, rows_area.height, |i| rows[i].shape());
        let offset = drawn.offset().min(rows.len().saturating_sub(1));
        let (first, offset) = match drawn.selected() {
            Some(selected) if selected < start => {
                let first = offset.min(selected);
                (first, offset - first)
            }
            _ => (start, 0),
        };
        // At least one row, so ratatui finds rows and sets the offset.
        let end = end.max(first + 1);
        let columns = self.column_count();
        let handed = rows[first..end]
            .iter()
            .chain(&self.header)
            .chain(&self.footer)
            .map(|r| r.cell_count)
            .max()
            .unwrap_or_default();
        let pad = handed < columns
            && (self.widths.is_empty() || drawn.selected_column().is_some_and(|c| c >= handed));
        let above = usize::from(pad);
        let mut handed_state = drawn.with_offset(offset + above);
        // Not `select`: `select(None)` also resets the offset.
        *handed_state.selected_mut() = drawn.selected().map(|s| s - first + above);
        Window {
            first,
            end,
            pad: pad.then_some(columns),
            state: handed_state,
            drawn,
        }
    }

    /// Renders with ratatui's table, writing back into `state` what ratatui writes.
    fn draw(mut self, area: Rect, buf: &mut Buffer, state: &mut TableState) {
        let table_area = self.block.as_ref().map_or(area, |b| b.inner(area));
        let window = match &self.rows {
            Rows::Ours { rows, .. } if !rows.is_empty() && !table_area.is_empty() => {
                Some(self.window(rows, table_area, state))
            }
            _ => None,
        };
        let rows = match (std::mem::take(&mut self.rows), &window) {
            (Rows::Theirs { rows, .. }, _) => rows,
            (Rows::Ours { rows, .. }, Some(window)) => window.rows(rows),
            // No rows, or an empty table area: ratatui returns before looking at them.
            (Rows::Ours { .. }, None) => Vec::new(),
        };
        let table = self.into_ratatui(rows);
        let Some(window) = window else {
            StatefulWidget::render(&table, area, buf, state);
            return;
        };
        let mut handed = window.state;
        StatefulWidget::render(&table, area, buf, &mut handed);
        *state = window.drawn;
        *state.offset_mut() = handed.offset() + window.first - usize::from(window.pad.is_some());
    }

    fn into_ratatui(self, rows: Vec<ratatui::widgets::Row<'a>>) -> ratatui::widgets::Table<'a> {
        let Table {
            inner,
            header,
            footer,
            widths,
            block,
            ..
        } = self;
        let mut table = inner.rows(rows).widths(widths);
        if let Some(header) = header {
            table = table.header(header.into_ratatui());
        }
        if let Some(footer) = footer {
            table = table.footer(footer.into_ratatui());
        }
        if let Some(block) = block {
            table = table.block(block);
        }
        table
    }
}

/// The rows of a table built while recording that ratatui is handed at render (see
/// [`Table::window`]).
#[derive(Debug)]
struct Window {
    /// Rows `first..end` are handed over, converted into ratatui's.
    first: usize,
    end: usize,
    /// An empty row of this many cells goes before them, when the column count
    /// would differ without it.
    pad: Option<usize>,
    /// The state ratatui draws the rows handed over with.
    state: TableState,
    /// The state ratatui writes back when drawing all rows, but for the offset.
    drawn: TableState,
}

impl Window {
    /// The rows handed to ratatui; the others are dropped, as ratatui drops its rows
    /// after drawing.
    fn rows<'a>(&self, rows: Vec<Row<'a>>) -> Vec<ratatui::widgets::Row<'a>> {
        let count = self.end - self.first;
        let mut handed = Vec::with_capacity(count + usize::from(self.pad.is_some()));
        if let Some(columns) = self.pad {
            handed.push(ratatui::widgets::Row::new(std::iter::repeat_n(
                ratatui::widgets::Cell::default(),
                columns,
            )));
        }
        handed.extend(
            rows.into_iter()
                .skip(self.first)
                .take(count)
                .map(Row::into_ratatui),
        );
        handed
    }
}

/// The row an agent's action means, or why it is gone (see [`crate::keyed_item`]).
type TargetRow = Result<Option<usize>, String>;

/// What the table does with an agent's action addressed to it or one of its rows;
/// `row` is the row it means (see [`crate::keyed_item`]).
pub(crate) fn apply_action(
    state: &mut TableState,
    rows: usize,
    row: TargetRow,
    inv: &Invocation<'_>,
) -> Outcome {
    match inv.action() {
        "select" => match row {
            Err(gone) => Outcome::Rejected(gone),
            Ok(Some(r)) if r >= rows => {
                Outcome::Rejected(format!("no row {r}: the table has {rows}"))
            }
            Ok(Some(r)) => {
                state.select(Some(r));
                Outcome::Handled
            }
            Ok(None) => Outcome::Rejected("select one of the table's rows".into()),
        },
        "scroll" => {
            let (direction, amount) = inv.scroll().unwrap_or((ScrollDirection::Down, 1));
            let amount = u16::try_from(amount).unwrap_or(u16::MAX);
            match direction {
                ScrollDirection::Down | ScrollDirection::Up if state.selected().is_none() => {
                    let down = direction == ScrollDirection::Down;
                    crate::scroll_offset(state.offset_mut(), down, amount, rows);
                }
                ScrollDirection::Down => state.scroll_down_by(amount),
                ScrollDirection::Up => state.scroll_up_by(amount),
                ScrollDirection::Right => state.scroll_right_by(amount),
                ScrollDirection::Left => state.scroll_left_by(amount),
            }
            Outcome::Handled
        }
        _ => Outcome::NotHandled,
    }
}

/// Drawn with `Widget` (no state) the table takes no agent actions: there is
/// nothing for them to change.
impl Semantic for Table<'_> {
    type State = TableState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn apply(&self, state: &mut TableState, inv: &Invocation<'_>) -> Outcome {
        let row = crate::keyed_item(
            inv,
            self.id.unwrap_or_default(),
            |key| self.rows.position_of_key(key),
            |i| self.rows.is_keyed(i),
            ("row", "table"),
        );
        apply_action(state, self.rows.len(), row, inv)
    }

    fn describe(&self, area: Rect, state: &TableState) {
        self.record(area, state);
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut TableState) {
        self.draw(area, buf, state);
    }
}

crate::semantic::widget_impls!(Table<'_>: Widget, StatefulWidget<TableState>);

crate::semantic::styled!(Table<'_>: inner);

impl<'a, Item: Into<Row<'a>>> FromIterator<Item> for Table<'a> {
    fn from_iter<I: IntoIterator<Item = Item>>(rows: I) -> Self {
        Table::new(rows, Vec::<Constraint>::new())
    }
}

/// The cells of `row` from column offset `x`, `width` wide (clipped to the row).
fn cell_bounds(row: Rect, x: u16, width: u16) -> Rect {
    Rect::new(row.x.saturating_add(x), row.y, width, row.height).intersection(row)
}

#[cfg(test)]
mod tests {
    use ratatui::style::Color;
    use taria::testing::Harness;

    use super::*;
    use crate::Block;
    use ratatui::widgets::Widget;

    thread_local! {
        /// Rows converted into ratatui's (`Row::into_ratatui`) on this thread.
        pub(super) static CONVERTED: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
    }

    const WIDTHS: [Constraint; 3] = [
        Constraint::Length(4),
        Constraint::Percentage(40),
        Constraint::Min(2),
    ];

    fn row(i: usize) -> [String; 3] {
        [format!("r{i}"), format!("name {i}"), format!("{}", i * 7)]
    }

    fn ours(n: usize) -> Table<'static> {
        Table::new(
            (0..n).map(|i| {
                let r = Row::new(row(i));
                if i % 3 == 0 {
                    r.height(2).bottom_margin(1)
                } else {
                    r
                }
            }),
            WIDTHS,
        )
        .header(Row::new(["Id", "Name", "Score"]).bottom_margin(1))
        .footer(Row::new(vec![Cell::new("total").column_span(2)]))
        .block(Block::bordered().title("Scores"))
        .highlight_symbol(">>")
        .row_highlight_style(Color::Red)
        .column_highlight_style(Color::Blue)
        .cell_highlight_style(Color::Green)
        .column_spacing(2)
        .id("t")
    }

    fn theirs(n: usize) -> ratatui::widgets::Table<'static> {
        use ratatui::widgets::{Cell, Row};
        ratatui::widgets::Table::new(
            (0..n).map(|i| {
                let r = Row::new(row(i));
                if i % 3 == 0 {
                    r.height(2).bottom_margin(1)
                } else {
                    r
                }
            }),
            WIDTHS,
        )
        .header(Row::new(["Id", "Name", "Score"]).bottom_margin(1))
        .footer(Row::new(vec![Cell::new("total").column_span(2)]))
        .block(ratatui::widgets::Block::bordered().title("Scores"))
        .highlight_symbol(">>")
        .row_highlight_style(Color::Red)
        .column_highlight_style(Color::Blue)
        .cell_highlight_style(Color::Green)
        .column_spacing(2)
    }

    fn states() -> Vec<TableState> {
        let mut states = vec![];
        for selected in [None, Some(0), Some(5), Some(11), Some(99)] {
            for column in [None, Some(1), Some(7)] {
                for offset in [0, 4, 50] {
                    states.push(
                        TableState::default()
                            .with_selected(selected)
                            .with_selected_column(column)
                            .with_offset(offset),
                    );
                }
            }
        }
        states
    }

    #[test]
    fn draws_what_ratatui_draws() {
        let area = Rect::new(0, 0, 30, 12);
        for n in [0, 3, 12] {
            for state in states() {
                let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
                let (mut sa, mut sb) = (state, state);
                StatefulWidget::render(ours(n), area, &mut a, &mut sa);
                StatefulWidget::render(theirs(n), area, &mut b, &mut sb);
                assert_eq!(a, b);
                assert_eq!(sa, sb);
            }
        }
        let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
        Widget::render(ours(4), area, &mut a);
        Widget::render(theirs(4), area, &mut b);
        assert_eq!(a, b);
    }

    #[test]
    fn records_the_rows_ratatui_shows() {
        let area = Rect::new(0, 0, 30, 12);
        for state in states() {
            let mut drawn = state;
            let mut harness = Harness::new(area.width, area.height);
            let tree = harness.render(|frame| {
                frame.render_stateful_widget(ours(12), area, &mut drawn);
            });
            let table = tree.get("t").expect("the table");
            assert_eq!(table.label.as_deref(), Some("Scores"));
            let scroll = table.scroll.expect("scroll");
            assert_eq!(scroll.offset as usize, drawn.offset(), "{state:?}");
            let rows: Vec<_> = table
                .children
                .iter()
                .filter(|c| c.role == Role::Row && c.position.index.is_some())
                .collect();
            assert_eq!(rows.len(), scroll.viewport as usize);
            assert_eq!(rows[0].position.index, Some(scroll.offset));
            for row in &rows {
                let i = row.position.index.expect("index") as usize;
                assert_eq!(row.state.selected, drawn.selected() == Some(i));
                assert_eq!(row.label.as_deref(), Some(format!("r{i}").as_str()));
                assert!(harness.screen_text()[row.bounds.y as usize].contains(&format!("r{i}")));
            }
        }
    }

    #[test]
    fn a_row_with_a_key_is_named_by_it_and_stable_one_without_by_its_index() {
        let mut harness = Harness::new(20, 4);
        let tree = harness.render(|frame| {
            let rows = [
                Row::new(["init", "1"]).key("pid-1"),
                Row::new(["sshd", "812"]),
            ];
            let table = Table::new(rows, [Constraint::Length(6); 2]).id("procs");
            frame.render_stateful_widget(table, frame.area(), &mut TableState::default());
        });
        let keyed = tree.get("procs/pid-1").expect("the keyed row");
        assert!(keyed.stable);
        assert_eq!(keyed.position.index, Some(0));
        let positional = tree.get("procs/1").expect("the row named by its index");
        assert!(!positional.stable);
        assert_eq!(positional.label.as_deref(), Some("sshd"));
        // Cells are inert parts of their row.
        assert!(positional.children.iter().all(|c| c.actions.is_empty()));
        assert!(tree.outline().contains("- row [id=procs/1 positional]"));
    }

    /// An app whose table rows are keyed by name, for the agent's `select`.
    struct Names {
        names: Vec<&'static str>,
        state: TableState,
    }

    impl taria::Actions for Names {
        fn handle_action(&mut self, _: &Invocation<'_>) -> Outcome {
            Outcome::NotHandled
        }
    }

    fn draw_names(frame: &mut ratatui::Frame<'_>, app: &mut Names) {
        let rows = app.names.iter().map(|n| Row::new([*n]).key(*n));
        let table = Table::new(rows, [Constraint::Length(6)]).id("t");
        frame.render_stateful_widget(table, frame.area(), &mut app.state);
    }

    #[test]
    fn an_agent_selects_a_keyed_row_where_it_is_now_not_where_it_was() {
        let app = Names {
            names: vec!["a", "b", "c"],
            state: TableState::default(),
        };
        let mut h = taria::testing::AppHarness::new(app, 10, 4, draw_names);
        // The data reorders after the agent read the tree: `c` moves from 2 to 1.
        h.app_mut().names = vec!["b", "c", "a"];
        h.act("t/c", "select").unwrap();
        assert_eq!(h.app().state.selected(), Some(1));
        assert!(h.node("t/c").state.selected);
        // A keyed row that is gone is refused, not mistaken for what is there now.
        h.app_mut().names = vec!["b", "a"];
        let gone = h.act("t/a", "select");
        assert!(gone.is_ok(), "`a` is still there, at 1: {gone:?}");
        assert_eq!(h.app().state.selected(), Some(1));
        h.app_mut().names = vec!["b", "c"];
        let error = h.act("t/a", "select").unwrap_err();
        assert_eq!(error.message, "the row `a` is no longer in the table");
        assert_eq!(h.app().state.selected(), Some(1), "unchanged");
    }

    #[test]
    fn cells_carry_their_column_and_text() {
        let mut state = TableState::default().with_selected_cell((1, 1));
        let mut harness = Harness::new(30, 12);
        let tree = harness.render(|frame| {
            frame.render_stateful_widget(ours(3), frame.area(), &mut state);
        });
        let cell = tree.get("t/1/1").expect("row 1, column 1");
        assert_eq!(cell.role, Role::Cell);
        assert_eq!(cell.label.as_deref(), Some("Name"));
        assert_eq!(cell.value, Some(taria::Value::Text("name 1".into())));
        assert!(cell.state.selected);
        assert!(!tree.get("t/1/0").expect("cell").state.selected);
        let names: Vec<_> = tree
            .get("t/header")
            .expect("header")
            .children
            .iter()
            .map(|h| h.label.clone().unwrap_or_default())
            .collect();
        assert_eq!(names, ["Id", "Name", "Score"]);
        let row: String = harness.screen_text()[cell.bounds.y as usize]
            .chars()
            .skip(cell.bounds.x as usize)
            .take(6)
            .collect();
        assert_eq!(row, "name 1");
    }

    /// Tables (and rows) built while recording hold readable rows; drawn later with
    /// recording off they draw the same.
    #[test]
    fn rows_built_while_recording_draw_what_ratatui_draws() {
        let area = Rect::new(0, 0, 30, 12);
        let mut recorder = taria::Recorder::new();
        for state in states() {
            let table = recorder.record(|| {
                assert!(taria::is_recording());
                ours(12)
            });
            assert!(matches!(table.rows, Rows::Ours { .. }));
            let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
            let (mut sa, mut sb) = (state, state);
            StatefulWidget::render(table, area, &mut a, &mut sa);
            StatefulWidget::render(theirs(12), area, &mut b, &mut sb);
            assert_eq!(a, b);
            assert_eq!(sa, sb);
        }
    }

    /// A table built with recording off and drawn in a recorded frame records what it
    /// still knows: the rows on screen (no labels, no cells) when all rows share a
    /// height, else the table alone.
    #[test]
    fn a_table_built_unrecorded_records_what_it_knows() {
        let uniform = Table::new((0..30).map(|i| Row::new(row(i))), WIDTHS)
            .header(Row::new(["Id", "Name", "Score"]))
            .id("u");
        assert!(matches!(uniform.rows, Rows::Theirs { shape: Some(_), .. }));
        let mixed = ours(30);
        assert!(matches!(mixed.rows, Rows::Theirs { shape: None, .. }));
        let mut state = TableState::default().with_selected(Some(20));
        let mut harness = Harness::new(30, 12);
        let tree = harness.render(|frame| {
            frame.render_stateful_widget(uniform, frame.area(), &mut state);
        });
        let table = tree.get("u").expect("table");
        assert_eq!(table.position.count, Some(30));
        let scroll = table.scroll.expect("scroll");
        assert_eq!(scroll.offset as usize, state.offset());
        let rows: Vec<_> = table
            .children
            .iter()
            .filter(|c| c.role == Role::Row && c.position.index.is_some())
            .collect();
        assert_eq!(rows.len(), scroll.viewport as usize);
        assert!(tree.get("u/20").expect("the selected row").state.selected);
        assert!(
            rows.iter()
                .all(|r| r.label.is_none() && r.children.is_empty())
        );
        assert_eq!(tree.get("u/header/1").expect("heading").label, None);
        let mut state = TableState::default();
        let tree = harness.render(|frame| {
            frame.render_stateful_widget(mixed, frame.area(), &mut state);
        });
        let table = tree.get("t").expect("table");
        assert_eq!(table.position.count, Some(30));
        assert_eq!(table.label.as_deref(), Some("Scores"));
        assert!(table.scroll.is_none());
        let ids: Vec<&str> = table.children.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["t/header"], "the header row, and no rows");
    }

    #[test]
    fn a_huge_table_records_only_its_visible_rows() {
        let rows: Vec<Row<'_>> = (0..100_000).map(|i| Row::new([i.to_string()])).collect();
        let mut state = TableState::default().with_selected(Some(77_777));
        let mut harness = Harness::new(20, 40);
        harness.render(|frame| {
            let table = Table::new(rows, [Constraint::Fill(1)]).id("big");
            frame.render_stateful_widget(table, frame.area(), &mut state);
        });
        let tree = harness.tree();
        let table = tree.get("big").expect("table");
        assert_eq!(table.position.count, Some(100_000));
        assert_eq!(table.children.len(), 40);
        assert!(
            tree.get("big/77777")
                .expect("the selected row")
                .state
                .selected
        );
    }

    /// One row of [`mixed`]: height, top and bottom margin, cells, first cell's span,
    /// styled.
    type Spec = (u16, u16, u16, usize, u16, bool);

    /// `n` rows of every shape: heights 0 to 3, margins, 1 to 4 cells (row 2, and
    /// the last row, 6), some spanning two columns, some styled. Deterministic.
    fn mixed(n: usize) -> Vec<Spec> {
        let mut seed = 0x2545_f491_u64;
        (0..n)
            .map(|i| {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                let r = |k: u64, m: u64| ((seed >> (16 + 8 * k)) % m) as u16;
                let height = [1, 1, 1, 2, 0, 3][usize::from(r(0, 6))];
                let cells = if i == 2 || i + 1 == n {
                    6
                } else {
                    1 + usize::from(r(3, 4))
                };
                (
                    height,
                    r(1, 3) / 2,
                    r(2, 5) / 3,
                    cells,
                    1 + r(4, 4) / 3,
                    r(5, 3) == 0,
                )
            })
            .collect()
    }

    /// Our table (built while recording, so its rows are readable) and ratatui's, of
    /// `spec`'s rows, with a header, a footer and a block; five widths or none.
    fn pair(
        spec: &[Spec],
        widths: bool,
        spacing: &HighlightSpacing,
    ) -> (Table<'static>, ratatui::widgets::Table<'static>) {
        let cells = |i: usize, &(_, _, _, n, span, _): &Spec| {
            (0..n).map(move |c| (format!("{i}.{c}"), if c == 0 { span } else { 1 }))
        };
        let widths = if widths {
            vec![
                Constraint::Length(3),
                Constraint::Min(2),
                Constraint::Length(4),
            ]
            .into_iter()
            .chain([Constraint::Percentage(20), Constraint::Fill(1)])
            .collect()
        } else {
            vec![]
        };
        let ours = taria::Recorder::new().record(|| {
            let rows = spec.iter().enumerate().map(|(i, s @ &(h, t, b, ..))| {
                let row = Row::new(
                    cells(i, s)
                        .map(|(text, span)| Cell::new(text).column_span(span).style(Color::Cyan)),
                )
                .height(h)
                .top_margin(t)
                .bottom_margin(b);
                if s.5 { row.style(Color::Yellow) } else { row }
            });
            Table::new(rows, widths.clone())
                .header(Row::new(["A", "B", "C"]).bottom_margin(1))
                .footer(Row::new(["sum"]))
                .block(Block::bordered().title("T"))
                .highlight_symbol(">>")
                .highlight_spacing(spacing.clone())
                .row_highlight_style(Color::Red)
                .column_highlight_style(Color::Blue)
                .cell_highlight_style(Color::Green)
                .id("m")
        });
        assert!(matches!(ours.rows, Rows::Ours { .. }));
        let rows = spec.iter().enumerate().map(|(i, s @ &(h, t, b, ..))| {
            use ratatui::widgets::{Cell, Row};
            let row = Row::new(
                cells(i, s)
                    .map(|(text, span)| Cell::new(text).column_span(span).style(Color::Cyan)),
            )
            .height(h)
            .top_margin(t)
            .bottom_margin(b);
            if s.5 { row.style(Color::Yellow) } else { row }
        });
        let theirs = ratatui::widgets::Table::new(rows, widths)
            .header(ratatui::widgets::Row::new(["A", "B", "C"]).bottom_margin(1))
            .footer(ratatui::widgets::Row::new(["sum"]))
            .block(ratatui::widgets::Block::bordered().title("T"))
            .highlight_symbol(">>")
            .highlight_spacing(spacing.clone())
            .row_highlight_style(Color::Red)
            .column_highlight_style(Color::Blue)
            .cell_highlight_style(Color::Green);
        (ours, theirs)
    }

    /// A table built while recording hands ratatui only the rows it draws; whatever
    /// the rows' shapes, the area, the selection and the offset, the pixels and the
    /// state written back are ratatui's, frame after frame, and the rows recorded
    /// start at the offset ratatui scrolled to.
    #[test]
    fn only_the_rows_on_screen_go_to_ratatui_and_it_draws_the_same() {
        let spacings = [
            HighlightSpacing::Always,
            HighlightSpacing::WhenSelected,
            HighlightSpacing::Never,
        ];
        let mut recorder = taria::Recorder::new();
        // Cases whose recorded rows' start was compared (an area too small for any
        // row records none).
        let mut compared_offsets = 0;
        for n in [1, 6, 40] {
            let spec = mixed(n);
            for (widths, spacing) in [false, true]
                .into_iter()
                .flat_map(|w| spacings.iter().map(move |s| (w, s)))
            {
                for height in 0..=10 {
                    let area = Rect::new(0, 0, 30, height);
                    let (ours, theirs) = pair(&spec, widths, spacing);
                    let (mut a, mut b) = (Buffer::empty(area), Buffer::empty(area));
                    Widget::render(ours, area, &mut a);
                    Widget::render(theirs, area, &mut b);
                    assert_eq!(
                        a, b,
                        "{n} rows, widths {widths}, {spacing:?}, height {height}"
                    );
                    for selected in [None, Some(0), Some(n / 2), Some(n - 1), Some(n + 3)] {
                        for offset in [0, n / 2, n - 1, n + 5] {
                            for column in [None, Some(1), Some(4), Some(5), Some(9)] {
                                let state = TableState::default()
                                    .with_offset(offset)
                                    .with_selected(selected)
                                    .with_selected_column(column);
                                let (mut so, mut st) = (state, state);
                                for frame in 0..2 {
                                    let (ours, theirs) = pair(&spec, widths, spacing);
                                    recorder.record(|| {
                                        StatefulWidget::render(ours, area, &mut a, &mut so);
                                    });
                                    StatefulWidget::render(theirs, area, &mut b, &mut st);
                                    let case = format!(
                                        "{n} rows, widths {widths}, {spacing:?}, height {height}, \
                                         {state:?}, frame {frame}"
                                    );
                                    assert_eq!(a, b, "{case}");
                                    assert_eq!(so, st, "{case}");
                                    let tree = recorder.tree();
                                    let first = tree
                                        .get("m")
                                        .and_then(|t| {
                                            // The first data row (the header row has
                                            // no index).
                                            t.children.iter().find(|c| {
                                                c.role == Role::Row && c.position.index.is_some()
                                            })
                                        })
                                        .and_then(|r| r.position.index);
                                    if let Some(first) = first {
                                        assert_eq!(first as usize, st.offset(), "{case}");
                                        compared_offsets += 1;
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(
            compared_offsets > 1_000,
            "only {compared_offsets} cases compared"
        );
    }

    /// The two ways of handing ratatui fewer rows that the test above must reach:
    /// an empty row going first (the rows on screen have fewer columns than the
    /// table), and rows from `min(offset, selected)` (ratatui scrolls past a selected
    /// row taller than the rows area).
    #[test]
    fn windows_reach_the_padded_and_the_scrolled_past_cases() {
        let spec = mixed(40);
        let (table, _) = pair(&spec, false, &HighlightSpacing::WhenSelected);
        let Rows::Ours { rows, .. } = &table.rows else {
            panic!("rows built while recording");
        };
        // Rows 2 and 39 have 6 cells; rows 10.. on screen have fewer.
        let area = Rect::new(0, 0, 28, 6);
        let state = TableState::default().with_offset(10);
        let window = table.window(rows, area, &state);
        assert_eq!((window.first, window.pad), (10, Some(6)));
        assert_eq!(window.state.offset(), 1);
        // Three lines of rows area (8 less a block, a header with its margin and a
        // footer) and a selected row, below them, whose height and margins exceed it.
        let tall = Rect::new(0, 0, 28, 8);
        let tall_row = (5..40).find(|&i| {
            let (h, t, b, ..) = spec[i];
            h + t + b > 3
        });
        let selected = tall_row.expect("a row taller than three lines");
        let state = TableState::default().with_selected(Some(selected));
        let window = table.window(rows, tall, &state);
        assert!(window.first <= selected, "{window:?}");
        assert!(window.drawn.selected() == Some(selected));
    }

    /// A recorded frame of a table built while recording converts the rows ratatui
    /// draws (and the header), however many rows the table has.
    #[test]
    fn a_recorded_frame_converts_only_the_rows_on_screen() {
        let area = Rect::new(0, 0, 30, 41);
        let frames = |len: usize, column: Option<usize>| {
            let mut recorder = taria::Recorder::new();
            let mut state = TableState::default()
                .with_selected(Some(len / 2))
                .with_selected_column(column);
            let mut buf = Buffer::empty(area);
            let mut converted = vec![];
            for frame in 0..3 {
                let table = recorder.record(|| {
                    let rows = (0..len).map(|i| {
                        let row = Row::new(["a", "b", "c", "d"].into_iter().take(1 + i % 3));
                        if i % 5 == 0 { row.height(2) } else { row }
                    });
                    Table::new(rows, [Constraint::Length(4); 4])
                        .header(Row::new(["Id"]))
                        .id("big")
                });
                CONVERTED.with(|n| n.set(0));
                recorder.record(|| StatefulWidget::render(table, area, &mut buf, &mut state));
                converted.push(CONVERTED.with(std::cell::Cell::get));
                let tree = recorder.tree();
                let rows = &tree.get("big").expect("table").children[1..];
                assert_eq!(rows.len(), converted[frame] - 1);
                assert!(rows.iter().all(|r| r.role == Role::Row));
                state.scroll_down_by(25);
            }
            converted
        };
        for column in [None, Some(3)] {
            let small = frames(1_000, column);
            assert_eq!(frames(100_000, column), small);
            // About 40 rows on screen, a sixth of them two lines high.
            assert!(small.iter().all(|&n| (30..=42).contains(&n)), "{small:?}");
        }
    }

    #[test]
    fn select_and_scroll_change_the_state() {
        let mut state = TableState::default();
        let row = Invocation::new("t/3", "select").with_index(3);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&row)), &row),
            Outcome::Handled
        );
        assert_eq!(state.selected(), Some(3));
        // A keyed row is found by its index, whatever its key says.
        let keyed = Invocation::new("t/18877", "select").with_index(1);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&keyed)), &keyed),
            Outcome::Handled
        );
        assert_eq!(state.selected(), Some(1));
        // The table itself takes a row number as the value.
        let two = taria::Value::Number(2.0);
        let by_value = Invocation::new("t", "select").with_value(&two);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&by_value)), &by_value),
            Outcome::Handled
        );
        assert_eq!(state.selected(), Some(2));
        let bad = Invocation::new("t/9", "select").with_index(9);
        assert!(matches!(
            apply_action(&mut state, 5, Ok(crate::item_index(&bad)), &bad),
            Outcome::Rejected(_)
        ));
        let nothing = Invocation::new("t", "select");
        assert!(matches!(
            apply_action(&mut state, 5, Ok(crate::item_index(&nothing)), &nothing),
            Outcome::Rejected(_)
        ));
        state.select_column(Some(1));
        let right = Invocation::new("t", "scroll").with_scroll(ScrollDirection::Right, 1);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&right)), &right),
            Outcome::Handled
        );
        assert_eq!(state.selected_column(), Some(2));
        let down = Invocation::new("t", "scroll").with_scroll(ScrollDirection::Down, 2);
        assert_eq!(
            apply_action(&mut state, 5, Ok(crate::item_index(&down)), &down),
            Outcome::Handled
        );
        assert_eq!(state.selected(), Some(4));
    }
}
