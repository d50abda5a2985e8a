//! Game lifecycle on SQLite (the same tests run on PostgreSQL in life_postgres.rs).

mod common;
use common::life::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_resign_names_its_game() {
    resign_names_its_game(&sqlite_url("resign")).await;
}

#[tokio::test]
async fn sqlite_names_pass_one_gate() {
    names_pass_one_gate(&sqlite_url("names")).await;
}

#[tokio::test]
async fn sqlite_lists_are_paginated() {
    lists_are_paginated(&sqlite_url("pages")).await;
}

#[tokio::test]
async fn sqlite_abandoned_games_end() {
    abandoned_games_end(&sqlite_url("abandon")).await;
}

#[tokio::test]
async fn sqlite_abandonment_is_exactly_once() {
    abandonment_is_exactly_once(&sqlite_url("abandon2")).await;
}

#[tokio::test]
async fn sqlite_idle_games_leave_memory() {
    idle_games_leave_memory(&sqlite_url("evict")).await;
}
