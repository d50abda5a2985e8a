//! Puzzles from the site's own games (docs/api.md, "Puzzles"): after each finished game the
//! engine examines every position of it in the background with bao-engine's miner, the
//! proofs and the "not trivial" rule of `bao puzzles mine --from`, and stores what it finds
//! (store: `site_puzzles`, migration 0024); the catalogue serves them after the embedded
//! ones, on every instance.
//!
//! * Mining ([`spawn`]): the observer hands over each match that changed with a finished
//!   game; a catch-up at every safety sweep takes the finished games of the last week that
//!   no instance claimed (one stopped before mining) or whose claim ran out. A game is
//!   claimed before it is mined, so that it is mined once across instances; a claim is a
//!   lease ([`crate::store::CLAIM_LEASE_MS`]), so a game whose instance stopped mid-way is
//!   mined by another after it. Each position takes one engine-pool permit as a review's
//!   ply does, so live searches come first, on a thread at the lowest CPU priority. Only games under their variant's default rules are mined (the puzzles
//!   are served under them); a board that is a puzzle already (embedded or stored) is not
//!   examined, and the store keeps one puzzle a board.
//! * Serving ([`spawn_loader`]): every stored puzzle is read at start-up, and each
//!   [`Event::Puzzle`] on the bus (any instance's) adds one to the [`Live`] catalogue.
//!
//! A puzzle's id is `VARIANT-gMATCH-N-PLY`: match `MATCH`'s game `N`, the position before
//! move `PLY` (0 the first), never the form `VARIANT-NNN` of the embedded ones.

use super::{checked, Entry, Live, Puzzle};
use crate::domain::events::Event;
use crate::domain::model::Match;
use crate::engine_pool::{EnginePool, Permit};
use crate::game::{Games, Observer};
use crate::store::{SitePuzzleRow, Store, StoreError};
use bao_engine::puzzle::{self, MineConfig, SourceGame};
use bao_engine::theme::themes;
use bao_rules::{Position, RecordResult, Rules, Variant};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex};
use tokio::sync::{broadcast, mpsc};

/// Finished games of this last week are caught up.
pub const CATCH_UP_MS: i64 = 7 * 24 * 3600 * 1000;

/// Whether the site's games are mined (`Config::site_puzzles`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SitePuzzlesConfig {
    /// Mine finished games (on by default). Off, the puzzles stored already are still
    /// served.
    pub mine: bool,
}

impl Default for SitePuzzlesConfig {
    fn default() -> Self {
        SitePuzzlesConfig { mine: true }
    }
}

/// The feature's state: the observer's end of the channel to the mining task.
pub struct SiteMiner {
    config: SitePuzzlesConfig,
    tx: mpsc::Sender<String>,
    rx: Mutex<Option<mpsc::Receiver<String>>>,
}

impl SiteMiner {
    /// The miner, before the games exist (it observes them).
    pub fn new(config: SitePuzzlesConfig) -> Arc<SiteMiner> {
        let (tx, rx) = mpsc::channel(1024);
        Arc::new(SiteMiner {
            config,
            tx,
            rx: Mutex::new(Some(rx)),
        })
    }
}

impl Observer for SiteMiner {
    fn changed(&self, m: &Match) {
        if !self.config.mine {
            return;
        }
        // Quick and never waits: a full channel leaves the game to the catch-up.
        let ended = m.game_over() || m.past.last().is_some_and(|_| m.moves.is_empty());
        if ended {
            let _ = self.tx.try_send(m.id.clone());
        }
    }
}

/// Starts the mining task (when mining is on): the matches the observer hands over, and
/// the catch-up at every safety sweep (the first at once). Ends when the games are dropped.
pub fn spawn(
    miner: &Arc<SiteMiner>,
    games: &Arc<Games>,
    engine: EnginePool,
    live: Arc<Live>,
) -> Option<tokio::task::JoinHandle<()>> {
    if !miner.config.mine {
        return None;
    }
    let rx = match miner.rx.lock() {
        Ok(mut g) => g.take(),
        Err(p) => p.into_inner().take(),
    };
    Some(crate::game::observed::spawn_each_match(
        rx,
        games,
        "site puzzles",
        |games| async move { catch_up_ids(&games).await },
        move |games, id| {
            let (engine, live) = (engine.clone(), live.clone());
            async move { mine_match(&games, &engine, &live, &id).await.map(|_| ()) }
        },
    ))
}

async fn catch_up_ids(games: &Games) -> Result<Vec<String>, StoreError> {
    let now = games.clock.now_ms();
    let mut ids: Vec<String> = games
        .store
        .unmined_games(now - CATCH_UP_MS, now, 10)
        .await?
        .into_iter()
        .map(|(id, _)| id)
        .collect();
    ids.dedup();
    Ok(ids)
}

/// Whether `rules` are its variant's defaults, the match format aside.
fn default_rules(rules: &Rules) -> bool {
    let d = Rules::new(rules.variant);
    Rules {
        match_format: d.match_format,
        ..*rules
    } == d
}

/// The board of a position: the same board at another ply is the same puzzle.
pub fn board(p: &Position) -> String {
    p.with_ply(0).to_string()
}

/// Mines every finished game of match `id` that no instance claimed yet; returns the ids
/// of the puzzles stored.
pub async fn mine_match(
    games: &Games,
    engine: &EnginePool,
    live: &Live,
    id: &str,
) -> Result<Vec<String>, StoreError> {
    let store = &games.store;
    let Some(m) = store.load(id).await? else {
        return Ok(Vec::new());
    };
    let mut added = Vec::new();
    for (round, moves) in store.rounds_with_moves(id, &m.rules).await? {
        let claimed = games.clock.now_ms();
        if round.result == RecordResult::Unfinished
            || !store.claim_site_game(id, round.game_no, claimed).await?
        {
            continue;
        }
        if !default_rules(&m.rules) {
            store
                .add_site_puzzles(id, round.game_no, claimed, &[])
                .await?;
            continue;
        }
        let rules = Rules::new(m.rules.variant);
        let mut game = bao_rules::Game::new(round.start, rules);
        for mv in &moves {
            if game.play_text(mv).is_err() {
                tracing::warn!(
                    "site puzzles: match {id} game {}: bad move {mv}",
                    round.game_no
                );
                break;
            }
        }
        let known: HashSet<String> = live
            .now()
            .of(rules.variant)
            .iter()
            .map(|p| board(&p.position))
            .collect();
        let positions: Vec<(usize, Position)> = game
            .positions()
            .iter()
            .copied()
            .enumerate()
            .filter(|(_, p)| !known.contains(&board(p)))
            .collect();
        let pool = engine.clone();
        let name = Named {
            id: format!("{}-g{id}-{}", rules.variant.id(), round.game_no),
            source: format!("site game {id} game {}", round.game_no),
        };
        let Ok(found) = tokio::task::spawn_blocking(move || {
            crate::util::lower_priority();
            mine_positions(&rules, &name, &positions, &pool)
        })
        .await
        else {
            continue;
        };
        let now = games.clock.now_ms();
        let rows: Vec<SitePuzzleRow> = found
            .into_iter()
            .filter_map(|(ply, entry)| {
                Some(SitePuzzleRow {
                    board: board(&Position::parse(&entry.position, &rules).ok()?),
                    id: entry.id.clone(),
                    variant: rules.variant.id().to_string(),
                    entry: serde_json::to_string(&entry).ok()?,
                    game_id: id.to_string(),
                    game_no: round.game_no,
                    ply: ply as u32,
                    at: now,
                })
            })
            .collect();
        // None: mined by another instance that took the claim over (this one was slower
        // than the lease); its puzzles are the ones stored.
        if let Some(ids) = store
            .add_site_puzzles(id, round.game_no, claimed, &rows)
            .await?
        {
            added.extend(ids);
        }
    }
    Ok(added)
}

/// How the puzzles of one game are named: `{id}-{ply}`, `{source} ply {ply}`.
struct Named {
    id: String,
    source: String,
}

/// The puzzles of `positions` (each with its ply in the game), as `bao puzzles mine --from`
/// finds them in a record: one engine-pool permit a position.
fn mine_positions(
    rules: &Rules,
    name: &Named,
    positions: &[(usize, Position)],
    pool: &EnginePool,
) -> Vec<(usize, Entry)> {
    let mut cfg = MineConfig::for_rules(rules, 0);
    cfg.games = 0;
    cfg.pool = 1;
    // Every candidate is kept: a record gives all its puzzles.
    cfg.want = [
        10_000,
        10_000,
        if rules.variant.is_bao() { 10_000 } else { 0 },
    ];
    let stop = AtomicBool::new(false);
    let mut out = Vec::new();
    for (ply, pos) in positions {
        let Some(mut permit): Option<Permit> = pool.review(&stop) else {
            break;
        };
        permit.start();
        let source = SourceGame {
            label: name.source.clone(),
            positions: vec![*pos],
        };
        let mined = puzzle::mine(rules, &cfg, &[source], &mut |_| {});
        drop(permit);
        // One puzzle a board (the store's rule): the miner's first, the shortest line.
        if let Some(m) = mined.into_iter().next() {
            out.push((
                *ply,
                Entry {
                    id: format!("{}-{ply}", name.id),
                    position: m.puzzle.position.to_string(),
                    goal: m.puzzle.goal,
                    moves: m.puzzle.moves.iter().map(|mv| mv.to_string()).collect(),
                    depth: m.puzzle.depth,
                    themes: themes(&m.puzzle, rules),
                    source: format!("{} ply {ply}", name.source),
                },
            ));
        }
    }
    out
}

/// A stored puzzle, checked as the embedded ones are.
fn from_row(r: &SitePuzzleRow) -> Option<Puzzle> {
    let v = Variant::from_id(&r.variant)?;
    let entry: Entry = serde_json::from_str(&r.entry).ok()?;
    match checked(v, &Rules::new(v), entry) {
        Ok(p) => Some(p),
        Err(e) => {
            tracing::warn!("site puzzles: {e}");
            None
        }
    }
}

async fn load_all(store: &Store, live: &Live) {
    match store.site_puzzles().await {
        Ok(rows) => live.add(rows.iter().filter_map(from_row).collect()),
        Err(e) => tracing::warn!("site puzzles: cannot read the stored puzzles: {e}"),
    }
}

/// Starts the task that keeps `live` up to date: every stored puzzle now, then each one the
/// bus announces (all of them again after falling behind). Ends when the bus closes.
pub fn spawn_loader(store: Store, live: Arc<Live>) -> tokio::task::JoinHandle<()> {
    // Subscribed before reading, so that nothing stored in between is missed.
    let mut events = store.subscribe();
    tokio::spawn(async move {
        load_all(&store, &live).await;
        loop {
            match events.recv().await {
                Ok(d) => {
                    if let Event::Puzzle { id } = &d.event {
                        match store.site_puzzle(id).await {
                            Ok(Some(r)) => live.add(from_row(&r).into_iter().collect()),
                            Ok(None) => {}
                            Err(e) => tracing::warn!("site puzzles: puzzle {id}: {e}"),
                        }
                    }
                }
                Err(broadcast::error::RecvError::Lagged(_)) => load_all(&store, &live).await,
                Err(broadcast::error::RecvError::Closed) => return,
            }
        }
    })
}
