//! Puzzles mined from the site's games on SQLite (docs/api.md, "Puzzles"): the flows shared
//! with PostgreSQL (tests/site_puzzles_postgres.rs).

mod common;
use bao_rules::Variant;
use bao_server::features::puzzles::site::{mine_match, SitePuzzlesConfig};
use common::measure::{latencies, new_game, self_play, CAP};
use common::play::no_sweep;
use common::site_puzzles::*;
use common::{server, sqlite_url, Client};

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

/// `cargo test -p bao-server --test site_puzzles_sqlite -- --ignored --nocapture measure_mining`:
/// mining throughput and live moves meanwhile (docs/api.md, "Puzzles", "Measured").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_mining_sqlite() {
    measure_mining(&sqlite_url("site-puzzles-measure")).await;
}

/// Plays `moves` as a pass-and-play game to its end (resigned at the cap): the match's id.
async fn play_in(c: &Client, variant: Variant, moves: &[String]) -> String {
    let (id, t) = new_game(c, variant).await;
    for (ply, m) in moves.iter().enumerate() {
        let r = c.play(&id, &t, m, ply as u64).await;
        assert_eq!(r.status, 200, "ply {ply}: {}", r.text);
    }
    if moves.len() == CAP {
        let r = c.resign(&id, &t, 1, moves.len() as u64).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    id
}

/// Mining throughput (docs/api.md, "Puzzles", "Measured"): `BAO_MEASURE_GAMES` (10) finished
/// games of each game, self-play between levels 1 and 2 played through the API, mined one
/// after the other by [`mine_match`], the background task's own path (engine-pool permits,
/// lowest CPU priority). Prints games a second, positions a second and puzzles per game, and
/// the latency of a pass-and-play game's moves (POST, p50 and p99) before and while the
/// mining runs.
async fn measure_mining(url: &str) {
    let n: u64 = std::env::var("BAO_MEASURE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let s = server(url)
        .lifecycle(no_sweep())
        .with(|c| c.site_puzzles = SitePuzzlesConfig { mine: false })
        .start()
        .await;
    let c = Client::new(&s);
    let live_moves = self_play(Variant::Kete, [3, 4], 7);
    let (k, p50, p99) = latencies::<()>(&c, &live_moves, None).await;
    println!("live moves, idle: {k} moves, p50 {p50:.1} ms, p99 {p99:.1} ms");
    for variant in [Variant::Kiswahili, Variant::Kete, Variant::Kimasai] {
        let t0 = std::time::Instant::now();
        let mut ids = Vec::new();
        let mut plies = 0;
        for seed in 0..n {
            let moves = self_play(variant, [1, 2], 1000 + seed);
            plies += moves.len() + 1;
            ids.push(play_in(&c, variant, &moves).await);
        }
        let made = t0.elapsed().as_secs_f64();
        let (games, engine, live) = (
            s.app.games.clone(),
            s.app.engine.clone(),
            s.app.puzzles.clone(),
        );
        let mining = tokio::spawn(async move {
            let t0 = std::time::Instant::now();
            let mut found = 0;
            for id in &ids {
                found += mine_match(&games, &engine, &live, id).await.unwrap().len();
            }
            (found, t0.elapsed().as_secs_f64())
        });
        let (k, p50, p99) = latencies(&c, &live_moves, Some(&mining)).await;
        let (found, secs) = mining.await.unwrap();
        println!(
            "{}: {n} games ({plies} positions, made in {made:.1} s) mined in {secs:.1} s: \
             {:.2} games/s, {:.0} positions/s, {:.2} puzzles a game ({found}); \
             live moves meanwhile: {k} moves, p50 {p50:.1} ms, p99 {p99:.1} ms",
            variant.id(),
            n as f64 / secs,
            plies as f64 / secs,
            found as f64 / n as f64,
        );
    }
    s.stop().await;
}
