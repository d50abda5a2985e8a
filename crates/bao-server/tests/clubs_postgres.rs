//! Clubs on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): the flows
//! of tests/clubs_sqlite.rs. Without the variable these tests fail.

mod common;
use common::clubs::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_clubs_and_members() {
    clubs_and_members(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_refusals() {
    hostile(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_announcement_alerts_the_members() {
    announcement_alerts_the_members(&postgres_url()).await;
}
