//! Helpers shared by the API and storage tests: a real server on a real socket, an HTTP
//! client and WebSocket clients.
#![allow(dead_code)]

pub mod accounts;
pub mod arenas;
pub mod battles;
pub mod bus;
pub mod calendar;
pub mod claims;
pub mod clubs;
pub mod fairplay;
pub mod life;
pub mod measure;
pub mod play;
pub mod pool_measure;
pub mod puzzle_ratings;
pub mod ratings;
pub mod review;
pub mod seeks;
pub mod site_puzzles;
pub mod storage;
pub mod teams;
pub mod teamtour;
pub mod teamtour_measure;
pub mod tournaments;

pub use bao_server::util::Clock;
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
fn postgres_server_url() -> String {
    match std::env::var("BAO_TEST_POSTGRES_URL") {
        Ok(u) if !u.is_empty() => u,
        _ => panic!(
            "BAO_TEST_POSTGRES_URL is not set. Start PostgreSQL with \
             `export BAO_TEST_POSTGRES_URL=$(scripts/start-postgres.sh | tail -1)` and run the tests again."
        ),
    }
}

/// A schema of one test's own in the test server's database: its URL reaches only that
/// schema (its `search_path`), so tests running at once share no row, no table and no
/// bus channel (src/store/bus.rs names the channel after the schema). Dropped, with all
/// it holds, when the guard is (its connections are named after it, to be ended first).
pub struct PgSchema {
    url: String,
    server: String,
    name: String,
}

impl std::ops::Deref for PgSchema {
    type Target = str;
    fn deref(&self) -> &str {
        &self.url
    }
}

impl std::fmt::Display for PgSchema {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.url)
    }
}

impl Drop for PgSchema {
    fn drop(&mut self) {
        // Drop runs inside the test's runtime, which cannot block on its own futures: a
        // thread of its own with a runtime of its own drops the schema.
        let (server, name) = (self.server.clone(), self.name.clone());
        let schema = name.clone();
        // The test's servers may still hold a transaction open (their tasks cannot run while
        // this waits): their connections, named after the schema, are ended first.
        let sql = format!(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity \
             WHERE application_name = '{name}' AND pid <> pg_backend_pid(); \
             DROP SCHEMA {name} CASCADE"
        );
        let dropped = std::thread::spawn(move || {
            tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .unwrap()
                .block_on(pg_execute(&server, &sql))
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!("schema {schema} was not dropped: {dropped:?}");
        }
    }
}

/// Runs one statement on the database at `url`.
async fn pg_execute(url: &str, sql: &str) -> Result<(), sqlx::Error> {
    use sqlx::Connection;
    let mut c = sqlx::postgres::PgConnection::connect(url).await?;
    sqlx::raw_sql(sql).execute(&mut c).await?;
    c.close().await
}

/// A fresh schema in the test server's database (see [`PgSchema`]); its URL derefs to
/// `&str`. Keep it for as long as the test's servers run.
pub fn postgres_url() -> PgSchema {
    let server = postgres_server_url();
    let name = format!(
        "test_{}_{}",
        std::process::id(),
        bao_server::util::random_code(10).to_lowercase()
    );
    let (s, n) = (server.clone(), name.clone());
    std::thread::spawn(move || {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(pg_execute(&s, &format!("CREATE SCHEMA {n}")))
    })
    .join()
    .unwrap()
    .expect("the test schema is made");
    let sep = if server.contains('?') { '&' } else { '?' };
    PgSchema {
        url: format!("{server}{sep}options=-csearch_path%3D{name}&application_name={name}"),
        server,
        name,
    }
}

/// How a test starts a server: in process, on a free loopback port, on `database` (SQLite or
/// PostgreSQL), with the tests' defaults (full durability, no rate limits: every request of
/// a test comes from one address, and tests/edge.rs tests the limits), changed by the few
/// knobs a test sets. `start` starts one instance, `start_two` two on one database.
#[must_use]
pub struct Server {
    config: Config,
}

/// A server on `database` with the tests' defaults (see [`Server`]).
pub fn server(database: &str) -> Server {
    Server {
        config: Config {
            addr: "127.0.0.1:0".parse().unwrap(),
            database: database.to_string(),
            durability: Durability::Full,
            edge: bao_server::edge::EdgeConfig {
                rates: bao_server::edge::Rates::NONE,
                ..Default::default()
            },
            ..Config::default()
        },
    }
}

impl Server {
    /// Any other setting of the configuration.
    pub fn with(mut self, f: impl FnOnce(&mut Config)) -> Server {
        f(&mut self.config);
        self
    }

    /// Abandonment, sweep and eviction timings.
    pub fn lifecycle(self, lifecycle: bao_server::game::Lifecycle) -> Server {
        self.with(|c| c.lifecycle = lifecycle)
    }

    /// The whole edge configuration (rate limits included: the default has none).
    pub fn edge(self, edge: bao_server::edge::EdgeConfig) -> Server {
        self.with(|c| c.edge = edge)
    }

    /// The rate limits.
    pub fn rates(self, rates: bao_server::edge::Rates) -> Server {
        self.with(|c| c.edge.rates = rates)
    }

    /// Seek, pool and claim timings.
    pub fn seeks(self, seeks: bao_server::features::seeks::SeeksConfig) -> Server {
        self.with(|c| c.seeks = seeks)
    }

    /// The clock the server's model and timers read (a test's [`manual_clock`]).
    pub fn clock(self, clock: &Clock) -> Server {
        let clock = clock.clone();
        self.with(|c| c.clock = clock)
    }

    /// Trusts X-Forwarded-For from the loopback, so that a test's players post from
    /// addresses of their own (the caps per address count across a database).
    pub fn behind_proxy(self) -> Server {
        self.with(|c| c.edge.trust_proxy = vec!["127.0.0.1".parse().unwrap()])
    }

    /// The configuration as it stands (to start it by hand, or look at it).
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Starts one instance.
    pub async fn start(self) -> Running {
        bao_server::start(self.config).await.expect("server starts")
    }

    /// Starts two instances on the same database.
    pub async fn start_two(self) -> (Running, Running) {
        let a = bao_server::start(self.config.clone())
            .await
            .expect("server starts");
        let b = bao_server::start(self.config).await.expect("server starts");
        (a, b)
    }
}

/// A clock standing at the system's time that moves only when the test advances it
/// (`Clock::advance`): a deadline comes without waiting for it.
pub fn manual_clock() -> Clock {
    Clock::manual(bao_server::util::now_ms())
}

/// How long [`eventually`] waits: long enough for the whole suite at once on a busy 2-core
/// machine, so that running out means a hang, not a slow machine.
pub const EVENTUALLY: Duration = Duration::from_secs(30);

/// Waits until `f` holds, at most [`EVENTUALLY`]; fails naming `what` it waited for.
pub async fn eventually<F, Fut>(what: &str, f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually_within(what, EVENTUALLY, f).await
}

/// [`eventually`] with a bound of its own (a search that may take minutes on a busy machine).
pub async fn eventually_within<F, Fut>(what: &str, bound: Duration, mut f: F)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    eventually_some_within(what, bound, || {
        let ok = f();
        async move { ok.await.then_some(()) }
    })
    .await
}

/// Waits until `f` answers something, at most [`EVENTUALLY`]; answers it.
pub async fn eventually_some<T, F, Fut>(what: &str, f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    eventually_some_within(what, EVENTUALLY, f).await
}

/// The one poll loop of the tests: asks at once, then after pauses growing from 5 to 50 ms
/// (a short state is still seen; a long wait does not flood the server).
pub async fn eventually_some_within<T, F, Fut>(what: &str, bound: Duration, mut f: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let t0 = std::time::Instant::now();
    let mut pause = Duration::from_millis(5);
    loop {
        if let Some(v) = f().await {
            return v;
        }
        if t0.elapsed() > bound {
            panic!("not within {} s: {what}", bound.as_secs_f32());
        }
        tokio::time::sleep(pause).await;
        pause = (pause * 2).min(Duration::from_millis(50));
    }
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
        Client::at(&format!("http://{}", running.addr))
    }

    /// A client of the server at `base` (`http://ADDR`).
    pub fn at(base: &str) -> Client {
        Client {
            base: base.to_string(),
            http: reqwest::Client::new(),
        }
    }

    /// Any request: a JSON body, a cookie header and other headers, each if given.
    pub async fn call(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        cookie: Option<&str>,
        extra: &[(&str, &str)],
    ) -> Answer {
        let mut r = self.http.request(method, format!("{}{path}", self.base));
        if let Some(b) = body {
            r = r
                .header("content-type", "application/json")
                .body(b.to_string());
        }
        if let Some(c) = cookie {
            r = r.header("cookie", c);
        }
        for (k, v) in extra {
            r = r.header(*k, *v);
        }
        answer(r.send().await.unwrap()).await
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

/// Waits until the game's state satisfies `f`; answers it.
pub async fn wait_state(
    c: &Client,
    id: &str,
    token: Option<&str>,
    f: impl Fn(&Value) -> bool,
) -> Value {
    eventually_some(
        "the game's state to reach the expected condition",
        || async {
            let s = c.state(id, token).await;
            f(&s).then_some(s)
        },
    )
    .await
}
