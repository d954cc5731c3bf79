//! The screen's colours and text attributes, for a `get_screen` that asks for
//! `styles` (an additive field: an app of an earlier release answers without them):
//! each row as runs of cells that share a style, each style written once.

use std::collections::HashMap;

use ratatui::style::{Color, Modifier};
use serde::{Deserialize, Serialize};

/// The styles of a screen, row by row. `rows[y]` covers row `y`'s columns left to
/// right; each run names its style by its index in `styles`.
///
/// # Examples
///
/// ```
/// use taria_schema::protocol::{CellStyle, ScreenStyles};
/// use ratatui::style::{Color, Modifier};
///
/// let bold_red = CellStyle { fg: Some(Color::Red), bg: None, modifiers: Modifier::BOLD };
/// let screen = ScreenStyles::from_cells([
///     vec![("o", 1, bold_red), ("k", 1, bold_red), ("界", 2, CellStyle::default())],
/// ]);
/// assert_eq!(
///     serde_json::to_string(&screen).unwrap(),
///     r#"{"styles":[{"fg":"Red","modifiers":["bold"]},{}],"rows":[[["ok",2,0],["界",2,1]]]}"#
/// );
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScreenStyles {
    /// Every distinct style on the screen.
    pub styles: Vec<CellStyle>,
    /// Each row as runs, left to right.
    pub rows: Vec<Vec<StyledRun>>,
}

/// How a cell is drawn: its colours (`None`: the terminal's default) and attributes.
/// On the wire a colour is written as ratatui's `Color` displays it (`Red`,
/// `LightBlue`, `#FF8800`, `208` for an indexed colour); one that does not parse
/// reads as the default, and unknown attribute names are ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CellStyle {
    /// The text's colour.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "color")]
    pub fg: Option<Color>,
    /// The background.
    #[serde(default, skip_serializing_if = "Option::is_none", with = "color")]
    pub bg: Option<Color>,
    /// Bold, italic, reversed, …: ratatui's modifier names in lower case
    /// (`bold`, `dim`, `italic`, `underlined`, `slow_blink`, `rapid_blink`,
    /// `reversed`, `hidden`, `crossed_out`).
    #[serde(
        default,
        skip_serializing_if = "Modifier::is_empty",
        with = "modifiers"
    )]
    pub modifiers: Modifier,
}

/// Cells side by side in one style: `[text, columns, style]` on the wire. A run holds
/// either cells one column wide each, or one cell of another width (a wide character,
/// `columns` 2), so a reader can lay the text out column by column.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(from = "(String, u16, u32)", into = "(String, u16, u32)")]
pub struct StyledRun {
    /// The cells' text.
    pub text: String,
    /// How many columns the run covers.
    pub columns: u16,
    /// Its style: an index into [`ScreenStyles::styles`].
    pub style: u32,
}

impl From<(String, u16, u32)> for StyledRun {
    fn from((text, columns, style): (String, u16, u32)) -> StyledRun {
        StyledRun {
            text,
            columns,
            style,
        }
    }
}

impl StyledRun {
    /// The run's cells, left to right: each as its column from the run's start, its
    /// text (a character and the characters of no width after it) and the columns
    /// it covers (2 for a wide character).
    pub fn cells(&self) -> impl Iterator<Item = (u16, &str, u16)> + '_ {
        use unicode_width::UnicodeWidthChar as _;
        let text = self.text.as_str();
        // Where each cell starts: at every character with a width, but the first,
        // whose cell also takes any marks before it.
        let mut starts = text
            .char_indices()
            .filter(|&(at, c)| at > 0 && c.width().unwrap_or(0) > 0)
            .map(|(at, _)| at)
            .chain([text.len()])
            .peekable();
        let mut from = 0;
        let mut column: u16 = 0;
        std::iter::from_fn(move || {
            if from >= text.len() {
                return None;
            }
            let end = starts.next()?;
            let cell = &text[from..end];
            from = end;
            let width = cell
                .chars()
                .map(|c| u16::try_from(c.width().unwrap_or(0)).unwrap_or(1))
                .max()
                .unwrap_or(0);
            let at = column;
            column = column.saturating_add(width);
            Some((at, cell, width))
        })
    }
}

impl From<StyledRun> for (String, u16, u32) {
    fn from(run: StyledRun) -> (String, u16, u32) {
        (run.text, run.columns, run.style)
    }
}

impl ScreenStyles {
    /// The styles of a screen given cell by cell: each row's cells left to right,
    /// each as its text, the columns it covers and its style. Neighbouring cells one
    /// column wide in the same style become one run; an empty cell is written as a
    /// space.
    #[must_use]
    pub fn from_cells<'a, R, C>(rows: R) -> ScreenStyles
    where
        R: IntoIterator<Item = C>,
        C: IntoIterator<Item = (&'a str, u16, CellStyle)>,
    {
        let mut screen = ScreenStyles::default();
        let mut index: HashMap<CellStyle, u32> = HashMap::new();
        for cells in rows {
            let mut row: Vec<StyledRun> = Vec::new();
            // Whether the last run holds only cells one column wide.
            let mut narrow = false;
            for (text, columns, style) in cells {
                let style = *index.entry(style).or_insert_with(|| {
                    screen.styles.push(style);
                    u32::try_from(screen.styles.len() - 1).unwrap_or(u32::MAX)
                });
                let text = if text.is_empty() { " " } else { text };
                match row.last_mut() {
                    Some(last) if narrow && columns == 1 && last.style == style => {
                        last.text.push_str(text);
                        last.columns = last.columns.saturating_add(1);
                    }
                    _ => {
                        row.push(StyledRun {
                            text: text.to_owned(),
                            columns,
                            style,
                        });
                        narrow = columns == 1;
                    }
                }
            }
            screen.rows.push(row);
        }
        screen
    }
}

impl ScreenStyles {
    /// A screen known only by its text (`rows`, `cols` columns wide), in the
    /// terminal's default colours: a recording's screen, or an older app's.
    #[must_use]
    pub fn text_only<'a>(rows: impl IntoIterator<Item = &'a str>, cols: u16) -> ScreenStyles {
        ScreenStyles::from_cells(
            rows.into_iter()
                .map(|row| [(row, cols, CellStyle::default())]),
        )
    }

    /// The screen as a ratatui [`Buffer`](ratatui::buffer::Buffer) `width` columns wide, one row per row of
    /// runs: each cell with its text and style, a wide character in its first cell
    /// (the next left blank, as ratatui leaves it), a character of no width joined
    /// to the cell before it. What a test holds a tree against
    /// (`taria::testing::undrawn_text`, `taria-mcp audit`).
    #[must_use]
    pub fn to_buffer(&self, width: u16) -> ratatui::buffer::Buffer {
        let height = u16::try_from(self.rows.len()).unwrap_or(u16::MAX);
        let mut buffer =
            ratatui::buffer::Buffer::empty(ratatui::layout::Rect::new(0, 0, width, height));
        for (y, runs) in (0..height).zip(&self.rows) {
            let mut x: u16 = 0;
            for run in runs {
                let style = self
                    .styles
                    .get(run.style as usize)
                    .copied()
                    .unwrap_or_default();
                let ratatui_style = ratatui::style::Style {
                    fg: style.fg,
                    bg: style.bg,
                    add_modifier: style.modifiers,
                    ..ratatui::style::Style::default()
                };
                for (at, cell, _) in run.cells() {
                    if let Some(target) = buffer.cell_mut((x.saturating_add(at), y)) {
                        target.set_symbol(cell).set_style(ratatui_style);
                    }
                }
                // A run covers exactly its columns, whatever its text measured.
                x = x.saturating_add(run.columns);
            }
        }
        buffer
    }
}

/// A colour as ratatui displays it, `None` for the terminal's default.
mod color {
    use std::str::FromStr as _;

    use ratatui::style::Color;
    use serde::{Deserialize as _, Deserializer, Serializer};

    #[expect(
        clippy::ref_option,
        clippy::trivially_copy_pass_by_ref,
        reason = "serde's `with` hands the field by reference"
    )]
    pub(super) fn serialize<S: Serializer>(
        color: &Option<Color>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match color {
            Some(color) => serializer.collect_str(color),
            None => serializer.serialize_none(),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Color>, D::Error> {
        let text = Option::<String>::deserialize(deserializer)?;
        Ok(text
            .and_then(|text| Color::from_str(&text).ok())
            .filter(|color| *color != Color::Reset))
    }
}

/// Modifiers as a list of their names in lower case.
mod modifiers {
    use ratatui::style::Modifier;
    use serde::ser::SerializeSeq as _;
    use serde::{Deserialize as _, Deserializer, Serializer};

    #[expect(
        clippy::trivially_copy_pass_by_ref,
        reason = "serde's `with` hands the field by reference"
    )]
    pub(super) fn serialize<S: Serializer>(
        modifiers: &Modifier,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(None)?;
        for (name, _) in modifiers.iter_names() {
            seq.serialize_element(&name.to_ascii_lowercase())?;
        }
        seq.end()
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Modifier, D::Error> {
        let names = Vec::<String>::deserialize(deserializer)?;
        Ok(names
            .iter()
            .filter_map(|name| Modifier::from_name(&name.to_ascii_uppercase()))
            .fold(Modifier::empty(), |all, one| all | one))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_run_s_cells_are_its_characters_with_their_widths_and_marks() {
        let run = |text: &str| StyledRun {
            text: text.to_owned(),
            columns: 0,
            style: 0,
        };
        let cells = |text: &str| {
            run(text)
                .cells()
                .map(|(a, c, w)| (a, c.to_owned(), w))
                .collect::<Vec<_>>()
        };
        assert_eq!(cells("ab"), [(0, "a".into(), 1), (1, "b".into(), 1)]);
        assert_eq!(
            cells("e\u{301}x"),
            [(0, "e\u{301}".into(), 1), (1, "x".into(), 1)]
        );
        // A text-only row (one run for the whole row) with a wide character in it.
        assert_eq!(
            cells("a界b"),
            [(0, "a".into(), 1), (1, "界".into(), 2), (3, "b".into(), 1)]
        );
        assert_eq!(cells(""), []);
    }

    #[test]
    fn runs_split_at_a_new_style_and_around_a_wide_cell() {
        let plain = CellStyle::default();
        let blue = CellStyle {
            bg: Some(Color::Blue),
            ..plain
        };
        let screen = ScreenStyles::from_cells([
            vec![("a", 1, plain), ("b", 1, plain), ("c", 1, blue)],
            vec![("界", 2, plain), ("x", 1, plain), ("", 1, plain)],
        ]);
        let runs = |row: usize| -> Vec<(&str, u16, u32)> {
            screen.rows[row]
                .iter()
                .map(|r| (r.text.as_str(), r.columns, r.style))
                .collect()
        };
        assert_eq!(runs(0), [("ab", 2, 0), ("c", 1, 1)]);
        assert_eq!(runs(1), [("界", 2, 0), ("x ", 2, 0)]);
        assert_eq!(screen.styles, [plain, blue]);
    }

    #[test]
    fn styles_read_back_and_unknown_names_read_as_the_default() {
        let style = CellStyle {
            fg: Some(Color::Rgb(255, 136, 0)),
            bg: Some(Color::Indexed(208)),
            modifiers: Modifier::BOLD | Modifier::CROSSED_OUT,
        };
        let json = serde_json::to_string(&style).unwrap();
        assert_eq!(
            json,
            r##"{"fg":"#FF8800","bg":"208","modifiers":["bold","crossed_out"]}"##
        );
        assert_eq!(serde_json::from_str::<CellStyle>(&json).unwrap(), style);
        let newer: CellStyle = serde_json::from_str(
            r#"{"fg":"ultraviolet","bg":"Reset","modifiers":["bold","sparkle"],"glow":1}"#,
        )
        .unwrap();
        assert_eq!(
            newer,
            CellStyle {
                modifiers: Modifier::BOLD,
                ..CellStyle::default()
            }
        );
    }
}
