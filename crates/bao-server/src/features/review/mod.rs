//! Game review on the server (docs/review.md, docs/api.md "Review"): a bounded queue of
//! reviews, searched under the server's one engine pool.
//!
//! A review asks the engine about every ply of a finished game (`bao_engine::review`), far
//! more work than a computer move, so it must never hold up live games:
//!
//! * the jobs wait in a bounded queue ([`ReviewConfig::queue`]); when it is full a request is
//!   refused with 503 `busy` instead of piling up;
//! * a fixed number of worker threads ([`ReviewConfig::workers`], 1 by default) run them,
//!   each searching one thread; for every ply the worker takes one permit of the server's
//!   engine pool (crate::engine_pool, shared with the computer players and hints) and gives
//!   it back after that ply, and it takes none while a live search waits, so a computer
//!   move waits at most for one review ply, and reviews and live games together never run
//!   more search threads than the pool's bound;
//! * the workers run at the lowest CPU priority (nice 19 on Unix), so on a machine busy with
//!   other programs the kernel still serves live games first;
//! * each ply gets a short budget ([`ReviewConfig::limits`]);
//! * results stay in memory for the newest [`ReviewConfig::cache`] reviews (a review is
//!   cheap to make again, so it is not stored in the database);
//! * its progress (queued, running: at most one step per [`PROGRESS_EVERY`], made, failed)
//!   is published as [`Event::Review`] on the event bus (docs/architecture.md, "The event
//!   bus"); the game's sockets carry it to the pages, which no longer poll.

use crate::domain::events::{Event, ReviewProgress};
use crate::engine_pool::{EnginePool, Permit};
use bao_engine::review::{judge_move, review_game, JudgeError, Loss, PlayerSummary, ReviewOptions};
use bao_engine::search::{Limits, Score};
use bao_rules::Game;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};
use tokio::sync::mpsc;

/// A running review's progress is told at most this often (the page's bar moves at that
/// pace; every step would be an event per ply).
pub const PROGRESS_EVERY: Duration = Duration::from_millis(250);

/// How the pool works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewConfig {
    /// Worker threads (each runs one review at a time, on one search thread, with one
    /// permit of the engine pool per ply).
    pub workers: usize,
    /// Reviews waiting at most; more are refused with `busy`.
    pub queue: usize,
    /// Finished reviews kept in memory.
    pub cache: usize,
    /// The budget of each search (a ply takes one search, or two when the played move was
    /// not the best).
    pub limits: Limits,
}

impl Default for ReviewConfig {
    /// One worker, 16 waiting, 256 kept, 20,000 nodes per search (tens of milliseconds).
    fn default() -> Self {
        ReviewConfig {
            workers: 1,
            queue: 16,
            cache: 256,
            limits: Limits::nodes(20_000),
        }
    }
}

/// Which review: a game id and the game's number in its match.
pub type Key = (String, u32);

/// One reviewed ply, as the API answers it (docs/api.md, "Review").
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlyView {
    /// 1-based number of the move in the game.
    pub ply: usize,
    /// `S` or `N`: who moved.
    pub side: &'static str,
    /// The move played (canonical, NOT-1).
    #[serde(rename = "move")]
    pub mv: String,
    /// The best move found.
    pub best: String,
    /// Centi-seeds lost (an integer >= 0), or `"win"` / `"loss"` for a forced result thrown
    /// away or walked into.
    pub loss: LossView,
    /// `-`, `?!`, `?` or `??`.
    pub mark: &'static str,
    /// The best move's score for the mover: `cp N`, `win N` or `loss N` (plies).
    pub score: String,
    /// The evaluation after the played move for South, in centi-seeds (forced results as
    /// ±2000): the evaluation graph's point.
    pub eval: i32,
    /// The best line, starting with `best`.
    pub pv: Vec<String>,
}

/// A practice try judged (docs/api.md, "Learning from mistakes"): the ply as a review shows
/// it, with the tried move in place of the one played, and whether it counts as found.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct TryView {
    /// The try, judged like a reviewed ply.
    #[serde(flatten)]
    pub ply: PlyView,
    /// The try loses less than an inaccuracy (mark `-`): a better move was found.
    pub good: bool,
}

/// Why a try was not judged.
#[derive(Debug)]
pub enum TryError {
    /// No such move number, or a move that is not legal there.
    Judge(JudgeError),
    /// The engine could not run it.
    Engine(String),
}

/// A loss: a number or a word.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(untagged)]
pub enum LossView {
    /// Centi-seeds.
    Cp(u32),
    /// `win` or `loss`.
    Proven(&'static str),
}

/// One player's totals.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct SummaryView {
    /// Moves made.
    pub moves: usize,
    /// Average loss per move in centi-seeds.
    pub average_loss: u32,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
}

impl From<&PlayerSummary> for SummaryView {
    fn from(s: &PlayerSummary) -> Self {
        SummaryView {
            moves: s.moves,
            average_loss: s.average_loss,
            inaccuracies: s.inaccuracies,
            mistakes: s.mistakes,
            blunders: s.blunders,
        }
    }
}

/// Per side.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct BySide {
    /// South.
    #[serde(rename = "S")]
    pub south: SummaryView,
    /// North.
    #[serde(rename = "N")]
    pub north: SummaryView,
}

/// Where a review is (docs/api.md): the body of both review calls.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
#[serde(tag = "state", rename_all = "lowercase")]
pub enum ReviewStatus {
    /// Nobody has asked for it (or it left the cache).
    #[serde(rename = "none")]
    NotAsked {
        /// The game's number in its match.
        game_no: u32,
    },
    /// Waiting; `ahead` reviews come first.
    Queued {
        /// The game's number in its match.
        game_no: u32,
        /// Reviews before this one.
        ahead: usize,
    },
    /// Being made.
    Running {
        /// The game's number in its match.
        game_no: u32,
        /// Plies done.
        done: usize,
        /// Plies in all.
        total: usize,
    },
    /// Made.
    Done {
        /// The game's number in its match.
        game_no: u32,
        /// Every ply.
        plies: Arc<Vec<PlyView>>,
        /// Totals per player.
        summary: BySide,
    },
    /// The engine failed (a bug): asking again tries again.
    Failed {
        /// The game's number in its match.
        game_no: u32,
    },
}

impl ReviewStatus {
    /// Made (or failed): nothing more will change.
    pub fn finished(&self) -> bool {
        matches!(
            self,
            ReviewStatus::Done { .. } | ReviewStatus::Failed { .. }
        )
    }
}

/// Why a review was not queued.
#[derive(Debug, PartialEq, Eq)]
pub enum SubmitError {
    /// The queue is full.
    Busy,
}

struct Job {
    key: Key,
    game: Game,
}

#[derive(Default)]
struct State {
    queue: VecDeque<Job>,
    status: HashMap<Key, ReviewStatus>,
    /// Finished reviews, oldest first (the cache's eviction order).
    finished: VecDeque<Key>,
    closed: bool,
}

struct Shared {
    state: Mutex<State>,
    wake: Condvar,
    config: Mutex<ReviewConfig>,
    /// The server's engine pool: one permit per ply.
    engine: EnginePool,
    /// Set when the pool is dropped: workers waiting for a permit give up.
    stop: AtomicBool,
    /// Where progress goes to be published ([`ReviewPool::news`]), once someone takes it.
    news: Mutex<Option<mpsc::UnboundedSender<(Key, ReviewProgress)>>>,
}

impl Shared {
    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }
    fn config(&self) -> ReviewConfig {
        *self.config.lock().unwrap_or_else(|p| p.into_inner())
    }
    /// Hands the progress of `key` to the publisher (never waits: called from the workers).
    fn tell(&self, key: &Key, progress: ReviewProgress) {
        if let Some(tx) = &*self.news.lock().unwrap_or_else(|p| p.into_inner()) {
            let _ = tx.send((key.clone(), progress));
        }
    }
}

/// The review workers and their queue and results. Dropping it stops the workers after
/// the ply they are searching.
pub struct ReviewPool {
    shared: Arc<Shared>,
}

impl ReviewPool {
    /// A pool with its worker threads started, searching under `engine`'s permits.
    pub fn new(config: ReviewConfig, engine: EnginePool) -> ReviewPool {
        let shared = Arc::new(Shared {
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            config: Mutex::new(config),
            engine,
            stop: AtomicBool::new(false),
            news: Mutex::new(None),
        });
        for n in 0..config.workers.max(1) {
            let s = shared.clone();
            let spawned = std::thread::Builder::new()
                .name(format!("bao-review-{n}"))
                .spawn(move || worker(s));
            if let Err(e) = spawned {
                tracing::error!("cannot start a review worker: {e}");
            }
        }
        ReviewPool { shared }
    }

    /// The reviews' progress from now on, for [`publish`] to put on the event bus.
    pub fn news(&self) -> mpsc::UnboundedReceiver<(Key, ReviewProgress)> {
        let (tx, rx) = mpsc::unbounded_channel();
        *self.shared.news.lock().unwrap_or_else(|p| p.into_inner()) = Some(tx);
        rx
    }

    /// Changes the budget, queue length and cache size for reviews asked for from now on
    /// (tests use a depth limit); the number of workers stays as it was made.
    pub fn configure(&self, f: impl FnOnce(&mut ReviewConfig)) {
        f(&mut self.shared.config.lock().unwrap_or_else(|p| p.into_inner()));
    }

    /// Judges `candidate` in place of move `number` of `game` (a practice try at a mistake),
    /// with the reviews' budget, under one live permit of the engine pool: a player waits
    /// for a try as for a hint, not behind the queue of whole reviews.
    pub async fn try_move(
        &self,
        game: Game,
        number: usize,
        candidate: String,
    ) -> Result<TryView, TryError> {
        let opts = ReviewOptions {
            limits: self.shared.config().limits,
            threads: 1,
            tt_bits: 16,
        };
        let permit = self
            .shared
            .engine
            .live(1)
            .await
            .map_err(|e| TryError::Engine(e.to_string()))?;
        let judged = tokio::task::spawn_blocking(move || {
            permit.run(|_| judge_move(&game, number, &candidate, &opts))
        })
        .await
        .map_err(|e| TryError::Engine(e.to_string()))?
        .map_err(TryError::Judge)?;
        let good = judged.mark == bao_engine::review::Mark::Good;
        Ok(TryView {
            ply: ply_view(&judged),
            good,
        })
    }

    /// Where the review of `key` is, if it was asked for (and is still cached).
    pub fn status(&self, key: &Key) -> Option<ReviewStatus> {
        let st = self.shared.lock();
        let s = st.status.get(key)?;
        Some(match s {
            ReviewStatus::Queued { game_no, .. } => ReviewStatus::Queued {
                game_no: *game_no,
                ahead: st.queue.iter().take_while(|j| &j.key != key).count(),
            },
            other => other.clone(),
        })
    }

    /// Asks for the review of `key`, the finished `game`: queued unless it is already
    /// queued, running or made (then its status is answered as it is). A failed review is
    /// tried again.
    pub fn submit(&self, key: Key, game: Game) -> Result<ReviewStatus, SubmitError> {
        {
            let mut st = self.shared.lock();
            match st.status.get(&key) {
                Some(ReviewStatus::Failed { .. } | ReviewStatus::NotAsked { .. }) | None => {}
                Some(_) => {
                    drop(st);
                    return self.status(&key).ok_or(SubmitError::Busy);
                }
            }
            if st.queue.len() >= self.shared.config().queue.max(1) {
                return Err(SubmitError::Busy);
            }
            st.finished.retain(|k| k != &key);
            st.status.insert(
                key.clone(),
                ReviewStatus::Queued {
                    game_no: key.1,
                    ahead: 0,
                },
            );
            st.queue.push_back(Job {
                key: key.clone(),
                game,
            });
        }
        self.shared.wake.notify_one();
        let status = self.status(&key).ok_or(SubmitError::Busy)?;
        if let ReviewStatus::Queued { ahead, .. } = status {
            self.shared.tell(&key, ReviewProgress::Queued { ahead });
        }
        Ok(status)
    }

    /// Reviews waiting in the queue, and reviews being made.
    pub fn load(&self) -> ReviewLoad {
        let st = self.shared.lock();
        ReviewLoad {
            queued: st.queue.len(),
            running: st
                .status
                .values()
                .filter(|s| matches!(s, ReviewStatus::Running { .. }))
                .count(),
        }
    }
}

/// Publishes the progress of `pool`'s reviews as [`Event::Review`] until the pool is dropped:
/// what came meanwhile goes as one batch, only the latest step of each review.
pub fn publish(pool: &ReviewPool, store: crate::store::Store) -> tokio::task::JoinHandle<()> {
    let mut rx = pool.news();
    tokio::spawn(async move {
        while let Some(first) = rx.recv().await {
            let mut latest: Vec<(Key, ReviewProgress)> = vec![first];
            while let Ok((k, p)) = rx.try_recv() {
                match latest.iter_mut().find(|(lk, _)| lk == &k) {
                    Some(e) => e.1 = p,
                    None => latest.push((k, p)),
                }
            }
            let events = latest
                .into_iter()
                .map(|((game, game_no), progress)| Event::Review {
                    game,
                    game_no,
                    progress,
                })
                .collect();
            if let Err(e) = store.publish(events).await {
                tracing::warn!("a review's progress was not published: {e}");
            }
        }
    })
}

/// How many reviews wait and run (`GET /api/health`, `"reviews"`).
#[derive(Clone, Copy, Debug, Default, Serialize, PartialEq, Eq)]
pub struct ReviewLoad {
    /// Waiting in the queue.
    pub queued: usize,
    /// Being made.
    pub running: usize,
}

impl Drop for ReviewPool {
    fn drop(&mut self) {
        self.shared.lock().closed = true;
        self.shared.wake.notify_all();
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.engine.wake_reviews();
    }
}

fn worker(shared: Arc<Shared>) {
    crate::util::lower_priority();
    loop {
        let job = {
            let mut st = shared.lock();
            loop {
                if st.closed {
                    return;
                }
                if let Some(j) = st.queue.pop_front() {
                    let total = j.game.moves().len();
                    st.status.insert(
                        j.key.clone(),
                        ReviewStatus::Running {
                            game_no: j.key.1,
                            done: 0,
                            total,
                        },
                    );
                    break j;
                }
                st = shared.wake.wait(st).unwrap_or_else(|p| p.into_inner());
            }
        };
        let config = shared.config();
        let opts = ReviewOptions {
            limits: config.limits,
            threads: 1,
            tt_bits: 18,
        };
        let key = job.key.clone();
        let mut told: Option<Instant> = None;
        let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            // The permit of the ply being searched: taken before each ply, given back after
            // it (and while unwinding if the engine panics).
            let mut held: Option<Permit> = None;
            review_game(&job.game, &opts, &mut |done, total| {
                drop(held.take());
                {
                    let mut st = shared.lock();
                    if st.closed {
                        return false;
                    }
                    st.status.insert(
                        key.clone(),
                        ReviewStatus::Running {
                            game_no: key.1,
                            done,
                            total,
                        },
                    );
                }
                if told.is_none_or(|t| t.elapsed() >= PROGRESS_EVERY) {
                    told = Some(Instant::now());
                    shared.tell(&key, ReviewProgress::Running { done, total });
                }
                if done < total {
                    // Waits while live searches wait or every permit is taken.
                    match shared.engine.review(&shared.stop) {
                        Some(mut p) => {
                            p.start();
                            held = Some(p);
                        }
                        None => return false,
                    }
                }
                true
            })
        }));
        let status = match run {
            Ok(None) => return,
            Ok(Some(r)) => ReviewStatus::Done {
                game_no: key.1,
                plies: Arc::new(r.plies.iter().map(ply_view).collect()),
                summary: BySide {
                    south: (&r.south).into(),
                    north: (&r.north).into(),
                },
            },
            Err(_) => {
                tracing::error!("the review of game {} {} failed", key.0, key.1);
                ReviewStatus::Failed { game_no: key.1 }
            }
        };
        let progress = if matches!(status, ReviewStatus::Done { .. }) {
            ReviewProgress::Done
        } else {
            ReviewProgress::Failed
        };
        {
            let mut st = shared.lock();
            st.status.insert(key.clone(), status);
            st.finished.push_back(key.clone());
            while st.finished.len() > config.cache.max(1) {
                if let Some(old) = st.finished.pop_front() {
                    st.status.remove(&old);
                }
            }
        }
        // Told only once its result is there: a page reads the review on `done`, and a read
        // that found it still running would wait for a message that never comes.
        shared.tell(&key, progress);
    }
}

fn ply_view(p: &bao_engine::review::PlyReview) -> PlyView {
    PlyView {
        ply: p.number,
        side: if p.side == bao_rules::Side::South {
            "S"
        } else {
            "N"
        },
        mv: p.played.to_string(),
        best: p.best.to_string(),
        loss: match p.loss {
            Loss::Cp(c) => LossView::Cp(c),
            Loss::Win => LossView::Proven("win"),
            Loss::Loss => LossView::Proven("loss"),
        },
        mark: p.mark.as_str(),
        score: score_text(p.best_score),
        eval: p.south_after(),
        pv: p.pv.iter().map(|m| m.to_string()).collect(),
    }
}

fn score_text(s: Score) -> String {
    s.to_string()
}

/// The HTTP side: `POST /api/games/{id}/review` and `GET /api/games/{id}/review`.
pub mod routes {
    use super::{Key, ReviewPool, ReviewStatus, SubmitError, TryError};
    use crate::edge::body::{Json as JsonBody, JsonOrEmpty};
    use crate::edge::limit::{limit, Action};
    use crate::error::{ApiError, ApiResult, Category};
    use crate::game::Games;
    use axum::extract::{Path, Query, State};
    use axum::http::StatusCode;
    use axum::response::{IntoResponse, Response};
    use axum::routing::post;
    use axum::{Json, Router};
    use std::collections::HashMap;
    use std::sync::Arc;

    /// The review's state as its routes see it.
    #[derive(Clone)]
    struct Reviews {
        games: Arc<Games>,
        pool: Arc<ReviewPool>,
    }

    /// The review's routes.
    pub fn routes(games: Arc<Games>, pool: Arc<ReviewPool>) -> Router {
        // The progress goes out on the bus while the routes' runtime runs.
        if tokio::runtime::Handle::try_current().is_ok() {
            super::publish(&pool, games.store.clone());
        }
        Router::new()
            .route("/api/games/{id}/review", post(submit).get(status))
            // A practice try costs two short searches: limited as moves are.
            .route(
                "/api/games/{id}/review/try",
                post(try_move).layer(limit(Action::Move)),
            )
            .with_state(Reviews { games, pool })
    }

    /// The body of the POST: which game of the match (by default the current or last one).
    #[derive(serde::Deserialize, Default)]
    #[serde(deny_unknown_fields)]
    struct ReviewRequest {
        game_no: Option<u32>,
    }

    /// The game number asked for, or the match's current (or last) game.
    async fn key_for(app: &Games, id: &str, game_no: Option<u32>) -> ApiResult<(Key, u32)> {
        let slot = app.slot(id).await?;
        let current = slot.m.lock().await.game_no;
        let g = game_no.unwrap_or(current);
        if g == 0 || g > current {
            return Err(ApiError::not_found(format!(
                "this match has no game {g} (games 1 to {current})"
            )));
        }
        Ok(((id.to_string(), g), current))
    }

    /// The finished game `g` of the match, replayed by the rules.
    async fn finished_game(app: &Games, id: &str, g: u32) -> ApiResult<bao_rules::Game> {
        let slot = app.slot(id).await?;
        let rules = slot.m.lock().await.rules;
        let rounds = app.store.rounds_with_moves(id, &rules).await?;
        let (round, moves) = rounds
            .into_iter()
            .find(|(r, _)| r.game_no == g)
            .ok_or_else(|| ApiError::not_found(format!("this match has no game {g}")))?;
        if round.result == bao_rules::RecordResult::Unfinished {
            return Err(ApiError::conflict(
                "this game is not over yet; a game is reviewed once it has ended",
            ));
        }
        let mut game = bao_rules::Game::new(round.start, rules);
        for m in &moves {
            game.play_text(m)
                .map_err(|e| ApiError::internal(format!("stored move {m}: {e}")))?;
        }
        Ok(game)
    }

    fn answer(status: ReviewStatus, code: StatusCode) -> Response {
        (code, Json(status)).into_response()
    }

    /// `POST /api/games/{id}/review {"game_no": G}`: queues the review of a finished game.
    async fn submit(
        State(r): State<Reviews>,
        Path(id): Path<String>,
        JsonOrEmpty(req): JsonOrEmpty<ReviewRequest>,
    ) -> ApiResult<Response> {
        let (key, _) = key_for(&r.games, &id, req.game_no).await?;
        if let Some(s) = r.pool.status(&key) {
            if !matches!(
                s,
                ReviewStatus::Failed { .. } | ReviewStatus::NotAsked { .. }
            ) {
                let code = if s.finished() {
                    StatusCode::OK
                } else {
                    StatusCode::ACCEPTED
                };
                return Ok(answer(s, code));
            }
        }
        let game = finished_game(&r.games, &id, key.1).await?;
        match r.pool.submit(key, game) {
            Ok(s) => {
                let code = if s.finished() {
                    StatusCode::OK
                } else {
                    StatusCode::ACCEPTED
                };
                Ok(answer(s, code))
            }
            Err(SubmitError::Busy) => Err(ApiError::of(
                Category::Busy,
                "the server is reviewing many games; please ask again in a minute",
            )),
        }
    }

    /// The body of a practice try.
    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct TryRequest {
        game_no: Option<u32>,
        ply: usize,
        #[serde(rename = "move")]
        mv: String,
    }

    /// `POST /api/games/{id}/review/try {"game_no", "ply", "move"}`: judges `move` played
    /// instead of move `ply` of a finished game, as the review judges the moves played.
    async fn try_move(
        State(r): State<Reviews>,
        Path(id): Path<String>,
        JsonBody(req): JsonBody<TryRequest>,
    ) -> ApiResult<Response> {
        if req.mv.len() > 32 {
            return Err(ApiError::bad_request(
                "a move is a few characters, such as A7L*",
            ));
        }
        let (key, _) = key_for(&r.games, &id, req.game_no).await?;
        let game = finished_game(&r.games, &id, key.1).await?;
        match r.pool.try_move(game, req.ply, req.mv).await {
            Ok(v) => Ok((StatusCode::OK, Json(v)).into_response()),
            Err(TryError::Judge(bao_engine::review::JudgeError::NoSuchPly { number, total })) => {
                Err(ApiError::not_found(format!(
                    "this game has no move {number} (moves 1 to {total})"
                )))
            }
            Err(TryError::Judge(bao_engine::review::JudgeError::Move(e))) => Err(ApiError::of(
                Category::BadMove,
                format!("that move cannot be played there: {e}"),
            )),
            Err(TryError::Engine(e)) => Err(ApiError::internal(e)),
        }
    }

    /// `GET /api/games/{id}/review?game_no=G`: the review's progress or result.
    async fn status(
        State(r): State<Reviews>,
        Path(id): Path<String>,
        Query(q): Query<HashMap<String, String>>,
    ) -> ApiResult<Response> {
        let game_no = match q.get("game_no") {
            None => None,
            Some(s) => Some(s.parse::<u32>().map_err(|_| {
                ApiError::bad_request(format!(
                    "game_no must be a game number, not '{}'",
                    bao_rules::printable(s)
                ))
            })?),
        };
        let (key, _) = key_for(&r.games, &id, game_no).await?;
        let s = r
            .pool
            .status(&key)
            .unwrap_or(ReviewStatus::NotAsked { game_no: key.1 });
        Ok(answer(s, StatusCode::OK))
    }
}
