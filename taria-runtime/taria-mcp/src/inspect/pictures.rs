//! Screens as pictures to download from the page, drawn by `taria_schema::picture`
//! (the same pictures `read_tree` with `format: picture` gives a model): the app's
//! screen as it is now, with its colours (`screen.svg`, `screen.png`), and a recorded
//! screen the viewer sends, its text alone (`POST picture.svg`, `picture.png`).

use axum::extract::rejection::StringRejection;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use taria_schema::picture::{self, Look, PngLimits};
use taria_schema::protocol::ScreenStyles;

use super::page;
use crate::link::Link;
use crate::styled_screen::StyledScreen;

/// A picture's format.
#[derive(Clone, Copy, Debug)]
pub(super) enum Format {
    Svg,
    Png,
}

/// The app's screen now, as a picture to save (`Content-Disposition: attachment`,
/// named by the tree's revision); `503` with the reason when the bridge has no
/// connection to the app (the page never makes one).
pub(super) async fn download(link: Link, format: Format) -> Response {
    let screen = match StyledScreen::read_now(&link).await {
        Ok(screen) => screen,
        Err(e) => {
            let message = format!("no screen to draw: {}", e.message);
            return (StatusCode::SERVICE_UNAVAILABLE, message).into_response();
        }
    };
    let name = format!("screen-r{}", screen.revision);
    drawn(screen.styled, format, &name).await
}

/// A screen the viewer sends: its rows of text (as a recording keeps them) and how
/// many columns wide it is.
#[derive(Debug, Deserialize)]
pub(super) struct SentScreen {
    rows: Vec<String>,
    cols: u16,
    /// What the file is called: `step-12`.
    name: String,
}

/// The most cells a sent screen may have: a 500 × 500 terminal's (a large one is
/// 400 × 120). Each cell can become an element of the SVG, and the PNG renders it.
const MAX_CELLS: usize = 250_000;
/// The largest body `POST picture.*` takes: a screen of [`MAX_CELLS`] in JSON.
pub(super) const MAX_PICTURE_BODY: usize = 4 * 1024 * 1024;

/// A recorded screen (`POST picture.svg` / `picture.png`, [`SentScreen`] as JSON), its text
/// drawn in the terminal's default colours; `400` saying what is wrong with the body.
pub(super) async fn of_rows(format: Format, body: Result<String, StringRejection>) -> Response {
    let read = body
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str::<SentScreen>(&text).map_err(|e| e.to_string()));
    let SentScreen { rows, cols, name } = match read {
        Ok(rows) => rows,
        Err(why) => {
            let message = format!("not a screen: {why} (send JSON {{rows, cols, name}})");
            return (StatusCode::BAD_REQUEST, message).into_response();
        }
    };
    // As wide as its widest row, whatever `cols` says: a row is never cut short.
    let widest = rows
        .iter()
        .map(|row| unicode_width::UnicodeWidthStr::width(row.as_str()))
        .max()
        .unwrap_or(0);
    let cols = usize::from(cols).max(widest);
    if rows.len().saturating_mul(cols) > MAX_CELLS {
        let message = format!(
            "a screen of {} rows and {cols} columns is over {MAX_CELLS} cells",
            rows.len()
        );
        return (StatusCode::BAD_REQUEST, message).into_response();
    }
    let cols = u16::try_from(cols).unwrap_or(u16::MAX);
    let name: String = name
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .take(64)
        .collect();
    let styled = ScreenStyles::text_only(rows.iter().map(String::as_str), cols);
    drawn(
        styled,
        format,
        if name.is_empty() { "screen" } else { &name },
    )
    .await
}

/// `screen` drawn as `format`, to save as `name` with the format's extension.
async fn drawn(screen: ScreenStyles, format: Format, name: &str) -> Response {
    let drawn = tokio::task::spawn_blocking(move || match format {
        Format::Svg => Ok(picture::svg(&screen, &Look::default()).into_bytes()),
        Format::Png => picture::png(&screen, &Look::default(), PngLimits::default())
            .map(|png| png.bytes)
            .map_err(|e| match e {
                picture::PngError::Empty => (StatusCode::BAD_REQUEST, e.to_string()),
                e => (StatusCode::INTERNAL_SERVER_ERROR, e.to_string()),
            }),
    })
    .await;
    let bytes = match drawn {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(refused)) => return refused.into_response(),
        Err(_) => {
            return (
                StatusCode::INTERNAL_SERVER_ERROR,
                "drawing the picture failed",
            )
                .into_response();
        }
    };
    let (content_type, extension) = match format {
        Format::Svg => ("image/svg+xml", "svg"),
        Format::Png => ("image/png", "png"),
    };
    let mut response = bytes.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(disposition) =
        HeaderValue::from_str(&format!("attachment; filename=\"{name}.{extension}\""))
    {
        headers.insert(header::CONTENT_DISPOSITION, disposition);
    }
    page::no_store(headers);
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn answer(format: Format, body: &str) -> (StatusCode, String, Vec<u8>) {
        let response = of_rows(format, Ok(body.to_owned())).await;
        let status = response.status();
        let disposition = response
            .headers()
            .get(header::CONTENT_DISPOSITION)
            .and_then(|v| v.to_str().ok())
            .unwrap_or_default()
            .to_owned();
        let bytes = axum::body::to_bytes(response.into_body(), usize::MAX)
            .await
            .unwrap()
            .to_vec();
        (status, disposition, bytes)
    }

    #[tokio::test]
    async fn a_recorded_screen_is_drawn_and_named_as_asked_but_safely() {
        let body = r#"{"rows": ["> [x] ship v0", "status"], "cols": 20, "name": "../step-3\n"}"#;
        let (status, disposition, svg) = answer(Format::Svg, body).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(disposition, "attachment; filename=\"step-3.svg\"");
        let svg = String::from_utf8(svg).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("ship v0"), "{svg}");
        let (status, _, png) = answer(Format::Png, body).await;
        assert_eq!(status, StatusCode::OK);
        assert!(png.starts_with(b"\x89PNG"));
    }

    #[tokio::test]
    async fn a_row_wider_than_cols_widens_the_screen_and_counts_against_the_cap() {
        // Cut to 2 columns, the row would lose "ship v0".
        let (status, _, svg) = answer(
            Format::Svg,
            r#"{"rows": ["> [x] ship v0"], "cols": 2, "name": "s"}"#,
        )
        .await;
        assert_eq!(status, StatusCode::OK);
        assert!(String::from_utf8(svg).unwrap().contains("ship v0"));
        // One row of 300,000 columns, `cols` saying 1.
        let wide = format!(
            r#"{{"rows": ["{}"], "cols": 1, "name": "s"}}"#,
            "x".repeat(300_000)
        );
        let (status, _, text) = answer(Format::Svg, &wide).await;
        assert_eq!(status, StatusCode::BAD_REQUEST);
        assert!(
            String::from_utf8(text)
                .unwrap()
                .contains("300000 columns is over")
        );
    }

    #[tokio::test]
    async fn a_body_that_is_not_a_screen_is_refused_saying_why() {
        for (body, said) in [
            ("{", "not a screen: EOF while parsing"),
            (r#"{"rows": [], "name": "x"}"#, "missing field `cols`"),
            (
                r#"{"rows": ["a"], "cols": 70000, "name": "x"}"#,
                "not a screen",
            ),
            (
                r#"{"rows": ["a", "b", "c", "d"], "cols": 65535, "name": "x"}"#,
                "over 250000 cells",
            ),
        ] {
            let (status, _, text) = answer(Format::Svg, body).await;
            let text = String::from_utf8(text).unwrap();
            assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {text}");
            assert!(text.contains(said), "{body}: {text}");
        }
        let (status, _, text) =
            answer(Format::Png, r#"{"rows": [], "cols": 0, "name": "x"}"#).await;
        assert_eq!(
            status,
            StatusCode::BAD_REQUEST,
            "{}",
            String::from_utf8_lossy(&text)
        );
    }
}
