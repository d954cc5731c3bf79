//! [`Table`]: ratatui's [`Table`](ratatui::widgets::Table), recorded as a `table`
//! whose rows *on screen* are `row`s of `cell`s, with `select` and `scroll` taken by
//! the widget itself.

use std::borrow::Cow;

use ratatui::buffer::Buffer;
use ratatui::layout::{Constraint, Flex, Rect};
use ratatui::style::Style;
use ratatui::text::Text;
use taria::{Action, Invocation, Outcome, ScrollDirection};

use crate::semantic::SemanticWidget;

pub use ratatui::widgets::{HighlightSpacing, TableState};

mod cell;
mod layout;
mod record;
mod render;
mod row;
#[cfg(test)]
mod tests;

pub use cell::Cell;
pub use row::Row;

/// A table, drawn exactly like ratatui's `Table`.
///
/// Recorded as a `table` (label: its block's title; `count`: all rows; `scroll`: the
/// first row on screen, the row count, the rows on screen) holding a `row` `header`
/// of `column_header`s (the column names; with a column selected and no row, its
/// header is `selected` where the app styles that header cell apart from the others,
/// ratatui's column highlight leaving headers alone) and one `row` per row *on screen* (label:
/// its first cell; `selected`; `index` of `count`; it offers `select`) of `cell`s
/// (label: the column's name, none without a header; value: the text;
/// `selected` for the selected column or cell; they offer `select` where the table
/// has a column selection, see below). Only the
/// rows on screen are recorded, so a table of 100,000 rows records what its visible
/// rows cost.
///
/// Built while recording, the table keeps readable rows and, at render, converts
/// into ratatui's only the rows ratatui draws (it hands ratatui those, with the
/// offset and selection moved to match), so drawing it costs no more per row than
/// ratatui's table: the other rows are only dropped, as ratatui drops its own.
///
/// Built with recording off (`!taria::widget::is_recording()`, as in the draw closure of an
/// unrecorded frame), the table and its rows hold ratatui's rows, handed to ratatui
/// at render untouched. Drawn in a recorded frame after all, such a table records
/// its rows on screen without labels or cells if all rows share a height and
/// margins, else the `table` node alone.
///
/// **State route.** Rendered with
/// [`StatefulWidget`](ratatui::widgets::StatefulWidget) and an [`id`](Table::id), the
/// table takes `select` on a row (`TableState::select`) or a cell
/// (`TableState::select_cell`) and `scroll` (up/down moves the row selection like
/// `TableState::scroll_down_by`, left/right the column) — no app code. Cells offer
/// `select` only where the table has a column selection: its state has a column
/// selected, or it sets a [column](Table::column_highlight_style) or
/// [cell](Table::cell_highlight_style) highlight style; elsewhere they are inert.
///
/// # Examples
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
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
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
    /// Whether the table highlights a selected column or cell (a column or cell
    /// highlight style is set): its cells then offer `select`.
    highlights_cells: bool,
    /// Whether a selected column is highlighted down the table (a column highlight
    /// style is set): with no row selected, its cells are then drawn selected.
    highlights_columns: bool,
}

impl Default for Table<'_> {
    /// ratatui's defaults (a column spacing of 1).
    fn default() -> Self {
        Table {
            inner: ratatui::widgets::Table::default(),
            rows: Rows::default(),
            header: None,
            footer: None,
            widths: Vec::new(),
            block: None,
            label: None,
            column_spacing: 1,
            highlight_symbol_width: 0,
            highlight_spacing: HighlightSpacing::default(),
            flex: Flex::default(),
            id: None,
            highlights_cells: false,
            highlights_columns: false,
        }
    }
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
        if taria::widget::is_recording() {
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

    /// The most cells in a row.
    const fn columns(&self) -> usize {
        match self {
            Rows::Ours { columns, .. } | Rows::Theirs { columns, .. } => *columns,
        }
    }
}

/// Rows keyed by [`Row::key`] (known only for ours), the rest by index.
impl crate::Items for Rows<'_> {
    fn position_of_key(&self, key: &str) -> Option<usize> {
        match self {
            Rows::Ours { rows, .. } => rows.iter().position(|r| r.key.as_deref() == Some(key)),
            Rows::Theirs { .. } => None,
        }
    }

    fn is_keyed(&self, i: usize) -> bool {
        self.ours(i).is_some_and(|r| r.key.is_some())
    }

    fn count(&self) -> usize {
        self.len()
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
    }

    /// See ratatui's [`Table::column_highlight_style`](ratatui::widgets::Table::column_highlight_style).
    /// The table's cells then offer `select` (`TableState::select_cell`).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn column_highlight_style<S: Into<Style>>(mut self, style: S) -> Self {
        self.inner = self.inner.column_highlight_style(style);
        self.highlights_cells = true;
        self.highlights_columns = true;
        self
    }

    /// See ratatui's [`Table::cell_highlight_style`](ratatui::widgets::Table::cell_highlight_style).
    /// The table's cells then offer `select` (`TableState::select_cell`).
    #[inline]
    #[must_use = "method moves the value of self and returns the modified value"]
    pub fn cell_highlight_style<S: Into<Style>>(mut self, style: S) -> Self {
        self.inner = self.inner.cell_highlight_style(style);
        self.highlights_cells = true;
        self
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
}

impl Table<'_> {
    /// The `(row, column)` a cell's id `<table id>/<row>/<n>` names (its n-th cell,
    /// which starts at the column after the spans of the cells before it), its row
    /// found as [`crate::Items::named`] finds it; `None` for an id that is not a
    /// cell's (the table's, a row's, the header's); `Err` when that cell is not there
    /// now. An id the app did not draw ([`Invocation::is_undrawn`]) that names no row
    /// is `None` too: it names nothing, which the runtime answers.
    fn cell_of(&self, inv: &Invocation<'_>) -> Option<Result<(usize, usize), String>> {
        use crate::Items as _;
        let rest = inv
            .target()
            .strip_prefix(self.id?)
            .and_then(|rest| rest.strip_prefix('/'))?;
        // A row's id is one segment (a key's `/` is escaped), a cell's a number.
        let (row_part, cell_part) = rest.split_once('/')?;
        let n: usize = cell_part
            .parse()
            .ok()
            .filter(|n: &usize| n.to_string() == cell_part)?;
        if row_part == "header" {
            return None;
        }
        let len = self.rows.len();
        let Some(row) = self.rows.named(row_part) else {
            if inv.is_undrawn() {
                return None;
            }
            return Some(Err(match row_part.parse::<usize>() {
                Ok(row) if row >= len && row.to_string() == row_part => {
                    format!("no row {row}: the table has {len}")
                }
                _ => format!(
                    "the row `{}` is no longer in the table",
                    taria::builder::unescape_key(row_part)
                ),
            }));
        };
        let Some(cells) = self.rows.ours(row).and_then(|r| r.cells.ours()) else {
            return Some(Err(format!(
                "the cells of row {row} are not known (it was built with recording off)"
            )));
        };
        match cells.get(n) {
            Some(cell) if cell.column_span > 0 => {
                let column = cells[..n].iter().map(|c| usize::from(c.column_span)).sum();
                Some(Ok((row, column)))
            }
            _ => Some(Err(format!("row {row} has no cell {n}"))),
        }
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
    match inv.action().core() {
        Some(Action::Select) => match row {
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
        Some(Action::Scroll) => {
            let (direction, amount) = inv.scroll().unwrap_or((ScrollDirection::Down, 1));
            let amount = u16::try_from(amount).unwrap_or(u16::MAX);
            match direction {
                ScrollDirection::Down | ScrollDirection::Up if state.selected().is_none() => {
                    let down = direction == ScrollDirection::Down;
                    crate::scroll_offset(state.offset_mut(), down, amount, rows);
                }
                ScrollDirection::Down | ScrollDirection::Up => {
                    let down = direction == ScrollDirection::Down;
                    let selected = state.selected().unwrap_or_default();
                    match crate::scroll_selection(selected, (down, amount), rows, "row") {
                        Ok(next) => state.select(Some(next)),
                        Err(why) => return Outcome::Rejected(why),
                    }
                }
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
impl SemanticWidget for Table<'_> {
    type State = TableState;

    fn widget_id(&self) -> Option<&str> {
        self.id
    }

    fn fingerprint(state: &TableState) -> Option<u64> {
        let offset = state.selected().is_none().then(|| state.offset());
        Some(crate::semantic::fingerprint((
            state.selected(),
            state.selected_column(),
            offset,
        )))
    }

    fn apply(&self, state: &mut TableState, inv: &Invocation<'_>) -> Outcome {
        if inv.is(Action::Select)
            && let Some(cell) = self.cell_of(inv)
        {
            // Checked again for a cell off screen (no drawn node offered `select`).
            if !(self.highlights_cells || state.selected_column().is_some()) {
                return Outcome::Rejected(format!(
                    "`{}` does not offer `select`: the table has no column selection",
                    inv.target()
                ));
            }
            return match cell {
                Ok(cell) => {
                    state.select_cell(Some(cell));
                    Outcome::Handled
                }
                Err(gone) => Outcome::Rejected(gone),
            };
        }
        let id = self.id.unwrap_or_default();
        // An row off screen: `select` brings it into view, other actions wait for it.
        if let Some(found) = crate::undrawn_item(inv, id, &self.rows) {
            return crate::apply_undrawn(found, inv, "table", |row| state.select(Some(row)));
        }
        let row = crate::keyed_item(inv, id, &self.rows, ("row", "table"));
        apply_action(state, self.rows.len(), row, inv)
    }

    fn describe(&self, area: Rect, state: &TableState, offer: crate::semantic::Offer) {
        self.record(area, state, offer);
    }

    fn hand_over(self, area: Rect, buf: &mut Buffer, state: &mut TableState) {
        self.draw(area, buf, state);
    }
}

crate::semantic::widget_impls!(Table<'_>: Widget, StatefulWidget<TableState>);
crate::semantic::widget_impls!(Table<'_>: &Widget by clone);
crate::semantic::widget_impls!(Table<'_>: &StatefulWidget<TableState> by clone);

crate::semantic::styled!(Table<'_>: inner);

impl<'a, Item: Into<Row<'a>>> FromIterator<Item> for Table<'a> {
    fn from_iter<I: IntoIterator<Item = Item>>(rows: I) -> Self {
        Table::new(rows, Vec::<Constraint>::new())
    }
}
