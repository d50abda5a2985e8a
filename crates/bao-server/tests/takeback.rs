//! Takeback and hint against the computer (docs/api.md, "Play"), stored across a restart.

mod common;
use common::play::*;
use common::{postgres_url, sqlite_url};

#[tokio::test]
async fn sqlite_takeback_and_hint() {
    takeback_and_hint(&sqlite_url("takeback")).await;
}

#[tokio::test]
async fn postgres_takeback_and_hint() {
    takeback_and_hint(&postgres_url()).await;
}
