//! How a table hands over to ratatui: only the rows ratatui draws, converted, with
//! the offset and selection moved to match (the window).

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::widgets::{StatefulWidget, TableState};

use super::{Row, Rows, Table};

impl<'a> Table<'a> {
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
    pub(super) fn window(&self, rows: &[Row<'_>], table_area: Rect, state: &TableState) -> Window {
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
    pub(super) fn draw(mut self, area: Rect, buf: &mut Buffer, state: &mut TableState) {
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

    pub(super) fn into_ratatui(
        self,
        rows: Vec<ratatui::widgets::Row<'a>>,
    ) -> ratatui::widgets::Table<'a> {
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
pub(super) struct Window {
    /// Rows `first..end` are handed over, converted into ratatui's.
    pub(super) first: usize,
    pub(super) end: usize,
    /// An empty row of this many cells goes before them, when the column count
    /// would differ without it.
    pub(super) pad: Option<usize>,
    /// The state ratatui draws the rows handed over with.
    pub(super) state: TableState,
    /// The state ratatui writes back when drawing all rows, but for the offset.
    pub(super) drawn: TableState,
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
