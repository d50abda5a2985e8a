//! The clock of a game (docs/api.md, "Clocks"): a timer per running clock that ends the game
//! on time when it runs out, and the sweep's check of the database for clocks that ran out
//! where no timer was (a restart, an instance that stopped). The loss on time is committed
//! by one instance only (the store's condition on the deadline).

use super::ops::forced_end;
use super::{Games, Slot};
use crate::domain::model::Match;
use crate::store::{StoreError, Write};
use bao_rules::{RecordResult, Termination};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Most games ended on time per sweep (the rest wait for the next one).
const OVERDUE_BATCH: i64 = 200;

impl Games {
    /// Starts a timer that ends the game on time when the running clock runs out (if no
    /// change comes first; a stale timer finds nothing to do). It holds neither the game nor
    /// the server, so it keeps nothing in memory: a game that left memory meanwhile is read
    /// again when its time comes (a deadline has a timer; the safety sweep only repairs
    /// what a stopped instance left).
    pub fn arm_clock(&self, slot: &Arc<Slot>, m: &Match) {
        let Some(deadline) = m.clock_deadline() else {
            return;
        };
        let (games, slot, id) = (self.me(), Arc::downgrade(slot), m.id.clone());
        let clock = self.clock.clone();
        tokio::spawn(async move {
            // A millisecond past the deadline: by then the clock has run out.
            clock.sleep_until_ms(deadline + 1).await;
            let Some(games) = games.upgrade() else {
                return;
            };
            let slot = match slot.upgrade() {
                Some(s) => s,
                None => match games.slot(&id).await {
                    Ok(s) => s,
                    Err(e) => {
                        tracing::debug!("game {id} not checked for time: {}", e.message);
                        return;
                    }
                },
            };
            games.check_clock(slot).await;
        });
    }

    /// Ends the game on time if the running clock has run out; then lets the computer start
    /// the next game of a match if it is to move. Returns whether this call ended it.
    pub async fn check_clock(&self, slot: Arc<Slot>) -> bool {
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
        let now = self.clock.now_ms();
        let Some(p) = m.clock_running() else {
            return false;
        };
        if m.time_left(p, now).is_none_or(|l| l > 0) {
            return false;
        }
        let result = RecordResult::Win(m.side_of(p).other());
        let (game_no, ply) = (m.game_no, m.game.position().ply());
        let mut change = forced_end(m, result, Termination::Time, now, false, |t| Write::Flag {
            game_no,
            ply,
            now,
            t,
        });
        if let Some(c) = change.after.clock.as_mut() {
            c.left[p] = 0;
        }
        match self.commit(slot, m, change).await {
            Ok(()) => {
                self.time_losses.fetch_add(1, Ordering::Relaxed);
                true
            }
            // Another instance recorded it, or a move came first: memory is up to date.
            Err(super::commit::CommitError::Conflict(_)) => false,
            Err(super::commit::CommitError::Failed(e)) => {
                tracing::warn!("loss on time in game {} not stored: {e}", m.id);
                false
            }
        }
    }

    /// Ends on time every live game whose clock ran out according to the database. Returns
    /// how many were found (each is decided once, see [`Games::check_clock`]).
    pub async fn flag_overdue(&self) -> Result<usize, StoreError> {
        let ids = self
            .store
            .overdue_ids(self.clock.now_ms(), OVERDUE_BATCH)
            .await?;
        let n = ids.len();
        for id in ids {
            match self.slot(&id).await {
                Ok(slot) => {
                    self.check_clock(slot).await;
                }
                Err(e) => tracing::debug!("game {id} not checked for time: {}", e.message),
            }
        }
        Ok(n)
    }
}
