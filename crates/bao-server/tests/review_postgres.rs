//! Game review over HTTP on PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh
//! starts one): the scenarios of tests/common/review.rs. Without the variable these tests fail
//! and say how to start it.

mod common;

use common::postgres_url;
use common::review::*;

#[tokio::test]
async fn a_finished_game_is_reviewed_ply_by_ply_postgres() {
    a_finished_game_is_reviewed_ply_by_ply(&postgres_url()).await;
}

#[tokio::test]
async fn a_live_game_is_reviewed_once_resigned_and_not_before_postgres() {
    a_live_game_is_reviewed_once_resigned_and_not_before(&postgres_url()).await;
}
