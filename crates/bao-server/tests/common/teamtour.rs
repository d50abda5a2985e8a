//! Team tournament tests (docs/api.md, "Team tournaments") over real HTTP, on SQLite
//! (tests/teamtour_sqlite.rs) and PostgreSQL (tests/teamtour_postgres.rs) with the same code.
//! Clubs enter through their leaders, every pairing is a team match whose lineups the test
//! sets and whose games it decides (resignations); the match points (2 / 1 / 0) and board
//! points of the standings are the test's own sums, checked after every round. Each hostile
//! case reads back what the refused request would have changed.

use super::accounts::{base, get, post};
use super::clubs::{act as club_act, new_club};
use super::ratings::account;
use super::teams::{team_match, tm, wait_match};
use super::tournaments::quick;
use super::*;
use serde_json::json;
use std::collections::HashMap;

/// A club of the tournament: its id, name, leader (name, cookie) and members who play.
pub struct Club {
    pub id: String,
    pub name: String,
    pub leader: (String, String),
    pub members: Vec<(String, String)>,
}

/// `n` open clubs on `b`, each with a leader and `members` members besides.
pub async fn clubs(b: &str, n: usize, members: usize) -> Vec<Club> {
    let mut out = Vec::new();
    for i in 0..n {
        let leader = account(b, &format!("Kiongozi{i}")).await;
        let name = format!("Klabu ya Bao {i}");
        let id = new_club(b, &leader.1, &name, "Unguja", true).await;
        let mut ms = Vec::new();
        for j in 0..members {
            let m = account(b, &format!("Mcheza{i}x{j}")).await;
            let r = club_act(b, &id, "join", json!({}), Some(&m.1)).await;
            assert_eq!(r.status, 200, "{}", r.text);
            ms.push(m);
        }
        out.push(Club {
            id,
            name,
            leader,
            members: ms,
        });
    }
    out
}

/// The body of a team round robin of `boards` boards for `max` clubs.
pub fn team_round_robin(boards: Value, max: i64) -> Value {
    json!({"name": "Kombe la Vilabu", "variant": "kete",
           "format": {"kind": "round_robin"},
           "clock": {"initial_ms": 600000, "increment_ms": 0},
           "max_players": max, "teams": {"boards": boards}})
}

/// `POST /api/tournaments/{id}/{what}` with `body` as `cookie`.
pub async fn tact(b: &str, id: &str, what: &str, body: Value, cookie: &str) -> Answer {
    post(
        b,
        &format!("/api/tournaments/{id}/{what}"),
        body,
        Some(cookie),
    )
    .await
}

/// `GET /api/tournaments/{id}`.
pub async fn tournament(b: &str, id: &str) -> Value {
    let a = get(b, &format!("/api/tournaments/{id}"), None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json
}

/// A team tournament made by `cookie`: its id.
pub async fn made(b: &str, body: Value, cookie: &str) -> String {
    let r = post(b, "/api/tournaments", body, Some(cookie)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    r.json["id"].as_str().unwrap().to_string()
}

/// Each club's leader enters it.
pub async fn enter_all(b: &str, id: &str, cs: &[Club]) {
    for c in cs {
        let r = tact(b, id, "join", json!({"club": c.id}), &c.leader.1).await;
        assert_eq!(r.status, 200, "{}", r.text);
        assert_eq!(r.json["joined"], true);
    }
}

/// What a board comes to: the loser of its game resigns, by side; or neither club names a
/// player for it (it counts for nobody; a pairing's boards are all `Nobody` or none is).
#[derive(Clone, Copy, PartialEq)]
enum Board {
    HomeWins,
    AwayWins,
    Nobody,
}

/// The board points of a pairing's boards: (home, away).
fn board_points(boards: &[Board]) -> (f64, f64) {
    let h = boards.iter().filter(|b| **b == Board::HomeWins).count() as f64;
    let a = boards.iter().filter(|b| **b == Board::AwayWins).count() as f64;
    (h, a)
}

/// The pairing's result (`S` home, `N` away, `draw`) and, for a level knockout match, how
/// it was decided (docs/api.md, "Team tournaments"): the club that won the first board not
/// drawn, else the upper entrant (South, the higher seed).
fn pairing_result(boards: &[Board], knockout: bool) -> (&'static str, Option<&'static str>) {
    let (h, a) = board_points(boards);
    match h.total_cmp(&a) {
        std::cmp::Ordering::Greater => ("S", None),
        std::cmp::Ordering::Less => ("N", None),
        std::cmp::Ordering::Equal if !knockout => ("draw", None),
        std::cmp::Ordering::Equal => match boards.iter().find(|b| **b != Board::Nobody) {
            Some(Board::HomeWins) => ("S", Some("first_board")),
            Some(Board::AwayWins) => ("N", Some("first_board")),
            _ => ("S", Some("seed")),
        },
    }
}

/// Plays round `no` of tournament `id` (its pairings read from `bases[0]`): each pairing's
/// lineups set by the clubs' leaders (their first `boards` members), the match started by
/// the clock, each board decided as `plan` says (by pairing index), requests spread over
/// `bases`. Adds each club's match and board points to `table` (the test's arithmetic; in a
/// `knockout` matches won instead of match points).
#[allow(clippy::too_many_arguments)]
async fn play_round(
    bases: &[String],
    clock: &Clock,
    id: &str,
    no: usize,
    cs: &[Club],
    plan: impl Fn(usize) -> Vec<Board>,
    knockout: bool,
    table: &mut HashMap<String, (f64, f64)>,
) {
    let b = &bases[0];
    let t = eventually_some("the round's pairings", || async {
        let t = tournament(b, id).await;
        (t["round"] == no as i64).then_some(t)
    })
    .await;
    let round = &t["rounds"][no - 1];
    assert_eq!(round["no"], no as i64);
    let pairings = round["pairings"].as_array().unwrap().clone();
    assert_eq!(pairings.len(), cs.len() / 2, "every club plays");
    let club = |name: &str| cs.iter().find(|c| c.name == name).unwrap();
    let cookie: HashMap<String, String> = cs
        .iter()
        .flat_map(|c| c.members.iter().chain([&c.leader]))
        .cloned()
        .collect();
    let mut matches = Vec::new();
    for (i, p) in pairings.iter().enumerate() {
        let (home, away) = (
            club(p["S"].as_str().unwrap()),
            club(p["N"].as_str().unwrap()),
        );
        let mid = p["match"].as_str().expect("a team match").to_string();
        assert_eq!(p["url"], format!("/m/{mid}"));
        assert_eq!(p["result"], Value::Null);
        let m = team_match(b, &mid).await;
        // The pairing's team match: South's club at home, accepted, the tournament's terms.
        assert_eq!(m["status"], "accepted");
        assert_eq!(m["home"]["id"], home.id.as_str());
        assert_eq!(m["away"]["id"], away.id.as_str());
        assert_eq!(m["variant"], "kete");
        let boards = m["boards"].as_array().unwrap().len();
        let outcomes = plan(i);
        for (k, c) in [home, away].into_iter().enumerate() {
            if outcomes.contains(&Board::Nobody) {
                break;
            }
            let names: Vec<&str> = c.members[..boards].iter().map(|p| p.0.as_str()).collect();
            let r = tm(
                &bases[(i + k) % bases.len()],
                &mid,
                "lineup",
                json!({ "players": names }),
                &c.leader.1,
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
        matches.push((mid, home, away, outcomes));
    }
    // The lineup window: ten minutes after the pairing the matches start by their timers.
    clock.advance(Duration::from_secs(10 * 60 + 1));
    for (i, (mid, home, away, boards)) in matches.iter().enumerate() {
        // Running, or finished at once when no board has a game.
        let m = wait_match(b, mid, |m| m["status"] != "accepted").await;
        let (h, a) = board_points(boards);
        for (k, outcome) in boards.iter().enumerate() {
            let board = &m["boards"][k];
            if *outcome == Board::Nobody {
                assert_eq!(board["game"], Value::Null, "{m}");
                continue;
            }
            let gid = board["game"].as_str().expect("a game").to_string();
            let (hn, an) = (
                board["home"].as_str().unwrap(),
                board["away"].as_str().unwrap(),
            );
            let loser = if *outcome == Board::HomeWins { an } else { hn };
            let lb = &bases[(i + k) % bases.len()];
            let st = eventually_some("the board's game", || async {
                let g = get(lb, &format!("/api/games/{gid}"), Some(&cookie[loser])).await;
                (g.status == 200).then_some(g.json)
            })
            .await;
            let r = post(
                lb,
                &format!("/api/games/{gid}/resign"),
                json!({"game_no": 1, "ply": st["ply"]}),
                Some(&cookie[loser]),
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
        let (hm, am) = match (pairing_result(boards, knockout).0, knockout) {
            ("S", false) => (2.0, 0.0),
            ("N", false) => (0.0, 2.0),
            ("draw", _) => (1.0, 1.0),
            ("S", true) => (1.0, 0.0),
            _ => (0.0, 1.0),
        };
        for (c, mp, bp) in [(home, hm, h), (away, am, a)] {
            let e = table.entry(c.name.clone()).or_default();
            e.0 += mp;
            e.1 += bp;
        }
        let m = wait_match(b, mid, |m| m["status"] == "finished").await;
        assert_eq!(m["score"]["home"].as_f64(), Some(h));
        assert_eq!(m["score"]["away"].as_f64(), Some(a));
    }
    // Every pairing's result and score on the tournament.
    let t = eventually_some("the round's results", || async {
        let t = tournament(b, id).await;
        let r = &t["rounds"][no - 1]["pairings"];
        r.as_array()
            .unwrap()
            .iter()
            .all(|p| !p["result"].is_null())
            .then_some(t)
    })
    .await;
    for (p, (_, _, _, boards)) in t["rounds"][no - 1]["pairings"]
        .as_array()
        .unwrap()
        .iter()
        .zip(&matches)
    {
        let (h, a) = board_points(boards);
        assert_eq!(p["score"]["S"].as_f64(), Some(h), "{p}");
        assert_eq!(p["score"]["N"].as_f64(), Some(a), "{p}");
        let (want, how) = pairing_result(boards, knockout);
        assert_eq!(p["result"], want, "{p}");
        if let Some(how) = how {
            assert_eq!(p["termination"], how, "{p}");
        }
    }
}

/// The standings of `t` agree with `table`: each club's match and board points, ordered by
/// match points then board points.
fn check_standings(t: &Value, table: &HashMap<String, (f64, f64)>) {
    let s = t["standings"].as_array().unwrap();
    assert_eq!(s.len(), table.len(), "{t}");
    let mut last: Option<(f64, f64)> = None;
    for line in s {
        let name = line["player"].as_str().unwrap();
        let (mp, bp) = table[name];
        assert_eq!(line["points"].as_f64(), Some(mp), "{name}: {s:?}");
        assert_eq!(line["board_points"].as_f64(), Some(bp), "{name}: {s:?}");
        assert_eq!(line["tiebreaks"]["BP"].as_f64(), Some(bp), "{name}");
        if let Some(prev) = last {
            assert!(
                prev.0 > mp || (prev.0 == mp && prev.1 >= bp),
                "ordered by match points, then board points: {s:?}"
            );
        }
        last = Some((mp, bp));
    }
    assert_eq!(t["tiebreaks"][0]["key"], "BP");
}

/// The results of the three rounds of the four clubs' round robin, by round and pairing:
/// wins, a level match (drawn) and a clean sweep.
fn plan(round: usize) -> impl Fn(usize) -> Vec<Board> {
    use Board::*;
    move |pairing| match (round + pairing) % 3 {
        0 => vec![HomeWins, HomeWins],
        1 => vec![HomeWins, AwayWins],
        _ => vec![AwayWins, AwayWins],
    }
}

/// Four clubs, a round robin of 2-board team matches: entered by their leaders, started,
/// every round's matches played to their results; standings checked after every round by
/// this test's arithmetic; the tournament finishes after the third.
pub async fn four_clubs_round_robin(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).lifecycle(quick()).start().await;
    let b = base(&s);
    let cs = clubs(&b, 4, 2).await;
    let id = made(&b, team_round_robin(json!(2), 4), &cs[0].leader.1).await;
    let t = tournament(&b, &id).await;
    assert_eq!(t["teams"]["boards"], 2);
    assert_eq!(t["forfeit_after_ms"], Value::Null);
    enter_all(&b, &id, &cs).await;
    let t = tournament(&b, &id).await;
    let mut entrants: Vec<(&str, &str)> = t["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["username"].as_str().unwrap(), p["club"].as_str().unwrap()))
        .collect();
    let mut want: Vec<(&str, &str)> = cs
        .iter()
        .map(|c| (c.name.as_str(), c.id.as_str()))
        .collect();
    // Entered within one millisecond of the test's clock: the order is the ids'.
    entrants.sort();
    want.sort();
    assert_eq!(entrants, want);
    let r = tact(&b, &id, "start", json!({}), &cs[0].leader.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let bases = [b.clone()];
    let mut table = HashMap::new();
    for no in 1..=3 {
        play_round(&bases, &clock, &id, no, &cs, plan(no), false, &mut table).await;
        let t = eventually_some("the standings", || async {
            let t = tournament(&b, &id).await;
            let done = if no < 3 {
                t["round"] == no as i64 + 1
            } else {
                t["status"] == "finished"
            };
            done.then_some(t)
        })
        .await;
        check_standings(&t, &table);
    }
    // Every club's matches: one a round, each of this tournament.
    for c in &cs {
        let l = get(&b, &format!("/api/team-matches?club={}", c.id), None).await;
        assert_eq!(l.json["matches"].as_array().unwrap().len(), 3, "{}", l.text);
    }
    s.stop().await;
}

/// A member who is neither a leader nor an admin cannot enter the club; an admin can.
pub async fn only_leaders_enter(url: &str) {
    let s = server(url).start().await;
    let b = base(&s);
    let cs = clubs(&b, 1, 2).await;
    let c = &cs[0];
    let id = made(&b, team_round_robin(json!(2), 4), &c.leader.1).await;
    let r = tact(&b, &id, "join", json!({"club": c.id}), &c.members[0].1).await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert_eq!(r.json["error"], "not_club_leader");
    assert!(tournament(&b, &id).await["players"]
        .as_array()
        .unwrap()
        .is_empty());
    // Nor withdraw it once entered.
    let r = club_act(
        &b,
        &c.id,
        "role",
        json!({"username": c.members[1].0, "role": "admin"}),
        Some(&c.leader.1),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // What each may do, as the page reads it: the admin may enter the club, the member not.
    let you = |cookie: String| {
        let (b, id) = (b.clone(), id.clone());
        async move {
            get(&b, &format!("/api/tournaments/{id}"), Some(&cookie))
                .await
                .json["you"]["clubs"]
                .clone()
        }
    };
    assert_eq!(you(c.members[0].1.clone()).await, json!([]));
    assert_eq!(
        you(c.members[1].1.clone()).await,
        json!([{"id": c.id, "name": c.name, "entered": false}])
    );
    let r = tact(&b, &id, "join", json!({"club": c.id}), &c.members[1].1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        you(c.leader.1.clone()).await,
        json!([{"id": c.id, "name": c.name, "entered": true}])
    );
    let r = tact(&b, &id, "withdraw", json!({"club": c.id}), &c.members[0].1).await;
    assert_eq!(r.status, 403, "{}", r.text);
    assert_eq!(tournament(&b, &id).await["players"][0]["username"], c.name);
    s.stop().await;
}

/// A club is entered once: a second entry (by another of its leaders) is refused and the
/// club counted once.
pub async fn club_entered_once(url: &str) {
    let s = server(url).start().await;
    let b = base(&s);
    let cs = clubs(&b, 1, 1).await;
    let c = &cs[0];
    let r = club_act(
        &b,
        &c.id,
        "role",
        json!({"username": c.members[0].0, "role": "leader"}),
        Some(&c.leader.1),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let id = made(&b, team_round_robin(json!(2), 4), &c.leader.1).await;
    let r = tact(&b, &id, "join", json!({"club": c.id}), &c.leader.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = tact(&b, &id, "join", json!({"club": c.id}), &c.members[0].1).await;
    assert_eq!(r.status, 409, "{}", r.text);
    let t = tournament(&b, &id).await;
    assert_eq!(t["players"].as_array().unwrap().len(), 1);
    let l = get(&b, "/api/tournaments?status=upcoming", None).await;
    let line = l.json["tournaments"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id.as_str())
        .cloned()
        .unwrap();
    assert_eq!(line["players"], 1);
    assert_eq!(line["teams"]["boards"], 2);
    s.stop().await;
}

/// A player cannot join a team tournament as a player, and a club cannot enter a tournament
/// of players.
pub async fn players_do_not_join_team_tournaments(url: &str) {
    let s = server(url).start().await;
    let b = base(&s);
    let cs = clubs(&b, 1, 1).await;
    let c = &cs[0];
    let id = made(&b, team_round_robin(json!(2), 4), &c.leader.1).await;
    for who in [&c.leader, &c.members[0]] {
        let r = tact(&b, &id, "join", json!({}), &who.1).await;
        assert_eq!(r.status, 400, "{}", r.text);
    }
    assert!(tournament(&b, &id).await["players"]
        .as_array()
        .unwrap()
        .is_empty());
    let mut solo = team_round_robin(json!(2), 4);
    solo.as_object_mut().unwrap().remove("teams");
    let pid = made(&b, solo, &c.leader.1).await;
    let r = tact(&b, &pid, "join", json!({"club": c.id}), &c.leader.1).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert!(tournament(&b, &pid).await["players"]
        .as_array()
        .unwrap()
        .is_empty());
    s.stop().await;
}

/// `teams.boards` is 2 to 16; a team tournament is not one club's.
pub async fn boards_in_range(url: &str) {
    let s = server(url).start().await;
    let b = base(&s);
    let cs = clubs(&b, 1, 0).await;
    let c = &cs[0];
    for bad in [json!(1), json!(17), json!(0), json!(-2), json!("4")] {
        let r = post(
            &b,
            "/api/tournaments",
            team_round_robin(bad.clone(), 4),
            Some(&c.leader.1),
        )
        .await;
        assert_eq!(r.status, 400, "boards {bad}: {}", r.text);
    }
    for ok in [2, 16] {
        let id = made(&b, team_round_robin(json!(ok), 4), &c.leader.1).await;
        assert_eq!(tournament(&b, &id).await["teams"]["boards"], ok);
    }
    let mut one_club = team_round_robin(json!(2), 4);
    one_club["club"] = json!(c.id);
    let r = post(&b, "/api/tournaments", one_club, Some(&c.leader.1)).await;
    assert_eq!(r.status, 400, "{}", r.text);
    s.stop().await;
}

/// Two instances on one database: the round paired once (each pairing's team match made
/// once, whichever instance's task gets there), each result counted once (the match points
/// and board points of the standings add up to the matches played), rounds driven from both.
pub async fn paired_once_on_two_instances(url: &str) {
    let clock = manual_clock();
    let (s1, s2) = server(url)
        .clock(&clock)
        .lifecycle(quick())
        .start_two()
        .await;
    let (b1, b2) = (base(&s1), base(&s2));
    let cs = clubs(&b1, 4, 2).await;
    let id = made(&b1, team_round_robin(json!(2), 4), &cs[0].leader.1).await;
    enter_all(&b2, &id, &cs).await;
    let r = tact(&b2, &id, "start", json!({}), &cs[0].leader.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let bases = [b1.clone(), b2.clone()];
    let mut table = HashMap::new();
    for no in 1..=2 {
        play_round(&bases, &clock, &id, no, &cs, plan(no), false, &mut table).await;
        let t = eventually_some("the next round", || async {
            let t = tournament(&b2, &id).await;
            (t["round"] == no as i64 + 1).then_some(t)
        })
        .await;
        check_standings(&t, &table);
        let mp: f64 = t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["points"].as_f64().unwrap())
            .sum();
        let bp: f64 = t["standings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["board_points"].as_f64().unwrap())
            .sum();
        // Two matches a round: 2 match points and 2 board points each, counted once.
        assert_eq!(mp, 4.0 * no as f64);
        assert_eq!(bp, 4.0 * no as f64);
        // Each club has one match per paired round: made once.
        for c in &cs {
            for b in [&b1, &b2] {
                let l = get(b, &format!("/api/team-matches?club={}", c.id), None).await;
                assert_eq!(
                    l.json["matches"].as_array().unwrap().len(),
                    no + 1,
                    "{}",
                    l.text
                );
            }
        }
    }
    s1.stop().await;
    s2.stop().await;
}

/// The body of a team tournament of 2-board matches in `format` for `max` clubs.
fn team_tournament(format: Value, max: i64) -> Value {
    let mut body = team_round_robin(json!(2), max);
    body["format"] = format;
    body
}

/// Five clubs, a 3-round Swiss of 2-board matches: every round two matches and a bye, the
/// bye scored as docs/api.md says (a won match: 2 match points, and `bye_points` = 1 on each
/// of the 2 boards, counted once the round is paired), never twice to one club; the
/// standings after every round are this test's sums; the tournament finishes after the
/// third round.
pub async fn five_clubs_swiss(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).lifecycle(quick()).start().await;
    let b = base(&s);
    let cs = clubs(&b, 5, 2).await;
    let body = team_tournament(json!({"kind": "swiss", "rounds": 3}), 5);
    let id = made(&b, body, &cs[0].leader.1).await;
    enter_all(&b, &id, &cs).await;
    let r = tact(&b, &id, "start", json!({}), &cs[0].leader.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let bases = [b.clone()];
    let mut table: HashMap<String, (f64, f64)> = HashMap::new();
    for no in 1..=3 {
        play_round(&bases, &clock, &id, no, &cs, plan(no), false, &mut table).await;
        let t = eventually_some("the standings", || async {
            let t = tournament(&b, &id).await;
            let done = if no < 3 {
                t["round"] == no as i64 + 1
            } else {
                t["status"] == "finished"
            };
            done.then_some(t)
        })
        .await;
        // The rounds paired so far: the next one's bye counts from its pairing.
        let mut with_byes = table.clone();
        let rounds = t["rounds"].as_array().unwrap();
        for r in rounds {
            let byes = r["byes"].as_array().unwrap();
            assert_eq!(byes.len(), 1, "one club sits out: {t}");
            let bye = byes[0].as_str().unwrap();
            assert!(cs.iter().any(|c| c.name == bye), "{bye}");
            let paired = r["pairings"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["S"] == bye || p["N"] == bye);
            assert!(!paired, "the bye's club is not paired: {t}");
            let e = with_byes.entry(bye.to_string()).or_default();
            e.0 += 2.0;
            e.1 += 2.0;
        }
        let mut byes: Vec<&Value> = rounds.iter().map(|r| &r["byes"][0]).collect();
        byes.sort_by_key(|v| v.as_str());
        byes.dedup();
        assert_eq!(byes.len(), rounds.len(), "a club with two byes: {t}");
        check_standings(&t, &with_byes);
        // Two matches a round played (2 match points and 2 board points each) and a bye a
        // round paired (2 and 2).
        let mp: f64 = with_byes.values().map(|x| x.0).sum();
        let bp: f64 = with_byes.values().map(|x| x.1).sum();
        let want = 4.0 * no as f64 + 2.0 * rounds.len() as f64;
        assert_eq!((mp, bp), (want, want));
        assert_eq!(t["tiebreaks"][1]["key"], "BH-C1", "{t}");
    }
    s.stop().await;
}

/// Four clubs, a knockout with a third-place match, 2-board matches seeded by the entering
/// order: semi-final 1 level on boards and won by the away club, which won the first board
/// (`first_board`), semi-final 2 won outright; the final won outright by the away club; the
/// third-place match with no player named on either side (every board counts for nobody)
/// goes to the higher seed (`seed`). Bracket, winner and standings (matches won, board
/// points) checked by the test's own arithmetic.
pub async fn four_clubs_knockout(url: &str) {
    use Board::*;
    let clock = manual_clock();
    let s = server(url).clock(&clock).lifecycle(quick()).start().await;
    let b = base(&s);
    let cs = clubs(&b, 4, 2).await;
    let body = team_tournament(json!({"kind": "knockout", "third_place": true}), 4);
    let id = made(&b, body, &cs[0].leader.1).await;
    // One club a millisecond: the entering order is the seeding.
    for c in &cs {
        clock.advance(Duration::from_millis(1));
        enter_all(&b, &id, std::slice::from_ref(c)).await;
    }
    let t = tournament(&b, &id).await;
    for (i, p) in t["players"].as_array().unwrap().iter().enumerate() {
        assert_eq!(p["username"], cs[i].name.as_str(), "{t}");
        assert_eq!(p["seed"], i as i64 + 1, "{t}");
    }
    let r = tact(&b, &id, "start", json!({}), &cs[0].leader.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let bases = [b.clone()];
    let mut table: HashMap<String, (f64, f64)> = HashMap::new();
    let round1 = |pairing: usize| match pairing {
        0 => vec![AwayWins, HomeWins],
        _ => vec![HomeWins, HomeWins],
    };
    play_round(&bases, &clock, &id, 1, &cs, round1, true, &mut table).await;
    let t = eventually_some("the final's round", || async {
        let t = tournament(&b, &id).await;
        (t["round"] == 2).then_some(t)
    })
    .await;
    // Seed 1 against seed 4 and 2 against 3, the higher seed at home; the winners meet.
    let r1 = &t["rounds"][0]["pairings"];
    let name = |i: usize| json!(cs[i].name);
    assert_eq!((&r1[0]["S"], &r1[0]["N"]), (&name(0), &name(3)), "{t}");
    assert_eq!((&r1[1]["S"], &r1[1]["N"]), (&name(1), &name(2)), "{t}");
    assert_eq!(t["knockout"]["rounds"][0][0]["winner"], name(3), "{t}");
    assert_eq!(t["knockout"]["rounds"][0][1]["winner"], name(1), "{t}");
    let r2 = &t["rounds"][1]["pairings"];
    // The final (board 1) between the winners, the upper half's at home; third place on
    // board 2 between the losers.
    assert_eq!((&r2[0]["S"], &r2[0]["N"]), (&name(3), &name(1)), "{t}");
    assert_eq!((&r2[1]["S"], &r2[1]["N"]), (&name(0), &name(2)), "{t}");
    let round2 = |pairing: usize| match pairing {
        0 => vec![AwayWins, AwayWins],
        _ => vec![Nobody, Nobody],
    };
    play_round(&bases, &clock, &id, 2, &cs, round2, true, &mut table).await;
    let t = eventually_some("the finish", || async {
        let t = tournament(&b, &id).await;
        (t["status"] == "finished").then_some(t)
    })
    .await;
    assert_eq!(t["knockout"]["rounds"][1][0]["winner"], name(1), "{t}");
    // Champion seed 2 (two matches won), runner-up seed 4 (one), third seed 1 (the
    // third-place match by seed), fourth seed 3 (none).
    let st = t["standings"].as_array().unwrap();
    let order: Vec<&str> = st.iter().map(|l| l["player"].as_str().unwrap()).collect();
    assert_eq!(
        order,
        [&cs[1].name, &cs[3].name, &cs[0].name, &cs[2].name].map(|n| n.as_str()),
        "{t}"
    );
    for (k, line) in st.iter().enumerate() {
        let who = line["player"].as_str().unwrap();
        let (won, bp) = table[who];
        assert_eq!(line["rank"], k as i64 + 1, "{t}");
        assert_eq!(line["points"].as_f64(), Some(won), "{who}: {t}");
        assert_eq!(line["tiebreaks"]["BP"].as_f64(), Some(bp), "{who}: {t}");
    }
    assert_eq!(table[&cs[1].name], (2.0, 4.0));
    assert_eq!(table[&cs[3].name], (1.0, 1.0));
    assert_eq!(table[&cs[0].name], (1.0, 1.0));
    assert_eq!(table[&cs[2].name], (0.0, 0.0));
    s.stop().await;
}

/// A 2-board match of a two-club round robin left `running` with both boards' results
/// written (an instance stopped between the last result and the finish; the test writes
/// that state into the database of the stopped server): the next instance's safety sweep
/// finishes it, once, through the one write that finishes a match: its score and winner,
/// the tournament's result and standings, and the tournament's end.
pub async fn left_running_is_finished_by_the_sweep(url: &str) {
    use sqlx::Row;
    let clock = manual_clock();
    let lifecycle = || bao_server::game::Lifecycle {
        sweep_every: Duration::from_millis(100),
        safety_sweep: Duration::from_millis(200),
        ..Default::default()
    };
    let s = server(url)
        .clock(&clock)
        .lifecycle(lifecycle())
        .start()
        .await;
    let b = base(&s);
    let cs = clubs(&b, 2, 2).await;
    let id = made(&b, team_round_robin(json!(2), 2), &cs[0].leader.1).await;
    enter_all(&b, &id, &cs).await;
    let r = tact(&b, &id, "start", json!({}), &cs[0].leader.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let t = eventually_some("the first round's pairing", || async {
        let t = tournament(&b, &id).await;
        (t["round"] == 1).then_some(t)
    })
    .await;
    let p = &t["rounds"][0]["pairings"][0];
    let mid = p["match"].as_str().expect("a team match").to_string();
    let club = |name: &Value| {
        cs.iter()
            .find(|c| c.name == name.as_str().unwrap())
            .unwrap()
    };
    let (home, away) = (club(&p["S"]), club(&p["N"]));
    for c in [home, away] {
        let names: Vec<&str> = c.members.iter().map(|p| p.0.as_str()).collect();
        let r = tm(&b, &mid, "lineup", json!({ "players": names }), &c.leader.1).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    clock.advance(Duration::from_secs(10 * 60 + 1));
    wait_match(&b, &mid, |m| {
        m["status"] == "running" && m["boards"][1]["game"].is_string()
    })
    .await;
    s.stop().await;
    // What the stopped instance left: both results written, the match still running.
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let n = sqlx::query(
        "UPDATE team_boards SET result = CASE WHEN board = 1 THEN 'home' ELSE 'draw' END
         WHERE match_id = $1 AND result IS NULL",
    )
    .bind(&mid)
    .execute(&pool)
    .await
    .unwrap()
    .rows_affected();
    assert_eq!(n, 2);
    let status: String = sqlx::query("SELECT status FROM team_matches WHERE id = $1")
        .bind(&mid)
        .fetch_one(&pool)
        .await
        .unwrap()
        .try_get("status")
        .unwrap();
    assert_eq!(status, "running");
    pool.close().await;
    let s = server(url)
        .clock(&clock)
        .lifecycle(lifecycle())
        .start()
        .await;
    let b = base(&s);
    let m = wait_match(&b, &mid, |m| m["status"] == "finished").await;
    assert_eq!(m["score"]["home"].as_f64(), Some(1.5), "{m}");
    assert_eq!(m["score"]["away"].as_f64(), Some(0.5), "{m}");
    assert_eq!(m["winner"], "home", "{m}");
    // Once: the match is finished already for any later sweep or instance.
    assert!(!s
        .app
        .store
        .finish_team_match(&mid, clock.now_ms())
        .await
        .unwrap());
    let t = eventually_some("the tournament's end", || async {
        let t = tournament(&b, &id).await;
        (t["status"] == "finished").then_some(t)
    })
    .await;
    let p = &t["rounds"][0]["pairings"][0];
    assert_eq!(p["result"], "S", "{p}");
    assert_eq!(p["score"]["S"].as_f64(), Some(1.5), "{p}");
    assert_eq!(p["score"]["N"].as_f64(), Some(0.5), "{p}");
    let table: HashMap<String, (f64, f64)> = [
        (home.name.clone(), (2.0, 1.5)),
        (away.name.clone(), (0.0, 0.5)),
    ]
    .into();
    check_standings(&t, &table);
    assert_eq!(t["standings"][0]["player"], home.name.as_str(), "{t}");
    s.stop().await;
}
