//! The cost of rating one game: both players' updates as the game ends (`rate_game`), and
//! one player's update with the same game (`update`), so that the server's cost per game is
//! known.
//!
//! Run: cargo bench -p bao-rating --bench rating
//!
//! Measured 2026-12-04 on the shared 2-core machine, load average about 12 (so upper
//! figures): rate_game 1.03 µs (both players), update 0.45 µs (one player), rate_game of a
//! draw between equals 0.70-0.74 µs. Rating games is no cost to the server beside playing
//! them.

use std::hint::black_box;
use std::time::Duration;

use bao_rating::{Config, Outcome, Rating};
use criterion::{criterion_group, criterion_main, Criterion};

fn rating(c: &mut Criterion) {
    let config = Config::default();
    let day = Duration::from_secs(86_400);
    // A settled player beaten by a newer one: a surprise, so the volatility step iterates.
    let a = Rating::new(1720.0, 62.0, 0.058).unwrap();
    let b = Rating::new(1480.0, 180.0, 0.09).unwrap();

    c.bench_function("rate_game (both players, one game)", |bench| {
        bench.iter(|| {
            config.rate_game(
                black_box(a),
                black_box(3 * day),
                black_box(b),
                black_box(day / 2),
                black_box(Outcome::Loss),
            )
        })
    });

    let opponent = config.after_idle(b, day / 2);
    c.bench_function("update (one player, one game)", |bench| {
        bench.iter(|| {
            config.update(
                black_box(a),
                black_box(3 * day),
                black_box(&[(opponent, Outcome::Loss)]),
            )
        })
    });

    // Expected (a draw between equals): the volatility step's easiest case.
    let equal = Rating::new(1500.0, 90.0, 0.06).unwrap();
    c.bench_function("rate_game (equal players, draw)", |bench| {
        bench.iter(|| {
            config.rate_game(
                black_box(equal),
                black_box(day),
                black_box(equal),
                black_box(day),
                black_box(Outcome::Draw),
            )
        })
    });
}

criterion_group!(benches, rating);
criterion_main!(benches);
