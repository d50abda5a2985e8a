//! Puzzles mined from the site's games on SQLite (docs/api.md, "Puzzles"): the flows shared
//! with PostgreSQL (tests/site_puzzles_postgres.rs).

mod common;
use bao_engine::level::Level;
use bao_rules::{Game, Outcome, Position, Rules, Variant};
use bao_server::features::puzzles::site::{mine_match, SitePuzzlesConfig};
use common::play::{create, no_sweep};
use common::site_puzzles::*;
use common::{server, sqlite_url, Client};
use serde_json::json;

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

/// Plies a measured game lasts at most: then the side to move resigns.
const CAP: usize = 120;

/// The moves of a game of `variant` between levels `levels` from seed `seed`.
fn self_play(variant: Variant, levels: [u8; 2], seed: u64) -> Vec<String> {
    let rules = Rules::new(variant);
    let mut game = Game::new(Position::start(&rules), rules);
    let levels = levels.map(Level::get);
    let mut searchers = levels.map(|l| l.searcher(&rules));
    let mut moves = Vec::new();
    while moves.len() < CAP && game.outcome() == Outcome::Ongoing {
        let p = moves.len() % 2;
        let mv = levels[p]
            .choose(
                &mut searchers[p],
                game.position(),
                game.positions(),
                seed + moves.len() as u64,
            )
            .unwrap();
        moves.push(mv.mv.to_string());
        game.play(&mv);
    }
    moves
}

/// A pass-and-play game of `variant`: its id and seat token.
async fn new_game(c: &Client, variant: Variant) -> (String, String) {
    let a = create(
        c,
        json!({"variant": variant.id(), "opponent": {"kind": "local", "name": "Baraka"},
               "match": "single_game"}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    (id, a.json["token"].as_str().unwrap().to_string())
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

/// The latency of each move of pass-and-play kete games of `moves`, at a player's pace, one
/// game, or games until `busy` ends: (moves, p50 ms, p99 ms).
async fn latencies<T>(
    c: &Client,
    moves: &[String],
    busy: Option<&tokio::task::JoinHandle<T>>,
) -> (usize, f64, f64) {
    let mut ms = Vec::new();
    'games: loop {
        let (id, t) = new_game(c, Variant::Kete).await;
        for (ply, m) in moves.iter().enumerate() {
            if busy.is_some_and(|b| b.is_finished()) {
                break 'games;
            }
            let t0 = std::time::Instant::now();
            let r = c.play(&id, &t, m, ply as u64).await;
            ms.push(t0.elapsed().as_secs_f64() * 1000.0);
            assert_eq!(r.status, 200, "{}", r.text);
            // A fast player's pace: a move every 50 ms.
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        if busy.is_none() {
            break;
        }
    }
    ms.sort_by(|a, b| a.partial_cmp(b).unwrap());
    let at = |q: f64| ms[((ms.len().max(1) - 1) as f64 * q).round() as usize];
    (ms.len(), at(0.5), at(0.99))
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
