//! Game lifecycle on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh),
//! including two instances on one database. Without the variable these tests fail.

mod common;
use common::life::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_resign_names_its_game() {
    resign_names_its_game(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_names_pass_one_gate() {
    names_pass_one_gate(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_lists_are_paginated() {
    lists_are_paginated(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_abandoned_games_end() {
    abandoned_games_end(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_abandonment_is_exactly_once() {
    abandonment_is_exactly_once(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_idle_games_leave_memory() {
    idle_games_leave_memory(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_eviction_and_other_instances() {
    eviction_and_other_instances(&postgres_url()).await;
}
