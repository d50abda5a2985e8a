//! Team match tests (docs/api.md, "Team matches") over real HTTP, on SQLite
//! (tests/teams_sqlite.rs) and PostgreSQL (tests/teams_postgres.rs) with the same code. The
//! score and the winner are worked out here from the results the test gives the games; each
//! hostile case reads back what the refused player would have changed.

use super::accounts::{base, get, post};
use super::clubs::{act, new_club};
use super::ratings::account;
use super::*;
use serde_json::json;

/// Two clubs, each with a leader and members; `both` belongs to both clubs.
pub struct Two {
    pub b: String,
    pub clock: Clock,
    pub home: String,
    pub away: String,
    /// The home club's leader (name, cookie).
    pub hl: (String, String),
    /// The away club's leader.
    pub al: (String, String),
    /// Home members (not leaders).
    pub hm: Vec<(String, String)>,
    /// Away members (not leaders).
    pub am: Vec<(String, String)>,
    /// A member of both clubs.
    pub both: (String, String),
    /// A member of neither.
    pub outsider: (String, String),
}

/// Two clubs on `b`, `members` members each besides the leader.
pub async fn two_clubs(b: &str, clock: &Clock, members: usize) -> Two {
    let hl = account(b, "Kapteni").await;
    let al = account(b, "Nahodha").await;
    let home = new_club(b, &hl.1, "Chama cha Bao Unguja", "Unguja", true).await;
    let away = new_club(b, &al.1, "Bao Pemba", "Pemba", true).await;
    let mut hm = Vec::new();
    let mut am = Vec::new();
    for i in 0..members {
        let h = account(b, &format!("Mwenyeji{i}")).await;
        let a = account(b, &format!("Mgeni{i}")).await;
        assert_eq!(
            act(b, &home, "join", json!({}), Some(&h.1)).await.status,
            200
        );
        assert_eq!(
            act(b, &away, "join", json!({}), Some(&a.1)).await.status,
            200
        );
        hm.push(h);
        am.push(a);
    }
    let both = account(b, "Wote").await;
    for c in [&home, &away] {
        assert_eq!(
            act(b, c, "join", json!({}), Some(&both.1)).await.status,
            200
        );
    }
    let outsider = account(b, "Mpita").await;
    Two {
        b: b.to_string(),
        clock: clock.clone(),
        home,
        away,
        hl,
        al,
        hm,
        am,
        both,
        outsider,
    }
}

/// The body of a proposal of `boards` boards starting a minute ahead of `clock`.
pub fn proposal(t: &Two, boards: i64) -> Value {
    json!({"home": t.home, "away": t.away, "boards": boards, "variant": "kete",
           "clock": {"initial_ms": 600000, "increment_ms": 0}, "match": "single_game",
           "rated": false, "starts_at": t.clock.now_ms() + 60_000})
}

/// `POST /api/team-matches/{id}/{what}` as `cookie`.
pub async fn tm(b: &str, id: &str, what: &str, body: Value, cookie: &str) -> Answer {
    post(
        b,
        &format!("/api/team-matches/{id}/{what}"),
        body,
        Some(cookie),
    )
    .await
}

/// `GET /api/team-matches/{id}`.
pub async fn team_match(b: &str, id: &str) -> Value {
    let a = get(b, &format!("/api/team-matches/{id}"), None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json
}

/// Proposed by the home leader and accepted by the away leader: its id.
pub async fn proposed_and_accepted(t: &Two, boards: i64) -> String {
    let b = &t.b;
    let r = post(b, "/api/team-matches", proposal(t, boards), Some(&t.hl.1)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    assert_eq!(r.json["url"], format!("/m/{id}"));
    assert_eq!(team_match(b, &id).await["status"], "proposed");
    let r = tm(b, &id, "accept", json!({}), &t.al.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(team_match(b, &id).await["status"], "accepted");
    id
}

fn names(v: &[(String, String)]) -> Vec<String> {
    v.iter().map(|p| p.0.clone()).collect()
}

/// Waits until match `id` satisfies `f`: its JSON.
pub async fn wait_match(b: &str, id: &str, f: impl Fn(&Value) -> bool) -> Value {
    eventually_some("the team match", || async {
        let m = team_match(b, id).await;
        f(&m).then_some(m)
    })
    .await
}

/// A 4-board match: proposed, accepted, lineups (the away side one short: board 4 is lost
/// by forfeit), started by the clock, games played to results by resignations; the score
/// and winner are the test's own sums of board points.
pub async fn four_boards(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = base(&s);
    let t = two_clubs(&b, &clock, 4).await;
    let id = proposed_and_accepted(&t, 4).await;
    let home = names(&t.hm);
    let away = names(&t.am[..3]);
    let r = tm(&b, &id, "lineup", json!({"players": home}), &t.hl.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = tm(&b, &id, "lineup", json!({"players": away}), &t.al.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let m = team_match(&b, &id).await;
    assert_eq!(m["boards"][3]["home"], home[3].as_str());
    assert_eq!(m["boards"][3]["away"], Value::Null);
    assert_eq!(m["boards"][0]["game"], Value::Null);
    // Not yet time: nothing starts.
    clock.advance(Duration::from_secs(30));
    assert_eq!(team_match(&b, &id).await["status"], "accepted");
    clock.advance(Duration::from_secs(31));
    let m = wait_match(&b, &id, |m| m["status"] == "running").await;
    let cookie_of = |name: &str| {
        t.hm.iter()
            .chain(t.am.iter())
            .find(|p| p.0 == name)
            .map(|p| p.1.clone())
            .unwrap()
    };
    // Who loses each played board (by resigning): board 1 away, board 2 home, board 3 away.
    let losers = ["away", "home", "away"];
    for (i, loser) in losers.iter().enumerate() {
        let board = &m["boards"][i];
        assert_eq!(board["no"], i as i64 + 1);
        assert_eq!(board["home"], home[i].as_str());
        assert_eq!(board["away"], away[i].as_str());
        assert_eq!(board["result"], Value::Null);
        let gid = board["game"].as_str().expect("a game").to_string();
        // The home player is South on odd boards, North on even ones.
        let hc = cookie_of(&home[i]);
        // The boards are written with the start, their games made just after it.
        let st = eventually_some("the board's game", || async {
            let a = get(&b, &format!("/api/games/{gid}"), Some(&hc)).await;
            (a.status == 200).then_some(a.json)
        })
        .await;
        assert_eq!(
            st["you"],
            if i % 2 == 0 { "S" } else { "N" },
            "board {}",
            i + 1
        );
        let lc = cookie_of(if *loser == "home" { &home[i] } else { &away[i] });
        let r = post(
            &b,
            &format!("/api/games/{gid}/resign"),
            json!({"game_no": 1, "ply": st["ply"]}),
            Some(&lc),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    // Board 4: the away side named nobody.
    assert_eq!(m["boards"][3]["game"], Value::Null);
    assert_eq!(m["boards"][3]["result"], "home");
    let m = wait_match(&b, &id, |m| m["status"] == "finished").await;
    let mut results: Vec<&str> = losers
        .iter()
        .map(|l| if *l == "home" { "away" } else { "home" })
        .collect();
    results.push("home");
    let (mut h, mut a) = (0.0, 0.0);
    for (i, r) in results.iter().enumerate() {
        assert_eq!(m["boards"][i]["result"], *r, "board {}", i + 1);
        match *r {
            "home" => h += 1.0,
            "away" => a += 1.0,
            _ => {
                h += 0.5;
                a += 0.5
            }
        }
    }
    assert_eq!(m["score"]["home"].as_f64(), Some(h));
    assert_eq!(m["score"]["away"].as_f64(), Some(a));
    let winner = if h > a {
        "home"
    } else if a > h {
        "away"
    } else {
        "draw"
    };
    assert_eq!(m["winner"], winner);
    assert_eq!((h, a, winner), (3.0, 1.0, "home"));
    s.stop().await;
}

/// A member who is not a leader can neither propose nor accept; a declined match stays so.
pub async fn only_leaders_propose_and_answer(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = base(&s);
    let t = two_clubs(&b, &clock, 1).await;
    let r = post(&b, "/api/team-matches", proposal(&t, 4), Some(&t.hm[0].1)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader")),
        "{}",
        r.text
    );
    // The away leader does not propose for the home club either.
    let r = post(&b, "/api/team-matches", proposal(&t, 4), Some(&t.al.1)).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = post(&b, "/api/team-matches", proposal(&t, 4), Some(&t.hl.1)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    for c in [&t.am[0].1, &t.hl.1, &t.both.1] {
        let r = tm(&b, &id, "accept", json!({}), c).await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (403, Some("not_club_leader")),
            "{}",
            r.text
        );
        assert_eq!(team_match(&b, &id).await["status"], "proposed");
    }
    let r = tm(&b, &id, "decline", json!({}), &t.al.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(team_match(&b, &id).await["status"], "declined");
    let r = tm(&b, &id, "accept", json!({}), &t.al.1).await;
    assert_eq!(r.status, 409, "{}", r.text);
    // Bad terms are refused by the one terms parser.
    let mut bad = proposal(&t, 17);
    let r = post(&b, "/api/team-matches", bad.clone(), Some(&t.hl.1)).await;
    assert_eq!(r.status, 400, "{}", r.text);
    bad["boards"] = json!(4);
    bad["variant"] = json!("chess");
    let r = post(&b, "/api/team-matches", bad, Some(&t.hl.1)).await;
    assert_eq!(r.status, 400, "{}", r.text);
    s.stop().await;
}

/// A side's lineup as `GET` shows it, board by board.
fn lineup_of(m: &Value, side: &str) -> Vec<Value> {
    m["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x[side].clone())
        .collect()
}

/// A 2-board match, proposed and accepted, on a server of its own.
async fn accepted_two_boards(url: &str) -> (Running, Two, String) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = base(&s);
    let t = two_clubs(&b, &clock, 2).await;
    let id = proposed_and_accepted(&t, 2).await;
    (s, t, id)
}

/// A member who is not a leader or admin cannot set a lineup.
pub async fn members_cannot_set_lineups(url: &str) {
    let (s, t, id) = accepted_two_boards(url).await;
    let b = t.b.as_str();
    let r = tm(
        b,
        &id,
        "lineup",
        json!({"players": [t.hm[0].0]}),
        &t.hm[0].1,
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader")),
        "{}",
        r.text
    );
    assert_eq!(
        lineup_of(&team_match(b, &id).await, "home"),
        [Value::Null, Value::Null]
    );
    s.stop().await;
}

/// A lineup names members of its club only, once each, at most one a board.
pub async fn lineups_of_members_only(url: &str) {
    let (s, t, id) = accepted_two_boards(url).await;
    let b = t.b.as_str();
    // A player of no club of the match, then a member of the other club only.
    for other in [&t.outsider.0, &t.am[0].0] {
        let r = tm(b, &id, "lineup", json!({"players": [other]}), &t.hl.1).await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (409, Some("not_club_member")),
            "{}",
            r.text
        );
        assert_eq!(
            lineup_of(&team_match(b, &id).await, "home"),
            [Value::Null, Value::Null]
        );
    }
    let three = json!({"players": [t.hm[0].0, t.hm[1].0, t.both.0]});
    let r = tm(b, &id, "lineup", three, &t.hl.1).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let twice = json!({"players": [t.hm[0].0, t.hm[0].0]});
    let r = tm(b, &id, "lineup", twice, &t.hl.1).await;
    assert_eq!(r.status, 400, "{}", r.text);
    assert_eq!(
        lineup_of(&team_match(b, &id).await, "home"),
        [Value::Null, Value::Null]
    );
    s.stop().await;
}

/// A member of both clubs plays for one side only.
pub async fn nobody_on_both_sides(url: &str) {
    let (s, t, id) = accepted_two_boards(url).await;
    let b = t.b.as_str();
    let r = tm(
        b,
        &id,
        "lineup",
        json!({"players": [t.both.0, t.hm[0].0]}),
        &t.hl.1,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = tm(
        b,
        &id,
        "lineup",
        json!({"players": [t.am[0].0, t.both.0]}),
        &t.al.1,
    )
    .await;
    assert_eq!(r.status, 409, "{}", r.text);
    let m = team_match(b, &id).await;
    assert_eq!(lineup_of(&m, "home"), [json!(t.both.0), json!(t.hm[0].0)]);
    assert_eq!(lineup_of(&m, "away"), [Value::Null, Value::Null]);
    s.stop().await;
}

/// After the start the lineups are closed.
pub async fn lineups_close_at_the_start(url: &str) {
    let (s, t, id) = accepted_two_boards(url).await;
    let b = t.b.as_str();
    let r = tm(b, &id, "lineup", json!({"players": [t.hm[0].0]}), &t.hl.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    t.clock.advance(Duration::from_secs(61));
    // Every board is a forfeit: the match finishes as it starts.
    wait_match(b, &id, |m| m["status"] == "finished").await;
    let r = tm(b, &id, "lineup", json!({"players": [t.hm[1].0]}), &t.hl.1).await;
    assert_eq!(r.status, 409, "{}", r.text);
    let m = team_match(b, &id).await;
    assert_eq!(lineup_of(&m, "home"), [json!(t.hm[0].0), Value::Null]);
    // The away side named nobody: board 1 is the home side's by forfeit, board 2 (nobody on
    // either side) counts for nobody.
    assert_eq!(m["boards"][0]["result"], "home");
    assert_eq!(m["boards"][1]["result"], Value::Null);
    assert_eq!(m["score"], json!({"home": 1, "away": 0}));
    assert_eq!(m["winner"], "home");
    s.stop().await;
}

/// Two instances on one database, both with a timer at the start: the match starts once and
/// each board's game is made once (each player has exactly one game).
pub async fn started_once_on_two_instances(url: &str) {
    let clock = manual_clock();
    let (s1, s2) = server(url).clock(&clock).start_two().await;
    let (b1, b2) = (base(&s1), base(&s2));
    let t = two_clubs(&b1, &clock, 4).await;
    let id = proposed_and_accepted(&t, 4).await;
    let r = tm(
        &b1,
        &id,
        "lineup",
        json!({"players": names(&t.hm)}),
        &t.hl.1,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = tm(
        &b2,
        &id,
        "lineup",
        json!({"players": names(&t.am)}),
        &t.al.1,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    clock.advance(Duration::from_secs(61));
    let m = wait_match(&b2, &id, |m| m["status"] == "running").await;
    let m1 = team_match(&b1, &id).await;
    assert_eq!(m["boards"], m1["boards"]);
    for (i, p) in t.hm.iter().chain(t.am.iter()).enumerate() {
        let board = &m["boards"][i % 4];
        let gid = board["game"].as_str().expect("a game");
        // Made just after the start's commit: waited for, then counted.
        let ids: Vec<String> = eventually_some("the player's game", || async {
            let mine = post(&b1, "/api/games/mine", json!({"games": []}), Some(&p.1)).await;
            assert_eq!(mine.status, 200, "{}", mine.text);
            let ids: Vec<String> = mine.json["games"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_string())
                .collect();
            (!ids.is_empty()).then_some(ids)
        })
        .await;
        assert_eq!(ids, [gid], "{} has exactly their board's game", p.0);
    }
    s1.stop().await;
    s2.stop().await;
}

/// An instance that started a match (its boards written, in one transaction) and stopped
/// before making the games: another instance's safety sweep makes them, under the ids the
/// start chose, and the players can open and play them.
pub async fn games_a_stopped_start_left_are_made(url: &str) {
    use bao_server::store::TeamBoardRow;
    let clock = manual_clock();
    let s = server(url)
        .clock(&clock)
        .with(|c| c.lifecycle.safety_sweep = Duration::from_millis(200))
        .start()
        .await;
    let b = base(&s);
    let t = two_clubs(&b, &clock, 2).await;
    let id = proposed_and_accepted(&t, 2).await;
    for (players, cookie) in [(names(&t.hm), &t.hl.1), (names(&t.am), &t.al.1)] {
        let r = tm(&b, &id, "lineup", json!({ "players": players }), cookie).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    // The start as the stopped instance committed it: boards and game ids, no game.
    let lineups = s.app.store.team_lineups(&id).await.unwrap();
    let on = |side: &str, board: i64| {
        lineups
            .iter()
            .find(|l| l.side == side && l.board == board)
            .map(|l| l.account_id.clone())
    };
    let boards: Vec<TeamBoardRow> = (1..=2)
        .map(|n| TeamBoardRow {
            board: n,
            home_id: on("home", n),
            away_id: on("away", n),
            game_id: Some(bao_server::util::new_game_id()),
            result: None,
            home_name: None,
            away_name: None,
        })
        .collect();
    assert!(s
        .app
        .store
        .start_team_match(&id, &boards, clock.now_ms())
        .await
        .unwrap());
    // The sweep makes both games; each player opens theirs.
    let hc = t.hm[0].1.clone();
    let g1 = boards[0].game_id.clone().unwrap();
    let st = eventually_some("the board's game made by the sweep", || async {
        let a = get(&b, &format!("/api/games/{g1}"), Some(&hc)).await;
        (a.status == 200).then_some(a.json)
    })
    .await;
    // Board 1: the home player is South.
    assert_eq!(st["you"], "S", "{st}");
    let g2 = boards[1].game_id.clone().unwrap();
    let ac = t.am[1].1.clone();
    let st = eventually_some("board 2's game", || async {
        let a = get(&b, &format!("/api/games/{g2}"), Some(&ac)).await;
        (a.status == 200).then_some(a.json)
    })
    .await;
    assert_eq!(st["you"], "S", "board 2: the away player is South: {st}");
    s.stop().await;
}

/// The player socket on `server` following `what` (`club=ID`, `team_match=ID`), once it told
/// the page to read it a first time.
async fn follow(server: &Running, what: &str) -> Ws {
    let (kind, id) = what.split_once('=').unwrap();
    let mut ws =
        tokio_tungstenite::connect_async(format!("ws://{}/api/play/ws?{what}", server.addr))
            .await
            .expect("ws connects")
            .0;
    let first = next_of(&mut ws, kind, None).await;
    assert_eq!(first["id"], id, "told once as it opens: {first}");
    ws
}

/// The next message of `kind` on `ws` is about `id` (a change of another club or match
/// would come first if the socket heard what it does not follow).
async fn told(ws: &mut Ws, kind: &str, id: &str, after: &str) {
    let m = next_of(ws, kind, None).await;
    assert_eq!(m["id"], id, "after {after}: {m}");
}

/// Pages that follow a club (`?club=ID`) or a team match (`?team_match=ID`) on the player
/// socket hear every change their page shows, made through the API on `writer`'s instance,
/// on `listener`'s (the same instance on SQLite, another one on PostgreSQL), and nothing of
/// the clubs and matches they do not follow.
pub async fn followed_live(url: &str, two: bool) {
    let clock = manual_clock();
    let (s1, s2) = if two {
        let (a, b) = server(url).clock(&clock).start_two().await;
        (a, Some(b))
    } else {
        (server(url).clock(&clock).start().await, None)
    };
    let listener = s2.as_ref().unwrap_or(&s1);
    let b = base(&s1);
    let t = two_clubs(&b, &clock, 1).await;
    let closed = new_club(&b, &t.hl.1, "Bao Mkokotoni", "Mkokotoni", false).await;
    let mut club = follow(listener, &format!("club={closed}")).await;
    let mut home = follow(listener, &format!("club={}", t.home)).await;
    let (who, cookie) = (&t.outsider.0, &t.outsider.1);
    // A join to another club is not news here; the request that follows is.
    assert_eq!(
        act(&b, &t.away, "join", json!({}), Some(cookie))
            .await
            .status,
        200
    );
    let r = act(&b, &closed, "join", json!({}), Some(cookie)).await;
    assert_eq!(r.status, 202, "{}", r.text);
    told(&mut club, "club", &closed, "a request").await;
    let r = act(
        &b,
        &closed,
        &format!("requests/{who}/accept"),
        json!({}),
        Some(&t.hl.1),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    told(&mut club, "club", &closed, "the request accepted").await;
    let r = act(
        &b,
        &closed,
        "role",
        json!({"username": who, "role": "admin"}),
        Some(&t.hl.1),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    told(&mut club, "club", &closed, "a role").await;
    let r = act(
        &b,
        &closed,
        "announce",
        json!({"text": "Kesho saa nne."}),
        Some(cookie),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    told(&mut club, "club", &closed, "an announcement").await;
    let r = act(&b, &closed, "leave", json!({}), Some(cookie)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    told(&mut club, "club", &closed, "a member left").await;
    let r = act(
        &b,
        &closed,
        "remove",
        json!({"username": who, "ban": true}),
        Some(&t.hl.1),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    told(&mut club, "club", &closed, "a ban").await;
    // A match proposed is news on both clubs' pages; its own page hears the rest of its life.
    let r = post(&b, "/api/team-matches", proposal(&t, 2), Some(&t.hl.1)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    told(&mut home, "club", &t.home, "a match proposed").await;
    let mut page = follow(listener, &format!("team_match={id}")).await;
    let r = tm(&b, &id, "accept", json!({}), &t.al.1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    told(&mut page, "team_match", &id, "accepted").await;
    told(&mut home, "club", &t.home, "the match accepted").await;
    for (side, leader) in [(&t.hm, &t.hl), (&t.am, &t.al)] {
        let r = tm(
            &b,
            &id,
            "lineup",
            json!({"players": names(side)}),
            &leader.1,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
        told(&mut page, "team_match", &id, "a lineup").await;
    }
    clock.advance(Duration::from_secs(61));
    told(&mut page, "team_match", &id, "the start").await;
    told(&mut home, "club", &t.home, "the match running").await;
    let m = wait_match(&b, &id, |m| m["status"] == "running").await;
    let gid = m["boards"][0]["game"].as_str().unwrap().to_string();
    let st = eventually_some("the board's game", || async {
        let a = get(&b, &format!("/api/games/{gid}"), Some(&t.hm[0].1)).await;
        (a.status == 200).then_some(a.json)
    })
    .await;
    let r = post(
        &b,
        &format!("/api/games/{gid}/resign"),
        json!({"game_no": 1, "ply": st["ply"]}),
        Some(&t.hm[0].1),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    told(&mut page, "team_match", &id, "the board's result").await;
    told(&mut home, "club", &t.home, "the match finished").await;
    assert_eq!(team_match(&b, &id).await["winner"], "away");
    s1.stop().await;
    if let Some(s2) = s2 {
        s2.stop().await;
    }
}

/// What the match page reads besides the match: the viewer's part in it (`you`), a club's
/// matches (`GET /api/team-matches?club=ID`), a board's game naming its match and board,
/// and the records file of the finished games (`GET /api/team-matches/{id}/records`).
pub async fn pages_read(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = base(&s);
    let t = two_clubs(&b, &clock, 2).await;
    let id = proposed_and_accepted(&t, 2).await;
    let ours = get(&b, &format!("/api/team-matches?club={}", t.home), None).await;
    assert_eq!(ours.status, 200, "{}", ours.text);
    assert_eq!(ours.json["matches"][0]["id"], id.as_str());
    assert_eq!(ours.json["matches"][0]["status"], "accepted");
    let theirs = get(&b, &format!("/api/team-matches?club={}", t.away), None).await;
    assert_eq!(theirs.json["matches"][0]["away"]["id"], t.away.as_str());
    let none = get(&b, "/api/team-matches?club=nosuchclub", None).await;
    assert_eq!(none.status, 404, "{}", none.text);
    for (side, leader) in [(&t.hm, &t.hl), (&t.am, &t.al)] {
        let r = tm(
            &b,
            &id,
            "lineup",
            json!({"players": names(side)}),
            &leader.1,
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let as_of = |cookie: &str| {
        let (b, id, cookie) = (b.clone(), id.clone(), cookie.to_string());
        async move {
            let a = get(&b, &format!("/api/team-matches/{id}"), Some(&cookie)).await;
            assert_eq!(a.status, 200, "{}", a.text);
            a.json
        }
    };
    let m = as_of(&t.al.1).await;
    assert_eq!(m["you"]["away"], "leader", "{m}");
    assert_eq!(m["you"]["home"], Value::Null, "{m}");
    assert_eq!(m["you"]["board"], Value::Null, "{m}");
    let m = as_of(&t.hm[1].1).await;
    assert_eq!(m["you"]["home"], "member", "{m}");
    assert_eq!(m["you"]["board"], 2, "{m}");
    assert_eq!(m["you"]["side"], "home", "{m}");
    assert_eq!(team_match(&b, &id).await["you"], Value::Null);
    clock.advance(Duration::from_secs(61));
    let m = wait_match(&b, &id, |m| m["status"] == "running").await;
    let mine = as_of(&t.am[0].1).await;
    assert_eq!(mine["you"]["game"], m["boards"][0]["game"], "{mine}");
    // Nothing finished yet: an empty file.
    let r = get(&b, &format!("/api/team-matches/{id}/records"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.text.trim(), "");
    // Board 2's game names its match and board, and links back.
    let g2 = m["boards"][1]["game"].as_str().unwrap().to_string();
    let st = eventually_some("the board's game", || async {
        let a = get(&b, &format!("/api/games/{g2}"), Some(&t.hm[1].1)).await;
        (a.status == 200).then_some(a.json)
    })
    .await;
    assert_eq!(st["event"]["kind"], "team_match", "{st}");
    assert_eq!(st["event"]["id"], id.as_str());
    assert_eq!(st["event"]["round"], 2);
    assert_eq!(st["event"]["url"], format!("/m/{id}"));
    assert_eq!(st["event"]["name"], "Chama cha Bao Unguja – Bao Pemba");
    // Board 2 ends (its home player, North on an even board, resigns): its record alone.
    let r = post(
        &b,
        &format!("/api/games/{g2}/resign"),
        json!({"game_no": 1, "ply": st["ply"]}),
        Some(&t.hm[1].1),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    wait_match(&b, &id, |m| m["boards"][1]["result"] == "away").await;
    let r = get(&b, &format!("/api/team-matches/{id}/records"), None).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    // What `bao record validate` does: parse every record, then replay it by the rules.
    let records = bao_rules::parse_records_bytes(r.text.as_bytes()).expect("a records file");
    assert_eq!(records.len(), 1, "only the finished board: {}", r.text);
    records[0].validate().expect("a valid record");
    assert_ne!(records[0].result.token(), "*");
    assert!(r.text.contains(&t.hm[1].0), "{}", r.text);
    assert!(!r.text.contains(&t.hm[0].0), "{}", r.text);
    let ours = get(&b, &format!("/api/team-matches?club={}", t.home), None).await;
    assert_eq!(ours.json["matches"][0]["status"], "running");
    assert_eq!(ours.json["matches"][0]["score"]["away"].as_f64(), Some(1.0));
    s.stop().await;
}
