//! A crash between a claim and its game, two instances on a real PostgreSQL
//! (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): tests/common/claims.rs. A binary of
//! its own, and the cases one after another in one test, because a pairing pass of any
//! instance on the database pairs every pool: an instance of another test running beside
//! these would make the game that the crashed instance must leave unmade. Without the
//! variable this test fails.

mod common;
use common::claims::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_claim_crashes() {
    let url = postgres_url();
    pool_claim_crash(&url, false).await;
    pool_claim_crash(&url, true).await;
    seek_claim_crash(&url, false).await;
    seek_claim_crash(&url, true).await;
    challenge_claim_crash(&url).await;
}
