//! Rematch (docs/api.md, "Play: rematch") on SQLite and PostgreSQL (two instances on one
//! database): an offer the other player accepts or declines, lapsing, crossing.

mod common;
use common::play::*;
use common::{postgres_url, sqlite_url};

#[tokio::test]
async fn sqlite_rematch_is_an_offer() {
    rematch_is_an_offer(&sqlite_url("rematch")).await;
}

#[tokio::test]
async fn postgres_rematch_is_an_offer() {
    rematch_is_an_offer(&postgres_url()).await;
}

#[tokio::test]
async fn sqlite_rematch_offers_lapse_and_cross() {
    rematch_offers_lapse_and_cross(&sqlite_url("rematch-lapse")).await;
}

#[tokio::test]
async fn postgres_rematch_across_instances() {
    rematch_across_instances(&postgres_url()).await;
}

#[tokio::test]
async fn sqlite_rematch_reaches_the_home_page() {
    rematch_reaches_the_home_page(&sqlite_url("rematch-home")).await;
}
