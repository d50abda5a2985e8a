//! The composition root (docs/architecture.md): builds the store, the game core and every
//! feature, wires the features to the core (observers), merges every feature's routes under
//! the edge's layers, and starts the background work. The only module that knows them all.

use crate::edge::{self, accept};
use crate::engine_pool::EnginePool;
use crate::error::{ApiError, Category};
use crate::features::{
    abandon, accounts, analysis, arenas, assist, clubs, fairplay, learn, lobby, mine, push,
    puzzles, ratings, rematch, review, seeks, teams, tournaments, variants,
};
use crate::game::{self, Games, Observer};
use crate::store::{Store, StoreError};
use crate::web;
use crate::Config;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Router;
use std::net::SocketAddr;
use std::sync::Arc;

/// Everything the server is made of, built once.
pub struct App {
    /// The database.
    pub store: Store,
    /// The live games.
    pub games: Arc<Games>,
    /// The engine pool (shared by the games and the reviews).
    pub engine: EnginePool,
    /// The home page's live lists.
    pub lobby: Arc<lobby::Lobby>,
    /// Game reviews.
    pub review: Arc<review::ReviewPool>,
    /// Accounts and their sessions.
    pub accounts: Arc<accounts::Accounts>,
    /// Ratings: the observer that hands finished rated games to the rating task.
    pub ratings: Arc<ratings::Ratings>,
    /// Web Push: subscriptions and the delivery of alerts.
    pub push: Arc<push::Push>,
    /// Tournaments: the observer that hands ended games to the tournament task.
    pub tournaments: Arc<tournaments::Tournaments>,
    /// Arenas: the observer that hands ended games to the arena task.
    pub arenas: Arc<arenas::Arenas>,
    /// Finding an opponent: seeks, the pool, challenges, blocks, the player socket.
    pub seeks: Arc<seeks::Seeks>,
    /// Clubs: members, roles, requests and announcements.
    pub clubs: Arc<clubs::Clubs>,
    /// Team matches: club against club on N boards.
    pub teams: Arc<teams::Teams>,
    /// Fair play: the analysis of rated games, reports and moderators.
    pub fairplay: Arc<fairplay::FairPlay>,
    /// The puzzles served: the embedded ones and those mined from the site's games.
    pub puzzles: Arc<puzzles::Live>,
    /// The observer that hands finished games to the puzzle miner.
    pub site_puzzles: Arc<puzzles::site::SiteMiner>,
}

impl App {
    /// Builds the server's parts on `store`.
    pub fn new(store: Store, config: &Config) -> Arc<App> {
        let engine = EnginePool::new(&config.engine);
        let fairplay = fairplay::FairPlay::new(config.fair_play);
        let site_puzzles = puzzles::site::SiteMiner::new(config.site_puzzles);
        let lobby = Arc::new(lobby::Lobby::default());
        let ratings = ratings::Ratings::new();
        let tournaments = tournaments::Tournaments::new();
        let arenas = arenas::Arenas::new();
        let team_results = teams::TeamsObserver::new();
        let observers: Vec<Arc<dyn Observer>> = vec![
            lobby.clone(),
            ratings.clone(),
            tournaments.clone(),
            arenas.clone(),
            team_results.clone(),
            fairplay.clone(),
            site_puzzles.clone(),
        ];
        let games = Games::new(
            store.clone(),
            engine.clone(),
            config.lifecycle.clone(),
            config.ws,
            observers,
            config.clock.clone(),
        );
        let review = Arc::new(review::ReviewPool::new(Default::default(), engine.clone()));
        let accounts = accounts::Accounts::new(store.clone());
        let push = push::Push::new(games.clone(), config.push.clone());
        let seeks = seeks::Seeks::new(games.clone(), config.seeks);
        let clubs = clubs::Clubs::new(games.clone());
        let teams = teams::Teams::new(games.clone(), &team_results);
        Arc::new(App {
            fairplay,
            puzzles: puzzles::Live::embedded(),
            site_puzzles,
            clubs,
            teams,
            push,
            seeks,
            accounts,
            ratings,
            tournaments,
            arenas,
            store,
            games,
            engine,
            lobby,
            review,
        })
    }

    /// Every route: each feature's, the game's and the web app's.
    pub fn router(self: &Arc<App>) -> Router {
        let g = &self.games;
        Router::new()
            .route("/api/health", axum::routing::get(health))
            .with_state(self.clone())
            .merge(game::routes::routes(g.clone()))
            .merge(rematch::routes(g.clone()))
            .merge(assist::routes(g.clone()))
            .merge(analysis::routes(self.engine.clone()))
            .merge(mine::routes(g.clone()))
            .merge(review::routes::routes(g.clone(), self.review.clone()))
            .merge(lobby::routes(self.lobby.clone(), g.ws))
            .merge(puzzles::routes(g.clone(), self.puzzles.clone()))
            .merge(learn::routes())
            .merge(variants::routes())
            .merge(accounts::routes(self.accounts.clone()))
            .merge(ratings::routes(g.clone()))
            .merge(push::routes(self.push.clone()))
            .merge(tournaments::routes(g.clone()))
            .merge(arenas::routes(g.clone()))
            .merge(seeks::routes(self.seeks.clone()))
            .merge(clubs::routes(self.clubs.clone()))
            .merge(teams::routes(self.teams.clone()))
            .merge(fairplay::routes(g.clone()))
            .merge(web::assets::pages())
            .fallback(not_found)
            .method_not_allowed_fallback(method_not_allowed)
    }

    /// The background work of the core and the features; each task ends when its part is
    /// dropped (or when [`Running::stop`] aborts it).
    async fn spawn_background(
        self: &Arc<App>,
    ) -> Result<Vec<tokio::task::JoinHandle<()>>, StartError> {
        let mut tasks = vec![
            self.games.spawn_sweep(),
            self.games.spawn_presence(),
            abandon::spawn(&self.games),
            lobby::spawn_ticker(&self.lobby),
            ratings::spawn(&self.ratings, &self.games),
            push::spawn(&self.push).await?,
            tournaments::spawn(&self.tournaments, &self.games),
            arenas::spawn(&self.arenas, &self.games),
            arenas::live::spawn(&self.games),
            teams::spawn(&self.teams),
            fairplay::spawn(&self.fairplay, &self.games, self.engine.clone()),
        ];
        tasks.extend(seeks::spawn(&self.seeks));
        tasks.push(puzzles::site::spawn_loader(
            self.store.clone(),
            self.puzzles.clone(),
        ));
        tasks.extend(puzzles::site::spawn(
            &self.site_puzzles,
            &self.games,
            self.engine.clone(),
            self.puzzles.clone(),
        ));
        tasks.push(self.games.spawn_listen());
        // Last: every subscriber above hears what the listener delivers from the start.
        tasks.extend(self.store.spawn_listener().await?);
        Ok(tasks)
    }
}

async fn method_not_allowed() -> ApiError {
    ApiError::of(
        Category::MethodNotAllowed,
        "this address does not take this method",
    )
}

async fn not_found() -> ApiError {
    ApiError::not_found("there is nothing at this address")
}

/// The body of a healthy `GET /api/health`: the engine pool's and the reviews' load
/// besides `ok` (docs/api.md, "JSON API").
#[derive(serde::Serialize)]
struct Health {
    ok: bool,
    engine: crate::engine_pool::EngineStats,
    reviews: review::ReviewLoad,
}

/// Answers only when the database does (a load balancer's check), with what the engine is
/// doing.
async fn health(State(app): State<Arc<App>>) -> Response {
    let ping = tokio::time::timeout(std::time::Duration::from_secs(5), app.store.ping()).await;
    match ping {
        Ok(Ok(())) => (
            StatusCode::OK,
            axum::Json(Health {
                ok: true,
                engine: app.engine.stats(),
                reviews: app.review.load(),
            }),
        )
            .into_response(),
        failed => {
            let why = match failed {
                Ok(Err(e)) => e.to_string(),
                _ => "no answer within 5 s".into(),
            };
            tracing::warn!("health check: the database does not answer: {why}");
            ApiError::of(
                Category::Unavailable,
                "the database does not answer; try again in a moment",
            )
            .into_response()
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
    /// connections to end (at most the configured grace), forgets which players had a game
    /// open here ([`crate::game::presence`]) and closes the database.
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
        // Its sockets are closed: no other instance should count its players as looking.
        if let Err(e) = self
            .app
            .store
            .presence_sync(&self.app.games.instance, &[], 0)
            .await
        {
            tracing::warn!("presence at shutdown: {e}");
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
    Store(#[from] StoreError),
    /// Web Push could not start (its key).
    #[error("web push: {0}")]
    Push(#[from] push::PushError),
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
    let app = App::new(store, &config);
    let resumed = app.games.resume().await?;
    if resumed > 0 {
        tracing::info!("resumed {resumed} unfinished games");
    }
    let background = app.spawn_background().await?;
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
    let router = app
        .router()
        .layer(axum::middleware::from_fn_with_state(
            edge.clone(),
            edge::guard,
        ))
        .layer(tower_http::catch_panic::CatchPanicLayer::new())
        .layer(axum::middleware::from_fn(edge::errors))
        .layer(compression())
        .layer(axum::middleware::from_fn(edge::log));
    let connections = Arc::new(tokio::sync::Semaphore::new(config.edge.max_connections));
    let task = tokio::spawn(accept::accept_loop(
        listener,
        router,
        connections.clone(),
        config.edge.header_timeout,
        stop_rx,
    ));
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
