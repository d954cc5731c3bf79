//! The inspector: a page for a person watching an agent drive the app
//! (`taria-mcp --inspect`), or looking back at a session (`taria-mcp view FILE`).
//! It shows the screen in colour (and gives it as an SVG or PNG picture to save,
//! [`pictures`]), the tree as an outline (hover a line to outline its node on the
//! screen, click the screen to find the node), and a recording viewer that steps
//! through a `--record` file.
//!
//! Served on 127.0.0.1 only, at an address with a random token
//! (`http://127.0.0.1:<port>/<token>/`, printed on standard error): [`access`]
//! refuses any request without the token, or whose `Host` or `Origin` is not the
//! server's own. The page's files are built in ([`page`]). The live feed is a
//! `WebSocket` ([`live`]); the page only watches: it has no way to send the app an
//! input.
//!
//! axum (HTTP/1 and `WebSocket`s, through hyper and `tokio-tungstenite`) on the tokio
//! runtime the bridge already runs: routing, the WebSocket handshake and body limits
//! are theirs, well kept and widely used, rather than hand-written here.

mod access;
mod live;
mod live_screen;
mod outline;
mod page;
mod pictures;
mod recording;

use std::net::Ipv4Addr;
use std::sync::Arc;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::StringRejection;
use axum::extract::ws::WebSocketUpgrade;
use axum::handler::Handler as _;
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};

use crate::input_log::InputLog;
use crate::link::Link;
use access::{Gate, Token};
use live::{Live, MAX_PAGE_MESSAGE};
use recording::Viewed;

/// The largest recording a page may open (`taria-mcp view FILE` reads up to
/// `taria_schema::recording::MAX_RECORDING_BYTES`).
const MAX_UPLOAD_BYTES: usize = 64 * 1024 * 1024;

/// What the inspector shows.
pub(crate) enum Watched {
    /// The app behind the link, live, and the input calls the bridge answers.
    Live(Link, InputLog),
    /// A recording, read before the server started (`taria-mcp view FILE`).
    Recording(Arc<str>),
}

impl Watched {
    /// The recording at `path`, or why it cannot be read.
    pub(crate) fn recording(path: &std::path::Path) -> Result<Watched, String> {
        let text =
            taria_schema::recording::Recording::read_text(path).map_err(|e| e.to_string())?;
        let viewed = Viewed::parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
        let json = serde_json::to_string(&viewed).map_err(|e| e.to_string())?;
        Ok(Watched::Recording(json.into()))
    }
}

/// A running inspector.
pub(crate) struct Inspector {
    url: String,
}

impl Inspector {
    /// Listens on 127.0.0.1 at `port` (0: any free port) and serves the page for
    /// `watched`, on the current tokio runtime. The error is the line to print.
    pub(crate) async fn start(port: u16, watched: Watched) -> Result<Inspector, String> {
        let token = Token::new()?;
        let listener = tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port))
            .await
            .map_err(|e| {
                format!(
                    "the inspector cannot listen on 127.0.0.1:{port}: {e}; give --inspect=PORT \
                     another port, or --inspect alone for any free one"
                )
            })?;
        let port = listener
            .local_addr()
            .map_err(|e| format!("the inspector's address is unknown: {e}"))?
            .port();
        let gate = Gate {
            port,
            token: token.clone(),
        };
        let router = routes(&token, watched)
            .layer(axum::middleware::from_fn_with_state(gate, access::guard));
        tokio::spawn(async move {
            if let Err(e) = axum::serve(listener, router).await {
                tracing::error!(error = %e, "the inspector stopped serving");
            }
        });
        Ok(Inspector {
            url: format!("http://127.0.0.1:{port}/{token}/"),
        })
    }

    /// The page's address, token included.
    pub(crate) fn url(&self) -> &str {
        &self.url
    }
}

/// The routes, every one under the token.
fn routes(token: &Token, watched: Watched) -> Router {
    let base = format!("/{token}");
    let redirect = format!("{base}/");
    let uploads = post_recording.layer(DefaultBodyLimit::max(MAX_UPLOAD_BYTES));
    let router = Router::new()
        .route(
            &base,
            get(move || async move { Redirect::permanent(&redirect) }),
        )
        .route(&format!("{base}/"), get(page::index))
        .route(&format!("{base}/{{name}}"), get(page::named))
        .route(
            &format!("{base}/picture.svg"),
            post(|body| pictures::of_rows(pictures::Format::Svg, body))
                .layer(DefaultBodyLimit::max(pictures::MAX_PICTURE_BODY)),
        )
        .route(
            &format!("{base}/picture.png"),
            post(|body| pictures::of_rows(pictures::Format::Png, body))
                .layer(DefaultBodyLimit::max(pictures::MAX_PICTURE_BODY)),
        )
        .fallback(|| async { access::Refused::Token });
    match watched {
        Watched::Live(link, inputs) => {
            let live = Live::new(link.clone(), inputs);
            let svg_link = link.clone();
            router
                .route(
                    &format!("{base}/screen.svg"),
                    get(move || pictures::download(svg_link.clone(), pictures::Format::Svg)),
                )
                .route(
                    &format!("{base}/screen.png"),
                    get(move || pictures::download(link.clone(), pictures::Format::Png)),
                )
                .route(
                    &format!("{base}/live"),
                    get(move |upgrade: WebSocketUpgrade| async move {
                        upgrade
                            .max_message_size(MAX_PAGE_MESSAGE)
                            .on_upgrade(move |socket| live.feed(socket))
                    }),
                )
                .route(
                    &format!("{base}/recording"),
                    get(|| async { (StatusCode::NOT_FOUND, "no recording given: open one") })
                        .post(uploads),
                )
        }
        Watched::Recording(json) => router
            .route(
                &format!("{base}/live"),
                get(|upgrade: WebSocketUpgrade| async move {
                    upgrade
                        .max_message_size(MAX_PAGE_MESSAGE)
                        .on_upgrade(live::feed_viewer)
                }),
            )
            .route(
                &format!("{base}/recording"),
                get(move || async move { json_response(&json) }).post(uploads),
            ),
    }
}

/// A recording the page sends (a file a person picked): its viewer form, or why it
/// cannot be read.
async fn post_recording(body: Result<String, StringRejection>) -> Response {
    let text = match body {
        Ok(text) => text,
        Err(rejection) => {
            let message = format!(
                "cannot read that file: {rejection} (a recording is UTF-8 text of at most {} \
                 MiB; open a larger one with `taria-mcp view FILE`)",
                MAX_UPLOAD_BYTES / 1024 / 1024
            );
            return (StatusCode::BAD_REQUEST, message).into_response();
        }
    };
    let viewed = tokio::task::spawn_blocking(move || {
        Viewed::parse(&text).and_then(|v| serde_json::to_string(&v).map_err(|e| e.to_string()))
    })
    .await;
    match viewed {
        Ok(Ok(json)) => json_response(&json),
        Ok(Err(why)) => (StatusCode::BAD_REQUEST, why).into_response(),
        Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "reading it failed").into_response(),
    }
}

fn json_response(json: &str) -> Response {
    let mut response = json.to_owned().into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    page::no_store(headers);
    response
}
