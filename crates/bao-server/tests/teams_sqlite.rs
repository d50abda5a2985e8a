//! Team matches on SQLite (docs/api.md, "Team matches"): proposed, answered, lineups, the
//! start at its time, results and score over HTTP (tests/common/teams.rs; the same flows run
//! on PostgreSQL in tests/teams_postgres.rs).

mod common;
use common::sqlite_url;
use common::teams::*;

#[tokio::test]
async fn sqlite_four_boards() {
    four_boards(&sqlite_url("tm-four")).await;
}

#[tokio::test]
async fn sqlite_only_leaders_propose_and_answer() {
    only_leaders_propose_and_answer(&sqlite_url("tm-lead")).await;
}

#[tokio::test]
async fn sqlite_members_cannot_set_lineups() {
    members_cannot_set_lineups(&sqlite_url("tm-lmem")).await;
}

#[tokio::test]
async fn sqlite_lineups_of_members_only() {
    lineups_of_members_only(&sqlite_url("tm-lonly")).await;
}

#[tokio::test]
async fn sqlite_nobody_on_both_sides() {
    nobody_on_both_sides(&sqlite_url("tm-lboth")).await;
}

#[tokio::test]
async fn sqlite_lineups_close_at_the_start() {
    lineups_close_at_the_start(&sqlite_url("tm-lclose")).await;
}

#[tokio::test]
async fn sqlite_games_a_stopped_start_left_are_made() {
    games_a_stopped_start_left_are_made(&sqlite_url("tm-crash")).await;
}

#[tokio::test]
async fn sqlite_followed_live() {
    followed_live(&sqlite_url("tm-live"), false).await;
}

#[tokio::test]
async fn sqlite_pages_read() {
    pages_read(&sqlite_url("tm-pages")).await;
}
