//! Clubs on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): the flows
//! of tests/clubs_sqlite.rs, and two leaders stepping down at once on two instances sharing
//! the database. Without the variable these tests fail.

mod common;
use common::clubs::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_clubs_and_members() {
    clubs_and_members(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_members_cannot_lead() {
    members_cannot_lead(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_banned_cannot_join() {
    banned_cannot_join(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_a_club_keeps_a_leader() {
    a_club_keeps_a_leader(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_announcements_are_limited() {
    announcements_are_limited(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_club_only_tournaments() {
    club_only_tournaments(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_announcement_alerts_the_members() {
    announcement_alerts_the_members(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_two_leaders_step_down_at_once_on_two_instances() {
    two_leaders_step_down_at_once(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_leaders_lift_bans() {
    leaders_lift_bans(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_dissolving_a_club() {
    dissolving_a_club(&postgres_url()).await;
}
