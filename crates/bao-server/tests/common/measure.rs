//! What measurements of background work share (docs/api.md, "Puzzles" and "Fair play",
//! "Measured"): self-play games, and the latency of a live game's moves while the work runs.

use super::play::create;
use super::Client;
use bao_engine::level::Level;
use bao_rules::{Game, Outcome, Position, Rules, Variant};
use serde_json::json;

/// Plies a measured game lasts at most: then the side to move resigns.
pub const CAP: usize = 120;

/// The moves of a game of `variant` between levels `levels` from seed `seed`.
pub fn self_play(variant: Variant, levels: [u8; 2], seed: u64) -> Vec<String> {
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
pub async fn new_game(c: &Client, variant: Variant) -> (String, String) {
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

/// The latency of each move of pass-and-play kete games of `moves`, at a player's pace, one
/// game, or games until `busy` ends: (moves, p50 ms, p99 ms).
pub async fn latencies<T>(
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
