//! The SVG drawn as PNG by resvg, with `DejaVu Sans Mono` compiled in (what the
//! machine's fonts are does not change the picture, except for characters the
//! bundled font lacks, such as CJK, which the machine's fonts stand in for when
//! they have them).

use std::sync::{Arc, OnceLock};

use resvg::{tiny_skia, usvg};

use super::Look;
use crate::protocol::ScreenStyles;

/// How large a PNG may be: its longer side in pixels, and its size in bytes. A
/// picture over either is drawn smaller.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PngLimits {
    /// The longest side, in pixels.
    pub max_side: u32,
    /// The encoded size, in bytes.
    pub max_bytes: usize,
}

impl Default for PngLimits {
    /// 2,000 pixels and 1 MB: what agent hosts take as an image.
    fn default() -> PngLimits {
        PngLimits {
            max_side: 2000,
            max_bytes: 1_000_000,
        }
    }
}

/// Why a screen could not be drawn as PNG.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PngError {
    /// The screen has no cells.
    #[error("the screen is empty: nothing to draw")]
    Empty,
    /// Even drawn at a tenth of its size, the PNG is over `max_bytes`.
    #[error("the picture is over {max_bytes} bytes even at a tenth of its size")]
    TooLarge {
        /// The limit it could not get under.
        max_bytes: usize,
    },
    /// resvg could not read the SVG or encode the PNG (a bug in taria: please report it).
    #[error("the picture could not be drawn: {0}")]
    Render(String),
}

/// A screen drawn as PNG.
#[derive(Clone, Debug)]
pub struct Png {
    /// The encoded picture.
    pub bytes: Vec<u8>,
    /// Its width in pixels.
    pub width: u32,
    /// Its height in pixels.
    pub height: u32,
    /// How much smaller than the SVG it was drawn (1: full size).
    pub scale: f32,
}

/// `DejaVu Sans Mono`, the pictures' font (TrueType; its licence is in the crate's
/// `fonts/`): for a page that shows screens as this crate draws them.
pub static DEJAVU_SANS_MONO: &[u8] = include_bytes!("../../fonts/DejaVuSansMono.ttf");
/// `DejaVu Sans Mono Bold` (TrueType), as [`DEJAVU_SANS_MONO`].
pub static DEJAVU_SANS_MONO_BOLD: &[u8] = include_bytes!("../../fonts/DejaVuSansMono-Bold.ttf");

/// The fonts, loaded once: the bundled ones, then the machine's for what they lack.
fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    Arc::clone(FONTS.get_or_init(|| {
        let mut fonts = usvg::fontdb::Database::new();
        fonts.load_font_data(DEJAVU_SANS_MONO.to_vec());
        fonts.load_font_data(DEJAVU_SANS_MONO_BOLD.to_vec());
        fonts.set_monospace_family("DejaVu Sans Mono");
        fonts.load_system_fonts();
        Arc::new(fonts)
    }))
}

/// The picture of `screen` as PNG, within `limits` (see [`super::svg`] for what is
/// drawn). The font is the bundled `DejaVu Sans Mono` whatever `look.font_family`
/// says; its bold face is bundled, and italic text is drawn upright.
///
/// # Errors
///
/// [`PngError::Empty`] for a screen with no cells, [`PngError::TooLarge`] when even a
/// tenth of the size is over `limits.max_bytes`.
pub fn png(screen: &ScreenStyles, look: &Look, limits: PngLimits) -> Result<Png, PngError> {
    if screen
        .rows
        .iter()
        .all(|row| row.iter().all(|run| run.columns == 0))
    {
        return Err(PngError::Empty);
    }
    let look = Look {
        font_family: "'DejaVu Sans Mono'",
        ..look.clone()
    };
    let svg = super::svg(screen, &look);
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: "DejaVu Sans Mono".into(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg, &options).map_err(|e| PngError::Render(e.to_string()))?;
    let size = tree.size();
    if size.width() < 1.0 || size.height() < 1.0 {
        return Err(PngError::Empty);
    }
    #[expect(clippy::cast_precision_loss, reason = "a side of at most 2^24 pixels")]
    let longest = limits.max_side.max(1) as f32;
    let mut scale = (longest / size.width())
        .min(longest / size.height())
        .min(1.0);
    let smallest = scale / 10.0;
    while scale >= smallest {
        let png = draw(&tree, scale)?;
        if png.bytes.len() <= limits.max_bytes {
            return Ok(png);
        }
        scale *= 0.75;
    }
    Err(PngError::TooLarge {
        max_bytes: limits.max_bytes,
    })
}

/// The pixels as an RGB PNG with adaptive filters: the background is opaque, and a
/// screen's flat colours come out many times smaller than resvg's own encoder
/// writes them (RGBA at its fast setting). The todo's 120 × 40 screen is about
/// 18 kB (`examples/e2e/test_pictures.py` holds it under 40 kB).
fn encode(pixmap: &tiny_skia::Pixmap) -> Result<Vec<u8>, ::png::EncodingError> {
    let rgb: Vec<u8> = pixmap
        .pixels()
        .iter()
        .flat_map(|pixel| {
            let color = pixel.demultiply();
            [color.red(), color.green(), color.blue()]
        })
        .collect();
    let mut bytes = Vec::new();
    let mut encoder = ::png::Encoder::new(&mut bytes, pixmap.width(), pixmap.height());
    encoder.set_color(::png::ColorType::Rgb);
    encoder.set_depth(::png::BitDepth::Eight);
    encoder.set_compression(::png::Compression::Default);
    encoder.set_adaptive_filter(::png::AdaptiveFilterType::Adaptive);
    let mut writer = encoder.write_header()?;
    writer.write_image_data(&rgb)?;
    writer.finish()?;
    Ok(bytes)
}

fn draw(tree: &usvg::Tree, scale: f32) -> Result<Png, PngError> {
    let size = tree.size();
    // Positive and at most max_side: both sides were checked and scaled.
    #[expect(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let (width, height) = (
        (size.width() * scale).ceil().max(1.0) as u32,
        (size.height() * scale).ceil().max(1.0) as u32,
    );
    let mut pixmap = tiny_skia::Pixmap::new(width, height)
        .ok_or_else(|| PngError::Render(format!("no {width} × {height} pixmap")))?;
    resvg::render(
        tree,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    let bytes = encode(&pixmap).map_err(|e| PngError::Render(e.to_string()))?;
    Ok(Png {
        bytes,
        width,
        height,
        scale,
    })
}
