//! Arenas on SQLite: the flows of tests/common/arenas.rs.

mod common;
use common::arenas::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_six_players_arena() {
    six_players(&sqlite_url("arena_six")).await;
}

#[tokio::test]
async fn sqlite_arena_refusals() {
    refusals(&sqlite_url("arena_refusals")).await;
}

/// `cargo test -p bao-server --test arenas_sqlite -- --ignored --nocapture measure_wave`:
/// one pairing wave of 1,000 waiting players (docs/api.md, "Arenas", "Measured").
#[tokio::test]
#[ignore]
async fn measure_wave_sqlite() {
    measure_wave(&sqlite_url("arena_wave")).await;
}

#[tokio::test]
async fn sqlite_live_standings() {
    live_standings(&sqlite_url("arena_live"), false).await;
}

/// `cargo test -p bao-server --test arenas_sqlite -- --ignored --nocapture measure_standings`:
/// live standings of a 10,000-player arena to 1,000 sockets (docs/api.md, "Arenas").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_standings_sqlite() {
    measure_standings(&sqlite_url("arena_standings")).await;
}
