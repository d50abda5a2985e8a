//! `bao loadtest --players N`: idle signed-in players, and events between instances.
//!
//! Two questions the realtime spine must answer (docs/architecture.md, "The event bus"):
//!
//! * **What does an idle player cost?** N accounts, each with a session, each holding a
//!   player socket (`GET /api/play/ws`) on which nothing happens. The tool reads the
//!   servers' CPU time and resident memory (`/proc/PID/stat`, `/proc/PID/status`) before the
//!   sockets open, after they are open, and after an idle window: server CPU per socket per
//!   second, server memory per socket.
//! * **How fast does news cross instances?** At a steady rate, an account whose socket is on
//!   the first instance challenges one whose socket is on the next (`POST /api/challenges`
//!   through the first), and the tool times, on its own clock, the request's start to the
//!   `{"type": "challenge"}` message on the other socket; then it cancels the challenge.
//!   A challenge never heard within [`HEAR_WITHIN`] counts as lost.
//!
//! The accounts are made in the database directly through the store (an Argon2id hash per
//! sign-up would make the set-up, not the server, the thing measured), each with a session
//! whose cookie the tool keeps. A socket binds to one of several loopback source addresses
//! (127.0.1.x, [`PER_SOURCE`] sockets each), so the ephemeral port range of one address is
//! not the limit; the tool raises its own open-file limit to the hard limit and says so when
//! that is still too low.

use futures_util::{stream, SinkExt, StreamExt};
use serde::Deserialize;
use std::collections::HashMap;
use std::net::{Ipv4Addr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

/// Sockets per loopback source address (each has about 28,000 ephemeral ports).
pub const PER_SOURCE: usize = 16_000;
/// A challenge not heard on the other socket by then is lost.
pub const HEAR_WITHIN: Duration = Duration::from_secs(10);

/// What to run.
#[derive(Clone, Debug)]
pub struct PlayersOptions {
    /// Idle signed-in player sockets to open.
    pub players: usize,
    /// Running servers (HOST:PORT), one per instance; sockets go to them in turn. Empty:
    /// start `instances` servers in this process.
    pub addrs: Vec<String>,
    /// Servers started in this process when `addrs` is empty (more than one needs a
    /// PostgreSQL `database`).
    pub instances: usize,
    /// The servers' database, where the accounts are made; `None` with servers in this
    /// process: a temporary SQLite file.
    pub database: Option<String>,
    /// Durability of an in-process server's SQLite file.
    pub durability: crate::Durability,
    /// Process ids of the running servers, whose CPU and memory are read. With servers in
    /// this process, this process's own figures are used (the tool's included).
    pub server_pids: Vec<u32>,
    /// How long to hold the sockets idle while the CPU is measured, in seconds.
    pub idle_secs: u64,
    /// Challenges per second between instances (0: none).
    pub events_per_sec: u32,
    /// For how long to send them, in seconds.
    pub events_secs: u64,
}

/// What was measured.
#[derive(Clone, Debug, Default)]
pub struct PlayersReport {
    /// Sockets asked for.
    pub players: usize,
    /// Sockets that opened (HTTP 101).
    pub opened: usize,
    /// Sockets the server closed or dropped during the run.
    pub closed_early: usize,
    /// Loopback source addresses used.
    pub sources: usize,
    /// Seconds taken to make the accounts.
    pub seed_seconds: f64,
    /// Seconds taken to open the sockets.
    pub open_seconds: f64,
    /// Length of the idle window, seconds.
    pub idle_seconds: f64,
    /// Server CPU over the idle window, microseconds per socket per second (`None` when no
    /// server's figures could be read).
    pub cpu_us_per_socket_second: Option<f64>,
    /// Server resident memory added by the open sockets, KiB per socket.
    pub kib_per_socket: Option<f64>,
    /// Whether those figures include this tool (servers in this process).
    pub figures_include_tool: bool,
    /// Challenges sent between instances.
    pub events_sent: usize,
    /// Challenges heard on the other socket.
    pub events_heard: usize,
    /// Latency percentiles, milliseconds.
    pub event_p50_ms: f64,
    /// 99th percentile.
    pub event_p99_ms: f64,
    /// Slowest.
    pub event_max_ms: f64,
    /// Whether sender and receiver were on different instances.
    pub across_instances: bool,
    /// Errors (requests refused, sockets refused).
    pub errors: usize,
    /// The first few.
    pub error_samples: Vec<String>,
}

impl std::fmt::Display for PlayersReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(
            f,
            "player sockets     {} opened of {} (from {} loopback source addresses), {} closed early",
            self.opened, self.players, self.sources, self.closed_early
        )?;
        writeln!(
            f,
            "set-up seconds     accounts {:.1}, sockets {:.1}",
            self.seed_seconds, self.open_seconds
        )?;
        let whose = if self.figures_include_tool {
            " (this process: servers and tool)"
        } else {
            " (the servers' processes)"
        };
        match self.cpu_us_per_socket_second {
            Some(c) => writeln!(
                f,
                "idle CPU           {c:.3} µs per socket per second over {:.0} s{whose}",
                self.idle_seconds
            )?,
            None => writeln!(
                f,
                "idle CPU           not measured (give --server-pid for a server elsewhere)"
            )?,
        }
        if let Some(k) = self.kib_per_socket {
            writeln!(f, "memory             {k:.1} KiB per socket{whose}")?;
        }
        if self.events_sent > 0 {
            writeln!(
                f,
                "events             {} challenges sent, {} heard, {} lost ({})",
                self.events_sent,
                self.events_heard,
                self.events_sent - self.events_heard,
                if self.across_instances {
                    "sent through one instance, heard on another"
                } else {
                    "one instance"
                }
            )?;
            writeln!(
                f,
                "event latency ms   p50 {:.2}  p99 {:.2}  max {:.2}",
                self.event_p50_ms, self.event_p99_ms, self.event_max_ms
            )?;
        }
        write!(f, "errors             {}", self.errors)?;
        for e in &self.error_samples {
            write!(f, "\nerror: {e}")?;
        }
        Ok(())
    }
}

/// One seeded player: its name and session cookie.
struct Player {
    name: String,
    token: String,
}

#[derive(Default)]
struct Shared {
    errors: AtomicUsize,
    samples: Mutex<Vec<String>>,
    closed: AtomicUsize,
    /// Challenge id -> when its socket message arrived.
    heard: Mutex<HashMap<String, Instant>>,
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

#[derive(Deserialize)]
struct SocketMsg {
    #[serde(rename = "type")]
    kind: String,
    challenge: Option<ChallengeMsg>,
}

#[derive(Deserialize)]
struct ChallengeMsg {
    id: String,
}

#[derive(Deserialize)]
struct Created {
    id: String,
}

/// CPU seconds (user + system) and resident KiB of a process, from /proc (Linux).
pub(super) fn proc_figures(pid: u32) -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name, which is in parentheses and may hold spaces;
    // utime and stime are fields 14 and 15, in USER_HZ (100 on Linux).
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = |i: usize| f.get(i).and_then(|x| x.parse::<f64>().ok());
    let cpu = (ticks(11)? + ticks(12)?) / 100.0;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let rss = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse::<f64>()
        .ok()?;
    Some((cpu, rss))
}

/// Sum of CPU seconds and resident KiB over `pids`; `None` if any cannot be read.
fn servers_figures(pids: &[u32]) -> Option<(f64, f64)> {
    if pids.is_empty() {
        return None;
    }
    pids.iter().try_fold((0.0, 0.0), |(c, r), p| {
        proc_figures(*p).map(|(c2, r2)| (c + c2, r + r2))
    })
}

/// Raises this process's open-file limit to its hard limit; an error when that cannot hold
/// `need` descriptors.
fn raise_file_limit(need: u64) -> Result<(), String> {
    // SAFETY: getrlimit/setrlimit only read and write the struct passed to them.
    let mut lim = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut lim) } != 0 {
        return Ok(());
    }
    if lim.rlim_cur < lim.rlim_max {
        let want = libc::rlimit {
            rlim_cur: lim.rlim_max,
            rlim_max: lim.rlim_max,
        };
        // SAFETY: as above.
        if unsafe { libc::setrlimit(libc::RLIMIT_NOFILE, &want) } == 0 {
            lim.rlim_cur = lim.rlim_max;
        }
    }
    if lim.rlim_cur < need as libc::rlim_t {
        return Err(format!(
            "this process may open {} files but needs about {need} for these sockets: raise the \
             limit (`ulimit -n {need}` in the shell that runs it, as root if the hard limit is lower)",
            lim.rlim_cur
        ));
    }
    Ok(())
}

/// The loopback source address of socket `i`.
fn source_of(i: usize) -> Ipv4Addr {
    let k = i / PER_SOURCE;
    Ipv4Addr::new(127, 0, 1 + (k / 250) as u8, 1 + (k % 250) as u8)
}

/// Makes `n` accounts with a session each, `8` at a time, through the store.
async fn seed(store: &crate::Store, n: usize) -> Result<Vec<Player>, String> {
    use argon2::password_hash::{PasswordHasher, SaltString};
    // One real Argon2id hash of a password nobody keeps, shared by every load account: nobody
    // can sign in with a password, only with the session the tool holds.
    let salt = SaltString::encode_b64(crate::util::new_token().as_bytes())
        .map_err(|e| format!("salt: {e}"))?;
    let hash = argon2::Argon2::default()
        .hash_password(crate::util::new_token().as_bytes(), &salt)
        .map_err(|e| format!("argon2: {e}"))?
        .to_string();
    let run = crate::util::random_code(6);
    let now = crate::util::now_ms();
    let made = AtomicUsize::new(0);
    let players: Vec<Result<Player, String>> = stream::iter(0..n)
        .map(|i| {
            let (hash, run, made) = (&hash, &run, &made);
            async move {
                let name = format!("ld{run}{i}");
                let token = crate::util::new_token();
                let account = crate::store::NewAccount {
                    username: name.clone(),
                    name_key: name.to_lowercase(),
                    password_hash: hash.clone(),
                    recovery_hash: hash.clone(),
                };
                store
                    .create_account(&account, &crate::util::hash_token(&token), now)
                    .await
                    .map_err(|e| format!("making account {name}: {e}"))?;
                let k = made.fetch_add(1, Ordering::Relaxed) + 1;
                if k % 1000 == 0 || k == n {
                    eprintln!("accounts made: {k} of {n}");
                }
                Ok(Player { name, token })
            }
        })
        .buffered(8)
        .collect()
        .await;
    players.into_iter().collect()
}

/// Opens player socket `i` for `p` on `addr` from its source address, and reads it until
/// `stop`: challenge messages are stamped in `shared.heard`.
async fn hold_socket(
    i: usize,
    p: &Player,
    addr: SocketAddr,
    shared: Arc<Shared>,
    mut stop: tokio::sync::watch::Receiver<bool>,
    opened: tokio::sync::oneshot::Sender<Result<(), String>>,
) {
    let open = async {
        let sock = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
        sock.bind(SocketAddr::new(source_of(i).into(), 0))
            .map_err(|e| format!("binding to {}: {e}", source_of(i)))?;
        let tcp = sock
            .connect(addr)
            .await
            .map_err(|e| format!("connecting to {addr}: {e}"))?;
        let mut req = format!("ws://{addr}/api/play/ws")
            .into_client_request()
            .map_err(|e| e.to_string())?;
        req.headers_mut().insert(
            "cookie",
            format!("{}={}", crate::edge::account::SESSION_COOKIE, p.token)
                .parse()
                .map_err(|e| format!("{e}"))?,
        );
        let (ws, _) = tokio_tungstenite::client_async(req, tcp)
            .await
            .map_err(|e| format!("player socket on {addr}: {e}"))?;
        Ok::<_, String>(ws)
    };
    let ws = match open.await {
        Ok(ws) => {
            let _ = opened.send(Ok(()));
            ws
        }
        Err(e) => {
            let _ = opened.send(Err(e));
            return;
        }
    };
    let (mut tx, mut rx) = ws.split();
    loop {
        tokio::select! {
            _ = stop.changed() => {
                let _ = tx.send(Message::Close(None)).await;
                return;
            }
            m = rx.next() => match m {
                Some(Ok(Message::Text(t))) => {
                    if let Ok(SocketMsg { kind, challenge: Some(c) }) = serde_json::from_str(&t) {
                        if kind == "challenge" {
                            if let Ok(mut h) = shared.heard.lock() {
                                h.insert(c.id, Instant::now());
                            }
                        }
                    }
                }
                // Pings are answered by the library as it reads.
                Some(Ok(_)) => {}
                Some(Err(_)) | None => {
                    if !*stop.borrow() {
                        shared.closed.fetch_add(1, Ordering::Relaxed);
                    }
                    return;
                }
            }
        }
    }
}

/// Runs the idle-players load and, if asked, the events between instances.
pub async fn run(opts: PlayersOptions) -> Result<PlayersReport, String> {
    if opts.players == 0 {
        return Err("--players must be at least 1".into());
    }
    if opts.events_per_sec > 0 && opts.players < 2 {
        return Err("--events needs at least 2 players (one sends, one hears)".into());
    }
    raise_file_limit(opts.players as u64 * if opts.addrs.is_empty() { 2 } else { 1 } + 256)?;
    // The servers: given, or started here.
    let mut own = Vec::new();
    let mut dir = None;
    let (addrs, database): (Vec<SocketAddr>, String) = if opts.addrs.is_empty() {
        let database = match &opts.database {
            Some(d) => d.clone(),
            None if opts.instances > 1 => {
                return Err(
                    "several instances in this process share a PostgreSQL: give --database postgres://..."
                        .into(),
                )
            }
            None => {
                let d = std::env::temp_dir()
                    .join(format!("bao-loadtest-{}", crate::util::random_code(8)));
                std::fs::create_dir_all(&d).map_err(|e| e.to_string())?;
                let url = format!("sqlite://{}", d.join("load.db").display());
                dir = Some(d);
                url
            }
        };
        let mut addrs = Vec::new();
        for _ in 0..opts.instances.max(1) {
            let running =
                super::start_own(database.clone(), opts.durability, opts.players + 1024).await?;
            addrs.push(running.addr);
            own.push(running);
        }
        (addrs, database)
    } else {
        let database = opts.database.clone().ok_or(
            "--players with --addr needs --database: the URL of those servers' database, where \
             the tool makes its accounts",
        )?;
        let mut addrs = Vec::new();
        for a in &opts.addrs {
            addrs.push(
                tokio::net::lookup_host(a.as_str())
                    .await
                    .map_err(|e| format!("--addr {a}: {e}"))?
                    .next()
                    .ok_or(format!("--addr {a}: no address"))?,
            );
        }
        (addrs, database)
    };
    let pids: Vec<u32> = if own.is_empty() {
        opts.server_pids.clone()
    } else {
        vec![std::process::id()]
    };
    let mut report = PlayersReport {
        players: opts.players,
        sources: (opts.players - 1) / PER_SOURCE + 1,
        figures_include_tool: !own.is_empty(),
        across_instances: addrs.len() > 1,
        ..Default::default()
    };

    let t = Instant::now();
    let players = match &own.first() {
        Some(r) => seed(&r.app.store, opts.players).await?,
        None => {
            let store = crate::Store::open(&database, opts.durability)
                .await
                .map_err(|e| format!("--database: {e}"))?;
            let p = seed(&store, opts.players).await?;
            store.close().await;
            p
        }
    };
    report.seed_seconds = t.elapsed().as_secs_f64();
    let players = Arc::new(players);

    // Open the sockets, 64 at a time; socket i goes to instance i mod (instances).
    let before = servers_figures(&pids);
    let shared = Arc::new(Shared::default());
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let t = Instant::now();
    let mut holders = Vec::with_capacity(opts.players);
    let results: Vec<Result<(), String>> = stream::iter(0..opts.players)
        .map(|i| {
            let (players, shared, stop) = (players.clone(), shared.clone(), stop_rx.clone());
            let addr = addrs[i % addrs.len()];
            let (otx, orx) = tokio::sync::oneshot::channel();
            holders.push(tokio::spawn(async move {
                hold_socket(i, &players[i], addr, shared, stop, otx).await
            }));
            async move {
                let r = orx.await.unwrap_or(Err("socket task ended".into()));
                if (i + 1) % 1000 == 0 {
                    eprintln!("sockets opened: {} of {}", i + 1, opts.players);
                }
                r
            }
        })
        .buffered(64)
        .collect()
        .await;
    report.open_seconds = t.elapsed().as_secs_f64();
    for r in results {
        match r {
            Ok(()) => report.opened += 1,
            Err(e) => shared.error(e),
        }
    }

    // The idle window.
    eprintln!(
        "{} sockets open; holding them idle for {} s",
        report.opened, opts.idle_secs
    );
    let open = servers_figures(&pids);
    let t = Instant::now();
    tokio::time::sleep(Duration::from_secs(opts.idle_secs)).await;
    report.idle_seconds = t.elapsed().as_secs_f64();
    let after = servers_figures(&pids);
    if let (Some((c0, _)), Some((c1, _))) = (open, after) {
        report.cpu_us_per_socket_second =
            Some((c1 - c0) * 1e6 / report.opened.max(1) as f64 / report.idle_seconds);
    }
    if let (Some((_, r0)), Some((_, r1))) = (before, open) {
        report.kib_per_socket = Some((r1 - r0) / report.opened.max(1) as f64);
    }

    // Events: sender 2k (socket on instance 2k mod n) challenges receiver 2k+1 (the next
    // instance), through the sender's instance.
    if opts.events_per_sec > 0 {
        let http = reqwest::Client::builder()
            .pool_max_idle_per_host(64)
            .build()
            .map_err(|e| e.to_string())?;
        let pairs = opts.players / 2;
        let sent: Arc<Mutex<Vec<(String, Instant)>>> = Arc::default();
        let period = Duration::from_secs_f64(1.0 / f64::from(opts.events_per_sec));
        let total = opts.events_secs * u64::from(opts.events_per_sec);
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Burst);
        let mut tasks = Vec::new();
        eprintln!("sending {total} challenges at {}/s", opts.events_per_sec);
        for k in 0..total as usize {
            tick.tick().await;
            let (http, players, shared, sent) =
                (http.clone(), players.clone(), shared.clone(), sent.clone());
            let s = 2 * (k % pairs);
            let via = addrs[s % addrs.len()];
            tasks.push(tokio::spawn(async move {
                let (from, to) = (&players[s], &players[s + 1]);
                let cookie = format!("{}={}", crate::edge::account::SESSION_COOKIE, from.token);
                let t0 = Instant::now();
                let r = http
                    .post(format!("http://{via}/api/challenges"))
                    .header("cookie", &cookie)
                    .json(&serde_json::json!({
                        "to": to.name, "variant": "kiswahili",
                        "clock": {"initial_ms": 300_000, "increment_ms": 3_000},
                        "match": "single_game", "rated": false
                    }))
                    .send()
                    .await;
                let id = match r {
                    Ok(r) if r.status().is_success() => match r.json::<Created>().await {
                        Ok(c) => c.id,
                        Err(e) => return shared.error(format!("challenge answer: {e}")),
                    },
                    Ok(r) => {
                        let status = r.status();
                        let body = r.text().await.unwrap_or_default();
                        return shared.error(format!("POST /api/challenges: {status} {body}"));
                    }
                    Err(e) => return shared.error(format!("POST /api/challenges: {e}")),
                };
                if let Ok(mut v) = sent.lock() {
                    v.push((id.clone(), t0));
                }
                // Cancel it once heard (or given up on), so no sender has more than a few open.
                let deadline = Instant::now() + HEAR_WITHIN;
                loop {
                    let heard = shared
                        .heard
                        .lock()
                        .map(|h| h.contains_key(&id))
                        .unwrap_or(true);
                    if heard || Instant::now() > deadline {
                        break;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                }
                let _ = http
                    .delete(format!("http://{via}/api/challenges/{id}"))
                    .header("cookie", &cookie)
                    .send()
                    .await;
            }));
        }
        for t in tasks {
            let _ = t.await;
        }
        let sent = sent.lock().map(|v| v.clone()).unwrap_or_default();
        let heard = shared.heard.lock().map(|h| h.clone()).unwrap_or_default();
        let mut ms: Vec<f64> = sent
            .iter()
            .filter_map(|(id, t0)| heard.get(id).map(|t1| (*t1 - *t0).as_secs_f64() * 1e3))
            .collect();
        ms.sort_by(|a, b| a.total_cmp(b));
        report.events_sent = sent.len();
        report.events_heard = ms.len();
        let pct = |p: f64| -> f64 {
            if ms.is_empty() {
                return 0.0;
            }
            ms[((p * ms.len() as f64).ceil() as usize).clamp(1, ms.len()) - 1]
        };
        report.event_p50_ms = pct(0.50);
        report.event_p99_ms = pct(0.99);
        report.event_max_ms = ms.last().copied().unwrap_or(0.0);
    }

    let _ = stop_tx.send(true);
    for h in holders {
        let _ = h.await;
    }
    for r in own {
        r.stop().await;
    }
    if let Some(d) = dir {
        let _ = std::fs::remove_dir_all(d);
    }
    report.closed_early = shared.closed.load(Ordering::Relaxed);
    report.errors = shared.errors.load(Ordering::Relaxed);
    report.error_samples = shared.samples.lock().map(|s| s.clone()).unwrap_or_default();
    Ok(report)
}
