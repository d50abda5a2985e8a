//! # bao-server
//!
//! `bao serve`: play Bao in the browser against the computer or other people.
//!
//! * [`http`]: the routes of docs/api.md, with the web app embedded ([`assets`]);
//! * [`ws`]: live games over WebSocket;
//! * [`app`]: games in memory and every change to them, each committed to the [`store`]
//!   (SQLite or PostgreSQL through sqlx) before it is answered;
//! * [`loadtest`]: many concurrent games over WebSockets, with move round-trip times.
//!
//! The server never decides a rule: moves are matched and played by `bao-rules`, the
//! computer's moves come from `bao-engine`, and the board picture from `bao-render`.
#![warn(missing_docs)]

pub mod app;
pub mod assets;
pub mod error;
pub mod http;
#[cfg(feature = "loadtest")]
pub mod loadtest;
pub mod lobby;
pub mod model;
pub mod record;
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
    /// WebSocket keep-alive: ping interval and idle timeout.
    pub ws: ws::WsConfig,
}

/// A started server.
pub struct Running {
    /// The address it listens on.
    pub addr: SocketAddr,
    /// The server's state (for tests).
    pub app: Arc<App>,
    shutdown: Option<tokio::sync::oneshot::Sender<()>>,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    listener_task: Option<tokio::task::JoinHandle<()>>,
}

impl Running {
    /// Stops accepting connections, waits for the server to end and closes the database.
    pub async fn stop(mut self) {
        if let Some(s) = self.shutdown.take() {
            let _ = s.send(());
        }
        if let Some(l) = self.listener_task.take() {
            l.abort();
        }
        let _ = tokio::time::timeout(std::time::Duration::from_secs(5), &mut self.task).await;
        self.task.abort();
        self.app.store.close().await;
    }

    /// Waits until the server ends (it ends on Ctrl-C when started by [`serve`]).
    pub async fn wait(self) -> std::io::Result<()> {
        match self.task.await {
            Ok(r) => r,
            Err(e) => Err(std::io::Error::other(e)),
        }
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
pub async fn start(config: Config) -> Result<Running, StartError> {
    let store = Store::open(&config.database, config.durability).await?;
    let app = App::new(store, config.ws);
    let resumed = app.resume().await?;
    if resumed > 0 {
        tracing::info!("resumed {resumed} unfinished games");
    }
    let listener_task = if app.store.backend == store::Backend::Postgres {
        Some(spawn_pg_listener(app.clone()).await?)
    } else {
        None
    };
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
    let router = http::router(app.clone())
        .layer(tower_http::catch_panic::CatchPanicLayer::new())
        .layer(tower_http::trace::TraceLayer::new_for_http());
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let task = tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(async move {
                let _ = rx.await;
            })
            .await
    });
    Ok(Running {
        addr,
        app,
        shutdown: Some(tx),
        task,
        listener_task,
    })
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

/// `bao serve`: runs until Ctrl-C.
pub async fn serve(config: Config) -> Result<(), StartError> {
    let running = start(config).await?;
    println!("bao serve: listening on http://{}", running.addr);
    let addr = running.addr;
    tokio::select! {
        r = tokio::signal::ctrl_c() => {
            let _ = r;
            tracing::info!("stopping {addr}");
            running.stop().await;
        }
    }
    Ok(())
}

/// Sets up logging to standard error (`RUST_LOG` overrides the level).
pub fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("info,tower_http=warn,sqlx=warn"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
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
