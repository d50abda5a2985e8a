//! The server's one engine pool (docs/api.md, "Operations"): computer moves, hints and game reviews all
//! search under one bound, the number of search threads the server may run at once
//! ([`EngineConfig::threads`], by default the machine's cores; `bao serve --engine-threads`).
//!
//! * A search takes one permit per thread it uses ([`Permit`]) and gives them back when the
//!   permit is dropped: when the search ends, fails or panics (the permit is dropped while
//!   unwinding). A live search's permit is moved onto the blocking thread that searches, so
//!   a request cancelled mid-search (a client that went away) gives its permits back when
//!   that search has stopped, never while it still runs.
//! * Live work goes first. Computer moves and hints ([`EnginePool::live`]) wait in one
//!   first-come, first-served queue (tokio's fair semaphore). A review
//!   ([`EnginePool::review`]) takes a permit only while no live search waits, and one per
//!   ply it reviews (at most two short searches), not one for the whole game: a computer
//!   move waits at most for the review ply that is being searched, however long the
//!   review. Under a steady stream of live searches reviews wait (their own queue is
//!   bounded, crate::features::review).
//! * [`EnginePool::stats`] tells what searches and what waits (`GET /api/health`,
//!   `"engine"`), with the most threads ever seen searching at once (tests check the bound
//!   with it).

use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

/// How the pool works (`bao serve --engine-threads N --search-threads T`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Search threads running at once, at most (at least 1): computer moves, hints and
    /// reviews together.
    pub threads: usize,
    /// Threads of one search on a clock or a time budget (a computer move in a game with a
    /// clock, a hint), at most `threads`. Searches with a node or depth budget (the levels
    /// without a clock, reviews) use one thread: more would only share the same nodes.
    pub search_threads: usize,
    /// A hint's budget: `None` for the top level's (at most 0.7 s); tests give hints a
    /// long search to cancel.
    pub hint: Option<bao_engine::Limits>,
}

impl EngineConfig {
    /// The machine's cores, as the operating system tells them (2 when it cannot).
    pub fn cores() -> usize {
        std::thread::available_parallelism().map_or(2, |n| n.get())
    }
}

impl Default for EngineConfig {
    /// One thread per core in all, one per search, hints on the top level's budget.
    fn default() -> Self {
        EngineConfig {
            threads: EngineConfig::cores(),
            search_threads: 1,
            hint: None,
        }
    }
}

/// Who searches: live work comes before reviews.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Work {
    /// A computer move or a hint: someone is waiting for it.
    Live,
    /// One ply of a game review.
    Review,
}

/// What the pool is doing (`GET /api/health`, `"engine"`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct EngineStats {
    /// The bound: search threads at once, at most.
    pub threads: usize,
    /// Threads held by permits now.
    pub busy: usize,
    /// Live searches (computer moves, hints) holding permits.
    pub live_running: usize,
    /// Live searches waiting for permits.
    pub live_waiting: usize,
    /// Review plies holding a permit.
    pub review_running: usize,
    /// Reviews waiting for a permit (between two plies).
    pub review_waiting: usize,
    /// Threads searching now (a permit taken and its search started).
    pub searching: usize,
    /// The most threads seen searching at once since the server started.
    pub max_searching: usize,
    /// Permits given since the server started (one per live search, one per review ply).
    pub granted: u64,
}

/// Why no permit was given.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PoolError {
    /// The pool was closed (the server is stopping).
    #[error("the engine is stopping")]
    Closed,
    /// The search's thread failed (the engine panicked).
    #[error("the engine failed")]
    Failed,
}

/// Stops a request's search when the request is dropped (the client went away): set when
/// dropped, and the search's stop flag raised once the search is set up.
#[derive(Default)]
struct Cancel {
    cancelled: Arc<AtomicBool>,
    /// The search's stop flag, once the search is set up.
    stop: Arc<Mutex<Option<Arc<AtomicBool>>>>,
}

impl Drop for Cancel {
    fn drop(&mut self) {
        self.cancelled.store(true, Ordering::SeqCst);
        if let Some(s) = &*self.stop.lock().unwrap_or_else(|p| p.into_inner()) {
            s.store(true, Ordering::SeqCst);
        }
    }
}

struct Shared {
    bound: usize,
    sem: Arc<Semaphore>,
    stats: Mutex<EngineStats>,
    /// Wakes reviews waiting for a permit: a permit came back, or no live search waits now.
    freed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, EngineStats> {
        self.stats.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The pool; clones share it.
#[derive(Clone)]
pub struct EnginePool {
    shared: Arc<Shared>,
    config: EngineConfig,
}

impl EnginePool {
    /// A pool of `config.threads` permits (at least 1).
    pub fn new(config: &EngineConfig) -> EnginePool {
        let bound = config
            .threads
            .clamp(1, Semaphore::MAX_PERMITS.min(u32::MAX as usize));
        EnginePool {
            shared: Arc::new(Shared {
                bound,
                sem: Arc::new(Semaphore::new(bound)),
                stats: Mutex::new(EngineStats {
                    threads: bound,
                    ..EngineStats::default()
                }),
                freed: Condvar::new(),
            }),
            config: EngineConfig {
                threads: bound,
                search_threads: config.search_threads.clamp(1, bound),
                hint: config.hint,
            },
        }
    }

    /// The configuration, with the counts clamped as the pool uses them.
    pub fn config(&self) -> EngineConfig {
        self.config
    }

    /// The bound: search threads at once, at most.
    pub fn bound(&self) -> usize {
        self.shared.bound
    }

    /// Threads for one timed live search (see [`EngineConfig::search_threads`]).
    pub fn search_threads(&self) -> usize {
        self.config.search_threads
    }

    /// What runs and waits now.
    pub fn stats(&self) -> EngineStats {
        *self.shared.lock()
    }

    /// The strongest level's search of `pos` for a request (a hint, an analysis): with
    /// `limits`, or that level's limits cut to `time`; repetitions counted from `history`.
    /// Waits for live permits like the computer players, searches on a blocking thread with
    /// the threads it was given, and stops when this future is dropped (the client went
    /// away). The permits come back when the search has ended.
    pub async fn search_for_request(
        &self,
        rules: bao_rules::Rules,
        pos: bao_rules::Position,
        history: Vec<bao_rules::Position>,
        limits: Option<bao_engine::Limits>,
        time: std::time::Duration,
    ) -> Result<bao_engine::search::SearchResult, PoolError> {
        let permit = self.live(self.search_threads()).await?;
        let cancel = Cancel::default();
        let (cancelled, stop_slot) = (cancel.cancelled.clone(), cancel.stop.clone());
        let r = tokio::task::spawn_blocking(move || {
            permit.run(|threads| {
                let l = bao_engine::Level::get(bao_engine::MAX_LEVEL);
                let mut s = l.searcher(&rules);
                s.set_threads(threads);
                s.set_history(&history);
                let stop = s.stop_flag();
                *stop_slot.lock().unwrap_or_else(|p| p.into_inner()) = Some(stop.clone());
                if cancelled.load(Ordering::SeqCst) {
                    return None;
                }
                let limits = limits.unwrap_or(bao_engine::Limits {
                    time: Some(time),
                    ..l.limits_for(rules.variant)
                });
                // The search clears its stop flag as it begins: a cancellation that came
                // just then is seen after the first iteration.
                Some(s.search_root(&pos, limits, &mut |_| {
                    if cancelled.load(Ordering::SeqCst) {
                        stop.store(true, Ordering::SeqCst);
                    }
                }))
            })
        })
        .await
        .map_err(|e| {
            tracing::error!("a request's search failed: {e}");
            PoolError::Failed
        })?;
        drop(cancel);
        // `None` only when cancelled, and then nobody waits for this answer.
        r.ok_or(PoolError::Closed)
    }

    /// Permits for a live search of up to `threads` threads (clamped to 1..=bound): waits,
    /// in turn with the other live searches and before any review, for one, then takes as
    /// many more as are free at once ([`Permit::threads`] says how many). Cancel-safe:
    /// dropping the future leaves the queue.
    pub async fn live(&self, threads: usize) -> Result<Permit, PoolError> {
        let n = threads.clamp(1, self.shared.bound);
        self.shared.lock().live_waiting += 1;
        // Counts this request out of the queue however the wait ends (given, failed or
        // dropped), and wakes reviews when it was the last one.
        struct Waiting<'a>(&'a Shared);
        impl Drop for Waiting<'_> {
            fn drop(&mut self) {
                let mut st = self.0.lock();
                st.live_waiting -= 1;
                if st.live_waiting == 0 {
                    self.0.freed.notify_all();
                }
            }
        }
        let waiting = Waiting(&self.shared);
        let mut sem = self
            .shared
            .sem
            .clone()
            .acquire_owned()
            .await
            .map_err(|_| PoolError::Closed)?;
        // More threads only when they are free now: waiting for them would hold a game
        // up behind searches that one thread could have answered.
        while sem.num_permits() < n {
            match self.shared.sem.clone().try_acquire_owned() {
                Ok(p) => sem.merge(p),
                Err(_) => break,
            }
        }
        let n = sem.num_permits();
        let mut st = self.shared.lock();
        st.busy += n;
        st.live_running += 1;
        st.granted += 1;
        drop(st);
        drop(waiting);
        Ok(Permit {
            shared: self.shared.clone(),
            threads: n,
            work: Work::Live,
            started: false,
            sem: Some(sem),
        })
    }

    /// One permit for one review ply, on the review's own (blocking) thread: waits while
    /// any live search waits or no permit is free. `None` once `stop` is set and
    /// [`EnginePool::wake_reviews`] called.
    pub fn review(&self, stop: &AtomicBool) -> Option<Permit> {
        let sh = &self.shared;
        let mut st = sh.lock();
        st.review_waiting += 1;
        let sem = loop {
            if stop.load(Ordering::SeqCst) {
                break None;
            }
            // Permits are given back under this lock (Permit::drop) and the live queue only
            // empties under it, so nothing can be missed between this check and the wait.
            if st.live_waiting == 0 {
                if let Ok(p) = sh.sem.clone().try_acquire_owned() {
                    break Some(p);
                }
            }
            st = sh.freed.wait(st).unwrap_or_else(|p| p.into_inner());
        };
        st.review_waiting -= 1;
        let sem = sem?;
        st.busy += 1;
        st.review_running += 1;
        st.granted += 1;
        Some(Permit {
            shared: sh.clone(),
            threads: 1,
            work: Work::Review,
            started: false,
            sem: Some(sem),
        })
    }

    /// Wakes every review waiting in [`EnginePool::review`] to look at its `stop` flag
    /// again.
    pub fn wake_reviews(&self) {
        let _st = self.shared.lock();
        self.shared.freed.notify_all();
    }
}

/// Permits for one search; they go back to the pool when this is dropped (also while
/// unwinding from a panic).
pub struct Permit {
    shared: Arc<Shared>,
    threads: usize,
    work: Work,
    started: bool,
    sem: Option<OwnedSemaphorePermit>,
}

impl Permit {
    /// The threads this search may use.
    pub fn threads(&self) -> usize {
        self.threads
    }

    /// Counts this search as running from now until the permit is dropped.
    pub fn start(&mut self) {
        if self.started {
            return;
        }
        self.started = true;
        let mut st = self.shared.lock();
        st.searching += self.threads;
        st.max_searching = st.max_searching.max(st.searching);
    }

    /// Runs the search `f` under this permit (on the calling thread, a blocking one) and
    /// gives the permit back when `f` returns or panics.
    pub fn run<R>(mut self, f: impl FnOnce(usize) -> R) -> R {
        self.start();
        f(self.threads)
    }
}

impl Drop for Permit {
    fn drop(&mut self) {
        let mut st = self.shared.lock();
        if self.started {
            st.searching -= self.threads;
        }
        st.busy -= self.threads;
        match self.work {
            Work::Live => st.live_running -= 1,
            Work::Review => st.review_running -= 1,
        }
        // Given back under the lock, so a review checking for a free permit either sees it
        // or is already waiting for this notification.
        drop(self.sem.take());
        self.shared.freed.notify_all();
    }
}
