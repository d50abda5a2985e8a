//! Arena tests (docs/api.md, "Arenas") over real HTTP, on SQLite (tests/arenas_sqlite.rs)
//! and PostgreSQL (tests/arenas_postgres.rs) with the same code. The players' own requests
//! decide every game (a berserk first, sometimes, then a resignation); every score, sheet
//! and fire mark is computed here from the results the test chose, never read back. The
//! server's clock is a manual one: the start, the last moments and the end come when the
//! test moves it.

use super::accounts::{base, fresh_name, get, post};
use super::tournaments::{decide, players, quick, Players};
use super::*;
use serde_json::json;
use std::collections::{HashMap, HashSet};

/// The arena's clock: five minutes each and one second a move (in a ten-minute arena the
/// last moments then come before a game's clock runs out on the test's clock).
const INITIAL_MS: i64 = 300_000;
const INCREMENT_MS: i64 = 1_000;
/// No new game this long before the end (docs/api.md, "Arenas").
const LAST_PAIRING_MS: i64 = INITIAL_MS + 20 * INCREMENT_MS;

/// `GET /api/arenas/{id}` as `cookie` sees it.
pub async fn arena_json(b: &str, id: &str, cookie: Option<&str>) -> Value {
    let a = get(b, &format!("/api/arenas/{id}"), cookie).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json
}

/// `POST /api/arenas/{id}/{what}` with an empty body as `cookie`.
pub async fn act(b: &str, id: &str, what: &str, cookie: &str) -> Answer {
    post(
        b,
        &format!("/api/arenas/{id}/{what}"),
        json!({}),
        Some(cookie),
    )
    .await
}

/// Creates an arena as `cookie` starting at `starts_at`, `minutes` long, berserk allowed.
pub async fn create_arena(b: &str, cookie: &str, starts_at: i64, minutes: i64) -> String {
    let a = post(
        b,
        "/api/arenas",
        json!({"name": "Arena ya jioni", "variant": "kete",
               "clock": {"initial_ms": INITIAL_MS, "increment_ms": INCREMENT_MS},
               "rated": false, "starts_at": starts_at, "minutes": minutes, "berserk": true}),
        Some(cookie),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    assert_eq!(a.json["url"], format!("/a/{id}"));
    id
}

/// What the test knows of the arena: each player's results in order (2 a win, 0 a loss;
/// with the berserk flag), their last opponent, who is paused, and the games seen.
#[derive(Default)]
pub struct Model {
    results: HashMap<String, Vec<(i64, bool)>>,
    last: HashMap<String, String>,
    paused: HashSet<String>,
    seen: HashSet<String>,
    /// The games the test decided.
    decided: HashSet<String>,
    /// Players in the arena (joined).
    pub joined: Vec<String>,
}

impl Model {
    /// The test's own arithmetic: win 2, draw 1, loss 0; double after two wins in a row
    /// until a game that is not a win; a berserk win one more. (score, sheet, fire).
    pub fn score(&self, name: &str) -> (i64, Vec<i64>, bool) {
        let mut streak = 0;
        let mut sheet = Vec::new();
        for &(o, berserk) in self.results.get(name).map_or(&[][..], |v| v) {
            let mut pts = if streak >= 2 { o * 2 } else { o };
            if o == 2 && berserk {
                pts += 1;
            }
            streak = if o == 2 { streak + 1 } else { 0 };
            sheet.push(pts);
        }
        (sheet.iter().sum(), sheet, streak >= 2)
    }

    fn stuck(&self, a: &str, b: &str) -> bool {
        self.last.get(a).map(String::as_str) == Some(b)
            || self.last.get(b).map(String::as_str) == Some(a)
    }

    /// Checks arena `v` against the model and takes in its new games: each player in at most
    /// one unfinished game; a new game never between last opponents while anyone else is in
    /// the arena; standings as the model scores them.
    pub fn check(&mut self, v: &Value) {
        let mut busy = HashSet::new();
        let active = self.joined.len() - self.paused.len();
        for g in v["games"].as_array().unwrap() {
            let (s, n) = (g["S"].as_str().unwrap(), g["N"].as_str().unwrap());
            let gid = g["game"].as_str().unwrap().to_string();
            if g["result"].is_null() {
                assert!(busy.insert(s.to_string()), "{s} in two games at once: {v}");
                assert!(busy.insert(n.to_string()), "{n} in two games at once: {v}");
            }
            if self.seen.insert(gid) {
                assert!(
                    active <= 2 || !self.stuck(s, n),
                    "{s} and {n} paired twice in a row while others are in the arena: {v}"
                );
                assert!(
                    !self.paused.contains(s) && !self.paused.contains(n),
                    "a paused player was paired: {v}"
                );
                self.last.insert(s.to_string(), n.to_string());
                self.last.insert(n.to_string(), s.to_string());
            }
        }
        for row in v["standings"].as_array().unwrap() {
            let name = row["username"].as_str().unwrap();
            let (score, sheet, fire) = self.score(name);
            assert_eq!(row["score"], score, "{name}'s score: {v}");
            assert_eq!(row["sheet"], json!(sheet), "{name}'s sheet: {v}");
            assert_eq!(row["fire"], fire, "{name}'s fire: {v}");
            assert_eq!(row["games"], sheet.len(), "{name}'s games: {v}");
            let berserk = self
                .results
                .get(name)
                .map_or(0, |r| r.iter().filter(|x| x.1).count());
            assert_eq!(row["berserk"], berserk, "{name}'s berserk games: {v}");
        }
        // Ranked by score.
        let scores: Vec<i64> = v["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["score"].as_i64().unwrap())
            .collect();
        assert!(scores.windows(2).all(|w| w[0] >= w[1]), "{v}");
    }

    /// Who waits (joined, not paused, not in a game) in arena `v`.
    pub fn waiting(&self, v: &Value) -> Vec<String> {
        let busy: HashSet<&str> = v["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| g["result"].is_null())
            .flat_map(|g| [g["S"].as_str().unwrap(), g["N"].as_str().unwrap()])
            .collect();
        self.joined
            .iter()
            .filter(|p| !busy.contains(p.as_str()) && !self.paused.contains(*p))
            .cloned()
            .collect()
    }

    /// Whether the pairing is done in arena `v`: nobody waits who could be paired (at most
    /// one waits, or two last opponents with others in the arena).
    pub fn settled(&self, v: &Value) -> bool {
        let w = self.waiting(v);
        let active = self.joined.len() - self.paused.len();
        match w.len() {
            0 | 1 => true,
            2 => active > 2 && self.stuck(&w[0], &w[1]),
            _ => false,
        }
    }
}

/// Waits until arena `id` is settled and `also` holds, then checks it against the model.
pub async fn settle(b: &str, id: &str, m: &mut Model, also: impl Fn(&Value) -> bool) -> Value {
    let v = eventually_some(&format!("arena {id} paired"), || async {
        let v = arena_json(b, id, None).await;
        // Every game listed exists before the arena counts as settled.
        (m.settled(&v) && also(&v)).then_some(v)
    })
    .await;
    for g in v["games"].as_array().unwrap() {
        let gid = g["game"].as_str().unwrap();
        eventually(&format!("game {gid} made"), || async {
            get(b, &format!("/api/games/{gid}"), None).await.status == 200
        })
        .await;
    }
    m.check(&v);
    v
}

/// Whether game `gid` of arena `v` has its result.
pub fn decided(v: &Value, gid: &str) -> bool {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["game"] == gid && !x["result"].is_null())
}

/// The unfinished games of arena `v`: (game, south, north).
pub fn playing(v: &Value) -> Vec<(String, String, String)> {
    v["games"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["result"].is_null())
        .map(|g| {
            (
                g["game"].as_str().unwrap().to_string(),
                g["S"].as_str().unwrap().to_string(),
                g["N"].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// Decides game `gid` between `s` and `n` for the player who signed up first (so that some
/// win again and again, and catch fire); the winner goes berserk first when `berserk`
/// (their clock is then halved on the game's page). Each request goes to one of `bases`.
pub async fn play_out(
    bases: &[String],
    id: &str,
    p: &Players,
    m: &mut Model,
    (gid, s, n): &(String, String, String),
    berserk: bool,
) {
    let rank = |x: &str| p.names.iter().position(|y| y == x).unwrap();
    let (winner, loser) = if rank(s) < rank(n) { (s, n) } else { (n, s) };
    let b = &bases[0];
    if berserk {
        let r = post(
            b,
            &format!("/api/arenas/{id}/berserk"),
            json!({"game": gid}),
            Some(&p.cookie[winner]),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
        let side = if winner == s { "S" } else { "N" };
        let other = if winner == s { "N" } else { "S" };
        let st = get(b, &format!("/api/games/{gid}"), Some(&p.cookie[winner]))
            .await
            .json;
        // The manual clock stands still: exactly half the minute, the other's untouched.
        assert_eq!(st["clock"][side], INITIAL_MS / 2, "{st}");
        assert_eq!(st["clock"][other], INITIAL_MS, "{st}");
        // Not the loser's to ask for, and not twice a change.
        let r = post(
            b,
            &format!("/api/arenas/{id}/berserk"),
            json!({"game": "zzzzzzzz"}),
            Some(&p.cookie[winner]),
        )
        .await;
        assert_eq!(r.status, 403, "{}", r.text);
    }
    decide(bases, gid, p, loser, winner, 0).await;
    m.decided.insert(gid.clone());
    m.results
        .entry(winner.clone())
        .or_default()
        .push((2, berserk));
    m.results.entry(loser.clone()).or_default().push((0, false));
}

/// Six accounts in a 10-minute arena: five join before the start and are paired at it, a
/// late joiner is paired with the one left waiting, games are played to results one after
/// another and every player is paired again (never with their last opponent while others
/// wait), a paused player is not paired until they join again, berserk and fire score as
/// the rules say, and nobody is paired in the last moments.
pub async fn six_players(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).lifecycle(quick()).start().await;
    let b = base(&s);
    let bases = [b.clone()];
    let p = players(&b, 6).await;
    let c = |i: usize| p.cookie[&p.names[i]].as_str();
    let starts_at = clock.now_ms() + 60_000;
    let id = create_arena(&b, c(0), starts_at, 10).await;
    let mut m = Model::default();
    for i in 0..5 {
        let j = act(&b, &id, "join", c(i)).await;
        assert_eq!(j.status, 200, "{}", j.text);
        m.joined.push(p.names[i].clone());
    }
    // Listed as upcoming; nobody paired before the start.
    let list = get(&b, "/api/arenas?status=upcoming", None).await.json;
    assert!(
        list["arenas"]
            .as_array()
            .unwrap()
            .iter()
            .any(|a| a["id"] == id.as_str() && a["players"] == 5),
        "{list}"
    );
    let v = arena_json(&b, &id, Some(c(0))).await;
    assert_eq!(v["status"], "upcoming");
    assert_eq!(v["ends_at"], starts_at + 10 * 60_000);
    assert_eq!(
        v["you"],
        json!({"joined": true, "paused": false, "game": null, "may_stop_series": false})
    );
    assert!(v["games"].as_array().unwrap().is_empty());

    // The start: two games, one player waits.
    clock.advance(Duration::from_secs(60));
    let v = settle(&b, &id, &mut m, |v| v["status"] == "running").await;
    assert_eq!(playing(&v).len(), 2, "{v}");
    let alone = m.waiting(&v);
    assert_eq!(alone.len(), 1, "{v}");
    // Each player's own game is one tap away.
    let (g0, s0, _) = &playing(&v)[0];
    let mine = arena_json(&b, &id, Some(&p.cookie[s0])).await;
    assert_eq!(mine["you"]["game"], g0.as_str());

    // A late joiner is paired with the one who waits.
    let j = act(&b, &id, "join", c(5)).await;
    assert_eq!(j.status, 200, "{}", j.text);
    m.joined.push(p.names[5].clone());
    let v = settle(&b, &id, &mut m, |v| playing(v).len() == 3).await;
    assert!(
        playing(&v)
            .iter()
            .any(|(_, s, n)| [s, n].contains(&&alone[0]) && [s, n].contains(&&p.names[5])),
        "{v}"
    );

    // Games decided one after another; every third winner goes berserk.
    for k in 0..9 {
        let v = arena_json(&b, &id, None).await;
        let g = playing(&v)[0].clone();
        play_out(&bases, &id, &p, &mut m, &g, k % 3 == 1).await;
        settle(&b, &id, &mut m, |v| decided(v, &g.0)).await;
    }
    // Someone caught fire (the first to sign up wins every game they play).
    let (_, _, fire) = m.score(&p.names[0]);
    assert!(fire, "the test's own sequence lights a fire");

    // A paused player finishes their game and is not paired again.
    let v = arena_json(&b, &id, None).await;
    let g = playing(&v)
        .into_iter()
        .find(|(_, s, n)| ![s, n].contains(&&p.names[0]))
        .unwrap_or_else(|| playing(&v)[0].clone());
    let paused = g.1.clone();
    let r = act(&b, &id, "pause", &p.cookie[&paused]).await;
    assert_eq!(r.status, 200, "{}", r.text);
    m.paused.insert(paused.clone());
    let me = arena_json(&b, &id, Some(&p.cookie[&paused])).await;
    assert_eq!(me["you"]["paused"], true);
    assert_eq!(
        me["you"]["game"],
        g.0.as_str(),
        "the game in progress goes on"
    );
    // Their own game first, then three more.
    let mut next = Some(g);
    for _ in 0..4 {
        let g = match next.take() {
            Some(g) => g,
            None => playing(&arena_json(&b, &id, None).await)[0].clone(),
        };
        play_out(&bases, &id, &p, &mut m, &g, false).await;
        let v = settle(&b, &id, &mut m, |v| decided(v, &g.0)).await;
        assert!(
            !playing(&v)
                .iter()
                .any(|(_, s, n)| s == &paused || n == &paused),
            "{paused} paused but paired: {v}"
        );
    }
    // Back: paired again, at once or (if the one waiting was their last opponent) after
    // the next game ends.
    let r = act(&b, &id, "join", &p.cookie[&paused]).await;
    assert_eq!(r.status, 200, "{}", r.text);
    m.paused.remove(&paused);
    let mut v = settle(&b, &id, &mut m, |_| true).await;
    for _ in 0..3 {
        if playing(&v)
            .iter()
            .any(|(_, s, n)| s == &paused || n == &paused)
        {
            break;
        }
        let g = playing(&v)[0].clone();
        play_out(&bases, &id, &p, &mut m, &g, false).await;
        v = settle(&b, &id, &mut m, |v| decided(v, &g.0)).await;
    }
    assert!(
        playing(&v)
            .iter()
            .any(|(_, s, n)| s == &paused || n == &paused),
        "{paused} back but not paired: {v}"
    );

    // The last moments: a game that ends now is not followed by another.
    clock.advance(Duration::from_millis(
        (v["ends_at"].as_i64().unwrap() - LAST_PAIRING_MS + 1 - clock.now_ms()) as u64,
    ));
    let g = playing(&v)[0].clone();
    play_out(&bases, &id, &p, &mut m, &g, false).await;
    let v = eventually_some("the result recorded", || async {
        let v = arena_json(&b, &id, None).await;
        decided(&v, &g.0).then_some(v)
    })
    .await;
    // Another arena event (a pause and a join) brings the pairing round again: still none.
    let r = act(&b, &id, "join", &p.cookie[&g.1]).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v2 = arena_json(&b, &id, None).await;
    assert_eq!(
        playing(&v2).len(),
        2,
        "no new game in the last moments: {v2}"
    );
    assert_eq!(playing(&v).len(), 2);
    m.check(&v2);

    // The end: the games still running lose on time as the clock passes it.
    clock.advance(Duration::from_millis(LAST_PAIRING_MS as u64));
    let v = eventually_some(
        "the arena finished, its last games lost on time",
        || async {
            let v = arena_json(&b, &id, None).await;
            (v["status"] == "finished" && playing(&v).is_empty()).then_some(v)
        },
    )
    .await;
    // Nobody moved in them: South, to move, ran out of time.
    for g in v["games"].as_array().unwrap() {
        if m.decided.contains(g["game"].as_str().unwrap()) {
            continue;
        }
        assert_eq!(g["result"], "N", "{v}");
        let (gs, gn) = (g["S"].as_str().unwrap(), g["N"].as_str().unwrap());
        m.results
            .entry(gn.to_string())
            .or_default()
            .push((2, false));
        m.results
            .entry(gs.to_string())
            .or_default()
            .push((0, false));
    }
    m.check(&v);
    let j = act(&b, &id, "join", c(1)).await;
    assert_eq!((j.status, j.json["error"].as_str()), (409, Some("over")));
    let list = get(&b, "/api/arenas?status=finished", None).await.json;
    assert!(list["arenas"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["id"] == id.as_str()));
}

/// The refusals: signed out, bad fields, an unknown arena, a pause without joining,
/// berserk in an arena without it.
pub async fn refusals(url: &str) {
    let s = server(url).start().await;
    let b = base(&s);
    let p = players(&b, 2).await;
    let c0 = p.cookie[&p.names[0]].as_str();
    let body = json!({"name": "A", "variant": "kete",
        "clock": {"initial_ms": 60000, "increment_ms": 0}, "minutes": 30, "berserk": false});
    let a = post(&b, "/api/arenas", body.clone(), None).await;
    assert_eq!(a.status, 401, "{}", a.text);
    for (k, bad) in [
        ("minutes", json!(5)),
        ("minutes", json!(721)),
        ("clock", json!({"days_per_move": 2})),
        ("clock", json!(null)),
        ("variant", json!("chess")),
        ("name", json!("")),
        ("starts_at", json!(1)),
    ] {
        let mut x = body.clone();
        x[k] = bad.clone();
        let a = post(&b, "/api/arenas", x, Some(c0)).await;
        assert_eq!(a.status, 400, "{k}={bad}: {}", a.text);
    }
    let a = get(&b, "/api/arenas/nosucharen", None).await;
    assert_eq!(a.status, 404, "{}", a.text);
    let a = get(&b, "/api/arenas?status=soon", None).await;
    assert_eq!(a.status, 400, "{}", a.text);
    let a = post(&b, "/api/arenas", body, Some(c0)).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap();
    let r = act(&b, id, "pause", c0).await;
    assert_eq!(r.status, 409, "{}", r.text);
    let r = post(
        &b,
        &format!("/api/arenas/{id}/berserk"),
        json!({"game": "abc"}),
        Some(c0),
    )
    .await;
    assert_eq!(r.status, 403, "{}", r.text);
}

/// Two instances on one database pair one arena: both start it at once (their timers), both
/// hear every game's end and pair, and a test's pairing rounds run on both at the same
/// moment; still each player is in at most one game at a time, and never with their last
/// opponent while others wait.
pub async fn two_instances(url: &str) {
    let clock = manual_clock();
    let (a, b2) = server(url)
        .clock(&clock)
        .lifecycle(quick())
        .start_two()
        .await;
    let bases = [base(&a), base(&b2)];
    let p = players(&bases[0], 6).await;
    let starts_at = clock.now_ms() + 60_000;
    let id = create_arena(&bases[0], &p.cookie[&p.names[0]], starts_at, 10).await;
    // A viewer on the other instance follows the arena on the player socket (a guest).
    let mut watch =
        tokio_tungstenite::connect_async(format!("ws://{}/api/play/ws?arena={id}", b2.addr))
            .await
            .expect("ws connects")
            .0;
    let first = next_of(&mut watch, "arena", None).await;
    assert_eq!(first["id"], id.as_str(), "told once as it opens: {first}");
    let mut m = Model::default();
    for (i, n) in p.names.iter().enumerate() {
        let j = act(&bases[i % 2], &id, "join", &p.cookie[n]).await;
        assert_eq!(j.status, 200, "{}", j.text);
        m.joined.push(n.clone());
    }
    // Every join, made on either instance, is news on the viewer's socket.
    for _ in 0..p.names.len() {
        let m = next_of(&mut watch, "arena", None).await;
        assert_eq!(m["id"], id.as_str(), "{m}");
    }
    clock.advance(Duration::from_secs(60));
    let v = settle(&bases[1], &id, &mut m, |v| v["status"] == "running").await;
    assert_eq!(playing(&v).len(), 3, "{v}");
    let both = || async {
        let (x, y) = tokio::join!(
            bao_server::features::arenas::run::advance(&a.app.games, &id),
            bao_server::features::arenas::run::advance(&b2.app.games, &id)
        );
        x.unwrap();
        y.unwrap();
    };
    for k in 0..10 {
        let v = arena_json(&bases[k % 2], &id, None).await;
        let g = playing(&v)[0].clone();
        play_out(&bases, &id, &p, &mut m, &g, false).await;
        // Both instances pair at the same moment as their tasks do.
        both().await;
        let v = settle(&bases[(k + 1) % 2], &id, &mut m, |v| decided(v, &g.0)).await;
        // The viewer hears of it: its next read shows the result (the events are in order
        // of commit, the result's among them).
        loop {
            let msg = next_of(&mut watch, "arena", None).await;
            assert_eq!(msg["id"], id.as_str());
            if decided(&arena_json(&bases[1], &id, None).await, &g.0) {
                break;
            }
        }
        // Every game listed is one each of its players is in: one unfinished per player.
        let mut per: HashMap<String, usize> = HashMap::new();
        for (_, s, n) in playing(&v) {
            *per.entry(s).or_default() += 1;
            *per.entry(n).or_default() += 1;
        }
        assert!(per.values().all(|&c| c == 1), "{v}");
    }
    // The same through both instances' pages.
    let v0 = arena_json(&bases[0], &id, None).await;
    m.check(&v0);
}

/// The measurement of one pairing wave (docs/api.md, "Arenas", "Measured"): an arena of
/// `BAO_ARENA_PLAYERS` (1,000) joined accounts, all waiting, brought up to date by one call
/// of the pairing ([`bao_server::features::arenas::run::advance`], what every instance does
/// on an arena event): the pairs chosen and claimed, the games' rows and server games
/// written, the events published. `BAO_ARENA_WAVES` (3) arenas, one wave each. The app runs
/// without its background tasks, so that no other pass competes with the one timed.
pub async fn measure_wave(url: &str) {
    use bao_server::store::{ArenaPlayerRow, ArenaRow, NewAccount};
    use std::time::Instant;
    let var = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let players = var("BAO_ARENA_PLAYERS", 1000);
    let db = if url.starts_with("sqlite:") {
        "SQLite"
    } else {
        "PostgreSQL"
    };
    let waves = var("BAO_ARENA_WAVES", 3);
    let store = bao_server::Store::open(url, bao_server::Durability::Full)
        .await
        .unwrap();
    let config = bao_server::Config {
        database: url.to_string(),
        ..Default::default()
    };
    let app = bao_server::App::new(store.clone(), &config);
    let games = &app.games;
    let now = bao_server::util::now_ms();
    let t = Instant::now();
    let mut accounts = Vec::new();
    for i in 0..players {
        let name = fresh_name(&format!("W{i}"));
        let id = store
            .create_account(
                &NewAccount {
                    username: name.clone(),
                    name_key: name.to_ascii_lowercase(),
                    password_hash: "unused".into(),
                    recovery_hash: "unused".into(),
                },
                &bao_server::util::random_code(32),
                now,
            )
            .await
            .unwrap();
        accounts.push((id.0, name));
    }
    let setup = t.elapsed().as_secs_f64();
    let mut times = Vec::new();
    for w in 0..waves {
        let id = bao_server::util::random_code(10);
        store
            .create_arena(&ArenaRow {
                id: id.clone(),
                name: format!("Wave {w}"),
                variant: "kete".into(),
                rules: "-".into(),
                clock: json!({"initial_ms": INITIAL_MS, "increment_ms": INCREMENT_MS}).to_string(),
                rated: false,
                berserk: true,
                status: "running".into(),
                organiser_id: accounts[0].0.clone(),
                organiser_name: accounts[0].1.clone(),
                starts_at: now,
                ends_at: now + 3_600_000,
                created: now,
                updated: now,
                club: None,
                private: false,
                series: None,
                repeats: None,
            })
            .await
            .unwrap();
        for (i, (acc, name)) in accounts.iter().enumerate() {
            let joined = store
                .join_arena(
                    &id,
                    &ArenaPlayerRow {
                        account_id: acc.clone(),
                        username: name.clone(),
                        // Ratings spread as on a site: close ones meet.
                        rating: Some(1200 + (i as i64 * 7919) % 900),
                        joined: now + i as i64,
                        paused: false,
                        game_id: None,
                        last_opponent: None,
                    },
                )
                .await
                .unwrap();
            assert!(joined);
        }
        let mut events = store.subscribe();
        let t = Instant::now();
        bao_server::features::arenas::run::advance(games, &id)
            .await
            .unwrap();
        let e = t.elapsed().as_secs_f64();
        let mut published = 0;
        while events.try_recv().is_ok() {
            published += 1;
        }
        // The wave is whole: everyone in one game, each game made.
        let ps = store.arena_players(&id).await.unwrap();
        assert!(ps.iter().all(|p| p.game_id.is_some()), "someone waits");
        assert_eq!(store.arena_games(&id).await.unwrap().len(), players / 2);
        assert!(store.arena_games_missing(&id).await.unwrap().is_empty());
        println!(
            "measured: {db}: wave {w}: {players} waiting players paired, {} games made, {published} events, in {:.3} s",
            players / 2,
            e
        );
        times.push(e);
        games.forget_all();
    }
    times.sort_by(f64::total_cmp);
    println!(
        "measured: {db}: one wave of {players} players: median {:.3} s, max {:.3} s ({} accounts made in {setup:.1} s)",
        times[times.len() / 2],
        times[times.len() - 1],
        players
    );
}

/// The arena socket of `cookie` (a guest without) at `addr`: `GET /api/play/ws?arena=ID`.
pub async fn arena_ws(addr: &str, id: &str, cookie: Option<&str>) -> Ws {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut req = format!("ws://{addr}/api/play/ws?arena={id}")
        .into_client_request()
        .unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert("cookie", c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req)
        .await
        .expect("ws connects")
        .0
}

/// Reads `ws` until a `standings` message for which `f` holds (skipping the others, and
/// asserting that a guest never gets a `standings_you`); answers it and the account's own
/// `standings_you` that follows it when `own`.
pub async fn standings_until(
    ws: &mut Ws,
    own: bool,
    f: impl Fn(&Value, Option<&Value>) -> bool,
) -> (Value, Option<Value>) {
    let mut last: Option<Value> = None;
    loop {
        let v = next_json(ws).await;
        match v["type"].as_str() {
            Some("standings") => {
                if !own && f(&v, None) {
                    return (v, None);
                }
                last = Some(v);
            }
            Some("standings_you") => {
                assert!(own, "a guest got a row of its own: {v}");
                if let Some(s) = last.take() {
                    if f(&s, Some(&v)) {
                        return (s, Some(v));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Live standings (docs/api.md, "Arenas", "Live standings") over real HTTP and WebSocket:
/// a player and a guest follow the arena on instance `b` (the other one when `two`); games
/// are decided through instance `a`; each socket hears the standings, computed once per
/// change, and the player its own row and game, with the scores the test computes itself.
pub async fn live_standings(url: &str, two: bool) {
    let clock = manual_clock();
    let (a, b2) = if two {
        let (a, b2) = server(url)
            .clock(&clock)
            .lifecycle(quick())
            .start_two()
            .await;
        (a, Some(b2))
    } else {
        (
            server(url).clock(&clock).lifecycle(quick()).start().await,
            None,
        )
    };
    let b = b2.as_ref().unwrap_or(&a);
    let bases = [base(&a)];
    let p = players(&bases[0], 4).await;
    let me = p.names[3].clone();
    let id = create_arena(
        &bases[0],
        &p.cookie[&p.names[0]],
        clock.now_ms() + 60_000,
        10,
    )
    .await;
    let mut mine = arena_ws(&b.addr.to_string(), &id, Some(&p.cookie[&me])).await;
    let mut guest = arena_ws(&b.addr.to_string(), &id, None).await;
    let mut m = Model::default();
    for n in &p.names {
        let j = act(&bases[0], &id, "join", &p.cookie[n]).await;
        assert_eq!(j.status, 200, "{}", j.text);
        m.joined.push(n.clone());
    }
    clock.advance(Duration::from_secs(60));
    let v = settle(&bases[0], &id, &mut m, |v| v["status"] == "running").await;
    let game = playing(&v)
        .into_iter()
        .find(|g| g.1 == me || g.2 == me)
        .expect("paired at the start");
    // The start and the pairing, on the other instance's sockets: the player sees its game.
    let (s, you) = standings_until(&mut mine, true, |s, y| {
        s["status"] == "running" && y.is_some_and(|y| y["you"]["game"] == game.0.as_str())
    })
    .await;
    assert_eq!(s["players"], 4, "{s}");
    assert_eq!(s["top"].as_array().unwrap().len(), 4, "{s}");
    let you = you.unwrap();
    assert_eq!(you["row"]["username"], me.as_str(), "{you}");
    assert_eq!(you["game"]["game"], game.0.as_str(), "{you}");
    standings_until(&mut guest, false, |s, _| s["status"] == "running").await;
    // A result recorded on instance a reaches both sockets with the scores.
    play_out(&bases, &id, &p, &mut m, &game, false).await;
    let (want, _, _) = m.score(&me);
    let (s, you) = standings_until(&mut mine, true, |_, y| {
        y.is_some_and(|y| y["row"]["games"] == 1)
    })
    .await;
    let you = you.unwrap();
    assert_eq!(you["row"]["score"], want, "{you}");
    let row = s["top"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["username"] == me.as_str())
        .cloned()
        .unwrap();
    assert_eq!(row["score"], want, "{s}");
    for (i, r) in s["podium"].as_array().unwrap().iter().enumerate() {
        assert_eq!(r, &s["top"][i], "{s}");
    }
    let (s, _) = standings_until(&mut guest, false, |s, _| {
        s["top"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["games"].as_i64().unwrap())
            .sum::<i64>()
            == 2
    })
    .await;
    for r in s["top"].as_array().unwrap() {
        let (score, sheet, fire) = m.score(r["username"].as_str().unwrap());
        assert_eq!(r["score"], score, "{s}");
        assert_eq!(r["sheet"], json!(sheet), "{s}");
        assert_eq!(r["fire"], fire, "{s}");
    }
    // Computed once per change for all the sockets following on the instance.
    assert_eq!(b.app.games.feeds.following(&format!("r:{id}")), 2);
    drop(mine);
    drop(guest);
    eventually("the sockets stop following", || async {
        b.app.games.feeds.following(&format!("r:{id}")) == 0
    })
    .await;
}

/// The measurement of live standings (docs/api.md, "Arenas", "Live standings"): an arena of
/// `BAO_ARENA_PLAYERS` (10,000) players, paired, followed by `BAO_ARENA_VIEWERS` (1,000)
/// guest sockets on one instance; a burst of `BAO_ARENA_BURST` (50) results recorded at
/// once; the time until the last viewer has standings counting them all, how many
/// computations the burst took (coalesced), the bytes of the shared message, and the time
/// of one computation.
pub async fn measure_standings(url: &str) {
    use bao_server::store::{ArenaPlayerRow, NewAccount};
    use std::time::Instant;
    let var = |k: &str, d: usize| {
        std::env::var(k)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(d)
    };
    let n = var("BAO_ARENA_PLAYERS", 10_000);
    let viewers = var("BAO_ARENA_VIEWERS", 1000);
    let burst = var("BAO_ARENA_BURST", 50);
    let db = if url.starts_with("sqlite:") {
        "SQLite"
    } else {
        "PostgreSQL"
    };
    let s = server(url)
        .with(|c| c.durability = bao_server::Durability::Normal)
        .start()
        .await;
    let store = &s.app.store;
    let games = &s.app.games;
    let b = base(&s);
    let (_, cookie) = super::ratings::account(&b, "Org").await;
    let now = bao_server::util::now_ms();
    let id = create_arena(&b, &cookie, now + 3_600_000, 60).await;
    let t = Instant::now();
    for i in 0..n {
        let name = fresh_name(&format!("S{i}"));
        let acc = store
            .create_account(
                &NewAccount {
                    username: name.clone(),
                    name_key: name.to_ascii_lowercase(),
                    password_hash: "unused".into(),
                    recovery_hash: "unused".into(),
                },
                &bao_server::util::random_code(32),
                now,
            )
            .await
            .unwrap();
        let row = ArenaPlayerRow {
            account_id: acc.0,
            username: name,
            rating: Some(1200 + (i as i64 * 7919) % 900),
            joined: now + i as i64,
            paused: false,
            game_id: None,
            last_opponent: None,
        };
        assert!(store.join_arena(&id, &row).await.unwrap());
    }
    let setup = t.elapsed().as_secs_f64();
    // Running: the whole arena paired in one wave.
    assert!(store
        .set_arena_status(&id, "upcoming", "running", now)
        .await
        .unwrap());
    let t = Instant::now();
    bao_server::features::arenas::run::advance(games, &id)
        .await
        .unwrap();
    let wave = t.elapsed().as_secs_f64();
    let ag = store.arena_games(&id).await.unwrap();
    assert_eq!(ag.len(), n / 2);
    // One computation, timed on its own.
    let t = Instant::now();
    let feed = bao_server::features::arenas::live::compute(games, &id, &[])
        .await
        .unwrap()
        .unwrap();
    let compute_ms = t.elapsed().as_secs_f64() * 1e3;
    let bytes = feed.shared.len();
    // The viewers, each waiting for standings that count the whole burst.
    let addr = s.addr.to_string();
    let mut socks = Vec::new();
    for _ in 0..viewers {
        let mut ws = arena_ws(&addr, &id, None).await;
        standings_until(&mut ws, false, |_, _| true).await;
        socks.push(ws);
    }
    assert_eq!(games.feeds.following(&format!("r:{id}")), viewers);
    let (go_tx, _) = tokio::sync::broadcast::channel::<Instant>(1);
    let mut tasks = Vec::new();
    for mut ws in socks {
        let mut go = go_tx.subscribe();
        tasks.push(tokio::spawn(async move {
            let start = go.recv().await.unwrap();
            let mut msgs = 0usize;
            let mut seen = 0usize;
            loop {
                let v = next_json(&mut ws).await;
                if v["type"] != "standings" {
                    continue;
                }
                msgs += 1;
                seen += v.to_string().len();
                if v["finished"].as_u64().unwrap() as usize >= burst {
                    return (start.elapsed().as_secs_f64() * 1e3, msgs, seen);
                }
            }
        }));
    }
    let cpu = || {
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap();
        let f: Vec<&str> = stat
            .rsplit(')')
            .next()
            .unwrap()
            .split_whitespace()
            .collect();
        (f[11].parse::<f64>().unwrap() + f[12].parse::<f64>().unwrap()) * 10.0
    };
    let cpu0 = cpu();
    let start = Instant::now();
    let _ = go_tx.send(start);
    for g in ag.iter().take(burst) {
        assert!(store
            .record_arena_result(&g.game_id, "S", Some("resignation"), now + 1)
            .await
            .unwrap());
    }
    let recorded = start.elapsed().as_secs_f64() * 1e3;
    let mut last: f64 = 0.0;
    let mut msgs = Vec::new();
    for t in tasks {
        let (ms, m, _) = t.await.unwrap();
        last = last.max(ms);
        msgs.push(m);
    }
    let cpu_ms = cpu() - cpu0;
    msgs.sort();
    println!(
        "measured: {db}: {n} players ({setup:.0} s to make and join them; the first wave of {} games in {wave:.2} s), {viewers} guest sockets on one instance: one computation of the standings {compute_ms:.1} ms, shared message {bytes} bytes; a burst of {burst} results recorded in {recorded:.0} ms; the last viewer had standings counting them all {last:.0} ms after the first; standings messages per viewer in the burst: median {}, max {}; process CPU over the burst {cpu_ms:.0} ms (every part: recording, pairing again, computing, sending)",
        n / 2,
        msgs[msgs.len() / 2],
        msgs[msgs.len() - 1],
    );
    s.stop().await;
}
