//! Which players have a game open, told to the other instances through the store
//! (`seat_presence`, migration 0011). A socket coming or going wakes one task that writes
//! this instance's whole set (at most once a second); the set is written again every
//! [`REFRESH`] and each row lasts [`TTL`], so the rows of a stopped instance expire. Used by
//! the "your move" push (docs/api.md, "Web Push"): nobody is pushed about a game they are
//! looking at, whichever instance their socket is on. A write that changes a game's seats
//! publishes `Event::Presence` on the event bus (docs/architecture.md, "The event bus");
//! the instances that watch that game read its marks again, so that a player's "connected"
//! mark is right whichever instance each side is on. The safety sweep reads them all again
//! (rows of a stopped instance that expired tell no event).

use super::Games;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// How often an instance writes its set even when nothing changed.
pub const REFRESH: Duration = Duration::from_secs(30);
/// How long a written row counts: a little over three refreshes.
pub const TTL: Duration = Duration::from_secs(100);
/// The shortest time between two writes (sockets coming and going in bursts).
const GAP: Duration = Duration::from_secs(1);

impl Games {
    /// A player's first socket on a game opened here, or their last one closed.
    pub(crate) fn presence_changed(&self) {
        self.presence_wake.notify_one();
    }

    /// The seats (game id, player) with a socket open on this instance.
    pub fn present_here(&self) -> Vec<(String, usize)> {
        let map = self.map();
        let mut seats: Vec<(String, usize)> = map
            .iter()
            .flat_map(|(id, s)| {
                (0..2)
                    .filter(|&p| s.conns[p].load(Ordering::Relaxed) > 0)
                    .map(move |p| (id.clone(), p))
            })
            .collect();
        seats.sort();
        seats
    }

    /// Whether `player` of `game` has a socket open on this instance or, according to the
    /// store, on another one. A store error counts as not present.
    pub async fn present_anywhere(&self, game: &str, player: usize) -> bool {
        let here = self
            .cached(game)
            .is_some_and(|s| player < 2 && s.conns[player].load(Ordering::Relaxed) > 0);
        if here {
            return true;
        }
        match self
            .store
            .present_elsewhere(game, player, &self.instance, self.clock.now_ms())
            .await
        {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!("presence of game {game}: {e}");
                false
            }
        }
    }

    /// Reads which players of the games watched here (of `only`, if given) are connected
    /// through other instances, and tells the viewers of a game whose marks changed. A game
    /// nobody watches here forgets what it read (it is read again when someone comes).
    pub(crate) async fn refresh_remote(&self, only: Option<&str>) {
        let (watched, idle): (Vec<_>, Vec<_>) = self
            .map()
            .iter()
            .filter(|(id, _)| only.is_none_or(|o| o == id.as_str()))
            .map(|(id, s)| (id.clone(), s.clone()))
            .partition(|(_, s)| s.tx.receiver_count() > 0);
        for (_, s) in idle {
            for r in &s.remote {
                r.store(false, Ordering::Relaxed);
            }
        }
        if watched.is_empty() {
            return;
        }
        let ids: Vec<String> = watched.iter().map(|(id, _)| id.clone()).collect();
        let seen = match self
            .store
            .present_in(&ids, &self.instance, self.clock.now_ms())
            .await
        {
            Ok(seen) => seen,
            Err(e) => {
                tracing::warn!("presence elsewhere: {e}");
                return;
            }
        };
        for (id, slot) in watched {
            let mut changed = false;
            for p in 0..2 {
                let now = seen.iter().any(|(g, q)| g == &id && *q == p);
                changed |= slot.remote[p].swap(now, Ordering::Relaxed) != now;
            }
            if changed {
                let m = slot.m.lock().await;
                self.broadcast_presence(&slot, &m);
            }
        }
    }

    /// Writes this instance's set when a socket comes or goes (then reads the other
    /// instances' marks of the games watched here: a game just opened here has none yet)
    /// and every [`REFRESH`]. Ends when the games are dropped.
    pub fn spawn_presence(&self) -> tokio::task::JoinHandle<()> {
        let weak = self.me();
        tokio::spawn(async move {
            let mut written: Option<tokio::time::Instant> = None;
            let mut changed = true;
            loop {
                let Some(games) = weak.upgrade() else { return };
                if changed || written.is_none_or(|t| t.elapsed() >= REFRESH) {
                    let seats = games.present_here();
                    let until = games.clock.now_ms() + TTL.as_millis() as i64;
                    if let Err(e) = games
                        .store
                        .presence_sync(&games.instance, &seats, until)
                        .await
                    {
                        tracing::warn!("presence: {e}");
                    }
                    written = Some(tokio::time::Instant::now());
                }
                if changed {
                    games.refresh_remote(None).await;
                }
                let wake = games.presence_wake.clone();
                drop(games);
                tokio::time::sleep(GAP).await;
                changed = tokio::time::timeout(REFRESH, wake.notified()).await.is_ok();
            }
        })
    }
}
