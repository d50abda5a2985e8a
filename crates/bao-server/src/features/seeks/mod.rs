//! Finding an opponent (docs/api.md, "Finding an opponent"): open challenges anyone may
//! accept (seeks), quick pairing by rating (the pool), direct challenges between accounts,
//! blocking, and the player socket that keeps a page's seeks and ticket alive and tells it
//! when a game was made for it.
//!
//! Every decision that must happen once across instances is one conditional write in the
//! store ([`crate::store`]'s `seeks.rs`): the game id is chosen first, claimed in the
//! database, and only then is the game made ([`Games::create_pair`]); a claim whose instance
//! died before the game was made is undone by the upkeep task after [`STALE_CLAIM_MS`].
//! Events reach a player's sockets on any instance through the event bus
//! (docs/architecture.md, "The event bus"): the store publishes them in the transaction of
//! the change (a seek posted or accepted, a pairing, a challenge sent or answered), and each
//! socket reads what concerns it only when one of them is news for it.

mod blocks;
mod challenges;
mod pool;
mod seek;
mod socket;

use crate::domain::model::TimeControl;
use crate::error::{ApiError, ApiResult};
use crate::game::{parse_variant, Games};
use crate::store::AccountRow;
use crate::util;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::Router;
use bao_rules::{MatchFormat, Rules, Side, Variant};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::broadcast;

/// A claim (seek, pairing, challenge) whose game does not exist this long after it was made
/// is undone: its instance died between the claim and the game (60 s).
pub const STALE_CLAIM_MS: i64 = 60_000;
/// Finished rows (closed seeks, tickets that left the pool) are deleted after a day.
const KEEP_MS: i64 = 24 * 3600 * 1000;
/// Most open seeks per account and per address.
pub const MAX_OPEN_SEEKS: i64 = 3;
/// Most open outgoing challenges per account.
pub const MAX_OPEN_CHALLENGES: i64 = 10;
/// Most accounts one account blocks.
pub const MAX_BLOCKS: i64 = 1_000;
/// A challenge is open this long (24 h).
pub const CHALLENGE_MS: i64 = 24 * 3600 * 1000;
/// Seeks in the list at most.
pub const LIST_MAX: i64 = 50;
/// Longest rules option text taken.
const MAX_RULES: usize = 400;

/// Timings of finding an opponent; every instance of one database should use the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeeksConfig {
    /// A seek (or pool ticket) whose owner has had no player socket open (nor polled the
    /// ticket) for this long is gone: not listed, not acceptable, not paired.
    pub liveness: Duration,
    /// How often each instance looks whether open seeks lapsed (their page went away: a
    /// deadline, not news, so no event tells it) and then tells its player sockets.
    pub poll: Duration,
    /// How often every instance runs a pairing pass over the pool.
    pub pair_every: Duration,
}

impl Default for SeeksConfig {
    /// 30 s, 2 s, 2 s (docs/api.md, "Finding an opponent").
    fn default() -> Self {
        SeeksConfig {
            liveness: Duration::from_secs(30),
            poll: Duration::from_secs(2),
            pair_every: Duration::from_secs(2),
        }
    }
}

/// The feature's state.
pub struct Seeks {
    games: Arc<Games>,
    cfg: SeeksConfig,
    /// `{"type":"seeks"}` to every player socket of this instance (open seeks lapsed).
    list: broadcast::Sender<()>,
    /// The open seeks as last seen by the list watcher.
    mark: std::sync::Mutex<Option<(i64, i64, i64)>>,
}

impl Seeks {
    /// The feature on `games`.
    pub fn new(games: Arc<Games>, cfg: SeeksConfig) -> Arc<Seeks> {
        Arc::new(Seeks {
            games,
            cfg,
            list: broadcast::channel(16).0,
            mark: std::sync::Mutex::new(None),
        })
    }

    /// Runs one pairing pass now (besides the background passes): the games made.
    pub async fn pair_now(&self) -> usize {
        pool::pairing_pass(self).await
    }

    fn list_changed(&self) {
        let _ = self.list.send(());
    }

    fn liveness_ms(&self) -> i64 {
        self.cfg.liveness.as_millis() as i64
    }
}

/// The routes of seeks, the pool, challenges, blocks and the player socket.
pub fn routes(s: Arc<Seeks>) -> Router {
    Router::new()
        .route("/api/seeks", post(seek::create).get(seek::list))
        .route("/api/seeks/{id}", get(seek::status).delete(seek::delete))
        .route("/api/seeks/{id}/accept", post(seek::accept))
        .route("/api/pool", post(pool::join))
        .route("/api/pool/{id}", get(pool::status).delete(pool::leave))
        .route(
            "/api/challenges",
            post(challenges::create).get(challenges::list),
        )
        .route(
            "/api/challenges/{id}",
            axum::routing::delete(challenges::cancel),
        )
        .route("/api/challenges/{id}/accept", post(challenges::accept))
        .route("/api/challenges/{id}/decline", post(challenges::decline))
        .route("/api/blocks", post(blocks::block).get(blocks::list))
        .route("/api/blocks/{name}", axum::routing::delete(blocks::unblock))
        .route("/api/play/ws", get(socket::upgrade))
        .layer(DefaultBodyLimit::max(crate::edge::body::MAX_JSON))
        .with_state(s)
}

/// The background work: the pairing passes, the list watcher (tells this instance's sockets
/// when the open seeks change, whoever changed them) and the upkeep.
pub fn spawn(s: &Arc<Seeks>) -> Vec<tokio::task::JoinHandle<()>> {
    vec![
        every(s, s.cfg.pair_every, |s| async move {
            pool::pairing_pass(&s).await;
        }),
        every(s, s.cfg.poll, |s| async move {
            seek::watch_list(&s).await;
        }),
        every(s, Duration::from_secs(10), |s| async move {
            let now = util::now_ms();
            match s
                .games
                .store
                .repair_claims(now, now - STALE_CLAIM_MS, now - KEEP_MS)
                .await
            {
                Ok(0) => {}
                Ok(n) => tracing::warn!("undid {n} claims whose game was never made"),
                Err(e) => tracing::warn!("seeks upkeep: {e}"),
            }
        }),
    ]
}

/// Runs `f` every `period` while the feature lives.
fn every<F, Fut>(s: &Arc<Seeks>, period: Duration, f: F) -> tokio::task::JoinHandle<()>
where
    F: Fn(Arc<Seeks>) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send,
{
    let weak: Weak<Seeks> = Arc::downgrade(s);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(period);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(s) = weak.upgrade() else { return };
            f(s).await;
        }
    })
}

/// The signed-in account of a request (`bao_session`), read through the store.
async fn account_of(s: &Seeks, headers: &HeaderMap) -> ApiResult<Option<AccountRow>> {
    Ok(crate::edge::session_account(&s.games.store, headers).await?)
}

/// The account of a request that needs one: 401 `needs_account` otherwise.
async fn needs_account(s: &Seeks, headers: &HeaderMap) -> ApiResult<AccountRow> {
    account_of(s, headers).await?.ok_or_else(|| {
        ApiError::new(
            StatusCode::UNAUTHORIZED,
            "needs_account",
            "this needs an account: sign in (or sign up) and try again",
        )
    })
}

/// The `Authorization: Bearer` token of a request, if any.
fn bearer(headers: &HeaderMap) -> Option<String> {
    headers
        .get(axum::http::header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(|t| t.trim().to_string())
        .filter(|t| valid_token(t))
}

/// A seek token as made here: 32 hex digits.
fn valid_token(t: &str) -> bool {
    t.len() == 32 && t.bytes().all(|b| b.is_ascii_hexdigit())
}

/// An id as made here ([`util::random_code`] of 12); anything else is refused before the
/// store is asked.
fn valid_id(id: &str) -> bool {
    id.len() == 12
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || (b'2'..=b'9').contains(&b))
}

fn new_id() -> String {
    util::random_code(12)
}

/// 403 `blocked`.
fn blocked() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "blocked",
        "one of you has blocked the other",
    )
}

/// The terms of a game to be made: variant, rules with the match format, clock.
#[derive(Clone, Debug)]
struct Terms {
    variant: Variant,
    rules: Rules,
    /// The options without the match format, as listed (`-` or OPTS).
    rules_text: String,
    match_text: &'static str,
    clock: Option<TimeControl>,
}

impl Terms {
    /// From a request's fields (400 with a clear message for each bad one).
    fn parse(
        variant: &str,
        rules: Option<&str>,
        clock: Option<&serde_json::Value>,
        match_format: Option<&str>,
    ) -> ApiResult<Terms> {
        let variant = parse_variant(variant)?;
        let text = rules.unwrap_or("-");
        if text.len() > MAX_RULES {
            return Err(ApiError::bad_request("the rules options are too long"));
        }
        let mut rules = Rules::parse(variant, text)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_rules", e.to_string()))?;
        rules.match_format = match match_format {
            None => MatchFormat::SingleGame,
            Some(f) => MatchFormat::parse(f).ok_or_else(|| {
                ApiError::bad_request("match must be \"single_game\" or \"best_of_three\"")
            })?,
        };
        Ok(Terms::of(rules, parse_clock(clock)?))
    }

    fn of(rules: Rules, clock: Option<TimeControl>) -> Terms {
        let mut bare = rules;
        bare.match_format = Rules::new(rules.variant).match_format;
        Terms {
            variant: rules.variant,
            rules_text: bare.to_string(),
            match_text: rules.match_format.as_str(),
            rules,
            clock,
        }
    }

    /// From stored columns (checked when stored).
    fn stored(
        variant: &str,
        rules: &str,
        match_format: &str,
        clock: Option<&str>,
    ) -> ApiResult<Terms> {
        let clock = clock
            .map(|c| serde_json::from_str::<serde_json::Value>(c).map_err(ApiError::internal))
            .transpose()?;
        Terms::parse(variant, Some(rules), clock.as_ref(), Some(match_format))
    }

    fn clock_text(&self) -> Option<String> {
        self.clock
            .as_ref()
            .map(|c| serde_json::to_string(c).unwrap_or_default())
    }
}

/// A CLOCK of the contract: the same object `POST /api/games` takes, or null.
fn parse_clock(v: Option<&serde_json::Value>) -> ApiResult<Option<TimeControl>> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => {
            let c: TimeControl = serde_json::from_value(v.clone()).map_err(|_| {
                ApiError::bad_request(
                    "clock is {\"initial_ms\": N, \"increment_ms\": M} (real time, milliseconds), {\"days_per_move\": D} (correspondence) or null",
                )
            })?;
            c.check().map_err(ApiError::bad_request)?;
            Ok(Some(c))
        }
    }
}

/// The stored clock text as the JSON value the API shows.
fn clock_json(text: Option<&str>) -> serde_json::Value {
    text.and_then(|t| serde_json::from_str(t).ok())
        .unwrap_or(serde_json::Value::Null)
}

/// South or North at random.
fn random_side() -> Side {
    if rand::random::<bool>() {
        Side::South
    } else {
        Side::North
    }
}
