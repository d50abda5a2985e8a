//! Storage behaviour on a real PostgreSQL (BAO_TEST_POSTGRES_URL; scripts/start-postgres.sh
//! starts one), and two servers on one database passing live moves to each other
//! (LISTEN/NOTIFY). Without the variable these tests fail and say how to start it.

mod common;
use common::storage::*;
use common::*;
use serde_json::json;

#[tokio::test]
async fn postgres_restart_keeps_every_acknowledged_move() {
    restart_keeps_every_acknowledged_move(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_computer_moves_after_restart() {
    computer_moves_after_restart(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_one_move_per_ply_under_races() {
    one_move_per_ply_under_races(&postgres_url()).await;
}

#[tokio::test]
async fn postgres_two_servers_share_live_games() {
    let url = postgres_url();
    let (a, b) = server(&url).start_two().await;
    let ca = Client::new(&a);
    let cb = Client::new(&b);
    // Created on A, joined on B.
    let (id, south, invite) = ca.human_game("kiswahili", "S", "single_game").await;
    let j = cb
        .post(
            &format!("/api/games/{id}/join"),
            None,
            json!({"invite": invite}),
        )
        .await;
    assert_eq!(j.status, 200, "{}", j.text);
    let north = j.json["token"].as_str().unwrap().to_string();
    // A learns of the join through the database.
    let st = wait_state(&ca, &id, Some(&south), |s| s["invite"].is_null()).await;
    assert_eq!(st["you"], "S");
    // North watches on B; South moves on A; B's socket gets the move.
    let mut ws_b = ws(&b.addr.to_string(), &id, Some(&north)).await;
    next_of(&mut ws_b, "state", None).await;
    let mut ws_a = ws(&a.addr.to_string(), &id, None).await;
    next_of(&mut ws_a, "state", None).await;
    let r = ca.play(&id, &south, &first_legal(&st), 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let m = next_of(&mut ws_b, "move", Some(1)).await;
    assert_eq!(m["move"], r.json);
    assert_eq!(m["side_to_move"], "N");
    // North answers on B over its socket (a move from the frame's legal list, which only
    // the player to move gets); A's spectator sees it.
    let reply = m["legal"][0].as_str().unwrap().to_string();
    send(&mut ws_b, json!({"type": "move", "move": reply, "ply": 1})).await;
    let m2 = next_of(&mut ws_a, "move", Some(2)).await;
    assert_eq!(m2["move"]["move"], reply.as_str());
    // A stale move on A (its memory may lag) is refused by the database, not applied twice.
    let st_b = cb.state(&id, None).await;
    assert_eq!(st_b["ply"], 2);
    let r = ca.play(&id, &north, &reply, 1).await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(a.app.store.count_moves(&id).await.unwrap(), 2);
    a.stop().await;
    b.stop().await;
}
