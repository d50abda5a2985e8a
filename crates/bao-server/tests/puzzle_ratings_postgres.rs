//! Rated puzzles on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh),
//! two instances on one database included: a first attempt is rated exactly once. Without
//! the variable these tests fail.

mod common;
use common::postgres_url;
use common::puzzle_ratings::*;

#[tokio::test]
async fn postgres_attempts_rated_once_by_bao_rating() {
    attempts_rated_once_by_bao_rating(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_wrong_move_fails_whatever_the_flag() {
    wrong_move_fails_whatever_the_flag(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_rated_once_across_instances() {
    rated_once_across_instances(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_next_is_near_and_new() {
    next_is_near_and_new(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_streak_ends_at_first_miss() {
    streak_ends_at_first_miss(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_dashboard_reads_the_attempts() {
    dashboard_reads_the_attempts(&postgres_url()).await;
}
