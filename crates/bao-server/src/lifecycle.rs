//! The life of a game after its last move (issue 9): idle games leave memory, games nobody
//! moves in for long end as abandoned, and "Watch live" shows only games with a recent move.
//!
//! One periodic sweep per instance does both. Several instances on one PostgreSQL may sweep
//! at once: the database ends each abandoned match exactly once ([`crate::Store::commit_abandon`]).

use crate::app::App;
use crate::error::ApiResult;
use crate::store::StoreError;
use crate::util;
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Timings of the game lifecycle.
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
    /// How often the sweep runs. Default 2 s: finished games do not pile up in memory
    /// between sweeps, and the abandonment query is one indexed range read.
    pub sweep_every: Duration,
}

impl Default for Lifecycle {
    fn default() -> Self {
        Lifecycle {
            abandon_after: Duration::from_secs(14 * 24 * 3600),
            live_window: Duration::from_secs(600),
            idle_after: Duration::from_secs(60),
            sweep_every: Duration::from_secs(2),
        }
    }
}

/// Most matches ended per sweep (the rest wait for the next one).
const ABANDON_BATCH: i64 = 200;

/// Starts the sweep; it ends when the server is dropped.
pub fn spawn(app: &Arc<App>) -> tokio::task::JoinHandle<()> {
    let weak: Weak<App> = Arc::downgrade(app);
    let every = app.lifecycle.sweep_every.max(Duration::from_millis(10));
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        // The first tick is at once: clocks that ran out and matches abandoned while the
        // server was down are settled at start. Nothing in memory has been idle yet then,
        // and evicting at that moment would race with the first requests.
        let mut first = true;
        loop {
            tick.tick().await;
            let Some(app) = weak.upgrade() else { return };
            if first {
                settle(&app).await;
                first = false;
            } else {
                sweep(&app).await;
            }
        }
    })
}

/// One sweep: ends abandoned matches, then lets unused games leave memory.
pub async fn sweep(app: &Arc<App>) {
    settle(app).await;
    let gone = app.evict_idle();
    if gone > 0 {
        tracing::debug!("{gone} idle games left memory");
    }
}

/// The database part of a sweep: games lost on time, abandoned matches.
async fn settle(app: &Arc<App>) {
    match flag_overdue(app).await {
        Ok(n) if n > 0 => tracing::info!("{n} games lost on time"),
        Ok(_) => {}
        Err(e) => tracing::warn!("clocks: {e}"),
    }
    match abandon_stale(app).await {
        Ok(n) if n > 0 => tracing::info!("{n} abandoned games ended"),
        Ok(_) => {}
        Err(e) => tracing::warn!("abandoned games: {e}"),
    }
}

/// Ends on time every live game whose clock ran out according to the database (issue 11.2):
/// games not in memory, after a restart, or whose timer is on a stopped instance. Returns how
/// many were found (each is decided once, see [`App::check_clock`]).
pub async fn flag_overdue(app: &Arc<App>) -> Result<usize, StoreError> {
    let ids = app.store.overdue_ids(util::now_ms(), ABANDON_BATCH).await?;
    let n = ids.len();
    for id in ids {
        match app.slot(&id).await {
            Ok(slot) => {
                app.clone().check_clock(slot).await;
            }
            Err(e) => tracing::debug!("game {id} not checked for time: {}", e.message),
        }
    }
    Ok(n)
}

/// Ends every live match unchanged for [`Lifecycle::abandon_after`]; returns how many this
/// instance ended.
pub async fn abandon_stale(app: &Arc<App>) -> Result<usize, StoreError> {
    let cutoff = util::now_ms() - app.lifecycle.abandon_after.as_millis() as i64;
    let ids = app.store.stale_ids(cutoff, ABANDON_BATCH).await?;
    let mut n = 0;
    for id in ids {
        match abandon(app, &id, cutoff).await {
            Ok(true) => n += 1,
            Ok(false) => {}
            Err(e) => tracing::debug!("game {id} not abandoned: {}", e.message),
        }
    }
    Ok(n)
}

/// Ends match `id` as abandoned if it is live and unchanged since before `cutoff`
/// (NOT-6.2 `Termination "abandoned"`). With a move in the match, the side to move failed to
/// move and loses the current game, and the match ends there (its score counts that game).
/// Without any move the match is just closed: Result `-`, Termination `abandoned`, no winner.
/// Returns whether this call ended it.
pub async fn abandon(app: &Arc<App>, id: &str, cutoff: i64) -> ApiResult<bool> {
    let slot = app.slot(id).await?;
    let mut m = slot.m.lock().await;
    if m.read_only || m.finished || m.updated >= cutoff || m.thinking {
        return Ok(false);
    }
    let seen = m.updated;
    let moved = m.game_no > 1 || m.game.position().ply() > 0;
    let result = if moved {
        m.game.position().side().other().letter().to_string()
    } else {
        "-".to_string()
    };
    let text = crate::record::forced_text(&result, "abandoned");
    let mut t = m.transition(&result, text, Some("abandoned".into()));
    // Nobody is left to play the next game.
    t.match_over = true;
    t.next = None;
    let mut after = m.clone_light();
    after.forced = Some((result.clone(), "abandoned".into()));
    after.updated = util::now_ms();
    after.apply_transition(t.clone());
    after.clock_settle(after.updated);
    match app
        .store
        .commit_abandon(m.game_no, seen, &t, &after, &app.instance)
        .await
    {
        Ok(()) => {}
        // Another instance ended it, or a move came first: memory may be stale.
        Err(StoreError::Conflict(_)) => {
            if let Ok(Some(fresh)) = app.store.load(id).await {
                *m = fresh;
                app.broadcast_state(&slot, &m);
            }
            return Ok(false);
        }
        Err(e) => return Err(e.into()),
    }
    m.forced = after.forced.clone();
    m.updated = after.updated;
    m.record_end(t);
    m.clock = after.clock;
    app.broadcast_state(&slot, &m);
    Ok(true)
}
