//! Who may use the inspector: a request must name the page's random token (its path
//! starts with it), and come through the loopback address the server listens on
//! (`Host`), from the page itself or from no page at all (`Origin`). So another user
//! or a local process without the URL gets nothing, and a web page elsewhere cannot
//! reach it, even through a DNS name rebound to 127.0.0.1 (its `Host` and `Origin`
//! name that site).

use std::fmt::{self, Write as _};

use axum::extract::{Request, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The secret part of the inspector's URL: 128 bits from the OS's random source,
/// in hex.
#[derive(Clone)]
pub(super) struct Token(String);

impl Token {
    /// A fresh token.
    pub(super) fn new() -> Result<Token, String> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|e| format!("no random source for the inspector's token: {e}"))?;
        let mut hex = String::with_capacity(32);
        for byte in bytes {
            let _ = write!(hex, "{byte:02x}");
        }
        Ok(Token(hex))
    }

    /// Whether `text` is this token, compared in time that does not depend on where
    /// they differ.
    pub(super) fn is(&self, text: &str) -> bool {
        let (ours, theirs) = (self.0.as_bytes(), text.as_bytes());
        ours.len() == theirs.len()
            && ours
                .iter()
                .zip(theirs)
                .fold(0u8, |differ, (a, b)| differ | (a ^ b))
                == 0
    }
}

impl fmt::Display for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// What a request is checked against: the port the server listens on (on 127.0.0.1)
/// and the token.
#[derive(Clone)]
pub(super) struct Gate {
    pub(super) port: u16,
    pub(super) token: Token,
}

impl Gate {
    /// Why `headers` and `path` may not be served, or `None` when they may.
    pub(super) fn refusal(&self, headers: &HeaderMap, path: &str) -> Option<Refused> {
        let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
        if !host.is_some_and(|host| self.is_ours(host)) {
            return Some(Refused::Host);
        }
        if let Some(origin) = headers.get(header::ORIGIN) {
            let ours = origin
                .to_str()
                .ok()
                .and_then(|o| o.strip_prefix("http://"))
                .is_some_and(|o| self.is_ours(o));
            if !ours {
                return Some(Refused::Origin);
            }
        }
        let named = path
            .strip_prefix('/')
            .map(|rest| rest.split('/').next().unwrap_or(rest))
            .is_some_and(|first| self.token.is(first));
        (!named).then_some(Refused::Token)
    }

    /// Whether `authority` (a `Host` header, an origin without its scheme) is the
    /// server's own: `127.0.0.1` or `localhost` with its port.
    fn is_ours(&self, authority: &str) -> bool {
        let Some((name, port)) = authority.rsplit_once(':') else {
            return false;
        };
        port.parse::<u16>() == Ok(self.port)
            && (name == "127.0.0.1" || name.eq_ignore_ascii_case("localhost"))
    }
}

/// Why a request was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Refused {
    /// The `Host` is not the loopback address and port the server listens on.
    Host,
    /// The request came from another site's page.
    Origin,
    /// The path does not start with the token.
    Token,
}

impl IntoResponse for Refused {
    fn into_response(self) -> Response {
        let why = match self {
            Refused::Host => {
                "taria-mcp's inspector answers only at http://127.0.0.1:<port>/ or \
                 http://localhost:<port>/, as taria-mcp printed it"
            }
            Refused::Origin => "taria-mcp's inspector does not answer other sites' pages",
            Refused::Token => {
                "taria-mcp's inspector needs the whole address taria-mcp printed on its \
                 standard error, token included (http://127.0.0.1:<port>/<token>/)"
            }
        };
        let mut response = (StatusCode::FORBIDDEN, why).into_response();
        super::page::no_store(response.headers_mut());
        response
    }
}

/// The middleware that refuses what [`Gate::refusal`] refuses, before any route runs.
pub(super) async fn guard(State(gate): State<Gate>, request: Request, next: Next) -> Response {
    match gate.refusal(request.headers(), request.uri().path()) {
        Some(refused) => {
            tracing::info!(?refused, path = %request.uri().path(), "inspector request refused");
            refused.into_response()
        }
        None => next.run(request).await,
    }
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn gate() -> Gate {
        Gate {
            port: 4242,
            token: Token("00ff".repeat(8)),
        }
    }

    fn headers(host: Option<&str>, origin: Option<&str>) -> HeaderMap {
        let mut headers = HeaderMap::new();
        if let Some(host) = host {
            headers.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        }
        if let Some(origin) = origin {
            headers.insert(header::ORIGIN, HeaderValue::from_str(origin).unwrap());
        }
        headers
    }

    #[test]
    fn the_token_opens_the_page_from_the_loopback_address_only() {
        let gate = gate();
        let path = format!("/{}/", gate.token);
        for host in ["127.0.0.1:4242", "localhost:4242", "LocalHost:4242"] {
            assert_eq!(
                gate.refusal(&headers(Some(host), None), &path),
                None,
                "{host}"
            );
        }
        let live = format!("/{}/live", gate.token);
        let page = Some("http://127.0.0.1:4242");
        assert_eq!(
            gate.refusal(&headers(Some("127.0.0.1:4242"), page), &live),
            None
        );
    }

    #[test]
    fn a_rebound_name_another_port_or_no_host_is_refused() {
        let gate = gate();
        let path = format!("/{}/", gate.token);
        for host in [
            Some("attacker.example:4242"),
            Some("127.0.0.1.attacker.example:4242"),
            Some("127.0.0.1:4243"),
            Some("127.0.0.1"),
            Some("[::1]:4242"),
            None,
        ] {
            assert_eq!(
                gate.refusal(&headers(host, None), &path),
                Some(Refused::Host),
                "{host:?}"
            );
        }
    }

    #[test]
    fn another_site_s_page_is_refused_even_with_the_token() {
        let gate = gate();
        let live = format!("/{}/live", gate.token);
        for origin in [
            "http://attacker.example",
            "http://127.0.0.1:4243",
            "https://127.0.0.1:4242",
            "null",
        ] {
            let headers = headers(Some("127.0.0.1:4242"), Some(origin));
            assert_eq!(
                gate.refusal(&headers, &live),
                Some(Refused::Origin),
                "{origin}"
            );
        }
    }

    #[test]
    fn a_path_without_the_whole_token_is_refused() {
        let gate = gate();
        let host = headers(Some("127.0.0.1:4242"), None);
        let token = gate.token.to_string();
        for path in [
            "/".to_owned(),
            "/live".to_owned(),
            format!("/{}/", &token[..31]),
            format!("/{token}0/"),
            format!("/x/{token}/"),
        ] {
            assert_eq!(gate.refusal(&host, &path), Some(Refused::Token), "{path}");
        }
    }

    #[test]
    fn tokens_are_fresh_and_128_bits() {
        let (a, b) = (Token::new().unwrap(), Token::new().unwrap());
        assert_eq!(a.to_string().len(), 32);
        assert!(a.to_string().bytes().all(|c| c.is_ascii_hexdigit()));
        assert!(!a.is(&b.to_string()));
        assert!(a.is(&a.to_string()));
    }
}
