//! Ratings on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh), two
//! instances on one database included: a rated game is rated exactly once, whichever
//! instances see it end. Without the variable these tests fail.

mod common;
use common::postgres_url;
use common::ratings::*;

#[tokio::test]
async fn postgres_rated_game_moves_both_ratings() {
    rated_game_moves_both_ratings(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_refusals_and_unrated_games() {
    refusals_and_unrated_games(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_rated_once_across_instances() {
    rated_once_across_instances(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_catch_up_rates_what_was_left() {
    catch_up_rates_what_was_left(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_leaderboard_filters_and_orders() {
    leaderboard_filters_and_orders(&postgres_url()).await;
}

/// `cargo test -p bao-server --test ratings_postgres -- --ignored --nocapture`: the cost of
/// rating one game on PostgreSQL (docs/api.md, "Ratings").
#[tokio::test]
#[ignore]
async fn measure_rating_postgres() {
    measure_rating(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_best_of_three_games_rated_each() {
    best_of_three_games_rated_each(&postgres_url()).await;
}
