//! Search speed (issue 3): nodes per second on one core, and the depth reached in one
//! second, from the kiswahili start position and from middle-game positions (namua and
//! mtaji) reached by a fixed self-play line.
//!
//! Run: cargo bench -p bao-engine --bench search
//! The target is at least 1,000,000 nodes/s in kiswahili middle-game positions; a node is
//! one legal move executed by the rules crate and the position it reaches.

use bao_engine::search::{Limits, Searcher};
use bao_engine::{choose_move, Weights};
use bao_rules::{Position, Rules, Variant};

/// The position after `plies` moves of level-3 self-play from the start (a fixed line).
fn after(rules: &Rules, plies: u32) -> Position {
    let mut p = Position::start(rules);
    for i in 0..plies {
        match choose_move(&p, rules, 3, i as u64) {
            Some(m) => p = m.next,
            None => break,
        }
    }
    p
}

fn run(name: &str, rules: &Rules, pos: &Position, limits: Limits) -> (u64, f64) {
    let mut s = Searcher::new(*rules, Weights::for_variant(rules.variant), 20);
    let r = s.search_root(pos, limits, &mut |_| {});
    let secs = r.time.as_secs_f64().max(1e-9);
    let nps = r.nodes as f64 / secs;
    println!(
        "{name:<28} depth {:>2} seldepth {:>2} nodes {:>9} time {:>6.3} s nodes/s {:>9.0}  {}",
        r.depth, r.seldepth, r.nodes, secs, nps, pos
    );
    (r.nodes, secs)
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing: run small then.
    let quick = !std::env::args().any(|a| a == "--bench");
    let ms = if quick { 50 } else { 1000 };
    let k = Rules::new(Variant::Kiswahili);
    let start = Position::start(&k);
    let namua = after(&k, 16);
    let mtaji = after(&k, 50);
    let mtaji2 = after(&k, 60);
    println!("one second per position (time limit {ms} ms):");
    run("kiswahili start", &k, &start, Limits::time(ms));
    run("kiswahili namua (16 plies)", &k, &namua, Limits::time(ms));
    run("kiswahili mtaji (50 plies)", &k, &mtaji, Limits::time(ms));
    run("kiswahili mtaji (60 plies)", &k, &mtaji2, Limits::time(ms));
    let mut total = (0u64, 0f64);
    println!("middle-game positions, fixed node budget:");
    for (name, p) in [
        ("namua 16", namua),
        ("namua 30", after(&k, 30)),
        ("mtaji 50", mtaji),
        ("mtaji 60", mtaji2),
    ] {
        let n = if quick { 20_000 } else { 1_000_000 };
        let (nodes, secs) = run(name, &k, &p, Limits::nodes(n));
        total.0 += nodes;
        total.1 += secs;
    }
    println!(
        "kiswahili middle game: {:.0} nodes/s over {} nodes",
        total.0 as f64 / total.1,
        total.0
    );
    for v in [Variant::Kete, Variant::Kimasai] {
        let r = Rules::new(v);
        run(
            &format!("{} start", v.id()),
            &r,
            &Position::start(&r),
            Limits::time(ms),
        );
        let p = after(&r, if v == Variant::Kimasai { 60 } else { 50 });
        run(&format!("{} middle game", v.id()), &r, &p, Limits::time(ms));
    }
}
