//! The pool's pairing pass with the store (docs/api.md, "Finding an opponent", Measured):
//! 1,000 accounts waiting in three pools, one pass that reads the tickets, pairs them, claims
//! each pair and makes each rated game. The pure rule alone is `measure_pairing_pass`.

use super::seeks::start_seeks;
use bao_server::edge::Rates;
use bao_server::features::seeks::SeeksConfig;
use bao_server::store::NewAccount;
use std::time::{Duration, Instant};

/// Fills the pool with `n` accounts (ratings 800 to 2400, waiting up to a minute), runs one
/// pass and prints how long it took and how many games it made. Background passes are off
/// (an hour apart) so that the pass measured is the only one.
pub async fn measure_pool_pass(url: &str, n: usize) {
    let s = start_seeks(
        url,
        SeeksConfig {
            liveness: Duration::from_secs(3600),
            poll: Duration::from_secs(3600),
            pair_every: Duration::from_secs(3600),
        },
        Rates::NONE,
    )
    .await;
    let store = &s.app.store;
    let now = bao_server::util::now_ms();
    let run = bao_server::util::random_code(6);
    let pools = [
        ("kete", Some(r#"{"initial_ms":300000,"increment_ms":3000}"#)),
        ("kete", Some(r#"{"initial_ms":600000,"increment_ms":5000}"#)),
        ("kiswahili", None),
    ];
    let t0 = Instant::now();
    for i in 0..n {
        // A hash that no password matches: these accounts never sign in.
        let name = format!("p{run}{i}");
        let a = NewAccount {
            username: name.clone(),
            name_key: name.clone(),
            password_hash: "$argon2id$v=19$m=19456,t=2,p=1$none$none".into(),
            recovery_hash: "$argon2id$v=19$m=19456,t=2,p=1$none$none".into(),
        };
        let id = store
            .create_account(&a, &format!("{run}-{i}"), now)
            .await
            .unwrap();
        let (variant, clock) = pools[i % 3];
        let pool = format!("{variant} {}", clock.unwrap_or("none"));
        let rating = 800 + (i as i64 * 7919) % 1600;
        let since = now - (i as i64 * 104_729) % 60_000;
        store
            .insert_ticket(
                &format!("t{run}{i}"),
                &id.0,
                &pool,
                variant,
                clock,
                rating,
                since,
                now + 3_600_000,
            )
            .await
            .unwrap();
    }
    let filled = t0.elapsed();
    let t1 = Instant::now();
    let made = s.app.seeks.pair_now().await;
    let pass = t1.elapsed();
    assert!(made > 0, "the pass made games");
    println!(
        "pool pass with the store ({}): {n} waiting players -> {made} rated games in {:.0} ms \
         ({:.2} ms a game: read, pair, claim, make); filling the pool took {:.1} s",
        if url.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        pass.as_secs_f64() * 1000.0,
        pass.as_secs_f64() * 1000.0 / made as f64,
        filled.as_secs_f64(),
    );
    s.stop().await;
}
