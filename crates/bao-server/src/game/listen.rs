//! What the game core hears on the event bus (docs/architecture.md, "The event bus"):
//! another instance changed a game held here (it is read again and its viewers told), or
//! who has it open there (its players' marks are read again), or a review of it moved on
//! (its viewers told).

use super::Games;
use crate::domain::events::{Event, ReviewProgress};
use crate::domain::wire::ServerMsg;
use tokio::sync::broadcast::error::RecvError;

impl Games {
    /// Starts the core's listener; it ends when the games are dropped.
    pub fn spawn_listen(&self) -> tokio::task::JoinHandle<()> {
        let weak = self.me();
        let mut rx = self.store.subscribe();
        tokio::spawn(async move {
            loop {
                let d = rx.recv().await;
                let Some(games) = weak.upgrade() else { return };
                let d = match d {
                    Ok(d) => d,
                    // Fell behind: whatever is watched here is read again.
                    Err(RecvError::Lagged(n)) => {
                        tracing::warn!(
                            "game core: {n} events missed; reading the watched games again"
                        );
                        games.refresh_watched();
                        continue;
                    }
                    Err(RecvError::Closed) => return,
                };
                // A review's progress, from whichever instance makes it, to the game's
                // sockets here (docs/api.md, "Review").
                if let Event::Review {
                    game,
                    game_no,
                    progress,
                } = &d.event
                {
                    games.tell_review(game, *game_no, progress);
                    continue;
                }
                // This instance told its own viewers when it made the change.
                if d.origin == games.instance {
                    continue;
                }
                match &d.event {
                    Event::Game { id, .. } if games.cached(id).is_some() => {
                        let id = id.clone();
                        // Each in its own task, so that a slow read does not hold up the
                        // others; a read that comes back late never takes the game back
                        // (the version).
                        tokio::spawn(async move { games.refresh(&id).await });
                    }
                    // Who has it open elsewhere changed: its marks, for its viewers here.
                    Event::Presence { game } if games.cached(game).is_some() => {
                        let game = game.clone();
                        tokio::spawn(async move { games.refresh_remote(Some(&game)).await });
                    }
                    _ => {}
                }
            }
        })
    }

    /// `{"type":"review","game_no","progress"}` to the sockets of game `game` here, if any
    /// (no version: it is no change of the game).
    fn tell_review(&self, game: &str, game_no: u32, progress: &ReviewProgress) {
        let Some(slot) = self.cached(game) else {
            return;
        };
        if slot.tx.receiver_count() == 0 {
            return;
        }
        let text = ServerMsg::Review { game_no, progress }.text();
        let _ = slot.tx.send(std::sync::Arc::new(super::Update::same(text)));
    }

    /// Reads again every game in memory that someone watches here.
    fn refresh_watched(&self) {
        let watched: Vec<String> = self
            .map()
            .iter()
            .filter(|(_, s)| s.tx.receiver_count() > 0)
            .map(|(id, _)| id.clone())
            .collect();
        for id in watched {
            let Some(games) = self.me().upgrade() else {
                return;
            };
            tokio::spawn(async move { games.refresh(&id).await });
        }
    }
}
