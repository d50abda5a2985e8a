//! The search: iterative deepening principal variation search (negamax alpha-beta) with a
//! transposition table, move ordering (hash move, captures by seeds taken, killers,
//! history), late move reductions (a quiet move late in the order is first searched a ply
//! or two shallower), quiescence over capturing moves, and win/loss scores by distance.
//!
//! With one thread (the default) the search is deterministic: with a depth or node limit, the
//! same position, rules, weights and history always give the same move, score and node count.
//!
//! With N threads ([`Searcher::set_threads`]) the calling thread and N-1 helper searchers
//! share one lock-free transposition table, each with its own killers, history and
//! evaluation cache. Each iteration of [`Searcher::search_root`] is split at the root: the
//! calling thread searches the first move (the previous best, which sets alpha) while the
//! helpers try to refute the other moves against the last score of the same depth parity,
//! then search the first move a ply or two deeper for the next iteration; once the first
//! reply to the first move is searched, the helpers share that move's other replies with
//! the calling thread before going back to their refutations; then all threads
//! take the moves still open one at a time against the best score so far. A helper's work on
//! a move is used only when that move was searched to the end. [`Searcher::analyse`] uses the
//! helpers as plain Lazy SMP searchers that only fill the table. The result is not
//! reproducible with more than one thread (thread timing decides what the table holds).
//!
//! A node is one legal move executed by the rules crate and the position it reaches. With N
//! threads the node counts (reported and limited) are the sum over all threads; the threads
//! add their counts to a shared total in batches, so a node limit may be overshot by about
//! a thousand nodes per thread.
//!
//! Never-ending moves (BRD-6.2) are decided exactly at the root, so the move played is
//! always legal. Inside the tree, moves are generated with a lap budget
//! ([`eval::LAP_BUDGET`]): a few positions hold never-ending moves whose cycle is millions of
//! laps long, and following one would cost the search a second; such a node is scored by its
//! static features instead (its moves stay unknown).

use crate::eval::{self, MoveFeatures, Weights};
use crate::time::Instant;
use crate::zobrist;
use bao_rules::{
    legal_moves, legal_moves_within, LegalMove, Move, NeverEnding, Position, Repetition, Rules,
    Side,
};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;

mod split;
use std::time::Duration;

/// The score of a win at the root; a win in n plies scores `WIN - n`.
pub const WIN: i32 = 1_000_000;
/// Scores beyond this are wins or losses by distance.
pub const WIN_BOUND: i32 = WIN - 10_000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 128;
/// Quiescence follows at most this many capturing plies.
const Q_MAX: i32 = 8;

/// A score for people: centi-seeds, or a win/loss in a number of plies.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-seeds for the side to move (100 = one seed).
    Cp(i32),
    /// The side to move wins in this many plies (its own moves and the replies).
    Win(u32),
    /// The side to move loses in this many plies.
    Loss(u32),
}

impl Score {
    /// From an internal score.
    pub fn from_internal(s: i32) -> Score {
        if s >= WIN_BOUND {
            Score::Win((WIN - s) as u32)
        } else if s <= -WIN_BOUND {
            Score::Loss((WIN + s) as u32)
        } else {
            Score::Cp(s)
        }
    }
}

impl std::fmt::Display for Score {
    /// `cp 120`, `win 3`, `loss 4` (the protocol's score field).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(c) => write!(f, "cp {c}"),
            Score::Win(n) => write!(f, "win {n}"),
            Score::Loss(n) => write!(f, "loss {n}"),
        }
    }
}

/// Search limits; the search stops at the first one reached. No limit at all means
/// "until stopped" (capped at depth 64).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Maximum depth in plies (the nominal depth: late quiet moves are searched a ply or two
    /// shallower unless [`Searcher::reductions`] is off; quiescence comes on top).
    pub depth: Option<u32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// Maximum time (the hard limit: the search stops at once).
    pub time: Option<Duration>,
    /// No new iteration starts after this time (the soft limit). By default none for
    /// [`Searcher::search_root`], which uses a fixed time to the end (the unfinished last
    /// iteration counts once its first move is searched), and half of `time` for
    /// [`Searcher::analyse`] (whose unfinished iteration counts for nothing). Ignored with a
    /// depth limit.
    pub soft_time: Option<Duration>,
}

impl Limits {
    /// A depth limit.
    pub const fn depth(d: u32) -> Limits {
        Limits {
            depth: Some(d),
            nodes: None,
            time: None,
            soft_time: None,
        }
    }
    /// A node limit.
    pub const fn nodes(n: u64) -> Limits {
        Limits {
            depth: None,
            nodes: Some(n),
            time: None,
            soft_time: None,
        }
    }
    /// A time limit.
    pub fn time(ms: u64) -> Limits {
        Limits {
            time: Some(Duration::from_millis(ms)),
            ..Default::default()
        }
    }
}

/// Progress of a search, reported after each completed iteration.
#[derive(Clone, Debug)]
pub struct Info {
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// Score of the best move for the side to move.
    pub score: Score,
    /// Nodes so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
    /// Principal variation.
    pub pv: Vec<Move>,
}

impl Info {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let s = self.time.as_secs_f64();
        if s > 0.0 {
            (self.nodes as f64 / s) as u64
        } else {
            0
        }
    }
}

/// The result of a search.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The best move, `None` when the side to move has no legal move.
    pub best: Option<LegalMove>,
    /// Its score.
    pub score: Score,
    /// Internal score (for comparisons).
    pub raw_score: i32,
    /// Depth completed.
    pub depth: u32,
    /// Deepest ply reached.
    pub seldepth: u32,
    /// Nodes searched (legal moves executed, see the module documentation).
    pub nodes: u64,
    /// Positions the search entered (interior nodes and quiescence nodes): the nodes whose
    /// own moves were generated. Smaller than `nodes` by about the branching factor.
    pub visited: u64,
    /// Time used.
    pub time: Duration,
    /// Principal variation, starting with the best move.
    pub pv: Vec<Move>,
}

#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
struct Entry {
    key: u64,
    score: i32,
    depth: i16,
    bound: u8,
    /// Index of the best move in the canonical legal move list, +1 (0: none).
    mv: u8,
}

const EXACT: u8 = 1;
const LOWER: u8 = 2;
const UPPER: u8 = 3;

impl Entry {
    fn data(&self) -> u64 {
        (self.score as u32 as u64)
            | (self.depth as u16 as u64) << 32
            | (self.bound as u64) << 48
            | (self.mv as u64) << 56
    }
    fn from_parts(key: u64, d: u64) -> Entry {
        Entry {
            key,
            score: d as u32 as i32,
            depth: (d >> 32) as u16 as i16,
            bound: (d >> 48) as u8,
            mv: (d >> 56) as u8,
        }
    }
}

/// A transposition table (always-replace buckets of two: depth-preferred and newest),
/// shared without locks by the threads of a search: each entry is two atomic words, the
/// key xor the data and the data, so an entry torn by two threads writing at once does not
/// match its key and is ignored (the "lockless hashing" of Hyatt and Mann).
struct Table {
    /// Entry i is words 2i (key ^ data) and 2i+1 (data).
    words: Box<[AtomicU64]>,
    mask: usize,
}

impl Table {
    fn new(bits: u32) -> Table {
        let n = 1usize << bits;
        Table {
            words: (0..2 * n).map(|_| AtomicU64::new(0)).collect(),
            mask: n - 2,
        }
    }
    fn get(&self, i: usize) -> Entry {
        let x = self.words[2 * i].load(Ordering::Relaxed);
        let d = self.words[2 * i + 1].load(Ordering::Relaxed);
        Entry::from_parts(x ^ d, d)
    }
    fn probe(&self, key: u64) -> Option<Entry> {
        let i = (key as usize) & self.mask;
        [self.get(i), self.get(i + 1)]
            .into_iter()
            .find(|e| e.key == key && e.bound != 0)
    }
    fn store(&self, e: Entry) {
        let i = (e.key as usize) & self.mask;
        let first = self.get(i);
        let slot = if first.key == e.key || first.depth <= e.depth {
            i
        } else {
            i + 1
        };
        let d = e.data();
        self.words[2 * slot].store(e.key ^ d, Ordering::Relaxed);
        self.words[2 * slot + 1].store(d, Ordering::Relaxed);
    }
    fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
    }
}

/// Score a win/loss relative to the root for storage at `ply`, and back.
fn to_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s + ply as i32
    } else if s <= -WIN_BOUND {
        s - ply as i32
    } else {
        s
    }
}
fn from_tt(s: i32, ply: usize) -> i32 {
    if s >= WIN_BOUND {
        s - ply as i32
    } else if s <= -WIN_BOUND {
        s + ply as i32
    } else {
        s
    }
}

/// Nodes a thread of a multi-threaded search counts before adding them to the shared total.
const FLUSH_NODES: u64 = 1024;

/// A searcher: owns its transposition table and heuristics, reusable across searches.
pub struct Searcher {
    rules: Rules,
    weights: Weights,
    tt: Arc<Table>,
    /// Helper searchers of a multi-threaded search, sharing `tt` (the root split of
    /// search/split.rs, or Lazy SMP for [`Searcher::analyse`]).
    helpers: Vec<Searcher>,
    /// Multi-threaded: the node total of all threads, and how much of `nodes` is in it.
    shared_nodes: Option<Arc<AtomicU64>>,
    flushed: u64,
    /// A helper: its stop flag belongs to the main searcher, which it must not reset.
    helper: bool,
    /// A helper of a split search: the shared epoch and the one its task belongs to; the
    /// task is dropped when they differ (search/split.rs).
    watch: Option<(Arc<AtomicU64>, u64)>,
    /// Set while the first root move of a split iteration is searched: its node (ply 1) is
    /// split with the helpers once its first reply is searched (search/split.rs).
    split_node: Option<split::NodeSplit>,
    killers: [[Option<Move>; 2]; MAX_PLY],
    history: Box<[[i32; 64]; 2]>,
    nodes: u64,
    visited: u64,
    calls: u64,
    seldepth: u32,
    stop: Arc<AtomicBool>,
    limits: Limits,
    start: Instant,
    aborted: bool,
    /// Repetition keys of the game before the root and of the path: (key, seeds in hand).
    path: Vec<(u64, u8)>,
    game_len: usize,
    with_ply: bool,
    /// Use the quiescence search at the leaves.
    pub quiescence: bool,
    /// Use late move reductions (on by default). Off, every move is searched to the full
    /// depth, as a proof needs: with them a move that wins only deeper than its reduced
    /// search looks may be scored as not winning (crates/bao-engine/src/puzzle.rs).
    pub reductions: bool,
    eval_cache: Vec<(u64, i32)>,
}

/// Outcome of a child reached by a move, from the mover's point of view, when it ends the
/// search there (BRD-7.2, BRD-7.4, BRD-6.3).
#[inline]
fn terminal(m: &LegalMove, rules: &Rules, ply: usize) -> Option<i32> {
    let mover = m.mv.side();
    let win = WIN - (ply as i32 + 1);
    if m.is_never_ending() {
        return Some(match rules.never_ending {
            NeverEnding::Draw => 0,
            _ => -win,
        });
    }
    // The side to move in the child is checked first (BRD-7.3 step 1).
    if m.next.front_row_empty(mover.other()) {
        return Some(win);
    }
    if m.next.front_row_empty(mover) {
        return Some(-win);
    }
    None
}

fn hands(p: &Position) -> u8 {
    p.hand(Side::South) + p.hand(Side::North)
}

fn move_code(m: &Move) -> usize {
    // pit 0..15, letter 0..1, safari: a small index for the history table.
    let l = match m.letter() {
        Some(bao_rules::Letter::R) => 1,
        _ => 0,
    };
    (m.pit().index() * 2 + l) * 2 + m.is_safari() as usize
}

impl Searcher {
    /// A searcher for `rules` with the given evaluation weights and a transposition table of
    /// 2^`tt_bits` entries (16 bytes each).
    pub fn new(rules: Rules, weights: Weights, tt_bits: u32) -> Searcher {
        Searcher {
            rules,
            weights,
            tt: Arc::new(Table::new(tt_bits.clamp(4, 28))),
            helpers: Vec::new(),
            shared_nodes: None,
            flushed: 0,
            helper: false,
            watch: None,
            split_node: None,
            killers: [[None; 2]; MAX_PLY],
            history: Box::new([[0; 64]; 2]),
            nodes: 0,
            visited: 0,
            calls: 0,
            seldepth: 0,
            stop: Arc::new(AtomicBool::new(false)),
            limits: Limits::default(),
            start: Instant::now(),
            aborted: false,
            path: Vec::new(),
            game_len: 0,
            with_ply: rules.max_plies.is_some(),
            quiescence: true,
            reductions: true,
            eval_cache: vec![(0, 0); 1 << 16],
        }
    }

    /// The flag that stops a running search (from another thread); the search then returns
    /// the best move found so far.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// Forgets the transposition table and heuristics (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.eval_cache.fill((0, 0));
        self.killers = [[None; 2]; MAX_PLY];
        *self.history = [[0; 64]; 2];
        for h in &mut self.helpers {
            h.clear();
        }
    }

    /// Searches with `n` threads (1..=64, clamped): the calling thread and `n - 1` helpers
    /// (see the module documentation: a root split for [`Searcher::search_root`], Lazy SMP
    /// for [`Searcher::analyse`]). One thread is deterministic.
    pub fn set_threads(&mut self, n: usize) {
        let n = n.clamp(1, 64);
        self.helpers.truncate(n - 1);
        while self.helpers.len() < n - 1 {
            let mut h = Searcher::new(self.rules, self.weights, 4);
            h.tt = self.tt.clone();
            h.quiescence = self.quiescence;
            h.reductions = self.reductions;
            h.helper = true;
            self.helpers.push(h);
        }
    }

    /// The number of search threads.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    /// Runs `f` on this searcher while the helpers search `pos` beside it, sharing the
    /// table; stops and joins them when `f` returns. Without helpers, just `f`.
    fn with_helpers<R>(
        &mut self,
        pos: &Position,
        limits: Limits,
        f: impl FnOnce(&mut Searcher) -> R,
    ) -> R {
        if self.helpers.is_empty() {
            self.shared_nodes = None;
            return f(self);
        }
        let total = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        self.shared_nodes = Some(total.clone());
        let mut helpers = std::mem::take(&mut self.helpers);
        let (quiescence, reductions) = (self.quiescence, self.reductions);
        // Helpers run until the main search ends; a node limit counts their nodes too.
        let hl = Limits {
            depth: None,
            nodes: limits.nodes,
            time: None,
            soft_time: None,
        };
        let r = std::thread::scope(|sc| {
            for (k, h) in helpers.iter_mut().enumerate() {
                h.stop = stop.clone();
                h.shared_nodes = Some(total.clone());
                h.path.clone_from(&self.path);
                h.game_len = self.game_len;
                h.quiescence = quiescence;
                h.reductions = reductions;
                // Varied depths: every other helper starts one ply ahead of the main thread.
                let start = 1 + k.is_multiple_of(2) as u32;
                sc.spawn(move || h.search_root_from(pos, hl, start, &mut |_| {}));
            }
            let r = f(self);
            stop.store(true, Ordering::Relaxed);
            r
        });
        self.helpers = helpers;
        r
    }

    /// Nodes of all threads so far (this thread's alone when single-threaded).
    fn total_nodes(&self) -> u64 {
        match &self.shared_nodes {
            Some(t) => t.load(Ordering::Relaxed) + (self.nodes - self.flushed),
            None => self.nodes,
        }
    }

    /// The rules searched under.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Sets the positions of the game so far (before the root, oldest first), so that
    /// repetitions of them count as draws (BRD-7.5).
    pub fn set_history(&mut self, positions: &[Position]) {
        self.path.clear();
        if self.rules.repetition == Repetition::ThreefoldDraw {
            for p in positions {
                self.path.push(Self::entry(p));
            }
        }
        self.game_len = self.path.len();
    }

    fn out_of_budget(&mut self) -> bool {
        if self.aborted {
            return true;
        }
        if let Some(n) = self.limits.nodes {
            if self.shared_nodes.is_none() && self.nodes >= n {
                self.aborted = true;
                return true;
            }
        }
        self.calls += 1;
        if self.calls & 7 == 0 {
            // The shared total is one cache line written by every thread: adding to it
            // often makes the threads wait on each other, so each adds in batches.
            if let Some(t) = &self.shared_nodes {
                if self.nodes - self.flushed >= FLUSH_NODES {
                    let all = t.fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
                        + (self.nodes - self.flushed);
                    self.flushed = self.nodes;
                    if self.limits.nodes.is_some_and(|n| all >= n) {
                        self.aborted = true;
                    }
                }
            }
            if self.stop.load(Ordering::Relaxed)
                || self
                    .watch
                    .as_ref()
                    .is_some_and(|(e, mine)| e.load(Ordering::Relaxed) != *mine)
            {
                self.aborted = true;
            } else if let Some(t) = self.limits.time {
                if self.start.elapsed() >= t {
                    self.aborted = true;
                }
            }
        }
        self.aborted
    }

    /// Whether the child repeats a position of the game or of the search path: a draw.
    ///
    /// Only positions with both hands empty can repeat: every move made while a hand holds
    /// seeds takes one from a hand within two plies (KIS-2, KIM-5), and hands never grow. So
    /// keys are computed only then, which saves a hash per node in the first stage.
    fn repeats(&self, child: &Position) -> bool {
        if self.rules.repetition != Repetition::ThreefoldDraw || hands(child) != 0 {
            return false;
        }
        let k = zobrist::key(child);
        // Hands never grow, so only the latest positions with empty hands can match.
        for &(pk, ph) in self.path.iter().rev() {
            if ph != 0 {
                break;
            }
            if pk == k {
                return true;
            }
        }
        false
    }

    /// The path entry of a position: its key when repetition is possible (see `repeats`).
    fn entry(p: &Position) -> (u64, u8) {
        let h = hands(p);
        (if h == 0 { zobrist::key(p) } else { 0 }, h)
    }

    /// The exact legal moves (the root: the move played must be legal).
    fn gen_exact(&mut self, pos: &Position) -> Vec<LegalMove> {
        let moves = legal_moves(pos, &self.rules);
        self.nodes += moves.len() as u64;
        moves.into_iter().collect()
    }

    /// The legal moves inside the tree, or `None` when one of them outruns the lap budget:
    /// such a node is scored by [`Self::unresolved`] instead of being searched.
    fn gen(&mut self, pos: &Position) -> Option<Vec<LegalMove>> {
        self.visited += 1;
        let moves = legal_moves_within(pos, &self.rules, eval::LAP_BUDGET).ok()?;
        self.nodes += moves.len() as u64;
        Some(moves.into_iter().collect())
    }

    /// The score of a node whose moves are unknown (see [`Self::gen`]): the position's
    /// features without the move features.
    fn unresolved(&self, pos: &Position) -> i32 {
        eval::evaluate_with(pos, &[], MoveFeatures::default(), &self.weights)
    }

    /// The static evaluation, cached by position: iterative deepening meets the same leaves
    /// again, and the evaluation generates the opponent's moves, which costs as much as a node.
    fn evaluate(&mut self, pos: &Position, moves: &[LegalMove]) -> i32 {
        let key = zobrist::key(pos) | 1; // never 0, the empty slot
        let slot = (key as usize) & (self.eval_cache.len() - 1);
        if self.eval_cache[slot].0 == key {
            return self.eval_cache[slot].1;
        }
        let e = eval::evaluate(pos, &self.rules, moves, &self.weights);
        self.eval_cache[slot] = (key, e);
        e
    }

    /// Order: hash move, then captures by seeds taken, then killers, then history.
    fn order(
        &self,
        pos: &Position,
        moves: &[LegalMove],
        hash: Option<usize>,
        ply: usize,
    ) -> Vec<(i32, usize)> {
        let opp = pos.side().other();
        let before = eval::board_seeds(pos, opp);
        let side = pos.side().index();
        let mut v: Vec<(i32, usize)> = moves
            .iter()
            .enumerate()
            .map(|(i, m)| {
                let s = if Some(i) == hash {
                    1 << 30
                } else {
                    let g = before - eval::board_seeds(&m.next, opp);
                    if m.next.front_row_empty(opp) {
                        1 << 29
                    } else if g > 0 {
                        (1 << 24) + g * 1000
                    } else if ply < MAX_PLY && self.killers[ply][0] == Some(m.mv) {
                        1 << 23
                    } else if ply < MAX_PLY && self.killers[ply][1] == Some(m.mv) {
                        (1 << 23) - 1
                    } else {
                        self.history[side][move_code(&m.mv)].min((1 << 22) - 1)
                    }
                };
                (s, i)
            })
            .collect();
        // Stable: equal scores keep the canonical order, so the search is deterministic.
        v.sort_by_key(|x| std::cmp::Reverse(x.0));
        v
    }

    fn pv_from_tt(&self, root: &Position, first: &LegalMove) -> Vec<Move> {
        let mut pv = vec![first.mv];
        let mut pos = first.next;
        let mut seen = vec![zobrist::key(root), zobrist::key(&pos)];
        while pv.len() < 32 {
            if terminal_pos(&pos) {
                break;
            }
            let Some(e) = self.tt.probe(zobrist::key_with_ply(&pos, self.with_ply)) else {
                break;
            };
            if e.mv == 0 {
                break;
            }
            let Ok(moves) = legal_moves_within(&pos, &self.rules, eval::LAP_BUDGET) else {
                break;
            };
            let Some(m) = moves.as_slice().get(e.mv as usize - 1) else {
                break;
            };
            pv.push(m.mv);
            if m.is_never_ending() {
                break;
            }
            pos = m.next;
            let k = zobrist::key(&pos);
            if seen.contains(&k) {
                break;
            }
            seen.push(k);
        }
        pv
    }

    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize, qd: i32) -> i32 {
        self.seldepth = self.seldepth.max(ply as u32);
        let Some(moves) = self.gen(pos) else {
            return self.unresolved(pos);
        };
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        if self.rules.max_plies.is_some_and(|m| pos.ply() >= m) {
            return 0;
        }
        let stand = self.evaluate(pos, &moves);
        if qd >= Q_MAX || ply + 1 >= MAX_PLY || self.out_of_budget() {
            return stand;
        }
        if stand >= beta {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
        let opp = pos.side().other();
        let before = eval::board_seeds(pos, opp);
        let mut caps: Vec<(i32, usize)> = moves
            .iter()
            .enumerate()
            .filter_map(|(i, m)| {
                let g = before - eval::board_seeds(&m.next, opp);
                (g > 0 || m.next.front_row_empty(opp)).then_some((g, i))
            })
            .collect();
        caps.sort_by_key(|x| std::cmp::Reverse(x.0));
        for (_, i) in caps {
            let m = &moves[i];
            let s = if let Some(t) = terminal(m, &self.rules, ply) {
                t
            } else if self.repeats(&m.next) {
                0
            } else {
                self.path.push(Self::entry(&m.next));
                let s = -self.quiesce(&m.next, -beta, -alpha, ply + 1, qd + 1);
                self.path.pop();
                s
            };
            if self.aborted {
                return best;
            }
            if s > best {
                best = s;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    fn search(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        if depth <= 0 || ply + 1 >= MAX_PLY {
            if self.quiescence {
                return self.quiesce(pos, alpha, beta, ply, 0);
            }
            self.seldepth = self.seldepth.max(ply as u32);
            let Some(moves) = self.gen(pos) else {
                return self.unresolved(pos);
            };
            if moves.is_empty() {
                return -(WIN - ply as i32);
            }
            return self.evaluate(pos, &moves);
        }
        self.seldepth = self.seldepth.max(ply as u32);
        let key = zobrist::key_with_ply(pos, self.with_ply);
        let alpha0 = alpha;
        let mut hash = None;
        if let Some(e) = self.tt.probe(key) {
            if e.mv != 0 {
                hash = Some(e.mv as usize - 1);
            }
            if e.depth as i32 >= depth {
                let s = from_tt(e.score, ply);
                let hit = match e.bound {
                    EXACT => true,
                    LOWER => s >= beta,
                    _ => s <= alpha,
                };
                if hit {
                    return s;
                }
            }
        }
        let Some(moves) = self.gen(pos) else {
            return self.unresolved(pos);
        };
        if moves.is_empty() {
            return -(WIN - ply as i32);
        }
        if self.rules.max_plies.is_some_and(|m| pos.ply() >= m) {
            return 0;
        }
        if self.out_of_budget() {
            return self.evaluate(pos, &moves);
        }
        let hash = hash.filter(|&i| i < moves.len());
        let order = self.order(pos, &moves, hash, ply);
        let mut best = -INF;
        let mut best_i = order[0].1;
        // A forced move costs no depth: Bao has many, and they are cheap to see through.
        let next_depth = if moves.len() == 1 { depth } else { depth - 1 };
        for (n, &(_, i)) in order.iter().enumerate() {
            let m = &moves[i];
            // Only the first root move's node (ply 1, full window) is ever split, after its
            // first reply; the full window never cuts off, so the best found is exact.
            if n == 1 && ply == 1 {
                if let Some((s, j)) = self.split_rest(pos, &moves, &order, next_depth, best) {
                    if self.aborted {
                        return s;
                    }
                    (best, best_i) = (s, j);
                    break;
                }
            }
            let s = self.late_child(pos, m, ply, next_depth, alpha, beta, n);
            if self.aborted {
                return if best == -INF { s } else { best };
            }
            if s > best {
                best = s;
                best_i = i;
                if s > alpha {
                    alpha = s;
                    if s >= beta {
                        let quiet = eval::gain(pos, m) == 0;
                        if quiet && ply < MAX_PLY && self.killers[ply][0] != Some(m.mv) {
                            self.killers[ply][1] = self.killers[ply][0];
                            self.killers[ply][0] = Some(m.mv);
                        }
                        if quiet {
                            let h = &mut self.history[pos.side().index()][move_code(&m.mv)];
                            *h = (*h + depth * depth).min(1 << 20);
                        }
                        break;
                    }
                }
            }
        }
        let bound = if best >= beta {
            LOWER
        } else if best > alpha0 {
            EXACT
        } else {
            UPPER
        };
        self.tt.store(Entry {
            key,
            score: to_tt(best, ply),
            depth: depth.min(i16::MAX as i32) as i16,
            bound,
            mv: best_i as u8 + 1,
        });
        best
    }

    /// Scores every root move with a full window at each depth (for `analyse` and for the
    /// playing styles that choose among near-best moves). Returns (move, score) pairs in
    /// canonical order, plus the depth completed.
    pub fn analyse(&mut self, pos: &Position, limits: Limits) -> (Vec<(LegalMove, i32)>, u32, u64) {
        let mut r = self.with_helpers(pos, limits, |s| s.analyse_one(pos, limits));
        r.2 = self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>();
        r
    }

    fn analyse_one(&mut self, pos: &Position, limits: Limits) -> (Vec<(LegalMove, i32)>, u32, u64) {
        self.begin(limits);
        let moves = self.gen_exact(pos);
        let mut scores: Vec<i32> = vec![0; moves.len()];
        let mut done_depth = 0;
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        self.path.push(Self::entry(pos));
        for depth in 1..=max_depth {
            let mut iter = Vec::with_capacity(moves.len());
            for m in &moves {
                let s = if let Some(t) = terminal(m, &self.rules, 0) {
                    t
                } else if self.repeats(&m.next) {
                    0
                } else {
                    self.path.push(Self::entry(&m.next));
                    let s = -self.search(&m.next, depth as i32 - 1, -INF, INF, 1);
                    self.path.pop();
                    s
                };
                if self.aborted {
                    break;
                }
                iter.push(s);
            }
            if self.aborted {
                break;
            }
            scores = iter;
            done_depth = depth;
            if scores.iter().all(|&s| s.abs() >= WIN_BOUND) || self.limits_reached_soft(2) {
                break;
            }
        }
        self.path.truncate(self.game_len);
        (
            moves.into_iter().zip(scores).collect(),
            done_depth,
            self.nodes,
        )
    }

    fn begin(&mut self, limits: Limits) {
        self.limits = limits;
        self.nodes = 0;
        self.visited = 0;
        self.seldepth = 0;
        self.aborted = false;
        self.start = Instant::now();
        self.flushed = 0;
        if !self.helper {
            self.stop.store(false, Ordering::Relaxed);
        }
        self.killers = [[None; 2]; MAX_PLY];
        for h in self.history.iter_mut() {
            for x in h.iter_mut() {
                *x /= 8;
            }
        }
    }

    /// Whether the soft limit is past, so that no new iteration starts; without one set, it
    /// is the time limit divided by `share` (see [`Limits::soft_time`]).
    fn limits_reached_soft(&self, share: u32) -> bool {
        let soft = self
            .limits
            .soft_time
            .or(self.limits.time.map(|t| t / share));
        soft.is_some_and(|t| self.start.elapsed() >= t) && self.limits.depth.is_none()
    }

    /// Searches `pos` within `limits`, calling `info` after each completed iteration, on
    /// [`Self::threads`] threads.
    pub fn search_root(
        &mut self,
        pos: &Position,
        limits: Limits,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        let mut r = self.search_root_from(pos, limits, 1, info);
        if !self.helpers.is_empty() {
            r.nodes = self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>();
            r.visited = self.visited + self.helpers.iter().map(|h| h.visited).sum::<u64>();
        }
        r
    }

    /// Iterative deepening from depth `start` on this thread.
    fn search_root_from(
        &mut self,
        pos: &Position,
        limits: Limits,
        start: u32,
        info: &mut dyn FnMut(&Info),
    ) -> SearchResult {
        self.begin(limits);
        let moves = self.gen_exact(pos);
        let mut result = SearchResult {
            best: None,
            score: Score::Loss(0),
            raw_score: -WIN,
            depth: 0,
            seldepth: 0,
            nodes: self.nodes,
            visited: 0,
            time: Duration::ZERO,
            pv: Vec::new(),
        };
        if moves.is_empty() {
            return result;
        }
        self.path.push(Self::entry(pos));
        let mut helpers = std::mem::take(&mut self.helpers);
        self.shared_nodes = None;
        if !helpers.is_empty() {
            let total = Arc::new(AtomicU64::new(0));
            self.shared_nodes = Some(total.clone());
            let hl = Limits {
                depth: None,
                nodes: limits.nodes,
                time: limits.time,
                soft_time: None,
            };
            for h in &mut helpers {
                h.begin(hl);
                h.start = self.start;
                h.stop = self.stop.clone();
                h.shared_nodes = Some(total.clone());
                h.path.clone_from(&self.path);
                h.game_len = self.game_len;
                h.quiescence = self.quiescence;
                h.reductions = self.reductions;
            }
        }
        let order = if helpers.is_empty() {
            self.deepen(pos, &moves, limits, start, None, &mut result, info)
        } else {
            let shared = Arc::new(split::Shared::new());
            std::thread::scope(|sc| {
                for (k, h) in helpers.iter_mut().enumerate() {
                    let (shared, moves) = (&shared, &moves[..]);
                    sc.spawn(move || h.help(shared, moves, k));
                }
                let order =
                    self.deepen(pos, &moves, limits, start, Some(&shared), &mut result, info);
                shared.publish(split::Task::Quit);
                order
            })
        };
        self.path.truncate(self.game_len);
        self.helpers = helpers;
        // Stopped before the first move was searched (a tiny time budget): the first move in
        // the static order is still a legal move, better than none.
        if result.best.is_none() {
            result.best = Some(moves[order[0]]);
            result.pv = vec![moves[order[0]].mv];
            result.raw_score = 0;
            result.score = Score::Cp(0);
        }
        result.seldepth = self.seldepth;
        result.nodes = self.nodes;
        result.visited = self.visited;
        result.time = self.start.elapsed();
        result
    }

    /// Iterative deepening over the root `moves` from depth `start`, on this thread alone or
    /// split with the helpers sharing `shared`; fills `result` after each iteration. Returns
    /// the root order (best first).
    #[allow(clippy::too_many_arguments)]
    fn deepen(
        &mut self,
        pos: &Position,
        moves: &[LegalMove],
        limits: Limits,
        start: u32,
        shared: Option<&Arc<split::Shared>>,
        result: &mut SearchResult,
        info: &mut dyn FnMut(&Info),
    ) -> Vec<usize> {
        let max_depth = limits.depth.unwrap_or(64).clamp(1, 64);
        // Root order: previous iteration's best first, then the static order.
        let mut order: Vec<usize> = self
            .order(pos, moves, None, 0)
            .into_iter()
            .map(|x| x.1)
            .collect();
        // The score of each finished iteration.
        let mut scores = Vec::new();
        for depth in start.clamp(1, max_depth)..=max_depth {
            let mut alpha = -INF;
            let mut best_i = None;
            let mut best = -INF;
            if let (None, _) | (_, 1) = (shared, order.len()) {
                for (n, &i) in order.iter().enumerate() {
                    let s = self.root_move(&moves[i], depth, alpha, n == 0);
                    if self.aborted {
                        break;
                    }
                    if s > best {
                        best = s;
                        best_i = Some(i);
                        alpha = alpha.max(s);
                    }
                }
            } else if let Some(shared) = shared {
                // Scores swing between odd and even depths: the guess is the last
                // score of the same parity.
                let guess = scores.len().checked_sub(2).map(|k| scores[k]);
                (best_i, best) = self.root_split(shared, moves, &order, depth, guess);
            }
            // An unfinished iteration still counts if its first (previous best) move was
            // searched: a move that beat it is better still.
            if let Some(bi) = best_i {
                if !self.aborted || bi != order[0] || result.best.is_none() {
                    let m = moves[bi];
                    result.best = Some(m);
                    result.raw_score = best;
                    result.score = Score::from_internal(best);
                    result.pv = self.pv_from_tt(pos, &m);
                    if !self.aborted {
                        result.depth = depth;
                    }
                }
                if let Some(p) = order.iter().position(|&x| x == bi) {
                    let v = order.remove(p);
                    order.insert(0, v);
                }
            }
            if self.aborted {
                break;
            }
            scores.push(best);
            // Keep the root entry so that the PV starts right.
            result.seldepth = self.seldepth;
            result.nodes = self.nodes;
            result.time = self.start.elapsed();
            info(&Info {
                depth,
                seldepth: self.seldepth,
                score: result.score,
                nodes: self.total_nodes(),
                time: result.time,
                pv: result.pv.clone(),
            });
            let proven = best.abs() >= WIN_BOUND && (WIN - best.abs()) as u32 <= depth;
            if moves.len() == 1 && limits.depth.is_none() || proven || self.limits_reached_soft(1) {
                break;
            }
        }
        order
    }

    /// The score of move `m`, the `n`th in the order at `pos` (ply `ply`), like
    /// [`Searcher::child`], but a quiet move late in the order (no capture, no win, not a
    /// killer) is first searched shallower with a null window, and in full only if it
    /// beats `alpha` (late move reductions): the order puts the likely best moves first,
    /// so most late moves are refuted as well by the shallower search.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn late_child(
        &mut self,
        pos: &Position,
        m: &LegalMove,
        ply: usize,
        d: i32,
        alpha: i32,
        beta: i32,
        n: usize,
    ) -> i32 {
        let r = match n {
            _ if n < LMR_FROM || d < 2 || !self.reductions => 0,
            _ if n >= 2 * LMR_FROM && d >= 4 => 2,
            _ => 1,
        };
        let quiet = r > 0
            && eval::gain(pos, m) == 0
            && !m.next.front_row_empty(pos.side().other())
            && !(ply < MAX_PLY && self.killers[ply].contains(&Some(m.mv)))
            && terminal(m, &self.rules, ply).is_none()
            && !self.repeats(&m.next);
        if quiet {
            self.path.push(Self::entry(&m.next));
            let s = -self.search(&m.next, d - r, -alpha - 1, -alpha, ply + 1);
            self.path.pop();
            if s <= alpha || self.aborted {
                return s;
            }
        }
        self.child(m, ply, d, alpha, beta, n == 0)
    }

    /// The score of root move `m` searched to `depth` plies (see [`Searcher::child`]).
    fn root_move(&mut self, m: &LegalMove, depth: u32, alpha: i32, first: bool) -> i32 {
        self.child(m, 0, depth as i32 - 1, alpha, INF, first)
    }

    /// The score of move `m`, played at ply `ply`, searched `d` plies below it within
    /// (`alpha`, `beta`): its own when it ends the game or repeats a position; else with the
    /// whole window when it is the `first` move, or with a null window at `alpha` and the
    /// whole window again when it fails high (principal variation search).
    #[inline]
    fn child(
        &mut self,
        m: &LegalMove,
        ply: usize,
        d: i32,
        alpha: i32,
        beta: i32,
        first: bool,
    ) -> i32 {
        if let Some(t) = terminal(m, &self.rules, ply) {
            return t;
        }
        if self.repeats(&m.next) {
            return 0;
        }
        self.path.push(Self::entry(&m.next));
        let s = if first {
            -self.search(&m.next, d, -beta, -alpha, ply + 1)
        } else {
            let s = -self.search(&m.next, d, -alpha - 1, -alpha, ply + 1);
            if s > alpha && s < beta && !self.aborted {
                -self.search(&m.next, d, -beta, -alpha, ply + 1)
            } else {
                s
            }
        };
        self.path.pop();
        s
    }
}

/// Late move reductions start at this move in the order (counted from 0), and reduce by
/// two plies from twice as far.
const LMR_FROM: usize = 3;

fn terminal_pos(p: &Position) -> bool {
    p.front_row_empty(Side::South) || p.front_row_empty(Side::North)
}

/// The opponent's move features, for callers that want to show them.
pub fn opponent_features(pos: &Position, rules: &Rules) -> MoveFeatures {
    eval::opponent_features(pos, rules)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::Variant;

    /// BRD-6.2: in this position A5R* is never-ending, but only after 109,688,561 laps. The
    /// root must still be exact (the move is illegal under the default rules and must not
    /// be played), while inside the tree such a node is scored without its moves.
    #[test]
    fn brd_6_2_long_never_ending_cycles_are_exact_at_the_root_and_bounded_in_the_tree() {
        let rules = Rules::new(Variant::Kiswahili);
        let pos = Position::parse(
            "kiswahili 0,1,5,0,1,1,0,2/0,0,0,1,0,0,0,0/9,3,0,14,7,0,2,1/1,4,0,1,2,8,1,0 S 0/0 - 62",
            &rules,
        )
        .unwrap();
        let mut s = Searcher::new(rules, Weights::for_variant(Variant::Kiswahili), 16);
        assert!(s.gen(&pos).is_none(), "the budget must give up on A5R*");
        let exact = legal_moves(&pos, &rules);
        assert!(
            exact.find("A5R*").is_none(),
            "A5R* is never-ending: illegal"
        );
        let r = s.search_root(&pos, Limits::depth(3), &mut |_| {});
        let best = r.best.expect("the position has legal moves");
        assert!(exact.as_slice().contains(&best));
        assert_eq!(r.depth, 3);
    }

    /// A fixed time per move is used to the end (docs/levels.md, "A fixed time per move"):
    /// the search keeps starting iterations until the time is spent, on one thread and on
    /// two. Under the old rule (no new iteration after half the time) it usually returned
    /// early. A busy machine only makes the search slower, never shorter than its time.
    #[test]
    fn a_time_limit_without_a_clock_is_used_to_the_end() {
        let rules = Rules::new(Variant::Kiswahili);
        let pos = Position::start(&rules);
        for threads in [1, 2] {
            let mut s = Searcher::new(rules, Weights::for_variant(Variant::Kiswahili), 16);
            s.set_threads(threads);
            for _ in 0..3 {
                let r = s.search_root(&pos, Limits::time(80), &mut |_| {});
                assert!(r.best.is_some());
                assert!(r.depth < 64, "the depth cap must not end the search here");
                assert!(
                    r.time >= Duration::from_millis(80),
                    "{threads} thread(s): stopped after {:?} of 80 ms at depth {}",
                    r.time,
                    r.depth
                );
            }
        }
    }

    /// Late move reductions save nodes, and `reductions = false` (the puzzle proofs'
    /// setting) switches them off: every move is then searched to the full depth, which
    /// takes more nodes to the same depth, in every variant.
    #[test]
    fn late_move_reductions_save_nodes_and_can_be_switched_off() {
        for (variant, depth) in [
            (Variant::Kiswahili, 8),
            (Variant::Kete, 8),
            (Variant::Kimasai, 6),
        ] {
            let rules = Rules::new(variant);
            let pos = Position::start(&rules);
            let nodes = |reductions: bool| {
                let mut s = Searcher::new(rules, Weights::for_variant(variant), 18);
                s.reductions = reductions;
                let r = s.search_root(&pos, Limits::depth(depth), &mut |_| {});
                assert_eq!(r.depth, depth);
                r.nodes
            };
            let (with, without) = (nodes(true), nodes(false));
            assert!(
                with < without,
                "{variant:?} depth {depth}: {with} nodes with reductions, {without} without"
            );
        }
    }
}
