//! The server's one source of time (docs/architecture.md, "Clocks as values"): the model and
//! the timers take `now` from the [`Clock`] in the server's state, never from the system
//! directly. In production it is the system's clock; a test gives the server a clock of its
//! own ([`Clock::manual`]) and moves it on ([`Clock::advance`]), so that a deadline (a game
//! clock running out, an offer lapsing, a lease expiring, a match abandoned) comes when the
//! test says, without waiting for real seconds.

use std::sync::Arc;
use std::time::{Duration, Instant};
use tokio::sync::watch;

/// Wall time (ms since the Unix epoch) and a monotonic instant, and sleeps measured on them.
#[derive(Clone, Default)]
pub struct Clock {
    /// `None`: the system's clock.
    manual: Option<Arc<Manual>>,
}

/// A clock that moves only when told.
struct Manual {
    /// The time (ms since the epoch); sleepers watch it.
    now: watch::Sender<i64>,
    /// The monotonic instant at which `now` was `start_ms`.
    start: Instant,
    start_ms: i64,
}

impl std::fmt::Debug for Clock {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.manual {
            None => f.write_str("Clock::system"),
            Some(m) => write!(f, "Clock::manual({})", *m.now.borrow()),
        }
    }
}

impl Clock {
    /// The system's clock.
    pub fn system() -> Clock {
        Clock { manual: None }
    }

    /// A clock standing at `at_ms` (ms since the epoch) that moves only by
    /// [`Clock::advance`]: for tests.
    pub fn manual(at_ms: i64) -> Clock {
        Clock {
            manual: Some(Arc::new(Manual {
                now: watch::Sender::new(at_ms),
                start: Instant::now(),
                start_ms: at_ms,
            })),
        }
    }

    /// Whether this is a manual clock.
    pub fn is_manual(&self) -> bool {
        self.manual.is_some()
    }

    /// Now, in ms since the Unix epoch.
    pub fn now_ms(&self) -> i64 {
        match &self.manual {
            None => crate::util::now_ms(),
            Some(m) => *m.now.borrow(),
        }
    }

    /// Now, as a monotonic instant (for durations measured on this clock).
    pub fn instant(&self) -> Instant {
        match &self.manual {
            None => Instant::now(),
            Some(m) => m.start + Duration::from_millis((*m.now.borrow() - m.start_ms) as u64),
        }
    }

    /// Moves a manual clock on by `by`, waking every sleep that has come due. Panics on the
    /// system's clock.
    pub fn advance(&self, by: Duration) {
        let m = self
            .manual
            .as_ref()
            .expect("only a manual clock is advanced");
        m.now.send_modify(|t| *t += by.as_millis() as i64);
    }

    /// Waits until this clock reads `at_ms` or later.
    pub async fn sleep_until_ms(&self, at_ms: i64) {
        match &self.manual {
            None => {
                let wait = (at_ms - crate::util::now_ms()).max(0) as u64;
                tokio::time::sleep(Duration::from_millis(wait)).await;
            }
            Some(m) => {
                let mut rx = m.now.subscribe();
                // The sender lives as long as `m`: the wait ends when the time comes.
                let _ = rx.wait_for(|t| *t >= at_ms).await;
            }
        }
    }

    /// Waits `d` on this clock.
    pub async fn sleep(&self, d: Duration) {
        match &self.manual {
            None => tokio::time::sleep(d).await,
            Some(_) => {
                self.sleep_until_ms(self.now_ms() + d.as_millis() as i64)
                    .await
            }
        }
    }

    /// A tick every `every` on this clock, the first at once; a late tick delays the next
    /// ones (they are not bunched up to catch up).
    pub fn ticker(&self, every: Duration) -> Ticker {
        Ticker {
            clock: self.clone(),
            every,
            system: self.manual.is_none().then(|| {
                let mut t = tokio::time::interval(every);
                t.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
                t
            }),
            next: None,
        }
    }
}

/// Ticks at a period on a [`Clock`] (see [`Clock::ticker`]).
pub struct Ticker {
    clock: Clock,
    every: Duration,
    system: Option<tokio::time::Interval>,
    /// A manual clock's next tick (ms); `None` before the first.
    next: Option<i64>,
}

impl Ticker {
    /// Waits for the next tick.
    pub async fn tick(&mut self) {
        if let Some(t) = self.system.as_mut() {
            t.tick().await;
            return;
        }
        if let Some(at) = self.next {
            self.clock.sleep_until_ms(at).await;
        }
        self.next = Some(self.clock.now_ms() + self.every.as_millis() as i64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_manual_clock_moves_only_when_advanced() {
        let c = Clock::manual(1_000);
        let t0 = c.instant();
        assert_eq!(c.now_ms(), 1_000);
        let sleeper = {
            let c = c.clone();
            tokio::spawn(async move { c.sleep(Duration::from_secs(60)).await })
        };
        tokio::task::yield_now().await;
        c.advance(Duration::from_secs(59));
        tokio::task::yield_now().await;
        assert!(!sleeper.is_finished(), "woken a second early");
        c.advance(Duration::from_secs(1));
        tokio::time::timeout(Duration::from_secs(5), sleeper)
            .await
            .expect("woken when its time came")
            .unwrap();
        assert_eq!(c.now_ms(), 61_000);
        assert_eq!(c.instant() - t0, Duration::from_secs(60));
    }

    #[tokio::test]
    async fn a_manual_ticker_ticks_at_once_then_each_period() {
        let c = Clock::manual(0);
        let mut t = c.ticker(Duration::from_secs(10));
        t.tick().await;
        let second = tokio::time::timeout(Duration::from_millis(50), t.tick()).await;
        assert!(second.is_err(), "no second tick before the period");
        c.advance(Duration::from_secs(10));
        tokio::time::timeout(Duration::from_secs(5), t.tick())
            .await
            .expect("the second tick once the period passed");
    }
}
