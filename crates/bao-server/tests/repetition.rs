//! A game on the server ends drawn by threefold repetition (BRD-7.5).
//!
//! The line is the kimasai staircase cycle of crates/bao-rules/tests/repetition.rs: South's
//! staircase 10, 9, …, 1 (A1 to B7) and North's 3, 2, 1 (a1–a3) and 2, 1 (b8–b7) each move one
//! pit per move without capturing, and the start position recurs after 64 plies. Two people
//! play it over HTTP twice round; the 128th move draws. The same for the kiswahili cycle of
//! crates/bao-rules/tests/data/kiswahili-game-to-repetition.txt (24 plies, 5 of them
//! captures) and the kete cycle of kete-game-to-repetition.txt (48 plies), each from its
//! first position (North to move).

mod common;
use bao_rules::{parse_records, Outcome, RecordResult};
use common::*;
use serde_json::json;

#[path = "../../bao-rules/tests/data/staircase.rs"]
mod staircase;

/// Two people play `line` (the cycle twice, then one move more) over HTTP from `start`,
/// whose side to move is `first`; the game must end drawn by repetition at the end of the
/// second round and refuse the move after it.
async fn plays_to_a_repetition_draw(
    db: &str,
    variant: &str,
    start_pos: &str,
    first: &str,
    line: &[String],
) {
    let plies = line.len() - 1;
    let cycle = plies / 2;
    let s = server(&sqlite_url(db)).start().await;
    let c = Client::new(&s);
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": variant, "rules": "-", "opponent": {"kind": "human"},
                   "side": "S", "match": "single_game", "start": start_pos, "name": "Asha"}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let south = a.json["token"].as_str().unwrap().to_string();
    let invite = a.json["invite"].as_str().unwrap().to_string();
    let north = c.join(&id, &invite).await;
    let (first_token, second_token) = if first == "S" {
        (&south, &north)
    } else {
        (&north, &south)
    };

    for (ply, mv) in line[..plies].iter().enumerate() {
        let token = if ply % 2 == 0 {
            first_token
        } else {
            second_token
        };
        let r = c.play(&id, token, mv, ply as u64).await;
        assert_eq!(r.status, 200, "ply {} ({mv}): {}", ply + 1, r.text);
        if ply + 1 == cycle || ply + 2 == plies {
            // Second occurrence and one ply before the third: the game goes on.
            let st = c.state(&id, None).await;
            assert_eq!(st["result"], "-", "after ply {}", ply + 1);
        }
    }
    let st = c.state(&id, None).await;
    assert_eq!(st["ply"], plies);
    assert_eq!(
        st["position"],
        start_pos.replace(" - 0", &format!(" - {plies}"))
    );
    assert_eq!(st["result"], "draw");
    let text = st["result_text"].as_str().unwrap_or_default();
    assert!(text.contains("three times"), "{st}");
    assert_eq!(st["legal"].as_array().map(|l| l.len()), Some(0));
    assert_eq!(st["match"]["over"], true);
    assert_eq!(st["match"]["winner"], "draw");

    // No move after the draw.
    let r = c.play(&id, first_token, &line[plies], plies as u64).await;
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
    assert_eq!(g.moves().len(), plies);
    assert!(matches!(g.outcome(), Outcome::Draw(_)));
    s.stop().await;
}

#[tokio::test]
async fn a_game_ends_drawn_by_threefold_repetition() {
    let line: Vec<String> = staircase::round().into_iter().cycle().take(129).collect();
    plays_to_a_repetition_draw("repetition", "kimasai", staircase::start(), "S", &line).await;
}

/// The cycle at the end of a data file (its last `len` moves) twice and one move more.
fn cycle_of(text: &str, len: usize) -> Vec<String> {
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    moves[moves.len() - len..]
        .iter()
        .cycle()
        .take(2 * len + 1)
        .map(|m| m.to_string())
        .collect()
}

#[tokio::test]
async fn a_kiswahili_game_ends_drawn_by_threefold_repetition() {
    // The cycle's first position is named in the data file's header (here with the ply
    // counter from 0).
    let line = cycle_of(
        include_str!("../../bao-rules/tests/data/kiswahili-game-to-repetition.txt"),
        24,
    );
    let first =
        "kiswahili 1,12,8,1,0,2,15,9/1,3,0,1,0,1,1,1/1,0,0,0,0,0,0,1/0,1,1,2,0,1,1,0 N 0/0 - 0";
    plays_to_a_repetition_draw("repetition-kiswahili", "kiswahili", first, "N", &line).await;
}

#[tokio::test]
async fn a_kete_game_ends_drawn_by_threefold_repetition() {
    let line = cycle_of(
        include_str!("../../bao-rules/tests/data/kete-game-to-repetition.txt"),
        48,
    );
    let first = "kete 1,16,4,1,2,0,14,8/1,4,1,0,1,1,1,0/0,0,0,0,0,0,0,1/1,2,1,0,1,0,2,1 N 0/0 - 0";
    plays_to_a_repetition_draw("repetition-kete", "kete", first, "N", &line).await;
}
