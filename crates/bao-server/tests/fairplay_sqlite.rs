//! Fair play on SQLite (docs/api.md, "Fair play"): the flows shared with PostgreSQL
//! (tests/fairplay_postgres.rs), and the statistics on games the test plays.

mod common;
use common::fairplay::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_engine_follower_stands_out() {
    engine_follower_stands_out(&sqlite_url("fair-stats")).await;
}

#[tokio::test]
async fn sqlite_reports_and_moderation() {
    reports_and_moderation(&sqlite_url("fair-mod")).await;
}
