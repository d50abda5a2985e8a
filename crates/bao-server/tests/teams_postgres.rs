//! Team matches on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): the
//! flows of tests/teams_sqlite.rs, and two instances starting the same match. Without the
//! variable these tests fail.

mod common;
use common::postgres_url;
use common::teams::*;

#[tokio::test]
async fn postgres_four_boards() {
    four_boards(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_only_leaders_propose_and_answer() {
    only_leaders_propose_and_answer(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_members_cannot_set_lineups() {
    members_cannot_set_lineups(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_lineups_of_members_only() {
    lineups_of_members_only(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_nobody_on_both_sides() {
    nobody_on_both_sides(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_lineups_close_at_the_start() {
    lineups_close_at_the_start(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_started_once_on_two_instances() {
    started_once_on_two_instances(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_games_a_stopped_start_left_are_made() {
    games_a_stopped_start_left_are_made(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_followed_live_across_instances() {
    followed_live(&postgres_url(), true).await;
}
