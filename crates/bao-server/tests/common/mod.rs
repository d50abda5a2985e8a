//! Helpers shared by the API and storage tests: a real server on a real socket, an HTTP
//! client and WebSocket clients.
#![allow(dead_code)]

pub mod accounts;
pub mod bus;
pub mod claims;
pub mod life;
pub mod play;
pub mod pool_measure;
pub mod ratings;
pub mod review;
pub mod seeks;
pub mod storage;
pub mod tournaments;

use bao_server::{Config, Durability, Running};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::path::PathBuf;
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// A fresh temporary directory.
pub fn temp_dir(tag: &str) -> PathBuf {
    // Under target/tmp (cargo's folder for test files): the machine's /tmp stays clean.
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
        "bao-server-test-{tag}-{}-{}",
        std::process::id(),
        bao_server::util::random_code(8)
    ));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A SQLite URL in a fresh directory.
pub fn sqlite_url(tag: &str) -> String {
    format!("sqlite://{}", temp_dir(tag).join("bao.db").display())
}

/// The PostgreSQL URL of the test server. Fails (never skips) without it.
pub fn postgres_url() -> String {
    match std::env::var("BAO_TEST_POSTGRES_URL") {
        Ok(u) if !u.is_empty() => u,
        _ => panic!(
            "BAO_TEST_POSTGRES_URL is not set. Start PostgreSQL with \
             `export BAO_TEST_POSTGRES_URL=$(scripts/start-postgres.sh | tail -1)` and run the tests again."
        ),
    }
}

/// Starts a server on a free loopback port.
pub async fn start(database: &str) -> Running {
    start_with(database, Default::default()).await
}

/// Starts a server with the given lifecycle timings.
pub async fn start_with(database: &str, lifecycle: bao_server::game::Lifecycle) -> Running {
    bao_server::start(Config {
        addr: "127.0.0.1:0".parse().unwrap(),
        database: database.to_string(),
        durability: Durability::Full,
        lifecycle,
        // Every request of these tests comes from one address; the rate limits have tests of
        // their own (tests/edge.rs), so they stay out of the way here.
        edge: bao_server::edge::EdgeConfig {
            rates: bao_server::edge::Rates::NONE,
            ..Default::default()
        },
        ..Config::default()
    })
    .await
    .expect("server starts")
}

/// A plain HTTP client (no cookies: tokens go in headers, so each test controls its seats).
pub struct Client {
    pub base: String,
    pub http: reqwest::Client,
}

/// An answer: status, headers, body as JSON (or Null) and text.
pub struct Answer {
    pub status: u16,
    pub json: Value,
    pub text: String,
    pub headers: reqwest::header::HeaderMap,
}

/// The answer to a request that was sent: read whole, its body parsed as JSON if it is.
pub async fn answer(r: reqwest::Response) -> Answer {
    let status = r.status().as_u16();
    let headers = r.headers().clone();
    let text = r.text().await.unwrap();
    let json = serde_json::from_str(&text).unwrap_or(Value::Null);
    Answer {
        status,
        json,
        text,
        headers,
    }
}

impl Client {
    pub fn new(running: &Running) -> Client {
        Client {
            base: format!("http://{}", running.addr),
            http: reqwest::Client::new(),
        }
    }

    pub async fn get(&self, path: &str, token: Option<&str>) -> Answer {
        let mut r = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        answer(r.send().await.unwrap()).await
    }

    pub async fn post_raw(&self, path: &str, token: Option<&str>, body: Vec<u8>) -> Answer {
        let mut r = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(t) = token {
            r = r.bearer_auth(t);
        }
        answer(r.send().await.unwrap()).await
    }

    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> Answer {
        self.post_raw(path, token, body.to_string().into_bytes())
            .await
    }

    /// Creates a game against a person; returns (id, creator's token, invite).
    pub async fn human_game(
        &self,
        variant: &str,
        side: &str,
        format: &str,
    ) -> (String, String, String) {
        let a = self
            .post(
                "/api/games",
                None,
                json!({"variant": variant, "rules": "-", "opponent": {"kind": "human"},
                       "side": side, "match": format, "name": "Asha"}),
            )
            .await;
        assert_eq!(a.status, 201, "{}", a.text);
        (
            a.json["id"].as_str().unwrap().to_string(),
            a.json["token"].as_str().unwrap().to_string(),
            a.json["invite"].as_str().unwrap().to_string(),
        )
    }

    /// A game with both seats taken: (id, creator's token, joiner's token).
    pub async fn two_player_game(
        &self,
        variant: &str,
        side: &str,
        format: &str,
    ) -> (String, String, String) {
        let (id, t0, invite) = self.human_game(variant, side, format).await;
        let t1 = self.join(&id, &invite).await;
        (id, t0, t1)
    }

    /// Baraka takes the free seat of game `id` with `invite`: his token.
    pub async fn join(&self, id: &str, invite: &str) -> String {
        let j = self
            .post(
                &format!("/api/games/{id}/join"),
                None,
                json!({"invite": invite, "name": "Baraka"}),
            )
            .await;
        assert_eq!(j.status, 200, "{}", j.text);
        j.json["token"].as_str().unwrap().to_string()
    }

    pub async fn state(&self, id: &str, token: Option<&str>) -> Value {
        let a = self.get(&format!("/api/games/{id}"), token).await;
        assert_eq!(a.status, 200, "{}", a.text);
        a.json
    }

    pub async fn play(&self, id: &str, token: &str, mv: &str, ply: u64) -> Answer {
        self.post(
            &format!("/api/games/{id}/moves"),
            Some(token),
            json!({"move": mv, "ply": ply}),
        )
        .await
    }

    /// The player of `token` resigns game `game_no` of match `id` at ply `ply`: the quick
    /// end many tests give a game.
    pub async fn resign(&self, id: &str, token: &str, game_no: u64, ply: u64) -> Answer {
        self.post(
            &format!("/api/games/{id}/resign"),
            Some(token),
            json!({"game_no": game_no, "ply": ply}),
        )
        .await
    }
}

/// A seat of a game the server makes between two players (`Games::create_pair`).
pub fn pair_seat(
    name: &str,
    account: Option<&str>,
    token_hash: Option<String>,
) -> bao_server::game::PairSeat {
    bao_server::game::PairSeat {
        name: name.into(),
        account: account.map(str::to_string),
        token_hash,
    }
}

/// A Kiswahili pair game from the usual start, without a clock: the tests of pairs vary
/// only the seats, the first player's side and whether it is rated.
pub fn new_pair(
    players: [bao_server::game::PairSeat; 2],
    first_side: bao_rules::Side,
    rated: bool,
) -> bao_server::game::NewPair {
    let rules = bao_rules::Rules::new(bao_rules::Variant::Kiswahili);
    bao_server::game::NewPair {
        rules,
        start: bao_rules::Position::start(&rules),
        players,
        first_side,
        clock: None,
        rated,
        id: None,
        event: None,
        news: Vec::new(),
    }
}

pub type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Opens the game's WebSocket (with a token in the query, or as a spectator).
pub async fn ws(running_addr: &str, id: &str, token: Option<&str>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://{running_addr}/api/games/{id}/ws?token={t}"),
        None => format!("ws://{running_addr}/api/games/{id}/ws"),
    };
    tokio_tungstenite::connect_async(url)
        .await
        .expect("ws connects")
        .0
}

/// The next JSON text message (fails after 20 s).
pub async fn next_json(ws: &mut Ws) -> Value {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")
            .expect("the socket is open")
            .expect("no socket error");
        match m {
            Message::Text(t) => return serde_json::from_str(t.as_str()).expect("JSON"),
            Message::Close(c) => panic!("closed: {c:?}"),
            _ => continue,
        }
    }
}

/// Skips messages until one of type `kind` (and, for moves, of ply `ply`).
pub async fn next_of(ws: &mut Ws, kind: &str, ply: Option<u64>) -> Value {
    loop {
        let v = next_json(ws).await;
        if v["type"] == kind && ply.is_none_or(|p| v["move"]["ply"] == p) {
            return v;
        }
    }
}

pub async fn send(ws: &mut Ws, v: Value) {
    ws.send(Message::Text(v.to_string().into())).await.unwrap();
}

/// The first legal move of a state.
pub fn first_legal(state: &Value) -> String {
    state["legal"][0]["move"]
        .as_str()
        .expect("a legal move")
        .to_string()
}

/// Polls the state until `f` holds (at most 30 s).
pub async fn wait_state(
    c: &Client,
    id: &str,
    token: Option<&str>,
    f: impl Fn(&Value) -> bool,
) -> Value {
    for _ in 0..300 {
        let s = c.state(id, token).await;
        if f(&s) {
            return s;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("the state did not reach the expected condition in 30 s");
}
