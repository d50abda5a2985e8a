//! Arenas on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): the flows
//! of tests/arenas_sqlite.rs, and two instances pairing one arena. Without the variable these
//! tests fail.

mod common;
use common::arenas::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_six_players_arena() {
    six_players(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_arena_refusals() {
    refusals(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_two_instances_pair_one_arena() {
    two_instances(&postgres_url()).await;
}

/// `cargo test -p bao-server --test arenas_postgres -- --ignored --nocapture measure_wave`:
/// one pairing wave of 1,000 waiting players (docs/api.md, "Arenas", "Measured").
#[tokio::test]
#[ignore]
async fn measure_wave_postgres() {
    let db = postgres_url();
    measure_wave(&db).await;
}

#[tokio::test]
async fn postgres_live_standings_two_instances() {
    live_standings(&postgres_url(), true).await;
}

/// `cargo test -p bao-server --test arenas_postgres -- --ignored --nocapture measure_standings`:
/// live standings of a 10,000-player arena to 1,000 sockets (docs/api.md, "Arenas").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_standings_postgres() {
    let db = postgres_url();
    measure_standings(&db).await;
}
