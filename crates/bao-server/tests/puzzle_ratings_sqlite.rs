//! Rated puzzles on SQLite (docs/api.md, "Puzzles"): the flows shared with PostgreSQL
//! (tests/puzzle_ratings_postgres.rs).

mod common;
use common::puzzle_ratings::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_attempts_rated_once_by_bao_rating() {
    attempts_rated_once_by_bao_rating(&sqlite_url("pz-rated")).await;
}

#[tokio::test]
async fn sqlite_wrong_move_fails_whatever_the_flag() {
    wrong_move_fails_whatever_the_flag(&sqlite_url("pz-wrong")).await;
}

#[tokio::test]
async fn sqlite_same_first_attempt_at_once() {
    rated_once_at_once(&sqlite_url("pz-once")).await;
}

#[tokio::test]
async fn sqlite_next_is_near_and_new() {
    next_is_near_and_new(&sqlite_url("pz-next")).await;
}

#[tokio::test]
async fn sqlite_streak_ends_at_first_miss() {
    streak_ends_at_first_miss(&sqlite_url("pz-streak")).await;
}

#[tokio::test]
async fn sqlite_dashboard_reads_the_attempts() {
    dashboard_reads_the_attempts(&sqlite_url("pz-dash")).await;
}
