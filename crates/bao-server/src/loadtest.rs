//! `bao loadtest`: many concurrent person-against-person games over WebSockets on loopback,
//! both seats driven by this tool with random legal moves from the server's own legal list.
//! Measures the move round-trip: from sending `{"type":"move"}` to receiving the broadcast
//! `{"type":"move"}` of that ply on the mover's socket (the move is committed by then), the
//! bytes every socket receives (per move frame and per viewer over a game), and the CPU time
//! of this process per move.
//!
//! It speaks both the lean protocol (a move frame carries only what changed) and the older
//! one (a move frame carries the whole state), so it can measure a server of either kind.

pub mod players;

use futures_util::{SinkExt, StreamExt};
use serde::Deserialize;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

/// What to run.
#[derive(Clone, Debug)]
pub struct LoadOptions {
    /// Number of concurrent games.
    pub games: usize,
    /// Server address; `None` starts a server in this process on a temporary SQLite file.
    pub addr: Option<String>,
    /// Moves per game at most (the game also stops when it ends).
    pub plies: usize,
    /// Pause before each move, in milliseconds (a person thinking).
    pub think_ms: u64,
    /// Variant id.
    pub variant: String,
    /// How long to spread the game creations over, in milliseconds.
    pub ramp_ms: u64,
    /// Durability of the in-process server's SQLite file.
    pub durability: crate::Durability,
    /// Spectator sockets per game, besides the two players.
    pub spectators: usize,
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct LoadReport {
    /// Games that were created and joined.
    pub games_started: usize,
    /// The most games with both sockets open at one time.
    pub games_held: usize,
    /// Moves acknowledged.
    pub moves: usize,
    /// Moves refused or lost, and connection failures.
    pub errors: usize,
    /// Round-trip percentiles in milliseconds.
    pub p50_ms: f64,
    /// 90th percentile.
    pub p90_ms: f64,
    /// 99th percentile.
    pub p99_ms: f64,
    /// Slowest.
    pub max_ms: f64,
    /// Wall time of the run, seconds.
    pub seconds: f64,
    /// Errors seen (first few).
    pub error_samples: Vec<String>,
    /// Move frames received, on all sockets.
    pub move_frames: usize,
    /// Their bytes (JSON text).
    pub move_frame_bytes: usize,
    /// Sockets that followed a game to its end (players and spectators).
    pub viewers: usize,
    /// Bytes those sockets received, all messages.
    pub viewer_bytes: usize,
    /// CPU time of this process (user + system), seconds; with `addr: None` that includes
    /// the server's.
    pub cpu_seconds: f64,
}

impl std::fmt::Display for LoadReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "games started      {}", self.games_started)?;
        writeln!(f, "games held at once {}", self.games_held)?;
        writeln!(f, "moves              {}", self.moves)?;
        writeln!(
            f,
            "moves per second   {:.0}",
            self.moves as f64 / self.seconds.max(1e-9)
        )?;
        writeln!(f, "errors             {}", self.errors)?;
        writeln!(
            f,
            "move round-trip ms p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
            self.p50_ms, self.p90_ms, self.p99_ms, self.max_ms
        )?;
        writeln!(
            f,
            "bytes per move frame {:.0} (over {} frames)",
            self.move_frame_bytes as f64 / self.move_frames.max(1) as f64,
            self.move_frames
        )?;
        writeln!(
            f,
            "bytes per viewer per game {:.0} (over {} sockets)",
            self.viewer_bytes as f64 / self.viewers.max(1) as f64,
            self.viewers
        )?;
        writeln!(
            f,
            "CPU ms per move    {:.3} (this process, server included when it runs in-process)",
            self.cpu_seconds * 1000.0 / self.moves.max(1) as f64,
        )?;
        write!(f, "seconds            {:.1}", self.seconds)?;
        for e in &self.error_samples {
            write!(f, "\nerror: {e}")?;
        }
        Ok(())
    }
}

#[derive(Deserialize)]
struct Created {
    id: String,
    token: String,
    invite: Option<String>,
}

#[derive(Deserialize)]
struct Joined {
    token: String,
}

#[derive(Deserialize)]
struct Legal {
    #[serde(rename = "move")]
    mv: String,
}

#[derive(Deserialize)]
struct State {
    ply: u32,
    side_to_move: String,
    result: String,
    you: Option<String>,
    legal: Vec<Legal>,
}

#[derive(Deserialize)]
struct MoveEv {
    ply: u32,
    result: String,
}

#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    state: Option<State>,
    #[serde(rename = "move")]
    mv: Option<MoveEv>,
    message: Option<String>,
    /// Lean move frames: the side to move after the move.
    side_to_move: Option<String>,
    /// Lean move frames: the next legal moves, to the player to move only.
    legal: Option<Vec<String>>,
}

/// What a seat knows of its game, from full states and move frames.
#[derive(Default)]
struct Seen {
    ply: u32,
    side_to_move: String,
    result: String,
    you: Option<String>,
    legal: Vec<String>,
}

impl Seen {
    /// Takes in one message; false when it was not understood.
    fn update(&mut self, m: &Msg) -> bool {
        if let Some(st) = &m.state {
            self.ply = st.ply;
            self.side_to_move = st.side_to_move.clone();
            self.result = st.result.clone();
            self.you = st.you.clone();
            self.legal = st.legal.iter().map(|l| l.mv.clone()).collect();
            return true;
        }
        match (&m.mv, &m.side_to_move) {
            (Some(ev), Some(side)) if m.kind == "move" => {
                self.ply = ev.ply;
                self.result = ev.result.clone();
                self.side_to_move = side.clone();
                self.legal = m.legal.clone().unwrap_or_default();
                true
            }
            _ => m.kind != "move",
        }
    }
}

/// User plus system CPU time of this process, in seconds (Linux; 0 elsewhere).
fn cpu_seconds() -> f64 {
    players::proc_figures(std::process::id()).map_or(0.0, |(cpu, _)| cpu)
}

struct Shared {
    rtts: Mutex<Vec<f64>>,
    errors: AtomicUsize,
    samples: Mutex<Vec<String>>,
    held: AtomicUsize,
    max_held: AtomicUsize,
    moves: AtomicUsize,
    move_frames: AtomicUsize,
    move_frame_bytes: AtomicUsize,
    viewers: AtomicUsize,
    viewer_bytes: AtomicUsize,
}

impl Shared {
    fn error(&self, e: String) {
        self.errors.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut s) = self.samples.lock() {
            if s.len() < 5 {
                s.push(e);
            }
        }
    }
}

/// Starts a server in this process for the load tool, on `database`, with no rate limit (the
/// tool is one address making every game, move and challenge) and room for `connections`.
async fn start_own(
    database: String,
    durability: crate::Durability,
    connections: usize,
) -> Result<crate::Running, String> {
    crate::start(crate::Config {
        addr: std::net::SocketAddr::from(([127, 0, 0, 1], 0)),
        database,
        durability,
        edge: crate::edge::EdgeConfig {
            rates: crate::edge::Rates::NONE,
            max_connections: connections,
            ..Default::default()
        },
        lifecycle: Default::default(),
        ws: Default::default(),
        engine: Default::default(),
        push: Default::default(),
        seeks: Default::default(),
        clock: crate::util::Clock::system(),
        fair_play: Default::default(),
        site_puzzles: Default::default(),
    })
    .await
    .map_err(|e| e.to_string())
}

/// Runs the load test.
pub async fn run(opts: LoadOptions) -> Result<LoadReport, String> {
    let mut own = None;
    let mut _dir = None;
    let addr = match &opts.addr {
        Some(a) => a.clone(),
        None => {
            let dir =
                std::env::temp_dir().join(format!("bao-loadtest-{}", crate::util::random_code(8)));
            std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
            let db = format!("sqlite://{}", dir.join("load.db").display());
            let running = start_own(
                db,
                opts.durability,
                crate::edge::EdgeConfig::default().max_connections,
            )
            .await?;
            let a = running.addr.to_string();
            own = Some(running);
            _dir = Some(dir);
            a
        }
    };
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(64)
        .build()
        .map_err(|e| e.to_string())?;
    let shared = Arc::new(Shared {
        rtts: Mutex::new(Vec::new()),
        errors: AtomicUsize::new(0),
        samples: Mutex::new(Vec::new()),
        held: AtomicUsize::new(0),
        max_held: AtomicUsize::new(0),
        moves: AtomicUsize::new(0),
        move_frames: AtomicUsize::new(0),
        move_frame_bytes: AtomicUsize::new(0),
        viewers: AtomicUsize::new(0),
        viewer_bytes: AtomicUsize::new(0),
    });
    let t0 = Instant::now();
    let cpu0 = cpu_seconds();
    let started = Arc::new(AtomicUsize::new(0));
    let mut tasks = Vec::new();
    for i in 0..opts.games {
        let (http, shared, opts, addr, started) = (
            http.clone(),
            shared.clone(),
            opts.clone(),
            addr.clone(),
            started.clone(),
        );
        let delay = if opts.games > 1 {
            opts.ramp_ms * i as u64 / (opts.games as u64 - 1)
        } else {
            0
        };
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(Duration::from_millis(delay)).await;
            if let Err(e) = one_game(&http, &addr, &opts, &shared, &started, i as u64).await {
                shared.error(e);
            }
        }));
    }
    for t in tasks {
        let _ = t.await;
    }
    let seconds = t0.elapsed().as_secs_f64();
    let cpu = cpu_seconds() - cpu0;
    if let Some(r) = own {
        r.stop().await;
    }
    if let Some(d) = _dir {
        let _ = std::fs::remove_dir_all(d);
    }
    let mut rtts = shared.rtts.lock().map(|v| v.clone()).unwrap_or_default();
    rtts.sort_by(|a, b| a.total_cmp(b));
    let pct = |p: f64| -> f64 {
        if rtts.is_empty() {
            return 0.0;
        }
        let k = ((p * rtts.len() as f64).ceil() as usize).clamp(1, rtts.len()) - 1;
        rtts[k]
    };
    Ok(LoadReport {
        games_started: started.load(Ordering::Relaxed),
        games_held: shared.max_held.load(Ordering::Relaxed),
        moves: shared.moves.load(Ordering::Relaxed),
        errors: shared.errors.load(Ordering::Relaxed),
        p50_ms: pct(0.50),
        p90_ms: pct(0.90),
        p99_ms: pct(0.99),
        max_ms: rtts.last().copied().unwrap_or(0.0),
        seconds,
        error_samples: shared.samples.lock().map(|s| s.clone()).unwrap_or_default(),
        move_frames: shared.move_frames.load(Ordering::Relaxed),
        move_frame_bytes: shared.move_frame_bytes.load(Ordering::Relaxed),
        viewers: shared.viewers.load(Ordering::Relaxed),
        viewer_bytes: shared.viewer_bytes.load(Ordering::Relaxed),
        cpu_seconds: cpu,
    })
}

async fn one_game(
    http: &reqwest::Client,
    addr: &str,
    opts: &LoadOptions,
    shared: &Arc<Shared>,
    started: &AtomicUsize,
    seed: u64,
) -> Result<(), String> {
    let base = format!("http://{addr}");
    let body = serde_json::json!({
        "variant": opts.variant, "rules": "-", "opponent": {"kind": "human"},
        "side": "S", "match": "single_game", "name": format!("load {seed} south"),
    });
    let r = http
        .post(format!("{base}/api/games"))
        .json(&body)
        .send()
        .await
        .map_err(|e| format!("create: {e}"))?;
    if r.status().as_u16() != 201 {
        return Err(format!("create: HTTP {}", r.status()));
    }
    let c: Created = r.json().await.map_err(|e| format!("create: {e}"))?;
    let invite = c.invite.ok_or("create: no invite")?;
    let r = http
        .post(format!("{base}/api/games/{}/join", c.id))
        .json(&serde_json::json!({"invite": invite, "name": format!("load {seed} north")}))
        .send()
        .await
        .map_err(|e| format!("join: {e}"))?;
    if !r.status().is_success() {
        return Err(format!("join: HTTP {}", r.status()));
    }
    let j: Joined = r.json().await.map_err(|e| format!("join: {e}"))?;
    started.fetch_add(1, Ordering::Relaxed);
    let url = |t: &str| format!("ws://{addr}/api/games/{}/ws?token={t}", c.id);
    let (a, _) = tokio_tungstenite::connect_async(url(&c.token))
        .await
        .map_err(|e| format!("ws: {e}"))?;
    let (b, _) = tokio_tungstenite::connect_async(url(&j.token))
        .await
        .map_err(|e| format!("ws: {e}"))?;
    let mut watchers = Vec::new();
    for _ in 0..opts.spectators {
        let (w, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/{}/ws", c.id))
            .await
            .map_err(|e| format!("ws: {e}"))?;
        watchers.push(w);
    }
    let held = shared.held.fetch_add(1, Ordering::Relaxed) + 1;
    shared.max_held.fetch_max(held, Ordering::Relaxed);
    let watching =
        futures_util::future::join_all(watchers.into_iter().map(|w| spectator(w, opts, shared)));
    let (ra, rb, rs) = tokio::join!(
        seat(a, opts, shared, seed * 2),
        seat(b, opts, shared, seed * 2 + 1),
        watching
    );
    shared.held.fetch_sub(1, Ordering::Relaxed);
    rs.into_iter().fold(ra.and(rb), |acc, r| acc.and(r))
}

/// Counts one received text frame.
fn count(shared: &Shared, kind: &str, bytes: usize, total: &mut usize) {
    *total += bytes;
    if kind == "move" {
        shared.move_frames.fetch_add(1, Ordering::Relaxed);
        shared.move_frame_bytes.fetch_add(bytes, Ordering::Relaxed);
    }
}

/// A socket that has followed its game to the end.
fn done(shared: &Shared, total: usize) {
    shared.viewers.fetch_add(1, Ordering::Relaxed);
    shared.viewer_bytes.fetch_add(total, Ordering::Relaxed);
}

/// A spectator: reads until the game ends or reaches the ply limit.
async fn spectator(mut ws: Ws, opts: &LoadOptions, shared: &Shared) -> Result<(), String> {
    let mut seen = Seen::default();
    let mut total = 0;
    loop {
        let msg = match tokio::time::timeout(Duration::from_secs(60), ws.next()).await {
            Err(_) => return Err("spectator: no message for 60 s".into()),
            Ok(None) => return Err("spectator: socket closed by the server".into()),
            Ok(Some(Err(e))) => return Err(format!("spectator: ws read: {e}")),
            Ok(Some(Ok(m))) => m,
        };
        let Message::Text(t) = msg else { continue };
        let m: Msg = serde_json::from_str(t.as_str()).map_err(|e| format!("bad message: {e}"))?;
        count(shared, &m.kind, t.len(), &mut total);
        if !seen.update(&m) {
            return Err(format!(
                "spectator: a move frame not understood: {}",
                t.as_str()
            ));
        }
        if seen.result != "-" && !seen.result.is_empty() || seen.ply as usize >= opts.plies {
            done(shared, total);
            let _ = ws.close(None).await;
            return Ok(());
        }
    }
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One seat: moves when it is its turn, measures its own moves' round trips.
async fn seat(mut ws: Ws, opts: &LoadOptions, shared: &Shared, seed: u64) -> Result<(), String> {
    let mut rng = bao_rules::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5eed);
    let mut pending: Option<(u32, Instant)> = None;
    let mut last_ply_sent = None;
    let mut seen = Seen::default();
    let mut total = 0;
    loop {
        let msg = match tokio::time::timeout(Duration::from_secs(60), ws.next()).await {
            Err(_) => return Err("no message for 60 s".into()),
            Ok(None) => return Err("socket closed by the server".into()),
            Ok(Some(Err(e))) => return Err(format!("ws read: {e}")),
            Ok(Some(Ok(m))) => m,
        };
        let Message::Text(t) = msg else { continue };
        let m: Msg = serde_json::from_str(t.as_str()).map_err(|e| format!("bad message: {e}"))?;
        count(shared, &m.kind, t.len(), &mut total);
        match m.kind.as_str() {
            "error" => {
                shared.error(format!(
                    "server: {}",
                    m.message.as_deref().unwrap_or_default()
                ));
                pending = None;
            }
            "move" => {
                if let (Some(ev), Some((ply, at))) = (&m.mv, pending) {
                    if ev.ply == ply + 1 {
                        let ms = at.elapsed().as_secs_f64() * 1000.0;
                        if let Ok(mut v) = shared.rtts.lock() {
                            v.push(ms);
                        }
                        shared.moves.fetch_add(1, Ordering::Relaxed);
                        pending = None;
                    }
                }
            }
            _ => {}
        }
        if !seen.update(&m) {
            return Err(format!("a move frame not understood: {}", t.as_str()));
        }
        if m.kind != "move" && m.kind != "state" {
            continue;
        }
        let st = &seen;
        if st.result != "-" || st.ply as usize >= opts.plies {
            done(shared, total);
            let _ = ws.close(None).await;
            return Ok(());
        }
        let mine = st.you.as_deref() == Some(st.side_to_move.as_str());
        if mine && pending.is_none() && last_ply_sent != Some(st.ply) && !st.legal.is_empty() {
            if opts.think_ms > 0 {
                let jitter = rng.below(opts.think_ms as usize + 1) as u64;
                tokio::time::sleep(Duration::from_millis(opts.think_ms / 2 + jitter)).await;
            }
            let mv = &st.legal[rng.below(st.legal.len())];
            let text = serde_json::json!({"type": "move", "move": mv, "ply": st.ply}).to_string();
            pending = Some((st.ply, Instant::now()));
            last_ply_sent = Some(st.ply);
            ws.send(Message::Text(text.into()))
                .await
                .map_err(|e| format!("ws send: {e}"))?;
        }
    }
}
