//! The review API tests (docs/api.md, "Review"), run on SQLite (tests/review.rs) and PostgreSQL
//! (tests/review_postgres.rs) with the same code.

use super::{eventually_some_within, server, Answer, Client};
use bao_engine::review::{review_game, Loss, ReviewOptions};
use bao_engine::search::Limits;
use serde_json::{json, Value};
use std::time::Duration;

/// NOT-6.5's example, ended by North's resignation (finished, 6 plies).
pub const RESIGNED: &str = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n[Date \"1994.10.17\"]\n[Result \"S\"]\n[Termination \"resignation\"]\n\n1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* S\n";

pub async fn upload(c: &Client, text: &str) -> String {
    let up = c
        .post_raw("/api/records", None, text.as_bytes().to_vec())
        .await;
    assert_eq!(up.status, 201, "{}", up.text);
    up.json["id"].as_str().unwrap().to_string()
}

/// Polls the review until it is done (a state, not a time, ends the wait; the overall
/// timeout only turns a hang into a failure).
pub async fn wait_done(c: &Client, id: &str, game_no: u32) -> Value {
    let what = format!("the review of game {game_no} of {id} done");
    eventually_some_within(&what, Duration::from_secs(300), || async {
        let a = c
            .get(&format!("/api/games/{id}/review?game_no={game_no}"), None)
            .await;
        assert_eq!(a.status, 200, "{}", a.text);
        match a.json["state"].as_str() {
            Some("done") => Some(a.json),
            Some("queued") | Some("running") => None,
            other => panic!("unexpected state {other:?}: {}", a.text),
        }
    })
    .await
}

pub fn depth_limited(s: &bao_server::Running, d: u32) {
    s.app.review.configure(|c| c.limits = Limits::depth(d));
}

/// A finished (uploaded) game is reviewed; the answer is the engine's own review.
pub async fn a_finished_game_is_reviewed_ply_by_ply(url: &str) {
    let s = server(url).start().await;
    depth_limited(&s, 3);
    let c = Client::new(&s);
    let id = upload(&c, RESIGNED).await;
    // Nothing asked yet.
    let a = c.get(&format!("/api/games/{id}/review"), None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json, json!({"state": "none", "game_no": 1}));
    let a = c
        .post(
            &format!("/api/games/{id}/review"),
            None,
            json!({"game_no": 1}),
        )
        .await;
    assert!(a.status == 202 || a.status == 200, "{}", a.text);
    assert!(
        ["queued", "running", "done"].contains(&a.json["state"].as_str().unwrap()),
        "{}",
        a.text
    );
    let r = wait_done(&c, &id, 1).await;
    let plies = r["plies"].as_array().unwrap();
    let moves = ["A7L*", "a5R", "A6R*", "a6R*", "A7R*", "a8L*"];
    assert_eq!(plies.len(), moves.len(), "{r}");
    // The same review as the engine's own on the same game and budget.
    let rec = bao_rules::Record::parse(RESIGNED).unwrap();
    let game = rec.validate().unwrap();
    let opts = ReviewOptions {
        limits: Limits::depth(3),
        threads: 1,
        tt_bits: 18,
    };
    let want = review_game(&game, &opts, &mut |_, _| true).unwrap();
    for (i, (p, w)) in plies.iter().zip(&want.plies).enumerate() {
        assert_eq!(p["ply"], i + 1);
        assert_eq!(p["move"], moves[i]);
        assert_eq!(p["side"], if i % 2 == 0 { "S" } else { "N" });
        assert_eq!(p["best"], w.best.to_string());
        assert_eq!(p["mark"], w.mark.as_str());
        let want_loss = match w.loss {
            Loss::Cp(c) => json!(c),
            proven => json!(proven.to_string()),
        };
        assert_eq!(p["loss"], want_loss);
        assert_eq!(p["score"], w.best_score.to_string());
        assert_eq!(p["eval"], w.south_after());
        assert_eq!(p["pv"][0], p["best"]);
    }
    for side in ["S", "N"] {
        assert_eq!(r["summary"][side]["moves"], 3, "{r}");
        for k in ["average_loss", "inaccuracies", "mistakes", "blunders"] {
            assert!(r["summary"][side][k].is_u64(), "{k}: {r}");
        }
    }
    // Asking again answers the result at once, without a new job.
    let again = c
        .post(&format!("/api/games/{id}/review"), None, json!({}))
        .await;
    assert_eq!(
        (again.status, again.json["state"].as_str()),
        (200, Some("done"))
    );
    assert_eq!(again.json["plies"], r["plies"]);
    s.stop().await;
}

/// A live game is refused until it ends, then reviewed; refusals in words.
pub async fn a_live_game_is_reviewed_once_resigned_and_not_before(url: &str) {
    let s = server(url).start().await;
    depth_limited(&s, 2);
    let c = Client::new(&s);
    let (id, t0, t1) = c.two_player_game("kiswahili", "S", "single_game").await;
    assert_eq!(c.play(&id, &t0, "A7L*", 0).await.status, 200);
    assert_eq!(c.play(&id, &t1, "a5R", 1).await.status, 200);
    let a = c
        .post(&format!("/api/games/{id}/review"), None, json!({}))
        .await;
    assert_eq!(
        (a.status, a.json["error"].as_str()),
        (409, Some("conflict")),
        "{}",
        a.text
    );
    assert!(a.json["message"].as_str().unwrap().contains("not over"));
    let r = c.resign(&id, &t1, 1, 2).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let a = c
        .post(&format!("/api/games/{id}/review"), None, json!({}))
        .await;
    assert!(a.status == 202 || a.status == 200, "{}", a.text);
    let done = wait_done(&c, &id, 1).await;
    assert_eq!(done["plies"].as_array().unwrap().len(), 2);
    assert_eq!(done["summary"]["S"]["moves"], 1);
    // Refusals in words.
    let check = |a: &Answer, status: u16, cat: &str| {
        assert_eq!(
            (a.status, a.json["error"].as_str()),
            (status, Some(cat)),
            "{}",
            a.text
        );
    };
    check(
        &c.post(
            &format!("/api/games/{id}/review"),
            None,
            json!({"game_no": 2}),
        )
        .await,
        404,
        "not_found",
    );
    check(
        &c.post_raw(&format!("/api/games/{id}/review"), None, b"{".to_vec())
            .await,
        400,
        "bad_request",
    );
    check(
        &c.post(&format!("/api/games/{id}/review"), None, json!({"game": 1}))
            .await,
        400,
        "bad_request",
    );
    check(
        &c.get(&format!("/api/games/{id}/review?game_no=x"), None)
            .await,
        400,
        "bad_request",
    );
    check(
        &c.post("/api/games/nosuchgame/review", None, json!({}))
            .await,
        404,
        "not_found",
    );
    s.stop().await;
}
