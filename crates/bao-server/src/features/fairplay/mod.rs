//! Fair play (docs/api.md, "Fair play"): after each rated game the engine looks at both
//! sides' moves in the background; reports; moderators who see the accounts that stand out
//! and act (warn, mark as an engine user, close), each action logged and shown to the
//! player concerned; a mark gives back every opponent's rating loss, once.
//!
//! * Analysis ([`spawn`]): the feature observes the game core; when a rated match between
//!   two accounts changes with a finished game, the task reviews each of its finished games
//!   not yet analysed (`bao_engine::review`, one engine-pool permit per ply taken like a
//!   review's, so live searches come first, on a thread at the lowest CPU priority) and
//!   stores each side's figures (`bao_engine::fairplay`). A catch-up at every safety sweep
//!   analyses what an instance stopped before analysing left (rated games of the last week,
//!   a few at a time). Figures are keyed by game and account: analysing twice stores once.
//! * Judging: an account's latest games in a variant against the figures of other
//!   players' games near its rating, on request (the moderators' queue), never stored.

mod routes;

use crate::domain::model::Match;
use crate::engine_pool::{EnginePool, Permit};
use crate::game::{Games, Observer};
use crate::store::{FollowRow, Store, StoreError};
use bao_engine::fairplay::{following, judge, Following, Norm, Verdict};
use bao_engine::review::{review_game, ReviewOptions};
use bao_engine::search::Limits;
use bao_rules::RecordResult;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

pub use routes::routes;

/// Rated games of this last week are caught up.
pub const CATCH_UP_MS: i64 = 7 * 24 * 3600 * 1000;
/// An account is judged on its latest games in a variant, at most this many.
pub const RECENT_GAMES: i64 = 20;
/// The site's figures read for a norm, at most (the latest).
pub const POPULATION: i64 = 2_000;
/// Players within this many rating points count as of the same strength.
pub const BAND: f64 = 200.0;
/// Reports one account may make in a day.
pub const REPORTS_PER_DAY: i64 = 10;

/// How hard the analysis looks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FairPlayConfig {
    /// The budget of each search (a ply takes one, or two when the move was not the best).
    pub limits: Limits,
}

impl Default for FairPlayConfig {
    /// 20,000 nodes a search, as a review's: tens of milliseconds a ply.
    fn default() -> Self {
        FairPlayConfig {
            limits: Limits::nodes(20_000),
        }
    }
}

/// The feature's state: the observer's end of the channel to the analysis task.
pub struct FairPlay {
    config: FairPlayConfig,
    tx: mpsc::Sender<String>,
    rx: Mutex<Option<mpsc::Receiver<String>>>,
}

impl FairPlay {
    /// The feature, before the games exist (it observes them).
    pub fn new(config: FairPlayConfig) -> Arc<FairPlay> {
        let (tx, rx) = mpsc::channel(1024);
        Arc::new(FairPlay {
            config,
            tx,
            rx: Mutex::new(Some(rx)),
        })
    }
}

impl Observer for FairPlay {
    fn changed(&self, m: &Match) {
        // Quick and never waits: a full channel leaves the game to the catch-up.
        let ended = m.game_over() || m.past.last().is_some_and(|_| m.moves.is_empty());
        if m.rated && ended && m.accounts.iter().all(Option::is_some) {
            let _ = self.tx.try_send(m.id.clone());
        }
    }
}

/// Starts the analysis task: the matches the observer hands over, and the catch-up at
/// every safety sweep (the first at once). Ends when the games are dropped.
pub fn spawn(
    fp: &Arc<FairPlay>,
    games: &Arc<Games>,
    engine: EnginePool,
) -> tokio::task::JoinHandle<()> {
    let rx = match fp.rx.lock() {
        Ok(mut g) => g.take(),
        Err(p) => p.into_inner().take(),
    };
    let config = fp.config;
    crate::game::observed::spawn_each_match(
        rx,
        games,
        "fair play",
        |games| async move { catch_up_ids(&games).await },
        move |games, id| {
            let engine = engine.clone();
            async move {
                analyse_match(&games, &engine, &config, &id)
                    .await
                    .map(|_| ())
            }
        },
    )
}

async fn catch_up_ids(games: &Games) -> Result<Vec<String>, StoreError> {
    let since = games.clock.now_ms() - CATCH_UP_MS;
    let mut ids: Vec<String> = games
        .store
        .unanalysed_games(since, 10)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    ids.dedup();
    Ok(ids)
}

/// Each side's figures in `game` (South's, North's), searched on a blocking thread at the
/// lowest CPU priority with one engine-pool permit a ply, as a review's (live games' searches
/// come first); `None` when the pool stopped it.
pub async fn analyse_game(
    engine: &EnginePool,
    config: &FairPlayConfig,
    game: bao_rules::Game,
) -> Option<[Following; 2]> {
    let opts = ReviewOptions {
        limits: config.limits,
        threads: 1,
        tt_bits: 18,
    };
    let pool = engine.clone();
    tokio::task::spawn_blocking(move || {
        crate::util::lower_priority();
        let stop = AtomicBool::new(false);
        let mut held: Option<Permit> = None;
        let review = review_game(&game, &opts, &mut |done, total| {
            drop(held.take());
            if done < total {
                match pool.review(&stop) {
                    Some(mut p) => {
                        p.start();
                        held = Some(p);
                    }
                    None => return false,
                }
            }
            true
        })?;
        Some([bao_rules::Side::South, bao_rules::Side::North].map(|s| following(&game, &review, s)))
    })
    .await
    .ok()
    .flatten()
}

/// Analyses every finished game of rated match `id` that has no figures yet; returns how
/// many games it analysed.
pub async fn analyse_match(
    games: &Games,
    engine: &EnginePool,
    config: &FairPlayConfig,
    id: &str,
) -> Result<usize, StoreError> {
    let store = &games.store;
    let Some(m) = store.load(id).await? else {
        return Ok(0);
    };
    let (Some(a0), Some(a1)) = (m.accounts[0].clone(), m.accounts[1].clone()) else {
        return Ok(0);
    };
    if !m.rated {
        return Ok(0);
    }
    let variant = m.rules.variant.id();
    let mut n = 0;
    for (round, moves) in store.rounds_with_moves(id, &m.rules).await? {
        if round.result == RecordResult::Unfinished
            || store.fairplay_done(id, round.game_no).await?
        {
            continue;
        }
        let mut game = bao_rules::Game::new(round.start, m.rules);
        for mv in &moves {
            if game.play_text(mv).is_err() {
                tracing::warn!(
                    "fair play: match {id} game {}: bad move {mv}",
                    round.game_no
                );
                break;
            }
        }
        let Some(sides) = analyse_game(engine, config, game).await else {
            continue;
        };
        let now = games.clock.now_ms();
        let mut rows = Vec::with_capacity(2);
        for (p, account) in [(0, &a0), (1, &a1)] {
            let side = m.side_in(p, round.game_no);
            let f = sides[side.index()];
            let rating = store.rating_of(&account.id, variant).await?.rating;
            rows.push(FollowRow {
                game_id: id.to_string(),
                game_no: round.game_no,
                account_id: account.id.clone(),
                variant: variant.to_string(),
                rating,
                moves: f.moves,
                top: f.top,
                loss_sum: f.loss_sum,
                at: now,
            });
        }
        store.record_following(&rows).await?;
        n += 1;
    }
    Ok(n)
}

fn as_following(r: &FollowRow) -> Following {
    Following {
        moves: r.moves,
        top: r.top,
        loss_sum: r.loss_sum,
    }
}

/// One account in one variant, judged.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The variant.
    pub variant: String,
    /// The account's latest games there, the latest first.
    pub games: Vec<FollowRow>,
    /// The norm it was set against: players near its rating, or the whole variant when
    /// too few of them; `None` when the site has too few games of that variant.
    pub norm: Option<Norm>,
    /// The verdict, once it has enough games and there is a norm.
    pub verdict: Option<Verdict>,
}

/// Judges `account` in `variant` (docs/api.md, "Fair play").
pub async fn judge_account(
    store: &Store,
    account: &str,
    variant: &str,
) -> Result<Judged, StoreError> {
    let games = store
        .account_following(account, variant, RECENT_GAMES)
        .await?;
    let population = store.variant_following(variant, POPULATION).await?;
    let others: Vec<&FollowRow> = population
        .iter()
        .filter(|r| r.account_id != account)
        .collect();
    let mine: Vec<Following> = games.iter().map(as_following).collect();
    let rating = if games.is_empty() {
        0.0
    } else {
        games.iter().map(|g| g.rating).sum::<f64>() / games.len() as f64
    };
    let near: Vec<Following> = others
        .iter()
        .filter(|r| (r.rating - rating).abs() <= BAND)
        .map(|r| as_following(r))
        .collect();
    let all: Vec<Following> = others.iter().map(|r| as_following(r)).collect();
    let norm = Norm::of(&near).or_else(|| Norm::of(&all));
    let verdict = norm.as_ref().and_then(|n| judge(&mine, n));
    Ok(Judged {
        variant: variant.to_string(),
        games,
        norm,
        verdict,
    })
}
