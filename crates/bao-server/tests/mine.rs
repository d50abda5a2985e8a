//! `POST /api/games/mine` (docs/api.md, "My games") over real HTTP, on SQLite and
//! on PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh starts one).

mod common;

use common::*;
use serde_json::{json, Value};
use std::time::Duration;

/// Makes the next change land on a later millisecond than the one before, so that "newest
/// activity first" has one right answer.
async fn tick() {
    let t = bao_server::util::now_ms();
    while bao_server::util::now_ms() <= t + 1 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
}

fn ids(a: &Value) -> Vec<&str> {
    a["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect()
}

fn game<'a>(a: &'a Value, id: &str) -> &'a Value {
    a["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap_or_else(|| panic!("{id} listed in {a}"))
}

async fn my_games_say_whose_turn_it_is(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);

    // A: Asha (South) against Baraka, both seats taken.
    let (a, asha_a, baraka_a) = c.two_player_game("kiswahili", "S", "single_game").await;
    tick().await;
    // B: Asha (North) waits for an opponent.
    let (b, asha_b, _invite) = c.human_game("kete", "N", "single_game").await;
    tick().await;
    // C: Asha (South) against the computer, resigned at once.
    let cc = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kimasai", "opponent": {"kind": "computer", "level": 1},
                   "side": "S", "match": "single_game", "name": "Asha"}),
        )
        .await;
    assert_eq!(cc.status, 201, "{}", cc.text);
    let g_c = cc.json["id"].as_str().unwrap().to_string();
    let asha_c = cc.json["token"].as_str().unwrap().to_string();
    tick().await;
    // A: Asha moves, so it is Baraka's turn now and A is the most recent change.
    let st = c.state(&a, Some(&asha_a)).await;
    assert_eq!(st["side_to_move"], "S");
    let mv = c.play(&a, &asha_a, &first_legal(&st), 0).await;
    assert_eq!(mv.status, 200, "{}", mv.text);
    tick().await;
    let r = c.resign(&g_c, &asha_c, 1, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);

    let seats = json!({"games": [
        {"id": a, "token": asha_a},
        {"id": b, "token": asha_b},
        {"id": g_c, "token": asha_c},
        {"id": "zz9nothere", "token": asha_a},
        {"id": "../etc", "token": asha_a},
    ]});
    let m = c.post("/api/games/mine", None, seats).await;
    assert_eq!(m.status, 200, "{}", m.text);
    // Newest activity first: C resigned last, then A's move, then B's creation.
    assert_eq!(ids(&m.json), [g_c.as_str(), a.as_str(), b.as_str()]);

    let ga = game(&m.json, &a);
    assert_eq!(ga["your_side"], "S");
    assert_eq!(ga["to_move"], "N", "Asha moved: Baraka's turn");
    assert_eq!(ga["status"], "live");
    assert_eq!(ga["result"], "-");
    assert_eq!(ga["waiting"], false);
    assert_eq!(ga["variant"], "kiswahili");
    assert_eq!(ga["ply"], 1);
    assert_eq!(ga["players"]["S"]["name"], "Asha");
    assert_eq!(ga["players"]["N"]["name"], "Baraka");
    assert_eq!(ga["players"]["N"]["kind"], "human");

    let gb = game(&m.json, &b);
    assert_eq!(gb["your_side"], "N");
    assert_eq!(gb["to_move"], "S");
    assert_eq!(gb["waiting"], true, "nobody has used the invite");
    assert_eq!(gb["variant"], "kete");

    let gc = game(&m.json, &g_c);
    assert_eq!(gc["status"], "finished");
    assert_eq!(
        gc["to_move"],
        Value::Null,
        "nobody moves in a finished game"
    );
    assert_eq!(gc["result"], "N", "Asha resigned as South");
    assert_eq!(gc["players"]["N"]["kind"], "computer");
    assert_eq!(gc["players"]["N"]["level"], 1);

    let refused = m.json["refused"].as_array().unwrap();
    assert_eq!(refused.len(), 2, "{refused:?}");
    assert!(refused.iter().all(|x| x["error"] == "not_found"));
    assert!(refused[0]["message"]
        .as_str()
        .unwrap()
        .contains("zz9nothere"));

    // Baraka's view of A: his side, his turn. A wrong token for a game is refused
    // (`forbidden`) without hiding the others; the same id sent twice with one good token is
    // answered once.
    let m = c
        .post(
            "/api/games/mine",
            None,
            json!({"games": [
                {"id": a, "token": "00000000000000000000000000000000"},
                {"id": a, "token": baraka_a},
                {"id": b, "token": baraka_a},
            ]}),
        )
        .await;
    assert_eq!(m.status, 200, "{}", m.text);
    assert_eq!(ids(&m.json), [a.as_str()]);
    assert_eq!(game(&m.json, &a)["your_side"], "N");
    assert_eq!(game(&m.json, &a)["to_move"], "N");
    let refused = m.json["refused"].as_array().unwrap();
    assert_eq!(refused.len(), 1, "{refused:?}");
    assert_eq!(refused[0]["id"], b.as_str());
    assert_eq!(refused[0]["error"], "forbidden");

    // Best of three: after game 1 the players change sides (BRD-8.2) and so does `your_side`.
    let (d, asha_d, baraka_d) = c.two_player_game("kiswahili", "S", "best_of_three").await;
    let r = c.resign(&d, &asha_d, 1, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let m = c
        .post(
            "/api/games/mine",
            None,
            json!({"games": [{"id": d, "token": asha_d}]}),
        )
        .await;
    let gd = game(&m.json, &d);
    assert_eq!(gd["game_no"], 2);
    assert_eq!(gd["status"], "live");
    assert_eq!(gd["your_side"], "N", "Asha was South in game 1");
    assert_eq!(gd["to_move"], "S");
    assert_eq!(gd["players"]["S"]["name"], "Baraka");
    let m = c
        .post(
            "/api/games/mine",
            None,
            json!({"games": [{"id": d, "token": baraka_d}]}),
        )
        .await;
    assert_eq!(game(&m.json, &d)["your_side"], "S");

    // An empty list is a valid question.
    let m = c.post("/api/games/mine", None, json!({"games": []})).await;
    assert_eq!(m.status, 200);
    assert_eq!(m.json, json!({"games": [], "refused": []}));

    // The seat cookies count too (games whose token the page never kept): live ones only,
    // never refused, and not our other cookies (bao_lang).
    let with_cookies = |cookie: String, body: Value| {
        let c = &c;
        async move {
            let r = c
                .http
                .post(format!("{}/api/games/mine", c.base))
                .header("content-type", "application/json")
                .header("cookie", cookie)
                .body(body.to_string())
                .send()
                .await
                .unwrap();
            assert_eq!(r.status(), 200);
            r.json::<Value>().await.unwrap()
        }
    };
    let m = with_cookies(
        format!("bao_lang=sw; bao_{a}={asha_a}; bao_{g_c}={asha_c}; bao_zz9gone={asha_a}"),
        json!({"games": []}),
    )
    .await;
    assert_eq!(ids(&m), [a.as_str()], "C is finished, zz9gone unknown: {m}");
    assert_eq!(game(&m, &a)["your_side"], "S");
    assert_eq!(m["refused"], json!([]));
    // A game named in the body is judged by the body's token alone.
    let m = with_cookies(
        format!("bao_{a}={asha_a}; bao_{b}={asha_b}"),
        json!({"games": [{"id": a, "token": baraka_a}]}),
    )
    .await;
    assert_eq!(ids(&m), [a.as_str(), b.as_str()]);
    assert_eq!(
        game(&m, &a)["your_side"],
        "N",
        "Baraka's token from the body"
    );
    s.stop().await;
}

async fn bad_questions_get_clear_errors(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let many: Vec<Value> = (0..51)
        .map(|i| json!({"id": format!("g{i}"), "token": "x"}))
        .collect();
    let m = c
        .post("/api/games/mine", None, json!({ "games": many }))
        .await;
    assert_eq!(m.status, 400, "{}", m.text);
    assert_eq!(m.json["error"], "bad_request");
    assert!(
        m.json["message"].as_str().unwrap().contains("50"),
        "{}",
        m.text
    );

    for body in [
        json!({}),
        json!({"games": [{"id": "abc"}]}),
        json!({"games": "abc"}),
        json!([]),
    ] {
        let m = c.post("/api/games/mine", None, body.clone()).await;
        assert_eq!(m.status, 400, "{body}: {}", m.text);
        assert_eq!(m.json["error"], "bad_request", "{body}");
    }
    let m = c
        .post_raw("/api/games/mine", None, b"{not json".to_vec())
        .await;
    assert_eq!(m.status, 400);
    // Only POST: it is not a game called "mine".
    let g = c.get("/api/games/mine", None).await;
    assert_eq!(g.status, 405, "{}", g.text);
    s.stop().await;
}

#[tokio::test]
async fn sqlite_my_games_say_whose_turn_it_is() {
    my_games_say_whose_turn_it_is(&sqlite_url("mine")).await;
}

#[tokio::test]
async fn sqlite_bad_questions_get_clear_errors() {
    bad_questions_get_clear_errors(&sqlite_url("mine-bad")).await;
}

#[tokio::test]
async fn postgres_my_games_say_whose_turn_it_is() {
    my_games_say_whose_turn_it_is(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_bad_questions_get_clear_errors() {
    bad_questions_get_clear_errors(&postgres_url()).await;
}
