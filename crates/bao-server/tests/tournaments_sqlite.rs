//! Tournaments on SQLite (docs/api.md, "Tournaments"): whole tournaments of each format over
//! HTTP, forfeits and withdrawals, refusals, exports (tests/common/tournaments.rs; the same
//! flows run on PostgreSQL in tests/tournaments_postgres.rs).

mod common;
use common::sqlite_url;
use common::tournaments::*;

#[tokio::test]
async fn sqlite_round_robin_and_swiss_of_eight() {
    whole_round_robin_and_swiss(&sqlite_url("t-table")).await;
}

#[tokio::test]
async fn sqlite_knockout_of_eight() {
    whole_knockout(&sqlite_url("t-knockout")).await;
}

#[tokio::test]
async fn sqlite_forfeit_and_withdrawal() {
    forfeit_after_time(&sqlite_url("t-forfeit")).await;
}

#[tokio::test]
async fn sqlite_games_name_their_tournament() {
    games_name_their_tournament(&sqlite_url("t-event")).await;
}

#[tokio::test]
async fn sqlite_refusals() {
    hostile(&sqlite_url("t-hostile")).await;
}

#[tokio::test]
async fn sqlite_start_time_and_missing_games() {
    starts_by_itself_and_missing_games_are_made(&sqlite_url("t-start")).await;
}

#[tokio::test]
async fn sqlite_forbidden_pairing() {
    forbidden_pairing(&sqlite_url("t-forbid")).await;
}

#[tokio::test]
async fn sqlite_rated_tournament() {
    rated_tournament(&sqlite_url("t-rated")).await;
}
