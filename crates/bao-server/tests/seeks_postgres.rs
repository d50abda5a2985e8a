//! Finding an opponent on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh),
//! two instances on one database included: a seek is accepted once and a ticket paired once
//! whichever instances try. Without the variable these tests fail.

mod common;
use common::postgres_url;
use common::seeks::*;

#[tokio::test]
async fn postgres_seeks_flow() {
    seeks_flow(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_accept_race() {
    accept_race(&postgres_url(), false).await;
}

#[tokio::test]
async fn postgres_accept_race_across_instances() {
    accept_race(&postgres_url(), true).await;
}

#[tokio::test]
async fn postgres_pool_pairs() {
    pool_pairs(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_pool_across_instances() {
    pool_across_instances(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_challenges_flow() {
    challenges_flow(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_hostile() {
    hostile(&postgres_url()).await;
}

/// `cargo test --release -p bao-server --test seeks_postgres -- --ignored --nocapture`: the
/// time from a seek accepted to both players having the game (docs/api.md).
#[tokio::test]
#[ignore]
async fn measure_accept_postgres() {
    measure_accept(&postgres_url(), 50).await;
}

#[tokio::test]
async fn postgres_orphan_claims_are_undone() {
    orphan_claims_are_undone(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_challenge_accept_across_instances() {
    challenge_accept_race(&postgres_url()).await;
}

/// `cargo test -p bao-server --test seeks_postgres -- --ignored --nocapture measure_pool_pass`:
/// one pairing pass with the store over 1,000 waiting accounts (docs/api.md).
#[tokio::test]
#[ignore]
async fn measure_pool_pass_postgres() {
    common::pool_measure::measure_pool_pass(&postgres_url(), 1_000).await;
}

/// `cargo test -p bao-server --test seeks_postgres -- --ignored --nocapture measure_accept_with_sockets`:
/// seek accepts while 500 signed-in player sockets read the store (docs/api.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_accept_with_sockets_postgres() {
    common::pool_measure::measure_accept_with_sockets(&postgres_url(), 500, 200).await;
}

#[tokio::test]
async fn postgres_revived_leases_are_news() {
    revived_leases_are_news(&postgres_url()).await;
}
