//! Finding an opponent (docs/api.md, "Finding an opponent"): open challenges anyone may
//! accept (seeks), quick pairing by rating (the pool), direct challenges between accounts,
//! blocking, and the player socket that keeps a page's seeks and ticket alive and tells it
//! when a game was made for it.
//!
//! Every decision that must happen once across instances is one conditional write in the
//! store ([`crate::store`]'s `seeks.rs`): the game id is chosen first, claimed in the
//! database, and only then is the game made ([`Games::create_pair`]); a claim whose instance
//! died before the game was made is undone [`SeeksConfig::stale_claim`] after the claim by
//! any instance (the claim's event sets every instance's timer), and what it undoes is alive
//! again at once (its lease renewed).
//! Events reach a player's sockets on any instance through the event bus
//! (docs/architecture.md, "The event bus"): the store publishes them in the transaction of
//! the change (a seek posted or accepted, a pairing, a challenge sent or answered), and each
//! socket reads what concerns it only when one of them is news for it.

mod blocks;
mod challenges;
mod pool;
mod seek;
mod socket;

use crate::domain::events::{ChallengeStatus, Event};
use crate::edge::limit::{limit, Action};
use crate::edge::terms::{Terms, TermsIn};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::Games;
use crate::store::Store;
use crate::util;
use axum::extract::FromRef;
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::Router;
use bao_rules::{MatchFormat, Side};
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

/// A claim (seek, pairing, challenge) whose game does not exist this long after it was made
/// is undone: its instance died between the claim and the game (60 s, the default of
/// [`SeeksConfig::stale_claim`]).
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

/// Timings of finding an opponent; every instance of one database should use the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeeksConfig {
    /// A seek (or pool ticket) whose owner has had no player socket open (nor polled the
    /// ticket) for this long is gone: not listed, not acceptable, not paired.
    pub liveness: Duration,
    /// How soon a pairing pass runs again after one of its claims lost (to another
    /// instance's pass, or a deadlock) or its game could not be made. Otherwise passes run
    /// when a ticket joins and at the next step of a waiting ticket's range, not on a period.
    pub pair_every: Duration,
    /// A claim (seek, pairing, challenge) whose game does not exist this long after it was
    /// made is undone: its instance died between the claim and the game. Longer than making
    /// a game can take.
    pub stale_claim: Duration,
    /// How often every instance runs the upkeep, its safety sweep for what no event or
    /// timer brought (an event lost with a crash): undoing stale claims, expiring
    /// challenges, deleting old rows, a pairing pass and a look at the seek list. Claims and
    /// challenges have timers at their deadlines; this is only the net under them.
    pub upkeep: Duration,
    /// Test only (a fault point), off by default: right after it claims a seek, a pool pair
    /// or a challenge this instance stops dead, never making the game nor undoing the claim,
    /// as if it were killed at that instant. Another instance must repair it (at the claim's deadline).
    pub halt_after_claim: bool,
    /// Whether this instance runs pairing passes by itself (on a join, at a widening step,
    /// at the upkeep): on by default; off only where a test times one pass of its own.
    pub background_passes: bool,
}

impl Default for SeeksConfig {
    /// 30 s, 2 s, 60 s, 60 s, no fault (docs/api.md, "Finding an opponent").
    fn default() -> Self {
        SeeksConfig {
            liveness: Duration::from_secs(30),
            pair_every: Duration::from_secs(2),
            stale_claim: Duration::from_millis(STALE_CLAIM_MS as u64),
            upkeep: Duration::from_secs(60),
            halt_after_claim: false,
            background_passes: true,
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
    /// This instance's open player sockets, by account and seek token.
    pub sockets: socket::Sockets,
    /// The bus as [`socket::dispatch`] hears it, subscribed from the start.
    events: std::sync::Mutex<Option<broadcast::Receiver<Arc<crate::domain::events::Delivered>>>>,
}

impl Seeks {
    /// Now by the games' clock (ms since the epoch): leases, claims and expiries are read
    /// on it.
    fn now_ms(&self) -> i64 {
        self.games.clock.now_ms()
    }

    /// The feature on `games`.
    pub fn new(games: Arc<Games>, cfg: SeeksConfig) -> Arc<Seeks> {
        Arc::new(Seeks {
            cfg,
            list: broadcast::channel(16).0,
            mark: std::sync::Mutex::new(None),
            sockets: Default::default(),
            events: std::sync::Mutex::new(Some(games.store.subscribe())),
            games,
        })
    }

    /// Runs one pairing pass now (besides the background passes): the games made.
    pub async fn pair_now(&self) -> usize {
        pool::pairing_pass(self).await.made
    }

    fn list_changed(&self) {
        let _ = self.list.send(());
    }

    fn liveness_ms(&self) -> i64 {
        self.cfg.liveness.as_millis() as i64
    }

    /// The fault point of [`SeeksConfig::halt_after_claim`]: never returns when it is on.
    async fn after_claim(&self) {
        if self.cfg.halt_after_claim {
            tracing::warn!("halt_after_claim: this instance stops here, as if killed");
            std::future::pending::<()>().await;
        }
    }

    /// Undoes the claims older than [`SeeksConfig::stale_claim`] whose game was never made,
    /// with a fresh lease (the store publishes what came back).
    async fn repair(&self) {
        let now = self.now_ms();
        let stale = now - self.cfg.stale_claim.as_millis() as i64;
        let lease = now + self.liveness_ms();
        match self.games.store.repair_claims(now, stale, lease).await {
            Ok(0) => {}
            Ok(n) => tracing::warn!("undid {n} claims whose game was never made"),
            Err(e) => tracing::warn!("seeks: repairing claims: {e}"),
        }
    }

    /// Expires the challenges whose time has come: when the next one expires.
    async fn expire(&self) -> Option<i64> {
        match self.games.store.expire_challenges(self.now_ms()).await {
            Ok(next) => next,
            Err(e) => {
                tracing::warn!("seeks: expiring challenges: {e}");
                None
            }
        }
    }

    /// The repair's deadline of the oldest claim whose game does not exist, from the store.
    async fn first_claim_due(&self) -> Option<i64> {
        match self.games.store.first_open_claim().await {
            Ok(first) => first.map(|at| self.claim_due(at)),
            Err(e) => {
                tracing::warn!("seeks: reading the claims: {e}");
                None
            }
        }
    }

    /// When a claim made at `at` is stale if its game was never made.
    fn claim_due(&self, at: i64) -> i64 {
        at + self.cfg.stale_claim.as_millis() as i64 + 1
    }

    /// One upkeep, the safety sweep: claims repaired, challenges expired (answers when the
    /// next expires), old rows deleted. (The task then runs a pairing pass and looks at the
    /// seek list.)
    async fn upkeep(&self) -> Option<i64> {
        self.repair().await;
        let next = self.expire().await;
        if let Err(e) = self.games.store.prune_seeks(self.now_ms() - KEEP_MS).await {
            tracing::warn!("seeks upkeep: {e}");
        }
        next
    }
}

impl FromRef<Arc<Seeks>> for Store {
    fn from_ref(s: &Arc<Seeks>) -> Store {
        s.games.store.clone()
    }
}

/// The routes of seeks, the pool, challenges, blocks and the player socket. Posting a seek,
/// a challenge or a place in the pool makes a game soon after: each counts as a new game;
/// accepting one as a join (docs/api.md, "Finding an opponent").
pub fn routes(s: Arc<Seeks>) -> Router {
    Router::new()
        .route(
            "/api/seeks",
            post(seek::create)
                .layer(limit(Action::Create))
                .get(seek::list),
        )
        .route("/api/seeks/{id}", get(seek::status).delete(seek::delete))
        .route(
            "/api/seeks/{id}/accept",
            post(seek::accept).layer(limit(Action::Join)),
        )
        .route("/api/pool", post(pool::join).layer(limit(Action::Create)))
        .route("/api/pool/{id}", get(pool::status).delete(pool::leave))
        .route(
            "/api/challenges",
            post(challenges::create)
                .layer(limit(Action::Create))
                .get(challenges::list),
        )
        .route(
            "/api/challenges/{id}",
            axum::routing::delete(challenges::cancel),
        )
        .route(
            "/api/challenges/{id}/accept",
            post(challenges::accept).layer(limit(Action::Join)),
        )
        .route("/api/challenges/{id}/decline", post(challenges::decline))
        .route("/api/blocks", post(blocks::block).get(blocks::list))
        .route("/api/blocks/{name}", axum::routing::delete(blocks::unblock))
        .route("/api/play/ws", get(socket::upgrade))
        .with_state(s)
}

/// The background work, two tasks per instance (docs/architecture.md, "The event bus"):
/// [`socket::dispatch`], which wakes the player sockets an event is for, and one task where
/// news comes as events and deadlines have timers:
/// * [`Event::Waiting`] (a ticket joined, on any instance): a pairing pass. A pass answers
///   when the next is due (a waiting ticket's range widens): a timer.
/// * The seek list lapses by deadline (a seek's page went away: no event tells it): a timer
///   at the first lease to end, which then tells this instance's sockets if the list changed.
///   [`Event::Seeks`] (the list changed on any instance) sets that timer again.
/// * [`Event::Claimed`] (a claim on any instance): a timer at its deadline, the stale-claim
///   delay later, which undoes it then if its game was never made (its instance stopped).
///   Claims that come close together share one repair.
/// * A challenge's expiry: a timer at the next one, set again by [`Event::Challenge`].
/// * The upkeep every [`SeeksConfig::upkeep`] (a minute), the safety sweep under those:
///   stale claims undone, challenges expired, then a pairing pass and a look at the list.
pub fn spawn(s: &Arc<Seeks>) -> Vec<tokio::task::JoinHandle<()>> {
    let weak: Weak<Seeks> = Arc::downgrade(s);
    let upkeep_every = s.cfg.upkeep.max(Duration::from_millis(10));
    // Subscribed before the first pass and look: nothing falls between.
    let mut events = s.games.store.subscribe();
    // Deadlines are read on the games' clock (a test's may be one it moves on).
    let clock = s.games.clock.clone();
    // The player sockets' dispatcher, subscribed when the feature was made.
    let dispatch = s.events.lock().ok().and_then(|mut e| e.take());
    let mut tasks: Vec<_> = dispatch
        .map(|e| tokio::spawn(socket::dispatch(Arc::downgrade(s), e)))
        .into_iter()
        .collect();
    tasks.push(tokio::spawn(async move {
        // The first sweep one period from now: what it would find at the start, the start
        // itself reads below.
        let mut upkeep =
            tokio::time::interval_at(tokio::time::Instant::now() + upkeep_every, upkeep_every);
        upkeep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let (mut pair_at, mut lapse_at): (Option<i64>, Option<i64>) = (None, None);
        let (mut repair_at, mut expire_at): (Option<i64>, Option<i64>) = (None, None);
        // The deadlines of the claims heard of, after the next repair's.
        let mut claims = Claims::default();
        // What went by before this instance listened: the store's oldest claim, the next
        // challenge to expire, the tickets waiting and the seek list.
        if let Some(s) = weak.upgrade() {
            repair_at = s.first_claim_due().await;
            expire_at = s.expire().await;
            if s.cfg.background_passes {
                pair_at = pool::pairing_pass(&s).await.next;
            }
            lapse_at = seek::watch_list(&s, true).await;
        }
        loop {
            let (pair, look, tell) = tokio::select! {
                _ = upkeep.tick() => {
                    let Some(s) = weak.upgrade() else { return };
                    expire_at = s.upkeep().await;
                    if let Some(due) = s.first_claim_due().await {
                        repair_at = claims.add(repair_at, due);
                    }
                    (true, true, true)
                }
                e = events.recv() => match e {
                    Ok(d) => match &d.event {
                        Event::Waiting { .. } => (true, false, false),
                        // The sockets heard it through the dispatcher: only the timer is
                        // set again.
                        Event::Seeks => (false, true, false),
                        Event::Claimed { at } => {
                            let Some(s) = weak.upgrade() else { return };
                            repair_at = claims.add(repair_at, s.claim_due(*at));
                            continue;
                        }
                        Event::Challenge { status: ChallengeStatus::Open, .. } => {
                            let Some(s) = weak.upgrade() else { return };
                            expire_at = s.expire().await;
                            continue;
                        }
                        _ => continue,
                    },
                    Err(RecvError::Lagged(_)) => (true, true, true),
                    Err(RecvError::Closed) => return,
                },
                _ = at(&clock, pair_at) => (true, false, false),
                _ = at(&clock, lapse_at) => (false, true, true),
                _ = at(&clock, repair_at) => {
                    let Some(s) = weak.upgrade() else { return };
                    s.repair().await;
                    repair_at = claims.next(clock.now_ms());
                    // What came back published its events: the pass and the list follow them.
                    continue;
                }
                _ = at(&clock, expire_at) => {
                    let Some(s) = weak.upgrade() else { return };
                    expire_at = s.expire().await;
                    continue;
                }
            };
            let Some(s) = weak.upgrade() else { return };
            if pair && s.cfg.background_passes {
                pair_at = pool::pairing_pass(&s).await.next;
            }
            if look {
                lapse_at = seek::watch_list(&s, tell).await;
            }
        }
    }));
    tasks
}

/// The deadlines of the claims an instance heard of, in order: one timer at the first, and
/// claims that come close together ([`Claims::GAP_MS`]) share one repair, so a busy pool
/// costs at most a repair a second. Bounded: past [`Claims::MAX`] the later ones are left
/// to the safety sweep.
#[derive(Default)]
struct Claims(std::collections::BTreeSet<i64>);

impl Claims {
    const GAP_MS: i64 = 1_000;
    const MAX: usize = 10_000;

    /// A claim due at `due`, the timer set at `timer`: the timer's new time.
    fn add(&mut self, timer: Option<i64>, due: i64) -> Option<i64> {
        let Some(t) = timer else {
            return Some(due);
        };
        let (first, later) = if due < t { (due, t) } else { (t, due) };
        if self.0.len() < Self::MAX {
            self.0.insert(later);
        }
        Some(first)
    }

    /// After a repair at `now`, which covered every claim due by then: the time of the next
    /// repair, at the next deadline still to come but not within [`Claims::GAP_MS`] of this
    /// one (it covers every claim due by its own time).
    fn next(&mut self, now: i64) -> Option<i64> {
        while self.0.first().is_some_and(|&t| t <= now) {
            self.0.pop_first();
        }
        self.0.first().map(|&t| t.max(now + Self::GAP_MS))
    }
}

/// Waits until `clock` reads `ms` (since the epoch), or for ever when `None`.
async fn at(clock: &util::Clock, ms: Option<i64>) {
    match ms {
        Some(ms) => clock.sleep_until_ms(ms).await,
        None => std::future::pending().await,
    }
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
    ApiError::of(Category::Blocked, "one of you has blocked the other")
}

/// The terms of a seek or a challenge (docs/api.md, "Finding an opponent"): the match is
/// a single game unless the request says otherwise.
fn terms(
    variant: &str,
    rules: Option<&str>,
    match_format: Option<&str>,
    clock: Option<&serde_json::Value>,
) -> ApiResult<Terms> {
    Terms::parse(
        TermsIn {
            variant,
            rules,
            match_format,
            clock,
        },
        MatchFormat::SingleGame,
    )
}

/// The terms of a stored seek or challenge, read back through the same parser (they were
/// checked when stored).
fn stored_terms(
    variant: &str,
    rules: &str,
    match_format: &str,
    clock: Option<&str>,
) -> ApiResult<Terms> {
    let clock = clock
        .map(|c| serde_json::from_str::<serde_json::Value>(c).map_err(ApiError::internal))
        .transpose()?;
    terms(variant, Some(rules), Some(match_format), clock.as_ref())
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

#[cfg(test)]
mod tests {
    use super::Claims;

    #[test]
    fn every_claim_is_covered_by_a_repair_at_or_after_its_deadline() {
        let mut c = Claims::default();
        let mut timer = None;
        let dues = [5_000, 3_000, 3_200, 9_000, 3_100, 20_000];
        for d in dues {
            timer = c.add(timer, d);
        }
        // Repairs at the timer, each covering the claims due by then.
        let mut repairs = Vec::new();
        while let Some(t) = timer {
            repairs.push(t);
            timer = c.next(t);
        }
        for d in dues {
            assert!(repairs.iter().any(|&r| r >= d), "{d} covered: {repairs:?}");
        }
        // The first at the first deadline; none closer than the gap after it.
        assert_eq!(repairs[0], 3_000);
        assert!(
            repairs.windows(2).all(|w| w[1] >= w[0] + Claims::GAP_MS),
            "{repairs:?}"
        );
        assert_eq!(repairs, vec![3_000, 4_000, 5_000, 9_000, 20_000]);
    }
}
