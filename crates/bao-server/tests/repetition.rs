//! A game on the server ends drawn by threefold repetition (BRD-7.5, issue 14).
//!
//! The line is the kimasai staircase cycle of crates/bao-rules/tests/repetition.rs: South's
//! staircase 10, 9, …, 1 (A1 to B7) and North's 3, 2, 1 (a1–a3) and 2, 1 (b8–b7) each move one
//! pit per move without capturing, and the start position recurs after 64 plies. Two people
//! play it over HTTP twice round; the 128th move draws.

mod common;
use bao_rules::{parse_records, Outcome, RecordResult};
use common::*;
use serde_json::json;

#[path = "../../bao-rules/tests/data/staircase.rs"]
mod staircase;

#[tokio::test]
async fn a_game_ends_drawn_by_threefold_repetition() {
    let s = start(&sqlite_url("repetition")).await;
    let c = Client::new(&s);
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kimasai", "rules": "-", "opponent": {"kind": "human"},
                   "side": "S", "match": "single_game", "start": staircase::start(), "name": "Asha"}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let south = a.json["token"].as_str().unwrap().to_string();
    let invite = a.json["invite"].as_str().unwrap().to_string();
    let north = c.join(&id, &invite).await;

    let line: Vec<String> = staircase::round().into_iter().cycle().take(129).collect();
    for (ply, mv) in line[..128].iter().enumerate() {
        let token = if ply % 2 == 0 { &south } else { &north };
        let r = c.play(&id, token, mv, ply as u64).await;
        assert_eq!(r.status, 200, "ply {} ({mv}): {}", ply + 1, r.text);
        if ply == 63 || ply == 126 {
            // Second occurrence (ply 64) and one ply before the third: the game goes on.
            let st = c.state(&id, None).await;
            assert_eq!(st["result"], "-", "after ply {}", ply + 1);
        }
    }
    let st = c.state(&id, None).await;
    assert_eq!(st["ply"], 128);
    assert_eq!(st["position"], staircase::start().replace(" - 0", " - 128"));
    assert_eq!(st["result"], "draw");
    let text = st["result_text"].as_str().unwrap_or_default();
    assert!(text.contains("three times"), "{st}");
    assert_eq!(st["legal"].as_array().map(|l| l.len()), Some(0));
    assert_eq!(st["match"]["over"], true);
    assert_eq!(st["match"]["winner"], "draw");

    // No move after the draw.
    let r = c.play(&id, &south, &line[128], 128).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("game_over")),
        "{}",
        r.text
    );

    // The record ends in the draw and replays to it (NOT-6.4).
    let rec = c.get(&format!("/api/games/{id}/record"), None).await;
    assert_eq!(rec.status, 200, "{}", rec.text);
    let recs = parse_records(&rec.text).expect("a valid record file");
    assert_eq!(recs.len(), 1);
    assert_eq!(recs[0].result, RecordResult::Draw);
    let g = recs[0].validate().expect("the record replays");
    assert_eq!(g.moves().len(), 128);
    assert!(matches!(g.outcome(), Outcome::Draw(_)));
    s.stop().await;
}
