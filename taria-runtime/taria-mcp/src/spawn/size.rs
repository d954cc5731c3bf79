//! The pseudo-terminal's size in spawn mode ([`Size`]): its default and the widths
//! and heights it may have (a replay draws as wide and tall).

use taria_schema::recording::RecordedSize;

/// The pseudo-terminal's default size in spawn mode.
pub(crate) const DEFAULT_SIZE: Size = Size {
    cols: 120,
    rows: 40,
};
/// The widths a pseudo-terminal may have (the widest a replay draws too).
pub(crate) const COLS: std::ops::RangeInclusive<u16> = 10..=RecordedSize::MAX_WIDTH;
/// The heights a pseudo-terminal may have (the tallest a replay draws too).
pub(crate) const ROWS: std::ops::RangeInclusive<u16> = 5..=RecordedSize::MAX_HEIGHT;

/// Parses a `--cols` / `--rows` value within `range` (`COLS`, `ROWS`); the error is
/// the line to print.
pub(crate) fn dimension(
    name: &str,
    text: &str,
    range: &std::ops::RangeInclusive<u16>,
) -> Result<u16, String> {
    text.parse::<u16>()
        .ok()
        .filter(|n| range.contains(n))
        .ok_or_else(|| {
            format!(
                "{name} takes a whole number from {} to {}, not `{text}`",
                range.start(),
                range.end()
            )
        })
}

/// A terminal size in cells.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Size {
    /// Columns.
    pub(crate) cols: u16,
    /// Rows.
    pub(crate) rows: u16,
}
