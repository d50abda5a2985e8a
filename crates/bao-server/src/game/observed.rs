//! The task of a feature that follows game ends (docs/architecture.md, "The event bus"):
//! the match ids its [`super::Observer`] hands over, and a catch-up at every safety sweep
//! ([`super::Lifecycle::safety_sweep`], the first at once) for what an instance stopped
//! before handling left. Ratings and fair play run on it.

use super::Games;
use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::mpsc;

/// Runs `work(games, Some(id))` for each id from `rx` and `work(games, None)` at every
/// safety sweep, one at a time. Ends when the games are dropped or `rx` closes.
pub fn spawn_observed<F, Fut>(
    rx: Option<mpsc::Receiver<String>>,
    games: &Arc<Games>,
    work: F,
) -> tokio::task::JoinHandle<()>
where
    F: Fn(Arc<Games>, Option<String>) -> Fut + Send + 'static,
    Fut: Future<Output = ()> + Send,
{
    let weak: Weak<Games> = Arc::downgrade(games);
    let every = games.lifecycle.safety_sweep.max(Duration::from_millis(10));
    tokio::spawn(async move {
        let mut rx = rx;
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let id = tokio::select! {
                id = async {
                    match rx.as_mut() {
                        Some(rx) => rx.recv().await,
                        None => std::future::pending().await,
                    }
                } => match id {
                    Some(id) => Some(id),
                    None => return,
                },
                _ = tick.tick() => None,
            };
            let Some(games) = weak.upgrade() else { return };
            work(games, id).await;
        }
    })
}
