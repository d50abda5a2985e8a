//! `bao loadtest`: many concurrent person-against-person games over WebSockets on loopback,
//! both seats driven by this tool with random legal moves from the server's own legal list.
//! Measures the move round-trip: from sending `{"type":"move"}` to receiving the broadcast
//! `{"type":"move"}` of that ply on the mover's socket (the move is committed by then).

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
}

#[derive(Deserialize)]
struct Msg {
    #[serde(rename = "type")]
    kind: String,
    state: Option<State>,
    #[serde(rename = "move")]
    mv: Option<MoveEv>,
    message: Option<String>,
}

struct Shared {
    rtts: Mutex<Vec<f64>>,
    errors: AtomicUsize,
    samples: Mutex<Vec<String>>,
    held: AtomicUsize,
    max_held: AtomicUsize,
    moves: AtomicUsize,
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
            let running = crate::start(crate::Config {
                addr: "127.0.0.1:0".parse().map_err(|e| format!("{e}"))?,
                database: db,
                durability: opts.durability,
                // The load tool is one address making every game and move.
                edge: crate::edge::EdgeConfig {
                    rates: crate::edge::Rates::NONE,
                    ..Default::default()
                },
                lifecycle: Default::default(),
            })
            .await
            .map_err(|e| e.to_string())?;
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
    });
    let t0 = Instant::now();
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
    let held = shared.held.fetch_add(1, Ordering::Relaxed) + 1;
    shared.max_held.fetch_max(held, Ordering::Relaxed);
    let (ra, rb) = tokio::join!(
        seat(a, opts, shared, seed * 2),
        seat(b, opts, shared, seed * 2 + 1)
    );
    shared.held.fetch_sub(1, Ordering::Relaxed);
    ra.and(rb)
}

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// One seat: moves when it is its turn, measures its own moves' round trips.
async fn seat(mut ws: Ws, opts: &LoadOptions, shared: &Shared, seed: u64) -> Result<(), String> {
    let mut rng = bao_rules::Rng::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5eed);
    let mut pending: Option<(u32, Instant)> = None;
    let mut last_ply_sent = None;
    loop {
        let msg = match tokio::time::timeout(Duration::from_secs(60), ws.next()).await {
            Err(_) => return Err("no message for 60 s".into()),
            Ok(None) => return Err("socket closed by the server".into()),
            Ok(Some(Err(e))) => return Err(format!("ws read: {e}")),
            Ok(Some(Ok(m))) => m,
        };
        let Message::Text(t) = msg else { continue };
        let m: Msg = serde_json::from_str(t.as_str()).map_err(|e| format!("bad message: {e}"))?;
        match m.kind.as_str() {
            "error" => {
                shared.error(format!("server: {}", m.message.unwrap_or_default()));
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
        let Some(st) = m.state else { continue };
        if st.result != "-" || st.ply as usize >= opts.plies {
            let _ = ws.close(None).await;
            return Ok(());
        }
        let mine = st.you.as_deref() == Some(st.side_to_move.as_str());
        if mine && pending.is_none() && last_ply_sent != Some(st.ply) && !st.legal.is_empty() {
            if opts.think_ms > 0 {
                let jitter = rng.below(opts.think_ms as usize + 1) as u64;
                tokio::time::sleep(Duration::from_millis(opts.think_ms / 2 + jitter)).await;
            }
            let mv = &st.legal[rng.below(st.legal.len())].mv;
            let text = serde_json::json!({"type": "move", "move": mv, "ply": st.ply}).to_string();
            pending = Some((st.ply, Instant::now()));
            last_ply_sent = Some(st.ply);
            ws.send(Message::Text(text.into()))
                .await
                .map_err(|e| format!("ws send: {e}"))?;
        }
    }
}
