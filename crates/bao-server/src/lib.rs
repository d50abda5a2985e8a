//! # bao-server
//!
//! `bao serve`: play Bao in the browser against the computer or other people.
//!
//! * [`http`]: the routes of docs/api.md, with the web app embedded ([`assets`]);
//! * [`ws`]: live games over WebSocket;
//! * [`app`]: games in memory and every change to them, each committed to the [`store`]
//!   (SQLite or PostgreSQL through sqlx) before it is answered;
//! * [`engine_pool`]: the one bound on search threads that computer moves, hints and
//!   reviews share (live work first);
//! * [`review`]: game review by the engine from a bounded queue;
//! * [`loadtest`]: many concurrent games over WebSockets, with move round-trip times.
//!
//! The server never decides a rule: moves are matched and played by `bao-rules`, the
//! computer's moves come from `bao-engine`, and the board picture from `bao-render`.
#![warn(missing_docs)]

pub mod app;
pub mod assets;
pub mod edge;
pub mod engine_pool;
pub mod error;
pub mod http;
pub mod i18n;
pub mod lifecycle;
#[cfg(feature = "loadtest")]
pub mod loadtest;
pub mod lobby;
pub mod mine;
pub mod model;
pub mod names;
pub mod pages;
pub mod play;
pub mod puzzles;
pub mod record;
pub mod review;
mod server;
pub mod store;
pub mod util;
pub mod ws;

use app::App;
use std::net::SocketAddr;
use std::sync::Arc;
pub use store::{Durability, Store};

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
    pub lifecycle: lifecycle::Lifecycle,
    /// WebSocket keep-alive: ping interval and idle timeout.
    pub ws: ws::WsConfig,
    /// The engine pool: search threads at once, threads per timed search.
    pub engine: engine_pool::EngineConfig,
}

impl Default for Config {
    /// `bao serve` without flags.
    fn default() -> Self {
        Config {
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            database: "sqlite://bao.db".into(),
            durability: Durability::Full,
            edge: edge::EdgeConfig::default(),
            lifecycle: lifecycle::Lifecycle::default(),
            ws: ws::WsConfig::default(),
            engine: engine_pool::EngineConfig::default(),
        }
    }
}

/// A started server.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The server's state (for tests).
    pub app: Arc<App>,
    stop: tokio::sync::watch::Sender<bool>,
    task: tokio::task::JoinHandle<()>,
    connections: Arc<tokio::sync::Semaphore>,
    edge: Arc<edge::Edge>,
    background: Vec<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// Shuts down gracefully: stops accepting, lets requests in flight finish (their
    /// commits included), closes WebSockets with code 1001 and a reason, waits for the
    /// connections to end (at most the configured grace) and closes the database.
    pub async fn stop(mut self) {
        let _ = self.stop.send(true);
        let _ = (&mut self.task).await;
        let grace = self.edge.config.shutdown_grace;
        let all = self.edge.config.max_connections as u32;
        // Every open connection holds a permit: all back means every connection is closed.
        let drained = tokio::time::timeout(grace, self.connections.acquire_many(all)).await;
        if drained.is_err() {
            tracing::warn!(
                "{} connections still open after {} s; closing them",
                all as usize - self.connections.available_permits(),
                grace.as_secs()
            );
        }
        for b in self.background.drain(..) {
            b.abort();
        }
        self.app.store.close().await;
    }

    /// Waits until the server stops accepting connections.
    pub async fn wait(self) -> std::io::Result<()> {
        self.task.await.map_err(std::io::Error::other)
    }
}

/// Errors starting the server.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The database could not be opened or migrated.
    #[error("{0}")]
    Store(#[from] store::StoreError),
    /// The address could not be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// Opens the database (running migrations), reloads unfinished games and starts serving.
pub async fn start(mut config: Config) -> Result<Running, StartError> {
    let store = Store::open(&config.database, config.durability).await?;
    let app = App::with_config(store, config.lifecycle.clone(), config.ws, &config.engine);
    let resumed = app.resume().await?;
    if resumed > 0 {
        tracing::info!("resumed {resumed} unfinished games");
    }
    let mut background = Vec::new();
    if app.store.backend == store::Backend::Postgres {
        background.push(spawn_pg_listener(app.clone()).await?);
    }
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|source| StartError::Bind {
            addr: config.addr,
            source,
        })?;
    let addr = listener.local_addr().map_err(|source| StartError::Bind {
        addr: config.addr,
        source,
    })?;
    let (stop, stop_rx) = tokio::sync::watch::channel(false);
    config.edge.max_connections = config.edge.max_connections.clamp(1, u32::MAX as usize);
    let edge = edge::Edge::new(config.edge.clone(), stop_rx.clone());
    let router = http::router(app.clone())
        .layer(axum::middleware::from_fn_with_state(
            edge.clone(),
            edge::guard,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::new())
        .layer(axum::middleware::from_fn(edge::errors))
        .layer(compression())
        .layer(axum::middleware::from_fn(edge::log));
    let connections = Arc::new(tokio::sync::Semaphore::new(config.edge.max_connections));
    let task = tokio::spawn(server::accept_loop(
        listener,
        router,
        connections.clone(),
        config.edge.header_timeout,
        stop_rx,
    ));
    background.push(lifecycle::spawn(&app));
    let limits = edge.clone();
    background.push(tokio::spawn(async move {
        let mut tick = tokio::time::interval(std::time::Duration::from_secs(60));
        loop {
            tick.tick().await;
            limits.limits.forget_idle();
        }
    }));
    Ok(Running {
        addr,
        app,
        stop,
        task,
        connections,
        edge,
        background,
    })
}

/// gzip or brotli, whichever the client prefers, for JSON, pages, scripts and styles; never
/// for a WebSocket upgrade. Level 4: most of the gain for little CPU on every answer.
fn compression(
) -> tower_http::compression::CompressionLayer<impl tower_http::compression::Predicate> {
    use tower_http::compression::{predicate::DefaultPredicate, CompressionLevel, Predicate};
    let not_upgrade = |status: axum::http::StatusCode,
                       _: axum::http::Version,
                       _: &axum::http::HeaderMap,
                       _: &axum::http::Extensions| {
        status != axum::http::StatusCode::SWITCHING_PROTOCOLS
    };
    tower_http::compression::CompressionLayer::new()
        .quality(CompressionLevel::Precise(4))
        .compress_when(DefaultPredicate::new().and(not_upgrade))
}

/// Listens for other instances' changes (PostgreSQL LISTEN/NOTIFY) and refreshes our clients.
async fn spawn_pg_listener(app: Arc<App>) -> Result<tokio::task::JoinHandle<()>, StartError> {
    let mut listener = sqlx::postgres::PgListener::connect(&app.store.url)
        .await
        .map_err(store::StoreError::from)?;
    listener
        .listen(store::CHANNEL)
        .await
        .map_err(store::StoreError::from)?;
    Ok(tokio::spawn(async move {
        loop {
            match listener.recv().await {
                Ok(n) => {
                    let Some((instance, id)) = n.payload().split_once(' ') else {
                        continue;
                    };
                    if instance == app.instance {
                        continue;
                    }
                    let (app, id) = (app.clone(), id.to_string());
                    tokio::spawn(async move { app.refresh(&id).await });
                }
                Err(e) => {
                    // PgListener reconnects by itself on the next recv.
                    tracing::warn!("database notifications: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                }
            }
        }
    }))
}

/// `bao serve`: runs until Ctrl-C or SIGTERM, then shuts down gracefully.
pub async fn serve(config: Config) -> Result<(), StartError> {
    let running = start(config).await?;
    println!("bao serve: listening on http://{}", running.addr);
    let addr = running.addr;
    let signal = server::shutdown_signal().await;
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

#[cfg(feature = "loadtest")]
/// `bao loadtest` from synchronous code.
pub fn loadtest_blocking(opts: loadtest::LoadOptions) -> Result<loadtest::LoadReport, String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(loadtest::run(opts))
}
