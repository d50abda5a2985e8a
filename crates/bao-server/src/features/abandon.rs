//! Abandoned games (docs/api.md, "Game lifecycle"): a live match nobody moved in for
//! [`Lifecycle::abandon_after`](crate::game::Lifecycle) ends as abandoned.
//!
//! One sweep per instance every [`Lifecycle::abandon_every`](crate::game::Lifecycle) (an
//! hour by default: the limit is days). Several instances on one PostgreSQL may sweep at
//! once: the store's condition ends each abandoned match exactly once.

use crate::error::ApiResult;
use crate::game::commit::CommitError;
use crate::game::{ops::forced_end, Games};
use crate::store::{StoreError, Write};
use bao_rules::{RecordResult, Termination};
use std::sync::{Arc, Weak};
use std::time::Duration;

/// Most matches ended per sweep (the rest wait for the next one).
const ABANDON_BATCH: i64 = 200;

/// Starts the sweep (the first at once, for matches abandoned while the server was down); it
/// ends when the games are dropped.
pub fn spawn(games: &Arc<Games>) -> tokio::task::JoinHandle<()> {
    let weak: Weak<Games> = Arc::downgrade(games);
    let every = games.lifecycle.abandon_every.max(Duration::from_millis(10));
    let mut tick = games.clock.ticker(every);
    tokio::spawn(async move {
        loop {
            tick.tick().await;
            let Some(games) = weak.upgrade() else { return };
            match abandon_stale(&games).await {
                Ok(n) if n > 0 => tracing::info!("{n} abandoned games ended"),
                Ok(_) => {}
                Err(e) => tracing::warn!("abandoned games: {e}"),
            }
        }
    })
}

/// Ends every live match unchanged for [`crate::game::Lifecycle::abandon_after`]; returns how
/// many this instance ended.
pub async fn abandon_stale(games: &Games) -> Result<usize, StoreError> {
    let cutoff = games.clock.now_ms() - games.lifecycle.abandon_after.as_millis() as i64;
    let ids = games.store.stale_ids(cutoff, ABANDON_BATCH).await?;
    let mut n = 0;
    for id in ids {
        match abandon(games, &id, cutoff).await {
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
pub async fn abandon(games: &Games, id: &str, cutoff: i64) -> ApiResult<bool> {
    let slot = games.slot(id).await?;
    let mut m = slot.m.lock().await;
    if m.read_only || m.finished || m.updated >= cutoff || slot.thinking() {
        return Ok(false);
    }
    let seen = m.updated;
    let moved = m.game_no > 1 || m.game.position().ply() > 0;
    let result = if moved {
        RecordResult::Win(m.game.position().side().other())
    } else {
        RecordResult::Unfinished
    };
    let game_no = m.game_no;
    // Nobody is left to play the next game: the match ends here.
    let change = forced_end(
        &m,
        result,
        Termination::Abandoned,
        games.clock.now_ms(),
        true,
        |t| Write::Abandon { game_no, seen, t },
    );
    match games.commit(&slot, &mut m, change).await {
        Ok(()) => Ok(true),
        // Another instance ended it, or a move came first: memory is up to date.
        Err(CommitError::Conflict(_)) => Ok(false),
        Err(e) => Err(e.into()),
    }
}
