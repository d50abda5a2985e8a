//! Club, private and recurring arenas, the calendar and the reminder on a real PostgreSQL
//! (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh), two instances where it matters: one
//! reminder and one next arena of a series, not one per instance. Without the variable
//! these tests fail.

mod common;
use common::calendar::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_club_and_private_arenas() {
    club_and_private_arenas(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_two_instances_remind_once() {
    reminder_once(&postgres_url(), 2).await;
}

#[tokio::test]
async fn postgres_two_instances_make_the_next_arena_once() {
    series_once(&postgres_url(), 2).await;
}
