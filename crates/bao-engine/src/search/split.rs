//! The multi-threaded search: each iteration split at the root between the calling thread
//! and its helpers, which share the transposition table.
//!
//! The calling (main) thread never waits for a helper. It searches the first root move (the
//! previous best, which sets alpha) while the helpers try to refute the other moves against
//! a guess; then every thread takes the moves still open, and when none is left to take, the
//! main thread searches itself any move a helper is still busy with. So a helper that the
//! operating system leaves waiting (a busy machine) costs the main thread nothing but the
//! help; it drops its work as soon as the main thread moves on (the epoch changes). Helpers
//! with nothing to do search the first move a ply or two deeper, for the next iteration.

use super::{Searcher, INF};
use bao_rules::LegalMove;
use std::sync::atomic::{AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};

/// What a root move's search showed: its exact score, or that it is at most a bound.
#[derive(Clone, Copy, Debug)]
enum Known {
    Exact(i32),
    AtMost(i32),
}

/// The helpers' current job, published by the main thread.
#[derive(Clone)]
pub(super) enum Task {
    Idle,
    /// Refute the moves `order[1..]` against `guess` (when there is one), taking them one at
    /// a time with `next`; then search the first move deeper.
    Refute {
        depth: u32,
        guess: Option<i32>,
        order: Arc<Vec<usize>>,
        next: Arc<AtomicUsize>,
    },
    /// Search the moves `order[open[..]]` against the best score so far, taking them one at
    /// a time with `next`; then search the first move deeper.
    Open {
        depth: u32,
        order: Arc<Vec<usize>>,
        open: Arc<Vec<usize>>,
        next: Arc<AtomicUsize>,
    },
    Quit,
}

/// Results of the current iteration, by index into its root order.
struct Board {
    known: Vec<Option<Known>>,
    /// The best score among exact results and the index of its move.
    best: (i32, usize),
}

/// What the threads of one search share.
pub(super) struct Shared {
    /// Bumped whenever the helpers must drop what they are doing.
    epoch: Arc<AtomicU64>,
    task: Mutex<Task>,
    wake: Condvar,
    board: Mutex<Board>,
    /// The best exact score so far (alpha of the open moves).
    alpha: AtomicI32,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(super) fn new() -> Shared {
        Shared {
            epoch: Arc::new(AtomicU64::new(0)),
            task: Mutex::new(Task::Idle),
            wake: Condvar::new(),
            board: Mutex::new(Board {
                known: Vec::new(),
                best: (-INF, 0),
            }),
            alpha: AtomicI32::new(-INF),
        }
    }

    /// Gives the helpers a new task; whatever they were doing is dropped.
    pub(super) fn publish(&self, task: Task) {
        let mut t = lock(&self.task);
        *t = task;
        self.epoch.fetch_add(1, Ordering::SeqCst);
        self.wake.notify_all();
    }

    /// Records a result of move `k` found in `epoch` (ignored when the iteration has moved on).
    fn record(&self, epoch: u64, k: usize, r: Known) {
        let mut b = lock(&self.board);
        if self.epoch.load(Ordering::SeqCst) != epoch && epoch != u64::MAX {
            return;
        }
        Self::put(&mut b, k, r, &self.alpha);
    }

    fn put(b: &mut Board, k: usize, r: Known, alpha: &AtomicI32) {
        if let Known::Exact(v) = r {
            // Equal scores keep the earlier move in the order, as one thread does.
            if v > b.best.0 || (v == b.best.0 && k < b.best.1) {
                b.best = (v, k);
                alpha.fetch_max(v, Ordering::SeqCst);
            }
        }
        match (b.known[k], r) {
            (Some(Known::Exact(_)), _) => {}
            (Some(Known::AtMost(a)), Known::AtMost(c)) if a <= c => {}
            _ => b.known[k] = Some(r),
        }
    }
}

/// Whether a move's result settles it against the best score so far.
fn settled(r: Option<Known>, best: i32) -> bool {
    match r {
        Some(Known::Exact(_)) => true,
        Some(Known::AtMost(a)) => a <= best,
        None => false,
    }
}

impl Searcher {
    /// A helper's life during one search: wait for a task, do it, until `Quit`.
    pub(super) fn help(&mut self, shared: &Shared, moves: &[LegalMove], k: usize) {
        let mut seen = u64::MAX;
        loop {
            let (epoch, task) = {
                let mut t = lock(&shared.task);
                loop {
                    let e = shared.epoch.load(Ordering::SeqCst);
                    if e != seen {
                        break (e, t.clone());
                    }
                    t = shared.wake.wait(t).unwrap_or_else(|e| e.into_inner());
                }
            };
            seen = epoch;
            self.watch = Some((shared.epoch.clone(), epoch));
            let (depth, order, next, open, guess) = match task {
                Task::Quit => break,
                Task::Idle => continue,
                Task::Refute {
                    depth,
                    guess,
                    order,
                    next,
                } => {
                    let open: Vec<usize> = if guess.is_some() {
                        (1..order.len()).collect()
                    } else {
                        Vec::new()
                    };
                    (depth, order, next, open, guess)
                }
                Task::Open {
                    depth,
                    order,
                    open,
                    next,
                } => (depth, order, next, open.to_vec(), None),
            };
            while !self.aborted {
                let Some(&j) = open.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    break;
                };
                let a = guess.unwrap_or_else(|| shared.alpha.load(Ordering::SeqCst));
                let v = self.root_move(&moves[order[j]], depth, a, false);
                if !self.aborted {
                    let r = if v > a {
                        Known::Exact(v)
                    } else {
                        Known::AtMost(a)
                    };
                    shared.record(epoch, j, r);
                }
            }
            if !self.aborted {
                let d = depth + 1 + (k as u32 & 1);
                self.root_move(&moves[order[0]], d, -INF, true);
            }
            // Stopped by the epoch or by the search's limits: either way the main thread
            // decides what comes next.
            self.aborted = false;
        }
        self.watch = None;
    }

    /// One iteration split with the helpers (see the module documentation). Returns the best
    /// move and its score among the moves searched to the end, and marks the search aborted
    /// when the iteration was not finished.
    pub(super) fn root_split(
        &mut self,
        shared: &Shared,
        moves: &[LegalMove],
        order: &[usize],
        depth: u32,
        guess: Option<i32>,
    ) -> (Option<usize>, i32) {
        let order_arc = Arc::new(order.to_vec());
        {
            let mut b = lock(&shared.board);
            b.known = vec![None; order.len()];
            b.best = (-INF, 0);
            shared.alpha.store(-INF, Ordering::SeqCst);
        }
        shared.publish(Task::Refute {
            depth,
            guess,
            order: order_arc.clone(),
            next: Arc::new(AtomicUsize::new(0)),
        });
        let s0 = self.root_move(&moves[order[0]], depth, -INF, true);
        if self.aborted {
            shared.publish(Task::Idle);
            return (None, -INF);
        }
        let open: Vec<usize> = {
            let mut b = lock(&shared.board);
            Shared::put(&mut b, 0, Known::Exact(s0), &shared.alpha);
            let best = b.best.0;
            (1..order.len())
                .filter(|&j| !settled(b.known[j], best))
                .collect()
        };
        let open = Arc::new(open);
        let next = Arc::new(AtomicUsize::new(0));
        shared.publish(Task::Open {
            depth,
            order: order_arc,
            open: open.clone(),
            next: next.clone(),
        });
        loop {
            // The next move nobody took, else one a helper is still searching.
            let j = match open.get(next.fetch_add(1, Ordering::SeqCst)) {
                Some(&j) => j,
                None => {
                    let b = lock(&shared.board);
                    match open.iter().find(|&&j| !settled(b.known[j], b.best.0)) {
                        Some(&j) => j,
                        None => break,
                    }
                }
            };
            let a = shared.alpha.load(Ordering::SeqCst);
            if settled(lock(&shared.board).known[j], a) {
                continue;
            }
            let v = self.root_move(&moves[order[j]], depth, a, false);
            if self.aborted {
                break;
            }
            let r = if v > a {
                Known::Exact(v)
            } else {
                Known::AtMost(a)
            };
            shared.record(u64::MAX, j, r);
        }
        shared.publish(Task::Idle);
        let (b, j) = lock(&shared.board).best;
        (Some(order[j]), b)
    }
}
