//! Pass and play (docs/api.md, "Pass and play").

mod common;
use common::play::*;
use common::{postgres_url, sqlite_url};

#[tokio::test]
async fn sqlite_pass_and_play() {
    pass_and_play(&sqlite_url("local")).await;
}

#[tokio::test]
async fn postgres_pass_and_play() {
    pass_and_play(&postgres_url()).await;
}
