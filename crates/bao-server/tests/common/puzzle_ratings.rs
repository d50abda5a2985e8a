//! Rated puzzles (docs/api.md, "Puzzles") over real HTTP, on SQLite
//! (tests/puzzle_ratings_sqlite.rs) and PostgreSQL (tests/puzzle_ratings_postgres.rs) with
//! the same code: attempts rated by bao-rating's arithmetic, the server's verdict, the first
//! attempt only, the next puzzle near the player's rating, the streak.

use super::accounts::{base, fresh_name, get, post, session_of, signup};
use super::*;
use bao_rating::{Config, Outcome, Rating};
use serde_json::json;
use std::collections::HashSet;
use std::time::Duration;

/// A new account's session cookie.
pub async fn account(b: &str, tag: &str) -> String {
    let a = signup(b, &fresh_name(tag), "puzzles-rated-1", None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    session_of(&a).unwrap()
}

/// The puzzles of `variant` whose goal is `goal` and line `len` moves long.
pub async fn puzzles_of(b: &str, variant: &str, goal: &str, len: usize) -> Vec<Value> {
    let all = get(b, &format!("/api/puzzles?variant={variant}"), None).await;
    assert_eq!(all.status, 200, "{}", all.text);
    all.json
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["goal"]["kind"] == goal && p["moves"].as_array().unwrap().len() == len)
        .cloned()
        .collect()
}

/// The solver's moves of a puzzle's line.
pub fn solution(p: &Value) -> Vec<String> {
    p["moves"]
        .as_array()
        .unwrap()
        .iter()
        .step_by(2)
        .map(|m| m.as_str().unwrap().to_string())
        .collect()
}

/// A legal first move that is not the solution's.
pub async fn wrong_first(b: &str, id: &str) -> String {
    let one = get(b, &format!("/api/puzzles/{id}"), None).await;
    let right = one.json["moves"][0].as_str().unwrap().to_string();
    one.json["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .find(|m| *m != right)
        .expect("a puzzle with another legal move")
}

/// `POST /api/puzzles/{id}/attempt`.
pub async fn attempt(b: &str, id: &str, moves: &[String], solved: bool, cookie: &str) -> Answer {
    post(
        b,
        &format!("/api/puzzles/{id}/attempt"),
        json!({"moves": moves, "solved": solved}),
        Some(cookie),
    )
    .await
}

/// A streak's attempt.
pub async fn streak_attempt(b: &str, id: &str, moves: &[String], cookie: &str) -> Answer {
    post(
        b,
        &format!("/api/puzzles/{id}/attempt"),
        json!({"moves": moves, "solved": true, "streak": true}),
        Some(cookie),
    )
    .await
}

/// What bao-rating itself computes for a new player against a puzzle rated `puzzle` at its
/// first attempt (deviation 350, volatility 0.09: docs/api.md, "Puzzles"): the player's and
/// the puzzle's ratings after, rounded.
pub fn expected(puzzle: f64, outcome: Outcome) -> (i32, i32) {
    let c = Config::default();
    let p = Rating::new(puzzle, 350.0, 0.09).unwrap();
    let (a, q) = c.rate_game(c.start(), Duration::ZERO, p, Duration::ZERO, outcome);
    (a.rounded(), q.rounded())
}

/// A solved first attempt moves the player's and the puzzle's ratings as bao-rating says; a
/// second attempt is unrated; refusals: guests, unknown puzzles, malformed and long input.
pub async fn attempts_rated_once_by_bao_rating(url: &str) {
    let s = server(url).start().await;
    let b = &base(&s);
    let me = account(b, "Asha").await;
    let p = &puzzles_of(b, "kiswahili", "win", 3).await[0];
    let id = p["id"].as_str().unwrap();
    let one = get(b, &format!("/api/puzzles/{id}"), Some(&me)).await;
    assert_eq!(one.status, 200, "{}", one.text);
    // A win of two solver moves starts at 1500 (docs/api.md), and 25 more per theme after
    // the first.
    let themes = one.json["themes"].as_array().unwrap().len();
    let start = 1500 + 25 * themes.saturating_sub(1) as i64;
    assert_eq!(one.json["rating"], start, "{}", one.text);
    assert_eq!(one.json["attempted"], false);
    assert_eq!(one.json["player"]["rating"], 1500);
    let moves = solution(p);
    let a = attempt(b, id, &moves, true, &me).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let (mine, puzzle) = expected(start as f64, Outcome::Win);
    assert_eq!(a.json["solved"], true, "{}", a.text);
    assert_eq!(a.json["rated"], true);
    assert_eq!(a.json["rating"], json!({"before": 1500, "after": mine}));
    assert_eq!(a.json["puzzle_rating"], puzzle);
    assert!(mine > 1500 && (puzzle as i64) < start, "{}", a.text);
    // The second attempt, failed this time: answered, nothing moves.
    let again = attempt(b, id, &[wrong_first(b, id).await], false, &me).await;
    assert_eq!(again.status, 200, "{}", again.text);
    assert_eq!(again.json["solved"], false);
    assert_eq!(again.json["rated"], false);
    assert_eq!(again.json["rating"], json!({"before": mine, "after": mine}));
    assert_eq!(again.json["puzzle_rating"], puzzle);
    let one = get(b, &format!("/api/puzzles/{id}"), Some(&me)).await;
    assert_eq!(one.json["rating"], puzzle);
    assert_eq!(one.json["attempted"], true);
    assert_eq!(one.json["player"]["rating"], mine);
    // Refusals.
    let guest = post(
        b,
        &format!("/api/puzzles/{id}/attempt"),
        json!({"moves": moves, "solved": true}),
        None,
    )
    .await;
    assert_eq!(guest.status, 401, "{}", guest.text);
    let none = attempt(b, "kiswahili-99999", &moves, true, &me).await;
    assert_eq!(none.status, 404, "{}", none.text);
    let other = &puzzles_of(b, "kiswahili", "win", 3).await[1];
    let oid = other["id"].as_str().unwrap();
    let bad = attempt(b, oid, &["b9Q".to_string()], true, &me).await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert_eq!(bad.json["error"], "bad_move", "{}", bad.text);
    assert!(bad.text.contains("move 1 (\\\"b9Q\\\")"), "{}", bad.text);
    let long = attempt(b, oid, &["a".repeat(40)], true, &me).await;
    assert_eq!(long.status, 400, "{}", long.text);
    assert!(long.text.contains("move 1 is longer"), "{}", long.text);
    let many = attempt(b, oid, &vec![solution(other)[0].clone(); 7], true, &me).await;
    assert_eq!(many.status, 400, "{}", many.text);
    // None of the refusals was an attempt.
    let one = get(b, &format!("/api/puzzles/{oid}"), Some(&me)).await;
    assert_eq!(one.json["attempted"], false, "{}", one.text);
    s.stop().await;
}

/// A wrong move is a failure whatever the flag says, and rated as a loss; a line left short
/// is not solved either.
pub async fn wrong_move_fails_whatever_the_flag(url: &str) {
    let s = server(url).start().await;
    let b = &base(&s);
    let me = account(b, "Baraka").await;
    let p = &puzzles_of(b, "kete", "seeds", 2).await[0];
    let id = p["id"].as_str().unwrap();
    let start = get(b, &format!("/api/puzzles/{id}"), None).await.json["rating"]
        .as_i64()
        .unwrap();
    let wrong = wrong_first(b, id).await;
    let a = attempt(b, id, &[wrong], true, &me).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json["solved"], false, "{}", a.text);
    assert_eq!(a.json["wrong"], 0);
    assert_eq!(a.json["rated"], true);
    let (mine, puzzle) = expected(start as f64, Outcome::Loss);
    assert_eq!(a.json["rating"], json!({"before": 1500, "after": mine}));
    assert_eq!(a.json["puzzle_rating"], puzzle);
    assert!(mine < 1500 && puzzle as i64 > start);
    // A win of three solver moves with only the first two given: not solved.
    let w = &puzzles_of(b, "kete", "win", 5).await[0];
    let short = attempt(b, w["id"].as_str().unwrap(), &solution(w)[..2], true, &me).await;
    assert_eq!(short.status, 200, "{}", short.text);
    assert_eq!(short.json["solved"], false, "{}", short.text);
    assert!(short.json["wrong"].is_null());
    assert!(short.json["rating"]["after"].as_i64() < short.json["rating"]["before"].as_i64());
    s.stop().await;
}

/// Two requests of one account post the same first attempt at once on `a` and `b` (two
/// instances of one database, or the same one twice): one is rated, the other answers as a
/// later attempt, and each rating moved once.
pub async fn same_first_attempt_at_once(a: &Running, b: &Running) {
    let (ba, bb) = (base(a), base(b));
    let me = account(&ba, "Chausiku").await;
    let p = &puzzles_of(&ba, "kimasai", "seeds", 2).await[3];
    let id = p["id"].as_str().unwrap();
    let start = get(&ba, &format!("/api/puzzles/{id}"), None).await.json["rating"]
        .as_f64()
        .unwrap();
    let moves = solution(p);
    let (x, y) = tokio::join!(
        attempt(&ba, id, &moves, true, &me),
        attempt(&bb, id, &moves, true, &me)
    );
    assert_eq!((x.status, y.status), (200, 200), "{} {}", x.text, y.text);
    let rated: Vec<bool> = [&x, &y]
        .iter()
        .map(|r| r.json["rated"].as_bool().unwrap())
        .collect();
    assert_eq!(rated.iter().filter(|r| **r).count(), 1, "{rated:?}");
    let (mine, puzzle) = expected(start, Outcome::Win);
    for r in [&x, &y] {
        assert_eq!(r.json["rating"]["after"], mine, "{}", r.text);
        assert_eq!(r.json["puzzle_rating"], puzzle, "{}", r.text);
    }
    let stored = a.app.store.puzzle_rating(id).await.unwrap().unwrap();
    assert_eq!(stored.games, 1);
    let acc = a
        .app
        .store
        .puzzle_attempts(
            &a.app
                .store
                .session_account(
                    &bao_server::util::hash_token(me.trim_start_matches("bao_session=")),
                    bao_server::util::now_ms(),
                )
                .await
                .unwrap()
                .unwrap()
                .id
                .0,
            "kimasai",
        )
        .await
        .unwrap();
    assert_eq!(acc.len(), 1);
}

/// [`same_first_attempt_at_once`] on one instance.
pub async fn rated_once_at_once(url: &str) {
    let s = server(url).start().await;
    same_first_attempt_at_once(&s, &s).await;
    s.stop().await;
}

/// [`same_first_attempt_at_once`] across two instances on one database.
pub async fn rated_once_across_instances(url: &str) {
    let (a, b) = server(url).start_two().await;
    same_first_attempt_at_once(&a, &b).await;
    a.stop().await;
    b.stop().await;
}

/// A signed-in player's next puzzle is near their rating, of the theme asked, and never one
/// they attempted; a guest's follows the data file.
pub async fn next_is_near_and_new(url: &str) {
    let s = server(url).start().await;
    let b = &base(&s);
    let me = account(b, "Dalila").await;
    let mut seen = HashSet::new();
    // Solved and failed in turn, the player's rating stays where the shipped puzzles' start
    // ratings are dense (1200 to 1800, every 25 points).
    for solve in [true, false, true, false] {
        let n = get(b, "/api/puzzles/next?variant=kiswahili", Some(&me)).await;
        assert_eq!(n.status, 200, "{}", n.text);
        let id = n.json["id"].as_str().unwrap().to_string();
        assert!(seen.insert(id.clone()), "{id} again");
        assert_eq!(n.json["attempted"], false);
        let mine = n.json["player"]["rating"].as_f64().unwrap();
        let r = n.json["rating"].as_f64().unwrap();
        // Within the first window (100 points): the shipped puzzles start at many ratings.
        assert!((r - mine).abs() <= 100.5, "{r} for a player of {mine}");
        assert!(n.json["themes"].is_array());
        let moves = if solve {
            solution(&n.json)
        } else {
            vec![wrong_first(b, &id).await]
        };
        let a = attempt(b, &id, &moves, false, &me).await;
        assert_eq!(a.json["rated"], true, "{}", a.text);
        assert_eq!(a.json["solved"], solve, "{}", a.text);
    }
    // A theme: every answer has it.
    for _ in 0..3 {
        let n = get(
            b,
            "/api/puzzles/next?variant=kete&theme=capture_chain",
            Some(&me),
        )
        .await;
        assert_eq!(n.status, 200, "{}", n.text);
        assert!(
            n.json["themes"]
                .as_array()
                .unwrap()
                .contains(&json!("capture_chain")),
            "{}",
            n.text
        );
        let id = n.json["id"].as_str().unwrap().to_string();
        assert!(seen.insert(id.clone()), "{id} again");
        let a = attempt(b, &id, &solution(&n.json), true, &me).await;
        assert_eq!(a.json["solved"], true, "{}", a.text);
    }
    // A guest: the data file's order, with the ratings.
    let all = get(b, "/api/puzzles?variant=kete", None).await.json;
    let g = get(b, "/api/puzzles/next?variant=kete", None).await;
    assert_eq!(g.json["id"], all[0]["id"]);
    assert!(g.json["rating"].is_number() && g.json.get("player").is_none());
    let g = get(
        b,
        &format!(
            "/api/puzzles/next?variant=kete&after={}",
            all[0]["id"].as_str().unwrap()
        ),
        None,
    )
    .await;
    assert_eq!(g.json["id"], all[1]["id"]);
    let g = get(b, "/api/puzzles/next?variant=kete&theme=nope", Some(&me)).await;
    assert_eq!(g.status, 400, "{}", g.text);
    s.stop().await;
}

/// The streak: from the easiest unattempted puzzle up, each next at least as hard; a miss
/// ends it and the best is kept; the server counts from its verdicts.
pub async fn streak_ends_at_first_miss(url: &str) {
    let s = server(url).start().await;
    let b = &base(&s);
    let me = account(b, "Eliya").await;
    let guest = get(b, "/api/puzzles/streak?variant=kete", None).await;
    assert_eq!(guest.status, 401, "{}", guest.text);
    let mut floor = 0.0;
    let step = |want: (i64, i64)| {
        let me = me.clone();
        async move {
            let st = get(b, "/api/puzzles/streak?variant=kete", Some(&me)).await;
            assert_eq!(st.status, 200, "{}", st.text);
            assert_eq!(
                (
                    st.json["streak"].as_i64().unwrap(),
                    st.json["best_streak"].as_i64().unwrap()
                ),
                want,
                "{}",
                st.text
            );
            st.json["next"].clone()
        }
    };
    for (i, solve) in [true, true, false, true].into_iter().enumerate() {
        let want = [(0, 0), (1, 1), (2, 2), (0, 2)][i];
        let next = step(want).await;
        let id = next["id"].as_str().unwrap().to_string();
        let r = next["rating"].as_f64().unwrap();
        if i == 0 {
            // The easiest: a seeds puzzle of one theme (docs/api.md's start ratings).
            assert_eq!(r, 1200.0, "{next}");
        }
        assert!(r >= floor, "{r} after {floor}");
        let moves = if solve {
            solution(&next)
        } else {
            vec![wrong_first(b, &id).await]
        };
        let a = streak_attempt(b, &id, &moves, &me).await;
        assert_eq!(a.status, 200, "{}", a.text);
        assert_eq!(a.json["solved"], solve, "{}", a.text);
        let after = [(1, 1), (2, 2), (0, 2), (1, 2)][i];
        assert_eq!(
            (
                a.json["streak"].as_i64().unwrap(),
                a.json["best_streak"].as_i64().unwrap()
            ),
            after,
            "{}",
            a.text
        );
        floor = if solve { r } else { 0.0 };
    }
    // An attempt outside the streak leaves it as it is.
    let other = get(b, "/api/puzzles/next?variant=kete", Some(&me))
        .await
        .json;
    let a = attempt(
        b,
        other["id"].as_str().unwrap(),
        &[wrong_first(b, other["id"].as_str().unwrap()).await],
        true,
        &me,
    )
    .await;
    assert_eq!(
        (a.json["streak"].clone(), a.json["best_streak"].clone()),
        (json!(1), json!(2))
    );
    let _ = step((1, 2)).await;
    s.stop().await;
}

/// The dashboard (docs/api.md, "Puzzles"): empty before any attempt; after three attempts
/// (solved, failed, solved) the counts, the rating history (each attempt's rating after it,
/// oldest first) and the success by theme, computed here from each puzzle's themes, with
/// the weakest theme first.
pub async fn dashboard_reads_the_attempts(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = &base(&s);
    let me = account(b, "Dash").await;
    let board = |cookie: Option<String>| async move {
        get(b, "/api/puzzles/dashboard?variant=kete", cookie.as_deref()).await
    };
    let empty = board(Some(me.clone())).await;
    assert_eq!(empty.status, 200, "{}", empty.text);
    assert_eq!(
        empty.json,
        json!({"variant": "kete", "rating": null, "attempts": 0, "solved": 0, "streak": 0,
               "best_streak": 0, "themes": [], "history": []})
    );
    let mut ps = puzzles_of(b, "kete", "win", 3).await;
    ps.truncate(2);
    ps.push(puzzles_of(b, "kete", "seeds", 2).await[0].clone());
    let mut want: std::collections::BTreeMap<String, (u64, u64)> = Default::default();
    let mut history = Vec::new();
    for (i, p) in ps.iter().enumerate() {
        let id = p["id"].as_str().unwrap();
        let solve = i != 1;
        let moves = if solve {
            solution(p)
        } else {
            vec![wrong_first(b, id).await]
        };
        clock.advance(Duration::from_secs(60));
        let a = attempt(b, id, &moves, true, &me).await;
        assert_eq!(a.status, 200, "{}", a.text);
        assert_eq!(a.json["solved"], solve, "{}", a.text);
        history.push(json!({"at": clock.now_ms(), "rating": a.json["rating"]["after"]}));
        for t in p["themes"].as_array().unwrap() {
            let c = want.entry(t.as_str().unwrap().to_string()).or_default();
            c.0 += 1;
            c.1 += u64::from(solve);
        }
    }
    let d = board(Some(me.clone())).await;
    assert_eq!(d.status, 200, "{}", d.text);
    assert_eq!(d.json["attempts"], 3);
    assert_eq!(d.json["solved"], 2);
    assert_eq!(d.json["history"], json!(history));
    assert_eq!(d.json["rating"]["rating"], history[2]["rating"]);
    let rows = d.json["themes"].as_array().unwrap();
    let got: std::collections::BTreeMap<String, (u64, u64)> = rows
        .iter()
        .map(|r| {
            assert_eq!(
                r["percent"].as_u64().unwrap(),
                r["solved"].as_u64().unwrap() * 100 / r["attempts"].as_u64().unwrap()
            );
            (
                r["theme"].as_str().unwrap().to_string(),
                (
                    r["attempts"].as_u64().unwrap(),
                    r["solved"].as_u64().unwrap(),
                ),
            )
        })
        .collect();
    assert_eq!(got, want, "{}", d.text);
    // The weakest first: the share solved never falls down the list.
    let shares: Vec<f64> = rows
        .iter()
        .map(|r| r["solved"].as_f64().unwrap() / r["attempts"].as_f64().unwrap())
        .collect();
    assert!(shares.windows(2).all(|w| w[0] <= w[1]), "{shares:?}");
    assert!(
        shares[0] < 1.0,
        "the failed puzzle's themes come first: {}",
        d.text
    );
    // Another variant is apart; a guest and an unknown variant are refused.
    let other = get(b, "/api/puzzles/dashboard?variant=kiswahili", Some(&me)).await;
    assert_eq!(other.json["attempts"], 0, "{}", other.text);
    assert_eq!(board(None).await.status, 401);
    let bad = get(b, "/api/puzzles/dashboard?variant=chess", Some(&me)).await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    s.stop().await;
}
