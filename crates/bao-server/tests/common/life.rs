//! Game lifecycle tests (docs/api.md, "Game lifecycle": resign names its game, one name gate, paginated lists,
//! abandoned games, eviction from memory), run on SQLite (tests/life_sqlite.rs) and
//! PostgreSQL (tests/life_postgres.rs) with the same code.

use super::*;
use bao_rules::{legal_moves, Game, Position, Rules, Side, Variant};
use bao_server::features::abandon::abandon_stale;
use bao_server::game::Lifecycle;
use serde_json::json;
use std::sync::Arc;
use std::time::Duration;

/// A lifecycle whose sweeps never run by themselves: the tests call them when they need it.
pub fn manual() -> Lifecycle {
    Lifecycle {
        sweep_every: Duration::from_secs(3600),
        safety_sweep: Duration::from_secs(3600),
        idle_after: Duration::ZERO,
        ..Default::default()
    }
}

/// A kiswahili position with South to move where South has a move that wins at once,
/// found by replaying seeded random games (printed, so a failure can be replayed).
fn south_wins_in_one() -> (Position, String) {
    let rules = Rules::new(Variant::Kiswahili);
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    println!("random games from seed {seed:#x}");
    for _ in 0..200 {
        let mut g = Game::new(Position::start(&rules), rules);
        while !g.outcome().is_over() {
            let moves = legal_moves(g.position(), &rules);
            let list = moves.as_slice();
            if g.position().side() == Side::South && g.position().ply() > 0 {
                for m in list {
                    let mut h = g.clone();
                    h.play(m);
                    if h.outcome().winner() == Some(Side::South) {
                        return (*g.position(), m.mv.to_string());
                    }
                }
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let m = list[(seed >> 33) as usize % list.len()];
            g.play(&m);
        }
    }
    panic!("no position found");
}

/// A best of three from `start` between player 0 (North in game 1) and player 1 (South):
/// (id, player 0's token, player 1's token).
async fn new_match(c: &Client, start: &Position) -> (String, String, String) {
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "N",
                   "match": "best_of_three", "start": start.to_string()}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let p0 = a.json["token"].as_str().unwrap().to_string();
    let j = c
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": a.json["invite"]}),
        )
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    (id, p0, j.json["token"].as_str().unwrap().to_string())
}

/// In a best of three, a resignation sent for game 1 while the opponent's
/// move ends game 1 never lands on game 2 (which made the match 0-2).
pub async fn resign_names_its_game(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let (start_pos, winning) = south_wins_in_one();
    // The joiner (player 1) plays South in game 1 and has the winning move.
    let resign = |id: String, token: String, game_no: u64, ply: u64| {
        let base = c.base.clone();
        async move {
            let r = reqwest::Client::new()
                .post(format!("{base}/api/games/{id}/resign"))
                .bearer_auth(token)
                .json(&json!({"game_no": game_no, "ply": ply}))
                .send()
                .await
                .unwrap();
            let status = r.status().as_u16();
            (status, r.json::<Value>().await.unwrap())
        }
    };

    // In order: the winning move first, then the resignation made before it arrived.
    let (id, p0, p1) = new_match(&c, &start_pos).await;
    let ply = c.state(&id, None).await["ply"].as_u64().unwrap();
    let r = c.play(&id, &p1, &winning, ply).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let (status, body) = resign(id.clone(), p0.clone(), 1, ply).await;
    assert_eq!((status, body["error"].as_str()), (409, Some("conflict")));
    let st = c.state(&id, Some(&p0)).await;
    assert_eq!(st["match"]["game_no"], 2);
    assert_eq!(st["ply"], ply, "game 2 is untouched");
    assert_eq!(st["moves"], json!([]));
    assert_eq!(st["result"], "-");
    assert_eq!(st["match"]["over"], false, "the match is not 0-2");
    assert_eq!(st["match"]["games"][0]["result"], "S");
    // The resignation for the game being played, at the wrong ply, is refused too.
    let (status, _) = resign(id.clone(), p0.clone(), 2, ply + 1).await;
    assert_eq!(status, 409);
    // Missing fields are named.
    let r = c
        .post(&format!("/api/games/{id}/resign"), Some(&p0), json!({}))
        .await;
    assert_eq!(r.status, 400);
    assert!(r.json["message"].as_str().unwrap().contains("game_no"));
    let r = c
        .post(
            &format!("/api/games/{id}/resign"),
            Some(&p0),
            json!({"game_no": 2}),
        )
        .await;
    assert_eq!(r.status, 400);
    assert!(r.json["message"].as_str().unwrap().contains("ply"));
    assert_eq!(c.state(&id, None).await["moves"], json!([]));

    // At the same time, several times: whichever is first, game 1 is won by South (the
    // joiner) and game 2 has not begun to change.
    for round in 0..4 {
        let (id, p0, p1) = new_match(&c, &start_pos).await;
        let mv = {
            let (base, id, p1, w) = (c.base.clone(), id.clone(), p1.clone(), winning.clone());
            tokio::spawn(async move {
                reqwest::Client::new()
                    .post(format!("{base}/api/games/{id}/moves"))
                    .bearer_auth(p1)
                    .json(&json!({"move": w, "ply": ply}))
                    .send()
                    .await
                    .unwrap()
                    .status()
                    .as_u16()
            })
        };
        let rs = tokio::spawn(resign(id.clone(), p0.clone(), 1, ply));
        let (mv, (rs, _)) = (mv.await.unwrap(), rs.await.unwrap());
        assert!(
            (mv, rs) == (200, 409) || (mv, rs) == (409, 200),
            "round {round}: move {mv}, resign {rs}: exactly one acts"
        );
        let st = c.state(&id, Some(&p0)).await;
        assert_eq!(st["match"]["game_no"], 2, "round {round}");
        assert_eq!(st["moves"], json!([]), "round {round}");
        assert_eq!(st["result"], "-", "round {round}");
        assert_eq!(st["match"]["over"], false, "round {round}");
        let g1 = &st["match"]["games"][0];
        assert_eq!(g1["result"], "S", "round {round}");
        // Player 1 (South in game 1) plays North in game 2: one win.
        assert_eq!(
            st["match"]["wins"],
            json!({"S": 0, "N": 1}),
            "round {round}"
        );
    }
    s.stop().await;
}

/// One gate for every name, the same stored on both databases.
pub async fn names_pass_one_gate(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let dirty = format!(
        "  \u{0}As\u{7}ha\u{200B} \u{202E}Juma\u{FEFF}\t {}",
        "x".repeat(5000)
    );
    let expected = format!("Asha Juma {}", "x".repeat(30));
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kete", "opponent": {"kind": "human"}, "side": "S", "name": dirty}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let j = c
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": a.json["invite"], "name": "\u{0}\u{0}Baraka\u{2066}\u{0}"}),
        )
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    let st = c.state(&id, None).await;
    assert_eq!(st["players"]["S"]["name"], expected.as_str());
    assert_eq!(st["players"]["N"]["name"], "Baraka");
    // After a reload from the database too.
    s.app.games.forget_all();
    let st = c.state(&id, None).await;
    assert_eq!(st["players"]["S"]["name"], expected.as_str());
    assert_eq!(st["players"]["N"]["name"], "Baraka");
    // A name of nothing but controls is the default.
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kete", "opponent": {"kind": "human"}, "name": "\u{0}\u{7}\u{200D}"}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let st = c.state(a.json["id"].as_str().unwrap(), None).await;
    let names = [&st["players"]["S"]["name"], &st["players"]["N"]["name"]];
    assert!(names.contains(&&json!("Player")), "{names:?}");

    // Record tags pass the same gate: 200,000 characters and control characters in them.
    let long = "y".repeat(200_000);
    let rec = format!(
        "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"{long}\"]\n[North \"Ki\u{7}jum\u{200B}be\u{0}\"]\n[Date \"1994.10.17\"]\n[Result \"-\"]\n\n1. A7L* a5R -\n"
    );
    let up = c.post_raw("/api/records", None, rec.into_bytes()).await;
    assert_eq!(up.status, 201, "{}", up.text);
    let rid = up.json["id"].as_str().unwrap().to_string();
    let st = c.state(&rid, None).await;
    assert_eq!(st["players"]["S"]["name"], "y".repeat(40).as_str());
    assert_eq!(st["players"]["N"]["name"], "Kijumbe");
    let list = c.get("/api/games?status=finished&limit=200", None).await;
    assert_eq!(list.status, 200);
    assert!(list.text.len() < 200 * 1024, "a page stays small");
    let row = list.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == rid.as_str())
        .expect("the record is listed")
        .clone();
    assert_eq!(row["players"]["S"]["name"], "y".repeat(40).as_str());
    assert_eq!(row["players"]["N"]["name"], "Kijumbe");
    // The downloaded record carries the stored names.
    let text = c.get(&format!("/api/games/{rid}/record"), None).await.text;
    assert!(text.contains("[North \"Kijumbe\"]"), "{text}");
    s.stop().await;
}

/// Uploads a one-move record; returns its id.
async fn upload(c: &Client) -> String {
    let rec = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"A\"]\n[North \"B\"]\n[Date \"2026.11.30\"]\n[Result \"-\"]\n\n1. A7L* -\n";
    let up = c.post_raw("/api/records", None, rec.into()).await;
    assert_eq!(up.status, 201, "{}", up.text);
    up.json["id"].as_str().unwrap().to_string()
}

/// `GET /api/games` pages with a limit and an opaque cursor: newest first,
/// no duplicates and no gaps while games are added.
pub async fn lists_are_paginated(url: &str) {
    let s = server(url)
        .lifecycle(Lifecycle {
            live_window: Duration::from_secs(600),
            ..manual()
        })
        .start()
        .await;
    let c = Client::new(&s);
    let mut ours = Vec::new();
    for _ in 0..52 {
        ours.push(upload(&c).await);
    }
    // Default 50, at most 200.
    let p = c.get("/api/games?status=finished", None).await;
    assert_eq!(p.status, 200, "{}", p.text);
    assert_eq!(p.json["games"].as_array().unwrap().len(), 50);
    assert!(p.json["next"].is_string());
    for bad in ["limit=0", "limit=201", "limit=x", "cursor=zz", "cursor=41"] {
        let r = c
            .get(&format!("/api/games?status=finished&{bad}"), None)
            .await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (400, Some("bad_request")),
            "{bad}"
        );
    }
    let r = c.get("/api/games?status=finished&limit=201", None).await;
    assert!(r.json["message"].as_str().unwrap().contains("200"));
    assert_eq!(
        c.get("/api/games?status=finished&limit=200", None)
            .await
            .status,
        200
    );
    // Walk pages of 7 while a game is uploaded before each page.
    let mut seen: Vec<String> = Vec::new();
    let mut added = Vec::new();
    let mut cursor: Option<String> = None;
    let mut last_updated = i64::MAX;
    loop {
        added.push(upload(&c).await);
        let path = match &cursor {
            None => "/api/games?status=finished&limit=7".to_string(),
            Some(k) => format!("/api/games?status=finished&limit=7&cursor={k}"),
        };
        let p = c.get(&path, None).await;
        assert_eq!(p.status, 200, "{}", p.text);
        for g in p.json["games"].as_array().unwrap() {
            let u = g["updated"].as_i64().unwrap();
            assert!(u <= last_updated, "newest first");
            last_updated = u;
            seen.push(g["id"].as_str().unwrap().to_string());
        }
        cursor = p.json["next"].as_str().map(str::to_string);
        if cursor.is_none() || ours.iter().all(|id| seen.contains(id)) {
            break;
        }
    }
    let mut dedup = seen.clone();
    dedup.sort();
    dedup.dedup();
    assert_eq!(dedup.len(), seen.len(), "no game twice");
    for id in &ours {
        assert!(seen.contains(id), "no gap: {id} was listed");
    }
    // Games added after the first page sort before it: only the first one can be seen.
    for id in &added[1..] {
        assert!(
            !seen.contains(id),
            "a game added later is not on a later page"
        );
    }

    // "Watch live": only games with a move in the window.
    let (idle, _, _) = c.two_player_game("kete", "S", "single_game").await;
    let (moved, south, _) = c.two_player_game("kete", "S", "single_game").await;
    let st = c.state(&moved, None).await;
    assert_eq!(
        c.play(&moved, &south, &first_legal(&st), 0).await.status,
        200
    );
    let live = c.get("/api/games?status=live&limit=200", None).await;
    let ids: Vec<&str> = live.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    assert!(ids.contains(&moved.as_str()));
    assert!(
        !ids.contains(&idle.as_str()),
        "no move yet: not live to watch"
    );
    s.stop().await;
    // With a window of 300 ms the game drops out of the list once its move is older.
    let s = server(url)
        .lifecycle(Lifecycle {
            live_window: Duration::from_millis(300),
            ..manual()
        })
        .start()
        .await;
    let c = Client::new(&s);
    eventually("the game out of the live list", || async {
        let live = c.get("/api/games?status=live&limit=200", None).await;
        !live.text.contains(&moved)
    })
    .await;
    s.stop().await;
}

/// Waits until the match's state satisfies `f` (the sweep runs on its own).
async fn wait_over(c: &Client, id: &str) -> Value {
    wait_state(c, id, None, |s| s["match"]["over"] == true).await
}

/// A match without a move for `abandon_after` ends as abandoned.
pub async fn abandoned_games_end(url: &str) {
    let clock = manual_clock();
    let s = server(url)
        .clock(&clock)
        .lifecycle(Lifecycle {
            abandon_after: Duration::from_millis(1500),
            abandon_every: Duration::from_millis(50),
            ..Default::default()
        })
        .start()
        .await;
    let c = Client::new(&s);
    // No move at all: closed, no winner.
    let (empty, _, _) = c.two_player_game("kete", "S", "best_of_three").await;
    // South moved, North did not: North loses, and the match ends with it.
    let (one, south, _) = c.two_player_game("kete", "S", "best_of_three").await;
    let st = c.state(&one, None).await;
    assert_eq!(c.play(&one, &south, &first_legal(&st), 0).await.status, 200);
    // A sweep just before the deadline leaves both alone.
    clock.advance(Duration::from_millis(1400));
    assert_eq!(abandon_stale(&s.app.games).await.unwrap(), 0);
    assert_eq!(c.state(&empty, None).await["match"]["over"], false);
    clock.advance(Duration::from_millis(150));

    let st = wait_over(&c, &empty).await;
    assert_eq!(st["result"], "-");
    assert_eq!(st["termination"], "abandoned");
    assert_eq!(st["match"]["winner"], Value::Null);
    assert_eq!(st["legal"], json!([]));
    assert!(st["result_text"].as_str().unwrap().contains("closed"));
    let st = wait_over(&c, &one).await;
    assert_eq!(st["result"], "S");
    assert_eq!(st["termination"], "abandoned");
    assert_eq!(st["match"]["winner"], "S");
    assert_eq!(st["match"]["game_no"], 1, "no game 2 for a player who left");
    assert_eq!(st["ply"], 1);
    // The same after a reload from the database; nobody moves any more.
    s.app.games.forget_all();
    let st = c.state(&one, Some(&south)).await;
    assert_eq!(
        (st["result"].as_str(), st["termination"].as_str()),
        (Some("S"), Some("abandoned"))
    );
    let r = c.play(&one, &south, "a7L*", 1).await;
    assert_eq!(r.status, 409, "{}", r.text);
    let rec = c.get(&format!("/api/games/{one}/record"), None).await.text;
    assert!(rec.contains("[Termination \"abandoned\"]"), "{rec}");
    assert!(rec.contains("[Result \"S\"]"), "{rec}");
    let live = c.get("/api/games?status=live&limit=200", None).await;
    assert!(!live.text.contains(&one));
    let fin = c.get("/api/games?status=finished&limit=200", None).await;
    assert!(fin.text.contains(&one) && fin.text.contains(&empty));
    s.stop().await;
}

/// Two instances on one database ending the same match: exactly one does.
pub async fn abandonment_is_exactly_once(url: &str) {
    let (a, b) = server(url).lifecycle(manual()).start_two().await;
    let c = Client::new(&a);
    for format in ["single_game", "best_of_three"] {
        let (id, south, _) = c.two_player_game("kete", "S", format).await;
        if format == "best_of_three" {
            let st = c.state(&id, None).await;
            assert_eq!(c.play(&id, &south, &first_legal(&st), 0).await.status, 200);
        }
        // Both have the match in memory, then both try at once.
        Client::new(&b).state(&id, None).await;
        let cutoff = bao_server::util::now_ms() + 60_000;
        let (x, y) = tokio::join!(
            bao_server::features::abandon::abandon(&a.app.games, &id, cutoff),
            bao_server::features::abandon::abandon(&b.app.games, &id, cutoff)
        );
        let (x, y) = (x.unwrap(), y.unwrap());
        assert!(x ^ y, "{format}: exactly one instance ends it ({x}, {y})");
        for s in [&a, &b] {
            let st = wait_over(&Client::new(s), &id).await;
            assert_eq!(st["termination"], "abandoned");
        }
        // And once more changes nothing.
        assert!(
            !bao_server::features::abandon::abandon(&a.app.games, &id, cutoff)
                .await
                .unwrap()
        );
    }
    a.stop().await;
    b.stop().await;
}

/// Evicts until nothing is left in memory: a task of the request just answered (such as
/// the check whether the computer is to move) may still hold the game for a moment.
async fn evict_all(app: &bao_server::app::App) {
    eventually("every game out of memory", || async {
        app.games.evict_idle();
        app.games.in_memory() == 0
    })
    .await;
}

/// Unused games leave memory and come back on demand; never two copies.
pub async fn idle_games_leave_memory(url: &str) {
    let s = server(url).lifecycle(manual()).start().await;
    let c = Client::new(&s);
    let app = &s.app;
    let (id, south, north) = c.two_player_game("kiswahili", "S", "single_game").await;
    assert_eq!(app.games.in_memory(), 1);
    evict_all(app).await;
    // Back on demand, with its moves.
    let st = c.state(&id, None).await;
    assert_eq!(c.play(&id, &south, &first_legal(&st), 0).await.status, 200);
    evict_all(app).await;
    let st = c.state(&id, Some(&north)).await;
    assert_eq!(
        (st["ply"].as_u64(), st["you"].as_str()),
        (Some(1), Some("N"))
    );
    // A socket keeps it; closing it lets it go.
    let mut sock = ws(&s.addr.to_string(), &id, Some(&north)).await;
    next_of(&mut sock, "state", None).await;
    app.games.evict_idle();
    assert_eq!(app.games.in_memory(), 1, "a player is connected");
    // A request holding the game keeps it too.
    let held = app.games.slot(&id).await.unwrap();
    drop(sock);
    // Whether only the map and this test hold the game (the socket's task let it go).
    let only_map = eventually_some("the socket's task to let the game go", || async {
        app.games.evict_idle();
        if app.games.in_memory() == 0 {
            Some(false)
        } else {
            (Arc::strong_count(&held) == 2).then_some(true)
        }
    })
    .await;
    let gone = if only_map {
        // Only the map and we hold it now: still kept.
        assert_eq!(app.games.evict_idle(), 0);
        drop(held);
        app.games.evict_idle();
        app.games.in_memory() == 0
    } else {
        true
    };
    assert!(gone, "the game left memory once the socket closed");

    // Moves race evictions: every move is accepted, none is lost or applied twice.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let evictor = {
        let (app, stop) = (app.clone(), stop.clone());
        tokio::spawn(async move {
            let mut n = 0usize;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                n += app.games.evict_idle();
                tokio::task::yield_now().await;
            }
            n
        })
    };
    for ply in 1..25u64 {
        let t = if ply % 2 == 0 { &south } else { &north };
        let st = c.state(&id, None).await;
        if st["result"] != "-" {
            break;
        }
        let r = c.play(&id, t, &first_legal(&st), ply).await;
        assert_eq!(r.status, 200, "ply {ply}: {}", r.text);
    }
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let evicted = evictor.await.unwrap();
    println!("{evicted} evictions during the moves");
    let st = c.state(&id, None).await;
    let stored = s.app.store.count_moves(&id).await.unwrap();
    assert_eq!(st["moves"].as_array().unwrap().len() as i64, stored);
    assert_eq!(st["ply"].as_i64().unwrap(), stored);
    s.stop().await;
}

/// With two instances on PostgreSQL, a game that left one instance's memory shows the other
/// instance's moves when it comes back; one still in memory follows them (NOTIFY).
pub async fn eviction_and_other_instances(url: &str) {
    let (a, b) = server(url).lifecycle(manual()).start_two().await;
    let (ca, cb) = (Client::new(&a), Client::new(&b));
    let (id, south, north) = ca.two_player_game("kete", "S", "single_game").await;
    let st = ca.state(&id, None).await;
    assert_eq!(cb.play(&id, &south, &first_legal(&st), 0).await.status, 200);
    // A keeps the game (a spectator) and learns of the move.
    let mut sock = ws(&a.addr.to_string(), &id, None).await;
    next_of(&mut sock, "state", None).await;
    let st = cb.state(&id, None).await;
    assert_eq!(cb.play(&id, &north, &first_legal(&st), 1).await.status, 200);
    next_of(&mut sock, "move", Some(2)).await;
    drop(sock);
    // A forgets it; B moves; A reads it back with the move.
    evict_all(&a.app).await;
    let st = cb.state(&id, None).await;
    assert_eq!(cb.play(&id, &south, &first_legal(&st), 2).await.status, 200);
    assert_eq!(ca.state(&id, None).await["ply"], 3);
    a.stop().await;
    b.stop().await;
}
