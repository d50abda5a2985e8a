//! Clocks (docs/api.md, "Clocks") on SQLite and on PostgreSQL (BAO_TEST_POSTGRES_URL;
//! scripts/start-postgres.sh): checked requests, the running side, a loss on time decided
//! by the server with nobody connected, and a restart (two instances: clock_instances.rs).

mod common;
use common::play::*;
use common::{postgres_url, server, sqlite_url, Client};

#[tokio::test]
async fn sqlite_clock_requests_are_checked() {
    clock_requests_are_checked(&sqlite_url("clock-req")).await;
}

#[tokio::test]
async fn sqlite_clock_runs_for_the_side_to_move() {
    clock_runs_for_the_side_to_move(&sqlite_url("clock-run")).await;
}

#[tokio::test]
async fn sqlite_clock_charges_every_move() {
    let s = server(&sqlite_url("clock-every"))
        .lifecycle(no_sweep())
        .start()
        .await;
    let c = Client::new(&s);
    clock_charges_every_move(&c, &c, 0).await;
    s.stop().await;
}

#[tokio::test]
async fn postgres_clock_charges_every_move() {
    let url = postgres_url();
    let s = server(&url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    clock_charges_every_move(&c, &c, 0).await;
    s.stop().await;
}

#[tokio::test]
async fn postgres_clock_runs_for_the_side_to_move() {
    clock_runs_for_the_side_to_move(&postgres_url()).await;
}

#[tokio::test]
async fn sqlite_clock_runs_out_unattended() {
    clock_runs_out_unattended(&sqlite_url("clock-out")).await;
}

#[tokio::test]
async fn sqlite_clock_resumes_after_restart() {
    clock_resumes_after_restart(&sqlite_url("clock-restart")).await;
}

#[tokio::test]
async fn postgres_clock_requests_are_checked() {
    clock_requests_are_checked(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_clock_runs_out_unattended() {
    clock_runs_out_unattended(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_clock_resumes_after_restart() {
    clock_resumes_after_restart(&postgres_url()).await;
}

#[tokio::test]
async fn sqlite_computer_uses_its_clock() {
    computer_uses_its_clock(&sqlite_url("clock-computer")).await;
}
