//! Play features of issue 11 on top of [`App`]: the clock's timer and the loss on time
//! (11.2), rematch (11.3), takeback and hint against the computer (11.5). Pass and play
//! (11.4) lives in [`App::auth`] and [`Match::local`].

use crate::app::{board_svg, side_str, state_string, App, Slot};
use crate::error::{ApiError, ApiResult};
use crate::model::{Match, Round};
use crate::store::StoreError;
use crate::util;
use bao_rules::Side;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex as StdMutex};
use std::time::Duration;

/// The longest a hint searches.
pub const HINT_TIME: Duration = Duration::from_millis(700);
/// The level whose search (evaluation, table size) gives hints.
const HINT_LEVEL: u8 = bao_engine::MAX_LEVEL;

/// Bounds of a time control (issue 11.2): a real-time game gets 0.1 s (bullet tests and
/// drills; the page offers minutes) to 3 h and an increment of at most 10 min; a
/// correspondence game 1 to 14 days per move.
pub const MIN_INITIAL_MS: i64 = 100;
/// See [`MIN_INITIAL_MS`].
pub const MAX_INITIAL_MS: i64 = 3 * 3600 * 1000;
/// See [`MIN_INITIAL_MS`].
pub const MAX_INCREMENT_MS: i64 = 600_000;
/// See [`MIN_INITIAL_MS`].
pub const MAX_DAYS: i64 = 14;

/// Stops a hint's search when the request that asked for it ends or is dropped.
#[derive(Default)]
struct Cancel {
    cancelled: Arc<AtomicBool>,
    /// The search's stop flag, once the search is set up.
    stop: Arc<StdMutex<Option<Arc<AtomicBool>>>>,
}

impl Drop for Cancel {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(s) = &*self.stop.lock().unwrap_or_else(|p| p.into_inner()) {
            s.store(true, Ordering::SeqCst);
        }
    }
}

/// The answer of `GET /api/games/{id}/hint`.
#[derive(Debug, serde::Serialize)]
pub struct Hint {
    /// The best move found, canonical (NOT-1).
    #[serde(rename = "move")]
    pub mv: String,
    /// Its score for the side to move: `cp N` (centi-seeds), `win N` or `loss N` (plies),
    /// as the engine protocol writes it.
    pub score: String,
}

impl App {
    /// Starts a timer that ends the game on time when the running clock runs out (if no
    /// change comes first; a stale timer finds nothing to do). It holds neither the game nor
    /// the server, so it keeps nothing in memory.
    pub fn arm_clock(&self, slot: &Arc<Slot>, m: &Match) {
        let Some(deadline) = m.clock_deadline() else {
            return;
        };
        let (app, slot) = (self.me(), Arc::downgrade(slot));
        tokio::spawn(async move {
            let wait = (deadline - util::now_ms()).max(0) as u64 + 1;
            tokio::time::sleep(Duration::from_millis(wait)).await;
            let (Some(app), Some(slot)) = (app.upgrade(), slot.upgrade()) else {
                return;
            };
            app.check_clock(slot).await;
        });
    }

    /// Ends the game on time if the running clock has run out; then lets the computer start
    /// the next game of a match if it is to move. Returns whether this call ended it.
    pub async fn check_clock(self: Arc<Self>, slot: Arc<Slot>) -> bool {
        let flagged = {
            let mut m = slot.m.lock().await;
            self.flag_locked(&slot, &mut m).await
        };
        if flagged {
            self.schedule_computer(slot);
        }
        flagged
    }

    /// The loss on time (NOT-6.2 `Termination "time"`): if the player to move has no time
    /// left, the other side wins the current game. Stored only if the database agrees (one
    /// instance of several records it; the others reload). Returns whether this call ended it.
    pub(crate) async fn flag_locked(&self, slot: &Arc<Slot>, m: &mut Match) -> bool {
        let now = util::now_ms();
        let Some(p) = m.clock_running() else {
            return false;
        };
        if m.time_left(p, now).is_none_or(|l| l > 0) {
            return false;
        }
        let result = side_str(m.side_of(p).other());
        let text = crate::record::forced_text(&result, "time");
        let t = m.transition(&result, text, Some("time".into()));
        let mut after = m.clone_light();
        after.forced = Some((result.clone(), "time".into()));
        after.updated = now;
        if let Some(c) = after.clock.as_mut() {
            c.left[p] = 0;
        }
        after.apply_transition(t.clone());
        after.clock_settle(now);
        let ply = m.game.position().ply();
        match self
            .store
            .commit_flag(ply, now, m.game_no, &t, &after, &self.instance)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                // Another instance recorded it, or a move came first.
                self.reload_locked(m).await;
                self.broadcast_state(slot, m);
                self.arm_clock(slot, m);
                return false;
            }
            Err(e) => {
                tracing::warn!("loss on time in game {} not stored: {e}", m.id);
                return false;
            }
        }
        self.time_losses
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        m.forced = after.forced.clone();
        m.updated = now;
        let next = m.record_end(t);
        m.clock = after.clock;
        self.broadcast_state(slot, m);
        if let Some(next) = next {
            m.start_next(next);
            m.clock = after.clock;
            self.broadcast_state(slot, m);
            self.arm_clock(slot, m);
        }
        true
    }

    /// Takes back the player's last move and the computer's reply (issue 11.5): game
    /// `game_no` at ply `ply` as the player saw it, against the computer, which must not be
    /// thinking. Answers the new GameState.
    pub async fn takeback(
        self: &Arc<Self>,
        id: &str,
        player: Option<usize>,
        game_no: u32,
        ply: u32,
    ) -> ApiResult<String> {
        let slot = self.slot(id).await?;
        let mut m = slot.m.lock().await;
        let Some(p) = player else {
            return Err(ApiError::forbidden(
                "only a player of this game may take a move back: your seat token is missing or wrong",
            ));
        };
        if m.players[1 - p].kind != crate::model::PlayerKind::Computer {
            return Err(ApiError::conflict(
                "moves can be taken back only in a game against the computer",
            ));
        }
        if game_no != m.game_no {
            return Err(ApiError::conflict(format!(
                "the takeback was for game {game_no} of the match, but game {} is being played; nothing was changed",
                m.game_no
            )));
        }
        let now_ply = m.game.position().ply();
        if ply != now_ply {
            return Err(ApiError::conflict(format!(
                "the takeback was asked at ply {ply}, but the game is at ply {now_ply}; nothing was changed"
            )));
        }
        if m.read_only || m.game_over() {
            return Err(ApiError::game_over("the game is over"));
        }
        if m.thinking {
            return Err(ApiError::conflict(
                "the computer is thinking; take the move back once it has answered",
            ));
        }
        let mine = m.side_of(p).letter().to_string();
        let Some(last) = m.moves.iter().rposition(|e| e.by == mine) else {
            return Err(ApiError::conflict("you have no move to take back yet"));
        };
        // The position before the player's last move: replay what stays.
        let keep: Vec<(String, Option<String>)> = m.moves[..last]
            .iter()
            .map(|e| (e.mv.clone(), None))
            .collect();
        let (game, events) =
            Match::replay(m.current.start, m.rules, &keep).map_err(ApiError::internal)?;
        let to_ply = game.position().ply();
        let now = util::now_ms();
        let mut after = m.clone_light();
        // The player's clock ran since the computer's reply: that time stays spent.
        if let (Some(left), Some(c)) = (m.time_left(p, now), after.clock.as_mut()) {
            if m.clock_running() == Some(p) {
                c.left[p] = left;
            }
        }
        after.game = game.clone();
        after.updated = now;
        after.clock_settle(now);
        match self
            .store
            .commit_takeback(m.game_no, now_ply, to_ply, &after, &self.instance)
            .await
        {
            Ok(()) => {}
            Err(StoreError::Conflict(msg)) => {
                self.reload_locked(&mut m).await;
                self.broadcast_state(&slot, &m);
                return Err(ApiError::conflict(msg));
            }
            Err(e) => return Err(e.into()),
        }
        m.game = game;
        m.moves = events;
        m.updated = now;
        m.clock = after.clock;
        self.broadcast_state(&slot, &m);
        self.arm_clock(&slot, &m);
        Ok(state_string(&m, Some(p), slot.connected(), &board_svg(&m)))
    }

    /// The engine's best move for the player to move, who must be the caller (issue 11.5):
    /// only in games against the computer and pass and play, where no opponent is helped.
    /// Searches under permits of the engine pool, like the computer players; a request
    /// dropped mid-search (the client went away) stops its search.
    pub async fn hint(&self, id: &str, token: Option<&str>) -> ApiResult<Hint> {
        let slot = self.slot(id).await?;
        let (pos, rules, history) = {
            let m = slot.m.lock().await;
            let Some(p) = App::auth(&m, token) else {
                return Err(ApiError::forbidden(
                    "only a player of this game may ask for a hint: your seat token is missing or wrong",
                ));
            };
            let vs_computer = m.players[1 - p].kind == crate::model::PlayerKind::Computer;
            if !vs_computer && !m.local() {
                return Err(ApiError::conflict(
                    "hints are given only in games against the computer and pass and play",
                ));
            }
            if m.to_move() != Some(p) {
                return Err(if m.to_move().is_none() {
                    ApiError::game_over("the game is over")
                } else {
                    ApiError::not_your_turn(
                        "a hint is for the player to move, and it is not your turn",
                    )
                });
            }
            let ps = m.game.positions();
            (
                *m.game.position(),
                m.rules,
                ps[..ps.len().saturating_sub(1)].to_vec(),
            )
        };
        let hint = self.engine.config().hint;
        let permit = self
            .engine
            .live(self.engine.search_threads())
            .await
            .map_err(ApiError::internal)?;
        let cancel = Cancel::default();
        let (cancelled, stop_slot) = (cancel.cancelled.clone(), cancel.stop.clone());
        // The permit goes with the search: it comes back when the search has ended, also
        // when this request is dropped first (then `cancel` stops the search).
        let r = tokio::task::spawn_blocking(move || {
            permit.run(|threads| {
                let l = bao_engine::Level::get(HINT_LEVEL);
                let mut s = l.searcher(&rules);
                s.set_threads(threads);
                s.set_history(&history);
                let stop = s.stop_flag();
                *stop_slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(stop.clone());
                if cancelled.load(Ordering::SeqCst) {
                    return None;
                }
                let limits = hint.unwrap_or(bao_engine::Limits {
                    time: Some(HINT_TIME),
                    ..l.limits_for(rules.variant)
                });
                // The search clears its stop flag as it begins: a cancellation that came
                // just then is seen after the first iteration.
                Some(s.search_root(&pos, limits, &mut |_| {
                    if cancelled.load(Ordering::SeqCst) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }))
            })
        })
        .await
        .map_err(ApiError::internal)?;
        drop(cancel);
        let best = r
            .and_then(|r| r.best.map(|b| (b, r.score)))
            .ok_or_else(|| ApiError::game_over("the game is over"))?;
        let (best, score) = best;
        Ok(Hint {
            mv: best.mv.to_string(),
            score: score.to_string(),
        })
    }

    /// The rematch of a finished match (issue 11.3): same variant, rules, start and clock,
    /// each player on the other side. The first seat holder to ask creates it; the other
    /// (and any repeated call) gets the same game. Answers its id.
    pub async fn rematch(self: &Arc<Self>, id: &str, player: Option<usize>) -> ApiResult<String> {
        let slot = self.slot(id).await?;
        let mut m = slot.m.lock().await;
        let Some(p) = player else {
            return Err(ApiError::forbidden(
                "only a player of this game may ask for a rematch: your seat token is missing or wrong",
            ));
        };
        if let Some((r, _)) = &m.rematch {
            return Ok(r.clone());
        }
        if m.read_only || !m.finished {
            return Err(ApiError::conflict(
                "a rematch can be asked for once the game is over",
            ));
        }
        let now = util::now_ms();
        // Player 0 keeps that number; the sides are swapped relative to the last game.
        let first_side = m.side_of(0).other();
        let players = m.players.clone();
        let invite = (players[1].kind == crate::model::PlayerKind::Human
            && players[1].token_hash.is_none())
        .then(|| util::random_code(16));
        let (south, north) = if first_side == Side::South {
            (players[0].name.clone(), players[1].name.clone())
        } else {
            (players[1].name.clone(), players[0].name.clone())
        };
        let round = Round {
            game_no: 1,
            start: m.start,
            south,
            north,
            result: "-".into(),
            result_text: None,
            termination: None,
        };
        let mut new = Match {
            id: util::new_game_id(),
            rules: m.rules,
            start: m.start,
            format: m.format,
            read_only: false,
            first_side,
            players,
            invite,
            game_no: 1,
            wins: [0, 0],
            finished: false,
            past: Vec::new(),
            current: round,
            game: bao_rules::Game::new(m.start, m.rules),
            moves: Vec::new(),
            forced: None,
            created: now,
            updated: now,
            thinking: false,
            clock: m.clock.map(|mut c| {
                c.left = [c.control.initial(); 2];
                c.since = None;
                c
            }),
            rematch: None,
        };
        new.clock_settle(now);
        match self.store.commit_rematch(id, p, &new, &self.instance).await {
            Ok(()) => {}
            Err(StoreError::Conflict(_)) => {
                // Another instance made it first (or, rarely, the new id clashed: then the
                // reload finds no rematch and the player asks again).
                self.reload_locked(&mut m).await;
                self.broadcast_state(&slot, &m);
                return m.rematch.as_ref().map(|r| r.0.clone()).ok_or_else(|| {
                    ApiError::conflict("the rematch could not be created; ask again")
                });
            }
            Err(e) => return Err(e.into()),
        }
        let new_id = new.id.clone();
        m.rematch = Some((new_id.clone(), p));
        m.updated = now;
        self.broadcast_state(&slot, &m);
        drop(m);
        self.lobby.mark(&new);
        let nslot = self.insert(new);
        if let Ok(n) = nslot.m.try_lock() {
            self.arm_clock(&nslot, &n);
        }
        self.clone().schedule_computer(nslot);
        Ok(new_id)
    }
}

/// Checks a time control from `POST /api/games` (issue 11.2).
pub fn check_clock(c: &crate::model::TimeControl) -> ApiResult<()> {
    use crate::model::TimeControl;
    match *c {
        TimeControl::Real {
            initial_ms,
            increment_ms,
        } => {
            if !(MIN_INITIAL_MS..=MAX_INITIAL_MS).contains(&initial_ms) {
                return Err(ApiError::bad_request(format!(
                    "clock.initial_ms is the time per player in milliseconds, from {MIN_INITIAL_MS} to {MAX_INITIAL_MS} (3 hours)"
                )));
            }
            if !(0..=MAX_INCREMENT_MS).contains(&increment_ms) {
                return Err(ApiError::bad_request(format!(
                    "clock.increment_ms is the time added after each move in milliseconds, from 0 to {MAX_INCREMENT_MS} (10 minutes)"
                )));
            }
        }
        TimeControl::Days { days_per_move } => {
            if !(1..=MAX_DAYS).contains(&days_per_move) {
                return Err(ApiError::bad_request(format!(
                    "clock.days_per_move is from 1 to {MAX_DAYS}"
                )));
            }
        }
    }
    Ok(())
}
