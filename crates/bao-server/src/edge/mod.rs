//! The server's edge (docs/api.md "Cross-site requests", "Limits", "Errors", "Operations"):
//! what every request passes before and after its handler.
//!
//! * [`guard`]: the client's address (X-Forwarded-For only from a trusted proxy), the
//!   cross-site rule (a request that changes something with the seat cookie must come from
//!   our own pages), `Content-Type: application/json` and the 64 KiB limit on JSON calls,
//!   the request timeout, and `Secure` on the seat and session cookies behind https;
//! * [`errors`]: every error answered as the documented JSON, and a page for browsers that
//!   ask for an unknown address;
//! * [`log`]: one line per request at info level (method, path, status, time).
//!
//! And the vocabulary every feature's handlers speak (docs/architecture.md, "One edge
//! vocabulary"): who the caller is ([`account`]), its JSON body ([`body`]), the terms of a
//! game ([`terms`]), the rate limits a route declares ([`limit`]); the error categories are
//! [`crate::error::Category`].

pub mod accept;
pub mod account;
pub mod body;
pub mod feeds;
pub mod limit;
pub mod socket;
pub mod terms;

pub use limit::{Action, Limits, RateLimited, Rates};

use crate::error::{ApiError, Category};
use axum::body::Body;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// The address the server is reached at from browsers (`--public-url`): scheme and authority.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicUrl {
    https: bool,
    /// `host[:port]`, lower case, without the scheme's default port.
    authority: String,
}

impl PublicUrl {
    /// Whether browsers reach the server over https (the seat cookie is then `Secure`).
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// The origin browsers send in `Origin`: `https://bao.example.org`.
    pub fn origin(&self) -> String {
        let scheme = if self.https { "https" } else { "http" };
        format!("{scheme}://{}", self.authority)
    }
}

impl FromStr for PublicUrl {
    type Err = String;

    /// `http://HOST[:PORT]` or `https://HOST[:PORT]`, optionally with a path (ignored).
    fn from_str(s: &str) -> Result<Self, String> {
        let (https, rest) = if let Some(r) = s.strip_prefix("https://") {
            (true, r)
        } else if let Some(r) = s.strip_prefix("http://") {
            (false, r)
        } else {
            return Err(format!(
                "the public URL '{s}' must start with https:// or http://"
            ));
        };
        let host = rest.split(['/', '?', '#']).next().unwrap_or("");
        if host.is_empty() || host.contains('@') || host.chars().any(char::is_whitespace) {
            return Err(format!("the public URL '{s}' has no valid host name"));
        }
        Ok(PublicUrl {
            https,
            authority: normal_authority(https, host),
        })
    }
}

/// `host[:port]` in lower case without the scheme's default port.
fn normal_authority(https: bool, authority: &str) -> String {
    let a = authority.to_ascii_lowercase();
    let default = if https { ":443" } else { ":80" };
    match a.strip_suffix(default) {
        Some(h) => h.to_string(),
        None => a,
    }
}

/// How the server meets the outside world; every field has a `bao serve` flag.
#[derive(Clone, Debug)]
pub struct EdgeConfig {
    /// Where browsers reach the server when it is behind a proxy; without it the `Host`
    /// header names our own origin.
    pub public_url: Option<PublicUrl>,
    /// Peers whose `X-Forwarded-For` is believed (the reverse proxy, usually loopback).
    pub trust_proxy: Vec<IpAddr>,
    /// A connection must send its request headers within this time (also the keep-alive
    /// idle time), else it is closed.
    pub header_timeout: Duration,
    /// A request (body included) must be answered within this time (408 otherwise).
    pub request_timeout: Duration,
    /// Open connections at most (HTTP and WebSocket); more wait to be accepted.
    pub max_connections: usize,
    /// Per-address rate limits.
    pub rates: Rates,
    /// On shutdown, how long requests in flight and sockets get to finish.
    pub shutdown_grace: Duration,
}

impl Default for EdgeConfig {
    fn default() -> Self {
        EdgeConfig {
            public_url: None,
            trust_proxy: Vec::new(),
            header_timeout: Duration::from_secs(10),
            request_timeout: Duration::from_secs(30),
            max_connections: 10_000,
            rates: Rates::default(),
            shutdown_grace: Duration::from_secs(5),
        }
    }
}

/// The edge's shared state: configuration, limiters and the shutdown signal.
pub struct Edge {
    /// The configuration.
    pub config: EdgeConfig,
    /// The rate limiters.
    pub limits: Limits,
    stop: watch::Receiver<bool>,
}

impl Edge {
    /// The edge for `config`; `stop` turns true when the server shuts down.
    pub fn new(config: EdgeConfig, stop: watch::Receiver<bool>) -> Arc<Edge> {
        Arc::new(Edge {
            limits: Limits::new(config.rates),
            config,
            stop,
        })
    }

    /// The client's address: the peer, or (only when the peer is a trusted proxy) the last
    /// address of `X-Forwarded-For` that is not itself a trusted proxy.
    pub fn client_ip(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        if !self.config.trust_proxy.contains(&peer) {
            return peer;
        }
        let mut client = peer;
        for v in headers.get_all("x-forwarded-for").iter().rev() {
            let Ok(s) = v.to_str() else { return client };
            for part in s.rsplit(',') {
                match part.trim().parse::<IpAddr>() {
                    Ok(ip) if self.config.trust_proxy.contains(&ip) => client = ip,
                    Ok(ip) => return ip,
                    Err(_) => return client,
                }
            }
        }
        client
    }

    /// Whether a browser request comes from our own pages (Origin, else Sec-Fetch-Site);
    /// requests with neither header do not come from a browser page and pass.
    pub fn same_origin(&self, headers: &HeaderMap) -> bool {
        if let Some(origin) = headers.get(header::ORIGIN) {
            let Ok(origin) = origin.to_str() else {
                return false;
            };
            let origin = origin.trim().to_ascii_lowercase();
            return match &self.config.public_url {
                Some(p) => origin == p.origin(),
                None => {
                    let Some(host) = headers.get(header::HOST).and_then(|h| h.to_str().ok()) else {
                        return false;
                    };
                    // Without --public-url the scheme is unknown (a proxy may end TLS).
                    ["http://", "https://"].iter().any(|scheme| {
                        origin.strip_prefix(scheme).is_some_and(|a| {
                            normal_authority(scheme.len() == 8, a)
                                == normal_authority(scheme.len() == 8, host.trim())
                        })
                    })
                }
            };
        }
        match headers.get("sec-fetch-site").map(HeaderValue::as_bytes) {
            None => true,
            Some(v) => v == b"same-origin" || v == b"none",
        }
    }

    /// Resolves once the server is shutting down.
    pub async fn stopping(&self) {
        let mut rx = self.stop.clone();
        let _ = rx.wait_for(|s| *s).await;
    }
}

/// What a handler or a socket may need from the edge: its client's address, the limits and
/// the shutdown signal. Put in every request's extensions by [`guard`].
#[derive(Clone)]
pub struct Guard {
    pub(crate) edge: Arc<Edge>,
    /// The client's address.
    pub ip: IpAddr,
}

impl Guard {
    /// Counts one move of this client; the error frame to send when over the limit.
    pub fn check_move(&self) -> Result<(), ApiError> {
        self.edge
            .limits
            .check(Action::Move, self.ip)
            .map_err(|r| r.error())
    }

    /// Resolves once the server is shutting down: close the socket with [`going_away`].
    pub async fn stopping(&self) {
        self.edge.stopping().await
    }

    /// Counts one sign-up, login or recovery naming the account `name_key` (its address was
    /// counted by the route's limit); the refusal to answer over the limit.
    pub fn check_account_name(&self, name_key: &str) -> Result<(), RateLimited> {
        self.edge.limits.check_name(name_key)
    }
}

/// The close frame sent to WebSocket clients when the server shuts down (code 1001).
pub fn going_away() -> axum::extract::ws::Message {
    axum::extract::ws::Message::Close(Some(axum::extract::ws::CloseFrame {
        code: 1001,
        reason: "the server is restarting; reconnect in a moment".into(),
    }))
}

fn is_websocket(headers: &HeaderMap) -> bool {
    headers
        .get(header::UPGRADE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("websocket"))
}

/// Checks a request before its handler (see the module's documentation).
pub async fn guard(State(edge): State<Arc<Edge>>, mut req: Request, next: Next) -> Response {
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(IpAddr::from([0, 0, 0, 0]), |c| c.0.ip());
    let ip = edge.client_ip(peer, req.headers());
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let headers = req.headers();
    let changes = !matches!(method, Method::GET | Method::HEAD | Method::OPTIONS);
    let bearer = headers.contains_key(header::AUTHORIZATION);
    // Cross-site requests (docs/api.md, "Cross-site requests"): a page elsewhere must not act with the seat cookie.
    if (is_websocket(headers) || (changes && !bearer)) && !edge.same_origin(headers) {
        return ApiError::forbidden(
            "this request comes from another site; open the game on this server's own pages",
        )
        .into_response();
    }
    // The JSON calls (docs/api.md, "Cross-site requests", "Limits"): every change under
    // /api/ but the record upload, which takes a file as it is.
    if changes && path.starts_with("/api/") && path != "/api/records" {
        if !body::is_json(headers) {
            return body::not_json().into_response();
        }
        // Refused before a byte of it is read, whether the route reads a body or not; a body
        // that does not say its length is cut at the same size by the `Json` extractor.
        if body::announced_length(headers).is_some_and(|n| n > body::MAX_JSON as u64) {
            return body::json_too_large().into_response();
        }
    }
    req.extensions_mut().insert(Guard {
        edge: edge.clone(),
        ip,
    });
    let mut resp = match tokio::time::timeout(edge.config.request_timeout, next.run(req)).await {
        Ok(r) => r,
        Err(_) => ApiError::of(
            Category::Timeout,
            format!(
                "the request was not complete within {} s; please try again",
                edge.config.request_timeout.as_secs()
            ),
        )
        .into_response(),
    };
    if edge
        .config
        .public_url
        .as_ref()
        .is_some_and(PublicUrl::is_https)
    {
        secure_cookies(resp.headers_mut());
    }
    resp
}

/// Adds `Secure` to every cookie set (the public URL is https): the seat cookies and the
/// account's session cookie `bao_session` alike (docs/api.md, "Seats", "Accounts").
fn secure_cookies(headers: &mut HeaderMap) {
    let cookies: Vec<HeaderValue> = headers
        .get_all(header::SET_COOKIE)
        .iter()
        .cloned()
        .collect();
    if cookies.is_empty() {
        return;
    }
    headers.remove(header::SET_COOKIE);
    for c in cookies {
        let secure = c
            .to_str()
            .ok()
            .filter(|s| !s.to_ascii_lowercase().contains("; secure"))
            .and_then(|s| HeaderValue::from_str(&format!("{s}; Secure")).ok());
        headers.append(header::SET_COOKIE, secure.unwrap_or(c));
    }
}

/// The category and a default sentence for an error status without a JSON body.
fn category_of(status: StatusCode) -> (Category, &'static str) {
    match status.as_u16() {
        400 | 422 => (Category::BadRequest, "the request is malformed"),
        401 => (
            Category::NotSignedIn,
            "you are not signed in: this needs an account",
        ),
        403 => (Category::Forbidden, "this is not allowed"),
        404 => (Category::NotFound, "there is nothing at this address"),
        405 => (
            Category::MethodNotAllowed,
            "this address does not take this method",
        ),
        408 => (
            Category::Timeout,
            "the request took too long; please try again",
        ),
        413 => (Category::TooLarge, "the request is too large"),
        415 => (
            Category::UnsupportedMediaType,
            "send the request body as JSON",
        ),
        429 => (
            Category::RateLimited,
            "too many requests; try again in a moment",
        ),
        s if s >= 500 => (Category::Internal, "the server failed; please try again"),
        _ => (Category::BadRequest, "the request cannot be answered"),
    }
}

fn wants_html(headers: &HeaderMap) -> bool {
    headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.contains("text/html"))
}

/// The page for browsers that asked for an address that does not exist.
const NOT_FOUND_PAGE: &str = "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>Page not found - Bao</title>\n\
<link rel=\"stylesheet\" href=\"/static/style.css\">\n</head>\n<body>\n<main id=\"main\">\n\
<h1>Page not found</h1>\n<p>There is no page at this address. Check the link, or start again from the home page.</p>\n\
<p><a class=\"button\" href=\"/\">Go to the home page</a></p>\n</main>\n</body>\n</html>\n";

/// Turns every error answer into the documented JSON (docs/api.md "Errors"), whoever made it
/// (axum's own refusals of bad paths, queries and methods included), and answers browsers
/// that ask for an unknown page with an HTML page.
pub async fn errors(req: Request, next: Next) -> Response {
    let html = wants_html(req.headers()) && !req.uri().path().starts_with("/api/");
    let resp = next.run(req).await;
    let status = resp.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return resp;
    }
    if html && status == StatusCode::NOT_FOUND {
        return (
            StatusCode::NOT_FOUND,
            [
                (header::CONTENT_TYPE, "text/html; charset=utf-8"),
                (header::CACHE_CONTROL, "no-cache"),
            ],
            NOT_FOUND_PAGE,
        )
            .into_response();
    }
    let json = resp
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if json {
        return resp;
    }
    let (mut parts, body) = resp.into_parts();
    let text = axum::body::to_bytes(body, 4096).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text);
    let (category, default) = category_of(status);
    let message = match text.trim() {
        "" => default.to_string(),
        t => t.to_string(),
    };
    let e = ApiError::new(status, category, message);
    parts.headers.remove(header::CONTENT_LENGTH);
    parts.headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    Response::from_parts(parts, Body::from(e.body().to_string()))
}

/// Logs every request at info level: method, path (never the query, which may hold a
/// token), status and time.
pub async fn log(req: Request, next: Next) -> Response {
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let t0 = Instant::now();
    let resp = next.run(req).await;
    tracing::info!(
        target: "bao_server::request",
        "{method} {path} {} {:.1} ms",
        resp.status().as_u16(),
        t0.elapsed().as_secs_f64() * 1000.0
    );
    resp
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edge(public: Option<&str>, trust: &[&str]) -> Arc<Edge> {
        let (_tx, rx) = watch::channel(false);
        Edge::new(
            EdgeConfig {
                public_url: public.map(|p| p.parse().unwrap()),
                trust_proxy: trust.iter().map(|t| t.parse().unwrap()).collect(),
                ..EdgeConfig::default()
            },
            rx,
        )
    }

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn public_urls() {
        let p: PublicUrl = "https://Bao.Example.org:443/play".parse().unwrap();
        assert_eq!(p.origin(), "https://bao.example.org");
        assert!(p.is_https());
        let p: PublicUrl = "http://localhost:8080".parse().unwrap();
        assert_eq!(p.origin(), "http://localhost:8080");
        assert!("bao.example.org".parse::<PublicUrl>().is_err());
        assert!("https://".parse::<PublicUrl>().is_err());
    }

    #[test]
    fn origin_against_host_or_public_url() {
        let e = edge(None, &[]);
        let h = |o: &str| headers(&[("host", "127.0.0.1:8080"), ("origin", o)]);
        assert!(e.same_origin(&h("http://127.0.0.1:8080")));
        assert!(!e.same_origin(&h("http://evil.example")));
        assert!(!e.same_origin(&h("http://127.0.0.1:8081")));
        assert!(!e.same_origin(&h("null")));
        assert!(e.same_origin(&headers(&[
            ("host", "a"),
            ("sec-fetch-site", "same-origin")
        ])));
        assert!(!e.same_origin(&headers(&[("host", "a"), ("sec-fetch-site", "cross-site")])));
        assert!(!e.same_origin(&headers(&[("host", "a"), ("sec-fetch-site", "same-site")])));
        assert!(e.same_origin(&headers(&[("host", "a")])));
        let e = edge(Some("https://bao.example.org"), &[]);
        let h = |o: &str| headers(&[("host", "127.0.0.1:8080"), ("origin", o)]);
        assert!(e.same_origin(&h("https://bao.example.org")));
        assert!(!e.same_origin(&h("http://bao.example.org")));
        assert!(!e.same_origin(&h("http://127.0.0.1:8080")));
    }

    #[test]
    fn forwarded_for_only_from_trusted_proxies() {
        let peer: IpAddr = "127.0.0.1".parse().unwrap();
        let h = headers(&[("x-forwarded-for", "10.0.0.1, 203.0.113.7")]);
        assert_eq!(edge(None, &[]).client_ip(peer, &h), peer);
        let e = edge(None, &["127.0.0.1"]);
        assert_eq!(
            e.client_ip(peer, &h),
            "203.0.113.7".parse::<IpAddr>().unwrap()
        );
        // A client cannot pass itself off as another by sending its own header first.
        let h = headers(&[("x-forwarded-for", "garbage, 198.51.100.2")]);
        assert_eq!(
            e.client_ip(peer, &h),
            "198.51.100.2".parse::<IpAddr>().unwrap()
        );
        let other: IpAddr = "192.0.2.9".parse().unwrap();
        assert_eq!(e.client_ip(other, &h), other);
    }
}
