//! The page's files, built into taria-mcp (no CDN, nothing fetched from elsewhere),
//! served with headers that keep it to itself: a content security policy that lets
//! it load only its own scripts and styles and talk only to its own server, no
//! caching, no referrer, no framing.

use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

/// The page's files: name, media type, contents. The fonts are the ones the bridge
/// draws pictures with, so the page's screen and a saved picture look alike on any
/// machine.
static FILES: &[(&str, &str, &[u8])] = &[
    (
        "",
        "text/html; charset=utf-8",
        include_str!("page/index.html").as_bytes(),
    ),
    (
        "inspector.css",
        "text/css; charset=utf-8",
        include_str!("page/inspector.css").as_bytes(),
    ),
    (
        "inspector.js",
        "text/javascript; charset=utf-8",
        include_str!("page/inspector.js").as_bytes(),
    ),
    (
        "screen.js",
        "text/javascript; charset=utf-8",
        include_str!("page/screen.js").as_bytes(),
    ),
    (
        "tree.js",
        "text/javascript; charset=utf-8",
        include_str!("page/tree.js").as_bytes(),
    ),
    (
        "recording.js",
        "text/javascript; charset=utf-8",
        include_str!("page/recording.js").as_bytes(),
    ),
    (
        "steps.js",
        "text/javascript; charset=utf-8",
        include_str!("page/steps.js").as_bytes(),
    ),
    (
        "strip.js",
        "text/javascript; charset=utf-8",
        include_str!("page/strip.js").as_bytes(),
    ),
    (
        "dejavu-sans-mono.ttf",
        "font/ttf",
        taria_schema::picture::DEJAVU_SANS_MONO,
    ),
    (
        "dejavu-sans-mono-bold.ttf",
        "font/ttf",
        taria_schema::picture::DEJAVU_SANS_MONO_BOLD,
    ),
    (
        "favicon.svg",
        "image/svg+xml",
        include_str!("page/favicon.svg").as_bytes(),
    ),
];

/// Only the page's own files and server; app text is never markup (the scripts
/// write it as text), and no inline script could run if it were.
const POLICY: &str = "default-src 'none'; script-src 'self'; style-src 'self'; \
    font-src 'self'; connect-src 'self'; img-src 'self'; base-uri 'none'; \
    form-action 'none'; frame-ancestors 'none'";

/// The page itself.
pub(super) async fn index() -> Response {
    file("")
}

/// One of its files (`inspector.js`, …).
pub(super) async fn named(Path(name): Path<String>) -> Response {
    file(&name)
}

fn file(name: &str) -> Response {
    let Some((_, media_type, contents)) = FILES.iter().find(|(n, ..)| *n == name) else {
        let mut response = (StatusCode::NOT_FOUND, "no such file").into_response();
        no_store(response.headers_mut());
        return response;
    };
    let mut response = (*contents).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(media_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(POLICY),
    );
    no_store(headers);
    response
}

/// Headers every answer carries: not cached (the address holds the token), no
/// referrer, not sniffed as another type, not framed.
pub(super) fn no_store(headers: &mut HeaderMap) {
    for (name, value) in [
        (header::CACHE_CONTROL, "no-store"),
        (header::REFERRER_POLICY, "no-referrer"),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
    ] {
        headers.insert(name, HeaderValue::from_static(value));
    }
}
