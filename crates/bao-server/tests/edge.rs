//! The server's edge over real HTTP and WebSocket (docs/api.md, "Cross-site requests" to "Operations"): cross-site requests,
//! Content-Type, rate limits, slow clients, the connection cap, compression, caching, the
//! JSON form of every error, the HTML 404 page and the health check.

mod common;

use bao_server::edge::{EdgeConfig, Rates};
use bao_server::Running;
use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::{Duration, Instant};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

async fn start_with(tag: &str, edge: EdgeConfig) -> Running {
    server(&sqlite_url(tag)).edge(edge).start().await
}

/// A POST as a browser sends it: the seat cookie, and the given extra headers.
async fn browser_post(
    s: &Running,
    path: &str,
    cookie: Option<(&str, &str)>,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, reqwest::header::HeaderMap, Value) {
    let mut r = reqwest::Client::new()
        .post(format!("http://{}{path}", s.addr))
        .body(body.to_string());
    if let Some((id, token)) = cookie {
        r = r.header("cookie", format!("bao_{id}={token}"));
    }
    for (k, v) in headers {
        r = r.header(*k, *v);
    }
    let a = r.send().await.unwrap();
    let status = a.status().as_u16();
    let h = a.headers().clone();
    let text = a.text().await.unwrap();
    (
        status,
        h,
        serde_json::from_str(&text).unwrap_or(Value::Null),
    )
}

fn is_error(v: &Value, category: &str) -> bool {
    v["error"] == category && v["message"].as_str().is_some_and(|m| !m.is_empty())
}

#[tokio::test]
async fn cross_site_requests_are_refused_and_own_pages_and_scripts_work() {
    let s = start_with("origin", EdgeConfig::default()).await;
    let c = Client::new(&s);
    let (id, t0, _t1) = c.two_player_game("kiswahili", "S", "single_game").await;
    let own = format!("http://{}", s.addr);
    let st = c.state(&id, Some(&t0)).await;
    let mv = json!({"move": first_legal(&st), "ply": 0}).to_string();
    let path = format!("/api/games/{id}/moves");
    let json_ct = ("content-type", "application/json");

    // A foreign page with the seat cookie: refused, the game unchanged.
    for h in [
        vec![json_ct, ("origin", "http://evil.example")],
        vec![json_ct, ("origin", "null")],
        vec![json_ct, ("sec-fetch-site", "cross-site")],
        vec![
            ("content-type", "text/plain"),
            ("origin", "http://evil.example"),
        ],
    ] {
        let (status, _, v) = browser_post(&s, &path, Some((&id, &t0)), &h, &mv).await;
        assert_eq!(status, 403, "{h:?}: {v}");
        assert!(is_error(&v, "forbidden"), "{v}");
    }
    let form = format!("/api/games/{id}/resign");
    let (status, _, _) = browser_post(
        &s,
        &form,
        Some((&id, &t0)),
        &[
            ("content-type", "application/x-www-form-urlencoded"),
            ("origin", "http://evil.example"),
        ],
        "x=1",
    )
    .await;
    assert_eq!(status, 403);
    assert_eq!(c.state(&id, None).await["ply"], 0, "nothing was played");

    // Our own page: a text/plain body is refused (415), JSON is played.
    let (status, _, v) = browser_post(
        &s,
        &path,
        Some((&id, &t0)),
        &[("content-type", "text/plain"), ("origin", &own)],
        &mv,
    )
    .await;
    assert_eq!(status, 415, "{v}");
    assert!(is_error(&v, "unsupported_media_type"), "{v}");
    let (status, _, v) = browser_post(
        &s,
        &path,
        Some((&id, &t0)),
        &[json_ct, ("origin", &own), ("sec-fetch-site", "same-origin")],
        &mv,
    )
    .await;
    assert_eq!(status, 200, "{v}");

    // A script with a bearer token needs no Origin (and a foreign one does not matter).
    let st = c.state(&id, None).await;
    let a = c.play(&id, &_t1, &first_legal(&st), 1).await;
    assert_eq!(a.status, 200, "{}", a.text);

    // WebSocket: a foreign Origin is refused before the upgrade, our own is served.
    let ws_url = format!("ws://{}/api/games/{id}/ws?token={t0}", s.addr);
    let mut req = ws_url.as_str().into_client_request().unwrap();
    req.headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(req).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        Err(e) => panic!("expected 403, got {e}"),
        Ok(_) => panic!("a foreign page opened the game's socket"),
    }
    let mut req = ws_url.as_str().into_client_request().unwrap();
    req.headers_mut().insert("origin", own.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("own origin");
    let first = next_json(&mut ws).await;
    assert_eq!(first["type"], "state");
    s.stop().await;
}

#[tokio::test]
async fn public_url_decides_the_origin_and_secures_the_cookie() {
    let edge = EdgeConfig {
        public_url: Some("https://bao.example.org".parse().unwrap()),
        ..EdgeConfig::default()
    };
    let s = start_with("public", edge).await;
    let body = json!({"variant": "kiswahili", "opponent": {"kind": "human"}}).to_string();
    let json_ct = ("content-type", "application/json");
    let (status, _, _) = browser_post(
        &s,
        "/api/games",
        None,
        &[json_ct, ("origin", &format!("http://{}", s.addr))],
        &body,
    )
    .await;
    assert_eq!(
        status, 403,
        "behind the proxy, only the public origin is ours"
    );
    let (status, h, v) = browser_post(
        &s,
        "/api/games",
        None,
        &[json_ct, ("origin", "https://bao.example.org")],
        &body,
    )
    .await;
    assert_eq!(status, 201, "{v}");
    let cookie = h["set-cookie"].to_str().unwrap();
    assert!(cookie.ends_with("; Secure"), "{cookie}");
    s.stop().await;

    // Over plain http the cookie cannot be Secure (the browser would drop it).
    let s = start_with("plain", EdgeConfig::default()).await;
    let (status, h, _) = browser_post(&s, "/api/games", None, &[json_ct], &body).await;
    assert_eq!(status, 201);
    assert!(!h["set-cookie"].to_str().unwrap().contains("Secure"));
    s.stop().await;
}

#[tokio::test]
async fn rate_limits_answer_429_with_retry_after_per_client_address() {
    let edge = EdgeConfig {
        rates: Rates {
            create: 3,
            moves: 2,
            ..Rates::NONE
        },
        trust_proxy: vec!["127.0.0.1".parse().unwrap()],
        ..EdgeConfig::default()
    };
    let s = start_with("rates", edge).await;
    let body = json!({"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "S"});
    let create = |xff: &'static str| {
        let url = format!("http://{}/api/games", s.addr);
        let body = body.to_string();
        async move {
            reqwest::Client::new()
                .post(url)
                .header("content-type", "application/json")
                .header("x-forwarded-for", xff)
                .body(body)
                .send()
                .await
                .unwrap()
        }
    };
    let mut game = None;
    for _ in 0..3 {
        let r = create("203.0.113.1").await;
        assert_eq!(r.status(), 201);
        game.get_or_insert(r.json::<Value>().await.unwrap());
    }
    let r = create("203.0.113.1").await;
    assert_eq!(r.status(), 429);
    let retry: u64 = r.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=20).contains(&retry), "Retry-After {retry}");
    assert!(is_error(&r.json().await.unwrap(), "rate_limited"));
    // Another client behind the same trusted proxy has its own allowance.
    assert_eq!(create("203.0.113.2").await.status(), 201);

    // Moves: over HTTP and WebSocket together.
    let g = game.unwrap();
    let (id, t0) = (g["id"].as_str().unwrap(), g["token"].as_str().unwrap());
    let c = Client::new(&s);
    let invite = g["invite"].as_str().unwrap();
    let j = c
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": invite}),
        )
        .await;
    let t1 = j.json["token"].as_str().unwrap().to_string();
    let st = c.state(id, None).await;
    assert_eq!(c.play(id, t0, &first_legal(&st), 0).await.status, 200);
    let addr = s.addr.to_string();
    let mut ws = ws(&addr, id, Some(&t1)).await;
    let st = next_of(&mut ws, "state", None).await;
    send(
        &mut ws,
        json!({"type": "move", "move": first_legal(&st["state"]), "ply": 1}),
    )
    .await;
    let m = next_of(&mut ws, "move", Some(2)).await;
    let st = c.state(id, None).await;
    assert_eq!(m["move"]["ply"], 2);
    let a = c.play(id, t0, &first_legal(&st), 2).await;
    assert_eq!(a.status, 429, "{}", a.text);
    assert!(is_error(&a.json, "rate_limited"));
    send(&mut ws, json!({"type": "move", "move": "A1R", "ply": 2})).await;
    let e = next_of(&mut ws, "error", None).await;
    assert_eq!(e["error"], "rate_limited", "{e}");
    assert_eq!(c.state(id, None).await["ply"], 2);
    s.stop().await;
}

/// Reads until the server closes the connection; the bytes read.
async fn read_to_close(t: &mut TcpStream) -> Vec<u8> {
    let mut out = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(60), t.read_to_end(&mut out))
        .await
        .expect("the server closes the connection");
    out
}

#[tokio::test]
async fn slow_headers_are_cut_off_and_connections_are_capped() {
    let edge = EdgeConfig {
        header_timeout: Duration::from_secs(1),
        max_connections: 3,
        ..EdgeConfig::default()
    };
    let s = start_with("slow", edge).await;
    // Taken before the first connection: no server timer can start earlier.
    let t0 = Instant::now();
    // Slowloris: headers begun, never finished. Each is closed after the timeout.
    let mut slow = Vec::new();
    for _ in 0..3 {
        let mut t = TcpStream::connect(s.addr).await.unwrap();
        t.write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            .await
            .unwrap();
        slow.push(tokio::spawn(async move {
            let rest = read_to_close(&mut t).await;
            (Instant::now(), rest)
        }));
    }
    // The cap is reached: a fourth client waits until a slow one is gone.
    let mut fourth = TcpStream::connect(s.addr).await.unwrap();
    fourth
        .write_all(b"GET /api/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let fourth = tokio::spawn(async move {
        let answer = read_to_close(&mut fourth).await;
        (Instant::now(), answer)
    });
    for t in slow {
        let (closed_at, rest) = t.await.unwrap();
        assert!(
            !String::from_utf8_lossy(&rest).contains("200 OK"),
            "a request without its end of headers is not answered"
        );
        assert!(
            closed_at - t0 >= Duration::from_secs(1),
            "closed by the timeout"
        );
    }
    let (answered_at, answer) = fourth.await.unwrap();
    assert!(String::from_utf8_lossy(&answer).starts_with("HTTP/1.1 200"));
    // Not served while three connections were open: only once the timeout freed a place.
    assert!(
        answered_at - t0 >= Duration::from_secs(1),
        "answered after {:?}",
        answered_at - t0
    );
    s.stop().await;
}

#[tokio::test]
async fn compression_for_json_and_pages_not_for_websockets() {
    let s = start_with("gzip", EdgeConfig::default()).await;
    let http = reqwest::Client::new();
    let base = format!("http://{}", s.addr);
    let plain = http
        .get(format!("{base}/api/variants"))
        .send()
        .await
        .unwrap();
    assert!(plain.headers().get("content-encoding").is_none());
    let plain_len = plain.bytes().await.unwrap().len();
    for enc in ["gzip", "br"] {
        for path in ["/api/variants", "/", "/static/game.js"] {
            let r = http
                .get(format!("{base}{path}"))
                .header("accept-encoding", enc)
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            assert_eq!(r.headers()["content-encoding"], enc, "{path}");
            if path == "/api/variants" {
                let n = r.bytes().await.unwrap().len();
                assert!(n * 3 < plain_len, "{enc}: {n} of {plain_len} bytes");
            }
        }
    }
    let c = Client::new(&s);
    let (id, _, _) = c.human_game("kiswahili", "S", "single_game").await;
    let mut req = format!("ws://{}/api/games/{id}/ws", s.addr)
        .into_client_request()
        .unwrap();
    req.headers_mut()
        .insert("accept-encoding", "gzip, br".parse().unwrap());
    let (mut ws, resp) = tokio_tungstenite::connect_async(req).await.unwrap();
    assert!(resp.headers().get("content-encoding").is_none());
    assert_eq!(next_json(&mut ws).await["type"], "state");
    s.stop().await;
}

#[tokio::test]
async fn static_files_have_etags_and_versioned_urls_are_immutable() {
    let s = start_with("cache", EdgeConfig::default()).await;
    let http = reqwest::Client::new();
    let base = format!("http://{}", s.addr);
    let page = http.get(format!("{base}/g/abc")).send().await.unwrap();
    assert_eq!(page.headers()["cache-control"], "no-cache");
    let etag = page.headers()["etag"].clone();
    let html = page.text().await.unwrap();
    let again = http
        .get(format!("{base}/g/abc"))
        .header("if-none-match", etag.clone())
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert!(again.bytes().await.unwrap().is_empty());
    // The page links its script by a versioned URL, cached for good.
    let start = html.find("/static/game.js?v=").expect("versioned script");
    let url: String = html[start..].chars().take_while(|c| *c != '"').collect();
    let js = http.get(format!("{base}{url}")).send().await.unwrap();
    assert_eq!(js.status(), 200);
    assert!(js.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("immutable"));
    // Its imports are versioned too, and resolve.
    let text = js.text().await.unwrap();
    let i = text.find("'./app.js?v=").expect("versioned import");
    let import: String = text[i + 3..].chars().take_while(|c| *c != '\'').collect();
    let app = http
        .get(format!("{base}/static/{import}"))
        .send()
        .await
        .unwrap();
    assert_eq!(app.status(), 200);
    assert!(app.headers()["cache-control"]
        .to_str()
        .unwrap()
        .contains("immutable"));
    // A stale or missing version is revalidated, not cached for a year.
    for u in ["/static/game.js", "/static/game.js?v=000000000000"] {
        let r = http.get(format!("{base}{u}")).send().await.unwrap();
        assert_eq!(r.headers()["cache-control"], "no-cache", "{u}");
        assert!(r.headers().contains_key("etag"));
    }
    s.stop().await;
}

#[tokio::test]
async fn every_error_is_json_and_browsers_get_a_page() {
    let s = start_with("errors", EdgeConfig::default()).await;
    let http = reqwest::Client::new();
    let base = format!("http://{}", s.addr);
    let c = Client::new(&s);
    let (id, _, _) = c.human_game("kiswahili", "S", "single_game").await;
    let cases: Vec<(reqwest::Method, String, u16, &str)> = vec![
        (
            reqwest::Method::GET,
            format!("/api/games/{id}/moves"),
            405,
            "method_not_allowed",
        ),
        (
            reqwest::Method::DELETE,
            "/api/games".into(),
            405,
            "method_not_allowed",
        ),
        (reqwest::Method::PUT, "/".into(), 405, "method_not_allowed"),
        (
            reqwest::Method::GET,
            "/api/nothing".into(),
            404,
            "not_found",
        ),
        (
            reqwest::Method::GET,
            "/api/games/%FF%FE".into(),
            400,
            "bad_request",
        ),
        (
            reqwest::Method::GET,
            format!("/api/games/{id}?game_no=x"),
            400,
            "bad_request",
        ),
        (
            reqwest::Method::GET,
            "/api/games?status=dead".into(),
            400,
            "bad_request",
        ),
        (
            reqwest::Method::GET,
            "/static/nothing.js".into(),
            404,
            "not_found",
        ),
    ];
    for (m, path, status, category) in cases {
        let r = http
            .request(m.clone(), format!("{base}{path}"))
            .header("content-type", "application/json")
            .send()
            .await
            .unwrap();
        assert_eq!(r.status().as_u16(), status, "{m} {path}");
        assert!(
            r.headers()["content-type"]
                .to_str()
                .unwrap()
                .starts_with("application/json"),
            "{m} {path}"
        );
        let v: Value = r.json().await.unwrap();
        assert!(is_error(&v, category), "{m} {path}: {v}");
    }
    // A browser that mistypes an address gets a page with a way home; the API stays JSON.
    let html = "text/html,application/xhtml+xml,*/*;q=0.8";
    let r = http
        .get(format!("{base}/gmae/abc"))
        .header("accept", html)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 404);
    assert!(r.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(r.text().await.unwrap().contains("href=\"/\""));
    let r = http
        .get(format!("{base}/api/nothing"))
        .header("accept", html)
        .send()
        .await
        .unwrap();
    assert!(is_error(&r.json().await.unwrap(), "not_found"));
    s.stop().await;
}

#[tokio::test]
async fn health_asks_the_database() {
    let s = start_with("health", EdgeConfig::default()).await;
    let c = Client::new(&s);
    let a = c.get("/api/health", None).await;
    assert_eq!((a.status, &a.json["ok"]), (200, &json!(true)), "{}", a.text);
    s.app.store.close().await;
    let a = c.get("/api/health", None).await;
    assert_eq!(a.status, 503, "{}", a.text);
    assert!(is_error(&a.json, "unavailable"), "{}", a.text);
}

#[tokio::test]
async fn shutdown_closes_sockets_with_a_reason_and_finishes_requests() {
    let s = start_with("stop", EdgeConfig::default()).await;
    let c = Client::new(&s);
    let (id, t0, _) = c.two_player_game("kiswahili", "S", "single_game").await;
    let addr = s.addr.to_string();
    let mut w = ws(&addr, &id, Some(&t0)).await;
    next_of(&mut w, "state", None).await;
    // The home page's sockets too: the lobby's and the player socket.
    let socket = |path: &str| {
        let url = format!("ws://{addr}{path}");
        async move {
            tokio_tungstenite::connect_async(url)
                .await
                .expect("ws connects")
                .0
        }
    };
    let lobby = socket("/api/lobby/ws").await;
    let player = socket("/api/play/ws").await;
    let app = s.app.clone();
    let t0 = Instant::now();
    s.stop().await;
    for (what, mut w) in [("game", w), ("lobby", lobby), ("player", player)] {
        let close = loop {
            match tokio::time::timeout(Duration::from_secs(20), w.next())
                .await
                .expect("closed in time")
            {
                Some(Ok(Message::Close(f))) => break f.expect("a close frame with a reason"),
                Some(Ok(_)) => continue,
                other => panic!("{what} socket: expected a close frame, got {other:?}"),
            }
        };
        assert_eq!(u16::from(close.code), 1001, "{what} socket");
        assert!(
            close.reason.contains("restarting"),
            "{what}: {}",
            close.reason
        );
    }
    // At once, not after the shutdown's grace (5 s) ran out on a socket left open.
    assert!(t0.elapsed() < Duration::from_secs(4), "{:?}", t0.elapsed());
    drop(app);
    // Nothing listens any more.
    assert!(TcpStream::connect(&addr).await.is_err());
}

#[tokio::test]
async fn a_body_that_never_arrives_gets_408_json() {
    let edge = EdgeConfig {
        request_timeout: Duration::from_secs(1),
        ..EdgeConfig::default()
    };
    let s = start_with("body", edge).await;
    let mut t = TcpStream::connect(s.addr).await.unwrap();
    let t0 = Instant::now();
    // Headers complete, body promised but only begun.
    t.write_all(
        b"POST /api/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"variant\"",
    )
    .await
    .unwrap();
    let mut buf = vec![0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(30), t.read(&mut buf))
        .await
        .expect("an answer")
        .unwrap();
    let text = String::from_utf8_lossy(&buf[..n]);
    assert!(text.starts_with("HTTP/1.1 408"), "{text}");
    assert!(text.contains("\"error\":\"timeout\""), "{text}");
    assert!(t0.elapsed() >= Duration::from_millis(900));
    s.stop().await;
}

// ---------- the edge vocabulary (docs/architecture.md, "One edge vocabulary") ----------

/// Every route of the server, as the sources declare them: `(METHOD, path)` for each
/// `.route("PATH", get(..).post(..)...)` of src/. Read from the sources (as tests/layers.rs
/// reads the imports), so that a route a feature adds is in the lists below without anyone
/// remembering to add it.
fn routes_of_src() -> Vec<(String, String)> {
    fn walk(dir: &std::path::Path, out: &mut Vec<String>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let text = std::fs::read_to_string(&p).unwrap();
                // Comments off, whitespace as single spaces.
                let code: Vec<&str> = text
                    .lines()
                    .map(|l| l.split("//").next().unwrap_or(""))
                    .collect();
                out.push(
                    code.join(" ")
                        .split_whitespace()
                        .collect::<Vec<_>>()
                        .join(" "),
                );
            }
        }
    }
    let mut files = Vec::new();
    walk(
        &std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    let methods = regex::Regex::new(r"\b(get|post|put|patch|delete)\(").unwrap();
    let mut out = Vec::new();
    for code in &files {
        let mut rest = code.as_str();
        while let Some(i) = rest.find(".route(") {
            rest = rest[i + 7..].trim_start();
            let Some(r) = rest.strip_prefix('"') else {
                continue;
            };
            rest = r;
            let Some(end) = rest.find('"') else { break };
            let path = rest[..end].to_string();
            // The method router: up to the parenthesis that closes `.route(`.
            let mut depth = 1;
            let mut j = end + 1;
            for (k, ch) in rest[end + 1..].char_indices() {
                match ch {
                    '(' => depth += 1,
                    ')' => depth -= 1,
                    _ => {}
                }
                if depth == 0 {
                    j = end + 1 + k;
                    break;
                }
            }
            for m in methods.captures_iter(&rest[end + 1..j]) {
                out.push((m[1].to_uppercase(), path.clone()));
            }
            rest = &rest[j..];
        }
    }
    out.sort();
    out.dedup();
    out
}

/// A path of `route` with each `{param}` filled in.
fn filled(route: &str) -> String {
    let mut out = String::new();
    let mut rest = route;
    while let Some(i) = rest.find('{') {
        out.push_str(&rest[..i]);
        let j = rest[i..].find('}').unwrap() + i;
        out.push_str("abcdefghjkmn");
        rest = &rest[j + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn the_route_list_is_read_from_the_sources() {
    let r = routes_of_src();
    for (m, p) in [
        ("POST", "/api/games"),
        ("GET", "/api/games"),
        ("POST", "/api/push/subscribe"),
        ("DELETE", "/api/push/subscribe"),
        ("POST", "/api/tournaments/{id}/join"),
        ("DELETE", "/api/challenges/{id}"),
        ("GET", "/api/lobby/ws"),
        ("POST", "/api/records"),
    ] {
        assert!(
            r.iter().any(|(a, b)| a == m && b == p),
            "{m} {p} not found in {r:?}"
        );
    }
    assert!(r.len() > 50, "{} routes", r.len());
}

/// Signed out, every call that needs an account is refused the same way: 401
/// `not_signed_in`, before anything else is judged (the request's ids and body are never
/// looked at). A guest's rated game is the same 401, saying a rated game needs an account.
#[tokio::test]
async fn signed_out_is_one_401_everywhere() {
    let s = start_with("signed-out", EdgeConfig::default()).await;
    let b = format!("http://{}", s.addr);
    let c = Client::new(&s);
    use common::accounts::call;
    use reqwest::Method;
    let id = "abcdefghjkmn";
    let t = "abcdefgh23";
    let needs: Vec<(Method, String, Option<Value>)> = vec![
        (Method::GET, "/api/account".into(), None),
        (
            Method::POST,
            "/api/account/logout-all".into(),
            Some(json!({})),
        ),
        (
            Method::POST,
            "/api/account/password".into(),
            Some(json!({"old": "x", "new": "y"})),
        ),
        (
            Method::DELETE,
            "/api/account".into(),
            Some(json!({"password": "x"})),
        ),
        (
            Method::POST,
            "/api/pool".into(),
            Some(json!({"variant": "kete", "clock": null})),
        ),
        (Method::GET, format!("/api/pool/{id}"), None),
        (Method::DELETE, format!("/api/pool/{id}"), Some(json!({}))),
        (
            Method::POST,
            "/api/challenges".into(),
            Some(json!({"to": "Asha", "variant": "kete"})),
        ),
        (Method::GET, "/api/challenges".into(), None),
        (
            Method::DELETE,
            format!("/api/challenges/{id}"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/challenges/{id}/accept"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/challenges/{id}/decline"),
            Some(json!({})),
        ),
        (
            Method::POST,
            "/api/blocks".into(),
            Some(json!({"username": "Asha"})),
        ),
        (Method::GET, "/api/blocks".into(), None),
        (Method::DELETE, "/api/blocks/Asha".into(), Some(json!({}))),
        (Method::POST, "/api/tournaments".into(), Some(json!({}))),
        (
            Method::POST,
            format!("/api/tournaments/{t}/join"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/tournaments/{t}/withdraw"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/tournaments/{t}/start"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/tournaments/{t}/pause"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/tournaments/{t}/resume"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/tournaments/{t}/remove"),
            Some(json!({"username": "Asha"})),
        ),
        (
            Method::POST,
            format!("/api/tournaments/{t}/forbid"),
            Some(json!({"a": "A", "b": "B"})),
        ),
        (
            Method::POST,
            format!("/api/tournaments/{t}/allow"),
            Some(json!({"a": "A", "b": "B"})),
        ),
        (
            Method::POST,
            "/api/clubs".into(),
            Some(json!({"name": "Chama", "open": true})),
        ),
        (Method::GET, format!("/api/clubs/{t}/requests"), None),
        (
            Method::POST,
            format!("/api/clubs/{t}/requests/Asha/accept"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/clubs/{t}/requests/Asha/decline"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/clubs/{t}/join"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/clubs/{t}/leave"),
            Some(json!({})),
        ),
        (
            Method::POST,
            format!("/api/clubs/{t}/remove"),
            Some(json!({"username": "Asha", "ban": true})),
        ),
        (
            Method::POST,
            format!("/api/clubs/{t}/role"),
            Some(json!({"username": "Asha", "role": "admin"})),
        ),
        (
            Method::POST,
            format!("/api/clubs/{t}/announce"),
            Some(json!({"text": "Karibuni"})),
        ),
    ];
    let signed_out = |a: &common::Answer, what: &str| {
        assert_eq!(a.status, 401, "{what}: {}", a.text);
        assert!(is_error(&a.json, "not_signed_in"), "{what}: {}", a.text);
    };
    // No session, and a session cookie that names no live session.
    for cookie in [None, Some("bao_session=0123456789abcdef")] {
        for (m, path, body) in &needs {
            let json_ct = [("content-type", "application/json")];
            let extra: &[(&str, &str)] = if body.is_none() && *m != Method::GET {
                &json_ct
            } else {
                &[]
            };
            let a = call(&b, m.clone(), path, body.clone(), cookie, extra).await;
            signed_out(&a, &format!("{m} {path} ({cookie:?})"));
        }
    }
    // A guest's rated game: creating one, posting a rated seek, joining one, accepting one.
    let rated = |a: &common::Answer, what: &str| {
        signed_out(a, what);
        assert!(
            a.json["message"]
                .as_str()
                .unwrap()
                .contains("rated game needs an account"),
            "{what}: {}",
            a.text
        );
    };
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kete", "opponent": {"kind": "human"}, "rated": true}),
        )
        .await;
    rated(&a, "POST /api/games rated");
    let a = c
        .post(
            "/api/seeks",
            None,
            json!({"variant": "kete", "rated": true}),
        )
        .await;
    rated(&a, "POST /api/seeks rated");
    let (_, org) = common::seeks::account(&b, "Org").await;
    let g = call(
        &b,
        Method::POST,
        "/api/games",
        Some(json!({"variant": "kete", "opponent": {"kind": "human"}, "rated": true})),
        Some(&org),
        &[],
    )
    .await;
    assert_eq!(g.status, 201, "{}", g.text);
    let (gid, invite) = (
        g.json["id"].as_str().unwrap(),
        g.json["invite"].as_str().unwrap(),
    );
    let a = c
        .post(
            &format!("/api/games/{gid}/join"),
            None,
            json!({ "invite": invite }),
        )
        .await;
    rated(&a, "POST /api/games/{id}/join of a rated game");
    let sk = call(
        &b,
        Method::POST,
        "/api/seeks",
        Some(json!({"variant": "kete", "rated": true})),
        Some(&org),
        &[],
    )
    .await;
    assert_eq!(sk.status, 201, "{}", sk.text);
    let sid = sk.json["id"].as_str().unwrap();
    let a = c
        .post(&format!("/api/seeks/{sid}/accept"), None, json!({}))
        .await;
    rated(&a, "POST /api/seeks/{id}/accept of a rated seek");
    // Whatever else a signed-out caller asks, a 401 is never of another category.
    for (m, route) in routes_of_src() {
        if route.ends_with("/ws")
            || route == "/api/account/signup"
            || route == "/api/account/login"
            || route == "/api/account/recover"
        {
            continue;
        }
        let method = Method::from_bytes(m.as_bytes()).unwrap();
        let body = (m != "GET").then(|| json!({}));
        let a = call(&b, method, &filled(&route), body, None, &[]).await;
        if a.status == 401 {
            assert!(
                is_error(&a.json, "not_signed_in"),
                "{m} {route}: {}",
                a.text
            );
        }
    }
    s.stop().await;
}

/// Every JSON call (every change under /api/ but the record upload) answers 413
/// `too_large` past 64 KiB, whether its route reads a body or not, before anything else is
/// judged; a body that does not announce its length is cut at the same size.
#[tokio::test]
async fn every_json_route_refuses_a_body_over_64_kib() {
    let s = start_with("json-limit", EdgeConfig::default()).await;
    let big = format!("{{\"x\": \"{}\"}}", "a".repeat(70 * 1024));
    let http = reqwest::Client::new();
    let routes: Vec<(String, String)> = routes_of_src()
        .into_iter()
        .filter(|(m, p)| m != "GET" && p.starts_with("/api/") && p != "/api/records")
        .collect();
    assert!(
        routes
            .iter()
            .any(|(m, p)| m == "POST" && p == "/api/push/subscribe"),
        "{routes:?}"
    );
    assert!(routes.len() > 30, "{routes:?}");
    for (m, route) in &routes {
        let r = http
            .request(
                reqwest::Method::from_bytes(m.as_bytes()).unwrap(),
                format!("http://{}{}", s.addr, filled(route)),
            )
            .header("content-type", "application/json")
            .body(big.clone())
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), 413, "{m} {route}");
        let v: Value = r.json().await.unwrap();
        assert!(is_error(&v, "too_large"), "{m} {route}: {v}");
    }
    // Sent in pieces without a length: the routes that read a body stop at the limit.
    for path in [
        "/api/push/subscribe",
        "/api/games",
        "/api/seeks",
        "/api/analysis",
        "/api/games/mine",
        "/api/account/login",
    ] {
        let (status, text) = chunked_post(&s.addr.to_string(), path, big.as_bytes()).await;
        assert_eq!(status, 413, "{path}: {text}");
        assert!(text.contains("\"error\":\"too_large\""), "{path}: {text}");
    }
    // Under the limit, the route judges the body as usual; not JSON is 415, bad JSON 400.
    let r = http
        .post(format!("http://{}/api/push/subscribe", s.addr))
        .header("content-type", "text/plain")
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 415);
    assert!(is_error(&r.json().await.unwrap(), "unsupported_media_type"));
    let c = Client::new(&s);
    let a = c
        .post_raw("/api/push/subscribe", None, b"{\"subscription\":".to_vec())
        .await;
    assert_eq!(a.status, 400, "{}", a.text);
    assert!(is_error(&a.json, "bad_request"), "{}", a.text);
    s.stop().await;
}

/// A POST with `Transfer-Encoding: chunked` (no length announced): (status, whole answer).
async fn chunked_post(addr: &str, path: &str, body: &[u8]) -> (u16, String) {
    let mut t = TcpStream::connect(addr).await.unwrap();
    let head = format!(
        "POST {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
    );
    t.write_all(head.as_bytes()).await.unwrap();
    for piece in body.chunks(8 * 1024) {
        let chunk = format!("{:x}\r\n", piece.len());
        // The server may answer and close before the last piece: stop writing then.
        if t.write_all(chunk.as_bytes()).await.is_err()
            || t.write_all(piece).await.is_err()
            || t.write_all(b"\r\n").await.is_err()
        {
            break;
        }
    }
    let _ = t.write_all(b"0\r\n\r\n").await;
    let text = String::from_utf8_lossy(&read_to_close(&mut t).await).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, text)
}

/// The terms of a game (variant, rules, match, clock) pass one parser, so every call that
/// makes a game refuses the same bad terms with the same answer.
#[tokio::test]
async fn the_same_bad_terms_are_refused_alike_by_every_call() {
    let s = start_with("terms", EdgeConfig::default()).await;
    let b = format!("http://{}", s.addr);
    use common::accounts::call;
    use reqwest::Method;
    let (_, me) = common::seeks::account(&b, "Terms").await;
    let (other, _) = common::seeks::account(&b, "Other").await;
    let clock = json!({"initial_ms": 300000, "increment_ms": 3000});
    let cases: Vec<(&str, Value)> = vec![
        ("variant", json!({"variant": "chess"})),
        ("rules", json!({"rules": "no_such_option=1"})),
        ("rules", json!({"rules": "takasia=maybe"})),
        ("rules", json!({"rules": "r".repeat(300)})),
        ("rules", json!({"rules": "x".repeat(600)})),
        ("match", json!({"match": "best_of_seven"})),
        (
            "clock",
            json!({"clock": {"initial_ms": -1, "increment_ms": 0}}),
        ),
        ("clock", json!({"clock": {"days_per_move": 30}})),
        ("clock", json!({"clock": "5+3"})),
    ];
    let merge = |base: Value, extra: &Value| {
        let mut v = base;
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        v
    };
    for (field, bad) in &cases {
        let calls = [
            (
                "/api/games",
                json!({"variant": "kete", "opponent": {"kind": "human"}, "clock": clock}),
            ),
            ("/api/seeks", json!({"variant": "kete", "clock": clock})),
            (
                "/api/challenges",
                json!({"to": other, "variant": "kete", "clock": clock}),
            ),
            (
                "/api/tournaments",
                json!({"name": "Terms cup", "variant": "kete", "clock": clock,
                       "format": {"kind": "swiss", "rounds": 3}, "max_players": 8}),
            ),
            ("/api/pool", json!({"variant": "kete", "clock": clock})),
        ];
        let mut answers = Vec::new();
        for (path, base) in calls {
            // A tournament's match is its format's; the pool takes a game and a clock only.
            if (*field == "match" && path == "/api/tournaments")
                || (*field != "variant" && *field != "clock" && path == "/api/pool")
            {
                continue;
            }
            let a = call(
                &b,
                Method::POST,
                path,
                Some(merge(base, bad)),
                Some(&me),
                &[],
            )
            .await;
            assert_eq!(a.status, 400, "{path} {bad}: {}", a.text);
            assert!(
                a.json["message"].as_str().unwrap().contains(field),
                "{path} {bad}: {}",
                a.text
            );
            answers.push((path, a.json["error"].clone(), a.json["message"].clone()));
        }
        for (path, e, m) in &answers[1..] {
            assert_eq!(
                (e, m),
                (&answers[0].1, &answers[0].2),
                "{bad}: {path} answers unlike {}",
                answers[0].0
            );
        }
    }
    s.stop().await;
}

/// Each limit of the contract (docs/api.md, "Limits") is declared on its routes: with every
/// limit at 1 a minute, the second call from one address is refused with 429 and
/// `Retry-After`, whatever the first was answered; other routes are not limited.
#[tokio::test]
async fn each_route_declares_its_rate_limit() {
    let edge = EdgeConfig {
        rates: Rates {
            create: 1,
            join: 1,
            upload: 1,
            moves: 1,
            account: 1,
            account_name: 0,
        },
        trust_proxy: vec!["127.0.0.1".parse().unwrap()],
        ..EdgeConfig::default()
    };
    let push = bao_server::features::push::PushConfig {
        subscribe_per_minute: 1,
        ..Default::default()
    };
    let s = server(&sqlite_url("route-limits"))
        .edge(edge)
        .with(|c| c.push = push)
        .start()
        .await;
    let limited = [
        "/api/games",
        "/api/games/{id}/join",
        "/api/games/{id}/moves",
        "/api/games/{id}/review/try",
        "/api/records",
        "/api/tournaments",
        "/api/tournaments/{id}/join",
        "/api/seeks",
        "/api/seeks/{id}/accept",
        "/api/pool",
        "/api/challenges",
        "/api/challenges/{id}/accept",
        "/api/account/signup",
        "/api/account/login",
        "/api/account/recover",
        "/api/push/subscribe",
    ];
    let free = [
        "/api/games/{id}/resign",
        "/api/games/mine",
        "/api/account/logout",
        "/api/analysis",
        "/api/challenges/{id}/decline",
    ];
    let http = reqwest::Client::new();
    for (n, route) in limited.iter().chain(free.iter()).enumerate() {
        // Each route from its own address, so that shared limits start full.
        let ip = format!("203.0.113.{}", n + 1);
        let mut statuses = Vec::new();
        for _ in 0..2 {
            let r = http
                .post(format!("http://{}{}", s.addr, filled(route)))
                .header("content-type", "application/json")
                .header("x-forwarded-for", &ip)
                .body("{}")
                .send()
                .await
                .unwrap();
            statuses.push((
                r.status().as_u16(),
                r.headers().get("retry-after").is_some(),
            ));
        }
        if limited.contains(route) {
            assert_eq!(statuses[1], (429, true), "{route}: {statuses:?}");
        } else {
            assert_ne!(statuses[1].0, 429, "{route}: {statuses:?}");
        }
    }
    s.stop().await;
}
