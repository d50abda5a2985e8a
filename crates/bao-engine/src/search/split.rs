//! The multi-threaded search: each iteration split at the root between the calling thread
//! and its helpers, which share the transposition table.
//!
//! The calling (main) thread never waits for a helper. It searches the first root move (the
//! previous best, which sets alpha) while the helpers try to refute the other moves against
//! a guess; once the first reply to that move is searched, the helpers share the other
//! replies with it instead (their bounds are then exact, not guessed), and go back to the
//! refutations when none is left. Then every thread takes the root moves still open, and
//! when none is left to take, the main thread searches itself any move a helper is still
//! busy with (at the root and at the first move's node alike). So a helper that the
//! operating system leaves waiting (a busy machine) costs the main thread nothing but the
//! help; it drops its work as soon as the main thread moves on (the epoch changes). Helpers
//! with nothing to do search the first move a ply or two deeper, for the next iteration.

use super::{Searcher, INF};
use bao_rules::{LegalMove, Position};
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
    /// Search the replies `replies[1..]` at the first root move's node `node` (ply 1), `d`
    /// plies below each, against the best score there so far, taking them one at a time with
    /// `next` and recording them under `id`; then go on with the refutations of `refute`
    /// (a `Refute` task).
    Node {
        node: Arc<Position>,
        d: i32,
        replies: Arc<Vec<LegalMove>>,
        next: Arc<AtomicUsize>,
        id: u64,
        refute: Box<Task>,
    },
    Quit,
}

/// The first root move's node is split with the helpers when it has at least this many
/// plies to go: below it, a reply is too cheap to share (measured in time to depth; 2 and 4
/// did no better).
const NODE_SPLIT_DEPTH: i32 = 3;

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
    /// Results at the first root move's node, by index into its replies, with the id of the
    /// `Node` task they belong to (results of an older one are ignored).
    node: Mutex<(u64, Board)>,
    /// The best exact score so far at the first root move's node.
    node_alpha: AtomicI32,
    ids: AtomicU64,
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
            node: Mutex::new((
                0,
                Board {
                    known: Vec::new(),
                    best: (-INF, 0),
                },
            )),
            node_alpha: AtomicI32::new(-INF),
            ids: AtomicU64::new(1),
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

    /// Records a result of reply `k` at the first move's node, for the `Node` task `id`.
    fn record_reply(&self, id: u64, k: usize, r: Known) {
        let mut b = lock(&self.node);
        if b.0 == id {
            Self::put(&mut b.1, k, r, &self.node_alpha);
        }
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

/// What a null-window search at `a` that returned `v` showed (`v` is exact when above `a`:
/// a fail-high is searched again with the window open above).
fn known(v: i32, a: i32) -> Known {
    if v > a {
        Known::Exact(v)
    } else {
        Known::AtMost(a)
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
            let task = match task {
                Task::Node {
                    node,
                    d,
                    replies,
                    next,
                    id,
                    refute,
                } => {
                    self.path.push(Self::entry(&node));
                    while !self.aborted {
                        let j = 1 + next.fetch_add(1, Ordering::SeqCst);
                        let Some(r) = replies.get(j) else {
                            break;
                        };
                        let a = shared.node_alpha.load(Ordering::SeqCst);
                        let v = self.late_child(&node, r, 1, d, a, INF, j);
                        if !self.aborted {
                            shared.record_reply(id, j, known(v, a));
                        }
                    }
                    self.path.pop();
                    *refute
                }
                t => t,
            };
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
                Task::Node { .. } => unreachable!("a Node task is taken apart above"),
            };
            while !self.aborted {
                let Some(&j) = open.get(next.fetch_add(1, Ordering::SeqCst)) else {
                    break;
                };
                let a = guess.unwrap_or_else(|| shared.alpha.load(Ordering::SeqCst));
                let v = self.root_move(&moves[order[j]], depth, a, false);
                if !self.aborted {
                    shared.record(epoch, j, known(v, a));
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
        shared: &Arc<Shared>,
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
        let refute = Task::Refute {
            depth,
            guess,
            order: order_arc.clone(),
            next: Arc::new(AtomicUsize::new(0)),
        };
        shared.publish(refute.clone());
        let s0 = self.first_move(shared, &moves[order[0]], depth, &refute);
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
            shared.record(u64::MAX, j, known(v, a));
        }
        shared.publish(Task::Idle);
        let (b, j) = lock(&shared.board).best;
        (Some(order[j]), b)
    }
}

/// The first root move's node to split, handed to [`Searcher::search`] (which splits it
/// after its first reply): what the helpers share, and the refutations they go back to.
pub(super) struct NodeSplit {
    shared: Arc<Shared>,
    refute: Task,
}

impl Searcher {
    /// The first root move `m` searched to `depth` with a full window, like
    /// [`Searcher::root_move`], but with its node split with the helpers once its first
    /// reply is searched (when deep enough); the helpers go back to `refute` afterwards.
    fn first_move(
        &mut self,
        shared: &Arc<Shared>,
        m: &LegalMove,
        depth: u32,
        refute: &Task,
    ) -> i32 {
        // The node has `depth - 1` plies to go.
        if depth as i32 > NODE_SPLIT_DEPTH {
            self.split_node = Some(NodeSplit {
                shared: shared.clone(),
                refute: refute.clone(),
            });
        }
        let s = self.root_move(m, depth, -INF, true);
        // Unused when the node did not get as far as its second reply (a table hit, a
        // forced move, the end of the game or of the budget).
        self.split_node = None;
        s
    }

    /// The rest of the first root move's node `pos` (ply 1), when [`Searcher::first_move`]
    /// asked for its split (else `None`): its `moves` are searched in `order` to `d` plies
    /// below each, the first scored `s0`, the others shared with the helpers with exact
    /// bounds. Returns the node's best score and its move (an index into `moves`); when the
    /// search is stopped meanwhile, the best score among the replies searched to the end.
    // Out of line: `search` calls it once per iteration, and its locals must not weigh on
    // every other node.
    #[cold]
    #[inline(never)]
    pub(super) fn split_rest(
        &mut self,
        pos: &Position,
        moves: &[LegalMove],
        order: &[(i32, usize)],
        d: i32,
        s0: i32,
    ) -> Option<(i32, usize)> {
        let sp = self.split_node.take()?;
        let shared = &*sp.shared;
        let replies: Arc<Vec<LegalMove>> = Arc::new(order.iter().map(|x| moves[x.1]).collect());
        let id = shared.ids.fetch_add(1, Ordering::SeqCst);
        {
            let mut b = lock(&shared.node);
            b.0 = id;
            b.1.known = vec![None; replies.len()];
            b.1.best = (-INF, 0);
            shared.node_alpha.store(-INF, Ordering::SeqCst);
            Shared::put(&mut b.1, 0, Known::Exact(s0), &shared.node_alpha);
        }
        let next = Arc::new(AtomicUsize::new(0));
        shared.publish(Task::Node {
            node: Arc::new(*pos),
            d,
            replies: replies.clone(),
            next: next.clone(),
            id,
            refute: Box::new(sp.refute),
        });
        loop {
            // The next reply nobody took, else one a helper is still searching.
            let j = match 1 + next.fetch_add(1, Ordering::SeqCst) {
                j if j < replies.len() => j,
                _ => {
                    let b = lock(&shared.node);
                    match (1..replies.len()).find(|&j| !settled(b.1.known[j], b.1.best.0)) {
                        Some(j) => j,
                        None => break,
                    }
                }
            };
            let a = shared.node_alpha.load(Ordering::SeqCst);
            if settled(lock(&shared.node).1.known[j], a) {
                continue;
            }
            let v = self.late_child(pos, &replies[j], 1, d, a, INF, j);
            if self.aborted {
                break;
            }
            shared.record_reply(id, j, known(v, a));
        }
        let (best, j) = lock(&shared.node).1.best;
        Some((best, order[j].1))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::Limits;
    use crate::Weights;
    use bao_rules::{Game, Rules, Variant};

    /// With no helper to take replies, the split first move is searched exactly as the plain
    /// one: the same score and the same nodes (same order, windows and table stores).
    #[test]
    fn a_split_node_alone_searches_as_the_plain_search() {
        for var in Variant::ALL {
            let rules = Rules::new(var);
            let mut g = Game::new(Position::start(&rules), rules);
            let mut tried = 0;
            for ply in 0..16 {
                let ms = g.legal_moves();
                if ms.is_empty() || g.outcome().is_over() {
                    break;
                }
                if ply % 3 == 0 {
                    let pos = *g.position();
                    for depth in [4, 6] {
                        let run = |split: bool| {
                            let mut s = Searcher::new(rules, Weights::for_variant(var), 16);
                            s.begin(Limits::depth(depth));
                            s.path.push(Searcher::entry(&pos));
                            let moves = s.gen_exact(&pos);
                            let v = if split {
                                s.first_move(
                                    &Arc::new(Shared::new()),
                                    &moves[0],
                                    depth,
                                    &Task::Idle,
                                )
                            } else {
                                s.root_move(&moves[0], depth, -INF, true)
                            };
                            (v, s.nodes)
                        };
                        assert_eq!(run(true), run(false), "{pos} depth {depth}");
                        tried += 1;
                    }
                }
                let m = ms.as_slice()[ms.len() / 2];
                g.play(&m);
            }
            assert!(tried >= 4, "{var:?}: only {tried} searches compared");
        }
    }
}
