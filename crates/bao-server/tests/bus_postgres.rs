//! The event bus across instances on one PostgreSQL (BAO_TEST_POSTGRES_URL;
//! scripts/start-postgres.sh): every kind of event reaches a socket on the other instance
//! with every safety sweep set to an hour, and a listener whose connection is killed
//! mid-stream misses nothing. Without the variable these tests fail.

mod common;
use common::bus::*;
use common::postgres_url;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_a_killed_listener_misses_nothing() {
    killed_listener_misses_nothing(&postgres_url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_events_reach_the_other_instance() {
    events_reach_the_other_instance(&postgres_url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_idle_sockets_take_no_connection() {
    idle_sockets_take_no_connection(&postgres_url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_tournament_news_reach_the_other_instance() {
    tournament_news_reach_the_other_instance(&postgres_url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_tournament_news_only_to_followers() {
    tournament_news_only_to_followers(&postgres_url()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn postgres_challenge_expiry_reaches_the_other_instance() {
    challenge_expiry_reaches_the_other_instance(&postgres_url()).await;
}
