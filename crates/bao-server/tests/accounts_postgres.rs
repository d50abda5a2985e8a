//! Accounts on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh), two
//! instances on one database included. Without the variable these tests fail.

mod common;
use common::accounts::*;
use common::postgres_url;

#[tokio::test]
async fn postgres_signup_login_logout() {
    signup_login_logout(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_recover_and_change_password() {
    recover_and_change_password(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_claimed_seats_and_deletion() {
    claimed_seats_and_deletion(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_sessions_across_instances() {
    sessions_across_instances(&postgres_url()).await;
}
