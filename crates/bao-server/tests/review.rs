//! Game review over HTTP (docs/api.md, "Review") on SQLite: a finished game is
//! queued, reviewed by the worker pool and answered ply by ply; unfinished games, unknown
//! games and a full queue are refused in words (scenarios in tests/common/review.rs).

mod common;

use bao_engine::search::Limits;
use common::review::*;
use common::{sqlite_url, start, Client};
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
    let s = start(&sqlite_url("review-busy")).await;
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
    let running = async {
        loop {
            let a = c.get(&format!("/api/games/{}/review", ids[0]), None).await;
            if a.json["state"] != "queued" {
                return a.json;
            }
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    };
    let st = tokio::time::timeout(Duration::from_secs(120), running)
        .await
        .unwrap();
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
