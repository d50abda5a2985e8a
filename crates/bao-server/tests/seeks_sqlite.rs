//! Finding an opponent on SQLite (docs/api.md, "Finding an opponent"): the flows shared with
//! PostgreSQL (tests/seeks_postgres.rs).

mod common;
use common::seeks::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_seeks_flow() {
    seeks_flow(&sqlite_url("seeks-flow")).await;
}

#[tokio::test]
async fn sqlite_accept_race() {
    accept_race(&sqlite_url("seeks-race"), false).await;
}

#[tokio::test]
async fn sqlite_pool_pairs() {
    pool_pairs(&sqlite_url("seeks-pool")).await;
}

#[tokio::test]
async fn sqlite_pool_across_instances() {
    pool_across_instances(&sqlite_url("seeks-pool-two")).await;
}

#[tokio::test]
async fn sqlite_challenges_flow() {
    challenges_flow(&sqlite_url("seeks-challenges")).await;
}

#[tokio::test]
async fn sqlite_hostile() {
    hostile(&sqlite_url("seeks-hostile")).await;
}

/// `cargo test --release -p bao-server --test seeks_sqlite -- --ignored --nocapture`: the
/// time from a seek accepted to both players having the game (docs/api.md).
#[tokio::test]
#[ignore]
async fn measure_accept_sqlite() {
    measure_accept(&sqlite_url("seeks-measure"), 50).await;
}

#[tokio::test]
async fn sqlite_orphan_claims_are_undone() {
    orphan_claims_are_undone(&sqlite_url("seeks-orphans")).await;
}

/// `cargo test --release -p bao-server --test seeks_sqlite -- --ignored --nocapture
/// measure_pairing_pass`: one pairing pass over 1,000 waiting players (the pure rule of
/// domain/pairing.rs, which every instance runs every 2 s), median of 20 (docs/api.md).
#[test]
#[ignore]
fn measure_pairing_pass() {
    use bao_server::domain::pairing::{crowd, pair};
    let mut times = Vec::new();
    let mut pairs = 0;
    for seed in 1..=20 {
        let (tickets, blocks, now) = crowd(1_000, seed);
        let t0 = std::time::Instant::now();
        pairs = pair(&tickets, &blocks, now).len();
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
    }
    times.sort_by(f64::total_cmp);
    println!(
        "pairing pass, 1,000 waiting players in 3 pools: median {:.2} ms, max {:.2} ms ({pairs} pairs in the last)",
        times[10], times[19]
    );
}

/// `cargo test -p bao-server --test seeks_sqlite -- --ignored --nocapture measure_pool_pass`:
/// one pairing pass with the store over 1,000 waiting accounts (docs/api.md).
#[tokio::test]
#[ignore]
async fn measure_pool_pass_sqlite() {
    common::pool_measure::measure_pool_pass(&sqlite_url("pool-measure"), 1_000).await;
}

/// `cargo test -p bao-server --test seeks_sqlite -- --ignored --nocapture measure_accept_with_sockets`:
/// seek accepts while 500 signed-in player sockets read the store (docs/api.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_accept_with_sockets_sqlite() {
    common::pool_measure::measure_accept_with_sockets(&sqlite_url("sockets-measure"), 500, 200)
        .await;
}

#[tokio::test]
async fn sqlite_pool_claim_crash_polling() {
    common::claims::pool_claim_crash(&sqlite_url("crash-pool-poll"), false).await;
}

#[tokio::test]
async fn sqlite_pool_claim_crash_socket() {
    common::claims::pool_claim_crash(&sqlite_url("crash-pool-sock"), true).await;
}

#[tokio::test]
async fn sqlite_seek_claim_crash_polling() {
    common::claims::seek_claim_crash(&sqlite_url("crash-seek-poll"), false).await;
}

#[tokio::test]
async fn sqlite_seek_claim_crash_socket() {
    common::claims::seek_claim_crash(&sqlite_url("crash-seek-sock"), true).await;
}

#[tokio::test]
async fn sqlite_challenge_claim_crash() {
    common::claims::challenge_claim_crash(&sqlite_url("crash-challenge")).await;
}

#[tokio::test]
async fn sqlite_revived_leases_are_news() {
    revived_leases_are_news(&sqlite_url("revive")).await;
}
