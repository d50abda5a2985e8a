//! Tournaments on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): a
//! live Swiss on two instances sharing the database (each round paired once, results from
//! games ended on either), and the flows of tests/tournaments_sqlite.rs. Without the
//! variable these tests fail.

mod common;
use common::postgres_url;
use common::tournaments::*;

#[tokio::test]
async fn postgres_swiss_on_two_instances() {
    swiss_on_two_instances(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_knockout_of_eight() {
    whole_knockout(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_forfeit_and_withdrawal() {
    forfeit_after_time(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_games_name_their_tournament() {
    games_name_their_tournament(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_refusals() {
    hostile(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_start_time_and_missing_games() {
    starts_by_itself_and_missing_games_are_made(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_forbidden_pairing() {
    forbidden_pairing(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_rated_tournament() {
    rated_tournament(&postgres_url()).await;
}
