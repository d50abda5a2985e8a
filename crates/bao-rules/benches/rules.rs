//! Criterion benchmarks of the rules: perft from each start position and complete
//! random games per variant. Throughput is reported per leaf (perft) and per game (playout), so
//! criterion prints leaves/s and games/s directly.
//!
//! Targets: ≥ 20,000,000 perft leaves/s from the kiswahili start at depth 11 and
//! ≥ 60,000 random kiswahili games/s, one core. `cargo bench -p bao-rules --bench rules` runs the depths below
//! (each ~0.1–1 s); `BAO_BENCH_DEEP=1` adds kiswahili depth 11 (2,436,998 leaves).

use bao_rules::{perft, playout, Position, Rules, Variant};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use std::hint::black_box;
use std::time::Duration;

/// (variant, depth, leaves): the counts of fixtures/perft.txt, checked before timing.
const PERFT: &[(Variant, u32, u64)] = &[
    (Variant::Kiswahili, 9, 105_596),
    (Variant::Kiswahili, 10, 493_972),
    (Variant::Kete, 10, 494_867),
    (Variant::Kimasai, 6, 151_316),
];

fn bench_perft(c: &mut Criterion) {
    let mut g = c.benchmark_group("perft");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    let mut cases = PERFT.to_vec();
    if std::env::var_os("BAO_BENCH_DEEP").is_some() {
        cases.push((Variant::Kiswahili, 11, 2_436_998));
        cases.push((Variant::Kimasai, 7, 1_120_658));
    }
    for (v, depth, leaves) in cases {
        let rules = Rules::new(v);
        let start = Position::start(&rules);
        assert_eq!(perft(&start, &rules, depth), leaves, "perft {v} {depth}");
        g.throughput(Throughput::Elements(leaves));
        g.bench_function(format!("{v}/depth{depth}"), |b| {
            b.iter(|| perft(black_box(&start), &rules, depth))
        });
    }
    g.finish();
}

fn bench_playout(c: &mut Criterion) {
    let mut g = c.benchmark_group("playout");
    g.sample_size(10).measurement_time(Duration::from_secs(5));
    const GAMES: u64 = 1000;
    for v in Variant::ALL {
        let rules = Rules::new(v);
        let start = Position::start(&rules);
        g.throughput(Throughput::Elements(GAMES));
        let mut seed = 0;
        g.bench_function(format!("{v}/{GAMES}games"), |b| {
            b.iter(|| {
                seed += 1;
                playout(black_box(&start), &rules, seed, GAMES)
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench_perft, bench_playout);
criterion_main!(benches);
