//! # bao-server
//!
//! `bao serve`: play Bao in the browser against the computer or other people.
//!
//! The crate is in layers, each depending only on those below it (docs/architecture.md; a
//! test, tests/layers.rs, keeps it so):
//!
//! * [`domain`]: the match model, clocks, views, wire messages, records and names: pure;
//! * [`store`]: SQLite or PostgreSQL through sqlx, the only SQL in the crate;
//! * [`error`], [`engine_pool`], [`util`]: the API's errors, the one bound on searches, helpers;
//! * [`edge`]: what every request passes (limits, origin checks, the accept loop, bodies,
//!   socket keep-alive); [`web`]: the embedded web app, its pages and catalogs;
//! * [`game`]: the live game, its one write path and its routes;
//! * [`features`]: lobby, review, rematch, takeback and hint, abandonment, my games,
//!   puzzles, learn, variants, accounts: each with its own state and routes;
//! * [`app`]: the composition root that builds and wires all of them.
//!
//! The server never decides a rule: moves are matched and played by `bao-rules`, the
//! computer's moves come from `bao-engine`, and the board picture from `bao-render`.
#![warn(missing_docs)]

pub mod app;
pub mod domain;
pub mod edge;
pub mod engine_pool;
pub mod error;
pub mod features;
pub mod game;
#[cfg(feature = "loadtest")]
pub mod loadtest;
pub mod store;
pub mod util;
pub mod web;

pub use app::{start, App, Running, StartError};
pub use store::{Durability, Store};

use std::net::SocketAddr;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Address to listen on (`127.0.0.1:8080`; port 0 picks a free one).
    pub addr: SocketAddr,
    /// `sqlite://FILE` or `postgres://...`.
    pub database: String,
    /// SQLite commit durability.
    pub durability: Durability,
    /// Timeouts, the connection cap, rate limits and the cross-site rules (docs/api.md).
    pub edge: edge::EdgeConfig,
    /// Abandonment, "Watch live" and eviction timings.
    pub lifecycle: game::Lifecycle,
    /// WebSocket keep-alive: ping interval and idle timeout.
    pub ws: edge::socket::WsConfig,
    /// The engine pool: search threads at once, threads per timed search.
    pub engine: engine_pool::EngineConfig,
    /// Web Push: the VAPID key, the endpoints allowed, the delays and limits.
    pub push: features::push::PushConfig,
    /// Finding an opponent: how long a seek outlives its page, how often sockets read and
    /// the pool is paired.
    pub seeks: features::seeks::SeeksConfig,
    /// The time the model and the timers read: the system's, or a test's.
    pub clock: util::Clock,
    /// How hard the fair-play analysis looks at each rated game.
    pub fair_play: features::fairplay::FairPlayConfig,
    /// Whether the site's finished games are mined for puzzles (on by default).
    pub site_puzzles: features::puzzles::site::SitePuzzlesConfig,
}

impl Default for Config {
    /// `bao serve` without flags.
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://bao.db".into(),
            durability: Durability::Full,
            edge: edge::EdgeConfig::default(),
            lifecycle: game::Lifecycle::default(),
            ws: edge::socket::WsConfig::default(),
            engine: engine_pool::EngineConfig::default(),
            push: features::push::PushConfig::default(),
            seeks: features::seeks::SeeksConfig::default(),
            clock: util::Clock::system(),
            fair_play: features::fairplay::FairPlayConfig::default(),
            site_puzzles: features::puzzles::site::SitePuzzlesConfig::default(),
        }
    }
}

/// `bao serve`: runs until Ctrl-C or SIGTERM, then shuts down gracefully.
pub async fn serve(config: Config) -> Result<(), StartError> {
    let running = app::start(config).await?;
    println!("bao serve: listening on http://{}", running.addr);
    let addr = running.addr;
    let signal = edge::accept::shutdown_signal().await;
    tracing::info!("{signal}: stopping {addr}");
    running.stop().await;
    tracing::info!("stopped");
    Ok(())
}

/// Sets up logging to standard error (`RUST_LOG` overrides the level); colours only when
/// standard error is a terminal.
pub fn init_tracing() {
    use std::io::IsTerminal;
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,tower_http=warn,sqlx=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(std::io::stderr().is_terminal())
        .with_writer(std::io::stderr)
        .try_init();
}

/// `bao serve` from synchronous code: builds the runtime and serves until Ctrl-C.
pub fn serve_blocking(config: Config) -> Result<(), String> {
    init_tracing();
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(serve(config)).map_err(|e| e.to_string())
}

/// Grants (`true`) or takes back the moderator role of the account named `name` (any
/// case) in the database at `database`, from synchronous code (`bao admin moderator`);
/// `Ok(false)` when there is no such account.
pub fn set_moderator_blocking(database: &str, name: &str, on: bool) -> Result<bool, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let store = store::Store::open(database, store::Durability::Full)
            .await
            .map_err(|e| format!("cannot open {database}: {e}"))?;
        store
            .set_moderator(&name.to_ascii_lowercase(), on)
            .await
            .map_err(|e| e.to_string())
    })
}

#[cfg(feature = "loadtest")]
/// `bao loadtest` from synchronous code.
pub fn loadtest_blocking(opts: loadtest::LoadOptions) -> Result<loadtest::LoadReport, String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(loadtest::run(opts))
}

/// Runs `bao loadtest --players` (idle signed-in players, events between instances) on its
/// own runtime.
#[cfg(feature = "loadtest")]
pub fn loadtest_players_blocking(
    opts: loadtest::players::PlayersOptions,
) -> Result<loadtest::players::PlayersReport, String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(loadtest::players::run(opts))
}
