//! Time to a fixed depth with one thread and with N threads: the measure to compare
//! split-search designs with before a match (docs/levels.md, "Two threads";
//! notes/two-threads.md). Positions come from self-play (random first plies, then a
//! fixed-depth one-thread search), and each thread count searches them in game order with one
//! warm searcher, as in a match (the table and heuristics are kept between the moves of a
//! game, and cleared between games).
//!
//! Run on idle cores (two threads need both):
//!
//! ```text
//! cargo run --release -p bao-research --bin time_to_depth -- kiswahili --depth 13
//! ```
//!
//! Each round searches every position with one thread and with N back to back (the order
//! alternating), so that a slow spell of the machine falls on both; the summary gives the
//! time and node ratios of each round and of all rounds together.
//!
//! With `--movetime MS` each position is searched for a fixed time instead, and the summary
//! gives the depth completed (mean and median), the nodes a second of one thread and of N
//! (the threads' throughput at a match's search length) and, position by position, how often
//! N threads went deeper than one. With `--records FILE` (and `--skip`, `--games`) the
//! positions are a match's own, which is how a match's depths are checked:
//!
//! ```text
//! cargo run --release -p bao-research --bin time_to_depth -- kimasai --movetime 300 \
//!   --tt-bits 20 --records kimasai.records --skip 100 --games 10 --rounds 1
//! ```

use bao_engine::search::{Limits, Searcher};
use bao_engine::Weights;
use bao_rules::{legal_moves, Position, Rng, Rules, Variant};
use clap::Parser;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    /// kiswahili, kete or kimasai.
    variant: String,
    /// The depth every search goes to.
    #[arg(long, default_value_t = 13)]
    depth: u32,
    /// Threads of the multi-threaded searches.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Games of self-play the positions come from.
    #[arg(long, default_value_t = 6)]
    games: usize,
    /// Positions searched per game (every other ply, one side's moves, from ply 10).
    #[arg(long, default_value_t = 8)]
    per_game: usize,
    /// Rounds (each searches all positions with 1 and with N threads).
    #[arg(long, default_value_t = 3)]
    rounds: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Instead of a depth, search each position for this many milliseconds and report the
    /// mean depth completed: with one thread, with N, and with one thread for twice the time
    /// (what the threads buy against what a doubling buys).
    #[arg(long)]
    movetime: Option<u64>,
    /// Table size, 2^bits entries.
    #[arg(long, default_value_t = 22)]
    tt_bits: u32,
    /// Take the positions from these game records instead of self-play (the first
    /// `--games` games, every position of one side with two or more moves, the side
    /// alternating by game): a match's own positions.
    #[arg(long)]
    records: Option<std::path::PathBuf>,
    /// With `--records`, the games to skip before the `--games` taken.
    #[arg(long, default_value_t = 0)]
    skip: usize,
}

/// Games as lists of positions, from the records in `path`.
fn record_positions(rules: &Rules, a: &Args, path: &std::path::Path) -> Vec<Vec<Position>> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(2);
    });
    let records = bao_rules::parse_records(&text).unwrap_or_else(|e| {
        eprintln!("{}: {e}", path.display());
        std::process::exit(2);
    });
    let mut games = Vec::new();
    for (k, r) in records.iter().enumerate().skip(a.skip).take(a.games) {
        let g = match r.validate() {
            Ok(g) => g,
            Err(e) => {
                eprintln!("{}: game {}: {e}", path.display(), k + 1);
                std::process::exit(2);
            }
        };
        if g.rules() != rules {
            eprintln!(
                "{}: game {} is not {} under the default rules",
                path.display(),
                k + 1,
                rules.variant.id()
            );
            std::process::exit(2);
        }
        let picked: Vec<Position> = g
            .positions()
            .iter()
            .skip(k % 2)
            .step_by(2)
            .filter(|p| legal_moves(p, rules).len() > 1 && !p.front_row_empty(p.side()))
            .copied()
            .collect();
        games.push(picked);
    }
    games
}

/// Games as lists of positions (the ones to search).
fn positions(rules: &Rules, a: &Args) -> Vec<Vec<Position>> {
    let mut rng = Rng::new(a.seed);
    let mut games = Vec::new();
    let mut chooser = Searcher::new(*rules, Weights::for_variant(rules.variant), 18);
    while games.len() < a.games {
        let mut p = Position::start(rules);
        let mut picked = Vec::new();
        let mut ply = 0;
        chooser.clear();
        while picked.len() < a.per_game {
            let moves = legal_moves(&p, rules);
            if moves.is_empty() || p.front_row_empty(p.side()) {
                break;
            }
            if ply >= 10 && ply % 2 == 0 {
                picked.push(p);
            }
            let m = if ply < 6 {
                moves.as_slice()[rng.below(moves.len())]
            } else {
                match chooser.search_root(&p, Limits::depth(6), &mut |_| {}).best {
                    Some(m) => m,
                    None => break,
                }
            };
            if m.is_never_ending() {
                break;
            }
            p = m.next;
            ply += 1;
        }
        if picked.len() == a.per_game {
            games.push(picked);
        }
    }
    games
}

/// What the searches of every position for a fixed time showed.
struct Timed {
    /// The depth each search completed, position by position.
    depths: Vec<u32>,
    /// Mean time used, in milliseconds.
    used: f64,
    /// Nodes a second over all the searches, timed from the call to its return.
    nps: f64,
}

impl Timed {
    fn mean(&self) -> f64 {
        self.depths.iter().map(|&d| f64::from(d)).sum::<f64>() / self.depths.len() as f64
    }
    /// The median depth: unlike the mean, not moved by the few endgame searches that run
    /// to great depths.
    fn median(&self) -> u32 {
        let mut d = self.depths.clone();
        d.sort_unstable();
        d[(d.len() - 1) / 2]
    }
    /// Against `base` (the same positions): positions searched deeper, as deep, less deep.
    fn versus(&self, base: &Timed) -> [usize; 3] {
        let mut c = [0; 3];
        for (x, y) in self.depths.iter().zip(&base.depths) {
            c[match x.cmp(y) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Less => 2,
            }] += 1;
        }
        c
    }
}

/// Searches every position for `ms` milliseconds.
fn timed(rules: &Rules, a: &Args, threads: usize, ms: u64, games: &[Vec<Position>]) -> Timed {
    let mut s = Searcher::new(*rules, Weights::for_variant(rules.variant), a.tt_bits);
    s.set_threads(threads);
    let (mut depths, mut used, mut nodes, mut wall) = (Vec::new(), 0.0, 0, 0.0);
    for g in games {
        s.clear();
        for p in g {
            let t = Instant::now();
            let r = s.search_root(p, Limits::time(ms), &mut |_| {});
            wall += t.elapsed().as_secs_f64();
            depths.push(r.depth);
            used += r.time.as_secs_f64() * 1e3;
            nodes += r.nodes;
        }
    }
    let nps = nodes as f64 / wall;
    used /= depths.len().max(1) as f64;
    Timed { depths, used, nps }
}

/// Searches every position to the depth with one thread and with `n`, back to back (which
/// goes first alternates), so that a change in the machine's speed, which on a shared
/// machine can reach a quarter within minutes, falls on both alike. Each thread count keeps
/// one warm searcher through a game. Returns (seconds, nodes) of one thread and of `n`.
fn run(rules: &Rules, a: &Args, n: usize, games: &[Vec<Position>]) -> [(f64, u64); 2] {
    let mut ss: Vec<Searcher> = [1, n]
        .iter()
        .map(|&t| {
            let mut s = Searcher::new(*rules, Weights::for_variant(rules.variant), a.tt_bits);
            s.set_threads(t);
            s
        })
        .collect();
    let mut tot = [(0.0, 0); 2];
    let mut turn = 0;
    for g in games {
        for s in &mut ss {
            s.clear();
        }
        for p in g {
            for k in [turn % 2, 1 - turn % 2] {
                let t = Instant::now();
                let r = ss[k].search_root(p, Limits::depth(a.depth), &mut |_| {});
                tot[k].0 += t.elapsed().as_secs_f64();
                tot[k].1 += r.nodes;
            }
            turn += 1;
        }
    }
    tot
}

fn main() {
    let a = Args::parse();
    let Some(variant) = Variant::from_id(&a.variant) else {
        eprintln!(
            "unknown variant {:?} (kiswahili, kete or kimasai)",
            a.variant
        );
        std::process::exit(2);
    };
    let rules = Rules::new(variant);
    let games = match &a.records {
        Some(path) => record_positions(&rules, &a, path),
        None => positions(&rules, &a),
    };
    if games.iter().all(Vec::is_empty) {
        eprintln!("no positions to search (are --skip and --games within the records?)");
        std::process::exit(2);
    }
    let n = a.threads;
    if let Some(ms) = a.movetime {
        let (mut d1, mut dn, mut d2) = (0.0, 0.0, 0.0);
        for round in 0..a.rounds {
            let one = timed(&rules, &a, 1, ms, &games);
            let many = timed(&rules, &a, n, ms, &games);
            let double = timed(&rules, &a, 1, 2 * ms, &games);
            println!(
                "round {round}: mean depth, median (time used) at {ms} ms: 1 thread {:.2}, {} \
                 ({:.0} ms); {n} threads {:.2}, {} ({:.0} ms); 1 thread at {} ms {:.2}, {} ({:.0} ms)",
                one.mean(),
                one.median(),
                one.used,
                many.mean(),
                many.median(),
                many.used,
                2 * ms,
                double.mean(),
                double.median(),
                double.used
            );
            println!(
                "round {round}: nodes a second: 1 thread {:.2} M, {n} threads {:.2} M ({:.2} times)",
                one.nps / 1e6,
                many.nps / 1e6,
                many.nps / one.nps
            );
            let [up, same, down] = many.versus(&one);
            println!(
                "round {round}: {n} threads against 1, position by position: deeper {up}, \
                 as deep {same}, less deep {down} (of {})",
                one.depths.len()
            );
            (d1, dn, d2) = (d1 + one.mean(), dn + many.mean(), d2 + double.mean());
        }
        let r = a.rounds as f64;
        println!(
            "all rounds: {n} threads +{:.2} plies, twice the time +{:.2} plies (share {:.0} %)",
            (dn - d1) / r,
            (d2 - d1) / r,
            100.0 * (dn - d1) / (d2 - d1)
        );
        return;
    }
    println!(
        "{variant}: {} positions from {} games, depth {}, 1 vs {n} threads, {} rounds",
        games.iter().map(Vec::len).sum::<usize>(),
        games.len(),
        a.depth,
        a.rounds
    );
    let (mut t1, mut tn, mut n1, mut nn) = (0.0, 0.0, 0, 0);
    for round in 0..a.rounds {
        let [one, many] = run(&rules, &a, n, &games);
        println!(
            "round {round}: 1 thread {:.2} s {} nodes; {n} threads {:.2} s {} nodes; speed-up {:.2}, nodes {:.2}",
            one.0,
            one.1,
            many.0,
            many.1,
            one.0 / many.0,
            many.1 as f64 / one.1 as f64
        );
        (t1, n1, tn, nn) = (t1 + one.0, n1 + one.1, tn + many.0, nn + many.1);
    }
    println!(
        "all rounds: speed-up {:.2} (time to depth, 1 thread / {n}), nodes {:.2} ({n} / 1)",
        t1 / tn,
        nn as f64 / n1 as f64
    );
}
