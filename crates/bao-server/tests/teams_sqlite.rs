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
async fn sqlite_lineup_defences() {
    lineup_defences(&sqlite_url("tm-lineup")).await;
}
