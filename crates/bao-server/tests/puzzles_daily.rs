//! The daily puzzle (docs/api.md, "Puzzles"): one a game a UTC day, read on a server whose
//! clock the test moves (`util::Clock`).

mod common;

use common::*;
use std::time::Duration;

const DAY: Duration = Duration::from_secs(86_400);

#[tokio::test]
async fn one_daily_puzzle_a_game_a_day() {
    let clock = manual_clock();
    let s = server(&sqlite_url("daily")).clock(&clock).start().await;
    let c = Client::new(&s);
    let daily = |v: &'static str| {
        let c = &c;
        async move {
            let a = c
                .get(&format!("/api/puzzles/daily?variant={v}"), None)
                .await;
            assert_eq!(a.status, 200, "{}", a.text);
            a.json
        }
    };
    let today = daily("kete").await;
    let date = bao_engine::record::record_date(clock.now_ms()).replace('.', "-");
    assert_eq!(today["date"], date.as_str(), "{today}");
    assert!(
        today["id"].as_str().unwrap().starts_with("kete-"),
        "{today}"
    );
    assert!(!today["legal"].as_array().unwrap().is_empty(), "{today}");
    // The same day, asked again: the same puzzle.
    assert_eq!(daily("kete").await, today);
    // Each game has its own.
    let other = daily("kiswahili").await;
    assert!(
        other["id"].as_str().unwrap().starts_with("kiswahili-"),
        "{other}"
    );
    assert_eq!(other["date"], today["date"]);
    // The next day another.
    clock.advance(DAY);
    let tomorrow = daily("kete").await;
    assert_ne!(tomorrow["date"], today["date"]);
    assert_ne!(tomorrow["id"], today["id"], "{tomorrow}");
    // A shipped puzzle of medium difficulty: one of the middle third of the list.
    let list = c.get("/api/puzzles?variant=kete", None).await.json;
    let list = list.as_array().unwrap();
    let at = list.iter().position(|p| p["id"] == tomorrow["id"]).unwrap();
    assert!(
        at >= list.len() / 3 && at < list.len() - list.len() / 3,
        "{at}"
    );
    let bad = c.get("/api/puzzles/daily?variant=chess", None).await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    s.stop().await;
}

/// The offline pack: 100 shipped puzzles per game, the same on every call, versioned.
#[tokio::test]
async fn the_offline_pack_is_fixed_and_versioned() {
    let s = server(&sqlite_url("pack")).start().await;
    let c = Client::new(&s);
    for v in ["kiswahili", "kete", "kimasai"] {
        let a = c.get(&format!("/api/puzzles/pack?variant={v}"), None).await;
        assert_eq!(a.status, 200, "{}", a.text);
        assert_eq!(a.json["version"], 1);
        assert_eq!(a.json["variant"], v);
        let list = a.json["puzzles"].as_array().unwrap();
        assert_eq!(list.len(), 100);
        for p in list {
            assert!(p["id"].as_str().unwrap().starts_with(v), "{p}");
            assert!(!p["moves"].as_array().unwrap().is_empty(), "{p}");
            assert!(!p["legal"].as_array().unwrap().is_empty(), "{p}");
        }
        let again = c.get(&format!("/api/puzzles/pack?variant={v}"), None).await;
        assert_eq!(again.json, a.json);
    }
    s.stop().await;
}
