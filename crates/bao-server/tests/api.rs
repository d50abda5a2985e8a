//! The JSON API and WebSocket over real HTTP against a server started in the test (SQLite).

mod common;

use bao_rules::{legal_moves, parse_records, trace, Position, Rules, Variant};
use common::*;
use futures_util::SinkExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

#[tokio::test]
async fn health_variants_pages_and_unknown_paths() {
    let s = server(&sqlite_url("pages")).start().await;
    let c = Client::new(&s);
    // An idle server: the engine pool is bounded by the machine's cores by default, and
    // nothing searches or waits.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    assert_eq!(
        c.get("/api/health", None).await.json,
        json!({
            "ok": true,
            "engine": {
                "threads": cores, "busy": 0, "live_running": 0, "live_waiting": 0,
                "review_running": 0, "review_waiting": 0, "searching": 0,
                "max_searching": 0, "granted": 0
            },
            "reviews": {"queued": 0, "running": 0}
        })
    );
    let v = c.get("/api/variants", None).await;
    assert_eq!(v.status, 200);
    let ids: Vec<&str> = v
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["kiswahili", "kete", "kimasai"]);
    for var in v.json.as_array().unwrap() {
        let variant = Variant::from_id(var["id"].as_str().unwrap()).unwrap();
        let rules = Rules::new(variant);
        assert_eq!(var["start"], Position::start(&rules).to_string());
        let names: Vec<&str> = var["options"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, Rules::option_names(variant).collect::<Vec<_>>());
        for o in var["options"].as_array().unwrap() {
            let name = o["name"].as_str().unwrap();
            assert_eq!(o["default"].as_str(), rules.get(name).as_deref(), "{name}");
            assert!(!o["help"].as_str().unwrap().is_empty(), "{name} has help");
        }
    }
    // The embedded web app.
    let home = c.get("/", None).await;
    assert_eq!(home.status, 200);
    assert!(home.headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(home.text.contains("<html") || home.text.contains("<!doctype"));
    assert_eq!(c.get("/g/whatever", None).await.status, 200);
    assert_eq!(c.get("/replay", None).await.status, 200);
    // Accounts, profiles and the leaderboard: the same page for everyone, with the account
    // menu of the header; a profile only at an address that can be a name.
    for p in [
        "/account",
        "/account/signup",
        "/account/login",
        "/account/recover",
        "/leaderboard",
        "/@/Asha",
        "/@/a_b-9",
    ] {
        let a = c.get(p, None).await;
        assert_eq!(a.status, 200, "{p}");
        assert!(
            a.text.contains("id=\"account-menu\""),
            "{p}: the account menu"
        );
    }
    assert!(c
        .get("/@/Asha", None)
        .await
        .text
        .contains("/static/profile.js"));
    // Unknown paths, variants and files are 404 with the contract's error body.
    for p in [
        "/nope",
        "/@/ab",
        "/@/a%20b",
        "/@/",
        "/account/nope",
        "/rules/chess",
        "/static/nope.js",
        "/static/../Cargo.toml",
        "/api/nope",
    ] {
        let a = c.get(p, None).await;
        assert_eq!(a.status, 404, "{p}");
    }
    assert_eq!(c.get("/api/nope", None).await.json["error"], "not_found");
    s.stop().await;
}

#[tokio::test]
async fn create_join_and_seat_protection() {
    let s = server(&sqlite_url("seats")).start().await;
    let c = Client::new(&s);
    let created = c
        .post("/api/games", None, json!({"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "N", "match": "single_game"}))
        .await;
    assert_eq!(created.status, 201, "{}", created.text);
    let id = created.json["id"].as_str().unwrap().to_string();
    let t0 = created.json["token"].as_str().unwrap().to_string();
    let invite = created.json["invite"].as_str().unwrap().to_string();
    assert_eq!(created.json["seat"], "N");
    assert_eq!(created.json["url"], format!("/g/{id}"));
    // The cookie carries the seat token.
    let cookie = created.headers["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with(&format!("bao_{id}={t0}")), "{cookie}");
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/")
    );
    // The cookie alone identifies the seat.
    let by_cookie = c
        .http
        .get(format!("{}/api/games/{id}", c.base))
        .header("cookie", format!("other=1; bao_{id}={t0}"))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(by_cookie["you"], "N");
    assert_eq!(by_cookie["invite"], invite.as_str());
    // Spectators see no invite and no seat.
    let spect = c.state(&id, None).await;
    assert_eq!(spect["you"], Value::Null);
    assert_eq!(spect["invite"], Value::Null);
    assert_eq!(spect["players"]["N"]["name"], "Player");
    // A wrong invite code is refused; the right one gives South's seat; a second join is 409.
    let bad = c
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": "wrong"}),
        )
        .await;
    assert_eq!(
        (bad.status, bad.json["error"].as_str()),
        (403, Some("forbidden"))
    );
    let own = c
        .post(
            &format!("/api/games/{id}/join"),
            Some(&t0),
            json!({"invite": invite}),
        )
        .await;
    assert_eq!(
        own.status, 409,
        "the creator cannot take the other seat too"
    );
    let j = c
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": invite, "name": "Baraka"}),
        )
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    assert_eq!(j.json["seat"], "S");
    let t1 = j.json["token"].as_str().unwrap().to_string();
    assert!(j.headers["set-cookie"]
        .to_str()
        .unwrap()
        .starts_with(&format!("bao_{id}={t1}")));
    let again = c
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": invite}),
        )
        .await;
    assert_eq!(
        (again.status, again.json["error"].as_str()),
        (409, Some("conflict"))
    );
    let st = c.state(&id, Some(&t1)).await;
    assert_eq!(st["you"], "S");
    assert_eq!(st["players"]["S"]["name"], "Baraka");
    assert_eq!(st["invite"], Value::Null);
    // Bad create requests.
    for (body, cat) in [
        (
            json!({"variant": "chess", "opponent": {"kind": "human"}}),
            "bad_request",
        ),
        (
            json!({"variant": "kete", "rules": "nope=1", "opponent": {"kind": "human"}}),
            "bad_rules",
        ),
        (
            json!({"variant": "kete", "opponent": {"kind": "computer", "level": 99}}),
            "bad_request",
        ),
        (
            json!({"variant": "kete", "opponent": {"kind": "robot"}}),
            "bad_request",
        ),
        (
            json!({"variant": "kete", "opponent": {"kind": "human"}, "start": "kimasai"}),
            "bad_position",
        ),
        (
            json!({"variant": "kete", "opponent": {"kind": "human"}, "start": "kete 1,2,3"}),
            "bad_position",
        ),
        (
            json!({"variant": "kete", "opponent": {"kind": "human"}, "side": "E"}),
            "bad_request",
        ),
        (
            json!({"variant": "kete", "opponent": {"kind": "human"}, "match": "best_of_99"}),
            "bad_request",
        ),
    ] {
        let a = c.post("/api/games", None, body.clone()).await;
        assert_eq!(
            (a.status, a.json["error"].as_str()),
            (400, Some(cat)),
            "{body} -> {}",
            a.text
        );
    }
    s.stop().await;
}

#[tokio::test]
async fn moves_are_checked_by_the_rules_and_bad_input_harms_nothing() {
    let s = server(&sqlite_url("moves")).start().await;
    let c = Client::new(&s);
    let (id, south, north) = c.two_player_game("kiswahili", "S", "single_game").await;
    let rules = Rules::new(Variant::Kiswahili);
    let start_pos = Position::start(&rules);
    let path = format!("/api/games/{id}/moves");

    // The legal list is the rules' list.
    let st = c.state(&id, Some(&south)).await;
    let expected: Vec<String> = legal_moves(&start_pos, &rules)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    let got: Vec<&str> = st["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(got, expected);
    assert_eq!(st["stage"], "namua");
    assert_eq!(st["side_to_move"], "S");
    assert!(st["svg"].as_str().unwrap().contains("id=\"pit-A5\""));

    // Refusals, each with its status and category, none of which changes the game.
    let cases: Vec<(Option<&str>, Vec<u8>, u16, &str)> = vec![
        (
            None,
            json!({"move": "A7L*", "ply": 0}).to_string().into(),
            403,
            "forbidden",
        ),
        (
            Some("0123456789abcdef0123456789abcdef"),
            json!({"move": "A7L*", "ply": 0}).to_string().into(),
            403,
            "forbidden",
        ),
        (
            Some(&north),
            json!({"move": "a7L*", "ply": 0}).to_string().into(),
            409,
            "not_your_turn",
        ),
        (
            Some(&south),
            json!({"move": "A7L*", "ply": 5}).to_string().into(),
            409,
            "conflict",
        ),
        (
            Some(&south),
            json!({"move": "A5L*", "ply": 0}).to_string().into(),
            422,
            "illegal_move",
        ),
        (
            Some(&south),
            json!({"move": "A9", "ply": 0}).to_string().into(),
            400,
            "bad_move",
        ),
        (
            Some(&south),
            json!({"move": "A7", "ply": 0}).to_string().into(),
            422,
            "ambiguous_move",
        ),
        (Some(&south), b"{\"move\": ".to_vec(), 400, "bad_request"),
        (Some(&south), b"[1,2,3]".to_vec(), 400, "bad_request"),
        (
            Some(&south),
            json!({"mv": "A7L*"}).to_string().into(),
            400,
            "bad_request",
        ),
        (Some(&south), vec![b' '; 100 * 1024], 413, "too_large"),
        (Some(&south), vec![0xff, 0xfe, 0x00], 400, "bad_request"),
    ];
    for (token, body, status, cat) in cases {
        let a = c.post_raw(&path, token, body).await;
        assert_eq!(
            (a.status, a.json["error"].as_str()),
            (status, Some(cat)),
            "{}",
            a.text
        );
        assert!(!a.json["message"].as_str().unwrap().is_empty());
    }
    // The illegal move's reason comes from the rules.
    let a = c.play(&id, &south, "A5L*", 0).await;
    assert!(
        a.json["message"].as_str().unwrap().contains("A5"),
        "{}",
        a.text
    );
    let a = c
        .post_raw(
            "/api/games/nosuchgame/moves",
            Some(&south),
            json!({"move": "A7L*", "ply": 0}).to_string().into(),
        )
        .await;
    assert_eq!(
        (a.status, a.json["error"].as_str()),
        (404, Some("not_found"))
    );
    assert_eq!(c.get("/api/games/nosuchgame", None).await.status, 404);
    assert_eq!(
        c.state(&id, None).await["ply"],
        0,
        "no refused request changed the game"
    );

    // A legal move: the answer is the MoveEvent with the rules' event lines.
    let a = c.play(&id, &south, "7l*", 0).await; // NOT-2 input form
    assert_eq!(a.status, 200, "{}", a.text);
    let mv = legal_moves(&start_pos, &rules)
        .find("A7L*")
        .copied()
        .unwrap();
    let (events, next, _) = trace(&start_pos, &rules, &mv.mv);
    assert_eq!(a.json["move"], "A7L*");
    assert_eq!(a.json["by"], "S");
    assert_eq!(a.json["ply"], 1);
    assert_eq!(a.json["position"], next.to_string());
    assert_eq!(a.json["result"], "-");
    let lines: Vec<String> = events.iter().map(|e| e.to_string()).collect();
    assert_eq!(a.json["events"], json!(lines));
    // The same request again is a conflict (ply), never a second move.
    let again = c.play(&id, &south, "A7L*", 0).await;
    assert_eq!(
        (again.status, again.json["error"].as_str()),
        (409, Some("conflict")),
        "a retried move is stale, not a turn error: {}",
        again.text
    );
    let st = c.state(&id, None).await;
    assert_eq!(st["ply"], 1);
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);
    assert_eq!(st["moves"][0], a.json);
    assert_eq!(st["position"], next.to_string());
    // Listing shows the live game.
    let live = c.get("/api/games?status=live", None).await;
    assert!(live.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id.as_str()));
    assert_eq!(c.get("/api/games?status=bogus", None).await.status, 400);
    s.stop().await;
}

#[tokio::test]
async fn websocket_live_updates_errors_and_reconnect() {
    let s = server(&sqlite_url("ws")).start().await;
    let c = Client::new(&s);
    let addr = s.addr.to_string();
    let (id, south, north) = c.two_player_game("kimasai", "S", "single_game").await;
    let mut ws_s = ws(&addr, &id, Some(&south)).await;
    let mut ws_n = ws(&addr, &id, Some(&north)).await;
    let mut ws_v = ws(&addr, &id, None).await;
    let first = next_of(&mut ws_s, "state", None).await;
    assert_eq!(first["state"]["you"], "S");
    assert_eq!(first["state"]["stage"], "phase1");
    assert_eq!(next_of(&mut ws_n, "state", None).await["state"]["you"], "N");
    assert_eq!(
        next_of(&mut ws_v, "state", None).await["state"]["you"],
        Value::Null
    );

    // ping
    send(&mut ws_v, json!({"type": "ping"})).await;
    assert_eq!(
        next_of(&mut ws_v, "pong", None).await,
        json!({"type": "pong"})
    );
    // A spectator cannot move; malformed messages get an error frame for the sender only.
    send(&mut ws_v, json!({"type": "move", "move": "A1", "ply": 0})).await;
    assert_eq!(
        next_of(&mut ws_v, "error", None).await["error"],
        "forbidden"
    );
    ws_s.send_text("not json").await;
    assert_eq!(
        next_of(&mut ws_s, "error", None).await["error"],
        "bad_request"
    );
    send(&mut ws_s, json!({"type": "dance"})).await;
    assert_eq!(
        next_of(&mut ws_s, "error", None).await["error"],
        "bad_request"
    );
    send(&mut ws_s, json!({"type": "move", "move": "Z9", "ply": 0})).await;
    assert_eq!(next_of(&mut ws_s, "error", None).await["error"], "bad_move");
    send(&mut ws_n, json!({"type": "move", "move": "a1", "ply": 0})).await;
    assert_eq!(
        next_of(&mut ws_n, "error", None).await["error"],
        "not_your_turn"
    );

    // A move over the socket reaches both players and the spectator.
    let st = c.state(&id, Some(&south)).await;
    let mv = first_legal(&st);
    send(&mut ws_s, json!({"type": "move", "move": mv, "ply": 0})).await;
    let m_s = next_of(&mut ws_s, "move", Some(1)).await;
    let m_n = next_of(&mut ws_n, "move", Some(1)).await;
    let m_v = next_of(&mut ws_v, "move", Some(1)).await;
    assert_eq!(m_s["move"]["move"], mv.as_str());
    assert_eq!(m_s["move"], m_n["move"]);
    assert_eq!(m_s["move"], m_v["move"]);
    // Lean frames (docs/api.md, "WebSocket"): what changed, no picture, no state; the next legal moves only
    // to the player now to move, the same list the full state gives.
    assert_eq!(m_n["side_to_move"], "N");
    assert_eq!(m_v["move"]["ply"], 1);
    let north_state = c.state(&id, Some(&north)).await;
    let listed: Vec<Value> = north_state["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["move"].clone())
        .collect();
    assert!(!listed.is_empty());
    assert_eq!(m_n["legal"].as_array().unwrap(), &listed);
    assert_eq!(m_s["legal"], json!([]));
    assert_eq!(m_v["legal"], json!([]));
    for m in [&m_s, &m_n, &m_v] {
        assert!(m.get("state").is_none() && m.get("svg").is_none(), "{m}");
        assert!(m.to_string().len() < 1024, "{m}");
    }

    // An oversized message: an error frame, then close code 1009; the game is unharmed.
    let big = json!({"type": "move", "move": "x".repeat(20 * 1024)}).to_string();
    ws_n.send(Message::Text(big.into())).await.unwrap();
    let e = next_of(&mut ws_n, "error", None).await;
    assert_eq!(e["error"], "too_large");
    let mut code = None;
    while let Some(Ok(m)) = futures_util::StreamExt::next(&mut ws_n).await {
        if let Message::Close(Some(f)) = m {
            code = Some(u16::from(f.code));
            break;
        }
    }
    assert_eq!(code, Some(1009));
    // A binary frame is refused.
    ws_s.send(Message::Binary(vec![1, 2, 3].into()))
        .await
        .unwrap();
    assert_eq!(
        next_of(&mut ws_s, "error", None).await["error"],
        "bad_request"
    );
    assert_eq!(c.state(&id, None).await["ply"], 1);

    // North reconnects and gets the full state back, then moves.
    let mut ws_n2 = ws(&addr, &id, Some(&north)).await;
    let st = next_of(&mut ws_n2, "state", None).await["state"].clone();
    assert_eq!(st["ply"], 1);
    assert_eq!(st["moves"].as_array().unwrap().len(), 1);
    send(
        &mut ws_n2,
        json!({"type": "move", "move": first_legal(&st), "ply": 1}),
    )
    .await;
    assert_eq!(next_of(&mut ws_s, "move", Some(2)).await["move"]["by"], "N");
    // Unknown game: 404 before any upgrade.
    let r = tokio_tungstenite::connect_async(format!("ws://{addr}/api/games/nosuch/ws")).await;
    match r {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => assert_eq!(resp.status(), 404),
        other => panic!("expected 404, got {other:?}"),
    }
    s.stop().await;
}

trait SendText {
    async fn send_text(&mut self, t: &str);
}
impl SendText for Ws {
    async fn send_text(&mut self, t: &str) {
        use futures_util::SinkExt;
        self.send(Message::Text(t.to_string().into()))
            .await
            .unwrap();
    }
}

#[tokio::test]
async fn the_computer_answers_on_the_server() {
    let s = server(&sqlite_url("computer")).start().await;
    let c = Client::new(&s);
    // The person plays North, so the computer (South) opens the game by itself.
    let a = c
        .post("/api/games", None, json!({"variant": "kete", "opponent": {"kind": "computer", "level": 1}, "side": "N", "match": "single_game"}))
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    assert_eq!(a.json["invite"], Value::Null);
    let id = a.json["id"].as_str().unwrap().to_string();
    let me = a.json["token"].as_str().unwrap().to_string();
    let st = wait_state(&c, &id, Some(&me), |s| s["ply"] == 1).await;
    assert_eq!(st["players"]["S"]["kind"], "computer");
    assert_eq!(st["players"]["S"]["level"], 1);
    assert_eq!(st["you"], "N");
    let mut sock = ws(&s.addr.to_string(), &id, Some(&me)).await;
    next_of(&mut sock, "state", None).await;
    let r = c.play(&id, &me, &first_legal(&st), 1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The computer's reply arrives over the socket.
    let reply = next_of(&mut sock, "move", Some(3)).await;
    assert_eq!(reply["move"]["by"], "S");
    // Nobody may move for the computer.
    let st = c.state(&id, Some(&me)).await;
    assert_eq!(st["side_to_move"], "N");
    s.stop().await;
}

#[tokio::test]
async fn best_of_three_swaps_sides_and_counts_wins() {
    let s = server(&sqlite_url("match")).start().await;
    let c = Client::new(&s);
    let (id, p0, p1) = c.two_player_game("kiswahili", "S", "best_of_three").await;
    // Game 1: player 0 is South; South resigns, so player 1 (North) wins.
    let st = c.state(&id, Some(&p0)).await;
    assert_eq!(
        (st["you"].as_str(), st["match"]["game_no"].as_u64()),
        (Some("S"), Some(1))
    );
    assert_eq!(st["match"]["format"], "best_of_three");
    let r = c.resign(&id, &p0, 1, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // Game 2 has started with the sides changed (BRD-8.2): player 0 is now North.
    let st = c.state(&id, Some(&p0)).await;
    assert_eq!(st["match"]["game_no"], 2);
    assert_eq!(st["you"], "N");
    assert_eq!(st["ply"], 0);
    assert_eq!(st["result"], "-");
    assert_eq!(st["players"]["S"]["name"], "Baraka");
    // Player 1 (South now) has one win.
    assert_eq!(st["match"]["wins"], json!({"S": 1, "N": 0}));
    assert_eq!(st["match"]["games"][0]["result"], "N");
    assert_eq!(st["match"]["over"], false);
    // Game 1 can still be looked at.
    let g1 = c
        .get(&format!("/api/games/{id}?game_no=1"), Some(&p0))
        .await;
    assert_eq!(g1.status, 200);
    assert_eq!(g1.json["result"], "N");
    assert_eq!(g1.json["termination"], "resignation");
    assert_eq!(
        c.get(&format!("/api/games/{id}?game_no=9"), None)
            .await
            .status,
        404
    );
    // Player 1 (South) moves first in game 2; then player 0 resigns again: 2 wins, match over.
    let st1 = c.state(&id, Some(&p1)).await;
    assert_eq!(st1["you"], "S");
    assert_eq!(c.play(&id, &p1, &first_legal(&st1), 0).await.status, 200);
    assert_eq!(c.play(&id, &p0, "a7L*", 0).await.status, 409, "stale ply");
    let r = c.resign(&id, &p0, 2, 1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let st = c.state(&id, None).await;
    assert_eq!(st["match"]["over"], true);
    assert_eq!(st["match"]["game_no"], 2);
    assert_eq!(st["match"]["winner"], "S", "player 1 plays South in game 2");
    assert_eq!(st["result"], "S");
    assert_eq!(st["legal"], json!([]));
    // No more moves or resignations.
    let r = c.resign(&id, &p1, 2, 1).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("game_over"))
    );
    let r = c.play(&id, &p1, "A7L*", 1).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("game_over"))
    );
    // The record file holds both games (NOT-6, Round tags), readable by the rules crate.
    let rec = c.get(&format!("/api/games/{id}/record"), None).await;
    assert_eq!(rec.status, 200);
    assert!(rec.headers["content-disposition"]
        .to_str()
        .unwrap()
        .contains("attachment"));
    let recs = parse_records(&rec.text).expect("a valid record file");
    assert_eq!(recs.len(), 2);
    for r in &recs {
        r.validate().expect("every game replays");
    }
    assert!(rec.text.contains("[Termination \"resignation\"]"));
    assert!(rec.text.contains("[Round \"2\"]"));
    assert!(rec.text.contains("[South \"Baraka\"]"));
    s.stop().await;
}

#[tokio::test]
async fn drawn_games_do_not_count_and_five_games_end_the_match() {
    let s = server(&sqlite_url("draws")).start().await;
    let c = Client::new(&s);
    // max_plies=2: every game is drawn after two moves (BRD-7.3); BRD-8.1 stops after five games.
    let a = c
        .post("/api/games", None, json!({"variant": "kimasai", "rules": "max_plies=2", "opponent": {"kind": "human"}, "side": "S", "match": "best_of_three"}))
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let p0 = a.json["token"].as_str().unwrap().to_string();
    let inv = a.json["invite"].as_str().unwrap().to_string();
    let p1 = c
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": inv}),
        )
        .await
        .json["token"]
        .as_str()
        .unwrap()
        .to_string();
    for game in 1..=5u64 {
        for ply in 0..2u64 {
            let st = c.state(&id, None).await;
            assert_eq!(st["match"]["game_no"], game);
            let mover = st["side_to_move"].as_str().unwrap().to_string();
            let t = if c.state(&id, Some(&p0)).await["you"] == mover.as_str() {
                &p0
            } else {
                &p1
            };
            let r = c.play(&id, t, &first_legal(&st), ply).await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
    }
    let st = c.state(&id, None).await;
    assert_eq!(st["match"]["over"], true);
    assert_eq!(st["match"]["winner"], "draw");
    assert_eq!(st["match"]["wins"], json!({"S": 0, "N": 0}));
    assert_eq!(st["match"]["games"].as_array().unwrap().len(), 5);
    assert_eq!(st["result"], "draw");
    s.stop().await;
}

#[tokio::test]
async fn records_upload_download_and_refusals() {
    let s = server(&sqlite_url("records")).start().await;
    let c = Client::new(&s);
    // NOT-6.5's example record.
    let text = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n[Date \"1994.10.17\"]\n[Result \"-\"]\n[Site \"Zanzibar\"]\n\n1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -\n";
    let up = c
        .post_raw("/api/records", None, text.as_bytes().to_vec())
        .await;
    assert_eq!(up.status, 201, "{}", up.text);
    let id = up.json["id"].as_str().unwrap();
    let st = c.state(id, None).await;
    assert_eq!(st["read_only"], true);
    assert_eq!(st["ply"], 6);
    assert_eq!(st["players"]["S"]["name"], "Ramadhan");
    let moves: Vec<&str> = st["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(moves, ["A7L*", "a5R", "A6R*", "a6R*", "A7R*", "a8L*"]);
    assert_eq!(st["legal"], json!([]));
    // Finished records are listed as finished.
    let fin = c.get("/api/games?status=finished", None).await;
    assert!(fin.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .any(|g| g["id"] == id));
    // Downloading gives the same moves back.
    let rec = c.get(&format!("/api/games/{id}/record"), None).await;
    let recs = parse_records(&rec.text).unwrap();
    let g = recs[0].validate().unwrap();
    assert_eq!(g.moves().len(), 6);
    assert!(rec.text.contains("[South \"Ramadhan\"]"));
    // Refusals name the line.
    let bad = text.replace("a6R*", "a1L*");
    let r = c.post_raw("/api/records", None, bad.into_bytes()).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (400, Some("illegal_move")),
        "{}",
        r.text
    );
    assert!(
        r.json["message"].as_str().unwrap().starts_with("line 9"),
        "{}",
        r.text
    );
    let r = c.post_raw("/api/records", None, b"hello".to_vec()).await;
    assert_eq!(r.status, 400);
    let r = c
        .post_raw("/api/records", None, vec![b'['; 2 * 1024 * 1024])
        .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (413, Some("too_large"))
    );
    s.stop().await;
}

#[tokio::test]
async fn render_svg_endpoint() {
    let s = server(&sqlite_url("svg")).start().await;
    let c = Client::new(&s);
    let a = c.get("/api/render/svg?position=kete&last=A6L", None).await;
    assert_eq!(a.status, 200);
    assert_eq!(a.headers["content-type"], "image/svg+xml");
    assert!(a.text.starts_with("<svg"));
    assert!(a.text.contains("data-pit=\"a5\""));
    let a = c.get("/api/render/svg?position=kete%201,2", None).await;
    assert_eq!(
        (a.status, a.json["error"].as_str()),
        (400, Some("bad_position"))
    );
    let a = c
        .get("/api/render/svg?position=kete&rules=takasia=maybe", None)
        .await;
    assert_eq!(
        (a.status, a.json["error"].as_str()),
        (400, Some("bad_rules"))
    );
    assert_eq!(c.get("/api/render/svg", None).await.status, 400);
    s.stop().await;
}
