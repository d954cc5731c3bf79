//! The screen as a picture to download from the page (`screen.svg`, `screen.png`):
//! the app's screen as it is now, with its colours, drawn by
//! `taria_schema::picture`, the same picture `read_tree` with `format: picture`
//! gives a model.

use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use taria_schema::picture::{self, Look, PngLimits};

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
    let revision = screen.revision;
    let drawn = tokio::task::spawn_blocking(move || match format {
        Format::Svg => Ok(picture::svg(&screen.styled, &Look::default()).into_bytes()),
        Format::Png => picture::png(&screen.styled, &Look::default(), PngLimits::default())
            .map(|png| png.bytes)
            .map_err(|e| e.to_string()),
    })
    .await;
    let bytes = match drawn {
        Ok(Ok(bytes)) => bytes,
        Ok(Err(why)) => return (StatusCode::INTERNAL_SERVER_ERROR, why).into_response(),
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
    if let Ok(disposition) = HeaderValue::from_str(&format!(
        "attachment; filename=\"screen-r{revision}.{extension}\""
    )) {
        headers.insert(header::CONTENT_DISPOSITION, disposition);
    }
    page::no_store(headers);
    response
}
