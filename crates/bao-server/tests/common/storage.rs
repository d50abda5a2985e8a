//! The storage tests, run on SQLite (tests/storage_sqlite.rs) and PostgreSQL
//! (tests/storage_postgres.rs) with the same code.

use super::*;
use serde_json::json;

/// Moves survive a restart of the server; the game resumes; the computer moves after a
/// restart when it is its turn.
pub async fn restart_keeps_every_acknowledged_move(url: &str) {
    let (id, south, north, acked) = {
        let s = server(url).start().await;
        let c = Client::new(&s);
        let (id, south, north) = c.two_player_game("kete", "S", "single_game").await;
        let mut acked = Vec::new();
        for ply in 0..8u64 {
            let st = c.state(&id, None).await;
            let t = if st["side_to_move"] == "S" {
                &south
            } else {
                &north
            };
            let mv = first_legal(&st);
            let r = c.play(&id, t, &mv, ply).await;
            assert_eq!(r.status, 200, "{}", r.text);
            acked.push(r.json.clone());
        }
        s.stop().await;
        (id, south, north, acked)
    };
    let s = server(url).start().await;
    let c = Client::new(&s);
    let st = c.state(&id, Some(&north)).await;
    assert_eq!(st["ply"], 8);
    assert_eq!(st["moves"], json!(acked));
    assert_eq!(st["you"], "N");
    // Tokens still work and the game goes on.
    let r = c.play(&id, &south, &first_legal(&st), 8).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(s.app.store.count_moves(&id).await.unwrap(), 9);
    s.stop().await;
}

/// A game against the computer whose turn it is when the server starts again is played on.
pub async fn computer_moves_after_restart(url: &str) {
    let id = {
        let s = server(url).start().await;
        let c = Client::new(&s);
        let a = c
            .post("/api/games", None, json!({"variant": "kiswahili", "opponent": {"kind": "computer", "level": 1}, "side": "S", "match": "single_game"}))
            .await;
        assert_eq!(a.status, 201);
        let id = a.json["id"].as_str().unwrap().to_string();
        s.stop().await;
        id
    };
    // South's move is stored while no server runs, as if the server had died between
    // acknowledging it and the computer's reply.
    {
        let store = bao_server::Store::open(url, bao_server::Durability::Full)
            .await
            .unwrap();
        let m = store.load(&id).await.unwrap().unwrap();
        let before = *m.game.position();
        let lm = bao_rules::legal_moves(&before, &m.rules).as_slice()[0];
        let mut after = m.clone();
        after.game.play(&lm);
        let ev = bao_server::domain::model::move_event(&before, &m.rules, &lm, "-");
        let write = bao_server::store::Write::Move {
            game_no: 1,
            mv: ev,
            ended: None,
        };
        store.commit(write, &after, "test").await.unwrap();
        store.close().await;
    }
    let s = server(url).start().await;
    let c = Client::new(&s);
    let st = wait_state(&c, &id, None, |s| s["ply"] == 2).await;
    assert_eq!(st["moves"][1]["by"], "N");
    assert_eq!(st["side_to_move"], "S");
    s.stop().await;
}

/// Two concurrent requests for the same ply: exactly one is stored.
pub async fn one_move_per_ply_under_races(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let (id, south, _north) = c.two_player_game("kiswahili", "S", "single_game").await;
    let st = c.state(&id, None).await;
    let legal: Vec<String> = st["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect();
    let mut tasks = Vec::new();
    for mv in legal.iter().take(6) {
        let (base, id, south, mv) = (c.base.clone(), id.clone(), south.clone(), mv.clone());
        tasks.push(tokio::spawn(async move {
            reqwest::Client::new()
                .post(format!("{base}/api/games/{id}/moves"))
                .bearer_auth(south)
                .json(&json!({"move": mv, "ply": 0}))
                .send()
                .await
                .unwrap()
                .status()
                .as_u16()
        }));
    }
    let mut ok = 0;
    for t in tasks {
        match t.await.unwrap() {
            200 => ok += 1,
            409 => {}
            other => panic!("unexpected status {other}"),
        }
    }
    assert_eq!(ok, 1);
    assert_eq!(s.app.store.count_moves(&id).await.unwrap(), 1);
    s.stop().await;
}
