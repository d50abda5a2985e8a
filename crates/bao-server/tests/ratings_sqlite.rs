//! Ratings, profiles and the leaderboard on SQLite (docs/api.md, "Ratings", "Profiles and
//! leaderboard"): the flows shared with PostgreSQL (tests/ratings_postgres.rs).

mod common;
use common::ratings::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_rated_game_moves_both_ratings() {
    rated_game_moves_both_ratings(&sqlite_url("rate-game")).await;
}

#[tokio::test]
async fn sqlite_refusals_and_unrated_games() {
    refusals_and_unrated_games(&sqlite_url("rate-refuse")).await;
}

#[tokio::test]
async fn sqlite_catch_up_rates_what_was_left() {
    catch_up_rates_what_was_left(&sqlite_url("rate-catch-up")).await;
}

#[tokio::test]
async fn sqlite_leaderboard_filters_and_orders() {
    leaderboard_filters_and_orders(&sqlite_url("rate-board")).await;
}

/// `cargo test -p bao-server --test ratings_sqlite -- --ignored --nocapture`: the cost of
/// rating one game (docs/api.md, "Ratings").
#[tokio::test]
#[ignore]
async fn measure_rating_sqlite() {
    measure_rating(&sqlite_url("rate-measure")).await;
}

#[tokio::test]
async fn sqlite_best_of_three_games_rated_each() {
    best_of_three_games_rated_each(&sqlite_url("rate-bo3")).await;
}
