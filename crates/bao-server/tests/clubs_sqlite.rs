//! Clubs on SQLite (docs/api.md, "Clubs"): making, finding and joining clubs, requests,
//! roles, bans, announcements and club-only tournaments over HTTP
//! (tests/common/clubs.rs; the same flows run on PostgreSQL in tests/clubs_postgres.rs).

mod common;
use common::clubs::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_clubs_and_members() {
    clubs_and_members(&sqlite_url("c-members")).await;
}

#[tokio::test]
async fn sqlite_refusals() {
    hostile(&sqlite_url("c-hostile")).await;
}

#[tokio::test]
async fn sqlite_announcement_alerts_the_members() {
    announcement_alerts_the_members(&sqlite_url("c-push")).await;
}
