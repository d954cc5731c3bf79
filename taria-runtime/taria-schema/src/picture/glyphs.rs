//! Box-drawing and block characters drawn as shapes, edge to edge of their cell, so
//! that lines join across cells and rows with no gap (a font's glyphs for them are
//! often shorter than the line height a picture uses).

use std::fmt::Write as _;

use super::length::Num;
use super::palette::Rgb;

/// A cell's place in the picture, in pixels.
#[derive(Clone, Copy, Debug)]
pub(super) struct CellBox {
    pub(super) x: f32,
    pub(super) y: f32,
    pub(super) w: f32,
    pub(super) h: f32,
}

/// Draws `ch` in `cell` in `color` as shapes and says so, when it is a box-drawing
/// (U+2500–U+257F) or block (U+2580–U+259F) character; otherwise draws nothing.
pub(super) fn draw(ch: char, cell: CellBox, color: Rgb, out: &mut String) -> bool {
    let code = u32::from(ch);
    match code {
        0x2500..=0x257F => {
            let pen = Pen { cell, color, out };
            pen.box_drawing(code);
            true
        }
        0x2580..=0x259F => {
            let pen = Pen { cell, color, out };
            pen.block(code);
            true
        }
        _ => false,
    }
}

/// Draws `count` cells of `ch` side by side from `first` as one shape, when `ch` is
/// a straight horizontal line (─ ━ ═), and says so: a border is then a rectangle or
/// two, not two per cell.
pub(super) fn draw_across(
    ch: char,
    first: CellBox,
    count: u16,
    color: Rgb,
    out: &mut String,
) -> bool {
    if !matches!(ch, '─' | '━' | '═') {
        return false;
    }
    let mut pen = Pen {
        cell: first,
        color,
        out,
    };
    let (_, cy) = pen.centre();
    let (x0, x1) = (first.x, first.x + first.w * f32::from(count));
    let weight = arms(u32::from(ch))[RIGHT];
    if weight == Weight::Double {
        let (gap, light) = (pen.gap(), pen.light());
        for middle in [cy - gap, cy + gap] {
            let (lo, hi) = band(middle, light);
            pen.rect(x0, lo, x1, hi, None);
        }
    } else {
        let (lo, hi) = band(cy, pen.thickness(weight));
        pen.rect(x0, lo, x1, hi, None);
    }
    true
}

/// Whether `ch` is drawn as shapes (see [`draw`]).
pub(super) fn is_drawn(ch: char) -> bool {
    matches!(u32::from(ch), 0x2500..=0x259F)
}

/// The four arms of U+2500–U+257F, two bits each (up, right, down, left from the
/// high bits): 0 none, 1 light, 2 heavy, 3 double. Read from the characters' Unicode
/// names (`BOX DRAWINGS UP HEAVY AND RIGHT DOWN LIGHT`); the diagonals have none.
const ARMS: [u8; 0x80] = [
    0x11, 0x22, 0x44, 0x88, 0x11, 0x22, 0x44, 0x88, // U+2500
    0x11, 0x22, 0x44, 0x88, 0x14, 0x24, 0x18, 0x28, // U+2508
    0x05, 0x06, 0x09, 0x0a, 0x50, 0x60, 0x90, 0xa0, // U+2510
    0x41, 0x42, 0x81, 0x82, 0x54, 0x64, 0x94, 0x58, // U+2518
    0x98, 0xa4, 0x68, 0xa8, 0x45, 0x46, 0x85, 0x49, // U+2520
    0x89, 0x86, 0x4a, 0x8a, 0x15, 0x16, 0x25, 0x26, // U+2528
    0x19, 0x1a, 0x29, 0x2a, 0x51, 0x52, 0x61, 0x62, // U+2530
    0x91, 0x92, 0xa1, 0xa2, 0x55, 0x56, 0x65, 0x66, // U+2538
    0x95, 0x59, 0x99, 0x96, 0xa5, 0x5a, 0x69, 0xa6, // U+2540
    0x6a, 0x9a, 0xa9, 0xaa, 0x11, 0x22, 0x44, 0x88, // U+2548
    0x33, 0xcc, 0x34, 0x1c, 0x3c, 0x07, 0x0d, 0x0f, // U+2550
    0x70, 0xd0, 0xf0, 0x43, 0xc1, 0xc3, 0x74, 0xdc, // U+2558
    0xfc, 0x47, 0xcd, 0xcf, 0x37, 0x1d, 0x3f, 0x73, // U+2560
    0xd1, 0xf3, 0x77, 0xdd, 0xff, 0x14, 0x05, 0x41, // U+2568
    0x50, 0x00, 0x00, 0x00, 0x01, 0x40, 0x10, 0x04, // U+2570
    0x02, 0x80, 0x20, 0x08, 0x21, 0x48, 0x12, 0x84, // U+2578
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Weight {
    None,
    Light,
    Heavy,
    Double,
}

/// The arms in the order up, right, down, left.
fn arms(code: u32) -> [Weight; 4] {
    let packed = usize::try_from(code - 0x2500)
        .ok()
        .and_then(|index| ARMS.get(index))
        .copied()
        .unwrap_or(0);
    [6, 4, 2, 0].map(|shift| match (packed >> shift) & 0b11 {
        0 => Weight::None,
        1 => Weight::Light,
        2 => Weight::Heavy,
        _ => Weight::Double,
    })
}

const UP: usize = 0;
const RIGHT: usize = 1;
const DOWN: usize = 2;
const LEFT: usize = 3;

struct Pen<'o> {
    cell: CellBox,
    color: Rgb,
    out: &'o mut String,
}

impl Pen<'_> {
    /// A light line's thickness: whole pixels, so lines are sharp at full size.
    fn light(&self) -> f32 {
        (self.cell.w / 8.0).round().max(1.0)
    }

    fn thickness(&self, weight: Weight) -> f32 {
        match weight {
            Weight::Heavy => self.light() * 2.0,
            Weight::None => 0.0,
            Weight::Light | Weight::Double => self.light(),
        }
    }

    /// How far a double line's two lines are from the centre line.
    fn gap(&self) -> f32 {
        self.light() * 2.0
    }

    /// The cell's centre, on whole pixels.
    fn centre(&self) -> (f32, f32) {
        let CellBox { x, y, w, h } = self.cell;
        (x + (w / 2.0).floor(), y + (h / 2.0).floor())
    }

    fn rect(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, opacity: Option<f32>) {
        let (x0, x1) = (x0.min(x1), x0.max(x1));
        let (y0, y1) = (y0.min(y1), y0.max(y1));
        let _ = write!(
            self.out,
            r#"<rect x="{}" y="{}" width="{}" height="{}" fill="{}""#,
            Num(x0),
            Num(y0),
            Num(x1 - x0),
            Num(y1 - y0),
            self.color
        );
        if let Some(opacity) = opacity {
            let _ = write!(self.out, r#" fill-opacity="{}""#, Num(opacity));
        }
        self.out.push_str("/>");
    }

    fn box_drawing(mut self, code: u32) {
        match code {
            0x2571..=0x2573 => return self.diagonals(code),
            0x256D..=0x2570 => return self.arc(code),
            _ => {}
        }
        let arms = arms(code);
        let dashes = match code {
            0x2504..=0x2507 => 3,
            0x2508..=0x250B => 4,
            0x254C..=0x254F => 2,
            _ => 0,
        };
        if dashes > 0 {
            return self.dashed(arms, dashes);
        }
        for (direction, &weight) in arms.iter().enumerate() {
            match weight {
                Weight::None => {}
                Weight::Double => self.double_arm(arms, direction),
                Weight::Light | Weight::Heavy => self.single_arm(arms, direction),
            }
        }
    }

    /// The two arms at right angles to `direction`.
    fn across(arms: [Weight; 4], direction: usize) -> [Weight; 2] {
        [arms[(direction + 1) % 4], arms[(direction + 3) % 4]]
    }

    /// Draws a line `thickness` wide centred on `middle` across the arm in
    /// `direction`, from the cell's edge to `inner` (see [`Pen::inner_end`]).
    fn arm_line(&mut self, direction: usize, middle: f32, thickness: f32, inner: f32) {
        let CellBox { x, y, w, h } = self.cell;
        let (lo, hi) = band(middle, thickness);
        match direction {
            UP => self.rect(lo, y, hi, inner, None),
            DOWN => self.rect(lo, inner, hi, y + h, None),
            RIGHT => self.rect(inner, lo, x + w, hi, None),
            _ => self.rect(x, lo, inner, hi, None),
        }
    }

    /// Where an arm in `direction` ends inside the cell: at the edge, facing it, of
    /// a line `width` wide that lies `offset` from the centre towards the arm's own
    /// edge (a negative `offset` is past the centre).
    fn inner_end(&self, direction: usize, offset: f32, width: f32) -> f32 {
        let (cx, cy) = self.centre();
        let (centre, toward) = match direction {
            UP => (cy, -1.0),
            DOWN => (cy, 1.0),
            LEFT => (cx, -1.0),
            _ => (cx, 1.0),
        };
        let (lo, hi) = band(centre + toward * offset, width);
        if toward > 0.0 { lo } else { hi }
    }

    /// One line (light or heavy) from the cell's edge in `direction` past the
    /// centre, as far as the lines across it need to be met.
    fn single_arm(&mut self, arms: [Weight; 4], direction: usize) {
        let (cx, cy) = self.centre();
        let thickness = self.thickness(arms[direction]);
        let (gap, light) = (self.gap(), self.light());
        let across = Self::across(arms, direction);
        let inner = if across == [Weight::Double; 2] {
            // A double line straight across: meet its near line.
            self.inner_end(direction, gap, light)
        } else if across.contains(&Weight::Double) {
            // A double corner: reach its far line.
            self.inner_end(direction, -gap, light)
        } else {
            let widest = across
                .iter()
                .map(|&a| self.thickness(a))
                .fold(0.0, f32::max);
            self.inner_end(
                direction,
                0.0,
                if widest > 0.0 { widest } else { thickness },
            )
        };
        let middle = if direction == UP || direction == DOWN {
            cx
        } else {
            cy
        };
        self.arm_line(direction, middle, thickness, inner);
    }

    /// Two light lines from the cell's edge in `direction`, each ending where it
    /// meets the lines across it: nested at a double corner or crossing, meeting a
    /// single line across it.
    fn double_arm(&mut self, arms: [Weight; 4], direction: usize) {
        let (cx, cy) = self.centre();
        let (gap, light) = (self.gap(), self.light());
        let across = Self::across(arms, direction);
        let any_double = across.contains(&Weight::Double);
        let widest_single = across
            .iter()
            .filter(|&&a| a != Weight::Double)
            .map(|&a| self.thickness(a))
            .fold(0.0, f32::max);
        // Each of the two lines is named by the side of the arm it is on.
        for side in [(direction + 3) % 4, (direction + 1) % 4] {
            let inner = if arms[side] == Weight::Double {
                // Nested inside the double arm on its side.
                self.inner_end(direction, gap, light)
            } else if any_double || widest_single == 0.0 {
                // The outside of a corner, or a straight double line.
                self.inner_end(direction, -gap, light)
            } else {
                self.inner_end(direction, 0.0, widest_single)
            };
            let middle = match side {
                UP => cy - gap,
                DOWN => cy + gap,
                LEFT => cx - gap,
                _ => cx + gap,
            };
            self.arm_line(direction, middle, light, inner);
        }
    }

    /// A dashed straight line: `dashes` dashes across the cell.
    fn dashed(&mut self, arms: [Weight; 4], dashes: u8) {
        let CellBox { x, y, w, h } = self.cell;
        let (cx, cy) = self.centre();
        let thickness = self.thickness(arms[RIGHT].max_with(arms[UP]));
        let count = f32::from(dashes);
        for i in 0..dashes {
            let from = (f32::from(i) + 0.25) / count;
            let to = (f32::from(i) + 0.75) / count;
            if arms[RIGHT] == Weight::None {
                let (lo, hi) = band(cx, thickness);
                self.rect(lo, y + h * from, hi, y + h * to, None);
            } else {
                let (lo, hi) = band(cy, thickness);
                self.rect(x + w * from, lo, x + w * to, hi, None);
            }
        }
    }

    /// A rounded corner (U+256D–U+2570), light.
    fn arc(&mut self, code: u32) {
        let CellBox { x, y, w, h } = self.cell;
        // The middle of the light line, as the straight lines have it.
        let (cx, cy) = self.centre();
        let (cx, cy) = (band(cx, self.light()), band(cy, self.light()));
        let (cx, cy) = (f32::midpoint(cx.0, cx.1), f32::midpoint(cy.0, cy.1));
        let r = (w.min(h) / 2.0).min(w / 2.0);
        let (ex, ey) = match code {
            0x256D => (x + w, y + h), // ╭ down and right
            0x256E => (x, y + h),     // ╮ down and left
            0x256F => (x, y),         // ╯ up and left
            _ => (x + w, y),          // ╰ up and right
        };
        let sx = (ex - cx).signum();
        let sy = (ey - cy).signum();
        let _ = write!(
            self.out,
            r#"<path d="M{} {}H{}Q{} {} {} {}V{}" fill="none" stroke="{}" stroke-width="{}"/>"#,
            Num(ex),
            Num(cy),
            Num(cx + sx * r),
            Num(cx),
            Num(cy),
            Num(cx),
            Num(cy + sy * r),
            Num(ey),
            self.color,
            Num(self.light()),
        );
    }

    /// ╱ ╲ ╳, corner to corner.
    fn diagonals(&mut self, code: u32) {
        let CellBox { x, y, w, h } = self.cell;
        let mut path = String::new();
        if code != 0x2572 {
            let _ = write!(path, "M{} {}L{} {}", Num(x + w), Num(y), Num(x), Num(y + h));
        }
        if code != 0x2571 {
            let _ = write!(path, "M{} {}L{} {}", Num(x), Num(y), Num(x + w), Num(y + h));
        }
        let _ = write!(
            self.out,
            r#"<path d="{path}" stroke="{}" stroke-width="{}"/>"#,
            self.color,
            Num(self.light())
        );
    }

    /// Block elements (U+2580–U+259F): halves, eighths, shades and quadrants.
    fn block(mut self, code: u32) {
        let CellBox { x, y, w, h } = self.cell;
        let eighth = |n: u32| f32::from(u8::try_from(n).unwrap_or(8)) / 8.0;
        let (mx, my) = (x + w / 2.0, y + h / 2.0);
        match code {
            0x2580 => self.rect(x, y, x + w, my, None),
            // ▁ to █: the lower n eighths.
            0x2581..=0x2588 => {
                self.rect(x, y + h * (1.0 - eighth(code - 0x2580)), x + w, y + h, None);
            }
            // ▉ to ▏: the left 7 to 1 eighths.
            0x2589..=0x258F => self.rect(x, y, x + w * eighth(0x2590 - code), y + h, None),
            0x2590 => self.rect(mx, y, x + w, y + h, None),
            0x2591..=0x2593 => {
                let opacity = eighth(2 * (code - 0x2590));
                self.rect(x, y, x + w, y + h, Some(opacity));
            }
            0x2594 => self.rect(x, y, x + w, y + h / 8.0, None),
            0x2595 => self.rect(x + w * 7.0 / 8.0, y, x + w, y + h, None),
            _ => {
                // Quadrants: upper left, upper right, lower left, lower right.
                let quadrants: [bool; 4] = match code {
                    0x2596 => [false, false, true, false],
                    0x2597 => [false, false, false, true],
                    0x2598 => [true, false, false, false],
                    0x2599 => [true, false, true, true],
                    0x259A => [true, false, false, true],
                    0x259B => [true, true, true, false],
                    0x259C => [true, true, false, true],
                    0x259D => [false, true, false, false],
                    0x259E => [false, true, true, false],
                    _ => [false, true, true, true],
                };
                let corners = [(x, y), (mx, y), (x, my), (mx, my)];
                for (on, (qx, qy)) in quadrants.into_iter().zip(corners) {
                    if on {
                        self.rect(qx, qy, qx + w / 2.0, qy + h / 2.0, None);
                    }
                }
            }
        }
    }
}

/// The span of a line `width` wide centred on `middle`, on whole pixels when both
/// are.
fn band(middle: f32, width: f32) -> (f32, f32) {
    let lo = middle - (width / 2.0).floor();
    (lo, lo + width)
}

impl Weight {
    fn max_with(self, other: Weight) -> Weight {
        if self == Weight::None { other } else { self }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(ch: char) -> String {
        let mut out = String::new();
        let cell = CellBox {
            x: 0.0,
            y: 0.0,
            w: 10.0,
            h: 20.0,
        };
        assert!(draw(ch, cell, Rgb(255, 255, 255), &mut out), "{ch}");
        out
    }

    #[test]
    fn the_arms_are_read_from_the_characters_names() {
        use Weight::{Double as D, Heavy as H, Light as L, None as N};
        assert!(arms(0x2500) == [N, L, N, L]); // ─
        assert!(arms(0x2503) == [H, N, H, N]); // ┃
        assert!(arms(0x250D) == [N, H, L, N]); // ┍ down light and right heavy
        assert!(arms(0x2540) == [H, L, L, L]); // ╀ up heavy and down horizontal light
        assert!(arms(0x2554) == [N, D, D, N]); // ╔
        assert!(arms(0x256B) == [D, L, D, L]); // ╫
        assert!(arms(0x257E) == [N, L, N, H]); // ╾ heavy left and light right
    }

    #[test]
    fn a_line_reaches_both_edges_of_its_cell_so_neighbours_join() {
        // ─'s two arms cover x 0..10, │'s y 0..20, each a whole pixel wide.
        let horizontal = shapes('─');
        assert_eq!(
            horizontal,
            concat!(
                r##"<rect x="5" y="10" width="5" height="1" fill="#ffffff"/>"##,
                r##"<rect x="0" y="10" width="6" height="1" fill="#ffffff"/>"##
            )
        );
        let vertical = shapes('│');
        assert!(
            vertical.contains(r#"y="0" width="1" height="11""#),
            "{vertical}"
        );
        assert!(
            vertical.contains(r#"y="10" width="1" height="10""#),
            "{vertical}"
        );
        // A corner meets itself: ┌'s right arm starts where its down arm's left edge is.
        assert_eq!(
            shapes('┌'),
            concat!(
                r##"<rect x="5" y="10" width="5" height="1" fill="#ffffff"/>"##,
                r##"<rect x="5" y="10" width="1" height="10" fill="#ffffff"/>"##
            )
        );
        // ╔'s lines nest: the outer pair meets at (3, 8), the inner at (7, 12).
        assert_eq!(
            shapes('╔'),
            concat!(
                r##"<rect x="3" y="8" width="7" height="1" fill="#ffffff"/>"##,
                r##"<rect x="7" y="12" width="3" height="1" fill="#ffffff"/>"##,
                r##"<rect x="7" y="12" width="1" height="8" fill="#ffffff"/>"##,
                r##"<rect x="3" y="8" width="1" height="12" fill="#ffffff"/>"##
            )
        );
    }

    #[test]
    fn a_run_of_straight_lines_is_one_shape_as_long_as_the_cells_drawn_one_by_one() {
        let cell = CellBox {
            x: 20.0,
            y: 0.0,
            w: 10.0,
            h: 20.0,
        };
        let mut out = String::new();
        assert!(draw_across('─', cell, 3, Rgb(255, 255, 255), &mut out));
        assert_eq!(
            out,
            r##"<rect x="20" y="10" width="30" height="1" fill="#ffffff"/>"##
        );
        out.clear();
        assert!(draw_across('═', cell, 2, Rgb(255, 255, 255), &mut out));
        assert_eq!(out.matches(r#"width="20" height="1""#).count(), 2, "{out}");
        assert!(!draw_across('┼', cell, 2, Rgb(255, 255, 255), &mut out));
    }

    #[test]
    fn blocks_fill_their_part_of_the_cell() {
        assert_eq!(
            shapes('█'),
            r##"<rect x="0" y="0" width="10" height="20" fill="#ffffff"/>"##
        );
        assert_eq!(
            shapes('▄'),
            r##"<rect x="0" y="10" width="10" height="10" fill="#ffffff"/>"##
        );
        assert_eq!(
            shapes('▌'),
            r##"<rect x="0" y="0" width="5" height="20" fill="#ffffff"/>"##
        );
        assert!(shapes('▒').contains(r#"fill-opacity="0.5""#));
        assert_eq!(shapes('▚').matches("<rect").count(), 2);
        assert!(!is_drawn('a') && !is_drawn('⠿') && is_drawn('╬') && is_drawn('▟'));
    }

    #[test]
    fn every_box_and_block_character_draws_something() {
        for code in 0x2500..=0x259F {
            let ch = char::from_u32(code).unwrap();
            assert!(!shapes(ch).is_empty(), "U+{code:04X}");
        }
    }
}
