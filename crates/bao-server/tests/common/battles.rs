//! Team battle tests (docs/api.md, "Arenas", "Team battles") over real HTTP, on SQLite
//! (tests/battles_sqlite.rs) and PostgreSQL (tests/battles_postgres.rs) with the same code.
//! The players' own requests decide every game; each player's score comes from the arena
//! model's own arithmetic (tests/common/arenas.rs) and each club's score, its N best players'
//! scores summed, and its rank are computed here, never read back. Each hostile case checks
//! the state afterwards: without its defence the refused player would be in the standings, or
//! play for another club, or the battle would exist.

use super::accounts::{base, get, post};
use super::arenas::{
    arena_json, arena_ws, decided, play_out, playing, settle, standings_until, Model,
};
use super::clubs::new_club;
use super::tournaments::{players, quick, Players};
use super::*;
use serde_json::json;
use std::collections::HashMap;

/// The battle's clock, as the arena tests' (five minutes and one second a move).
const CLOCK: (i64, i64) = (300_000, 1_000);

fn body(clubs: &[&str], leaders: i64, starts_at: i64) -> Value {
    json!({"name": "Vita vya vilabu", "variant": "kete",
           "clock": {"initial_ms": CLOCK.0, "increment_ms": CLOCK.1},
           "rated": false, "starts_at": starts_at, "minutes": 10, "berserk": false,
           "battle": {"clubs": clubs, "leaders": leaders}})
}

/// `POST /api/arenas/{id}/join` with `body` as `cookie`.
async fn join(b: &str, id: &str, cookie: &str, body: Value) -> Answer {
    post(b, &format!("/api/arenas/{id}/join"), body, Some(cookie)).await
}

/// `cookie` joins open club `club`.
async fn enter_club(b: &str, club: &str, cookie: &str) {
    let r = post(
        b,
        &format!("/api/clubs/{club}/join"),
        json!({}),
        Some(cookie),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
}

/// The standings' players and the club each plays for: name -> club id.
fn clubs_of_rows(v: &Value) -> HashMap<String, String> {
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["username"].as_str().unwrap().to_string(),
                r["club"]["id"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect()
}

/// Checks `v["battle"]` against the test's own arithmetic: each club's score the sum of its
/// `n` best players' scores (the model's), ranked by score, equal scores sharing a rank.
fn check_battle(v: &Value, m: &Model, members: &[(String, String, Vec<String>)], n: usize) {
    let mut expected: Vec<(String, i64, Vec<i64>, usize)> = members
        .iter()
        .map(|(id, _, players)| {
            let mut scores: Vec<i64> = players.iter().map(|p| m.score(p).0).collect();
            scores.sort_by_key(|s| std::cmp::Reverse(*s));
            let best: Vec<i64> = scores.iter().take(n).copied().collect();
            (id.clone(), best.iter().sum(), best, players.len())
        })
        .collect();
    expected.sort_by_key(|e| std::cmp::Reverse(e.1));
    let got = v["battle"]["clubs"].as_array().unwrap();
    assert_eq!(v["battle"]["leaders"], n, "{v}");
    assert_eq!(got.len(), expected.len(), "{v}");
    let by_id: HashMap<&str, &Value> = got.iter().map(|c| (c["id"].as_str().unwrap(), c)).collect();
    let scores: Vec<i64> = got.iter().map(|c| c["score"].as_i64().unwrap()).collect();
    let want: Vec<i64> = expected.iter().map(|e| e.1).collect();
    assert_eq!(scores, want, "clubs ranked by score: {v}");
    for (id, score, best, count) in &expected {
        let c = by_id[id.as_str()];
        let (_, name, players) = members.iter().find(|x| &x.0 == id).unwrap();
        assert_eq!(c["name"], name.as_str(), "{v}");
        assert_eq!(c["score"], *score, "{name}'s score: {v}");
        assert_eq!(c["players"], *count, "{name}'s players: {v}");
        // The rank: one more than the clubs that scored more.
        let rank = 1 + expected.iter().filter(|e| e.1 > *score).count();
        assert_eq!(c["rank"], rank, "{name}'s rank: {v}");
        // Its leaders: its own players, best first, with the model's scores.
        let leaders = c["leaders"].as_array().unwrap();
        let got_best: Vec<i64> = leaders
            .iter()
            .map(|l| l["score"].as_i64().unwrap())
            .collect();
        assert_eq!(&got_best, best, "{name}'s leaders: {v}");
        for l in leaders {
            let u = l["username"].as_str().unwrap();
            assert!(players.iter().any(|p| p == u), "{u} is not of {name}: {v}");
            assert_eq!(l["score"], m.score(u).0, "{u}'s score: {v}");
        }
    }
    // Each row names its player's club.
    let rows = clubs_of_rows(v);
    for (id, name, players) in members {
        for p in players {
            assert_eq!(rows.get(p), Some(id), "{p} plays for {name}: {v}");
        }
    }
}

/// The setting: ten accounts and four open clubs. A = tp0 (leader), tp1, tp2; B = tp3
/// (leader), tp4, tp5 and tp2 too; C = tp6 (leader), tp7, tp8; D = tp9 alone (not in the
/// battle).
async fn setting(b: &str) -> (Players, [String; 4]) {
    let p = players(b, 10).await;
    let c = |i: usize| p.cookie[&p.names[i]].clone();
    let a = new_club(b, &c(0), "Simba wa Pwani", "Mombasa", true).await;
    let bb = new_club(b, &c(3), "Nyota ya Bara", "Dodoma", true).await;
    let cc = new_club(b, &c(6), "Mwezi Mpevu", "Zanzibar", true).await;
    let d = new_club(b, &c(9), "Kisiwa Kidogo", "Pemba", true).await;
    for i in [1, 2] {
        enter_club(b, &a, &c(i)).await;
    }
    for i in [4, 5, 2] {
        enter_club(b, &bb, &c(i)).await;
    }
    for i in [7, 8] {
        enter_club(b, &cc, &c(i)).await;
    }
    (p, [a, bb, cc, d])
}

/// A battle of three clubs, N = 2: members join (one of two clubs chooses), the refused
/// stay out, games are played to results, and the clubs' scores and ranks follow the test's
/// arithmetic at every step.
pub async fn three_clubs(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).lifecycle(quick()).start().await;
    let b = base(&s);
    let bases = [b.clone()];
    let (p, [ca, cb, cc, cd]) = setting(&b).await;
    let c = |i: usize| p.cookie[&p.names[i]].as_str();
    let starts_at = clock.now_ms() + 60_000;
    let made = post(
        &b,
        "/api/arenas",
        body(&[&ca, &cb, &cc], 2, starts_at),
        Some(c(0)),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.text);
    let id = made.json["id"].as_str().unwrap().to_string();
    // Listed as a battle, with its clubs.
    let list = get(&b, "/api/arenas?status=upcoming", None).await.json;
    let line = list["arenas"]
        .as_array()
        .unwrap()
        .iter()
        .find(|a| a["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(line["battle"]["leaders"], 2, "{line}");
    let listed: Vec<&str> = line["battle"]["clubs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        listed,
        ["Simba wa Pwani", "Nyota ya Bara", "Mwezi Mpevu"],
        "{line}"
    );

    // tp2 is in A and B: the page offers both; joining needs a choice, which is final.
    let v = arena_json(&b, &id, Some(c(2))).await;
    let offered: Vec<&str> = v["you"]["clubs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["id"].as_str().unwrap())
        .collect();
    assert_eq!(offered.len(), 2, "{v}");
    assert!(offered.contains(&ca.as_str()) && offered.contains(&cb.as_str()));
    let r = join(&b, &id, c(2), json!({})).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = join(&b, &id, c(2), json!({"club": ca})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["club"], ca.as_str());
    let mut m = Model::default();
    m.joined.push(p.names[2].clone());
    for i in [0, 1, 3, 4, 5, 6, 7, 8] {
        let r = join(&b, &id, c(i), json!({})).await;
        assert_eq!(r.status, 200, "{}", r.text);
        m.joined.push(p.names[i].clone());
    }
    let members = vec![
        (
            ca.clone(),
            "Simba wa Pwani".to_string(),
            vec![p.names[0].clone(), p.names[1].clone(), p.names[2].clone()],
        ),
        (
            cb.clone(),
            "Nyota ya Bara".to_string(),
            vec![p.names[3].clone(), p.names[4].clone(), p.names[5].clone()],
        ),
        (
            cc.clone(),
            "Mwezi Mpevu".to_string(),
            vec![p.names[6].clone(), p.names[7].clone(), p.names[8].clone()],
        ),
    ];
    let v = arena_json(&b, &id, Some(c(2))).await;
    assert_eq!(
        v["you"]["club"],
        json!({"id": ca, "name": "Simba wa Pwani"}),
        "{v}"
    );
    check_battle(&v, &m, &members, 2);
    // Nobody has played: all three share the first rank.
    assert!(
        v["battle"]["clubs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|c| c["rank"] == 1 && c["score"] == 0),
        "{v}"
    );

    // Refused (each checked on the standings afterwards).
    // A member of two clubs switches: 409, still A's.
    let r = join(&b, &id, c(2), json!({"club": cb})).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("conflict")),
        "{}",
        r.text
    );
    // Joining again without naming one keeps the choice.
    let r = join(&b, &id, c(2), json!({})).await;
    assert_eq!(
        (r.status, r.json["club"].as_str()),
        (200, Some(ca.as_str())),
        "{}",
        r.text
    );
    // A non-member, naming no club or one of the battle's clubs.
    let r = join(&b, &id, c(9), json!({})).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = join(&b, &id, c(9), json!({"club": ca})).await;
    assert_eq!(r.status, 403, "{}", r.text);
    // Its own club, which is not in the battle.
    let r = join(&b, &id, c(9), json!({"club": cd})).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let v = arena_json(&b, &id, Some(c(9))).await;
    assert_eq!(v["you"]["joined"], false, "{v}");
    assert_eq!(v["you"]["clubs"], json!([]), "{v}");
    assert_eq!(v["standings"].as_array().unwrap().len(), 9, "{v}");
    check_battle(&v, &m, &members, 2);

    // The start: four games, one waits.
    clock.advance(Duration::from_secs(60));
    let v = settle(&b, &id, &mut m, |v| v["status"] == "running").await;
    assert_eq!(playing(&v).len(), 4, "{v}");
    check_battle(&v, &m, &members, 2);
    // Games decided one after another (the first to sign up wins), the clubs' ranking read
    // after each.
    for _ in 0..12 {
        let v = arena_json(&b, &id, None).await;
        let g = playing(&v)[0].clone();
        play_out(&bases, &id, &p, &mut m, &g, false).await;
        let v = settle(&b, &id, &mut m, |v| decided(v, &g.0)).await;
        check_battle(&v, &m, &members, 2);
    }
    // The second club shares the first place only when level with it (which games are paired
    // depends on the order the wave takes the waiting players in: either can happen).
    let v = arena_json(&b, &id, None).await;
    let top = &v["battle"]["clubs"];
    let level = top[0]["score"].as_i64() == top[1]["score"].as_i64();
    assert_eq!(top[1]["rank"], if level { 1 } else { 2 }, "{v}");
    // On the socket, a player's own row names their club, as the top rows do.
    let mut ws = arena_ws(&s.addr.to_string(), &id, Some(c(2))).await;
    let (top_rows, own) = standings_until(&mut ws, true, |_, own| own.is_some()).await;
    let own = own.unwrap();
    assert_eq!(
        own["row"]["club"],
        json!({"id": ca, "name": "Simba wa Pwani"}),
        "{own}"
    );
    let listed = top_rows["top"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["username"] == own["row"]["username"])
        .cloned()
        .unwrap();
    assert_eq!(listed["club"], own["row"]["club"], "{top_rows}");

    // A plain arena has no battle.
    let plain = post(
        &b,
        "/api/arenas",
        json!({"name": "Arena", "variant": "kete",
               "clock": {"initial_ms": CLOCK.0, "increment_ms": CLOCK.1}, "minutes": 10}),
        Some(c(9)),
    )
    .await;
    assert_eq!(plain.status, 201, "{}", plain.text);
    let pid = plain.json["id"].as_str().unwrap();
    let r = join(&b, pid, c(9), json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = join(&b, pid, c(9), json!({"club": cd})).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let v = arena_json(&b, pid, Some(c(9))).await;
    assert!(v.get("battle").is_none(), "{v}");
    assert!(v["standings"][0].get("club").is_none(), "{v}");
}

/// Making a battle: bad input named (400/404), and a maker who leads none of the clubs (403):
/// no battle exists afterwards.
pub async fn battle_refusals(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = base(&s);
    let (p, [ca, cb, cc, _]) = setting(&b).await;
    let c = |i: usize| p.cookie[&p.names[i]].as_str();
    let at = clock.now_ms() + 60_000;
    let eleven: Vec<String> = (0..11).map(|i| format!("club{i}")).collect();
    let eleven: Vec<&str> = eleven.iter().map(String::as_str).collect();
    for (what, bad, status) in [
        ("one club", body(&[&ca], 2, at), 400),
        ("eleven clubs", body(&eleven, 2, at), 400),
        ("a club twice", body(&[&ca, &cb, &ca], 2, at), 400),
        ("no leaders", body(&[&ca, &cb], 0, at), 400),
        ("21 leaders", body(&[&ca, &cb], 21, at), 400),
        ("an unknown club", body(&[&ca, "nosuchclub"], 2, at), 404),
    ] {
        let r = post(&b, "/api/arenas", bad, Some(c(0))).await;
        assert_eq!(r.status, status, "{what}: {}", r.text);
        assert!(
            r.text.contains("battle."),
            "{what} names the field: {}",
            r.text
        );
    }
    let mut extra = body(&[&ca, &cb], 2, at);
    extra["battle"]["size"] = json!(3);
    let r = post(&b, "/api/arenas", extra, Some(c(0))).await;
    assert_eq!(r.status, 400, "{}", r.text);
    // tp1 is a member of A, not its leader; tp9 leads D, which is not in the battle.
    for i in [1, 9] {
        let r = post(&b, "/api/arenas", body(&[&ca, &cb, &cc], 2, at), Some(c(i))).await;
        assert_eq!(r.status, 403, "{}", r.text);
    }
    let list = get(&b, "/api/arenas?status=upcoming", None).await.json;
    assert_eq!(list["arenas"], json!([]), "nothing made: {list}");
    // The leader of C (the last named) may.
    let r = post(&b, "/api/arenas", body(&[&ca, &cb, &cc], 2, at), Some(c(6))).await;
    assert_eq!(r.status, 201, "{}", r.text);
}
