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
async fn sqlite_members_cannot_lead() {
    members_cannot_lead(&sqlite_url("c-lead")).await;
}

#[tokio::test]
async fn sqlite_banned_cannot_join() {
    banned_cannot_join(&sqlite_url("c-ban")).await;
}

#[tokio::test]
async fn sqlite_a_club_keeps_a_leader() {
    a_club_keeps_a_leader(&sqlite_url("c-leader")).await;
}

#[tokio::test]
async fn sqlite_announcements_are_limited() {
    announcements_are_limited(&sqlite_url("c-news")).await;
}

#[tokio::test]
async fn sqlite_club_only_tournaments() {
    club_only_tournaments(&sqlite_url("c-tour")).await;
}

#[tokio::test]
async fn sqlite_announcement_alerts_the_members() {
    announcement_alerts_the_members(&sqlite_url("c-push")).await;
}

#[tokio::test]
async fn sqlite_leaders_lift_bans() {
    leaders_lift_bans(&sqlite_url("c-unban")).await;
}

#[tokio::test]
async fn sqlite_dissolving_a_club() {
    dissolving_a_club(&sqlite_url("c-dissolve")).await;
}
