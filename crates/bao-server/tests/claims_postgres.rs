//! A crash between a claim and its game, two instances on a real PostgreSQL
//! (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh): tests/common/claims.rs. Each case in
//! a schema of its own (tests/common/mod.rs, `postgres_url`): a pairing pass pairs every pool
//! of its database, and no other test's instance runs on these tables. Without the variable
//! these tests fail.

mod common;
use common::claims::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_pool_claim_crash_polling() {
    pool_claim_crash(&postgres_url(), false).await;
}

#[tokio::test]
async fn postgres_pool_claim_crash_socket() {
    pool_claim_crash(&postgres_url(), true).await;
}

#[tokio::test]
async fn postgres_seek_claim_crash_polling() {
    seek_claim_crash(&postgres_url(), false).await;
}

#[tokio::test]
async fn postgres_seek_claim_crash_socket() {
    seek_claim_crash(&postgres_url(), true).await;
}

#[tokio::test]
async fn postgres_challenge_claim_crash() {
    challenge_claim_crash(&postgres_url()).await;
}
