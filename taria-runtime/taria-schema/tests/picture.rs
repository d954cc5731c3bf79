//! Screens as pictures: a screen ratatui drew, as SVG against a committed golden
//! file, and as PNG read back pixel by pixel.

use ratatui::buffer::Buffer;
use ratatui::layout::Rect;
use ratatui::style::{Color, Style, Stylize};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, BorderType, Borders, Gauge, Paragraph, Widget};
use taria_schema::picture::{self, Look};
use taria_schema::protocol::{CellStyle, ScreenStyles};

/// A screen with what a picture has to get right: borders of each kind meeting
/// across rows, colours named, indexed and RGB, bold, italic, underlined, dim,
/// reversed and hidden text, a wide character, blocks and markup characters.
fn screen() -> ScreenStyles {
    let area = Rect::new(0, 0, 40, 10);
    let mut buffer = Buffer::empty(area);
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Rounded)
        .title(" Tasks <&> ".bold().yellow())
        .render(area, &mut buffer);
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Double)
        .border_style(Style::new().fg(Color::Indexed(208)))
        .render(Rect::new(24, 1, 15, 4), &mut buffer);
    Block::default()
        .borders(Borders::ALL)
        .border_type(BorderType::Thick)
        .render(Rect::new(24, 5, 15, 4), &mut buffer);
    Paragraph::new(vec![
        Line::from(vec![
            Span::raw("[x] "),
            Span::raw("Buy milk").crossed_out().dim(),
        ]),
        Line::from(vec![
            Span::raw("[ ] "),
            Span::styled(
                "Write 日本語",
                Style::new().fg(Color::Rgb(0x40, 0xc0, 0xff)),
            ),
        ]),
        Line::from("Selected".reversed()),
        Line::from(vec![
            "under".underlined(),
            " ".into(),
            "it".italic(),
            " ".into(),
            "gone".hidden(),
        ]),
    ])
    .render(Rect::new(2, 2, 20, 4), &mut buffer);
    Gauge::default()
        .gauge_style(Style::new().fg(Color::Green).bg(Color::DarkGray))
        .ratio(0.55)
        .label("")
        .use_unicode(true)
        .render(Rect::new(2, 7, 20, 1), &mut buffer);
    screen_of(&buffer)
}

fn screen_of(buffer: &Buffer) -> ScreenStyles {
    let area = buffer.area;
    ScreenStyles::from_cells((area.top()..area.bottom()).map(|y| {
        let mut skip = 0;
        (area.left()..area.right()).filter_map(move |x| {
            if skip > 0 {
                skip -= 1;
                return None;
            }
            let cell = &buffer[(x, y)];
            let columns = u16::try_from(unicode_width::UnicodeWidthStr::width(cell.symbol()))
                .unwrap_or(1)
                .max(1);
            skip = columns - 1;
            let style = CellStyle {
                fg: Some(cell.fg).filter(|c| *c != Color::Reset),
                bg: Some(cell.bg).filter(|c| *c != Color::Reset),
                modifiers: cell.modifier,
            };
            Some((cell.symbol(), columns, style))
        })
    }))
}

/// The SVG of a screen is the committed one, byte for byte. After a deliberate
/// change, `TARIA_UPDATE_GOLDEN=1 cargo test -p taria-schema --test picture` writes
/// the new one; look at it before committing it.
#[test]
fn a_screen_draws_as_the_committed_svg() {
    let svg = picture::svg(&screen(), &Look::default());
    let golden = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/screen.svg");
    if std::env::var_os("TARIA_UPDATE_GOLDEN").is_some() {
        std::fs::write(&golden, &svg).unwrap();
    }
    let expected = std::fs::read_to_string(&golden).unwrap_or_default();
    assert!(
        svg == expected,
        "the SVG differs from {}; TARIA_UPDATE_GOLDEN=1 writes it\n{svg}",
        golden.display()
    );
}

#[test]
fn the_svg_has_each_style_and_no_text_for_what_is_drawn_as_shapes() {
    let svg = picture::svg(&screen(), &Look::default());
    // Markup in the app's text is escaped.
    assert!(svg.contains(">Tasks &lt;&amp;&gt;</text>"), "{svg}");
    // Styles: bold yellow title, dim and crossed-out, RGB, reversed, underlined,
    // italic; hidden text is not drawn.
    assert!(
        svg.contains(r##"fill="#e5e510" font-weight="bold""##),
        "{svg}"
    );
    assert!(svg.contains(r#"text-decoration="line-through" xml:space="preserve">Buy milk<"#));
    assert!(svg.contains(r##"fill="#40c0ff""##));
    assert!(svg.contains(r#"text-decoration="underline" xml:space="preserve">under<"#));
    assert!(svg.contains(r#"font-style="italic" xml:space="preserve">it<"#));
    assert!(!svg.contains("gone"));
    // Reversed: the default foreground becomes the background of its cells.
    assert!(
        svg.contains(r##"width="80" height="20" fill="#cccccc""##),
        "{svg}"
    );
    // The wide characters are centred on their two columns each.
    assert!(svg.contains(r#"text-anchor="middle""#) && svg.contains(">日<"));
    // Borders and blocks are shapes, never text.
    for drawn in ['╭', '─', '│', '═', '║', '━', '┃', '█', '▌'] {
        assert!(!svg.contains(drawn), "{drawn} drawn as text");
    }
}

#[cfg(feature = "png")]
mod png {
    use super::*;
    use taria_schema::picture::{PngError, PngLimits};

    fn pixels(png: &[u8]) -> (u32, Vec<[u8; 4]>) {
        let pixmap = resvg::tiny_skia::Pixmap::decode_png(png).expect("a PNG");
        let pixels = pixmap
            .pixels()
            .iter()
            .map(|p| {
                let c = p.demultiply();
                [c.red(), c.green(), c.blue(), c.alpha()]
            })
            .collect();
        (pixmap.width(), pixels)
    }

    #[test]
    fn a_screen_draws_as_png_with_lines_unbroken_across_rows() {
        let look = Look::default();
        let png = picture::png(&screen(), &look, PngLimits::default()).unwrap();
        assert_eq!((png.width, png.height, png.scale), (400, 200, 1.0));
        assert!(png.bytes.starts_with(b"\x89PNG"));
        let (width, pixels) = pixels(&png.bytes);
        let at = |x: u32, y: u32| pixels[(y * width + x) as usize];
        // The default background in a corner away from every line.
        assert_eq!(at(150, 185), [0x1e, 0x1e, 0x1e, 255]);
        // The left border (column 0, x = 4..6) in the default foreground on every
        // pixel row from the second text row to the second last: no gap between rows.
        for y in 20..180 {
            assert_eq!(at(5, y), [0xcc, 0xcc, 0xcc, 255], "y = {y}");
        }
        // The double border's two lines, in xterm's colour 208.
        assert_eq!(at(243, 60), [255, 135, 0, 255]);
        assert_eq!(at(247, 60), [255, 135, 0, 255]);
        assert_eq!(at(245, 60)[..3], [0x1e, 0x1e, 0x1e]);
        // Some of the title's yellow was painted (the glyphs come from the font).
        assert!(
            (30..120).any(|x| (2..18).any(|y| at(x, y)[..3] == [0xe5, 0xe5, 0x10])),
            "no yellow in the title"
        );
    }

    #[test]
    fn a_large_screen_is_drawn_within_the_limits() {
        // 210 × 30 cells, 2100 × 600 pixels at full size: drawn 2000 wide.
        let word = CellStyle::default();
        let rows: Vec<Vec<(&str, u16, CellStyle)>> = (0..30)
            .map(|y| {
                (0..210)
                    .map(|x| (if (x + y) % 7 == 0 { "#" } else { " " }, 1, word))
                    .collect()
            })
            .collect();
        let screen = ScreenStyles::from_cells(rows);
        let png = picture::png(&screen, &Look::default(), PngLimits::default()).unwrap();
        assert_eq!((png.width, png.height), (2000, 572));
        assert!(png.bytes.len() <= 1_000_000);
        let tight = PngLimits {
            max_side: 2000,
            max_bytes: 10_000,
        };
        let small = picture::png(&screen, &Look::default(), tight).unwrap();
        assert!(
            small.bytes.len() <= 10_000 && small.width < 2000,
            "{small:?}"
        );
        let impossible = PngLimits {
            max_side: 2000,
            max_bytes: 10,
        };
        assert!(matches!(
            picture::png(&screen, &Look::default(), impossible),
            Err(PngError::TooLarge { max_bytes: 10 })
        ));
        assert!(matches!(
            picture::png(
                &ScreenStyles::default(),
                &Look::default(),
                PngLimits::default()
            ),
            Err(PngError::Empty)
        ));
    }
}

/// A screen of text alone (an app of an earlier release: one run per row) keeps a
/// wide character on its two columns and what follows it after them.
#[test]
fn a_text_only_row_places_a_wide_character_on_its_two_columns() {
    let screen = ScreenStyles::from_cells([[("a界b", 4, CellStyle::default())]]);
    let svg = picture::svg(&screen, &Look::default());
    assert!(
        svg.contains(r#"<text x="20" y="15.54" text-anchor="middle""#),
        "{svg}"
    );
    assert!(
        svg.contains(r##"<text x="30" y="15.54" fill="#cccccc" xml:space="preserve">b<"##),
        "{svg}"
    );
}
