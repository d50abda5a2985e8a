//! Measurements of the lobby with the store (docs/api.md, "Finding an opponent", Measured):
//! the pool's pairing pass over 1,000 waiting accounts (reads the tickets, pairs them, claims
//! each pair and makes each rated game; the pure rule alone is `measure_pairing_pass`), and
//! a seek accepted while many signed-in player sockets read the store.

use super::seeks::{play_ws, time_accepts};
use super::server;
use bao_server::features::seeks::SeeksConfig;
use bao_server::store::NewAccount;
use std::time::{Duration, Instant};

/// Makes account `name` with a first session of hash `session_hash`, straight in the store:
/// a password hash no password matches (these accounts are never signed in to by name).
async fn quiet_account(
    store: &bao_server::store::Store,
    name: String,
    session_hash: &str,
    now: i64,
) -> String {
    let a = NewAccount {
        username: name.clone(),
        name_key: name,
        password_hash: "$argon2id$v=19$m=19456,t=2,p=1$none$none".into(),
        recovery_hash: "$argon2id$v=19$m=19456,t=2,p=1$none$none".into(),
    };
    store.create_account(&a, session_hash, now).await.unwrap().0
}

/// Fills the pool with `n` accounts (ratings 800 to 2400, waiting up to a minute), runs one
/// pass and prints how long it took and how many games it made. Background passes are off
/// (an hour apart) so that the pass measured is the only one.
pub async fn measure_pool_pass(url: &str, n: usize) {
    let s = server(url)
        .behind_proxy()
        .seeks(SeeksConfig {
            liveness: Duration::from_secs(3600),
            pair_every: Duration::from_secs(3600),
            background_passes: false,
            ..SeeksConfig::default()
        })
        .start()
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
        let id = quiet_account(store, format!("p{run}{i}"), &format!("{run}-{i}"), now).await;
        let (variant, clock) = pools[i % 3];
        let pool = format!("{variant} {}", clock.unwrap_or("none"));
        let rating = 800 + (i as i64 * 7919) % 1600;
        let since = now - (i as i64 * 104_729) % 60_000;
        store
            .insert_ticket(
                &format!("t{run}{i}"),
                &id,
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
    let s = server(url)
        .behind_proxy()
        .seeks(SeeksConfig::default())
        .start()
        .await;
    let store = &s.app.store;
    let now = bao_server::util::now_ms();
    let run = bao_server::util::random_code(6);
    let mut open = Vec::new();
    let mut report = Vec::new();
    for load in [0, sockets] {
        while open.len() < load {
            let i = open.len();
            let token = bao_server::util::new_token();
            let hash = bao_server::util::hash_token(&token);
            quiet_account(store, format!("w{run}{i}"), &hash, now).await;
            let cookie = format!("bao_session={token}");
            open.push(play_ws(&s.addr.to_string(), Some(&cookie), &[]).await);
        }
        report.push(format!(
            "{load} signed-in player sockets open: {}",
            time_accepts(&s, n).await
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
