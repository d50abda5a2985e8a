//! The measurement of issue "team Swiss of 64 clubs with 4 boards paired in under a second"
//! (docs/api.md, "Team tournaments"), over real HTTP: 64 clubs of 4 players enter a 4-board
//! Swiss of 5 rounds. Round 1 is paired by the organiser's start request, in its one
//! transaction (the pairing, 32 team matches and their events): its time is that request's.
//! Later rounds are paired by the tournament task when the last match of a round has its
//! result; their results come from lineups the test sets or leaves out (a seeded choice per
//! match: home only, away only or neither names players, so boards are won by forfeit or
//! count for nobody), so the scores spread as in a real Swiss. Their time is from the clock
//! passing the lineup window (every match starts and finishes at once) to the next round
//! read back: an upper bound on the pairing, which is inside it.

use super::teams::tm;
use super::teamtour::{clubs, enter_all, made, tact, team_round_robin, tournament};
use super::tournaments::quick;
use super::*;
use serde_json::json;
use std::time::Instant;

/// See the module's comment. Prints the figures.
pub async fn measure_team_swiss(url: &str) {
    const CLUBS: usize = 64;
    const BOARDS: usize = 4;
    const ROUNDS: usize = 5;
    let seed: u64 = std::env::var("BAO_TEST_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64);
    eprintln!("measure_team_swiss: seed {seed} (BAO_TEST_SEED)");
    let clock = manual_clock();
    let s = server(url).clock(&clock).lifecycle(quick()).start().await;
    let b = super::accounts::base(&s);
    let t0 = Instant::now();
    let cs = clubs(&b, CLUBS, BOARDS).await;
    eprintln!(
        "{CLUBS} clubs of {} accounts made in {:?}",
        BOARDS + 1,
        t0.elapsed()
    );
    let mut body = team_round_robin(json!(BOARDS), CLUBS as i64);
    body["format"] = json!({"kind": "swiss", "rounds": ROUNDS});
    let id = made(&b, body, &cs[0].leader.1).await;
    enter_all(&b, &id, &cs).await;
    let t = Instant::now();
    let r = tact(&b, &id, "start", json!({}), &cs[0].leader.1).await;
    let first = t.elapsed();
    assert_eq!(r.status, 200, "{}", r.text);
    let mut times = vec![first];
    let mut state = seed;
    let mut next = move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        state >> 33
    };
    for no in 1..ROUNDS {
        let t = tournament(&b, &id).await;
        assert_eq!(t["round"], no as i64, "{t}");
        let pairings = t["rounds"][no - 1]["pairings"].as_array().unwrap().clone();
        assert_eq!(pairings.len(), CLUBS / 2, "every club plays: {t}");
        for p in &pairings {
            let mid = p["match"].as_str().expect("a team match");
            let names: [&str; 2] = [p["S"].as_str().unwrap(), p["N"].as_str().unwrap()];
            let side = next() % 3;
            if side == 2 {
                continue;
            }
            let club = cs.iter().find(|c| c.name == names[side as usize]).unwrap();
            let players: Vec<&str> = club.members.iter().map(|m| m.0.as_str()).collect();
            let r = tm(
                &b,
                mid,
                "lineup",
                json!({ "players": players }),
                &club.leader.1,
            )
            .await;
            assert_eq!(r.status, 200, "{}", r.text);
        }
        let t = Instant::now();
        clock.advance(Duration::from_secs(10 * 60 + 1));
        let _ = eventually_some("the next round", || async {
            let v = tournament(&b, &id).await;
            (v["round"] == no as i64 + 1).then_some(v)
        })
        .await;
        times.push(t.elapsed());
    }
    let t = tournament(&b, &id).await;
    let scores: Vec<String> = t["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].to_string())
        .collect();
    eprintln!(
        "standings' match points before round {ROUNDS}: {}",
        scores.join(" ")
    );
    eprintln!(
        "round 1 paired by the start request in {:?}; rounds 2..{ROUNDS}, from the lineup \
         window's end (32 matches started, finished and recorded) to the next round read: {:?}",
        times[0],
        &times[1..]
    );
    s.stop().await;
}
