//! The SVG writer: a background rectangle per run of a colour, text per run of
//! cells in one style (spaced to the cells' columns, a wide character centred on its
//! two), and box-drawing and block characters as shapes ([`super::glyphs`]).

use std::fmt::Write as _;

use ratatui::style::Modifier;

use super::Look;
use super::glyphs::{self, CellBox};
use super::length::Num;
use super::palette::{Rgb, resolve};
use crate::protocol::{CellStyle, ScreenStyles};

/// How one style paints: its colours with `reversed` and `dim` applied, and the
/// attributes drawn (bold, italic, underlined, crossed out, hidden).
struct Paint {
    fg: Rgb,
    bg: Rgb,
    modifiers: Modifier,
}

impl Paint {
    fn new(style: &CellStyle, look: &Look) -> Paint {
        let mut fg = style
            .fg
            .and_then(|c| resolve(c, &look.sixteen))
            .unwrap_or(look.foreground);
        let mut bg = style
            .bg
            .and_then(|c| resolve(c, &look.sixteen))
            .unwrap_or(look.background);
        let modifiers = style.modifiers;
        if modifiers.contains(Modifier::REVERSED) {
            std::mem::swap(&mut fg, &mut bg);
        }
        if modifiers.contains(Modifier::DIM) {
            fg = fg.over(bg, 0.6);
        }
        Paint { fg, bg, modifiers }
    }

    /// Whether the text is drawn (not `hidden`).
    fn visible(&self) -> bool {
        !self.modifiers.contains(Modifier::HIDDEN)
    }

    /// Whether spaces show: a line under or through them.
    fn marks_spaces(&self) -> bool {
        self.modifiers
            .intersects(Modifier::UNDERLINED | Modifier::CROSSED_OUT)
    }

    /// The `<text>` attributes after the position: colour, weight, style, lines.
    fn write_attributes(&self, out: &mut String) {
        let _ = write!(out, r#" fill="{}""#, self.fg);
        if self.modifiers.contains(Modifier::BOLD) {
            out.push_str(r#" font-weight="bold""#);
        }
        if self.modifiers.contains(Modifier::ITALIC) {
            out.push_str(r#" font-style="italic""#);
        }
        match (
            self.modifiers.contains(Modifier::UNDERLINED),
            self.modifiers.contains(Modifier::CROSSED_OUT),
        ) {
            (true, true) => out.push_str(r#" text-decoration="underline line-through""#),
            (true, false) => out.push_str(r#" text-decoration="underline""#),
            (false, true) => out.push_str(r#" text-decoration="line-through""#),
            (false, false) => {}
        }
    }
}

/// Writes `text` escaped for XML: markup characters as entities, and characters
/// XML cannot hold (controls, U+FFFE, U+FFFF) as U+FFFD.
fn escape(text: &str, out: &mut String) {
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' => out.push(' '),
            c if c < ' ' || c == '\u{7f}' || c == '\u{fffe}' || c == '\u{ffff}' => {
                out.push('\u{fffd}');
            }
            c => out.push(c),
        }
    }
}

/// The picture of `screen` as SVG (see [`super::svg`]).
pub(super) fn write(screen: &ScreenStyles, look: &Look) -> String {
    let cols = screen
        .rows
        .iter()
        .map(|row| row.iter().map(|run| run.columns).sum::<u16>())
        .max()
        .unwrap_or(0);
    let (cw, ch) = (f32::from(look.cell_width), f32::from(look.cell_height));
    let width = f32::from(cols) * cw;
    let rows = u16::try_from(screen.rows.len()).unwrap_or(u16::MAX);
    let height = f32::from(rows) * ch;
    let mut out = String::with_capacity(64 * usize::from(rows).max(1) * 4);
    let _ = write!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" font-family="{font}" font-size="{size}">"#,
        w = Num(width),
        h = Num(height),
        font = look.font_family,
        size = Num(look.font_size),
    );
    let _ = write!(
        out,
        r#"<rect width="{}" height="{}" fill="{}"/>"#,
        Num(width),
        Num(height),
        look.background
    );
    let paints: Vec<Paint> = screen.styles.iter().map(|s| Paint::new(s, look)).collect();
    let default_paint = Paint::new(&CellStyle::default(), look);
    let paint_of = |index: u32| {
        usize::try_from(index)
            .ok()
            .and_then(|i| paints.get(i))
            .unwrap_or(&default_paint)
    };
    // The text's baseline in its cell: the font's line (ascent 0.928 em, descent
    // 0.236 em, DejaVu Sans Mono's) centred in the cell's height.
    let baseline = (ch - 1.164 * look.font_size) / 2.0 + 0.928 * look.font_size;

    // Backgrounds first, so no text is painted over.
    backgrounds(&mut out, screen, look, &paint_of);

    // Then the cells: shapes for box drawing and blocks, text for the rest.
    for (y, row) in (0u16..).zip(&screen.rows) {
        let top = f32::from(y) * ch;
        let mut column = 0u16;
        for run in row {
            let paint = paint_of(run.style);
            let first = column;
            column = column.saturating_add(run.columns);
            if !paint.visible() {
                continue;
            }
            let mut segment: Vec<(u16, &str)> = Vec::new();
            // Box-drawing or block cells waiting to be drawn: the character, the first
            // one's column and how many side by side.
            let mut shapes: Option<(char, u16, u16)> = None;
            for (offset, cell, width) in run.cells() {
                let at = first.saturating_add(offset);
                let mut chars = cell.chars();
                let drawn = match (chars.next(), chars.next()) {
                    (Some(c), None) if glyphs::is_drawn(c) => Some(c),
                    _ => None,
                };
                if drawn.is_none() || width > 1 {
                    draw_shapes(&mut out, look, shapes.take(), top, paint.fg);
                }
                if width > 1 {
                    // A wide character: its own text, centred on its columns.
                    text(&mut out, look, paint, &segment, top + baseline, false);
                    segment.clear();
                    text(&mut out, look, paint, &[(at, cell)], top + baseline, true);
                    continue;
                }
                let Some(c) = drawn else {
                    segment.push((at, cell));
                    continue;
                };
                text(&mut out, look, paint, &segment, top + baseline, false);
                segment.clear();
                shapes = match shapes {
                    Some((same, from, count)) if same == c => Some((c, from, count + 1)),
                    other => {
                        draw_shapes(&mut out, look, other, top, paint.fg);
                        Some((c, at, 1))
                    }
                };
            }
            draw_shapes(&mut out, look, shapes, top, paint.fg);
            text(&mut out, look, paint, &segment, top + baseline, false);
        }
    }
    out.push_str("</svg>\n");
    out
}

/// The backgrounds that are not the look's, one rectangle per stretch of a row in
/// one colour.
fn backgrounds<'p>(
    out: &mut String,
    screen: &ScreenStyles,
    look: &Look,
    paint_of: &dyn Fn(u32) -> &'p Paint,
) {
    let ch = f32::from(look.cell_height);
    out.push_str(r#"<g shape-rendering="crispEdges">"#);
    for (y, row) in (0u16..).zip(&screen.rows) {
        let top = f32::from(y) * ch;
        let mut pending: Option<(u16, u16, Rgb)> = None;
        let mut column = 0u16;
        for run in row {
            let bg = paint_of(run.style).bg;
            pending = match pending {
                Some((start, end, color)) if color == bg && end == column => {
                    Some((start, end + run.columns, color))
                }
                other => {
                    if let Some((start, end, color)) = other {
                        background(out, look, start, end, top, color);
                    }
                    Some((column, column + run.columns, bg))
                }
            };
            column = column.saturating_add(run.columns);
        }
        if let Some((start, end, color)) = pending {
            background(out, look, start, end, top, color);
        }
    }
    out.push_str("</g>");
}

/// Draws `count` cells of box-drawing or block character `c` from column `from`: a
/// straight horizontal line as one shape, anything else cell by cell.
fn draw_shapes(
    out: &mut String,
    look: &Look,
    shapes: Option<(char, u16, u16)>,
    top: f32,
    color: Rgb,
) {
    let Some((c, from, count)) = shapes else {
        return;
    };
    let (cw, ch) = (f32::from(look.cell_width), f32::from(look.cell_height));
    let cell = |column: u16| CellBox {
        x: f32::from(column) * cw,
        y: top,
        w: cw,
        h: ch,
    };
    if glyphs::draw_across(c, cell(from), count, color, out) {
        return;
    }
    for column in from..from.saturating_add(count) {
        glyphs::draw(c, cell(column), color, out);
    }
}

fn background(out: &mut String, look: &Look, start: u16, end: u16, top: f32, color: Rgb) {
    if color == look.background || end <= start {
        return;
    }
    let cw = f32::from(look.cell_width);
    let _ = write!(
        out,
        r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>"#,
        Num(f32::from(start) * cw),
        Num(top),
        Num(f32::from(end - start) * cw),
        Num(f32::from(look.cell_height)),
        color
    );
}

/// Writes the cells of `segment` (side by side, one style) as one `<text>`, spaces
/// at either end left out unless a line marks them.
fn text(
    out: &mut String,
    look: &Look,
    paint: &Paint,
    segment: &[(u16, &str)],
    baseline: f32,
    wide: bool,
) {
    let blank = |cell: &&(u16, &str)| cell.1.trim().is_empty();
    let (mut from, mut to) = (0, segment.len());
    if !paint.marks_spaces() {
        from = segment
            .iter()
            .position(|c| !blank(&c))
            .unwrap_or(segment.len());
        to = segment
            .iter()
            .rposition(|c| !blank(&c))
            .map_or(from, |i| i + 1);
    }
    let Some(cells) = segment.get(from..to).filter(|cells| !cells.is_empty()) else {
        return;
    };
    let cw = f32::from(look.cell_width);
    let first = cells[0].0;
    let columns = if wide {
        2
    } else {
        u16::try_from(cells.len()).unwrap_or(u16::MAX)
    };
    let span = f32::from(columns) * cw;
    if wide {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}" text-anchor="middle""#,
            Num(f32::from(first) * cw + span / 2.0),
            Num(baseline)
        );
    } else {
        let _ = write!(
            out,
            r#"<text x="{}" y="{}""#,
            Num(f32::from(first) * cw),
            Num(baseline)
        );
        if columns > 1 {
            let _ = write!(out, r#" textLength="{}""#, Num(span));
        }
    }
    paint.write_attributes(out);
    out.push_str(r#" xml:space="preserve">"#);
    for (_, cell) in cells {
        escape(cell, out);
    }
    out.push_str("</text>");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_characters_xml_cannot_hold_are_escaped() {
        let mut out = String::new();
        escape("<a & \"b\">\u{1b}[0m\u{ffff}", &mut out);
        assert_eq!(out, "&lt;a &amp; &quot;b&quot;&gt;\u{fffd}[0m\u{fffd}");
    }
}
