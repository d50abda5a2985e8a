//! Measurements of the lobby with the store (docs/api.md, "Finding an opponent", Measured):
//! the pool's pairing pass over 1,000 waiting accounts (reads the tickets, pairs them, claims
//! each pair and makes each rated game; the pure rule alone is `measure_pairing_pass`), and
//! a seek accepted while many signed-in player sockets read the store.

use super::accounts::{base, post};
use super::seeks::{casual, id_and_token, play_ws, post_seek, start_seeks};
use super::*;
use bao_server::edge::Rates;
use bao_server::features::seeks::SeeksConfig;
use bao_server::store::NewAccount;
use serde_json::json;
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

/// Opens `sockets` player sockets of signed-in accounts (each reads the store every 2 s, as
/// in production), then times `n` seek accepts as `measure_accept` does (the acceptor's 201
/// and the owner's `seek_accepted`), and prints the figures beside the same with no socket.
pub async fn measure_accept_with_sockets(url: &str, sockets: usize, n: usize) {
    let s = start_seeks(url, SeeksConfig::default(), Rates::NONE).await;
    let b = &base(&s);
    let store = &s.app.store;
    let now = bao_server::util::now_ms();
    let run = bao_server::util::random_code(6);
    let mut open = Vec::new();
    let mut report = Vec::new();
    for load in [0, sockets] {
        while open.len() < load {
            let i = open.len();
            let name = format!("w{run}{i}");
            let token = bao_server::util::new_token();
            let a = NewAccount {
                username: name.clone(),
                name_key: name,
                password_hash: "$argon2id$v=19$m=19456,t=2,p=1$none$none".into(),
                recovery_hash: "$argon2id$v=19$m=19456,t=2,p=1$none$none".into(),
            };
            store
                .create_account(&a, &bao_server::util::hash_token(&token), now)
                .await
                .unwrap();
            let cookie = format!("bao_session={token}");
            open.push(play_ws(&s.addr.to_string(), Some(&cookie), &[]).await);
        }
        let mut times = Vec::new();
        for _ in 0..n {
            let p = post_seek(b, casual("Timer"), None).await;
            let (id, token) = id_and_token(&p);
            let mut sock = play_ws(&s.addr.to_string(), None, &[&token]).await;
            let path = format!("/api/seeks/{id}/accept");
            let t0 = Instant::now();
            let (acc, m) = tokio::join!(
                post(b, &path, json!({}), None),
                next_of(&mut sock, "seek_accepted", None)
            );
            times.push(t0.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(acc.status, 201, "{}", acc.text);
            assert_eq!(m["game"], acc.json["game"]);
        }
        times.sort_by(f64::total_cmp);
        report.push(format!(
            "{load} signed-in player sockets open: median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
            times[n / 2],
            times[(n * 95 / 100).min(n - 1)],
            times[n - 1]
        ));
    }
    println!(
        "seek accept to both players having the game ({}), {n} accepts each:\n  {}",
        if url.starts_with("postgres") {
            "PostgreSQL"
        } else {
            "SQLite"
        },
        report.join("\n  ")
    );
    drop(open);
    s.stop().await;
}
