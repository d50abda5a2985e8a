//! Puzzles mined from the site's games on SQLite (docs/api.md, "Puzzles"): the flows shared
//! with PostgreSQL (tests/site_puzzles_postgres.rs).

mod common;
use common::site_puzzles::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_finished_games_give_puzzles() {
    finished_games_give_puzzles(&sqlite_url("site-puzzles")).await;
}

#[tokio::test]
async fn sqlite_two_miners_mine_a_game_once() {
    two_instances_mine_once(&sqlite_url("site-puzzles-two"), false).await;
}

#[tokio::test]
async fn sqlite_a_claim_left_unfinished_is_taken_after_its_lease() {
    claims_expire(&sqlite_url("site-puzzles-lease")).await;
}
