//! Fair play on SQLite (docs/api.md, "Fair play"): the flows shared with PostgreSQL
//! (tests/fairplay_postgres.rs), and the statistics on games the test plays.

mod common;
use common::fairplay::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_engine_follower_stands_out() {
    engine_follower_stands_out(&sqlite_url("fair-stats")).await;
}

#[tokio::test]
async fn sqlite_reports_and_moderation() {
    reports_and_moderation(&sqlite_url("fair-mod")).await;
}

/// `cargo test -p bao-server --test fairplay_sqlite -- --ignored --nocapture measure_analysis`:
/// the background analysis's cost per rated game, and live moves meanwhile (docs/api.md,
/// "Fair play", "Measured").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore]
async fn measure_analysis_sqlite() {
    measure_analysis(&sqlite_url("fair-measure")).await;
}

/// `BAO_MEASURE_GAMES` (10) games of each game between level-3 players (as most rated games
/// are: people of middling strength), each analysed by `analyse_game`, the background task's
/// own search (default budget, engine-pool permits, lowest CPU priority), one after the
/// other; prints the time a game and a ply, and the latency of a pass-and-play game's moves
/// (POST, p50 and p99) before and while the analysis runs.
async fn measure_analysis(url: &str) {
    use bao_rules::{Game, Position, Rules, Variant};
    use bao_server::features::fairplay::{analyse_game, FairPlayConfig};
    use common::measure::{latencies, self_play};
    let n: u64 = std::env::var("BAO_MEASURE_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10);
    let s = common::server(url).start().await;
    let c = common::Client::new(&s);
    let live_moves = self_play(Variant::Kete, [3, 4], 7);
    let (k, p50, p99) = latencies::<()>(&c, &live_moves, None).await;
    println!("live moves, idle: {k} moves, p50 {p50:.1} ms, p99 {p99:.1} ms");
    for variant in [Variant::Kiswahili, Variant::Kete, Variant::Kimasai] {
        let rules = Rules::new(variant);
        let games: Vec<Game> = (0..n)
            .map(|seed| {
                let mut g = Game::new(Position::start(&rules), rules);
                for m in self_play(variant, [3, 3], 5000 + seed) {
                    g.play_text(&m).unwrap();
                }
                g
            })
            .collect();
        let plies: usize = games.iter().map(|g| g.positions().len() - 1).sum();
        let engine = s.app.engine.clone();
        let analysis = tokio::spawn(async move {
            let t0 = std::time::Instant::now();
            let config = FairPlayConfig::default();
            for g in games {
                assert!(analyse_game(&engine, &config, g).await.is_some());
            }
            t0.elapsed().as_secs_f64()
        });
        let (k, p50, p99) = latencies(&c, &live_moves, Some(&analysis)).await;
        let secs = analysis.await.unwrap();
        println!(
            "{}: {n} games of level 3 ({plies} plies) analysed in {secs:.1} s: {:.2} s a game, \
             {:.1} ms a ply; live moves meanwhile: {k} moves, p50 {p50:.1} ms, p99 {p99:.1} ms",
            variant.id(),
            secs / n as f64,
            secs * 1000.0 / plies as f64,
        );
    }
    s.stop().await;
}
