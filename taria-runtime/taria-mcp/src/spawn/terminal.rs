//! The terminal the app runs in, emulated (`vt100`): every byte the app writes goes
//! through a screen of the pseudo-terminal's size, so the queries a terminal answers
//! get a terminal's answers, from the screen's state at the moment they were asked:
//! the real cursor position, device attributes, the window size, the keyboard
//! protocol's flags, the modes the app set. A query split between reads is answered
//! once it is whole (the parser keeps its state between reads).
//!
//! Agent keys reach the app through its taria socket, never through this terminal's
//! input: that input carries only these answers, so no keyboard enhancement is ever in
//! effect (the flags read 0), and nothing is ever pasted.

use std::fmt::Write as _;
use std::num::NonZeroU16;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use ratatui::style::{Color, Modifier};
use taria_schema::protocol::{CellStyle, ScreenStyles};
use vt100::{MouseProtocolEncoding, MouseProtocolMode, Screen};

use crate::spawn::size::Size;

/// Primary device attributes: a VT220 (62) with ANSI colour (22).
const PRIMARY_ATTRIBUTES: &str = "\x1b[?62;22c";
/// Secondary device attributes: a VT220 (1), firmware version 0, no keyboard option.
const SECONDARY_ATTRIBUTES: &str = "\x1b[>1;0;0c";
/// What a terminal answers when focus reporting is turned on while it has the focus.
const FOCUS_IN: &str = "\x1b[I";

/// The emulated screen and what it has to answer.
pub(super) struct Terminal {
    parser: vt100::Parser<Answers>,
}

impl Terminal {
    pub(super) fn new(size: Size) -> Terminal {
        let (rows, cols) = dimensions(size);
        Terminal {
            parser: vt100::Parser::new_with_callbacks(rows, cols, 0, Answers::default()),
        }
    }

    /// Takes what the app wrote; returns what the terminal answers, in the order the
    /// queries were asked (empty when nothing asked).
    pub(super) fn feed(&mut self, output: &[u8]) -> Vec<u8> {
        self.parser.process(output);
        std::mem::take(&mut self.parser.callbacks_mut().pending).into_bytes()
    }

    /// The screen as the terminal shows it, with its colours and attributes.
    pub(super) fn styles(&self) -> ScreenStyles {
        let screen = self.parser.screen();
        let (rows, cols) = screen.size();
        ScreenStyles::from_cells((0..rows.get()).map(|row| {
            (0..cols.get()).filter_map(move |col| {
                let cell = screen.cell(row, col)?;
                if cell.is_wide_continuation() {
                    return None;
                }
                let columns = if cell.is_wide() { 2 } else { 1 };
                Some((cell.contents(), columns, cell_style(cell)))
            })
        }))
    }

    /// The screen's text, one string per row, trailing spaces kept off.
    pub(super) fn rows(&self) -> Vec<String> {
        let screen = self.parser.screen();
        let (_, cols) = screen.size();
        screen
            .rows(0, cols.get())
            .map(|row| row.trim_end().to_owned())
            .collect()
    }

    /// Its count of the answers a crossterm app reads as key presses, shared: read
    /// without the terminal's lock, which the output reader holds while it parses.
    pub(super) fn keyed(&self) -> Arc<Keyed> {
        Arc::clone(&self.parser.callbacks().keyed)
    }

    /// Follows a resize of the pseudo-terminal: size reports say the new size.
    pub(super) fn resize(&mut self, size: Size) {
        let (rows, cols) = dimensions(size);
        self.parser.set_size(rows, cols);
    }
}

/// A cell's style as the screen message writes it (`inverse` is ratatui's `reversed`).
fn cell_style(cell: &vt100::Cell) -> CellStyle {
    let mut modifiers = Modifier::empty();
    for (on, modifier) in [
        (cell.bold(), Modifier::BOLD),
        (cell.dim(), Modifier::DIM),
        (cell.italic(), Modifier::ITALIC),
        (cell.underline(), Modifier::UNDERLINED),
        (cell.inverse(), Modifier::REVERSED),
    ] {
        if on {
            modifiers |= modifier;
        }
    }
    CellStyle {
        fg: color(cell.fgcolor()),
        bg: color(cell.bgcolor()),
        modifiers,
    }
}

/// A terminal colour as ratatui names it: the first 16 indexed colours by name.
fn color(color: vt100::Color) -> Option<Color> {
    const NAMED: [Color; 16] = [
        Color::Black,
        Color::Red,
        Color::Green,
        Color::Yellow,
        Color::Blue,
        Color::Magenta,
        Color::Cyan,
        Color::Gray,
        Color::DarkGray,
        Color::LightRed,
        Color::LightGreen,
        Color::LightYellow,
        Color::LightBlue,
        Color::LightMagenta,
        Color::LightCyan,
        Color::White,
    ];
    match color {
        vt100::Color::Default => None,
        vt100::Color::Idx(i) => Some(
            NAMED
                .get(usize::from(i))
                .copied()
                .unwrap_or(Color::Indexed(i)),
        ),
        vt100::Color::Rgb(r, g, b) => Some(Color::Rgb(r, g, b)),
    }
}

fn dimensions(size: Size) -> (NonZeroU16, NonZeroU16) {
    let dimension = |n| NonZeroU16::new(n).unwrap_or(NonZeroU16::MIN);
    (dimension(size.rows), dimension(size.cols))
}

/// The queries whose answers crossterm's reader hands to the app as key presses (its
/// parser takes `ESC [ >` and `ESC P` for the start of keys), and what they become.
/// Answered all the same outside the alternate screen, where an app that asks them
/// (one not on crossterm, detecting its terminal) does so; so an input whose effect
/// showed one is told ([`Keyed`]).
const KEYED_QUERIES: [&str; 2] = [
    "`ESC[>c` (secondary device attributes), whose answer a crossterm app reads as the \
     keys `1;0;0c`",
    "`ESC[>q` (the terminal's version), whose answer a crossterm app reads as Alt+Shift+P \
     and the version's characters",
];

/// The answers written that a crossterm app reads as key presses: how many, how many
/// of them an input's result has told, and the last query's place in
/// [`KEYED_QUERIES`] (plus one; 0: none yet).
#[derive(Default)]
pub(crate) struct Keyed {
    count: AtomicU64,
    told: AtomicU64,
    last: AtomicUsize,
}

/// What [`Keyed::take`] found.
pub(crate) struct KeyedAnswers {
    /// How many so far.
    pub(crate) total: u64,
    /// How many of them had not been taken.
    pub(crate) new: u64,
    /// The last query, in words.
    pub(crate) query: &'static str,
}

impl Keyed {
    /// An answer to `KEYED_QUERIES[query]` was written.
    fn answered(&self, query: usize) {
        self.last.store(query + 1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Release);
    }

    /// How many so far.
    pub(crate) fn count(&self) -> u64 {
        self.count.load(Ordering::Acquire)
    }

    /// Those not taken before, which count as taken from now on.
    pub(crate) fn take(&self) -> KeyedAnswers {
        let total = self.count();
        let before = self.told.swap(total, Ordering::AcqRel);
        let query = self
            .last
            .load(Ordering::Relaxed)
            .checked_sub(1)
            .and_then(|i| KEYED_QUERIES.get(i))
            .copied()
            .unwrap_or("a query");
        KeyedAnswers {
            total,
            new: total.saturating_sub(before),
            query,
        }
    }
}

/// The modes `vt100` does not keep, and the answers not yet written.
#[derive(Default)]
struct Answers {
    pending: String,
    /// The answers written that a crossterm app reads as keys.
    keyed: Arc<Keyed>,
    /// Focus reporting (`?1004`).
    focus_reports: bool,
    /// Synchronized output (`?2026`): kept only to be reported (there is no renderer
    /// to hold back).
    synchronized: bool,
}

/// A DECRQM answer: the mode is set, reset, or not one this terminal knows.
#[derive(Clone, Copy)]
enum ModeState {
    Unknown = 0,
    Set = 1,
    Reset = 2,
}

impl From<bool> for ModeState {
    fn from(set: bool) -> ModeState {
        if set {
            ModeState::Set
        } else {
            ModeState::Reset
        }
    }
}

impl Answers {
    /// Records a DEC private mode the app set or reset; answers a focus report when
    /// focus reporting is turned on (the app's terminal always has the focus).
    fn set_private_mode(&mut self, mode: u16, on: bool) {
        match mode {
            1004 => {
                if on && !self.focus_reports {
                    self.pending.push_str(FOCUS_IN);
                }
                self.focus_reports = on;
            }
            2026 => self.synchronized = on,
            _ => {}
        }
    }

    /// The state of a DEC private mode, as the app set it.
    fn private_mode(&self, screen: &Screen, mode: u16) -> ModeState {
        let mouse = |m| ModeState::from(screen.mouse_protocol_mode() == m);
        let encoding = |e| ModeState::from(screen.mouse_protocol_encoding() == e);
        match mode {
            1 => screen.application_cursor().into(),
            25 => (!screen.hide_cursor()).into(),
            47 | 1049 => screen.alternate_screen().into(),
            9 => mouse(MouseProtocolMode::Press),
            1000 => mouse(MouseProtocolMode::PressRelease),
            1002 => mouse(MouseProtocolMode::ButtonMotion),
            1003 => mouse(MouseProtocolMode::AnyMotion),
            1005 => encoding(MouseProtocolEncoding::Utf8),
            1006 => encoding(MouseProtocolEncoding::Sgr),
            1004 => self.focus_reports.into(),
            2004 => screen.bracketed_paste().into(),
            2026 => self.synchronized.into(),
            _ => ModeState::Unknown,
        }
    }

    /// The cursor's row and column, counted from 1; a cursor past the last column
    /// (after writing there) is reported on it, as terminals do.
    fn cursor(screen: &Screen) -> (u16, u16) {
        let (row, col) = screen.cursor_position();
        let (_, cols) = screen.size();
        (row + 1, col.min(cols.get() - 1) + 1)
    }
}

impl vt100::Callbacks for Answers {
    fn unhandled_csi(
        &mut self,
        screen: &mut Screen,
        i1: Option<u8>,
        i2: Option<u8>,
        params: &[&[u16]],
        c: char,
    ) {
        let first = params.first().and_then(|p| p.first()).copied();
        // A query has no parameter or a 0 (the parser reads none as a 0). Answers
        // have others, so one echoed back (a terminal not yet in raw mode that echoes
        // control characters as they are) is not taken for a query; the keyboard
        // flags' `?0u` would be, but only with an echo nobody sets (raw, no ECHOCTL).
        let plain = params.len() <= 1 && first.unwrap_or(0) == 0;
        // The secondary attributes (`ESC[>c`) and the version (`ESC[>q`): crossterm
        // never asks them, and its reader hands their answers to the app as keys
        // (`1;0;0c`; Alt+Shift+P and a version string). In the alternate screen, where
        // a full-screen app draws, they are in the data it shows (a file with `ESC[>c`
        // in it), not questions it asks, and are not answered; an app that asks them
        // does so while it starts, before it enters that screen.
        if screen.alternate_screen() && matches!((i1, i2, c), (Some(b'>'), None, 'c' | 'q')) {
            return;
        }
        let out = &mut self.pending;
        match (i1, i2, c) {
            // Device status: `5n` the terminal is fine, `6n` (and DEC's `?6n`) the cursor.
            (None, None, 'n') if first == Some(5) => out.push_str("\x1b[0n"),
            (None, None, 'n') if first == Some(6) => {
                let (row, col) = Answers::cursor(screen);
                let _ = write!(out, "\x1b[{row};{col}R");
            }
            (Some(b'?'), None, 'n') if first == Some(6) => {
                let (row, col) = Answers::cursor(screen);
                let _ = write!(out, "\x1b[?{row};{col}R");
            }
            (None, None, 'c') if plain => out.push_str(PRIMARY_ATTRIBUTES),
            (Some(b'>'), None, 'c') if plain => {
                out.push_str(SECONDARY_ATTRIBUTES);
                self.keyed.answered(0);
            }
            // XTVERSION: the terminal's name and version.
            (Some(b'>'), None, 'q') if plain => {
                let _ = write!(out, "\x1bP>|taria-mcp {}\x1b\\", env!("CARGO_PKG_VERSION"));
                self.keyed.answered(1);
            }
            // Window reports: the text area's size in cells (`18t`) and the screen's
            // (`19t`), the same here. No pixel sizes: the pseudo-terminal has none.
            (None, None, 't') if matches!(first, Some(18 | 19)) && params.len() == 1 => {
                let (rows, cols) = screen.size();
                let kind = if first == Some(18) { 8 } else { 9 };
                let _ = write!(out, "\x1b[{kind};{rows};{cols}t");
            }
            // The keyboard protocol's flags: none in effect (see the module's doc).
            (Some(b'?'), None, 'u') if plain => out.push_str("\x1b[?0u"),
            (Some(b'?'), None, 'h' | 'l') => {
                for mode in params.iter().filter_map(|p| p.first()) {
                    self.set_private_mode(*mode, c == 'h');
                }
            }
            // DECRQM: the state of a mode, DEC private ones as the app set them; this
            // terminal keeps no ANSI mode.
            (Some(b'?'), Some(b'$'), 'p') => {
                let mode = first.unwrap_or(0);
                let state = self.private_mode(screen, mode) as u8;
                let _ = write!(self.pending, "\x1b[?{mode};{state}$y");
            }
            (Some(b'$'), None, 'p') => {
                let mode = first.unwrap_or(0);
                let _ = write!(out, "\x1b[{mode};{}$y", ModeState::Unknown as u8);
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terminal(cols: u16, rows: u16) -> Terminal {
        Terminal::new(Size { cols, rows })
    }

    fn answer(terminal: &mut Terminal, output: &str) -> String {
        String::from_utf8(terminal.feed(output.as_bytes())).unwrap_or_default()
    }

    #[test]
    fn the_cursor_report_says_where_the_cursor_is() {
        let mut t = terminal(80, 24);
        assert_eq!(answer(&mut t, "\x1b[6n"), "\x1b[1;1R");
        assert_eq!(answer(&mut t, "\x1b[5;10H\x1b[6n"), "\x1b[5;10R");
        assert_eq!(answer(&mut t, "ab\r\nxyz\x1b[?6n"), "\x1b[?6;4R");
        // Written up to the last column: reported on it.
        assert_eq!(answer(&mut t, "\x1b[1;75Habcdef\x1b[6n"), "\x1b[1;80R");
    }

    #[test]
    fn a_query_split_between_reads_is_answered_once_whole() {
        let mut t = terminal(80, 24);
        assert_eq!(answer(&mut t, "\x1b[3;4Hhello \x1b"), "");
        assert_eq!(answer(&mut t, "["), "");
        assert_eq!(answer(&mut t, "6"), "");
        assert_eq!(answer(&mut t, "n!"), "\x1b[3;10R");
        assert_eq!(answer(&mut t, "\x1b[?"), "");
        assert_eq!(answer(&mut t, "u"), "\x1b[?0u");
    }

    #[test]
    fn several_queries_in_one_read_are_answered_in_order() {
        let mut t = terminal(80, 24);
        // What crossterm's keyboard enhancement check sends, then a cursor query.
        assert_eq!(
            answer(&mut t, "\x1b[?u\x1b[c\x1b[2;2H\x1b[6n\x1b[>c\x1b[0c\x1b[5n"),
            "\x1b[?0u\x1b[?62;22c\x1b[2;2R\x1b[>1;0;0c\x1b[?62;22c\x1b[0n"
        );
        assert!(answer(&mut t, "\x1b[>q").starts_with("\x1bP>|taria-mcp "));
    }

    /// Issue 30: a file shown by a full-screen app held `ESC[>c`, and the app got the
    /// terminal's answer as the keys `1;0;0c` (`ESC[>q`: Alt+Shift+P and a version).
    #[test]
    fn queries_crossterm_takes_as_keys_are_not_answered_in_what_a_full_screen_app_shows() {
        let mut t = terminal(80, 24);
        assert_eq!(answer(&mut t, "\x1b[?1049h"), "");
        assert_eq!(answer(&mut t, "file: \x1b[>c and \x1b[>q"), "");
        // What crossterm asks itself is answered there.
        assert_eq!(
            answer(&mut t, "\x1b[1;1H\x1b[6n\x1b[?u\x1b[c"),
            "\x1b[1;1R\x1b[?0u\x1b[?62;22c"
        );
        // Out of the alternate screen (an app starting, an inline viewport), answered.
        assert_eq!(answer(&mut t, "\x1b[?1049l\x1b[>c"), "\x1b[>1;0;0c");
    }

    #[test]
    fn the_size_report_follows_a_resize() {
        let mut t = terminal(80, 24);
        assert_eq!(
            answer(&mut t, "\x1b[18t\x1b[19t"),
            "\x1b[8;24;80t\x1b[9;24;80t"
        );
        t.resize(Size {
            cols: 132,
            rows: 50,
        });
        assert_eq!(answer(&mut t, "\x1b[18t"), "\x1b[8;50;132t");
        // The cursor stays in the smaller screen.
        assert_eq!(answer(&mut t, "\x1b[50;132H"), "");
        t.resize(Size { cols: 40, rows: 10 });
        assert_eq!(answer(&mut t, "\x1b[6n"), "\x1b[10;40R");
        // Pixel sizes are not known, so not answered.
        assert_eq!(answer(&mut t, "\x1b[14t\x1b[16t"), "");
    }

    #[test]
    fn turning_focus_reporting_on_reports_the_focus() {
        let mut t = terminal(80, 24);
        assert_eq!(answer(&mut t, "\x1b[?1049;1004h"), "\x1b[I");
        // Already on: nothing new to report.
        assert_eq!(answer(&mut t, "\x1b[?1004h"), "");
        assert_eq!(answer(&mut t, "\x1b[?1004$p"), "\x1b[?1004;1$y");
        assert_eq!(answer(&mut t, "\x1b[?1004l\x1b[?1004$p"), "\x1b[?1004;2$y");
        assert_eq!(answer(&mut t, "\x1b[?1004h"), "\x1b[I");
    }

    #[test]
    fn mode_queries_say_what_the_app_set() {
        let mut t = terminal(80, 24);
        let query = "\x1b[?1049$p\x1b[?2004$p\x1b[?25$p\x1b[?2026$p\x1b[?1006$p\x1b[?7777$p";
        assert_eq!(
            answer(&mut t, query),
            "\x1b[?1049;2$y\x1b[?2004;2$y\x1b[?25;1$y\x1b[?2026;2$y\x1b[?1006;2$y\x1b[?7777;0$y"
        );
        answer(
            &mut t,
            "\x1b[?1049h\x1b[?2004h\x1b[?25l\x1b[?2026h\x1b[?1006h",
        );
        assert_eq!(
            answer(&mut t, query),
            "\x1b[?1049;1$y\x1b[?2004;1$y\x1b[?25;2$y\x1b[?2026;1$y\x1b[?1006;1$y\x1b[?7777;0$y"
        );
        assert_eq!(answer(&mut t, "\x1b[4$p"), "\x1b[4;0$y");
    }

    #[test]
    fn the_screen_s_styles_are_the_colours_the_app_wrote() {
        let mut t = terminal(6, 2);
        answer(
            &mut t,
            "\x1b[1;31mab\x1b[0m\x1b[48;5;208m界\x1b[0m\r\n\x1b[7;38;2;1;2;3mz",
        );
        let screen = t.styles();
        let runs = |row: usize| -> Vec<(&str, u16, CellStyle)> {
            screen.rows[row]
                .iter()
                .map(|r| (r.text.as_str(), r.columns, screen.styles[r.style as usize]))
                .collect()
        };
        let plain = CellStyle::default();
        let red = CellStyle {
            fg: Some(Color::Red),
            modifiers: Modifier::BOLD,
            ..plain
        };
        let orange = CellStyle {
            bg: Some(Color::Indexed(208)),
            ..plain
        };
        assert_eq!(
            runs(0),
            [("ab", 2, red), ("界", 2, orange), ("  ", 2, plain)]
        );
        let reversed = CellStyle {
            fg: Some(Color::Rgb(1, 2, 3)),
            modifiers: Modifier::REVERSED,
            ..plain
        };
        assert_eq!(runs(1)[0], ("z", 1, reversed));
    }

    #[test]
    fn answers_echoed_back_are_not_taken_for_queries() {
        let mut t = terminal(80, 24);
        let echoed = "\x1b[1;1R\x1b[?62;22c\x1b[>1;0;0c\x1b[8;24;80t\x1b[?1004;1$y\x1b[0n";
        assert_eq!(answer(&mut t, echoed), "");
    }
}
