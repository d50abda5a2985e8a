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
