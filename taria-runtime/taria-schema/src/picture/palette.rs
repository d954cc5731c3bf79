//! Colours as a picture paints them: ratatui's [`Color`] to red, green and blue, with
//! a terminal's sixteen named colours from a [`Look`](super::Look).

use ratatui::style::Color;

/// A colour to paint with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl std::fmt::Display for Rgb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

impl Rgb {
    /// `self` laid over `under` at `opacity` (0 to 1): a dim cell's text.
    #[must_use]
    pub fn over(self, under: Rgb, opacity: f32) -> Rgb {
        let opacity = opacity.clamp(0.0, 1.0);
        let mix = |top: u8, bottom: u8| {
            let mixed = f32::from(top) * opacity + f32::from(bottom) * (1.0 - opacity);
            // In 0..=255: both ends are, and opacity is clamped.
            #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            let byte = mixed.round().clamp(0.0, 255.0) as u8;
            byte
        };
        Rgb(
            mix(self.0, under.0),
            mix(self.1, under.1),
            mix(self.2, under.2),
        )
    }
}

/// The sixteen named colours, `Black` to `White` in ANSI order (0–7 normal, 8–15
/// bright: ratatui's `Gray` is 7, `DarkGray` 8, `White` 15).
pub type Sixteen = [Rgb; 16];

/// The colour `color` paints, or `None` for the terminal's default (`Reset`).
pub(super) fn resolve(color: Color, sixteen: &Sixteen) -> Option<Rgb> {
    let named = |index: usize| Some(sixteen[index]);
    match color {
        Color::Reset => None,
        Color::Black => named(0),
        Color::Red => named(1),
        Color::Green => named(2),
        Color::Yellow => named(3),
        Color::Blue => named(4),
        Color::Magenta => named(5),
        Color::Cyan => named(6),
        Color::Gray => named(7),
        Color::DarkGray => named(8),
        Color::LightRed => named(9),
        Color::LightGreen => named(10),
        Color::LightYellow => named(11),
        Color::LightBlue => named(12),
        Color::LightMagenta => named(13),
        Color::LightCyan => named(14),
        Color::White => named(15),
        Color::Rgb(r, g, b) => Some(Rgb(r, g, b)),
        Color::Indexed(index) => Some(indexed(index, sixteen)),
    }
}

/// xterm's 256 colours: the sixteen, a 6×6×6 cube, then 24 greys.
fn indexed(index: u8, sixteen: &Sixteen) -> Rgb {
    const LEVELS: [u8; 6] = [0, 95, 135, 175, 215, 255];
    match index {
        0..=15 => sixteen[usize::from(index)],
        16..=231 => {
            let cube = index - 16;
            Rgb(
                LEVELS[usize::from(cube / 36)],
                LEVELS[usize::from(cube / 6 % 6)],
                LEVELS[usize::from(cube % 6)],
            )
        }
        232..=255 => {
            let grey = 8 + (index - 232) * 10;
            Rgb(grey, grey, grey)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::picture::Look;

    #[test]
    fn every_kind_of_colour_paints_what_a_terminal_shows() {
        let sixteen = Look::default().sixteen;
        assert_eq!(resolve(Color::Reset, &sixteen), None);
        assert_eq!(resolve(Color::Red, &sixteen), Some(sixteen[1]));
        assert_eq!(resolve(Color::White, &sixteen), Some(sixteen[15]));
        assert_eq!(resolve(Color::Indexed(9), &sixteen), Some(sixteen[9]));
        assert_eq!(resolve(Color::Rgb(1, 2, 3), &sixteen), Some(Rgb(1, 2, 3)));
        // xterm's cube and greys.
        assert_eq!(indexed(16, &sixteen), Rgb(0, 0, 0));
        assert_eq!(indexed(208, &sixteen), Rgb(255, 135, 0));
        assert_eq!(indexed(231, &sixteen), Rgb(255, 255, 255));
        assert_eq!(indexed(232, &sixteen), Rgb(8, 8, 8));
        assert_eq!(indexed(255, &sixteen), Rgb(238, 238, 238));
        assert_eq!(Rgb(255, 135, 0).to_string(), "#ff8700");
        assert_eq!(Rgb(200, 100, 0).over(Rgb(0, 0, 0), 0.5), Rgb(100, 50, 0));
    }
}
