//! The computer player: when it is to move, its search runs on a blocking thread under
//! permits of the engine pool (live work, before reviews), never on the async workers, and
//! its move goes through the same checks and the same write path as a person's.

use super::{Games, Slot};
use crate::store::StoreError;
use std::sync::atomic::Ordering;
use std::sync::Arc;

impl Games {
    /// Lets the computer move if it is its turn.
    pub fn schedule_computer(&self, slot: Arc<Slot>) {
        let me = self.me();
        tokio::spawn(async move {
            let Some(games) = me.upgrade() else { return };
            games.computer_move(slot).await;
        });
    }

    async fn computer_move(&self, slot: Arc<Slot>) {
        let (pos, rules, level, ply, game_no, clock, history) = {
            let m = slot.m.lock().await;
            if slot.thinking() {
                return;
            }
            let Some(level) = m.computer_to_move() else {
                return;
            };
            slot.thinking.store(true, Ordering::Relaxed);
            // With a clock, the computer budgets the time left on its own clock, which runs
            // while it thinks (docs/engine-protocol.md, "Clocks").
            let clock = m.clock_running().and_then(|p| {
                let left = m.time_left(p, self.clock.now_ms())?.max(0) as u64;
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
        // Only a search on a clock gains from more threads; a level's node or depth budget
        // would only be shared out among them.
        let threads = if clock.is_some() {
            self.engine.search_threads()
        } else {
            1
        };
        let asked = std::time::Instant::now();
        let permit = self.engine.live(threads).await;
        // The clock ran while the move waited for the engine: budget what is left now.
        let clock = clock
            .map(|(left, inc)| bao_engine::Clock::new(left.saturating_sub(asked.elapsed()), inc));
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
                let _m = slot.m.lock().await;
                slot.thinking.store(false, Ordering::Relaxed);
                tracing::warn!("no computer move: {e}");
                return;
            }
        };
        let mut m = slot.m.lock().await;
        slot.thinking.store(false, Ordering::Relaxed);
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
        let at = self.clock.now_ms();
        let p = m.player_on(m.game.position().side());
        if m.clock_running() == Some(p) && m.time_left(p, at).is_some_and(|l| l <= 0) {
            let flagged = self.flag_locked(&slot, &mut m).await;
            drop(m);
            if flagged {
                self.schedule_computer(slot);
            }
            return;
        }
        if let Err(e) = self.apply_locked(&slot, &mut m, lm, at).await {
            tracing::warn!("computer move in game {} not stored: {}", m.id, e.message);
            return;
        }
        drop(m);
        // The next game of a match may start with the computer to move.
        self.schedule_computer(slot);
    }

    /// Start-up: lets the computer move in every unfinished game where it is to move. Only
    /// those stay in memory (until the move is made); the others load on demand.
    pub async fn resume(&self) -> Result<usize, StoreError> {
        let ids = self.store.live_ids().await?;
        let mut n = 0;
        for id in ids {
            match self.store.load(&id).await {
                Ok(Some(m)) if m.computer_to_move().is_some() => {
                    self.open(m);
                    n += 1;
                }
                Ok(_) => {}
                Err(e) => tracing::error!("game {id} could not be loaded: {e}"),
            }
        }
        Ok(n)
    }
}
