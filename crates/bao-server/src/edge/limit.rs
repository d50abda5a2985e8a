//! Rate limits (docs/api.md, "Limits"): token buckets (GCRA, the `governor` crate) keyed by
//! the client's address or by an account name, each pruned as it is used so that its memory
//! stays bounded by the traffic of the last minute, not by every address ever seen.
//!
//! A feature declares the limit of each of its routes on the route itself:
//!
//! ```ignore
//! .route("/api/games", post(create).layer(limit(Action::Create)).get(list))
//! ```
//!
//! The shared limits ([`Action`], sized by `bao serve --limit-*` through [`Rates`]) live in
//! the [`super::Edge`]; a feature with a limit of its own makes a [`Limiter`] and declares it
//! with [`limit_by`]. The edge itself knows no feature's paths.

use super::Guard;
use crate::error::{ApiError, Category};
use axum::extract::Request;
use axum::http::{header, HeaderValue};
use axum::response::{IntoResponse, Response};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::convert::Infallible;
use std::future::Future;
use std::hash::Hash;
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::pin::Pin;
use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

/// A limiter forgets the keys whose buckets are full again at most this often (ms).
const PRUNE_EVERY_MS: i64 = 60_000;

/// Requests per minute allowed from one client address; 0 means no limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rates {
    /// New games (and what makes one soon after: tournaments, seeks, challenges, places in
    /// the pool).
    pub create: u32,
    /// Joins (of games, tournaments; accepted seeks and challenges).
    pub join: u32,
    /// Record uploads.
    pub upload: u32,
    /// Moves, over HTTP and WebSocket together (and practice tries).
    pub moves: u32,
    /// Sign-ups, logins and recoveries together.
    pub account: u32,
    /// Sign-ups, logins and recoveries naming one account name (counted per name, from
    /// every address together: guessing one account's password from many addresses).
    pub account_name: u32,
}

impl Rates {
    /// No limit at all (the load tool's own server).
    pub const NONE: Rates = Rates {
        create: 0,
        join: 0,
        upload: 0,
        moves: 0,
        account: 0,
        account_name: 0,
    };
}

impl Default for Rates {
    /// Generous for people (a class behind one address can still start its games), small
    /// enough that one address cannot fill the database or the CPU.
    fn default() -> Self {
        Rates {
            create: 60,
            join: 60,
            upload: 30,
            moves: 600,
            // A class behind one address can still all sign in within a minute or two; one
            // name allows a person's typos, not a guessing run (docs/api.md, "Accounts").
            account: 20,
            account_name: 6,
        }
    }
}

/// The shared limits a route may declare (each sized by a `bao serve --limit-*` flag).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    /// Making a game, or what makes one soon after.
    Create,
    /// Joining a game or a tournament, accepting a seek or a challenge.
    Join,
    /// Uploading a record file.
    Upload,
    /// Making a move (or a practice try: two short searches).
    Move,
    /// Signing up, logging in or recovering an account, from one address.
    Account,
}

impl Action {
    fn words(self) -> &'static str {
        match self {
            Action::Create => "new games",
            Action::Join => "joins",
            Action::Upload => "record uploads",
            Action::Move => "moves",
            Action::Account => "sign-in attempts",
        }
    }
}

/// One token bucket per key (an address, a name), `per_minute` each; pruned as it is used.
pub struct Limiter<K: Hash + Eq + Clone = IpAddr> {
    inner: Option<DefaultKeyedRateLimiter<K>>,
    /// What it counts, for the refusal: "new games".
    words: &'static str,
    /// Whose count: "from your address".
    whose: &'static str,
    pruned: AtomicI64,
}

impl<K: Hash + Eq + Clone> Limiter<K> {
    /// A limiter of `per_minute` (0: none) of `words` ("notification requests"), counted
    /// `whose` ("from your address").
    pub fn new(per_minute: u32, words: &'static str, whose: &'static str) -> Limiter<K> {
        Limiter {
            inner: NonZeroU32::new(per_minute)
                .map(|n| governor::RateLimiter::keyed(Quota::per_minute(n))),
            words,
            whose,
            pruned: AtomicI64::new(crate::util::now_ms()),
        }
    }

    /// Counts one for `key`; refused over the limit.
    pub fn check(&self, key: &K) -> Result<(), RateLimited> {
        let Some(l) = &self.inner else {
            return Ok(());
        };
        self.prune(l);
        l.check_key(key).map_err(|n| RateLimited {
            words: self.words,
            whose: self.whose,
            retry_after: wait_secs(n),
        })
    }

    /// The keys it keeps now (after the last pruning).
    pub fn len(&self) -> usize {
        self.inner.as_ref().map_or(0, |l| l.len())
    }

    /// Whether it keeps no key.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Forgets now the keys whose buckets are full again.
    pub fn forget_idle(&self) {
        if let Some(l) = &self.inner {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }

    /// Forgets the idle keys when the last pruning is a minute old: a key stays only while
    /// its bucket is not full again, so the map holds at most a minute's clients.
    fn prune(&self, l: &DefaultKeyedRateLimiter<K>) {
        let now = crate::util::now_ms();
        let last = self.pruned.load(Ordering::Relaxed);
        if now - last >= PRUNE_EVERY_MS
            && self
                .pruned
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            l.retain_recent();
            l.shrink_to_fit();
        }
    }
}

/// Whole seconds until a limiter allows one more (at least 1).
fn wait_secs(
    not_until: governor::NotUntil<
        <governor::clock::DefaultClock as governor::clock::Clock>::Instant,
    >,
) -> u64 {
    use governor::clock::Clock;
    let wait = not_until.wait_time_from(governor::clock::DefaultClock::default().now());
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// The shared per-address limiters, and the per-name one of sign-ins.
pub struct Limits {
    create: Limiter,
    join: Limiter,
    upload: Limiter,
    moves: Limiter,
    account: Limiter,
    account_name: Limiter<String>,
}

impl Limits {
    /// Limiters for these rates.
    pub fn new(r: Rates) -> Limits {
        let addr = |n: u32, a: Action| Limiter::new(n, a.words(), "from your address");
        Limits {
            create: addr(r.create, Action::Create),
            join: addr(r.join, Action::Join),
            upload: addr(r.upload, Action::Upload),
            moves: addr(r.moves, Action::Move),
            account: addr(r.account, Action::Account),
            account_name: Limiter::new(r.account_name, "sign-in attempts", "for this account name"),
        }
    }

    /// The limiter of `action`.
    pub fn of(&self, action: Action) -> &Limiter {
        match action {
            Action::Create => &self.create,
            Action::Join => &self.join,
            Action::Upload => &self.upload,
            Action::Move => &self.moves,
            Action::Account => &self.account,
        }
    }

    /// Counts one `action` from `ip`; refused with 429 `rate_limited` over the limit.
    pub fn check(&self, action: Action, ip: IpAddr) -> Result<(), RateLimited> {
        self.of(action).check(&ip)
    }

    /// Counts one sign-up, login or recovery naming the account `name_key` (lower case,
    /// already checked to be a possible name, so the keys stay short).
    pub fn check_name(&self, name_key: &str) -> Result<(), RateLimited> {
        self.account_name.check(&name_key.to_string())
    }

    /// Forgets now, in every limiter, the keys whose buckets are full again.
    pub fn forget_idle(&self) {
        for a in [
            Action::Create,
            Action::Join,
            Action::Upload,
            Action::Move,
            Action::Account,
        ] {
            self.of(a).forget_idle();
        }
        self.account_name.forget_idle();
    }
}

/// A refusal by a rate limit.
#[derive(Clone, Copy, Debug)]
pub struct RateLimited {
    words: &'static str,
    whose: &'static str,
    /// Whole seconds until one more is allowed (at least 1).
    pub retry_after: u64,
}

impl RateLimited {
    /// 429 `rate_limited`.
    pub fn error(&self) -> ApiError {
        ApiError::of(
            Category::RateLimited,
            format!(
                "too many {} {}; try again in {} s",
                self.words,
                self.whose,
                self.retry_after.max(1)
            ),
        )
    }
}

impl IntoResponse for RateLimited {
    /// 429 `rate_limited` with `Retry-After`.
    fn into_response(self) -> Response {
        let mut r = self.error().into_response();
        r.headers_mut().insert(
            header::RETRY_AFTER,
            HeaderValue::from(self.retry_after.max(1)),
        );
        r
    }
}

/// Which limiter a route's layer counts against.
#[derive(Clone)]
enum Which {
    Shared(Action),
    Own(Arc<Limiter>),
}

/// The layer that counts every request of a route against a limit of the client's address
/// before the route's handler (and its extractors) run: [`limit`], [`limit_by`].
#[derive(Clone)]
pub struct RateLimit(Which);

/// The route counts against the shared limit of `action`.
pub fn limit(action: Action) -> RateLimit {
    RateLimit(Which::Shared(action))
}

/// The route counts against a feature's own per-address limiter.
pub fn limit_by(limiter: Arc<Limiter>) -> RateLimit {
    RateLimit(Which::Own(limiter))
}

impl RateLimit {
    /// Counts one request of `guard`'s client.
    fn check(&self, guard: &Guard) -> Result<(), RateLimited> {
        match &self.0 {
            Which::Shared(a) => guard.edge.limits.check(*a, guard.ip),
            Which::Own(l) => l.check(&guard.ip),
        }
    }
}

impl<S> tower::Layer<S> for RateLimit {
    type Service = Limited<S>;

    fn layer(&self, inner: S) -> Limited<S> {
        Limited {
            inner,
            limit: self.clone(),
        }
    }
}

/// A route's service behind its [`RateLimit`].
#[derive(Clone)]
pub struct Limited<S> {
    inner: S,
    limit: RateLimit,
}

impl<S> tower::Service<Request> for Limited<S>
where
    S: tower::Service<Request, Error = Infallible>,
    S::Response: IntoResponse,
    S::Future: Send + 'static,
{
    type Response = Response;
    type Error = Infallible;
    type Future = Pin<Box<dyn Future<Output = Result<Response, Infallible>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Request) -> Self::Future {
        // Without the edge's guard (a router used on its own) there is no client to count.
        if let Some(g) = req.extensions().get::<Guard>() {
            if let Err(r) = self.limit.check(g) {
                return Box::pin(std::future::ready(Ok(r.into_response())));
            }
        }
        let fut = self.inner.call(req);
        Box::pin(async move { Ok(fut.await?.into_response()) })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_refuse_over_the_rate_and_say_when() {
        let l = Limits::new(Rates {
            create: 2,
            ..Rates::NONE
        });
        let ip: IpAddr = "192.0.2.1".parse().unwrap();
        assert!(l.check(Action::Create, ip).is_ok());
        assert!(l.check(Action::Create, ip).is_ok());
        let r = l.check(Action::Create, ip).unwrap_err();
        assert!((1..=30).contains(&r.retry_after), "{}", r.retry_after);
        assert!(r.error().message.contains("new games from your address"));
        assert!(l
            .check(Action::Create, "192.0.2.2".parse().unwrap())
            .is_ok());
        for _ in 0..1000 {
            assert!(l.check(Action::Move, ip).is_ok());
        }
    }

    #[test]
    fn a_limiter_keeps_only_the_clients_of_the_last_minute() {
        let l: Limiter = Limiter::new(600, "things", "from your address");
        for i in 0..1000u32 {
            l.check(&IpAddr::from(i.to_be_bytes())).unwrap();
        }
        assert_eq!(l.len(), 1000);
        // A minute later (as the pruning clock sees it) the next check forgets every bucket
        // that is full again: only the new client is kept.
        l.pruned.store(0, Ordering::Relaxed);
        std::thread::sleep(std::time::Duration::from_millis(250));
        l.check(&IpAddr::from([10, 0, 0, 1])).unwrap();
        assert!(l.len() <= 1, "{} keys kept", l.len());
    }
}
