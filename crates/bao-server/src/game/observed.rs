//! The task of a feature that follows game ends (docs/architecture.md, "The event bus"):
//! the match ids its [`super::Observer`] hands over, and a catch-up at every safety sweep
//! ([`super::Lifecycle::safety_sweep`], the first at once) for what an instance stopped
//! before handling left. Ratings run on it; fair play and the site's puzzles, which work
//! match by match, on [`spawn_each_match`].

use super::Games;
use crate::domain::events::Delivered;
use crate::store::StoreError;
use crate::util::Clock;
use std::fmt::Display;
use std::future::Future;
use std::sync::{Arc, Weak};
use std::time::Duration;
use tokio::sync::broadcast::{self, error::RecvError, error::TryRecvError};
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

/// [`spawn_observed`] for work done match by match: `each(games, id)` for the match that
/// ended, and at every safety sweep for each match that `catch_up` names (those an
/// instance left undone). Failures are logged under `what`, and the next match goes on.
pub fn spawn_each_match<C, CF, E, EF, Er>(
    rx: Option<mpsc::Receiver<String>>,
    games: &Arc<Games>,
    what: &'static str,
    catch_up: C,
    each: E,
) -> tokio::task::JoinHandle<()>
where
    C: Fn(Arc<Games>) -> CF + Send + Sync + 'static,
    CF: Future<Output = Result<Vec<String>, StoreError>> + Send,
    E: Fn(Arc<Games>, String) -> EF + Send + Sync + 'static,
    EF: Future<Output = Result<(), Er>> + Send,
    Er: Display,
{
    let (catch_up, each) = (Arc::new(catch_up), Arc::new(each));
    spawn_observed(rx, games, move |games, id| {
        let (catch_up, each) = (catch_up.clone(), each.clone());
        async move {
            let ids = match id {
                Some(id) => Ok(vec![id]),
                None => catch_up(games.clone()).await,
            };
            match ids {
                Ok(ids) => {
                    for id in ids {
                        if let Err(e) = each(games.clone(), id.clone()).await {
                            tracing::warn!("{what}: match {id}: {e}");
                        }
                    }
                }
                Err(e) => tracing::warn!("{what}: {e}"),
            }
        }
    })
}

/// What woke a feature's task that also keeps deadlines (tournaments, arenas, team matches;
/// docs/architecture.md, "The event bus": news as events, timers for deadlines).
pub enum Wake {
    /// A game of this instance ended: its match id, from the feature's [`super::Observer`].
    Ended(String),
    /// News from any instance.
    News(Arc<Delivered>),
    /// The task fell behind the bus: events were missed, so everything is read again.
    Missed,
    /// The first deadline came (by the games' clock).
    Due,
    /// The safety sweep, every [`super::Lifecycle::safety_sweep`].
    Sweep,
}

/// The sources a deadline-keeping task waits on: its observer's ended games, the event bus,
/// its first deadline and the safety sweep.
pub struct Wakes {
    ended: Option<mpsc::Receiver<String>>,
    events: broadcast::Receiver<Arc<Delivered>>,
    sweep: tokio::time::Interval,
    clock: Clock,
}

impl Wakes {
    /// Subscribes to the bus at once: make it before the first read of the deadlines, so
    /// no change falls between. The first sweep comes one period on (the task sweeps at its
    /// start itself if [`super::Lifecycle::sweep_at_start`] says so).
    pub fn new(ended: Option<mpsc::Receiver<String>>, games: &Games) -> Self {
        let every = games.lifecycle.safety_sweep.max(Duration::from_millis(10));
        let mut sweep = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
        sweep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        Self {
            ended,
            events: games.store.subscribe(),
            sweep,
            clock: games.clock.clone(),
        }
    }

    /// Waits for the next thing to do, `deadline` being the first deadline (ms since the
    /// epoch); `None` when the task should end (its observer or the bus closed).
    pub async fn next(&mut self, deadline: Option<i64>) -> Option<Wake> {
        let clock = &self.clock;
        let ended = &mut self.ended;
        tokio::select! {
            id = async {
                match ended.as_mut() {
                    Some(rx) => rx.recv().await,
                    None => std::future::pending().await,
                }
            } => id.map(Wake::Ended),
            e = self.events.recv() => match e {
                Ok(d) => Some(Wake::News(d)),
                Err(RecvError::Lagged(_)) => Some(Wake::Missed),
                Err(RecvError::Closed) => None,
            },
            _ = async {
                match deadline {
                    Some(at) => clock.sleep_until_ms(at).await,
                    None => std::future::pending().await,
                }
            } => Some(Wake::Due),
            _ = self.sweep.tick() => Some(Wake::Sweep),
        }
    }

    /// News already waiting, without waiting (to handle a burst at once): `Err(true)` when
    /// events were missed, `Err(false)` when none waits.
    pub fn news_waiting(&mut self) -> Result<Arc<Delivered>, bool> {
        match self.events.try_recv() {
            Ok(d) => Ok(d),
            Err(TryRecvError::Lagged(_)) => Err(true),
            Err(_) => Err(false),
        }
    }
}
