//! Endings (docs/api.md, "Endings"): the GameState says how a game ended as a typed value
//! (`{"reason", "winner"}`) next to the English `result_text`, for a rules ending, a loss on
//! time and a resignation, in the move frame, the finished games of a match, an earlier
//! game's state, an uploaded record, and after a restart (read back from the store).

mod common;
use common::play::*;
use common::*;
use serde_json::json;

/// tr-08 (docs/spec/fixtures/trace.txt): South's A1L+ empties North's front row (BRD-7.2).
const FRONT_ROW: &str = "kiswahili 0,0,0,0,0,0,0,0/1,2,2,16,0,0,2,0/2,0,0,0,14,0,0,1/0,0,0,0,0,0,0,0 S 12/12 house:S,house:N 1";

#[tokio::test]
async fn a_rules_ending_is_typed_in_the_state_and_the_move_frame() {
    let s = server(&sqlite_url("endings-rules")).start().await;
    let c = Client::new(&s);
    let a = create(&c, json!({"start": FRONT_ROW, "match": "single_game"})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let south = a.json["token"].as_str().unwrap().to_string();
    let _north = c.join(&id, a.json["invite"].as_str().unwrap()).await;
    let before = c.state(&id, None).await;
    assert!(before["ending"].is_null(), "{before}");
    let mut socket = ws(&s.addr.to_string(), &id, None).await;
    let _ = next_of(&mut socket, "state", None).await;
    let p = c.play(&id, &south, "A1L+", 1).await;
    assert_eq!(p.status, 200, "{}", p.text);
    let won = json!({"reason": "front_row", "winner": "S"});
    let st = c.state(&id, None).await;
    assert_eq!(st["ending"], won, "{st}");
    assert_eq!(st["result"], "S");
    assert!(st["termination"].is_null(), "{st}");
    assert_eq!(
        st["result_text"],
        "South has won: North's front row is empty"
    );
    assert_eq!(st["match"]["games"][0]["ending"], won, "{st}");
    let frame = next_of(&mut socket, "move", Some(2)).await;
    assert_eq!(frame["ending"], won, "{frame}");

    // The record of the game, uploaded: the replayed moves say which rule ended it.
    let rec = c.get(&format!("/api/games/{id}/record"), None).await;
    let up = c
        .post_raw("/api/records", None, rec.text.into_bytes())
        .await;
    assert_eq!(up.status, 201, "{}", up.text);
    let uploaded = c.state(up.json["id"].as_str().unwrap(), None).await;
    assert_eq!(uploaded["ending"], won, "{uploaded}");
    s.stop().await;
}

#[tokio::test]
async fn a_loss_on_time_is_typed() {
    let s = server(&sqlite_url("endings-time"))
        .lifecycle(no_sweep())
        .start()
        .await;
    let c = Client::new(&s);
    let (id, _south, north) = clocked_pair(
        &c,
        json!({"initial_ms": 300, "increment_ms": 0}),
        "single_game",
    )
    .await;
    // South is to move and does nothing: the server ends the game on time.
    let st = wait_state(&c, &id, Some(&north), |st| st["result"] != "-").await;
    assert_eq!(
        st["ending"],
        json!({"reason": "time", "winner": "N"}),
        "{st}"
    );
    assert_eq!(st["termination"], "time");
    assert_eq!(st["result_text"], "South ran out of time: North has won");
    assert_eq!(st["match"]["games"][0]["ending"], st["ending"]);
    s.stop().await;
}

#[tokio::test]
async fn a_resignation_is_typed_in_the_match_and_after_a_restart() {
    let url = sqlite_url("endings-resign");
    let s = server(&url).start().await;
    let c = Client::new(&s);
    let (id, south, _north) = c.two_player_game("kiswahili", "S", "best_of_three").await;
    let r = c.resign(&id, &south, 1, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let resigned = json!({"reason": "resignation", "winner": "N"});
    // Game 2 goes on with the sides changed; game 1 is listed with its ending, keyed by
    // the sides of that game.
    let st = c.state(&id, None).await;
    assert_eq!(st["match"]["game_no"], 2, "{st}");
    assert!(st["ending"].is_null(), "{st}");
    assert_eq!(st["match"]["games"][0]["ending"], resigned, "{st}");
    assert_eq!(
        st["match"]["games"][0]["result_text"],
        "South resigned: North has won"
    );
    s.stop().await;

    // Read back from the store by a new server.
    let s = server(&url).start().await;
    let c = Client::new(&s);
    let st = c.state(&id, None).await;
    assert_eq!(st["match"]["games"][0]["ending"], resigned, "{st}");
    let past = c.get(&format!("/api/games/{id}?game_no=1"), None).await;
    assert_eq!(past.status, 200, "{}", past.text);
    assert_eq!(past.json["ending"], resigned, "{}", past.text);
    assert_eq!(past.json["termination"], "resignation");
    s.stop().await;
}
