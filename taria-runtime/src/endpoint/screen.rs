//! The screen as text: what the app sends in a `screen` message (`read_screen`), and
//! what a test reads from a drawn buffer.

use ratatui::buffer::Buffer;

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

fn unicode_width(symbol: &str) -> usize {
    ratatui::text::Span::raw(symbol).width()
}
