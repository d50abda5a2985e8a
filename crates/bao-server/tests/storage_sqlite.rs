//! Storage behaviour on SQLite (the same tests run on PostgreSQL in storage_postgres.rs).

mod common;
use common::sqlite_url;
use common::storage::*;

#[tokio::test]
async fn sqlite_restart_keeps_every_acknowledged_move() {
    restart_keeps_every_acknowledged_move(&sqlite_url("restart")).await;
}

#[tokio::test]
async fn sqlite_computer_moves_after_restart() {
    computer_moves_after_restart(&sqlite_url("comp")).await;
}

#[tokio::test]
async fn sqlite_one_move_per_ply_under_races() {
    one_move_per_ply_under_races(&sqlite_url("race")).await;
}
