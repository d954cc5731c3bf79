//! The screen as text: what the app sends in a `screen` message (`read_screen`), and
//! what a test reads from a drawn buffer; and its styles, when the bridge asks.

use ratatui::buffer::{Buffer, Cell};

use taria_schema::protocol::{CellStyle, ScreenStyles};

/// A buffer's text, one string per row; wide characters count once.
#[must_use]
pub fn screen_text(buffer: &Buffer) -> Vec<String> {
    let area = buffer.area;
    (area.top()..area.bottom())
        .map(|y| {
            let mut row = String::with_capacity(area.width as usize);
            let mut skip = 0;
            for x in area.left()..area.right() {
                if skip > 0 {
                    skip -= 1;
                    continue;
                }
                let symbol = buffer[(x, y)].symbol();
                row.push_str(symbol);
                skip = unicode_width(symbol).saturating_sub(1);
            }
            row
        })
        .collect()
}

/// A buffer's styles, laid out cell by cell as [`screen_text`] lays out its text
/// (a wide character is one cell covering its columns).
pub(crate) fn screen_styles(buffer: &Buffer) -> ScreenStyles {
    let area = buffer.area;
    ScreenStyles::from_cells((area.top()..area.bottom()).map(|y| {
        let mut x = area.left();
        std::iter::from_fn(move || {
            if x >= area.right() {
                return None;
            }
            let cell: &Cell = &buffer[(x, y)];
            let symbol = cell.symbol();
            let columns = unicode_width(symbol).clamp(1, usize::from(area.right() - x));
            x = x.saturating_add(u16::try_from(columns).unwrap_or(u16::MAX));
            let style = CellStyle {
                fg: Some(cell.fg).filter(|c| *c != ratatui::style::Color::Reset),
                bg: Some(cell.bg).filter(|c| *c != ratatui::style::Color::Reset),
                modifiers: cell.modifier,
            };
            Some((symbol, columns as u16, style))
        })
    }))
}

fn unicode_width(symbol: &str) -> usize {
    ratatui::text::Span::raw(symbol).width()
}
