//! Team battles on SQLite: the flows of tests/common/battles.rs.

mod common;
use common::battles::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_three_clubs_battle() {
    three_clubs(&sqlite_url("battle_three")).await;
}

#[tokio::test]
async fn sqlite_battle_refusals() {
    battle_refusals(&sqlite_url("battle_refusals")).await;
}
