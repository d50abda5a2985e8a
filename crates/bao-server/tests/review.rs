//! Game review over HTTP (docs/api.md, "Review") on SQLite: a finished game is
//! queued, reviewed by the worker pool and answered ply by ply; unfinished games, unknown
//! games and a full queue are refused in words (scenarios in tests/common/review.rs).

mod common;

use bao_engine::search::Limits;
use common::review::*;
use common::{eventually_some_within, server, sqlite_url, Client};
use serde_json::json;
use std::time::Duration;

#[tokio::test]
async fn a_finished_game_is_reviewed_ply_by_ply_sqlite() {
    a_finished_game_is_reviewed_ply_by_ply(&sqlite_url("review")).await;
}

#[tokio::test]
async fn a_live_game_is_reviewed_once_resigned_and_not_before_sqlite() {
    a_live_game_is_reviewed_once_resigned_and_not_before(&sqlite_url("review-live")).await;
}

/// The nice value of this process's thread called `name` (Linux: /proc/self/task/*/stat).
fn nice_of_thread(name: &str) -> Option<i64> {
    for t in std::fs::read_dir("/proc/self/task").ok()? {
        let dir = t.ok()?.path();
        let comm = std::fs::read_to_string(dir.join("comm")).ok()?;
        if comm.trim() == name {
            let stat = std::fs::read_to_string(dir.join("stat")).ok()?;
            // Fields after the `(comm)`: state is field 3, nice is field 19.
            let rest = &stat[stat.rfind(')')? + 2..];
            return rest.split_whitespace().nth(16)?.parse().ok();
        }
    }
    None
}

#[tokio::test]
async fn a_full_queue_answers_busy_and_workers_run_at_low_priority() {
    let s = server(&sqlite_url("review-busy")).start().await;
    // A slow review (many nodes per search) and room for one waiting job.
    s.app.review.configure(|c| {
        c.limits = Limits::nodes(1_000_000);
        c.queue = 1;
    });
    let c = Client::new(&s);
    let mut ids = Vec::new();
    for k in 0..3 {
        ids.push(upload(&c, &RESIGNED.replace("Ramadhan", &format!("Ramadhan {k}"))).await);
    }
    let a = c
        .post(&format!("/api/games/{}/review", ids[0]), None, json!({}))
        .await;
    assert_eq!(a.status, 202, "{}", a.text);
    // Wait until the worker has taken it (a state, not a time).
    let st = eventually_some_within(
        "the worker to take the review",
        Duration::from_secs(120),
        || async {
            let a = c.get(&format!("/api/games/{}/review", ids[0]), None).await;
            (a.json["state"] != "queued").then_some(a.json)
        },
    )
    .await;
    assert_eq!(st["state"], "running", "{st}");
    {
        let b = c
            .post(&format!("/api/games/{}/review", ids[1]), None, json!({}))
            .await;
        assert_eq!(
            (b.status, b.json["state"].as_str()),
            (202, Some("queued")),
            "{}",
            b.text
        );
        assert_eq!(b.json["ahead"], 0);
        let full = c
            .post(&format!("/api/games/{}/review", ids[2]), None, json!({}))
            .await;
        assert_eq!(
            (full.status, full.json["error"].as_str()),
            (503, Some("busy")),
            "{}",
            full.text
        );
    }
    #[cfg(target_os = "linux")]
    assert_eq!(nice_of_thread("bao-review-0"), Some(19));
    // Let the rest finish quickly.
    depth_limited(&s, 1);
    s.stop().await;
}

/// A practice try at a move of a finished game is judged as the review judges the moves
/// played (docs/api.md, "Learning from mistakes"): the engine's own judgement, the best move
/// counts as found, and bad tries are refused in words.
#[tokio::test]
async fn a_practice_try_is_judged_like_a_reviewed_move() {
    use bao_engine::review::{judge_move, ReviewOptions};
    let s = server(&sqlite_url("review-try")).start().await;
    depth_limited(&s, 3);
    let c = Client::new(&s);
    let id = upload(&c, RESIGNED).await;
    let game = bao_rules::Record::parse(RESIGNED)
        .unwrap()
        .validate()
        .unwrap();
    let opts = ReviewOptions {
        limits: Limits::depth(3),
        threads: 1,
        tt_bits: 16,
    };
    let path = format!("/api/games/{id}/review/try");
    for ply in 1..=game.moves().len() {
        let position = game.positions()[ply - 1];
        let legal = bao_rules::legal_moves(&position, game.rules());
        // Every legal move of the position, judged by the server and by the engine here.
        for lm in legal.iter().take(4) {
            let mv = lm.mv.to_string();
            let a = c
                .post(&path, None, json!({"game_no": 1, "ply": ply, "move": mv}))
                .await;
            assert_eq!(a.status, 200, "{}", a.text);
            let want = judge_move(&game, ply, &mv, &opts).unwrap();
            assert_eq!(a.json["ply"], ply);
            assert_eq!(a.json["move"], mv);
            assert_eq!(a.json["best"], want.best.to_string());
            assert_eq!(a.json["mark"], want.mark.as_str());
            assert_eq!(a.json["good"], want.mark.as_str() == "-", "{}", a.text);
            assert_eq!(a.json["pv"][0], a.json["best"]);
            // The engine's best move, tried, is found.
            let best = c
                .post(&path, None, json!({"ply": ply, "move": a.json["best"]}))
                .await;
            assert_eq!(
                (best.status, &best.json["good"]),
                (200, &json!(true)),
                "{}",
                best.text
            );
        }
    }
    let bad = c.post(&path, None, json!({"ply": 1, "move": "a5R"})).await;
    assert_eq!(
        (bad.status, bad.json["error"].as_str()),
        (400, Some("bad_move")),
        "{}",
        bad.text
    );
    let far = c
        .post(&path, None, json!({"ply": 99, "move": "A7L*"}))
        .await;
    assert_eq!(far.status, 404, "{}", far.text);
    assert!(far.text.contains("no move 99"), "{}", far.text);
    let shape = c.post(&path, None, json!({"ply": "one"})).await;
    assert_eq!(shape.status, 400, "{}", shape.text);
    let long = c
        .post(&path, None, json!({"ply": 1, "move": "A".repeat(40)}))
        .await;
    assert_eq!(long.status, 400, "{}", long.text);
}
