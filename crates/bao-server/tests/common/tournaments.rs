//! Tournament tests (docs/api.md, "Tournaments") over real HTTP, on SQLite
//! (tests/tournaments_sqlite.rs) and PostgreSQL (tests/tournaments_postgres.rs) with the same
//! code. Every game is decided by the players' own requests (a few real moves, then a
//! resignation), and every expected pairing and standing is computed here with
//! bao-tournament from the results the test chose, never read back from the server.

use super::accounts::{account_id, base, get, post};
use super::ratings::account;
use super::*;
use bao_server::game::{AlertKind, Lifecycle};
use bao_tournament::knockout::Knockout;
use bao_tournament::standings::Standing;
use bao_tournament::{Format, GameResult, Player, PlayerId, Tournament};
use serde_json::json;
use std::collections::HashMap;

/// The safety sweep an hour apart: starts and forfeits come by their timers, rounds by the
/// games' ends, never by a sweep.
pub fn quick() -> Lifecycle {
    Lifecycle {
        sweep_every: Duration::from_millis(100),
        safety_sweep: Duration::from_secs(3600),
        ..Default::default()
    }
}

/// The players: name -> session cookie, and the names in signup order.
pub struct Players {
    pub cookie: HashMap<String, String>,
    pub names: Vec<String>,
}

pub async fn players(b: &str, n: usize) -> Players {
    let mut cookie = HashMap::new();
    let mut names = Vec::new();
    for i in 0..n {
        let (name, c) = account(b, &format!("tp{i}")).await;
        cookie.insert(name.clone(), c);
        names.push(name);
    }
    Players { cookie, names }
}

/// `POST /api/tournaments/{id}/{what}` with an empty body: join, start, pause, resume,
/// withdraw, as the player or organiser of `cookie`.
pub async fn act(b: &str, id: &str, what: &str, cookie: Option<&str>) -> Answer {
    post(
        b,
        &format!("/api/tournaments/{id}/{what}"),
        json!({}),
        cookie,
    )
    .await
}

/// Every player of `p` joins tournament `id`, each accepted (200).
pub async fn join_all(b: &str, id: &str, p: &Players) {
    for n in &p.names {
        let j = act(b, id, "join", Some(&p.cookie[n])).await;
        assert_eq!(j.status, 200, "{}", j.text);
    }
}

/// The first board of round 1 in `t` is decided for South, after `plies` real moves: for
/// tests about what happens around one decided game.
pub async fn first_board_to_south(b: &str, t: &Value, p: &Players, plies: usize) {
    let g = &t["rounds"][0]["pairings"][0];
    let (sn, nn) = (g["S"].as_str().unwrap(), g["N"].as_str().unwrap());
    let bases = [b.to_string()];
    decide(&bases, g["game"].as_str().unwrap(), p, nn, sn, plies).await;
}

/// Tournament `id` as `cookie` sees it (`GET /api/tournaments/{id}`): its JSON.
pub async fn tournament_json(b: &str, id: &str, cookie: Option<&str>) -> Value {
    get(b, &format!("/api/tournaments/{id}"), cookie).await.json
}

/// Game `gid` as `cookie` sees it (`GET /api/games/{gid}`): its JSON.
pub async fn game_json(b: &str, gid: &str, cookie: Option<&str>) -> Value {
    get(b, &format!("/api/games/{gid}"), cookie).await.json
}

/// Creates a tournament as `cookie` with `extra` merged into a default kete one.
pub async fn create_t(b: &str, cookie: Option<&str>, extra: Value) -> Answer {
    let mut body = json!({"name": "Kombe la Bao", "variant": "kete",
        "format": {"kind": "swiss", "rounds": 3},
        "clock": {"initial_ms": 600000, "increment_ms": 0},
        "rated": false, "starts_at": null, "max_players": 16, "private": false});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    post(b, "/api/tournaments", body, cookie).await
}

/// Everyone joins, in order; the organiser (first) starts it. Returns the tournament id.
pub async fn create_join_start(b: &str, p: &Players, extra: Value) -> String {
    let org = &p.cookie[&p.names[0]];
    let a = create_t(b, Some(org), extra).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    assert_eq!(a.json["url"], format!("/t/{id}"));
    join_all(b, &id, p).await;
    let s = act(b, &id, "start", Some(org)).await;
    assert_eq!(s.status, 200, "{}", s.text);
    id
}

/// Waits until `GET /api/tournaments/{id}` satisfies `f`; answers it.
pub async fn wait_t(b: &str, id: &str, f: impl Fn(&Value) -> bool) -> Value {
    eventually_some(
        &format!("tournament {id} in the expected state"),
        || async {
            let a = get(b, &format!("/api/tournaments/{id}"), None).await;
            assert_eq!(a.status, 200, "{}", a.text);
            f(&a.json).then_some(a.json)
        },
    )
    .await
}

/// Round `no` is paired and every game of it exists.
pub async fn wait_round(b: &str, id: &str, no: usize) -> Value {
    let t = wait_t(b, id, |t| t["round"].as_u64() >= Some(no as u64)).await;
    for g in t["rounds"][no - 1]["pairings"].as_array().unwrap() {
        if let Some(gid) = g["game"].as_str() {
            eventually(&format!("game {gid} of round {no} made"), || async {
                get(b, &format!("/api/games/{gid}"), None).await.status == 200
            })
            .await;
        }
    }
    t
}

/// Decides the match `gid` for `winner` against `loser`: in every game of it, `plies`
/// real moves (each by the player to move) and then the loser resigns. Each request goes to
/// one of `bases` in turn (several instances).
pub async fn decide(
    bases: &[String],
    gid: &str,
    p: &Players,
    loser: &str,
    winner: &str,
    plies: usize,
) {
    // One instance per match (chosen by its id, so matches spread over the instances): a
    // player's page talks to one instance, and another instance's copy of the game may be
    // a moment behind.
    let k = gid.bytes().map(usize::from).sum::<usize>() % bases.len();
    let next_base = || bases[k].clone();
    let lc = &p.cookie[loser];
    let wc = &p.cookie[winner];
    for _ in 0..5 {
        let b = next_base();
        let st = game_json(&b, gid, Some(lc)).await;
        if st["match"]["over"] == true {
            return;
        }
        let my_side = st["you"]
            .as_str()
            .expect("the loser holds a seat")
            .to_string();
        for _ in 0..plies {
            let b = next_base();
            let st = game_json(&b, gid, Some(lc)).await;
            let c = if st["side_to_move"] == my_side.as_str() {
                lc
            } else {
                wc
            };
            let ply = st["ply"].as_u64().unwrap();
            let r = post(
                &b,
                &format!("/api/games/{gid}/moves"),
                json!({"move": first_legal(&st), "ply": ply}),
                Some(c),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
        let b = next_base();
        let st = game_json(&b, gid, Some(lc)).await;
        let r = post(
            &b,
            &format!("/api/games/{gid}/resign"),
            json!({"game_no": st["match"]["game_no"], "ply": st["ply"]}),
            Some(lc),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let st = game_json(&bases[k], gid, Some(lc)).await;
    assert_eq!(st["match"]["over"], true, "match {gid} not over");
}

/// The players as registered (the order `GET` lists them in), each rated 1500 as a new
/// account is: the seeds are then the registration order.
fn bao_players(t: &Value) -> Vec<Player> {
    t["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| Player::rated(p["username"].as_str().unwrap(), 1500))
        .collect()
}

/// The test's choice of winner of a game: varied by round and board so that the standings
/// need their tie-breaks.
fn south_wins(round: usize, board: usize) -> bool {
    (round * 3 + board) % 4 != 1
}

/// The server's standings must be bao-tournament's for the same results.
fn assert_standings(t: &Value, want: &[Standing], players: &[Player]) {
    let got = t["standings"].as_array().unwrap();
    assert_eq!(got.len(), want.len(), "{t}");
    for (g, w) in got.iter().zip(want) {
        assert_eq!(g["rank"], w.rank, "{g} v {w:?}");
        assert_eq!(
            g["player"],
            players[w.player.0].name.as_str(),
            "{g} v {w:?}"
        );
        assert_eq!(g["points"].as_f64().unwrap(), w.points, "{g} v {w:?}");
        for (tb, x) in &w.tiebreaks {
            assert_eq!(
                g["tiebreaks"][tb.name()].as_f64().unwrap(),
                *x,
                "{g} v {w:?}"
            );
        }
    }
}

/// A whole round robin or Swiss of 8 over HTTP: each round's pairings as bao-tournament
/// pairs them, the games decided by the players, the final standings bao-tournament's.
/// Returns the tournament id.
pub async fn whole_table(bases: &[String], format: Value, p: &Players) -> String {
    let b = &bases[0];
    let id = create_join_start(b, p, json!({"format": format, "max_players": 8})).await;
    let t = wait_round(b, &id, 1).await;
    let players = bao_players(&t);
    let fmt = match format["kind"].as_str().unwrap() {
        "swiss" => Format::Swiss {
            rounds: format["rounds"].as_u64().unwrap() as usize,
        },
        _ => Format::RoundRobin {
            double: format["double"] == true,
        },
    };
    let mut want = Tournament::new(fmt, players.clone()).unwrap();
    let total = want.total_rounds();
    let name = |i: PlayerId| players[i.0].name.clone();
    for r in 1..=total {
        let t = wait_round(b, &id, r).await;
        let expected = want.pair_next_round().unwrap().clone();
        let got = t["rounds"][r - 1]["pairings"].as_array().unwrap().clone();
        assert_eq!(got.len(), expected.pairings.len(), "round {r}: {got:?}");
        for (board, (g, e)) in got.iter().zip(&expected.pairings).enumerate() {
            assert_eq!(
                (g["S"].as_str().unwrap(), g["N"].as_str().unwrap()),
                (name(e.south).as_str(), name(e.north).as_str()),
                "round {r} board {board}"
            );
            let south = south_wins(r, board);
            let (w, l) = if south {
                (e.south, e.north)
            } else {
                (e.north, e.south)
            };
            let gid = g["game"].as_str().unwrap();
            decide(bases, gid, p, &name(l), &name(w), board % 3).await;
            let res = if south {
                GameResult::SouthWins
            } else {
                GameResult::NorthWins
            };
            want.record(r, *e, res).unwrap();
        }
    }
    let t = wait_t(b, &id, |t| t["status"] == "finished").await;
    assert_eq!(t["round"], total);
    for (r, round) in t["rounds"].as_array().unwrap().iter().enumerate() {
        for (board, g) in round["pairings"].as_array().unwrap().iter().enumerate() {
            let want_r = if south_wins(r + 1, board) { "S" } else { "N" };
            assert_eq!(g["result"], want_r, "round {} board {board}", r + 1);
        }
    }
    assert_standings(&t, &want.standings(), &players);
    let keys: Vec<&str> = t["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["key"].as_str().unwrap())
        .collect();
    let want_keys: Vec<&str> = fmt.tiebreaks().iter().map(|x| x.name()).collect();
    assert_eq!(keys, want_keys);
    assert!(t["tiebreaks"][0]["explain"].as_str().unwrap().len() > 20);
    id
}

/// A whole knockout of 8 with a third-place match: best-of-three matches (each one server
/// game), decided two games to nil by resignations after real moves.
pub async fn whole_knockout(url: &str) {
    let s = server(url).lifecycle(quick()).start().await;
    let b = base(&s);
    let p = players(&b, 8).await;
    let id = create_join_start(
        &b,
        &p,
        json!({"format": {"kind": "knockout", "third_place": true},
                                              "max_players": 8}),
    )
    .await;
    let t = wait_round(&b, &id, 1).await;
    let players = bao_players(&t);
    let name = |i: PlayerId| players[i.0].name.clone();
    let mut k = Knockout::new(&players, true).unwrap();
    for r in 1..=3 {
        let t = wait_round(&b, &id, r).await;
        let ready: Vec<_> = k.ready().into_iter().filter(|m| m.round == r).collect();
        let got = t["rounds"][r - 1]["pairings"].as_array().unwrap().clone();
        assert_eq!(got.len(), ready.len(), "round {r}: {got:?}");
        for (g, m) in got.iter().zip(&ready) {
            let (u, l) = (m.upper.unwrap(), m.lower.unwrap());
            assert_eq!(
                (g["S"].as_str().unwrap(), g["N"].as_str().unwrap()),
                (name(u).as_str(), name(l).as_str()),
                "round {r}"
            );
            // The lower entrant wins match 2 of each round, the upper the others.
            let (w, lo) = if m.number == 2 { (l, u) } else { (u, l) };
            decide(
                std::slice::from_ref(&b),
                g["game"].as_str().unwrap(),
                &p,
                &name(lo),
                &name(w),
                2,
            )
            .await;
            k.record(r, m.number, w).unwrap();
        }
    }
    assert!(k.is_finished());
    let t = wait_t(&b, &id, |t| t["status"] == "finished").await;
    assert_standings(&t, &k.standings(), &players);
    let ko = &t["knockout"]["rounds"];
    assert_eq!(ko.as_array().unwrap().len(), 3);
    assert_eq!(ko[2][0]["winner"], name(k.champion().unwrap()).as_str());
    assert_eq!(ko[2][1]["third_place"], true);
    // Each match was one server game of up to three (BRD-8).
    let g = ko[0][0]["games"][0]["game"].as_str().unwrap();
    let st = game_json(&b, g, None).await;
    assert_eq!(st["match"]["format"], "best_of_three");

    // Three players: seed 1 has a bye into the final (told as round 1's bye), no third place.
    let three = Players {
        names: p.names[..3].to_vec(),
        cookie: p.cookie.clone(),
    };
    let id = create_join_start(
        &b,
        &three,
        json!({"format": {"kind": "knockout", "third_place": true}, "max_players": 3}),
    )
    .await;
    let t = wait_round(&b, &id, 1).await;
    let players = bao_players(&t);
    let mut k = Knockout::new(&players, true).unwrap();
    assert_eq!(t["rounds"][0]["byes"], json!([players[k.seeds[0].0].name]));
    for r in 1..=2 {
        let t = wait_round(&b, &id, r).await;
        let m = k.ready().into_iter().find(|m| m.round == r).unwrap();
        let g = &t["rounds"][r - 1]["pairings"][0];
        assert_eq!(t["rounds"][r - 1]["pairings"].as_array().unwrap().len(), 1);
        let (u, l) = (m.upper.unwrap(), m.lower.unwrap());
        assert_eq!(g["S"], players[u.0].name.as_str());
        assert_eq!(g["N"], players[l.0].name.as_str());
        decide(
            std::slice::from_ref(&b),
            g["game"].as_str().unwrap(),
            &p,
            &players[u.0].name,
            &players[l.0].name,
            1,
        )
        .await;
        k.record(r, m.number, l).unwrap();
    }
    let t = wait_t(&b, &id, |t| t["status"] == "finished").await;
    assert_standings(&t, &k.standings(), &players);
    assert!(
        t["knockout"]["rounds"][0][0]["b"].is_null()
            || t["knockout"]["rounds"][0][1]["b"].is_null()
    );
    s.stop().await;
}

/// A round's game names its tournament and round (GameState `event`, docs/api.md) for its
/// players and for spectators, as the server keeps it and as the store reads it back; a game
/// on its own names none. A double round robin of two: the same players in rounds 1 and 2.
pub async fn games_name_their_tournament(url: &str) {
    let s = server(url).lifecycle(quick()).start().await;
    let b = base(&s);
    let p = players(&b, 2).await;
    let name = "Kombe la Pwani";
    let id = create_join_start(
        &b,
        &p,
        json!({"name": name, "format": {"kind": "round_robin", "double": true}, "max_players": 2}),
    )
    .await;
    for r in 1..=2usize {
        let t = wait_round(&b, &id, r).await;
        let g = &t["rounds"][r - 1]["pairings"][0];
        let gid = g["game"].as_str().unwrap();
        let want = json!({"kind": "tournament", "id": id, "name": name, "round": r,
                          "url": format!("/t/{id}")});
        for who in [Some(p.cookie[&p.names[0]].as_str()), None] {
            let st = game_json(&b, gid, who).await;
            assert_eq!(st["event"], want, "round {r}, {who:?}: {st}");
        }
        // What another instance (or this one after a restart) reads from the database.
        let m = s.app.games.store.load(gid).await.unwrap().unwrap();
        let view = m.state(None, [false, false], None, 0).event.unwrap();
        assert_eq!(
            (view.kind, view.id.as_str(), view.name.as_str(), view.round),
            ("tournament", id.as_str(), name, Some(r as u32))
        );
        assert_eq!(view.url, format!("/t/{id}"));
        let (sn, nn) = (g["S"].as_str().unwrap(), g["N"].as_str().unwrap());
        decide(std::slice::from_ref(&b), gid, &p, nn, sn, 1).await;
    }
    // A game on its own has no event.
    let a = post(
        &b,
        "/api/games",
        json!({"variant": "kete", "rules": "-", "opponent": {"kind": "human"}, "side": "S",
               "match": "single_game", "name": "Asha"}),
        None,
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let st = game_json(&b, a.json["id"].as_str().unwrap(), None).await;
    assert!(st["event"].is_null(), "{st}");
    s.stop().await;
}

/// A round robin of 8 (and its exports) and a Swiss of 8 on one server.
pub async fn whole_round_robin_and_swiss(url: &str) {
    let s = server(url).lifecycle(quick()).start().await;
    let b = base(&s);
    let p = players(&b, 8).await;
    let mut alerts = s.app.games.alerts.subscribe();
    let id = whole_table(std::slice::from_ref(&b), json!({"kind": "round_robin"}), &p).await;
    // Every player heard of round 1 (and of each later round).
    let mut round1 = 0;
    while let Ok(a) = alerts.try_recv() {
        if let AlertKind::TournamentRound {
            tournament,
            round: 1,
            game,
            ..
        } = &a.kind
        {
            assert_eq!(tournament, &id);
            assert!(game.is_some());
            round1 += 1;
        }
    }
    assert_eq!(round1, 8);
    exports(&b, &id, 28).await;
    whole_table(
        std::slice::from_ref(&b),
        json!({"kind": "swiss", "rounds": 3}),
        &p,
    )
    .await;
    s.stop().await;
}

/// The standings CSV and games.txt of a finished tournament of `games` single games.
pub async fn exports(b: &str, id: &str, games: usize) {
    let t = tournament_json(b, id, None).await;
    let csv = get(b, &format!("/api/tournaments/{id}/standings.csv"), None).await;
    assert_eq!(csv.status, 200);
    assert!(csv.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/csv"));
    let lines: Vec<&str> = csv.text.lines().collect();
    assert_eq!(lines[0], "rank,player,points,DE,SB");
    assert_eq!(lines.len(), 9, "{}", csv.text);
    let first = &t["standings"][0];
    assert!(
        lines[1].starts_with(&format!("1,{},", first["player"].as_str().unwrap())),
        "{}",
        lines[1]
    );
    let txt = get(b, &format!("/api/tournaments/{id}/games.txt"), None).await;
    assert_eq!(txt.status, 200);
    // What `bao record validate` does: parse every record, then replay it by the rules.
    let records = bao_rules::parse_records_bytes(txt.text.as_bytes()).expect("a records file");
    assert_eq!(records.len(), games);
    for r in &records {
        r.validate().expect("a valid record");
        assert_ne!(r.result.token(), "*");
    }
}

/// A player who never makes a first move loses by forfeit once the forfeit time has passed.
pub async fn forfeit_after_time(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).lifecycle(quick()).start().await;
    let b = base(&s);
    let p = players(&b, 2).await;
    let id = create_join_start(
        &b,
        &p,
        json!({"format": {"kind": "round_robin"},
                                              "forfeit_after_ms": 1000, "max_players": 2}),
    )
    .await;
    let t = wait_round(&b, &id, 1).await;
    let g = &t["rounds"][0]["pairings"][0];
    assert!(g["result"].is_null());
    // Nobody moves: South, to move, forfeits once the time has passed.
    clock.advance(Duration::from_millis(1000));
    let t = wait_t(&b, &id, |t| t["status"] == "finished").await;
    let g = &t["rounds"][0]["pairings"][0];
    assert_eq!(g["result"], "N");
    assert_eq!(g["termination"], "forfeit");
    let north = g["N"].as_str().unwrap();
    assert_eq!(t["standings"][0]["player"], north);
    assert_eq!(t["standings"][0]["points"], 1);
    let st = game_json(&b, g["game"].as_str().unwrap(), None).await;
    assert_eq!(st["termination"], "abandoned");
    assert_eq!(st["moves"], json!([]));
    let text = st["match"]["games"][0]["result_text"].as_str().unwrap();
    assert!(text.contains("forfeit"), "{text}");
    // Typed for the pages (docs/api.md, "Endings"), told apart from an abandoned game.
    let forfeit = json!({"reason": "forfeit", "winner": "N"});
    assert_eq!(st["ending"], forfeit, "{st}");
    assert_eq!(st["match"]["games"][0]["ending"], forfeit, "{st}");
    // South moves, North never does: North forfeits.
    let id = create_join_start(
        &b,
        &p,
        json!({"format": {"kind": "round_robin"}, "forfeit_after_ms": 4000, "max_players": 2}),
    )
    .await;
    let t = wait_round(&b, &id, 1).await;
    let g = &t["rounds"][0]["pairings"][0];
    let (gid, south) = (g["game"].as_str().unwrap(), g["S"].as_str().unwrap());
    let st = game_json(&b, gid, Some(&p.cookie[south])).await;
    let r = post(
        &b,
        &format!("/api/games/{gid}/moves"),
        json!({"move": first_legal(&st), "ply": 0}),
        Some(&p.cookie[south]),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    clock.advance(Duration::from_millis(4000));
    let t = wait_t(&b, &id, |t| t["status"] == "finished").await;
    let g = &t["rounds"][0]["pairings"][0];
    assert_eq!(
        (g["result"].as_str(), g["termination"].as_str()),
        (Some("S"), Some("forfeit"))
    );
    let st = game_json(&b, gid, None).await;
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);

    // Withdrawn before a round robin's later round: that game is forfeited without a game.
    let p3 = players(&b, 3).await;
    let id = create_join_start(
        &b,
        &p3,
        json!({"format": {"kind": "round_robin"},
                                               "max_players": 3}),
    )
    .await;
    let t = wait_round(&b, &id, 1).await;
    let bye = t["rounds"][0]["byes"][0].as_str().unwrap().to_string();
    let w = act(&b, &id, "withdraw", Some(&p3.cookie[&bye])).await;
    assert_eq!(w.status, 200, "{}", w.text);
    first_board_to_south(&b, &t, &p3, 1).await;
    let t = wait_t(&b, &id, |t| t["status"] == "finished").await;
    let all: Vec<&Value> = t["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|r| r["pairings"].as_array().unwrap())
        .collect();
    let by_withdrawn: Vec<&&Value> = all
        .iter()
        .filter(|g| g["S"] == bye.as_str() || g["N"] == bye.as_str())
        .collect();
    assert_eq!(by_withdrawn.len(), 2);
    for g in by_withdrawn {
        assert!(g["game"].is_null());
        assert_eq!(g["termination"], "forfeit");
        let winner = if g["S"] == bye.as_str() { "N" } else { "S" };
        assert_eq!(g["result"], winner);
    }
    assert!(t["players"]
        .as_array()
        .unwrap()
        .iter()
        .any(|x| x["username"] == bye.as_str() && x["withdrawn"] == true));
    s.stop().await;
}

/// Refusals: who may do what, the code of a private tournament, bounds.
pub async fn hostile(url: &str) {
    let s = server(url).lifecycle(quick()).start().await;
    let b = base(&s);
    let p = players(&b, 3).await;
    let (org, other, third) = (
        &p.cookie[&p.names[0]],
        &p.cookie[&p.names[1]],
        &p.cookie[&p.names[2]],
    );
    // Signed out: no tournament.
    assert_eq!(create_t(&b, None, json!({})).await.status, 401);
    for (extra, why) in [
        (json!({"name": "x".repeat(81)}), "name"),
        (json!({"name": "   "}), "name"),
        (json!({"max_players": 257}), "max_players"),
        (json!({"max_players": 1}), "max_players"),
        (json!({"format": {"kind": "swiss", "rounds": 21}}), "rounds"),
        (json!({"format": {"kind": "swiss", "rounds": 0}}), "rounds"),
        (
            json!({"format": {"kind": "round_robin"}, "max_players": 21}),
            "round robin",
        ),
        (json!({"format": {"kind": "ladder"}}), "format"),
        (json!({"clock": null}), "clock"),
        (
            json!({"clock": {"initial_ms": -5, "increment_ms": 0}}),
            "clock",
        ),
        (json!({"starts_at": 1}), "starts_at"),
        (json!({"bye_points": 2}), "bye_points"),
        (json!({"forfeit_after_ms": 10}), "forfeit_after_ms"),
        (
            json!({"clock": {"days_per_move": 3}, "forfeit_after_ms": 60000}),
            "forfeit_after_ms",
        ),
        (json!({"variant": "chess"}), "variant"),
        (json!({"rules": "r".repeat(300)}), "rules"),
    ] {
        let a = create_t(&b, Some(org), extra.clone()).await;
        assert_eq!(a.status, 400, "{extra}: {}", a.text);
        assert!(
            a.json["message"].as_str().unwrap().contains(why)
                || why == "clock"
                || why == "variant"
                || why == "round robin",
            "{extra}: {}",
            a.text
        );
    }
    // A private tournament: not listed, joined only with its code.
    let a = create_t(&b, Some(org), json!({"private": true, "max_players": 2})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let code = a.json["code"].as_str().unwrap().to_string();
    let list = get(&b, "/api/tournaments?status=upcoming", None).await;
    assert!(!list.text.contains(&id));
    let j = |c: &str, body: Value| {
        let (b, id, c) = (b.clone(), id.clone(), c.to_string());
        async move { post(&b, &format!("/api/tournaments/{id}/join"), body, Some(&c)).await }
    };
    let r = act(&b, &id, "join", None).await;
    assert_eq!(r.status, 401);
    let r = j(other, json!({})).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("needs_code")),
        "{}",
        r.text
    );
    let r = j(other, json!({"code": "wrong"})).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("needs_code"))
    );
    assert_eq!(j(other, json!({"code": code})).await.status, 200);
    // Joining twice changes nothing.
    assert_eq!(j(other, json!({"code": code})).await.status, 200);
    assert_eq!(j(org, json!({"code": code})).await.status, 200);
    let r = j(third, json!({"code": code})).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("full")),
        "{}",
        r.text
    );
    // Only the organiser starts, pauses, removes.
    for what in ["start", "pause", "resume"] {
        let r = act(&b, &id, what, Some(other)).await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (403, Some("not_organiser")),
            "{what}"
        );
    }
    let r = post(
        &b,
        &format!("/api/tournaments/{id}/remove"),
        json!({"username": p.names[0]}),
        Some(other),
    )
    .await;
    assert_eq!(r.status, 403);
    let r = act(&b, &id, "start", None).await;
    assert_eq!(r.status, 401);
    let r = act(&b, &id, "start", Some(org)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = act(&b, &id, "start", Some(org)).await;
    assert_eq!(r.status, 409);
    // Joining after the start.
    let r = j(third, json!({"code": code})).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("started")),
        "{}",
        r.text
    );
    // The organiser pauses: the round's result is taken, the next round waits for resume.
    let r = act(&b, &id, "pause", Some(org)).await;
    assert_eq!(r.json["status"], "paused", "{}", r.text);
    let t = wait_round(&b, &id, 1).await;
    first_board_to_south(&b, &t, &p, 0).await;
    wait_t(&b, &id, |t| t["rounds"][0]["pairings"][0]["result"] == "S").await;
    bao_server::features::tournaments::run::advance(&s.app.games, &id)
        .await
        .unwrap();
    let t = tournament_json(&b, &id, None).await;
    assert_eq!(
        (t["status"].as_str(), t["round"].as_u64()),
        (Some("paused"), Some(1))
    );
    let r = act(&b, &id, "resume", Some(org)).await;
    assert_eq!(r.json["status"], "running", "{}", r.text);
    wait_round(&b, &id, 2).await;
    // Too few players to start; removal before the start.
    let a = create_t(&b, Some(org), json!({})).await;
    let id2 = a.json["id"].as_str().unwrap().to_string();
    assert_eq!(act(&b, &id2, "join", Some(other)).await.status, 200);
    let r = act(&b, &id2, "start", Some(org)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("too_few_players"))
    );
    let r = post(
        &b,
        &format!("/api/tournaments/{id2}/remove"),
        json!({"username": p.names[1]}),
        Some(org),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let t = tournament_json(&b, &id2, Some(org)).await;
    assert_eq!(t["players"].as_array().unwrap().len(), 0);
    assert_eq!(t["you"], json!({"joined": false, "organiser": true}));
    // The public one is listed; unknown ids and bad queries.
    let list = get(&b, "/api/tournaments?status=upcoming&limit=1", None).await;
    assert_eq!(
        list.json["tournaments"][0]["id"],
        id2.as_str(),
        "{}",
        list.text
    );
    assert_eq!(
        get(&b, "/api/tournaments?status=soon", None).await.status,
        400
    );
    assert_eq!(
        get(&b, "/api/tournaments/nonexisten", None).await.status,
        404
    );
    assert_eq!(
        get(&b, "/api/tournaments/../../etc", None).await.status,
        404
    );
    s.stop().await;
}

/// A live Swiss of 8 on two instances sharing one PostgreSQL: both run the sweep and the
/// observer, games are played through either; each round is paired once and each game made
/// once.
pub async fn swiss_on_two_instances(url: &str) {
    let (a, b2) = server(url).lifecycle(quick()).start_two().await;
    let bases = vec![base(&a), base(&b2)];
    let p = players(&bases[0], 8).await;
    let id = whole_table(&bases, json!({"kind": "swiss", "rounds": 3}), &p).await;
    // Both instances bring it up to date at once: nothing changes.
    let (x, y) = tokio::join!(
        bao_server::features::tournaments::run::advance(&a.app.games, &id),
        bao_server::features::tournaments::run::advance(&b2.app.games, &id)
    );
    x.unwrap();
    y.unwrap();
    let store = &a.app.store;
    assert_eq!(store.tournament_rounds(&id).await.unwrap().len(), 3);
    let games = store.tournament_games(&id).await.unwrap();
    assert_eq!(games.len(), 12);
    // Each player has exactly three games on the server: no round's games made twice.
    for n in &p.names {
        let acct = account_id(&a, n).await;
        let (rows, _) = store.account_games(&acct, None, 50).await.unwrap();
        assert_eq!(rows.len(), 3, "{n}");
    }
    a.stop().await;
    b2.stop().await;
}

/// A tournament starts by itself at `starts_at` (or is cancelled with fewer than two
/// players), and a round paired by an instance that stopped before making its games gets
/// them from the sweep, under the ids chosen at pairing.
pub async fn starts_by_itself_and_missing_games_are_made(url: &str) {
    let s = server(url).lifecycle(quick()).start().await;
    let b = base(&s);
    let p = players(&b, 2).await;
    let soon = bao_server::util::now_ms() + 1500;
    let org = &p.cookie[&p.names[0]];
    let a = create_t(&b, Some(org), json!({"starts_at": soon})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let lonely = create_t(&b, Some(org), json!({"starts_at": soon})).await;
    let lonely = lonely.json["id"].as_str().unwrap().to_string();
    join_all(&b, &id, &p).await;
    let j = act(&b, &lonely, "join", Some(org)).await;
    assert_eq!(j.status, 200, "{}", j.text);
    let t = tournament_json(&b, &id, None).await;
    assert_eq!(t["status"], "open");
    let t = wait_round(&b, &id, 1).await;
    assert_eq!(t["status"], "running");
    assert!(bao_server::util::now_ms() >= soon);
    wait_t(&b, &lonely, |t| t["status"] == "cancelled").await;

    // An instance paired round 1 (its row and games committed) and stopped before making
    // the game: the safety sweep (run here at once; it runs every minute) makes it under the
    // chosen id.
    let a = create_t(&b, Some(org), json!({"format": {"kind": "round_robin"}})).await;
    let id = a.json["id"].as_str().unwrap().to_string();
    for n in &p.names {
        act(&b, &id, "join", Some(&p.cookie[n])).await;
    }
    let store = &s.app.store;
    let mut accts = Vec::new();
    for n in &p.names {
        accts.push(account_id(&s, n).await);
    }
    let gid = bao_server::util::new_game_id();
    let round = bao_server::store::RoundRow {
        round_no: 1,
        started: bao_server::util::now_ms(),
        byes: vec![],
    };
    let game = bao_server::store::TGameRow {
        round_no: 1,
        board: 1,
        game_id: Some(gid.clone()),
        south: accts[1].clone(),
        north: accts[0].clone(),
        result: None,
        termination: None,
        team_match: None,
        halves: None,
    };
    assert!(store
        .insert_tournament_round(&id, &round, std::slice::from_ref(&game), &[])
        .await
        .unwrap());
    // A second claim of the same round is refused: nothing is written.
    assert!(!store
        .insert_tournament_round(&id, &round, &[game], &[])
        .await
        .unwrap());
    assert!(store
        .set_tournament_status(&id, "open", "running", round.started)
        .await
        .unwrap());
    assert!(!store
        .set_tournament_status(&id, "open", "running", round.started)
        .await
        .unwrap());
    bao_server::features::tournaments::run::sweep(&s.app.games)
        .await
        .unwrap();
    let t = wait_round(&b, &id, 1).await;
    assert_eq!(t["rounds"][0]["pairings"][0]["game"], gid.as_str());
    let st = game_json(&b, &gid, None).await;
    assert_eq!(st["players"]["S"]["name"], p.names[1].as_str());
    assert_eq!(st["players"]["N"]["name"], p.names[0].as_str());
    assert_eq!(store.tournament_rounds(&id).await.unwrap().len(), 1);
    s.stop().await;
}

/// An organiser forbids a pairing in a Swiss (a club, a family): the server's round 1 is
/// bao-tournament's pairing with that pair forbidden, and differs from the one without it.
/// Only the organiser may forbid, only in a Swiss, only registered players; only the
/// organiser sees the list.
pub async fn forbidden_pairing(url: &str) {
    let s = server(url).lifecycle(quick()).start().await;
    let b = &base(&s);
    let p = players(b, 6).await;
    let org = &p.cookie[&p.names[0]];
    let a = create_t(
        b,
        Some(org),
        json!({"format": {"kind": "swiss", "rounds": 3}}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    join_all(b, &id, &p).await;
    let t = tournament_json(b, &id, None).await;
    let players = bao_players(&t);
    let plain = Tournament::new(Format::Swiss { rounds: 3 }, players.clone())
        .unwrap()
        .pair_next_round()
        .unwrap()
        .clone();
    // Forbid the first board bao-tournament would pair without the rule.
    let first = &plain.pairings[0];
    let (fa, fb) = (&players[first.south.0].name, &players[first.north.0].name);
    let path = format!("/api/tournaments/{id}/forbid");
    let not_org = post(
        b,
        &path,
        json!({"a": fa, "b": fb}),
        Some(&p.cookie[&p.names[1]]),
    )
    .await;
    assert_eq!(not_org.status, 403, "{}", not_org.text);
    let stranger = post(b, &path, json!({"a": fa, "b": "nobody_here"}), Some(org)).await;
    assert_eq!(stranger.status, 409, "{}", stranger.text);
    let same = post(b, &path, json!({"a": fa, "b": fa}), Some(org)).await;
    assert_eq!(same.status, 400, "{}", same.text);
    let ok = post(b, &path, json!({"a": fa, "b": fb}), Some(org)).await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    // A pairing forbidden and allowed again is gone; forbidden again, it holds.
    let allow = format!("/api/tournaments/{id}/allow");
    assert_eq!(
        post(b, &allow, json!({"a": fb, "b": fa}), Some(org))
            .await
            .status,
        200
    );
    let seen = tournament_json(b, &id, Some(org)).await;
    assert_eq!(seen["forbidden"], json!([]), "{seen}");
    assert_eq!(
        post(b, &path, json!({"a": fb, "b": fa}), Some(org))
            .await
            .status,
        200
    );
    let seen = tournament_json(b, &id, Some(org)).await;
    assert_eq!(seen["forbidden"].as_array().unwrap().len(), 1, "{seen}");
    let other = tournament_json(b, &id, Some(&p.cookie[fb])).await;
    assert!(
        other.get("forbidden").is_none(),
        "only the organiser sees it: {other}"
    );
    let st = act(b, &id, "start", Some(org)).await;
    assert_eq!(st.status, 200, "{}", st.text);
    let t = wait_round(b, &id, 1).await;
    // The players as the started tournament lists them (its seeding order).
    let players = bao_players(&t);
    let id_of = |n: &str| PlayerId(players.iter().position(|p| p.name == n).unwrap());
    let (ia, ib) = (id_of(fa), id_of(fb));
    let plain = Tournament::new(Format::Swiss { rounds: 3 }, players.clone())
        .unwrap()
        .pair_next_round()
        .unwrap()
        .clone();
    assert!(
        plain
            .pairings
            .iter()
            .any(|e| (e.south, e.north) == (ia, ib) || (e.south, e.north) == (ib, ia)),
        "without the rule the pair would meet in round 1"
    );
    let mut want = Tournament::new(Format::Swiss { rounds: 3 }, players.clone()).unwrap();
    want.forbid(ia, ib).unwrap();
    let expected = want.pair_next_round().unwrap().clone();
    let name = |i: PlayerId| players[i.0].name.as_str();
    let got: Vec<(String, String)> = t["rounds"][0]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            (
                g["S"].as_str().unwrap().to_string(),
                g["N"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let wanted: Vec<(String, String)> = expected
        .pairings
        .iter()
        .map(|e| (name(e.south).to_string(), name(e.north).to_string()))
        .collect();
    assert_eq!(got, wanted);
    assert!(
        !got.iter()
            .any(|(s, n)| (s == fa && n == fb) || (s == fb && n == fa)),
        "the forbidden pair met: {got:?}"
    );
    // A round robin has no pairing to forbid.
    let rr = create_t(
        b,
        Some(org),
        json!({"format": {"kind": "round_robin", "double": false}}),
    )
    .await;
    let rid = rr.json["id"].as_str().unwrap();
    let no = post(
        b,
        &format!("/api/tournaments/{rid}/forbid"),
        json!({"a": fa, "b": fb}),
        Some(org),
    )
    .await;
    assert_eq!(no.status, 400, "{}", no.text);
    s.stop().await;
}

/// A rated tournament's games are rated like any rated game: a round robin of two, the one
/// game won by South; both players' ratings move by bao-rating's own numbers, once, and the
/// game and the profiles show it.
pub async fn rated_tournament(url: &str) {
    let s = server(url).lifecycle(quick()).start().await;
    let b = &base(&s);
    let p = players(b, 2).await;
    let id = create_join_start(
        b,
        &p,
        json!({"rated": true, "format": {"kind": "round_robin", "double": false}}),
    )
    .await;
    let t = wait_round(b, &id, 1).await;
    assert_eq!(t["rated"], true, "{t}");
    let g = &t["rounds"][0]["pairings"][0];
    let (south, north) = (g["S"].as_str().unwrap(), g["N"].as_str().unwrap());
    let gid = g["game"].as_str().unwrap();
    assert_eq!(game_json(b, gid, None).await["rated"], true);
    decide(&[b.to_string()], gid, &p, north, south, 2).await;
    let st = super::ratings::wait_rated(&Client::new(&s), gid).await;
    let want = super::ratings::first_game_change();
    assert_eq!(
        st["rating_change"],
        json!({"S": want[0], "N": want[1]}),
        "{st}"
    );
    for (name, d) in [(south, want[0]), (north, want[1])] {
        let pr = super::ratings::profile(b, name).await;
        assert_eq!(pr.json["ratings"]["kete"]["games"], 1, "{}", pr.text);
        assert_eq!(
            pr.json["ratings"]["kete"]["rating"],
            1500 + d,
            "{}",
            pr.text
        );
    }
    let done = wait_t(b, &id, |t| t["status"] == "finished").await;
    assert_eq!(done["standings"][0]["player"], south, "{done}");
    assert_eq!(s.app.store.history_of_game(gid).await.unwrap().len(), 2);
    s.stop().await;
}
