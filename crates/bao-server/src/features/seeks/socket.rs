//! The player socket `GET /api/play/ws[?seek=TOKEN...][&tournament=ID...]` (docs/api.md,
//! "The player socket"): one per open page. While open it keeps the caller's seeks and pool
//! tickets alive, and it tells the page when a game was made for it (a seek accepted, a
//! pairing, a challenge accepted, a tournament round), of challenges coming and going, when
//! the list of open seeks changed, when a rating of its account was written, and when a
//! tournament it follows changed.
//!
//! The socket hears the event bus (docs/architecture.md, "The event bus") through this
//! instance's [`Sockets`]: one task hears the bus and wakes only the sockets of the accounts
//! (or seek tokens) an event is for; the list of seeks changing is told to all. A socket
//! registers before its first read, reads what concerns it once when it opens and again
//! only when an event for its account or seek tokens arrives (from any instance), so an
//! idle socket costs the store nothing. Each read looks back [`LOOK_BACK_MS`] (never before
//! the socket opened, for challenges), so a change committed a moment before the socket
//! opened is not missed; what was sent is remembered so that nothing is sent twice. It
//! keeps seeks and tickets alive (a lease: a timer) only while it knows that some wait.

use super::challenges::Shown;
use super::{valid_token, Seeks};
use crate::domain::events::{Delivered, Event};
use crate::domain::messages::{parse, PlayerIn, PlayerOut, Refused};
use crate::edge::account::MaybeAccount;
use crate::edge::feeds::Following;
use crate::edge::socket::{self, drive, Flow, Handler, Outbox};
use crate::edge::Guard;
use crate::error::{ApiError, ApiResult};
use crate::util;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::{RawQuery, State};
use axum::response::Response;
use axum::Extension;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, Notify};
use tokio::time::Instant;

/// Seek tokens one socket carries at most.
pub const MAX_SEEK_TOKENS: usize = 3;
/// Tournaments one socket follows at most.
pub const MAX_FOLLOWED: usize = 4;
/// Each read looks back this far (60 s): a page that opens its socket also learns of a seek
/// accepted or a pairing made this long before (it may have been reloading at that moment).
const LOOK_BACK_MS: i64 = 60_000;
/// Challenges sent a moment before the socket opened are announced too (5 s).
const SLACK_MS: i64 = 5_000;

/// The `seek=` values of a query: at most [`MAX_SEEK_TOKENS`], each a token as made here;
/// `None` when there are more or one is malformed.
pub(super) fn seek_tokens(query: Option<&str>) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for part in query.unwrap_or("").split('&') {
        let Some((k, v)) = part.split_once('=') else {
            continue;
        };
        if k != "seek" {
            continue;
        }
        if !valid_token(v) || out.len() == MAX_SEEK_TOKENS {
            return None;
        }
        out.push(v.to_string());
    }
    Some(out)
}

/// The `tournament=`, `arena=`, `team_match=` and `club=` values of a query that look like
/// an id, at most [`MAX_FOLLOWED`]: the events whose changes the page hears of, as
/// registration keys (`t:ID`, `r:ID`, `m:ID`, `c:ID`).
fn followed(query: Option<&str>) -> Vec<String> {
    query
        .unwrap_or("")
        .split('&')
        .filter_map(|p| {
            let (k, v) = p.split_once('=')?;
            let key = match k {
                "tournament" => "t",
                "arena" => "r",
                "team_match" => "m",
                "club" => "c",
                _ => return None,
            };
            let id = v.len() == 10
                && v.bytes()
                    .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
            id.then(|| format!("{key}:{v}"))
        })
        .take(MAX_FOLLOWED)
        .collect()
}

/// A wake-up: read what concerns the page again.
const READ: u8 = 1;
/// A wake-up: a seek or ticket of the account waits now.
const WAITING: u8 = 2;
/// A wake-up: events the page is told of as they are, with no read (in [`Bell::told`]).
const TOLD: u8 = 4;
/// A wake-up: the socket fell behind; tell the page of each tournament it follows.
const FOLLOWED: u8 = 8;
/// Events waiting in one [`Bell`] at most: they are few (a rating when a game of the
/// account ends, a change of one of at most [`MAX_FOLLOWED`] tournaments), and the same one
/// twice is told once.
const TOLD_MAX: usize = 16;

/// One socket's doorbell: what it was woken for, and how often (for tests).
struct Bell {
    flags: AtomicU8,
    notify: Notify,
    rung: AtomicU64,
    /// The events to tell the page of as they are ([`TOLD`]).
    told: Mutex<Vec<Arc<Delivered>>>,
}

impl Bell {
    fn ring(&self, what: u8) {
        self.flags.fetch_or(what, Ordering::AcqRel);
        self.rung.fetch_add(1, Ordering::Relaxed);
        self.notify.notify_one();
    }

    /// Rings with [`TOLD`] for event `d`, kept until the socket takes it.
    fn tell(&self, d: &Arc<Delivered>) {
        if let Ok(mut t) = self.told.lock() {
            if t.len() >= TOLD_MAX || t.iter().any(|o| o.event == d.event) {
                return;
            }
            t.push(d.clone());
        }
        self.ring(TOLD);
    }

    /// The events kept by [`Bell::tell`], oldest first.
    fn take_told(&self) -> Vec<Arc<Delivered>> {
        self.told
            .lock()
            .map(|mut t| std::mem::take(&mut *t))
            .unwrap_or_default()
    }

    /// What it was woken for, once it was (cancel-safe: the flags stay until taken).
    async fn woken(&self) -> u8 {
        loop {
            let f = self.flags.swap(0, Ordering::AcqRel);
            if f != 0 {
                return f;
            }
            self.notify.notified().await;
        }
    }
}

/// This instance's open player sockets by account, by seek-token hash and by followed
/// tournament, so that an event wakes only the sockets it is for (docs/api.md, "The player socket").
#[derive(Default)]
pub struct Sockets {
    next: AtomicU64,
    map: Mutex<Keys>,
}

#[derive(Default)]
struct Keys {
    /// `a:ACCOUNT`, `h:HASH` and `t:TOURNAMENT` to the sockets registered under it.
    by_key: HashMap<String, Vec<(u64, Arc<Bell>)>>,
}

impl Sockets {
    fn add(&self, key: String, id: u64, bell: &Arc<Bell>) {
        if let Ok(mut m) = self.map.lock() {
            m.by_key.entry(key).or_default().push((id, bell.clone()));
        }
    }

    fn remove(&self, key: &str, id: u64) {
        if let Ok(mut m) = self.map.lock() {
            if let Some(v) = m.by_key.get_mut(key) {
                v.retain(|(i, _)| *i != id);
                if v.is_empty() {
                    m.by_key.remove(key);
                }
            }
        }
    }

    fn ring(&self, key: &str, what: u8) {
        if let Ok(m) = self.map.lock() {
            for (_, b) in m.by_key.get(key).into_iter().flatten() {
                b.ring(what);
            }
        }
    }

    fn tell(&self, key: &str, d: &Arc<Delivered>) {
        if let Ok(m) = self.map.lock() {
            for (_, b) in m.by_key.get(key).into_iter().flatten() {
                b.tell(d);
            }
        }
    }

    fn ring_all(&self, what: u8) {
        if let Ok(m) = self.map.lock() {
            for (_, b) in m.by_key.values().flatten() {
                b.ring(what);
            }
        }
    }

    /// Keys (accounts, seek tokens, tournaments) with a socket registered: none once all
    /// closed.
    pub fn registered(&self) -> usize {
        self.map.lock().map_or(0, |m| m.by_key.len())
    }

    /// How often the sockets of `account` open now were woken by an event.
    pub fn wakes_of(&self, account: &str) -> u64 {
        self.map.lock().map_or(0, |m| {
            m.by_key
                .get(&format!("a:{account}"))
                .into_iter()
                .flatten()
                .map(|(_, b)| b.rung.load(Ordering::Relaxed))
                .sum()
        })
    }

    /// Wakes the sockets event `d` is for.
    fn deliver(&self, d: &Arc<Delivered>) {
        match &d.event {
            Event::Waiting { account } => self.ring(&format!("a:{account}"), WAITING),
            // Told as they are (docs/api.md, "The player socket"): no read.
            Event::Rating { accounts, .. } => {
                for a in accounts {
                    self.tell(&format!("a:{a}"), d);
                }
            }
            Event::Tournament { id } => self.tell(&format!("t:{id}"), d),
            Event::Arena { id } => self.tell(&format!("r:{id}"), d),
            Event::TeamMatch { id } => self.tell(&format!("m:{id}"), d),
            Event::Club { id } => self.tell(&format!("c:{id}"), d),
            Event::SeekAccepted { hash, account, .. } => {
                self.ring(&format!("h:{hash}"), READ);
                if let Some(a) = account {
                    self.ring(&format!("a:{a}"), READ);
                }
            }
            e => {
                for a in e.accounts() {
                    self.ring(&format!("a:{a}"), READ);
                }
            }
        }
    }
}

/// One socket's entries in [`Sockets`], taken out when it closes.
struct Registration {
    s: Arc<Seeks>,
    id: u64,
    keys: Vec<String>,
    bell: Arc<Bell>,
}

impl Registration {
    fn new(s: &Arc<Seeks>) -> Registration {
        Registration {
            s: s.clone(),
            id: s.sockets.next.fetch_add(1, Ordering::Relaxed),
            keys: Vec::new(),
            bell: Arc::new(Bell {
                flags: AtomicU8::new(0),
                notify: Notify::new(),
                rung: AtomicU64::new(0),
                told: Mutex::new(Vec::new()),
            }),
        }
    }

    fn add(&mut self, key: String) {
        if !self.keys.contains(&key) {
            self.s.sockets.add(key.clone(), self.id, &self.bell);
            self.keys.push(key);
        }
    }
}

impl Drop for Registration {
    fn drop(&mut self) {
        for k in &self.keys {
            self.s.sockets.remove(k, self.id);
        }
    }
}

/// Hears this instance's bus for its player sockets while the feature lives: the list of
/// seeks changing goes to every socket, the rest only to the sockets it is for. Subscribed
/// when the feature was made, so it hears everything a socket registered since can need.
pub(super) async fn dispatch(s: Weak<Seeks>, mut events: broadcast::Receiver<Arc<Delivered>>) {
    loop {
        let e = events.recv().await;
        let Some(s) = s.upgrade() else { return };
        match e {
            Ok(d) if d.event == Event::Seeks => s.list_changed(),
            Ok(d) => s.sockets.deliver(&d),
            // Fell behind: every socket reads again what concerns it, and tells its page to
            // read its tournaments again.
            Err(RecvError::Lagged(_)) => {
                s.sockets.ring_all(READ | WAITING | FOLLOWED);
                s.list_changed();
            }
            Err(RecvError::Closed) => return,
        }
    }
}

/// `GET /api/play/ws`.
pub(super) async fn upgrade(
    ws: WebSocketUpgrade,
    State(s): State<Arc<Seeks>>,
    guard: Option<Extension<Guard>>,
    RawQuery(query): RawQuery,
    account: MaybeAccount,
) -> ApiResult<Response> {
    let tokens = seek_tokens(query.as_deref()).ok_or_else(|| {
        ApiError::bad_request(format!(
            "seek= takes a seek token, at most {MAX_SEEK_TOKENS} of them"
        ))
    })?;
    let follows = followed(query.as_deref());
    let account = account.0.map(|a| a.id.0);
    let hashes = tokens.iter().map(|t| util::hash_token(t)).collect();
    Ok(socket::upgrade(ws).on_upgrade(move |socket| {
        let cfg = s.games.ws;
        drive(
            socket,
            Player::new(s, account, hashes, follows),
            cfg,
            guard.map(|g| g.0),
        )
    }))
}

/// One page's socket.
struct Player {
    s: Arc<Seeks>,
    account: Option<String>,
    /// SHA-256 of the seek tokens the page holds.
    hashes: Vec<String>,
    /// What was sent (`s:ID`, `p:ID`, `c:ID:STATUS`, `g:GAME`), and when, so that nothing
    /// goes twice.
    sent: HashMap<String, i64>,
    /// Whether a seek or ticket of the page's may wait: kept alive while so (it is until
    /// the first keep-alive finds none; an event of a new one sets it again).
    waiting: bool,
    /// The tournaments and arenas the page follows (`?tournament=ID`, `?arena=ID`), as
    /// registration keys (`t:ID`, `r:ID`).
    follows: Vec<String>,
    /// When the socket opened (ms).
    opened: i64,
    /// The next keep-alive of the page's seeks and tickets, while some wait.
    keep_at: Option<Instant>,
    reg: Registration,
    list: broadcast::Receiver<()>,
    /// The standings of the first arena the page follows, computed once for all its
    /// viewers on this instance (docs/api.md, "Arenas", "Live standings").
    standings: Option<Following>,
}

/// What wakes a player socket.
enum Wake {
    /// An event for its account, seek tokens or followed tournaments: [`READ`],
    /// [`WAITING`], [`TOLD`], [`FOLLOWED`].
    Bell(u8),
    /// The list of open seeks changed.
    Seeks,
    /// The followed arena's standings changed.
    Standings,
}

type Out = PlayerOut<Shown>;

impl Player {
    /// Registers the socket (before its first read: no event falls between the two).
    fn new(
        s: Arc<Seeks>,
        account: Option<String>,
        hashes: Vec<String>,
        follows: Vec<String>,
    ) -> Player {
        let mut reg = Registration::new(&s);
        if let Some(a) = &account {
            reg.add(format!("a:{a}"));
        }
        for h in &hashes {
            reg.add(format!("h:{h}"));
        }
        for key in &follows {
            reg.add(key.clone());
        }
        let list = s.list.subscribe();
        let opened = s.now_ms();
        let standings = follows
            .iter()
            .find(|k| k.starts_with("r:"))
            .map(|k| s.games.feeds.follow(k, reg.id, account.clone()));
        Player {
            s,
            account,
            hashes,
            sent: HashMap::new(),
            waiting: true,
            follows,
            opened,
            keep_at: Some(Instant::now()),
            reg,
            list,
            standings,
        }
    }

    /// The followed arena's latest standings: the shared message, then the account's own.
    fn send_standings(&mut self, out: &mut Outbox) {
        let Some(f) = self.standings.as_mut() else {
            return;
        };
        let Some(feed) = f.rx.borrow_and_update().clone() else {
            return;
        };
        out.text(feed.shared.clone());
        if let Some(m) = self.account.as_ref().and_then(|a| feed.mine.get(a)) {
            out.text(m.clone());
        }
    }

    /// Reads what concerns the page and queues what was not sent yet.
    async fn read_into(&mut self, out: &mut Outbox) {
        let now = self.s.now_ms();
        match self.read(self.opened).await {
            Ok(msgs) => {
                for m in msgs {
                    out.json(&m);
                }
            }
            Err(e) => tracing::warn!("player socket: {e}"),
        }
        self.sent.retain(|_, t| *t >= now - 2 * LOOK_BACK_MS);
    }

    /// Seeks and tickets stay alive at three times the liveness rate, while some wait.
    fn keep_every(&self) -> Duration {
        (self.s.cfg.liveness / 3).max(Duration::from_millis(100))
    }

    async fn keep_now(&mut self) {
        self.keep_alive().await;
        self.keep_at = self.waiting.then(|| Instant::now() + self.keep_every());
    }
}

impl Handler for Player {
    type Event = Wake;

    async fn open(&mut self, out: &mut Outbox) -> Flow {
        // Followed tournaments: read once now that the socket listens (a change from now on
        // comes as its own message).
        self.tell_followed(out);
        self.send_standings(out);
        self.read_into(out).await;
        Flow::Go
    }

    async fn next_event(&mut self) -> Option<Wake> {
        let standings = self.standings.as_mut();
        tokio::select! {
            f = self.reg.bell.woken() => Some(Wake::Bell(f)),
            l = self.list.recv() => match l {
                Err(RecvError::Closed) => None,
                _ => Some(Wake::Seeks),
            },
            _ = async {
                match standings {
                    Some(f) => {
                        if f.rx.changed().await.is_err() {
                            std::future::pending::<()>().await;
                        }
                    }
                    None => std::future::pending().await,
                }
            } => Some(Wake::Standings),
        }
    }

    async fn on_event(&mut self, w: Wake, out: &mut Outbox) -> Flow {
        match w {
            Wake::Seeks => out.json(&Out::Seeks),
            Wake::Standings => self.send_standings(out),
            Wake::Bell(f) => {
                if f & WAITING != 0 && !self.waiting {
                    self.waiting = true;
                    self.keep_now().await;
                }
                if f & READ != 0 {
                    self.read_into(out).await;
                }
                if f & TOLD != 0 {
                    for d in self.reg.bell.take_told() {
                        if let Some(m) = self.told(&d.event) {
                            out.json(&m);
                        }
                    }
                }
                if f & FOLLOWED != 0 {
                    self.tell_followed(out);
                }
            }
        }
        Flow::Go
    }

    async fn on_text(&mut self, text: &str, out: &mut Outbox) -> Flow {
        match parse::<PlayerIn>(text) {
            Ok(PlayerIn::Ping) => out.json(&Out::Pong),
            Ok(PlayerIn::Seek { token }) => {
                if self.add_seek(&token) {
                    self.keep_now().await;
                } else {
                    out.error(&ApiError::bad_request(format!(
                        "seek takes a seek token, at most {MAX_SEEK_TOKENS} of them"
                    )));
                }
            }
            Err(Refused::Unknown(k)) => out.error(&ApiError::bad_request(format!(
                "unknown message type '{}' (seek, ping)",
                bao_rules::printable(&k)
            ))),
            Err(Refused::Malformed(e)) => out.error(&ApiError::bad_request(format!(
                "a message is JSON such as {{\"type\":\"ping\"}}: {e}"
            ))),
        }
        Flow::Go
    }

    /// Only while a seek or ticket of the page's waits: an idle socket sleeps until a
    /// message, an event, the keep-alive ping or the shutdown.
    fn deadline(&self) -> Option<Instant> {
        self.keep_at
    }

    async fn on_deadline(&mut self, _out: &mut Outbox) -> Flow {
        self.keep_now().await;
        Flow::Go
    }

    async fn close(self) {}
}

impl Player {
    /// `{"type":"seek","token":T}`: the page posted a seek after opening its socket.
    fn add_seek(&mut self, token: &str) -> bool {
        if !valid_token(token) {
            return false;
        }
        let h = util::hash_token(token);
        if !self.hashes.contains(&h) {
            if self.hashes.len() >= MAX_SEEK_TOKENS {
                return false;
            }
            // Registered before the keep-alive that follows: its acceptance wakes us.
            self.reg.add(format!("h:{h}"));
            self.hashes.push(h);
        }
        self.waiting = true;
        true
    }

    /// The message event `e` is by itself, with no read (docs/api.md, "The player socket"):
    /// a rating written for the page's account, a change of a tournament it follows.
    fn told(&self, e: &Event) -> Option<Out> {
        match e {
            Event::Rating {
                game,
                game_no,
                accounts,
            } if self.account.as_ref().is_some_and(|a| accounts.contains(a)) => Some(Out::Rating {
                game: game.clone(),
                game_no: *game_no,
                url: format!("/g/{game}"),
            }),
            Event::Tournament { id } if self.follows.contains(&format!("t:{id}")) => {
                Some(Out::Tournament { id: id.clone() })
            }
            Event::Arena { id } if self.follows.contains(&format!("r:{id}")) => {
                Some(Out::Arena { id: id.clone() })
            }
            Event::TeamMatch { id } if self.follows.contains(&format!("m:{id}")) => {
                Some(Out::TeamMatch { id: id.clone() })
            }
            Event::Club { id } if self.follows.contains(&format!("c:{id}")) => {
                Some(Out::Club { id: id.clone() })
            }
            _ => None,
        }
    }

    /// `{"type":"tournament","id"}` for each tournament the page follows: read it (again).
    fn tell_followed(&self, out: &mut Outbox) {
        for key in &self.follows {
            match key.split_once(':') {
                Some(("t", id)) => out.json(&Out::Tournament { id: id.into() }),
                Some(("r", id)) => out.json(&Out::Arena { id: id.into() }),
                Some(("m", id)) => out.json(&Out::TeamMatch { id: id.into() }),
                Some(("c", id)) => out.json(&Out::Club { id: id.into() }),
                _ => {}
            }
        }
    }

    /// Keeps the page's seeks and tickets alive; remembers whether any still wait.
    async fn keep_alive(&mut self) {
        let store = &self.s.games.store;
        let now = self.s.now_ms();
        let until = now + self.s.liveness_ms();
        let mut kept = 0;
        match store
            .keep_seeks_alive(&self.hashes, self.account.as_deref(), now, until)
            .await
        {
            Ok(n) => kept += n,
            Err(e) => {
                tracing::warn!("player socket: {e}");
                return;
            }
        }
        if let Some(a) = &self.account {
            match store.keep_tickets_alive(a, None, now, until).await {
                Ok(n) => kept += n,
                Err(e) => {
                    tracing::warn!("player socket: {e}");
                    return;
                }
            }
        }
        self.waiting = kept > 0;
    }

    /// What happened in the last [`LOOK_BACK_MS`] (challenges: since the socket `opened`)
    /// that was not sent yet.
    async fn read(&mut self, opened: i64) -> Result<Vec<Out>, crate::store::StoreError> {
        let s = self.s.clone();
        let store = &s.games.store;
        let now = self.s.now_ms();
        let mut out = Vec::new();
        let from = now - LOOK_BACK_MS;
        for (seek, game) in store
            .seeks_accepted(&self.hashes, self.account.as_deref(), from)
            .await?
        {
            if self.first(format!("s:{seek}"), now) {
                self.first(format!("g:{game}"), now);
                let url = format!("/g/{game}");
                out.push(Out::SeekAccepted { seek, game, url });
            }
        }
        let Some(me) = self.account.clone() else {
            return Ok(out);
        };
        for (ticket, game) in store.tickets_paired(&me, from).await? {
            if self.first(format!("p:{ticket}"), now) {
                self.first(format!("g:{game}"), now);
                let url = format!("/g/{game}");
                out.push(Out::Paired { ticket, game, url });
            }
        }
        for c in store
            .challenges_changed(&me, from.max(opened - SLACK_MS))
            .await?
        {
            let key = format!("c:{}:{}", c.id, c.status);
            if self.sent.contains_key(&key) {
                continue;
            }
            let msg = match c.status.as_str() {
                "open" if c.to_account == me => Out::Challenge {
                    challenge: Shown::of(&c),
                },
                "open" => continue,
                "accepted" => match &c.game {
                    Some(g) if store.game_exists(g).await? => {
                        self.first(format!("g:{g}"), now);
                        Out::ChallengeGone {
                            id: c.id.clone(),
                            why: "accepted".into(),
                            game: Some(g.clone()),
                            url: Some(format!("/g/{g}")),
                        }
                    }
                    // Its game is being made: told at a later read.
                    _ => continue,
                },
                why => Out::ChallengeGone {
                    id: c.id.clone(),
                    why: why.to_string(),
                    game: None,
                    url: None,
                },
            };
            self.sent.insert(key, now);
            out.push(msg);
        }
        // A rematch offered to this account in a finished game it has no page of open
        // (docs/api.md, "Play: rematch"): told once per offer.
        for (game, from, until) in store.rematch_offers_to(&me, now).await? {
            if self.first(format!("r:{game}:{until}"), now) {
                let url = format!("/g/{game}");
                out.push(Out::Rematch {
                    game,
                    from,
                    url,
                    expires_in_ms: until - now,
                });
            }
        }
        // Any other game seated for this account since the socket opened (a tournament
        // round, a game made on another page): told once, after the events above.
        for game in store
            .games_seated_since(&me, from.max(opened - SLACK_MS))
            .await?
        {
            if self.first(format!("g:{game}"), now) {
                let url = format!("/g/{game}");
                out.push(Out::Game { game, url });
            }
        }
        Ok(out)
    }

    /// Marks `key` sent: true the first time.
    fn first(&mut self, key: String, now: i64) -> bool {
        self.sent.insert(key, now).is_none()
    }
}
