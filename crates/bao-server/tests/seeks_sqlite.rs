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
