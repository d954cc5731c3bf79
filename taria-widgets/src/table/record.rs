//! What a table records: the `table` node, its header's `column_header`s, and the
//! `row`s on screen with their `cell`s.

use ratatui::layout::Rect;
use ratatui::widgets::TableState;
use taria::{Action, Role};

use super::{Row, Table};
use crate::semantic::{Offer, id_and_label};
use crate::text::{FirstLine, Trimmed};

impl Table<'_> {
    pub(super) fn record(&self, area: Rect, state: &TableState, offer: Offer) {
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
            n.role(Role::Table).count(len).bounds(area);
            if offer.takes() {
                n.actions([Action::Select, Action::Scroll]);
            }
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
            // With a column selected and no row, the app may mark the column by its
            // header (ratatui's column highlight leaves headers alone): a header cell
            // styled apart from all the others is where the screen shows it.
            let set_apart = |i: usize| {
                names.is_some_and(|cells| {
                    let look = |c: &super::Cell<'_>| (c.style, c.content.style);
                    cells.len() > 1
                        && cells.get(i).is_some_and(|cell| {
                            let mine = look(cell);
                            cells
                                .iter()
                                .enumerate()
                                .all(|(j, other)| j == i || look(other) != mine)
                        })
                })
            };
            let marked = state
                .selected_column()
                .filter(|&c| state.selected().is_none() && set_apart(c));
            for (i, &(x, width)) in columns.iter().take(header.cell_count).enumerate() {
                taria::leaf(|n| {
                    n.role(Role::ColumnHeader)
                        .key(i)
                        .selected(marked == Some(i))
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
            self.record_row(i, self.rows.ours(i), drawn, (&state, offer), &columns);
        }
    }

    /// Records row `i` (drawn in `row_area`) and its cells: no label and no cells
    /// when its text went straight to ratatui (built with recording off).
    pub(super) fn record_row(
        &self,
        i: usize,
        row: Option<&Row<'_>>,
        row_area: Rect,
        (state, offer): (&TableState, Offer),
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
                .bounds(row_area);
            if offer.selectable() {
                n.action(Action::Select);
            }
            // Named by its first text: a cell that starts with a blank line (or is
            // empty) does not make the row's label "".
            if let Some(line) = cells.and_then(first_text) {
                n.label(line);
            }
        });
        let Some(cells) = cells else {
            return;
        };
        // The table has a column selection: its cells are chosen with `select`, which
        // only the table performs.
        let selects_cells =
            offer.takes() && (self.highlights_cells || state.selected_column().is_some());
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
            // The selected cell; with no row selected, the column's cells where the
            // table highlights a column (else nothing marks them on screen).
            let cell_selected = state.selected_column().is_some_and(|s| {
                (column..column + span).contains(&s)
                    && (selected || (state.selected().is_none() && self.highlights_columns))
            });
            taria::leaf(|n| {
                n.role(Role::Cell)
                    .key(c)
                    // What the row shows of it: a row cut by the table's bottom, or
                    // lower than the cell's lines, shows only its first lines.
                    .value(format_args!(
                        "{}",
                        Trimmed(&cell.content, usize::from(row_area.height))
                    ))
                    .selected(cell_selected)
                    .bounds(cell_bounds(row_area, x, width));
                if selects_cells {
                    n.action(Action::Select);
                }
                // Named by its column; without a header its value says it all.
                if let Some(name) = &name {
                    n.label(name);
                }
            });
            column += span;
        }
    }
}

/// The cells of `row` from column offset `x`, `width` wide (clipped to the row).
fn cell_bounds(row: Rect, x: u16, width: u16) -> Rect {
    Rect::new(row.x.saturating_add(x), row.y, width, row.height).intersection(row)
}

/// The first line with text in it across `cells`, in order.
fn first_text<'t, 'a>(cells: &'t [super::Cell<'a>]) -> Option<&'t ratatui::text::Line<'a>> {
    cells
        .iter()
        .flat_map(|cell| cell.content.lines.iter())
        .find(|line| {
            line.spans
                .iter()
                .any(|span| !span.content.trim().is_empty())
        })
}
