//! ratatui's table layout, mirrored (ratatui keeps it private): the header and rows
//! areas, the columns, the rows on screen and the selection ratatui clamps.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::widgets::{HighlightSpacing, TableState};

use super::{Row, Table};

impl Table<'_> {
    pub(super) fn column_count(&self) -> usize {
        std::iter::once(self.rows.columns())
            .chain(self.footer.iter().map(|r| r.cell_count))
            .chain(self.header.iter().map(|r| r.cell_count))
            .max()
            .unwrap_or_default()
    }

    /// ratatui's `Table::layout`: the header, rows and footer areas.
    pub(super) fn layout(&self, area: Rect) -> (Rect, Rect) {
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
    pub(super) fn columns(&self, max_width: u16, selected: bool, count: usize) -> Vec<(u16, u16)> {
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
    pub(super) fn visible(
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

    /// `state` with the selection clamped to the rows and columns there are, as
    /// ratatui's render clamps it (and writes it back) before drawing.
    pub(super) fn clamped(&self, mut state: TableState) -> TableState {
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
}
