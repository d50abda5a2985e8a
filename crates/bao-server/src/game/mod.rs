//! The live game: the games in memory (the database is the truth, memory a cache), their
//! seats, clocks and computer players, the one write path every change to a game takes, and
//! the game's own HTTP and WebSocket routes (docs/architecture.md).
//!
//! * [`Games`]: the map of games in memory and the services every game needs;
//! * [`commit`]: a change to a game as a value ([`Change`]), committed by one function;
//! * [`ops`]: create, join, move, resign, the views of a game and its record;
//! * [`clock`], [`computer`]: the loss on time and the computer's moves;
//! * [`seat`]: who a request speaks for ([`Seat`]);
//! * [`alerts`]: alerts for players who may not be looking ("your move", a game made for
//!   them), published here and delivered by features;
//! * [`routes`], [`ws`]: the game's HTTP routes and its WebSocket.
//!
//! Features (crate::features) build on this module and never the other way round: the core
//! tells them about changes through [`Observer`].

pub mod alerts;
pub mod clock;
pub mod commit;
pub mod computer;
pub mod listen;
pub mod observed;
pub mod ops;
pub mod presence;
pub mod routes;
pub mod seat;
pub mod ws;

pub use alerts::{Alert, AlertKind, Alerts, Recipient};
pub use commit::Change;
pub use ops::{Created, NewGame, NewPair, PairCreated, PairSeat};
pub use seat::Seat;

use crate::domain::model::Match;
use crate::edge::socket::WsConfig;
use crate::engine_pool::EnginePool;
use crate::error::{ApiError, ApiResult};
use crate::store::Store;
use crate::util;
use axum::extract::ws::Utf8Bytes;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex, Weak};
use std::time::Duration;
use tokio::sync::{broadcast, Mutex};

/// Timings of a game's life in memory and in the lists.
#[derive(Clone, Debug)]
pub struct Lifecycle {
    /// A live match without a move (or any other change) for this long ends as abandoned:
    /// the side to move loses; a match without any move is closed. Default 14 days.
    pub abandon_after: Duration,
    /// "Watch live" lists the games with a move in this window. Default 10 minutes.
    pub live_window: Duration,
    /// A game in memory that no request has used for this long, with no socket open and
    /// nothing pending, leaves memory (a finished one at the next sweep). Default 60 s.
    pub idle_after: Duration,
    /// How often unused games leave memory (no database work). Default 2 s: finished games
    /// do not pile up in memory between sweeps.
    pub sweep_every: Duration,
    /// How often each instance's safety sweep runs (docs/architecture.md, "The event
    /// bus"): news travels as events and deadlines have timers, so the sweep only repairs
    /// what a crash left: clocks that ran out where no timer was (a restart, an instance
    /// that stopped), who has a game open through an instance that stopped, old events,
    /// and each feature's own (ratings not written, tournaments not advanced, claims whose
    /// game never came, seeks whose page went away). Default 60 s; tests set an hour.
    pub safety_sweep: Duration,
    /// Whether the first safety sweep runs at start (the default): clocks that ran out
    /// while the server was down are settled at once. Off only in tests where no sweep may
    /// decide a game (a database shared with other tests' clocks).
    pub sweep_at_start: bool,
    /// How often matches left without a move for [`Lifecycle::abandon_after`] are looked
    /// for. Default an hour (the limit is days).
    pub abandon_every: Duration,
    /// How long a rematch offer stands unanswered (docs/api.md, "Play: rematch"). Default
    /// 60 s; it lapses earlier when the asker leaves the game.
    pub rematch_offer_for: Duration,
}

impl Default for Lifecycle {
    fn default() -> Self {
        Lifecycle {
            abandon_after: Duration::from_secs(14 * 24 * 3600),
            live_window: Duration::from_secs(600),
            idle_after: Duration::from_secs(60),
            sweep_every: Duration::from_secs(2),
            safety_sweep: Duration::from_secs(60),
            sweep_at_start: true,
            abandon_every: Duration::from_secs(3600),
            rematch_offer_for: Duration::from_secs(60),
        }
    }
}

/// Something that wants to know when a game changes (the lobby's lists, for one). Called
/// under the game's lock after every committed change and every change another instance
/// made, so it must be quick and must not wait.
pub trait Observer: Send + Sync {
    /// `m` as it stands after the change.
    fn changed(&self, m: &Match);
}

/// One message for every kind of viewer: spectators, player 0, player 1.
#[derive(Debug)]
pub struct Update {
    views: [Utf8Bytes; 3],
}

impl Update {
    /// The same message for every viewer.
    pub(crate) fn same(text: String) -> Update {
        let t = Utf8Bytes::from(text);
        Update {
            views: [t.clone(), t.clone(), t],
        }
    }

    /// The message for `viewer`.
    pub fn view(&self, viewer: Option<usize>) -> Utf8Bytes {
        self.views[viewer.map_or(0, |p| p + 1)].clone()
    }
}

/// A game in memory.
pub struct Slot {
    /// The match; its lock orders every change to the game.
    pub m: Mutex<Match>,
    /// Live updates to WebSocket clients.
    pub tx: broadcast::Sender<Arc<Update>>,
    /// Open WebSocket connections per player.
    pub conns: [AtomicUsize; 2],
    /// Per player, whether a socket of theirs is open on another instance, as last read
    /// from the store ([`presence`]); kept up to date only while someone watches here.
    pub remote: [AtomicBool; 2],
    /// When a request last took this slot (ms since the epoch): idle games leave memory.
    touched: AtomicI64,
    /// Number of the last message broadcast; only changed under the match lock, so the
    /// channel carries numbers in order (docs/api.md, "WebSocket": the version `v`).
    pub seq: AtomicU64,
    /// The computer is searching the current position (memory only; changed under the
    /// match lock).
    pub thinking: AtomicBool,
    /// The games' clock, for what is shown of this game's clocks.
    clock: util::Clock,
}

impl Slot {
    /// Now by the games' clock (ms since the epoch).
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    fn new(m: Match, clock: util::Clock) -> Slot {
        Slot {
            touched: AtomicI64::new(clock.now_ms()),
            clock,
            m: Mutex::new(m),
            tx: broadcast::channel(64).0,
            conns: [AtomicUsize::new(0), AtomicUsize::new(0)],
            remote: [AtomicBool::new(false), AtomicBool::new(false)],
            seq: AtomicU64::new(0),
            thinking: AtomicBool::new(false),
        }
    }

    /// Per player, whether a browser of theirs is connected, here or (as last read) through
    /// another instance.
    pub fn connected(&self) -> [bool; 2] {
        [0, 1].map(|p| {
            self.conns[p].load(Ordering::Relaxed) > 0 || self.remote[p].load(Ordering::Relaxed)
        })
    }

    /// Whether the computer is searching.
    pub fn thinking(&self) -> bool {
        self.thinking.load(Ordering::Relaxed)
    }
}

/// The games in memory, and what every game needs: the store, the engine pool, the
/// observers.
pub struct Games {
    /// The database.
    pub store: Store,
    /// This instance's id: the origin of the events it publishes (the store's).
    pub instance: String,
    map: StdMutex<HashMap<String, Arc<Slot>>>,
    /// Counts evictions, so that a load that raced one can tell (see [`Games::slot`]).
    evictions: AtomicU64,
    /// The engine pool: every search (computer moves, hints, review plies) takes permits
    /// here, under one bound.
    pub engine: EnginePool,
    /// Timings of a game's life.
    pub lifecycle: Lifecycle,
    /// The time the games read (their clocks, deadlines and timers), and the features
    /// with them.
    pub clock: util::Clock,
    /// Keep-alive of WebSockets.
    pub ws: WsConfig,
    observers: Vec<Arc<dyn Observer>>,
    /// These games themselves, for the timers and tasks they start.
    me: Weak<Games>,
    /// Losses on time this instance recorded (each is recorded by one instance only).
    pub time_losses: AtomicU64,
    /// Alerts for players who may not be looking ([`alerts`]).
    pub alerts: Alerts,
    /// What many sockets follow, computed once for all (an arena's standings).
    pub feeds: Arc<crate::edge::feeds::Feeds>,
    /// Wakes the task that tells the store which players have a game open here
    /// ([`presence`]).
    presence_wake: Arc<tokio::sync::Notify>,
}

impl Games {
    /// The games on `store`, telling `observers` about every change.
    pub fn new(
        store: Store,
        engine: EnginePool,
        lifecycle: Lifecycle,
        ws: WsConfig,
        observers: Vec<Arc<dyn Observer>>,
        clock: util::Clock,
    ) -> Arc<Games> {
        Arc::new_cyclic(|me| Games {
            clock,
            instance: store.instance().to_string(),
            store,
            map: StdMutex::new(HashMap::new()),
            evictions: AtomicU64::new(0),
            engine,
            lifecycle,
            ws,
            observers,
            me: me.clone(),
            time_losses: AtomicU64::new(0),
            alerts: Alerts::default(),
            feeds: Arc::default(),
            presence_wake: Arc::new(tokio::sync::Notify::new()),
        })
    }

    /// These games, weakly (for timers that must not keep them alive).
    pub(crate) fn me(&self) -> Weak<Games> {
        self.me.clone()
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        match self.map.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    /// The game `id` if it is in memory.
    pub fn cached(&self, id: &str) -> Option<Arc<Slot>> {
        self.map().get(id).cloned()
    }

    /// The game `id`, from memory or the database; 404 when unknown.
    pub async fn slot(&self, id: &str) -> ApiResult<Arc<Slot>> {
        let slot = self.slot_untouched(id).await?;
        slot.touched.store(self.clock.now_ms(), Ordering::Relaxed);
        Ok(slot)
    }

    async fn slot_untouched(&self, id: &str) -> ApiResult<Arc<Slot>> {
        if let Some(s) = self.cached(id) {
            return Ok(s);
        }
        if id.len() > 64 {
            return Err(ApiError::not_found("there is no such game"));
        }
        let not_found =
            || ApiError::not_found(format!("there is no game '{}'", bao_rules::printable(id)));
        // A game evicted while we read it may have changed after our read (through the
        // evicted slot): then our copy could be stale, so read again. Evictions come in
        // sweeps, seconds apart, so this ends at once in practice.
        loop {
            let epoch = self.evictions.load(Ordering::SeqCst);
            let m = self.store.load(id).await?.ok_or_else(not_found)?;
            let mut games = self.map();
            if let Some(s) = games.get(id) {
                return Ok(s.clone());
            }
            if self.evictions.load(Ordering::SeqCst) != epoch {
                continue;
            }
            let slot = Arc::new(Slot::new(m, self.clock.clone()));
            games.insert(id.to_string(), slot.clone());
            drop(games);
            if let Ok(m) = slot.m.try_lock() {
                self.arm_clock(&slot, &m);
            }
            return Ok(slot);
        }
    }

    /// Puts a match just created into memory (or returns the one already there), tells the
    /// observers, starts its clock and lets the computer move if it is to.
    pub(crate) fn open(&self, m: Match) -> Arc<Slot> {
        self.tell_observers(&m);
        let id = m.id.clone();
        let slot = self
            .map()
            .entry(id)
            .or_insert_with(|| Arc::new(Slot::new(m, self.clock.clone())))
            .clone();
        if let Ok(m) = slot.m.try_lock() {
            self.arm_clock(&slot, &m);
        }
        self.schedule_computer(slot.clone());
        slot
    }

    /// Number of games in memory.
    pub fn in_memory(&self) -> usize {
        self.map().len()
    }

    /// Drops from memory every game nobody uses: no request or task holds it (the map holds
    /// the only reference, so no WebSocket is open and no computer move is being searched),
    /// its lock is free, nothing is pending (the computer is not to move), and it is over or
    /// untouched for [`Lifecycle::idle_after`]. It comes back from the database on the next
    /// request. Runs under the map's lock, so nobody can take the slot meanwhile and two
    /// copies of one game can never exist. Returns how many left.
    pub fn evict_idle(&self) -> usize {
        let idle_before = self.clock.now_ms() - self.lifecycle.idle_after.as_millis() as i64;
        let mut games = self.map();
        let before = games.len();
        games.retain(|_, slot| {
            if Arc::strong_count(slot) > 1 || slot.tx.receiver_count() > 0 {
                return true;
            }
            let Ok(m) = slot.m.try_lock() else {
                return true;
            };
            let over = m.read_only || m.finished;
            let idle = slot.touched.load(Ordering::Relaxed) < idle_before;
            let pending = slot.thinking() || m.computer_to_move().is_some();
            !((over || idle) && !pending)
        });
        let gone = before - games.len();
        if gone > 0 {
            self.evictions.fetch_add(1, Ordering::SeqCst);
        }
        gone
    }

    /// Forgets every game in memory (tests of reloading).
    pub fn forget_all(&self) {
        self.map().clear();
    }

    /// The player a token belongs to. In pass and play both seats have one token: it
    /// acts for the player to move.
    pub fn auth(m: &Match, token: Option<&str>) -> Option<usize> {
        let h = util::hash_token(token?);
        let holds = |p: usize| {
            m.players[p]
                .token_hash
                .as_deref()
                .is_some_and(|t| util::same_secret(t, &h))
        };
        if m.local() {
            return holds(0).then(|| m.to_move().unwrap_or(0));
        }
        (0..2).find(|&p| holds(p))
    }

    /// Tells every observer about `m`.
    fn tell_observers(&self, m: &Match) {
        for o in &self.observers {
            o.changed(m);
        }
    }

    /// The core's own periodic work, started once: unused games leave memory every
    /// [`Lifecycle::sweep_every`] (memory only), and the safety sweep runs every
    /// [`Lifecycle::safety_sweep`] ([`Games::safety_sweep`]; the first at start unless
    /// [`Lifecycle::sweep_at_start`] is off). Ends when the games are dropped.
    pub fn spawn_sweep(&self) -> tokio::task::JoinHandle<()> {
        let weak = self.me();
        let every = self.lifecycle.sweep_every.max(Duration::from_millis(10));
        let safety = self.lifecycle.safety_sweep.max(Duration::from_millis(10));
        let at_start = self.lifecycle.sweep_at_start;
        tokio::spawn(async move {
            let mut evict = tokio::time::interval(every);
            let mut sweep = tokio::time::interval(safety);
            evict.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            // An interval's first tick is at once. Nothing in memory has been idle yet at
            // start, and evicting at that moment would race with the first requests.
            evict.tick().await;
            if !at_start {
                sweep.tick().await;
            }
            loop {
                tokio::select! {
                    _ = evict.tick() => {
                        let Some(games) = weak.upgrade() else { return };
                        let gone = games.evict_idle();
                        if gone > 0 {
                            tracing::debug!("{gone} idle games left memory");
                        }
                    }
                    _ = sweep.tick() => {
                        let Some(games) = weak.upgrade() else { return };
                        games.safety_sweep().await;
                    }
                }
            }
        })
    }

    /// The core's part of the safety sweep: games whose clock ran out according to the
    /// database are ended on time (games not in memory after a restart, or whose timer was
    /// on a stopped instance), who has the games watched here open elsewhere is read again
    /// (a stopped instance's rows expire without an event), and events older than the bus
    /// keeps are deleted.
    pub async fn safety_sweep(&self) {
        self.refresh_remote(None).await;
        match self.flag_overdue().await {
            Ok(n) if n > 0 => tracing::info!("{n} games lost on time"),
            Ok(_) => {}
            Err(e) => tracing::warn!("clocks: {e}"),
        }
        let old = self.clock.now_ms() - crate::store::bus::KEEP_EVENTS_MS;
        if let Err(e) = self.store.prune_events(old).await {
            tracing::warn!("event bus: {e}");
        }
    }
}

/// The game's routes (and every feature whose state is the games) find the store in it:
/// the edge's [`crate::edge::account::Account`] extractor reads the session through it.
impl axum::extract::FromRef<Arc<Games>> for Store {
    fn from_ref(g: &Arc<Games>) -> Store {
        g.store.clone()
    }
}
