//! The time to pair one Swiss round of 256 players: round 5, after four rounds of random
//! results (seeded, so every run pairs the same position). Target: well under a second.
//!
//!     cargo bench -p bao-tournament --bench swiss
//!
//! Measured 2026-12-04 on the project's 2-core machine, shared with other builds: 256
//! players 17.7 ms (median 16.4 ms), 64 players 0.8 ms.

use bao_tournament::swiss::pair;
use bao_tournament::{Format, GameResult, Player, Tournament};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;
use std::time::Duration;

/// A tournament of `n` players after `rounds` rounds of random results.
fn after_random_rounds(n: usize, rounds: usize, mut seed: u64) -> Tournament {
    let mut next = move || {
        // splitmix64
        seed = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = seed;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let players = (0..n)
        .map(|i| Player::rated(format!("p{i}"), 2400 - i as i32 * 4))
        .collect();
    let mut t = Tournament::new(Format::Swiss { rounds: rounds + 1 }, players).unwrap();
    for r in 1..=rounds {
        let games = t.pair_next_round().unwrap().pairings.clone();
        for g in games {
            let res = match next() % 5 {
                0 | 1 => GameResult::SouthWins,
                2 | 3 => GameResult::NorthWins,
                _ => GameResult::Draw,
            };
            t.record(r, g, res).unwrap();
        }
    }
    t
}

fn bench_swiss(c: &mut Criterion) {
    let mut g = c.benchmark_group("swiss");
    g.sample_size(10).measurement_time(Duration::from_secs(10));
    for n in [64, 256] {
        let t = after_random_rounds(n, 4, 5);
        let players = t.swiss_players();
        g.bench_function(format!("pair round 5 of {n} players"), |b| {
            b.iter(|| pair(black_box(&players), &[]).unwrap())
        });
    }
    g.finish();
}

criterion_group!(benches, bench_swiss);
criterion_main!(benches);
