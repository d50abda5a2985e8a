//! Team tournaments on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh):
//! the flows of tests/teamtour_sqlite.rs, and two instances pairing the same rounds and
//! counting the same results. Without the variable these tests fail.

mod common;
use common::postgres_url;
use common::teamtour::*;

/// `cargo test -p bao-server --test teamtour_postgres -- --ignored --nocapture measure`: a team
/// Swiss of 64 clubs on 4 boards (tests/common/teamtour_measure.rs; docs/api.md).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_team_swiss_postgres() {
    common::teamtour_measure::measure_team_swiss(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_four_clubs_round_robin() {
    four_clubs_round_robin(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_only_leaders_enter() {
    only_leaders_enter(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_club_entered_once() {
    club_entered_once(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_players_do_not_join_team_tournaments() {
    players_do_not_join_team_tournaments(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_boards_in_range() {
    boards_in_range(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_paired_once_on_two_instances() {
    paired_once_on_two_instances(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_five_clubs_swiss() {
    five_clubs_swiss(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_four_clubs_knockout() {
    four_clubs_knockout(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_left_running_is_finished_by_the_sweep() {
    left_running_is_finished_by_the_sweep(&postgres_url()).await;
}
