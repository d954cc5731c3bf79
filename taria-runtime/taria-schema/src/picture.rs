//! Screens as pictures: the cells an app drew ([`ScreenStyles`], with their colours
//! and attributes) as SVG, and with the `png` feature as PNG.
//!
//! A picture is drawn from the cells, not from a terminal's output: each cell's text
//! in its colours, bold, italic, underlined, dim or reversed as the style says, a
//! wide character across its two columns, and box-drawing and block characters as
//! shapes that join across cells and rows with no gap. The sixteen named colours and
//! the default foreground and background come from a [`Look`].
//!
//! # Examples
//!
//! ```
//! use ratatui::style::{Color, Modifier};
//! use taria_schema::picture::{self, Look};
//! use taria_schema::protocol::{CellStyle, ScreenStyles};
//!
//! let title = CellStyle { fg: Some(Color::Yellow), bg: None, modifiers: Modifier::BOLD };
//! let screen = ScreenStyles::from_cells([
//!     vec![("┌", 1, CellStyle::default()), ("O", 1, title), ("K", 1, title), ("┐", 1, CellStyle::default())],
//! ]);
//! let svg = picture::svg(&screen, &Look::default());
//! assert!(svg.starts_with(r#"<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20""#));
//! assert!(svg.contains(r#"font-weight="bold" xml:space="preserve">OK</text>"#));
//! ```

mod glyphs;
mod length;
mod palette;
#[cfg(feature = "png")]
mod png;
mod svg;

pub use palette::{Rgb, Sixteen};
#[cfg(feature = "png")]
pub use png::{DEJAVU_SANS_MONO, DEJAVU_SANS_MONO_BOLD, Png, PngError, PngLimits, png};

use crate::protocol::ScreenStyles;

/// How a picture looks: the size of a cell and of the text, the font, and the
/// colours a style leaves to the terminal.
#[derive(Clone, Debug, PartialEq)]
pub struct Look {
    /// A cell's width in pixels.
    pub cell_width: u16,
    /// A cell's height in pixels.
    pub cell_height: u16,
    /// The text's size in pixels.
    pub font_size: f32,
    /// The SVG `font-family`: monospace fonts in order of preference. A PNG is drawn
    /// with the bundled `DejaVu Sans Mono` whatever this says.
    pub font_family: &'static str,
    /// The text's colour where a style names none (`Reset`).
    pub foreground: Rgb,
    /// The background where a style names none.
    pub background: Rgb,
    /// The sixteen named colours, `Black` to `White` (ANSI 0 to 15).
    pub sixteen: Sixteen,
}

impl Default for Look {
    /// Cells 10 × 20 pixels, text 16 pixels, light grey on near-black, VS Code's
    /// dark terminal colours.
    fn default() -> Look {
        Look {
            cell_width: 10,
            cell_height: 20,
            font_size: 16.0,
            font_family: "'DejaVu Sans Mono', 'Noto Sans Mono', 'Noto Sans Mono CJK JP', \
                          Menlo, Consolas, monospace",
            foreground: Rgb(0xcc, 0xcc, 0xcc),
            background: Rgb(0x1e, 0x1e, 0x1e),
            sixteen: [
                Rgb(0x00, 0x00, 0x00),
                Rgb(0xcd, 0x31, 0x31),
                Rgb(0x0d, 0xbc, 0x79),
                Rgb(0xe5, 0xe5, 0x10),
                Rgb(0x24, 0x72, 0xc8),
                Rgb(0xbc, 0x3f, 0xbc),
                Rgb(0x11, 0xa8, 0xcd),
                Rgb(0xe5, 0xe5, 0xe5),
                Rgb(0x66, 0x66, 0x66),
                Rgb(0xf1, 0x4c, 0x4c),
                Rgb(0x23, 0xd1, 0x8b),
                Rgb(0xf5, 0xf5, 0x43),
                Rgb(0x3b, 0x8e, 0xea),
                Rgb(0xd6, 0x70, 0xd6),
                Rgb(0x29, 0xb8, 0xdb),
                Rgb(0xff, 0xff, 0xff),
            ],
        }
    }
}

/// The picture of `screen` as an SVG document: `cell_width` × `cell_height` pixels
/// per cell, as wide as its widest row.
#[must_use]
pub fn svg(screen: &ScreenStyles, look: &Look) -> String {
    svg::write(screen, look)
}
