//! Search speed: nodes per second on one core, and the depth reached in one
//! second, from the kiswahili start position and from fixed middle-game positions (namua and
//! mtaji).
//!
//! Run: cargo bench -p bao-engine --bench search
//! The target is at least 1,000,000 nodes/s in kiswahili middle-game positions; a node is
//! one legal move executed by the rules crate and the position it reaches.

use bao_engine::search::{Limits, Searcher};
use bao_engine::Weights;
use bao_rules::{Position, Rules, Variant};

/// Fixed positions, so that the figures change only when the search or the rules do (the
/// mtaji ones come from level-3 self-play after random openings, chosen undecided).
const NAMUA: [&str; 2] = [
    "kiswahili 1,0,3,3,0,1,1,0/0,0,0,7,0,0,0,0/0,0,3,0,11,0,2,1/0,0,0,0,0,1,1,1 S 14/14 house:S,house:N 16",
    "kiswahili 1,0,3,3,0,1,1,0/1,0,0,9,0,0,0,0/0,5,1,0,3,5,3,1/1,1,1,1,2,3,1,3 S 7/7 house:N 30",
];
const MTAJI: [&str; 5] = [
    "kiswahili 0,3,1,0,2,3,0,2/6,0,2,1,1,2,1,1/0,0,1,0,2,5,5,4/3,5,4,3,1,3,1,2 S 0/0 - 50",
    "kiswahili 2,0,2,4,0,1,2,9/0,0,0,0,0,1,1,0/3,2,2,0,1,6,8,0/0,1,3,1,4,0,3,8 N 0/0 - 53",
    "kiswahili 1,2,2,0,3,3,0,3/2,0,2,2,0,0,1,4/4,1,1,2,3,4,3,2/1,1,8,5,1,0,2,1 N 0/0 - 49",
    "kiswahili 3,1,2,2,1,1,1,1/0,1,2,0,2,4,2,1/1,8,2,3,1,1,6,1/4,2,0,0,2,3,4,2 N 0/0 - 45",
    "kiswahili 1,4,0,1,3,1,1,1/0,9,0,3,0,6,0,1/0,5,1,1,5,0,1,4/0,2,3,0,5,0,3,3 N 0/0 - 45",
];
const KETE_MIDDLE: &str =
    "kete 5,1,0,0,4,1,4,4/1,0,5,2,1,6,2,0/2,0,1,1,1,1,1,0/5,1,2,0,1,6,1,5 N 0/0 - 49";
const KIMASAI_MIDDLE: &str =
    "kimasai 1,2,5,1,4,1,2,6/0,7,6,3,2,6,0,1/0,0,0,0,1,2,0,2/1,2,3,0,1,0,1,4 S 0/0 - 60";

fn parse(rules: &Rules, s: &str) -> Position {
    Position::parse(s, rules).unwrap_or_else(|e| panic!("{s}: {e}"))
}

fn run(name: &str, rules: &Rules, pos: &Position, limits: Limits) -> (u64, u64, f64) {
    let mut s = Searcher::new(*rules, Weights::for_variant(rules.variant), 20);
    let r = s.search_root(pos, limits, &mut |_| {});
    let secs = r.time.as_secs_f64().max(1e-9);
    let nps = r.nodes as f64 / secs;
    println!(
        "{name:<22} depth {:>2} seldepth {:>2} nodes {:>9} time {:>6.3} s nodes/s {:>9.0} visited/s {:>8.0}",
        r.depth,
        r.seldepth,
        r.nodes,
        secs,
        nps,
        r.visited as f64 / secs
    );
    (r.nodes, r.visited, secs)
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing: run small then.
    let quick = !std::env::args().any(|a| a == "--bench");
    let ms = if quick { 50 } else { 1000 };
    let k = Rules::new(Variant::Kiswahili);
    println!("positions: start, namua {NAMUA:?}, mtaji {MTAJI:?}");
    println!("one second per position (time limit {ms} ms):");
    run(
        "kiswahili start",
        &k,
        &Position::start(&k),
        Limits::time(ms),
    );
    for (i, p) in NAMUA.iter().enumerate() {
        run(
            &format!("kiswahili namua {}", i + 1),
            &k,
            &parse(&k, p),
            Limits::time(ms),
        );
    }
    for (i, p) in MTAJI.iter().enumerate() {
        run(
            &format!("kiswahili mtaji {}", i + 1),
            &k,
            &parse(&k, p),
            Limits::time(ms),
        );
    }
    let mut total = (0u64, 0u64, 0f64);
    println!("middle-game positions, fixed node budget:");
    let n = if quick { 20_000 } else { 1_000_000 };
    for (i, p) in NAMUA.iter().chain(MTAJI.iter()).enumerate() {
        let (nodes, visited, secs) = run(
            &format!("middle game {}", i + 1),
            &k,
            &parse(&k, p),
            Limits::nodes(n),
        );
        total.0 += nodes;
        total.1 += visited;
        total.2 += secs;
    }
    println!(
        "kiswahili middle game: {:.0} nodes/s over {} nodes ({:.0} positions entered/s)",
        total.0 as f64 / total.2,
        total.0,
        total.1 as f64 / total.2
    );
    for (v, middle) in [
        (Variant::Kete, KETE_MIDDLE),
        (Variant::Kimasai, KIMASAI_MIDDLE),
    ] {
        let r = Rules::new(v);
        run(
            &format!("{} start", v.id()),
            &r,
            &Position::start(&r),
            Limits::time(ms),
        );
        run(
            &format!("{} middle game", v.id()),
            &r,
            &parse(&r, middle),
            Limits::time(ms),
        );
    }
}
