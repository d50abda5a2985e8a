//! The server's state: the store, the games in memory, their broadcast channels, and every
//! operation on a game (create, join, move, resign), each committed before it is answered.

use crate::error::{ApiError, ApiResult};
use crate::model::{
    move_event, ClockState, Match, MoveEvent, Player, PlayerKind, Round, TimeControl,
};
use crate::store::{Store, StoreError};
use crate::util;
use crate::ws::ServerMsg;
use axum::extract::ws::Utf8Bytes;
use bao_rules::{find_move, LegalMove, MatchFormat, Position, Rules, Side, Variant};
use std::collections::HashMap;
use std::sync::atomic::{AtomicI64, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex as StdMutex, Weak};
use tokio::sync::{broadcast, Mutex};

/// One message for every kind of viewer: spectators, player 0, player 1.
#[derive(Debug)]
pub struct Update {
    views: [Utf8Bytes; 3],
}

impl Update {
    /// The message for `viewer`.
    pub fn view(&self, viewer: Option<usize>) -> Utf8Bytes {
        self.views[viewer.map_or(0, |p| p + 1)].clone()
    }
}

/// A game id in memory.
pub struct Slot {
    /// The match; its lock orders every change to the game.
    pub m: Mutex<Match>,
    /// Live updates to WebSocket clients.
    pub tx: broadcast::Sender<Arc<Update>>,
    /// Open WebSocket connections per player.
    pub conns: [AtomicUsize; 2],
    /// When a request last took this slot (ms since the epoch): idle games leave memory.
    touched: AtomicI64,
    /// Version of the last message broadcast; only changed under the match lock, so the
    /// channel carries versions in order (docs/api.md, WebSocket).
    pub version: AtomicU64,
}

impl Slot {
    fn new(m: Match) -> Slot {
        Slot {
            m: Mutex::new(m),
            tx: broadcast::channel(64).0,
            conns: [AtomicUsize::new(0), AtomicUsize::new(0)],
            touched: AtomicI64::new(util::now_ms()),
            version: AtomicU64::new(0),
        }
    }

    /// Per player, whether a browser of theirs is connected.
    pub fn connected(&self) -> [bool; 2] {
        [
            self.conns[0].load(Ordering::Relaxed) > 0,
            self.conns[1].load(Ordering::Relaxed) > 0,
        ]
    }
}

/// The server.
pub struct App {
    /// The database.
    pub store: Store,
    /// This process's id in NOTIFY payloads.
    pub instance: String,
    games: StdMutex<HashMap<String, Arc<Slot>>>,
    /// Counts evictions, so that a load that raced one can tell (see [`App::slot`]).
    evictions: AtomicU64,
    /// The engine pool: every search (computer moves, hints, review plies) takes permits
    /// here, under one bound (issue 13.2).
    pub engine: crate::engine_pool::EnginePool,
    /// Timings of the game lifecycle (abandonment, "Watch live", eviction).
    pub lifecycle: crate::lifecycle::Lifecycle,
    /// Keep-alive of WebSockets.
    pub ws: crate::ws::WsConfig,
    /// The home page's live lists.
    pub lobby: crate::lobby::Lobby,
    /// Game reviews (their own queue and workers, one `engine` permit per ply).
    pub review: crate::review::ReviewPool,
    /// This server itself, for the clock timers it starts.
    me: Weak<App>,
    /// Losses on time this instance recorded (each is recorded by one instance only).
    pub time_losses: AtomicU64,
}

/// What creating a game answers.
#[derive(Debug, serde::Serialize)]
pub struct Created {
    /// Game id.
    pub id: String,
    /// The creator's side in game 1.
    pub seat: String,
    /// The creator's seat token.
    pub token: String,
    /// Invite code for the other seat, for a game against a person.
    pub invite: Option<String>,
    /// The game page.
    pub url: String,
}

/// A create request, already checked.
pub struct NewGame {
    /// Rules, including the match format.
    pub rules: Rules,
    /// Start position.
    pub start: Position,
    /// Computer level, or `None` for a person.
    pub computer: Option<u8>,
    /// The creator's side in game 1.
    pub side: Side,
    /// The creator's name.
    pub name: String,
    /// The time control, if the game has a clock (issue 11.2).
    pub clock: Option<TimeControl>,
    /// Pass and play: the creator plays both sides (issue 11.4), the other side named this.
    pub local: Option<String>,
}

pub(crate) fn side_str(s: Side) -> String {
    s.letter().to_string()
}

/// The board picture of the current position, with the last move marked.
pub fn board_svg(m: &Match) -> String {
    let mut opts = bao_render::SvgOptions {
        size: None,
        ..Default::default()
    };
    opts.last_move = m.game.moves().last().map(bao_render::LastMove::from);
    opts.over = Some(m.game.outcome().is_over());
    bao_render::svg(m.game.position(), &opts)
}

/// A GameState as JSON text (HTTP answers).
pub(crate) fn state_string(
    m: &Match,
    viewer: Option<usize>,
    connected: [bool; 2],
    svg: &str,
) -> String {
    json_text(&m.state(viewer, connected, Some(svg.to_string())))
}

/// Serialises a message type of ours; they hold only strings, numbers and lists, so this
/// cannot fail, but a failure would still give valid JSON (an empty object).
fn json_text<T: serde::Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "{}".into())
}

/// `{"type":"state","v":V,"state":...}` for `viewer`, without the picture.
pub fn state_message(m: &Match, viewer: Option<usize>, connected: [bool; 2], v: u64) -> String {
    json_text(&ServerMsg::State {
        v,
        state: &m.state(viewer, connected, None),
    })
}

impl App {
    /// A server on `store` with the default lifecycle and WebSocket timings.
    pub fn new(store: Store) -> Arc<App> {
        App::with_lifecycle(
            store,
            crate::lifecycle::Lifecycle::default(),
            crate::ws::WsConfig::default(),
        )
    }

    /// A server on `store` with the given lifecycle and WebSocket timings.
    pub fn with_lifecycle(
        store: Store,
        lifecycle: crate::lifecycle::Lifecycle,
        ws: crate::ws::WsConfig,
    ) -> Arc<App> {
        App::with_config(store, lifecycle, ws, &Default::default())
    }

    /// A server on `store` with the given lifecycle and WebSocket timings and engine pool.
    pub fn with_config(
        store: Store,
        lifecycle: crate::lifecycle::Lifecycle,
        ws: crate::ws::WsConfig,
        engine: &crate::engine_pool::EngineConfig,
    ) -> Arc<App> {
        let engine = crate::engine_pool::EnginePool::new(engine);
        let review = crate::review::ReviewPool::new(Default::default(), engine.clone());
        let app = Arc::new_cyclic(|me| App {
            me: me.clone(),
            time_losses: AtomicU64::new(0),
            store,
            instance: util::random_code(12),
            games: StdMutex::new(HashMap::new()),
            evictions: AtomicU64::new(0),
            engine,
            lifecycle,
            ws,
            lobby: Default::default(),
            review,
        });
        crate::lobby::spawn_ticker(Arc::downgrade(&app));
        app
    }

    /// This server, weakly (for timers that must not keep it alive).
    pub(crate) fn me(&self) -> Weak<App> {
        self.me.clone()
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<Slot>>> {
        match self.games.lock() {
            Ok(g) => g,
            Err(p) => p.into_inner(),
        }
    }

    fn cached(&self, id: &str) -> Option<Arc<Slot>> {
        self.map().get(id).cloned()
    }

    /// The game `id`, from memory or the database; 404 when unknown.
    pub async fn slot(&self, id: &str) -> ApiResult<Arc<Slot>> {
        let slot = self.slot_untouched(id).await?;
        slot.touched.store(util::now_ms(), Ordering::Relaxed);
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
            let slot = Arc::new(Slot::new(m));
            games.insert(id.to_string(), slot.clone());
            drop(games);
            if let Ok(m) = slot.m.try_lock() {
                self.arm_clock(&slot, &m);
            }
            return Ok(slot);
        }
    }

    /// Puts a match just created into memory (or returns the one already there).
    pub(crate) fn insert(&self, m: Match) -> Arc<Slot> {
        let id = m.id.clone();
        self.map()
            .entry(id)
            .or_insert_with(|| Arc::new(Slot::new(m)))
            .clone()
    }

    /// Number of games in memory.
    pub fn in_memory(&self) -> usize {
        self.map().len()
    }

    /// Drops from memory every game nobody uses: no request or task holds it (the map holds
    /// the only reference, so no WebSocket is open and no computer move is being searched),
    /// its lock is free, nothing is pending (the computer is not to move), and it is over or
    /// untouched for [`crate::lifecycle::Lifecycle::idle_after`]. It comes back from the
    /// database on the next request. Runs under the map's lock, so nobody can take the slot
    /// meanwhile and two copies of one game can never exist. Returns how many left.
    pub fn evict_idle(&self) -> usize {
        let idle_before = util::now_ms() - self.lifecycle.idle_after.as_millis() as i64;
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
            let pending = m.thinking || m.computer_to_move().is_some();
            !((over || idle) && !pending)
        });
        let gone = before - games.len();
        if gone > 0 {
            self.evictions.fetch_add(1, Ordering::SeqCst);
        }
        gone
    }

    /// The player a token belongs to. In pass and play both seats have one token: it
    /// acts for the player to move.
    pub fn auth(m: &Match, token: Option<&str>) -> Option<usize> {
        let h = util::hash_token(token?);
        if m.local() {
            let owns = m.players[0]
                .token_hash
                .as_deref()
                .is_some_and(|t| util::same_secret(t, &h));
            return owns.then(|| m.to_move().unwrap_or(0));
        }
        (0..2).find(|&p| {
            m.players[p]
                .token_hash
                .as_deref()
                .is_some_and(|t| util::same_secret(t, &h))
        })
    }

    /// Creates a game and its first round.
    pub async fn create(self: &Arc<Self>, g: NewGame) -> ApiResult<Created> {
        let token = util::new_token();
        let now = util::now_ms();
        let (p1, invite) = match (g.computer, &g.local) {
            (_, Some(name)) => (
                Player {
                    kind: PlayerKind::Human,
                    name: name.clone(),
                    level: None,
                    token_hash: Some(util::hash_token(&token)),
                },
                None,
            ),
            (Some(level), None) => (
                Player {
                    kind: PlayerKind::Computer,
                    name: format!("Computer (level {level})"),
                    level: Some(level),
                    token_hash: None,
                },
                None,
            ),
            (None, None) => (
                Player {
                    kind: PlayerKind::Human,
                    name: "Guest".into(),
                    level: None,
                    token_hash: None,
                },
                Some(util::random_code(16)),
            ),
        };
        let p0 = Player {
            kind: PlayerKind::Human,
            name: g.name,
            level: None,
            token_hash: Some(util::hash_token(&token)),
        };
        let (south, north) = if g.side == Side::South {
            (p0.name.clone(), p1.name.clone())
        } else {
            (p1.name.clone(), p0.name.clone())
        };
        let round = Round {
            game_no: 1,
            start: g.start,
            south,
            north,
            result: "-".into(),
            result_text: None,
            termination: None,
        };
        let mut m = Match {
            id: util::new_game_id(),
            rules: g.rules,
            start: g.start,
            format: g.rules.match_format,
            read_only: false,
            first_side: g.side,
            players: [p0, p1],
            invite: invite.clone(),
            game_no: 1,
            wins: [0, 0],
            finished: false,
            past: Vec::new(),
            current: round.clone(),
            game: bao_rules::Game::new(g.start, g.rules),
            moves: Vec::new(),
            forced: None,
            created: now,
            updated: now,
            thinking: false,
            clock: g.clock.map(|control| ClockState {
                control,
                left: [control.initial(); 2],
                since: None,
            }),
            rematch: None,
        };
        m.clock_settle(now);
        // A start position that is already over ends its game at once.
        if m.game.outcome().is_over() {
            return Err(ApiError::new(
                axum::http::StatusCode::BAD_REQUEST,
                "bad_position",
                format!(
                    "the game is already over in this position ({})",
                    m.game.outcome().describe()
                ),
            ));
        }
        // Ids are random; a clash only makes us draw again.
        for _ in 0..4 {
            match self.store.create(&m, &[(round.clone(), Vec::new())]).await {
                Ok(()) => break,
                Err(StoreError::Conflict(_)) => m.id = util::new_game_id(),
                Err(e) => return Err(e.into()),
            }
        }
        let id = m.id.clone();
        self.lobby.mark(&m);
        let slot = self.insert(m);
        if let Ok(m) = slot.m.try_lock() {
            self.arm_clock(&slot, &m);
        }
        self.clone().schedule_computer(slot);
        Ok(Created {
            url: format!("/g/{id}"),
            id,
            seat: side_str(g.side),
            token,
            invite,
        })
    }

    /// Stores an uploaded record file as a finished, read-only game.
    pub async fn create_from_records(
        self: &Arc<Self>,
        recs: Vec<crate::record::ParsedRecord>,
    ) -> ApiResult<String> {
        let now = util::now_ms();
        let first = recs
            .first()
            .ok_or_else(|| ApiError::bad_request("the file holds no record"))?;
        let human = |name: &str| Player {
            kind: PlayerKind::Human,
            name: name.to_string(),
            level: None,
            token_hash: None,
        };
        let mut rounds: Vec<(Round, Vec<MoveEvent>)> = Vec::new();
        let mut last_game = None;
        for (i, r) in recs.iter().enumerate() {
            let mut game = bao_rules::Game::new(r.start, r.rules);
            let mut events = Vec::new();
            for mv in &r.moves {
                let before = *game.position();
                let lm = bao_rules::legal_moves(&before, &r.rules)
                    .find(&mv.to_string())
                    .copied()
                    .ok_or_else(|| ApiError::internal("a checked record move is not legal"))?;
                game.play(&lm);
                events.push(move_event(&before, &r.rules, &lm, game.outcome().token()));
            }
            let text = match r.termination.as_deref() {
                Some(t) if t != "rules" && r.result != "-" => {
                    Some(crate::record::forced_text(&r.result, t))
                }
                _ if game.outcome().is_over() => Some(game.outcome().describe()),
                _ => None,
            };
            rounds.push((
                Round {
                    game_no: i as u32 + 1,
                    start: r.start,
                    south: r.south.clone(),
                    north: r.north.clone(),
                    result: r.result.clone(),
                    result_text: text,
                    termination: r.termination.clone(),
                },
                events,
            ));
            last_game = Some(game);
        }
        let game = last_game.ok_or_else(|| ApiError::bad_request("the file holds no record"))?;
        let last = recs.last().unwrap_or(first);
        let (current, moves) = rounds
            .last()
            .cloned()
            .ok_or_else(|| ApiError::bad_request("empty"))?;
        let forced = match (last.termination.as_deref(), last.result.as_str()) {
            (Some(t), r) if t != "rules" && r != "-" => Some((r.to_string(), t.to_string())),
            _ => None,
        };
        let n = recs.len() as u32;
        let m = Match {
            id: util::new_game_id(),
            rules: last.rules,
            start: last.start,
            format: if n == 1 {
                MatchFormat::SingleGame
            } else {
                MatchFormat::BestOfThree
            },
            read_only: true,
            first_side: Side::South,
            players: [human(&first.south), human(&first.north)],
            invite: None,
            game_no: n,
            wins: [0, 0],
            finished: true,
            past: rounds[..rounds.len() - 1]
                .iter()
                .map(|r| r.0.clone())
                .collect(),
            current,
            game,
            moves,
            forced,
            created: now,
            updated: now,
            thinking: false,
            clock: None,
            rematch: None,
        };
        // A record is finished: it is read from the database when someone opens it.
        self.store.create(&m, &rounds).await?;
        Ok(m.id)
    }

    /// Gives the open seat to the holder of the invite code.
    pub async fn join(
        self: &Arc<Self>,
        id: &str,
        invite: &str,
        name: Option<String>,
        current: Option<&str>,
    ) -> ApiResult<(String, String)> {
        let slot = self.slot(id).await?;
        let mut m = slot.m.lock().await;
        if let Some(p) = App::auth(&m, current) {
            return Err(ApiError::conflict(format!(
                "you already play {} in this game; open the invite link in another browser",
                m.side_of(p).name()
            )));
        }
        if m.players[1].kind != PlayerKind::Human || m.read_only {
            return Err(ApiError::conflict(
                "this game has no seat for a person to join",
            ));
        }
        if m.players[1].token_hash.is_some() || m.invite.is_none() {
            return Err(ApiError::conflict("the seat has already been taken"));
        }
        if !m
            .invite
            .as_deref()
            .is_some_and(|c| util::same_secret(c, invite))
        {
            return Err(ApiError::forbidden(
                "the invite code is not valid for this game",
            ));
        }
        let token = util::new_token();
        let hash = util::hash_token(&token);
        let name = name.unwrap_or_else(|| "Guest".into());
        // Memory and database hold the same time (the abandonment sweep compares them).
        let now = util::now_ms();
        let mut after = m.players.clone();
        after[1].name = name.clone();
        let s0 = m.side_of(0);
        let (south, north) = if s0 == Side::South {
            (after[0].name.clone(), name.clone())
        } else {
            (name.clone(), after[0].name.clone())
        };
        // The clock starts once both seats are taken (issue 11.2).
        let mut joined = m.clone_light();
        joined.players[1].token_hash = Some(hash.clone());
        joined.clock_settle(now);
        match self
            .store
            .commit_join(
                id,
                &hash,
                &name,
                m.game_no,
                (&south, &north),
                now,
                crate::store::clock_cols(&joined),
                &self.instance,
            )
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(msg)) => {
                self.reload_locked(&mut m).await;
                return Err(ApiError::conflict(msg));
            }
            Err(e) => return Err(e.into()),
        }
        m.players[1].name = name;
        m.players[1].token_hash = Some(hash);
        m.invite = None;
        m.current.south = south;
        m.current.north = north;
        m.updated = now;
        m.clock = joined.clock;
        let seat = side_str(m.side_of(1));
        self.broadcast_state(&slot, &m);
        self.arm_clock(&slot, &m);
        Ok((seat, token))
    }

    /// Re-reads a match from the database after a conflict (another server changed it).
    pub(crate) async fn reload_locked(&self, m: &mut Match) {
        if let Ok(Some(fresh)) = self.store.load(&m.id).await {
            *m = fresh;
        }
    }

    /// Plays `text` for `player` in the game whose current position has ply `ply` (if given).
    pub async fn play(
        self: &Arc<Self>,
        id: &str,
        player: Option<usize>,
        text: &str,
        ply: Option<u32>,
    ) -> ApiResult<MoveEvent> {
        // The clock is read at the time the move arrived, not when its turn on the lock comes.
        let received = util::now_ms();
        let slot = self.slot(id).await?;
        let ev = {
            let mut m = slot.m.lock().await;
            let Some(p) = player else {
                return Err(ApiError::forbidden(
                    "only the players of this game may move: your seat token is missing or wrong",
                ));
            };
            // Pass and play: the one person moves for the side to move, whichever seat their
            // socket was counted as when it connected.
            let p = if m.local() {
                m.to_move().unwrap_or(p)
            } else {
                p
            };
            if m.read_only {
                return Err(ApiError::game_over(
                    "this game is a stored record; nobody moves in it",
                ));
            }
            // A move names the ply it was made in: a retried request whose ply was already
            // played is refused as stale before anything else is judged (issue 9, point 1).
            let now_ply = m.game.position().ply();
            if let Some(q) = ply {
                if q != now_ply {
                    return Err(ApiError::conflict(format!(
                        "the move was made for ply {q}, but the game is at ply {now_ply}"
                    )));
                }
            }
            if m.game_over() {
                let why = m.result().1.unwrap_or_default();
                return Err(ApiError::game_over(format!("the game is over: {why}")));
            }
            let side = m.game.position().side();
            if m.side_of(p) != side {
                return Err(ApiError::not_your_turn(format!(
                    "it is {}'s turn, and you play {}",
                    side.name(),
                    m.side_of(p).name()
                )));
            }
            if text.len() > 32 {
                return Err(ApiError::new(
                    axum::http::StatusCode::BAD_REQUEST,
                    "bad_move",
                    "a move is a few characters, such as A7L*",
                ));
            }
            let lm = find_move(m.game.position(), &m.rules, text)?;
            // A move is accepted only while the mover's clock has time left (issue 11.2).
            if m.clock_running() == Some(p) && m.time_left(p, received).is_some_and(|l| l <= 0) {
                let flagged = self.flag_locked(&slot, &mut m).await;
                drop(m);
                if flagged {
                    self.clone().schedule_computer(slot);
                }
                return Err(ApiError::game_over(
                    "your time ran out before the move arrived; the game is lost on time",
                ));
            }
            self.apply_locked(&slot, &mut m, lm, received).await?
        };
        self.clone().schedule_computer(slot);
        Ok(ev)
    }

    /// Stores and applies a legal move of the current position, made at `at` (ms; the
    /// mover's clock is charged up to then), then tells every client.
    pub(crate) async fn apply_locked(
        &self,
        slot: &Arc<Slot>,
        m: &mut Match,
        lm: LegalMove,
        at: i64,
    ) -> ApiResult<MoveEvent> {
        let before = *m.game.position();
        let mover = m.player_on(before.side());
        let mut game = m.game.clone();
        game.play(&lm);
        let outcome = game.outcome();
        let ev = move_event(&before, &m.rules, &lm, outcome.token());
        let transition = outcome
            .is_over()
            .then(|| m.transition(outcome.token(), outcome.describe(), None));
        // The match as it will be: used for the stored summary.
        let mut after = m.clone_light();
        after.clock_moved(mover, at);
        after.game = game.clone();
        after.updated = util::now_ms();
        if let Some(t) = &transition {
            after.apply_transition(t.clone());
        }
        after.clock_settle(at);
        let game_no = m.game_no;
        match self
            .store
            .commit_move(game_no, &ev, transition.as_ref(), &after, &self.instance)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(msg)) => {
                self.reload_locked(m).await;
                self.broadcast_state(slot, m);
                return Err(ApiError::conflict(msg));
            }
            Err(e) => return Err(e.into()),
        }
        // Committed: now change memory and tell everyone.
        m.game = game;
        m.moves.push(ev.clone());
        m.updated = after.updated;
        let next = transition.and_then(|t| m.record_end(t));
        m.clock = after.clock;
        // The move message shows the game as the move left it (a finished game with its
        // result and the match score); the next game of a match follows as a state message.
        self.broadcast_move(slot, m, &ev);
        if let Some(next) = next {
            m.start_next(next);
            m.clock = after.clock;
            self.broadcast_state(slot, m);
        }
        self.arm_clock(slot, m);
        Ok(ev)
    }

    /// Resigns game `game_no` of the match for `player`, at ply `ply`: a resignation names
    /// the game and position it was made in, so one sent while the opponent's move ended that
    /// game is refused (409 `conflict`) instead of landing on the next game of the match.
    pub async fn resign(
        self: &Arc<Self>,
        id: &str,
        player: Option<usize>,
        game_no: u32,
        ply: u32,
    ) -> ApiResult<String> {
        let slot = self.slot(id).await?;
        let out = {
            let mut m = slot.m.lock().await;
            let Some(p) = player else {
                return Err(ApiError::forbidden(
                    "only a player of this game may resign: your seat token is missing or wrong",
                ));
            };
            let p = if m.local() {
                m.to_move().unwrap_or(p)
            } else {
                p
            };
            if m.read_only {
                return Err(ApiError::game_over("the game is already over"));
            }
            if game_no != m.game_no {
                return Err(ApiError::conflict(format!(
                    "the resignation was for game {game_no} of the match, but game {} is being played; nothing was changed",
                    m.game_no
                )));
            }
            if m.game_over() {
                return Err(ApiError::game_over("the game is already over"));
            }
            let now_ply = m.game.position().ply();
            if ply != now_ply {
                return Err(ApiError::conflict(format!(
                    "the resignation was made at ply {ply}, but the game is at ply {now_ply}; nothing was changed"
                )));
            }
            let loser = m.side_of(p);
            let result = side_str(loser.other());
            let text = crate::record::forced_text(&result, "resignation");
            let t = m.transition(&result, text, Some("resignation".into()));
            let mut after = m.clone_light();
            after.forced = Some((result.clone(), "resignation".into()));
            after.updated = util::now_ms();
            after.apply_transition(t.clone());
            after.clock_settle(after.updated);
            match self
                .store
                .commit_end(m.game_no, &t, &after, &self.instance)
                .await
            {
                Ok(()) => {}
                Err(StoreError::Conflict(msg)) => {
                    self.reload_locked(&mut m).await;
                    return Err(ApiError::conflict(msg));
                }
                Err(e) => return Err(e.into()),
            }
            m.forced = Some((result, "resignation".into()));
            m.updated = after.updated;
            let next = m.record_end(t);
            m.clock = after.clock;
            self.broadcast_state(&slot, &m);
            if let Some(next) = next {
                m.start_next(next);
                m.clock = after.clock;
                self.broadcast_state(&slot, &m);
                self.arm_clock(&slot, &m);
            }
            state_string(&m, Some(p), slot.connected(), &board_svg(&m))
        };
        self.clone().schedule_computer(slot);
        Ok(out)
    }

    /// The GameState for `viewer`, as JSON text.
    pub async fn state(&self, id: &str, token: Option<&str>) -> ApiResult<String> {
        let slot = self.slot(id).await?;
        let m = slot.m.lock().await;
        let viewer = App::auth(&m, token);
        Ok(state_string(&m, viewer, slot.connected(), &board_svg(&m)))
    }

    /// The GameState of an earlier game of the match (`game_no` below the current one).
    pub async fn past_state(
        &self,
        id: &str,
        game_no: u32,
        token: Option<&str>,
    ) -> ApiResult<String> {
        let slot = self.slot(id).await?;
        let (mut view, viewer, connected) = {
            let m = slot.m.lock().await;
            if game_no == m.game_no {
                return Ok(state_string(
                    &m,
                    App::auth(&m, token),
                    slot.connected(),
                    &board_svg(&m),
                ));
            }
            let Some(r) = m.past.iter().find(|r| r.game_no == game_no).cloned() else {
                return Err(ApiError::not_found(format!(
                    "game {game_no} of this match has not been played"
                )));
            };
            let mut v = m.clone_light();
            v.current = r;
            (v, App::auth(&m, token), slot.connected())
        };
        let moves = self.store.round_moves(id, game_no).await?;
        let (game, events) =
            Match::replay(view.current.start, view.rules, &moves).map_err(ApiError::internal)?;
        view.game = game;
        view.moves = events;
        view.game_no = game_no;
        view.forced =
            crate::record::forced_of(&view.current.result, view.current.termination.as_deref());
        // Nobody moves in a finished game.
        view.read_only = true;
        view.past.retain(|r| r.game_no < game_no);
        Ok(state_string(&view, viewer, connected, &board_svg(&view)))
    }

    /// The record file of every game of the match (NOT-6).
    pub async fn record(&self, id: &str) -> ApiResult<String> {
        let slot = self.slot(id).await?;
        let (rules, format, created) = {
            let m = slot.m.lock().await;
            (m.rules, m.format, m.created)
        };
        let rounds = self.store.rounds_with_moves(id, &rules).await?;
        let date = util::record_date(created);
        let mut out = String::new();
        for (r, moves) in &rounds {
            let (game, _) = Match::replay(
                r.start,
                rules,
                &moves.iter().map(|m| (m.clone(), None)).collect::<Vec<_>>(),
            )
            .map_err(ApiError::internal)?;
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&crate::record::write_record(&crate::record::RecordOut {
                rules: &rules,
                start: &r.start,
                south: &r.south,
                north: &r.north,
                date: &date,
                result: &r.result,
                termination: r.termination.as_deref(),
                round: (format == MatchFormat::BestOfThree).then_some(r.game_no),
                moves: game.moves(),
            }));
        }
        Ok(out)
    }

    /// Tells every client of the game about a committed move: only what changed
    /// (docs/api.md, "Lean messages"); the next legal moves go to the player to move only.
    /// Called under the match lock.
    fn broadcast_move(&self, slot: &Slot, m: &Match, ev: &MoveEvent) {
        self.lobby.mark(m);
        if slot.tx.receiver_count() == 0 {
            return;
        }
        let v = slot.version.fetch_add(1, Ordering::Relaxed) + 1;
        let mut frame = m.move_frame(ev, v);
        let plain = Utf8Bytes::from(json_text(&ServerMsg::Move(&frame)));
        let mut views = [plain.clone(), plain.clone(), plain];
        if let Some(p) = m.to_move() {
            frame.legal = m.legal_moves_text();
            let with_legal = Utf8Bytes::from(json_text(&ServerMsg::Move(&frame)));
            // In pass and play the one person's sockets may be counted as either player.
            if m.local() {
                views[1] = with_legal.clone();
                views[2] = with_legal;
            } else {
                views[p + 1] = with_legal;
            }
        }
        let _ = slot.tx.send(Arc::new(Update { views }));
    }

    /// Sends the full state to every client of the game (a seat taken, a resignation, the
    /// next game of a match, another instance's change). Called under the match lock.
    pub fn broadcast_state(&self, slot: &Slot, m: &Match) {
        self.lobby.mark(m);
        if slot.tx.receiver_count() == 0 {
            return;
        }
        let v = slot.version.fetch_add(1, Ordering::Relaxed) + 1;
        let mut state = m.state(None, slot.connected(), None);
        let mut view = |p: Option<usize>| {
            state.you = p.map(|p| m.you(p));
            state.invite = if p == Some(0) { m.invite.clone() } else { None };
            Utf8Bytes::from(json_text(&ServerMsg::State { v, state: &state }))
        };
        let views = [view(None), view(Some(0)), view(Some(1))];
        let _ = slot.tx.send(Arc::new(Update { views }));
    }

    /// Tells every client that a player's browser connected or left. Called under the
    /// match lock.
    pub fn broadcast_presence(&self, slot: &Slot, m: &Match) {
        if slot.tx.receiver_count() == 0 {
            return;
        }
        let v = slot.version.fetch_add(1, Ordering::Relaxed) + 1;
        let text = Utf8Bytes::from(json_text(&ServerMsg::Presence {
            v,
            connected: m.presence(slot.connected()),
        }));
        let _ = slot.tx.send(Arc::new(Update {
            views: [text.clone(), text.clone(), text],
        }));
    }

    /// Lets the computer move if it is its turn: the search runs on a blocking thread under
    /// permits of the engine pool (live work, before reviews), never on the async workers,
    /// and its move goes through the same checks and storage as a person's.
    pub fn schedule_computer(self: Arc<Self>, slot: Arc<Slot>) {
        tokio::spawn(async move {
            let (pos, rules, level, ply, game_no, clock, history) = {
                let mut m = slot.m.lock().await;
                if m.thinking {
                    return;
                }
                let Some(level) = m.computer_to_move() else {
                    return;
                };
                m.thinking = true;
                // With a clock, the computer budgets the time left on its own clock, which
                // runs while it thinks (issue 13.3).
                let clock = m.clock_running().and_then(|p| {
                    let left = m.time_left(p, util::now_ms())?.max(0) as u64;
                    let inc = m.clock?.control.increment().max(0) as u64;
                    Some((
                        std::time::Duration::from_millis(left),
                        std::time::Duration::from_millis(inc),
                    ))
                });
                let ps = m.game.positions();
                let history = ps[..ps.len().saturating_sub(1)].to_vec();
                (
                    *m.game.position(),
                    m.rules,
                    level,
                    m.game.position().ply(),
                    m.game_no,
                    clock,
                    history,
                )
            };
            // Only a search on a clock gains from more threads; a level's node or depth
            // budget would only be shared out among them.
            let threads = if clock.is_some() {
                self.engine.search_threads()
            } else {
                1
            };
            let asked = std::time::Instant::now();
            let permit = self.engine.live(threads).await;
            // The clock ran while the move waited for the engine: budget what is left now.
            let clock = clock.map(|(left, inc)| {
                bao_engine::Clock::new(left.saturating_sub(asked.elapsed()), inc)
            });
            let seed: u64 = rand::random();
            // The permit goes with the search and comes back when it ends (or panics).
            let chosen = match permit {
                Ok(permit) => {
                    tokio::task::spawn_blocking(move || {
                        permit.run(|threads| match clock {
                            Some(c) => bao_engine::choose_move_clocked(
                                &pos, &rules, level, seed, &history, &c, threads,
                            ),
                            None => {
                                bao_engine::choose_move_in_game(&pos, &rules, level, seed, &history)
                            }
                        })
                    })
                    .await
                }
                Err(e) => {
                    slot.m.lock().await.thinking = false;
                    tracing::warn!("no computer move: {e}");
                    return;
                }
            };
            let mut m = slot.m.lock().await;
            m.thinking = false;
            let still = m.game_no == game_no
                && m.game.position().ply() == ply
                && m.computer_to_move().is_some();
            let lm = match chosen {
                Ok(Some(lm)) if still => lm,
                Ok(_) => return,
                Err(e) => {
                    tracing::error!("engine failed in game {}: {e}", m.id);
                    return;
                }
            };
            let at = util::now_ms();
            let p = m.player_on(m.game.position().side());
            if m.clock_running() == Some(p) && m.time_left(p, at).is_some_and(|l| l <= 0) {
                let flagged = self.flag_locked(&slot, &mut m).await;
                drop(m);
                if flagged {
                    self.clone().schedule_computer(slot);
                }
                return;
            }
            if let Err(e) = self.apply_locked(&slot, &mut m, lm, at).await {
                tracing::warn!("computer move in game {} not stored: {}", m.id, e.message);
                return;
            }
            drop(m);
            // The next game of a match may start with the computer to move.
            self.clone().schedule_computer(slot);
        });
    }

    /// Start-up: lets the computer move in every unfinished game where it is to move. Only
    /// those stay in memory (until the move is made); the others load on demand.
    pub async fn resume(self: &Arc<Self>) -> Result<usize, StoreError> {
        let ids = self.store.live_ids().await?;
        let mut n = 0;
        for id in ids {
            match self.store.load(&id).await {
                Ok(Some(m)) if m.computer_to_move().is_some() => {
                    let slot = self.insert(m);
                    self.clone().schedule_computer(slot);
                    n += 1;
                }
                Ok(Some(_)) => {}
                Ok(None) => {}
                Err(e) => tracing::error!("game {id} could not be loaded: {e}"),
            }
        }
        Ok(n)
    }

    /// Another server changed game `id` (PostgreSQL NOTIFY): reload it and tell our clients.
    pub async fn refresh(self: &Arc<Self>, id: &str) {
        let Some(slot) = self.cached(id) else {
            return;
        };
        let fresh = match self.store.load(id).await {
            Ok(Some(f)) => f,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!("reloading game {id}: {e}");
                return;
            }
        };
        let mut m = slot.m.lock().await;
        let thinking = m.thinking;
        let same_game = fresh.game_no == m.game_no;
        let old_len = m.moves.len();
        let new_moves: Vec<MoveEvent> = if same_game && fresh.moves.len() > old_len {
            fresh.moves[old_len..].to_vec()
        } else {
            Vec::new()
        };
        let changed = fresh.updated != m.updated
            || fresh.moves.len() != old_len
            || fresh.game_no != m.game_no
            || fresh.players[1].token_hash != m.players[1].token_hash
            || fresh.rematch != m.rematch;
        *m = fresh;
        m.thinking = thinking;
        self.arm_clock(&slot, &m);
        if !changed {
            return;
        }
        if new_moves.is_empty() {
            self.broadcast_state(&slot, &m);
        } else {
            for ev in &new_moves {
                self.broadcast_move(&slot, &m, ev);
            }
        }
    }

    /// Forgets every game in memory (tests of reloading).
    pub fn forget_all(&self) {
        if let Ok(mut g) = self.games.lock() {
            g.clear();
        }
    }
}

impl Match {
    /// A copy without the move list (which the stored summary does not need).
    pub fn clone_light(&self) -> Match {
        Match {
            id: self.id.clone(),
            rules: self.rules,
            start: self.start,
            format: self.format,
            read_only: self.read_only,
            first_side: self.first_side,
            players: self.players.clone(),
            invite: self.invite.clone(),
            game_no: self.game_no,
            wins: self.wins,
            finished: self.finished,
            past: self.past.clone(),
            current: self.current.clone(),
            game: self.game.clone(),
            moves: Vec::new(),
            forced: self.forced.clone(),
            created: self.created,
            updated: self.updated,
            thinking: false,
            clock: self.clock,
            rematch: self.rematch.clone(),
        }
    }
}

pub use crate::names::clean_name;

/// Parses the variant id.
pub fn parse_variant(s: &str) -> ApiResult<Variant> {
    Variant::from_id(s).ok_or_else(|| {
        ApiError::bad_request(format!(
            "unknown variant '{}' (kiswahili, kete or kimasai)",
            bao_rules::printable(s)
        ))
    })
}
