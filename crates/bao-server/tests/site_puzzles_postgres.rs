//! Puzzles mined from the site's games on a real PostgreSQL (BAO_TEST_POSTGRES_URL;
//! scripts/start-postgres.sh), two instances on one database included: a game is mined
//! once and both serve its puzzles. Without the variable these tests fail.

mod common;
use common::postgres_url;
use common::site_puzzles::*;

#[tokio::test]
async fn postgres_finished_games_give_puzzles() {
    finished_games_give_puzzles(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_two_instances_mine_a_game_once() {
    two_instances_mine_once(&postgres_url(), true).await;
}

#[tokio::test]
async fn postgres_a_claim_left_unfinished_is_taken_after_its_lease() {
    claims_expire(&postgres_url()).await;
}
