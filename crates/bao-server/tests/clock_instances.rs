//! Clocks (docs/api.md, "Clocks") with two instances on one PostgreSQL (BAO_TEST_POSTGRES_URL): exactly
//! one records each loss on time. In a binary of its own: a test whose sweep runs (such as
//! the restart test of clock.rs) would decide these games itself, from a third instance.

mod common;
use common::play::*;
use common::{postgres_url, server, Client};

#[tokio::test]
async fn postgres_clock_loss_recorded_once_over_two_instances() {
    clock_loss_recorded_once(&postgres_url()).await;
}

/// A whole game with South's moves and reads through one instance and North's through the
/// other: every move's clock charged once, with the increment, as both instances show it.
#[tokio::test]
async fn postgres_clock_charged_across_two_instances() {
    let url = postgres_url();
    let (a, b) = server(&url).lifecycle(no_sweep()).start_two().await;
    clock_charges_every_move(&Client::new(&a), &Client::new(&b), 250).await;
    a.stop().await;
    b.stop().await;
}
