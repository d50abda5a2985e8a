//! Which players have a game open, told to the other instances through the store
//! (`seat_presence`, migration 0011). A socket coming or going wakes one task that writes
//! this instance's whole set (at most once a second); the set is written again every
//! [`REFRESH`] and each row lasts [`TTL`], so the rows of a stopped instance expire. Used by
//! the "your move" push (docs/api.md, "Web Push"): nobody is pushed about a game they are
//! looking at, whichever instance their socket is on.

use super::Games;
use crate::util;
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
            .present_elsewhere(game, player, &self.instance, util::now_ms())
            .await
        {
            Ok(b) => b,
            Err(e) => {
                tracing::warn!("presence of game {game}: {e}");
                false
            }
        }
    }

    /// Writes this instance's set when a socket comes or goes, and every [`REFRESH`]. Ends
    /// when the games are dropped.
    pub fn spawn_presence(&self) -> tokio::task::JoinHandle<()> {
        let weak = self.me();
        tokio::spawn(async move {
            loop {
                let Some(games) = weak.upgrade() else { return };
                let seats = games.present_here();
                let until = util::now_ms() + TTL.as_millis() as i64;
                if let Err(e) = games
                    .store
                    .presence_sync(&games.instance, &seats, until)
                    .await
                {
                    tracing::warn!("presence: {e}");
                }
                let wake = games.presence_wake.clone();
                drop(games);
                tokio::time::sleep(GAP).await;
                let _ = tokio::time::timeout(REFRESH, wake.notified()).await;
            }
        })
    }
}
