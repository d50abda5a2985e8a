//! Fair play on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh), two
//! instances on one database included: a mark gives back each loss once. Without the
//! variable these tests fail.

mod common;
use common::fairplay::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_reports_and_moderation() {
    reports_and_moderation(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_mark_once_across_instances() {
    mark_once_across_instances(&postgres_url()).await;
}
