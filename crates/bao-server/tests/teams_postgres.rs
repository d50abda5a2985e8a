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
async fn postgres_lineup_defences() {
    lineup_defences(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_started_once_on_two_instances() {
    started_once_on_two_instances(&postgres_url()).await;
}
