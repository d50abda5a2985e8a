//! Team tournaments on SQLite (docs/api.md, "Team tournaments"): clubs entered by their
//! leaders, pairings played as team matches, standings by match points then board points
//! (tests/common/teamtour.rs; the same flows run on PostgreSQL in tests/teamtour_postgres.rs).

mod common;
use common::sqlite_url;
use common::teamtour::*;

/// `cargo test -p bao-server --test teamtour_sqlite -- --ignored --nocapture measure`: a team
/// Swiss of 64 clubs on 4 boards (tests/common/teamtour_measure.rs; docs/api.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_team_swiss_sqlite() {
    common::teamtour_measure::measure_team_swiss(&sqlite_url("tt-measure")).await;
}

#[tokio::test]
async fn sqlite_four_clubs_round_robin() {
    four_clubs_round_robin(&sqlite_url("tt-rr")).await;
}

#[tokio::test]
async fn sqlite_only_leaders_enter() {
    only_leaders_enter(&sqlite_url("tt-lead")).await;
}

#[tokio::test]
async fn sqlite_club_entered_once() {
    club_entered_once(&sqlite_url("tt-once")).await;
}

#[tokio::test]
async fn sqlite_players_do_not_join_team_tournaments() {
    players_do_not_join_team_tournaments(&sqlite_url("tt-solo")).await;
}

#[tokio::test]
async fn sqlite_boards_in_range() {
    boards_in_range(&sqlite_url("tt-boards")).await;
}

#[tokio::test]
async fn sqlite_five_clubs_swiss() {
    five_clubs_swiss(&sqlite_url("tt-swiss")).await;
}

#[tokio::test]
async fn sqlite_four_clubs_knockout() {
    four_clubs_knockout(&sqlite_url("tt-knockout")).await;
}

#[tokio::test]
async fn sqlite_left_running_is_finished_by_the_sweep() {
    left_running_is_finished_by_the_sweep(&sqlite_url("tt-left")).await;
}
