//! Clocks (docs/api.md, "Clocks") with two instances on one PostgreSQL (BAO_TEST_POSTGRES_URL): exactly
//! one records each loss on time. In a binary of its own: a test whose sweep runs (such as
//! the restart test of clock.rs) would decide these games itself, from a third instance.

mod common;
use common::play::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_clock_loss_recorded_once_over_two_instances() {
    clock_loss_recorded_once(&postgres_url()).await;
}
