//! Web Push (docs/api.md, "Web Push"): a player who allows it is told of their move, a game
//! made for them, a challenge or a tournament round while no page of theirs is open, through
//! their browser's push service (RFC 8030), the payload encrypted for the browser (RFC 8291,
//! aes128gcm) and the server identified by its VAPID key (RFC 8292).
//!
//! * The VAPID key pair is one for every instance: given by the operator, or made by the first
//!   instance that starts and kept in the database ([`Store::push_key`]).
//! * The server POSTs to the endpoint a browser hands it, so it sends only to the known push
//!   services over HTTPS, and to the prefixes the operator adds ([`PushConfig::allow`]);
//!   never to anything else, and never following a redirect (SSRF).
//! * Delivery listens to the core's alerts ([`crate::game::alerts`]) in its own tasks: at most
//!   [`MAX_IN_FLIGHT`] alerts at once (more are dropped and logged), every request with a
//!   timeout, so that a slow push service never holds up a game. "Your move" waits
//!   [`PushConfig::your_move_delay`] and goes only if it is still that player's turn and no
//!   socket of theirs is open on the game, on any instance ([`crate::game::presence`]). A
//!   push service's 404 or 410 forgets the
//!   subscription; other failures are logged and not retried.

use crate::edge::account::MaybeAccount;
use crate::edge::body::Json as JsonBody;
use crate::edge::limit::{limit_by, Limiter};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::{Alert, AlertKind, Games, Recipient};
use crate::store::{PushBounds, PushTarget, Store, StoreError};
use crate::util;
use crate::web::i18n::{self, Catalogs, Lang};
use axum::extract::{FromRef, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use p256::ecdsa::signature::Signer as _;
use serde::Deserialize;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock, Weak};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Alerts being delivered at once; past this an alert is dropped (and logged), so that a
/// burst or a slow push service costs bounded memory.
pub const MAX_IN_FLIGHT: usize = 512;
/// The longest endpoint accepted (bytes).
pub const MAX_ENDPOINT: usize = 1024;
/// Seats one subscribe call may name.
pub const MAX_SEATS_PER_CALL: usize = 20;

/// The push services sent to by default: HTTPS on port 443 to these hosts (`.` first: the
/// host or any name under it).
pub const KNOWN_SERVICES: &[&str] = &[
    "fcm.googleapis.com",
    "android.googleapis.com",
    "updates.push.services.mozilla.com",
    ".push.apple.com",
    ".notify.windows.com",
];

/// How Web Push runs (`bao serve --vapid-private-key-file`, `--push-allow-endpoint`, ...).
#[derive(Clone, Debug)]
pub struct PushConfig {
    /// The VAPID private key (the P-256 scalar, base64url, 43 characters) the operator gives;
    /// `None`: the one kept in the database (made by the first instance).
    pub vapid_private_key: Option<String>,
    /// The VAPID `sub` claim: how a push service reaches the operator (`mailto:` or
    /// `https:`).
    pub contact: String,
    /// Endpoint prefixes accepted besides [`KNOWN_SERVICES`] (a test's local endpoint, a
    /// self-hosted push service). Write them up to the path (`http://127.0.0.1:9000/`), so
    /// that a prefix cannot match another port or host.
    pub allow: Vec<String>,
    /// How long "your move" waits for the player to come back before it is pushed.
    pub your_move_delay: Duration,
    /// Pushes at most this many a minute to one subscription (0: no limit).
    pub per_minute: u32,
    /// How long the push service keeps a message for a browser that is offline (`TTL`).
    pub ttl: Duration,
    /// The longest a request to a push service may take.
    pub timeout: Duration,
    /// Subscribe calls a minute from one address (0: no limit).
    pub subscribe_per_minute: u32,
    /// Subscriptions kept per account, per guest seat, and seats per subscription.
    pub bounds: PushBounds,
}

impl Default for PushConfig {
    fn default() -> Self {
        PushConfig {
            vapid_private_key: None,
            contact: "mailto:bao@localhost".into(),
            allow: Vec::new(),
            your_move_delay: Duration::from_secs(60),
            per_minute: 6,
            ttl: Duration::from_secs(24 * 3600),
            timeout: Duration::from_secs(10),
            subscribe_per_minute: 20,
            bounds: PushBounds {
                per_account: 10,
                per_seat: 10,
                seats_per_subscription: 200,
            },
        }
    }
}

/// Counts of what delivery did (for operators and tests).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct PushStats {
    /// Alerts whose delivery is over (sent, skipped or failed).
    pub handled: u64,
    /// Pushes the push service accepted.
    pub sent: u64,
    /// "Your move" alerts not sent: the player came back or already moved.
    pub skipped: u64,
    /// Subscriptions forgotten on a 404 or 410.
    pub gone: u64,
    /// Pushes that failed otherwise (logged).
    pub failed: u64,
    /// Pushes held back by the per-subscription limit, and alerts dropped when too many
    /// were in flight.
    pub limited: u64,
}

#[derive(Default)]
struct Counters {
    handled: AtomicU64,
    sent: AtomicU64,
    skipped: AtomicU64,
    gone: AtomicU64,
    failed: AtomicU64,
    limited: AtomicU64,
}

/// The server's VAPID key pair.
struct Keys {
    signing: p256::ecdsa::SigningKey,
    /// The public key, uncompressed SEC1, base64url: `applicationServerKey`.
    public: String,
}

impl Keys {
    fn from_private(b64: &str) -> Result<Keys, String> {
        let bytes = B64
            .decode(b64.trim().trim_end_matches('='))
            .map_err(|e| format!("the VAPID private key is not base64url: {e}"))?;
        let secret = p256::SecretKey::from_slice(&bytes)
            .map_err(|_| "the VAPID private key is not a P-256 private key (32 bytes)")?;
        let public = secret.public_key();
        use p256::elliptic_curve::sec1::ToEncodedPoint as _;
        Ok(Keys {
            signing: p256::ecdsa::SigningKey::from(&secret),
            public: B64.encode(public.to_encoded_point(false).as_bytes()),
        })
    }

    /// `Authorization: vapid t=JWT, k=KEY` for `endpoint` (RFC 8292): ES256 over
    /// `{"aud": the endpoint's origin, "exp", "sub": contact}`.
    fn authorization(&self, endpoint: &reqwest::Url, contact: &str, now_s: i64) -> String {
        let header = B64.encode(br#"{"typ":"JWT","alg":"ES256"}"#);
        let claims = serde_json::json!({
            "aud": endpoint.origin().ascii_serialization(),
            // RFC 8292 allows at most 24 hours.
            "exp": now_s + 12 * 3600,
            "sub": contact,
        });
        let claims = B64.encode(claims.to_string());
        let signed = format!("{header}.{claims}");
        let sig: p256::ecdsa::Signature = self.signing.sign(signed.as_bytes());
        format!(
            "vapid t={signed}.{}, k={}",
            B64.encode(sig.to_bytes()),
            self.public
        )
    }
}

/// A fresh VAPID private key (base64url scalar).
pub fn new_private_key() -> String {
    let secret = p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng);
    B64.encode(secret.to_bytes())
}

/// Web Push: the routes' state and the delivery.
pub struct Push {
    games: Arc<Games>,
    store: Store,
    config: PushConfig,
    catalogs: Catalogs,
    keys: OnceLock<Keys>,
    http: reqwest::Client,
    /// Pushes per subscription (its endpoint): [`PushConfig::per_minute`].
    pushes: Limiter<String>,
    in_flight: Arc<Semaphore>,
    /// Subscribe calls per address: [`PushConfig::subscribe_per_minute`], declared on the
    /// route.
    subscribes: Arc<Limiter>,
    counters: Counters,
}

/// Why Web Push could not start.
#[derive(Debug, thiserror::Error)]
pub enum PushError {
    /// The database failed.
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The operator's key is not a key.
    #[error("{0}")]
    Key(String),
}

impl Push {
    /// Web Push over `games` (its store and alerts). The keys are read by [`spawn`].
    pub fn new(games: Arc<Games>, config: PushConfig) -> Arc<Push> {
        let catalogs = Catalogs::load().unwrap_or_else(|e| {
            // The catalogs are embedded and checked by tests (tests/i18n.rs); the pages
            // fail the same way. Pushes then carry their keys as text.
            tracing::error!("push: {e}");
            Catalogs::default()
        });
        let http = reqwest::Client::builder()
            // A redirect could lead anywhere: the allowlist holds only for the URL itself.
            .redirect(reqwest::redirect::Policy::none())
            .timeout(config.timeout)
            .connect_timeout(config.timeout)
            .build()
            .unwrap_or_default();
        let subscribes = Arc::new(Limiter::new(
            config.subscribe_per_minute,
            "notification requests",
            "from your address",
        ));
        let pushes = Limiter::new(config.per_minute, "pushes", "to this browser");
        Arc::new(Push {
            store: games.store.clone(),
            games,
            config,
            catalogs,
            keys: OnceLock::new(),
            http,
            pushes,
            in_flight: Arc::new(Semaphore::new(MAX_IN_FLIGHT)),
            subscribes,
            counters: Counters::default(),
        })
    }

    /// What delivery did so far.
    pub fn stats(&self) -> PushStats {
        let c = &self.counters;
        let l = |a: &AtomicU64| a.load(Ordering::Relaxed);
        PushStats {
            handled: l(&c.handled),
            sent: l(&c.sent),
            skipped: l(&c.skipped),
            gone: l(&c.gone),
            failed: l(&c.failed),
            limited: l(&c.limited),
        }
    }

    /// The VAPID public key (base64url), once [`spawn`] read the keys.
    pub fn public_key(&self) -> Option<&str> {
        self.keys.get().map(|k| k.public.as_str())
    }

    /// Whether the server may POST to `endpoint`: HTTPS to a known push service on the
    /// default port, or one of the operator's prefixes.
    pub fn allowed(&self, endpoint: &str) -> bool {
        endpoint_allowed(endpoint, &self.config.allow)
    }

    fn count(&self, c: &AtomicU64) {
        c.fetch_add(1, Ordering::Relaxed);
    }

    /// Starts delivering `a` in its own task, unless too many are in flight.
    fn dispatch(self: &Arc<Self>, a: Arc<Alert>) {
        let Ok(permit) = self.in_flight.clone().try_acquire_owned() else {
            self.count(&self.counters.limited);
            tracing::warn!("push: {MAX_IN_FLIGHT} alerts in flight; one dropped");
            return;
        };
        let me = self.clone();
        tokio::spawn(async move {
            me.deliver(&a).await;
            me.count(&me.counters.handled);
            drop(permit);
        });
    }

    async fn deliver(&self, a: &Alert) {
        if let AlertKind::YourMove { game, .. } = &a.kind {
            if !self.config.your_move_delay.is_zero() {
                tokio::time::sleep(self.config.your_move_delay).await;
            }
            if !self.still_to_move(&a.to, game).await {
                self.count(&self.counters.skipped);
                return;
            }
        }
        let targets = match &a.to {
            Recipient::Account(id) => self.store.push_targets_of_account(id).await,
            Recipient::Accounts(ids) => {
                let mut all = Vec::new();
                for id in ids {
                    match self.store.push_targets_of_account(id).await {
                        Ok(t) => all.extend(t),
                        Err(e) => {
                            tracing::warn!("push: reading subscriptions: {e}");
                            self.count(&self.counters.failed);
                        }
                    }
                }
                Ok(all)
            }
            Recipient::Seat { game, player } => {
                self.store.push_targets_of_seat(game, *player).await
            }
        };
        let targets = match targets {
            Ok(t) => t,
            Err(e) => {
                tracing::warn!("push: reading subscriptions: {e}");
                self.count(&self.counters.failed);
                return;
            }
        };
        for t in targets {
            if !self.take_turn(&t.endpoint) {
                self.count(&self.counters.limited);
                continue;
            }
            self.send(&t, &a.kind).await;
        }
    }

    /// Whether it is still the recipient's turn in `game` with no socket of theirs open on
    /// it, here or on another instance.
    async fn still_to_move(&self, to: &Recipient, game: &str) -> bool {
        let slot = match self.games.cached(game) {
            Some(s) => s,
            None => match self.games.slot(game).await {
                Ok(s) => s,
                Err(_) => return false,
            },
        };
        let m = slot.m.lock().await;
        let player = match to {
            Recipient::Seat { player, .. } => Some(*player),
            Recipient::Accounts(_) => None,
            Recipient::Account(id) => m
                .accounts
                .iter()
                .position(|a| a.as_ref().is_some_and(|a| &a.id == id)),
        };
        let Some(p) = player.filter(|&p| p < 2) else {
            return false;
        };
        if m.to_move() != Some(p) {
            return false;
        }
        drop(m);
        !self.games.present_anywhere(game, p).await
    }

    /// Counts one push to `endpoint` against [`PushConfig::per_minute`]; false over it.
    fn take_turn(&self, endpoint: &str) -> bool {
        self.pushes.check(&endpoint.to_string()).is_ok()
    }

    /// Encrypts and POSTs one push; forgets the subscription on 404 or 410.
    async fn send(&self, t: &PushTarget, kind: &AlertKind) {
        let failed = |why: String| {
            tracing::warn!("push to {}: {why}", origin_of(&t.endpoint));
            self.count(&self.counters.failed);
        };
        let Some(keys) = self.keys.get() else {
            return failed("no VAPID key".into());
        };
        // Checked when subscribing; again here, so that a narrowed allowlist holds at once.
        if !self.allowed(&t.endpoint) {
            return failed("the endpoint is not allowed".into());
        }
        let Ok(url) = reqwest::Url::parse(&t.endpoint) else {
            return failed("the endpoint is not a URL".into());
        };
        let (Some(ua_public), Some(auth)) = (parse_p256dh(&t.p256dh), parse_auth(&t.auth)) else {
            return failed("the subscription's keys are not valid".into());
        };
        let lang = Lang::from_code(&t.lang).unwrap_or(Lang::En);
        let payload = self.payload(kind, lang);
        let body = match web_push_native::encrypt(
            payload.to_string().into_bytes(),
            &ua_public,
            &web_push_native::Auth::clone_from_slice(&auth),
        ) {
            Ok(b) => b,
            Err(e) => return failed(format!("encrypting: {e}")),
        };
        let urgency = match kind {
            AlertKind::Challenge { .. } | AlertKind::ClubAnnouncement { .. } => "normal",
            _ => "high",
        };
        let answer = self
            .http
            .post(url.clone())
            .header("TTL", self.config.ttl.as_secs().to_string())
            .header("Urgency", urgency)
            .header("Content-Encoding", "aes128gcm")
            .header("Content-Type", "application/octet-stream")
            .header(
                "Authorization",
                keys.authorization(&url, &self.config.contact, util::now_ms() / 1000),
            )
            .body(body)
            .send()
            .await;
        match answer {
            Ok(r) if r.status().is_success() => self.count(&self.counters.sent),
            Ok(r) if matches!(r.status().as_u16(), 404 | 410) => {
                match self.store.push_unsubscribe(&t.endpoint).await {
                    Ok(_) => self.count(&self.counters.gone),
                    Err(e) => failed(format!("forgetting a gone subscription: {e}")),
                }
            }
            Ok(r) => failed(format!("the push service answered {}", r.status())),
            Err(e) => failed(if e.is_timeout() {
                "no answer in time".into()
            } else {
                format!("{e}")
            }),
        }
    }

    /// `{"title", "body", "url", "tag"}` in `lang`, from the catalogs (web/i18n/*/push.json).
    pub fn payload(&self, kind: &AlertKind, lang: Lang) -> serde_json::Value {
        let text = |key: &str, params: &[(&str, String)]| {
            let t = self
                .catalogs
                .get(lang, key)
                .or_else(|| self.catalogs.get(Lang::En, key))
                .unwrap_or(key);
            i18n::format(t, &|name| {
                params
                    .iter()
                    .find(|(k, _)| *k == name)
                    .map(|(_, v)| v.clone())
            })
        };
        // Keys written out whole, so that tests/i18n.rs finds each one used.
        let (title, body, params, url, tag) = match kind {
            AlertKind::YourMove { game, opponent } => (
                "push.your_move.title",
                "push.your_move.body",
                vec![("name", opponent.clone())],
                format!("/g/{game}"),
                format!("move-{game}"),
            ),
            AlertKind::GameStart { game, opponent } => (
                "push.game_start.title",
                "push.game_start.body",
                vec![("name", opponent.clone())],
                format!("/g/{game}"),
                format!("game-{game}"),
            ),
            AlertKind::Challenge { challenge, from } => (
                "push.challenge.title",
                "push.challenge.body",
                vec![("name", from.clone())],
                "/".to_string(),
                format!("challenge-{challenge}"),
            ),
            AlertKind::RematchOffer { game, from } => (
                "push.rematch.title",
                "push.rematch.body",
                vec![("name", from.clone())],
                format!("/g/{game}"),
                format!("rematch-{game}"),
            ),
            AlertKind::TournamentRound {
                tournament,
                name,
                round,
                game,
            } => (
                "push.round.title",
                if game.is_some() {
                    "push.round.body"
                } else {
                    "push.round_bye.body"
                },
                vec![("name", name.clone()), ("round", round.to_string())],
                match game {
                    Some(g) => format!("/g/{g}"),
                    None => format!("/t/{tournament}"),
                },
                format!("round-{tournament}-{round}"),
            ),
            AlertKind::ArenaSoon { arena, name } => (
                "push.arena_soon.title",
                "push.arena_soon.body",
                vec![("name", name.clone())],
                format!("/a/{arena}"),
                format!("arena-{arena}"),
            ),
            AlertKind::ClubAnnouncement { club, name, text } => (
                "push.club.title",
                "push.club.body",
                vec![
                    ("name", name.clone()),
                    // A notification shows a few lines: the whole text is on the club page.
                    ("text", shorten(text, ANNOUNCEMENT_SHOWN)),
                ],
                format!("/club/{club}"),
                format!("club-{club}"),
            ),
        };
        serde_json::json!({
            "title": text(title, &params),
            "body": text(body, &params),
            "url": url,
            "tag": tag,
        })
    }
}

/// Characters of a club's announcement a notification shows.
const ANNOUNCEMENT_SHOWN: usize = 160;

/// `text`'s first `max` characters, with `…` when it is cut.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut s: String = text.chars().take(max - 1).collect();
    s.push('…');
    s
}

/// Reads (or makes, once for every instance) the VAPID key and starts delivering alerts.
/// The task ends when `push` is dropped or the alerts channel closes.
pub async fn spawn(push: &Arc<Push>) -> Result<tokio::task::JoinHandle<()>, PushError> {
    let private = match &push.config.vapid_private_key {
        Some(k) => k.clone(),
        None => {
            push.store
                .push_key(&new_private_key(), util::now_ms())
                .await?
        }
    };
    let keys = Keys::from_private(&private).map_err(PushError::Key)?;
    let _ = push.keys.set(keys);
    let mut alerts = push.games.alerts.subscribe();
    let weak: Weak<Push> = Arc::downgrade(push);
    Ok(tokio::spawn(async move {
        use tokio::sync::broadcast::error::RecvError;
        loop {
            match alerts.recv().await {
                Ok(a) => {
                    let Some(p) = weak.upgrade() else { return };
                    p.dispatch(a);
                }
                Err(RecvError::Lagged(n)) => {
                    tracing::warn!("push: fell behind the alerts; {n} not delivered")
                }
                Err(RecvError::Closed) => return,
            }
        }
    }))
}

/// Whether `endpoint` is one the server may POST to (see [`Push::allowed`]).
pub fn endpoint_allowed(endpoint: &str, extra: &[String]) -> bool {
    if endpoint.len() > MAX_ENDPOINT {
        return false;
    }
    if extra
        .iter()
        .any(|p| !p.is_empty() && endpoint.starts_with(p.as_str()))
    {
        return true;
    }
    let Ok(u) = reqwest::Url::parse(endpoint) else {
        return false;
    };
    if u.scheme() != "https"
        || !u.username().is_empty()
        || u.password().is_some()
        || u.port().is_some_and(|p| p != 443)
    {
        return false;
    }
    // A domain, never an address: the known services are named.
    let Some(host) = u.domain() else {
        return false;
    };
    let host = host.to_ascii_lowercase();
    KNOWN_SERVICES.iter().any(|k| match k.strip_prefix('.') {
        Some(parent) => host.ends_with(k) && host.len() > k.len() || host == parent,
        None => host == *k,
    })
}

fn origin_of(endpoint: &str) -> String {
    reqwest::Url::parse(endpoint)
        .map(|u| u.origin().ascii_serialization())
        .unwrap_or_else(|_| "an endpoint".into())
}

/// base64url without padding, as `PushSubscription.toJSON()` writes keys; `=` tolerated.
fn b64url(s: &str, max: usize) -> Option<Vec<u8>> {
    let s = s.trim_end_matches('=');
    if s.is_empty()
        || s.len() > max
        || !s
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
    {
        return None;
    }
    B64.decode(s).ok()
}

fn parse_p256dh(s: &str) -> Option<p256::PublicKey> {
    let bytes = b64url(s, 100)?;
    (bytes.len() == 65)
        .then(|| p256::PublicKey::from_sec1_bytes(&bytes).ok())
        .flatten()
}

fn parse_auth(s: &str) -> Option<Vec<u8>> {
    b64url(s, 30).filter(|b| b.len() == 16)
}

impl FromRef<Arc<Push>> for Store {
    fn from_ref(p: &Arc<Push>) -> Store {
        p.store.clone()
    }
}

/// The routes: `GET /api/push/key`, `POST` and `DELETE /api/push/subscribe`; subscribing
/// counts against its own limit per address.
pub fn routes(push: Arc<Push>) -> Router {
    let subscribes = limit_by(push.subscribes.clone());
    Router::new()
        .route("/api/push/key", get(key))
        .route(
            "/api/push/subscribe",
            axum::routing::post(subscribe)
                .layer(subscribes)
                .delete(unsubscribe),
        )
        .with_state(push)
}

/// `GET /api/push/key` -> `{"key": base64url}`: `applicationServerKey` for
/// `pushManager.subscribe`.
async fn key(State(push): State<Arc<Push>>) -> ApiResult<Response> {
    let key = push.public_key().ok_or_else(|| {
        ApiError::of(
            Category::Unavailable,
            "notifications are not ready yet; try again in a moment",
        )
    })?;
    Ok(Json(serde_json::json!({ "key": key })).into_response())
}

#[derive(Deserialize)]
struct SubscriptionIn {
    endpoint: String,
    keys: KeysIn,
}

#[derive(Deserialize)]
struct KeysIn {
    p256dh: String,
    auth: String,
}

#[derive(Deserialize)]
struct SeatIn {
    game: String,
    /// The seat token; without it, the seat cookie or the session's seat.
    token: Option<String>,
}

#[derive(Deserialize)]
struct SubscribeIn {
    subscription: SubscriptionIn,
    lang: String,
    #[serde(default)]
    seats: Vec<SeatIn>,
}

#[derive(Deserialize)]
struct UnsubscribeIn {
    endpoint: String,
}

/// `POST /api/push/subscribe`: stores the browser's subscription for the account of the
/// session and for the seats it proves -> 201 `{"account": bool, "seats": N}`.
async fn subscribe(
    State(push): State<Arc<Push>>,
    account: MaybeAccount,
    headers: HeaderMap,
    JsonBody(req): JsonBody<SubscribeIn>,
) -> ApiResult<Response> {
    let s = req.subscription;
    if s.endpoint.len() > MAX_ENDPOINT {
        return Err(ApiError::bad_request(format!(
            "the push endpoint is longer than {MAX_ENDPOINT} characters"
        )));
    }
    if !push.allowed(&s.endpoint) {
        return Err(ApiError::bad_request(
            "this server does not send notifications to that push service",
        ));
    }
    if parse_p256dh(&s.keys.p256dh).is_none() {
        return Err(ApiError::bad_request(
            "keys.p256dh must be a P-256 public key in base64url (65 bytes)",
        ));
    }
    if parse_auth(&s.keys.auth).is_none() {
        return Err(ApiError::bad_request(
            "keys.auth must be 16 bytes in base64url",
        ));
    }
    let lang = match req.lang.as_str() {
        "en" => Lang::En,
        "sw" => Lang::Sw,
        _ => return Err(ApiError::bad_request("lang must be \"en\" or \"sw\"")),
    };
    if req.seats.len() > MAX_SEATS_PER_CALL {
        return Err(ApiError::bad_request(format!(
            "at most {MAX_SEATS_PER_CALL} seats at a time"
        )));
    }
    let now = util::now_ms();
    let account = account.0.map(|a| a.id.0);
    let mut seats = Vec::new();
    for seat in &req.seats {
        if seat.game.len() > 64 || seat.token.as_ref().is_some_and(|t| t.len() > 200) {
            return Err(ApiError::bad_request(
                "a seat's game id or token is too long",
            ));
        }
        let slot = push.games.slot(&seat.game).await?;
        let token = seat
            .token
            .clone()
            .or_else(|| crate::game::seat::token_from(&headers, &seat.game));
        let Some(player) = push
            .games
            .auth_request(&slot, token.as_deref(), &headers)
            .await?
        else {
            return Err(ApiError::forbidden(format!(
                "you do not hold a seat in game {}: its seat token is missing or wrong",
                bao_rules::printable(&seat.game)
            )));
        };
        seats.push((seat.game.clone(), player));
    }
    if account.is_none() && seats.is_empty() {
        return Err(ApiError::forbidden(
            "sign in, or name a game you play in, to get notifications",
        ));
    }
    let target = PushTarget {
        endpoint: s.endpoint,
        p256dh: s.keys.p256dh.trim_end_matches('=').to_string(),
        auth: s.keys.auth.trim_end_matches('=').to_string(),
        lang: lang.code().to_string(),
    };
    push.store
        .push_subscribe(&target, account.as_deref(), &seats, push.config.bounds, now)
        .await?;
    Ok((
        StatusCode::CREATED,
        Json(serde_json::json!({"account": account.is_some(), "seats": seats.len()})),
    )
        .into_response())
}

/// `DELETE /api/push/subscribe` `{"endpoint"}` -> 204: this browser gets no more pushes.
async fn unsubscribe(
    State(push): State<Arc<Push>>,
    JsonBody(req): JsonBody<UnsubscribeIn>,
) -> ApiResult<Response> {
    if req.endpoint.len() > MAX_ENDPOINT {
        return Err(ApiError::bad_request(format!(
            "the push endpoint is longer than {MAX_ENDPOINT} characters"
        )));
    }
    push.store.push_unsubscribe(&req.endpoint).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_known_push_services_over_https_and_the_given_prefixes() {
        let none: Vec<String> = vec![];
        for ok in [
            "https://fcm.googleapis.com/fcm/send/abc",
            "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://web.push.apple.com/QX",
            "https://wns2-db5p.notify.windows.com/w/?token=x",
        ] {
            assert!(endpoint_allowed(ok, &none), "{ok}");
        }
        for bad in [
            "http://fcm.googleapis.com/fcm/send/abc",
            "https://fcm.googleapis.com:8443/x",
            "https://fcm.googleapis.com.evil.example/x",
            "https://evilpush.apple.com/x",
            "https://user@fcm.googleapis.com/x",
            "https://127.0.0.1/x",
            "https://localhost/x",
            "http://169.254.169.254/latest/meta-data",
            "file:///etc/passwd",
            "not a url",
        ] {
            assert!(!endpoint_allowed(bad, &none), "{bad}");
        }
        let local = vec!["http://127.0.0.1:9000/".to_string()];
        assert!(endpoint_allowed("http://127.0.0.1:9000/push/1", &local));
        assert!(!endpoint_allowed("http://127.0.0.1:90001/push/1", &local));
        let long = format!("https://fcm.googleapis.com/{}", "a".repeat(MAX_ENDPOINT));
        assert!(!endpoint_allowed(&long, &none));
    }

    #[test]
    fn the_vapid_token_names_the_origin_with_its_port_and_verifies() {
        use p256::ecdsa::signature::Verifier as _;
        let keys = Keys::from_private(&new_private_key()).unwrap();
        let url = reqwest::Url::parse("http://127.0.0.1:9000/push/1").unwrap();
        let h = keys.authorization(&url, "mailto:a@b.c", 1_000);
        let (t, k) = h
            .strip_prefix("vapid t=")
            .unwrap()
            .split_once(", k=")
            .unwrap();
        assert_eq!(k, keys.public);
        let parts: Vec<&str> = t.split('.').collect();
        let claims: serde_json::Value =
            serde_json::from_slice(&B64.decode(parts[1]).unwrap()).unwrap();
        assert_eq!(claims["aud"], "http://127.0.0.1:9000");
        assert_eq!(claims["exp"], 1_000 + 12 * 3600);
        let public = p256::ecdsa::VerifyingKey::from_sec1_bytes(&B64.decode(k).unwrap()).unwrap();
        let sig = p256::ecdsa::Signature::from_slice(&B64.decode(parts[2]).unwrap()).unwrap();
        let signed = format!("{}.{}", parts[0], parts[1]);
        assert!(public.verify(signed.as_bytes(), &sig).is_ok());
        assert!(public.verify(b"something else", &sig).is_err());
    }
}
