//! Rematch (docs/api.md, "Play") on SQLite and PostgreSQL (two instances on one database).

mod common;
use common::play::*;
use common::{postgres_url, sqlite_url};

#[tokio::test]
async fn sqlite_rematch_is_one_game() {
    rematch_is_one_game(&sqlite_url("rematch")).await;
}

#[tokio::test]
async fn postgres_rematch_is_one_game() {
    rematch_is_one_game(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_rematch_across_instances() {
    rematch_across_instances(&postgres_url()).await;
}
