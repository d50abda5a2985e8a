//! Team battles on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): the
//! flows of tests/battles_sqlite.rs. Without the variable these tests fail.

mod common;
use common::battles::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_three_clubs_battle() {
    three_clubs(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_battle_refusals() {
    battle_refusals(&postgres_url()).await;
}
