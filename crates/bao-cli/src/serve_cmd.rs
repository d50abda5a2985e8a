//! `bao serve` and `bao loadtest`: thin glue over crates/bao-server.

use crate::common::CliError;
use clap::Args;
use std::time::Duration;

/// `bao serve` arguments.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// Address to listen on (loopback by default).
    #[arg(long, env = "BAO_ADDR", default_value = "127.0.0.1:8080")]
    addr: std::net::SocketAddr,
    /// Database: sqlite://FILE (created if missing) or postgres://USER:PASS@HOST/DB.
    #[arg(long, env = "DATABASE_URL", default_value = "sqlite://bao.db")]
    database: String,
    /// SQLite only: `full` syncs every commit to disk (survives power loss); `normal` is
    /// faster and survives a crash of the program but not of the machine.
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    sync: String,
    /// The address browsers use when the server sits behind a proxy, e.g.
    /// https://bao.example.org: only pages of this origin may act with the seat cookie, and
    /// the cookie is Secure when it is https.
    #[arg(long, value_name = "URL", value_parser = parse_public_url)]
    public_url: Option<bao_server::edge::PublicUrl>,
    /// Believe X-Forwarded-For from these proxy addresses (e.g. 127.0.0.1 for a local nginx);
    /// repeat or separate with commas.
    #[arg(long, value_name = "IP", value_delimiter = ',')]
    trust_proxy: Vec<std::net::IpAddr>,
    /// Seconds a connection has to send its request headers (also the keep-alive idle time).
    #[arg(long, value_name = "SECONDS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..))]
    header_timeout: u64,
    /// Seconds a request (its body included) has to be answered.
    #[arg(long, value_name = "SECONDS", default_value_t = 30, value_parser = clap::value_parser!(u64).range(1..))]
    request_timeout: u64,
    /// Open connections (HTTP and WebSocket) at most; keep it below the open-file limit.
    #[arg(long, value_name = "N", default_value_t = 10_000, value_parser = clap::value_parser!(u32).range(1..))]
    max_connections: u32,
    /// New games per minute from one address (0: no limit).
    #[arg(long, value_name = "N", default_value_t = bao_server::edge::Rates::default().create)]
    limit_create: u32,
    /// Joins per minute from one address (0: no limit).
    #[arg(long, value_name = "N", default_value_t = bao_server::edge::Rates::default().join)]
    limit_join: u32,
    /// Record uploads per minute from one address (0: no limit).
    #[arg(long, value_name = "N", default_value_t = bao_server::edge::Rates::default().upload)]
    limit_upload: u32,
    /// Moves per minute from one address, HTTP and WebSocket together (0: no limit).
    #[arg(long, value_name = "N", default_value_t = bao_server::edge::Rates::default().moves)]
    limit_moves: u32,
    /// Sign-ups, logins and recoveries per minute from one address (0: no limit).
    #[arg(long, value_name = "N", default_value_t = bao_server::edge::Rates::default().account)]
    limit_account: u32,
    /// Sign-ups, logins and recoveries per minute for one account name, from any address
    /// (0: no limit).
    #[arg(long, value_name = "N", default_value_t = bao_server::edge::Rates::default().account_name)]
    limit_account_name: u32,
    /// A live game without a move for this many days ends as abandoned: the side to move
    /// loses (a game without any move is closed).
    #[arg(long, default_value_t = 14.0)]
    abandon_days: f64,
    /// Search threads the server runs at once, at most (default: the machine's cores).
    /// Computer moves, hints and game reviews share them; reviews wait while a computer
    /// move or a hint does, and take one thread for one ply at a time.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    engine_threads: Option<u16>,
    /// Threads of one computer move in a game with a clock, or of one hint (at most
    /// --engine-threads). Moves without a clock search a fixed number of nodes on one thread.
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    search_threads: u16,
    /// Web Push: a file holding the VAPID private key (a P-256 private key, 32 bytes in
    /// base64url). Without it the first instance makes one and keeps it in the database,
    /// and every instance on that database uses it.
    #[arg(long, env = "BAO_VAPID_PRIVATE_KEY_FILE", value_name = "FILE")]
    vapid_private_key_file: Option<std::path::PathBuf>,
    /// Web Push: how push services reach the operator (the VAPID `sub`), `mailto:...` or
    /// `https://...` (default: the --public-url, else mailto:bao@localhost).
    #[arg(long, value_name = "URI")]
    push_contact: Option<String>,
    /// Web Push: also send to endpoints starting with this prefix (a self-hosted push
    /// service), besides the known push services over HTTPS; write it up to the path
    /// (https://push.example.org/), repeat for more. The server POSTs to these addresses.
    #[arg(long, value_name = "PREFIX")]
    push_allow_endpoint: Vec<String>,
    /// Web Push: seconds "your move" waits for the player to come back before it is sent.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    push_delay: u64,
    /// Web Push: pushes per minute to one browser at most (0: no limit).
    #[arg(long, value_name = "N", default_value_t = 6)]
    push_per_minute: u32,
}

fn parse_public_url(s: &str) -> Result<bao_server::edge::PublicUrl, String> {
    s.parse()
}

/// `bao loadtest` arguments.
#[derive(Args, Debug)]
pub struct LoadtestArgs {
    /// Concurrent games (each has two players driven over WebSockets).
    #[arg(long, default_value_t = 1000)]
    games: usize,
    /// A running `bao serve` (HOST:PORT); without it a server is started in this process on
    /// a temporary SQLite file. With --players, repeat it for several instances on one
    /// database: the sockets go to them in turn.
    #[arg(long, value_name = "HOST:PORT")]
    addr: Vec<String>,
    /// Idle signed-in players instead of games: make this many accounts, each with a
    /// session, open a player socket for each (from several loopback source addresses) and
    /// measure the server's CPU per socket while nothing happens, and its memory per socket.
    #[arg(long, value_name = "N")]
    players: Option<usize>,
    /// With --players and no --addr: servers to start in this process on one database
    /// (more than one needs --database postgres://...).
    #[arg(long, value_name = "N", default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=16))]
    instances: u16,
    /// With --players: the servers' database (sqlite://FILE or postgres://...), where the
    /// accounts are made. Needed with --addr; without --addr the default is a temporary
    /// SQLite file.
    #[arg(long, value_name = "URL")]
    database: Option<String>,
    /// With --players and --addr: a server's process id, whose CPU time and memory are read
    /// from /proc (repeat for several). Without it a server elsewhere is not measured.
    #[arg(long, value_name = "PID")]
    server_pid: Vec<u32>,
    /// With --players: seconds to hold the sockets idle while the CPU is measured.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    idle_secs: u64,
    /// With --players: challenges per second sent through one instance to a player whose
    /// socket is on the next instance, each timed until that socket hears it (0: none).
    #[arg(long, value_name = "PER_SECOND", default_value_t = 0)]
    events: u32,
    /// With --events: for how many seconds to send them.
    #[arg(long, value_name = "SECONDS", default_value_t = 20)]
    events_secs: u64,
    /// Moves per game at most.
    #[arg(long, default_value_t = 40)]
    plies: usize,
    /// Mean pause before each move, in milliseconds.
    #[arg(long, default_value_t = 1000)]
    think_ms: u64,
    /// Spread the start of the games over this many milliseconds.
    #[arg(long, default_value_t = 10_000)]
    ramp_ms: u64,
    /// Variant.
    #[arg(long, default_value = "kiswahili")]
    variant: String,
    /// SQLite durability of the in-process server (see `bao serve --sync`).
    #[arg(long, default_value = "full", value_parser = ["full", "normal"])]
    sync: String,
    /// Spectator sockets per game, besides the two players (they only read).
    #[arg(long, default_value_t = 0)]
    spectators: usize,
}

fn durability(s: &str) -> bao_server::Durability {
    if s == "normal" {
        bao_server::Durability::Normal
    } else {
        bao_server::Durability::Full
    }
}

/// Runs the server until Ctrl-C or SIGTERM.
pub fn serve(a: ServeArgs) -> Result<(), CliError> {
    let d = a.database.trim();
    let supported = ["sqlite:", "postgres:", "postgresql:"];
    if !supported.iter().any(|p| d.starts_with(p)) {
        return Err(CliError::usage(format!(
            "--database '{}' is not supported: use sqlite://FILE or postgres://USER:PASS@HOST/DB",
            bao_rules::printable(d)
        )));
    }
    let vapid_private_key = match &a.vapid_private_key_file {
        Some(f) => Some(std::fs::read_to_string(f).map_err(|e| {
            CliError::usage(format!("--vapid-private-key-file {}: {e}", f.display()))
        })?),
        None => None,
    };
    let contact = a.push_contact.clone().unwrap_or_else(|| {
        a.public_url
            .as_ref()
            .map_or_else(|| "mailto:bao@localhost".into(), |u| u.origin())
    });
    bao_server::serve_blocking(bao_server::Config {
        addr: a.addr,
        database: a.database,
        durability: durability(&a.sync),
        edge: bao_server::edge::EdgeConfig {
            public_url: a.public_url,
            trust_proxy: a.trust_proxy,
            header_timeout: Duration::from_secs(a.header_timeout),
            request_timeout: Duration::from_secs(a.request_timeout),
            max_connections: a.max_connections as usize,
            rates: bao_server::edge::Rates {
                create: a.limit_create,
                join: a.limit_join,
                upload: a.limit_upload,
                moves: a.limit_moves,
                account: a.limit_account,
                account_name: a.limit_account_name,
            },
            ..Default::default()
        },
        lifecycle: bao_server::game::Lifecycle {
            abandon_after: Some(a.abandon_days)
                .filter(|d| *d > 0.0)
                .and_then(|d| std::time::Duration::try_from_secs_f64(d * 86_400.0).ok())
                .ok_or_else(|| CliError::usage("--abandon-days is a positive number of days"))?,
            ..Default::default()
        },
        ws: Default::default(),
        engine: bao_server::engine_pool::EngineConfig {
            threads: a
                .engine_threads
                .map_or_else(bao_server::engine_pool::EngineConfig::cores, usize::from),
            search_threads: a.search_threads.into(),
            ..Default::default()
        },
        push: bao_server::features::push::PushConfig {
            vapid_private_key,
            contact,
            allow: a.push_allow_endpoint,
            your_move_delay: Duration::from_secs(a.push_delay),
            per_minute: a.push_per_minute,
            ..Default::default()
        },
        seeks: Default::default(),
        clock: bao_server::util::Clock::system(),
        fair_play: Default::default(),
        site_puzzles: Default::default(),
    })
    .map_err(CliError::internal)
}

/// Runs the load test and prints its report.
pub fn loadtest(a: LoadtestArgs) -> Result<(), CliError> {
    if let Some(players) = a.players {
        if a.addr.is_empty() && !a.server_pid.is_empty() {
            return Err(CliError::usage(
                "--server-pid measures a server elsewhere: give its --addr too",
            ));
        }
        let report =
            bao_server::loadtest_players_blocking(bao_server::loadtest::players::PlayersOptions {
                players,
                addrs: a.addr,
                instances: a.instances.into(),
                database: a.database,
                durability: durability(&a.sync),
                server_pids: a.server_pid,
                idle_secs: a.idle_secs,
                events_per_sec: a.events,
                events_secs: a.events_secs,
            })
            .map_err(CliError::internal)?;
        println!("{report}");
        return Ok(());
    }
    if a.addr.len() > 1 {
        return Err(CliError::usage(
            "games run against one server: give --addr once (several are for --players)",
        ));
    }
    let report = bao_server::loadtest_blocking(bao_server::loadtest::LoadOptions {
        games: a.games,
        addr: a.addr.into_iter().next(),
        plies: a.plies,
        think_ms: a.think_ms,
        variant: a.variant,
        ramp_ms: a.ramp_ms,
        durability: durability(&a.sync),
        spectators: a.spectators,
    })
    .map_err(CliError::internal)?;
    println!("{report}");
    Ok(())
}
