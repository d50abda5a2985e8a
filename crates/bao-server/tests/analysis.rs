//! `POST /api/analysis` (docs/api.md, "Analysis") over real HTTP: the engine's best move and
//! line for any position, legal by the rules crate; bad input refused with words; the bounds.

mod common;

use bao_rules::{find_move, Position, Rules, Variant};
use common::*;
use serde_json::json;

#[tokio::test]
async fn analysis_gives_a_legal_line_and_refuses_bad_input_with_words() {
    let s = server(&sqlite_url("analysis")).start().await;
    let c = Client::new(&s);

    for variant in ["kiswahili", "kete", "kimasai"] {
        let v = Variant::from_id(variant).unwrap();
        let rules = Rules::new(v);
        let a = c
            .post(
                "/api/analysis",
                None,
                json!({"variant": variant, "position": variant}),
            )
            .await;
        assert_eq!(a.status, 200, "{variant}: {}", a.text);
        let line: Vec<String> = serde_json::from_value(a.json["line"].clone()).unwrap();
        assert_eq!(
            Some(line[0].as_str()),
            a.json["best"].as_str(),
            "{}",
            a.text
        );
        assert!(a.json["depth"].as_u64().unwrap() >= 1, "{}", a.text);
        let score = a.json["score"].as_str().unwrap();
        assert!(
            ["cp ", "win ", "loss "]
                .iter()
                .any(|p| score.starts_with(p)),
            "{score}"
        );
        // Every move of the line is legal, one after the other.
        let mut pos = Position::start(&rules);
        for m in &line {
            pos = find_move(&pos, &rules, m)
                .unwrap_or_else(|e| panic!("{variant}: {m} of {line:?}: {e}"))
                .next;
        }
    }

    // A position with rule options: the option string is the rules'.
    let a = c
        .post(
            "/api/analysis",
            None,
            json!({"variant": "kiswahili", "rules": "takasia=false", "position": "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0"}),
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.text);

    // A position the rules refuse: 400 bad_position, saying what is wrong (NOT-4.1 step 7).
    let bad = c
        .post(
            "/api/analysis",
            None,
            json!({"variant": "kiswahili", "position": "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 28/22 house:S,house:N 0"}),
        )
        .await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    assert_eq!(bad.json["error"], "bad_position", "{}", bad.text);
    assert!(
        bad.json["message"].as_str().unwrap().contains("70"),
        "{}",
        bad.text
    );
    // Another game's position, an unknown variant, wrong options, missing fields.
    for (body, category) in [
        (
            json!({"variant": "kete", "position": "kimasai"}),
            "bad_position",
        ),
        (
            json!({"variant": "chess", "position": "kiswahili"}),
            "bad_request",
        ),
        (
            json!({"variant": "kete", "rules": "takasia=maybe", "position": "kete"}),
            "bad_rules",
        ),
        (json!({"variant": "kete"}), "bad_request"),
        (
            json!({"variant": "kete", "position": "kete", "depth": 99}),
            "bad_request",
        ),
    ] {
        let r = c.post("/api/analysis", None, body.clone()).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        assert_eq!(r.json["error"], category, "{body}: {}", r.text);
        assert!(
            !r.json["message"].as_str().unwrap_or("").is_empty(),
            "{}",
            r.text
        );
    }
    // Bounds: a position text far longer than any position, a body over the JSON limit.
    let long = "9".repeat(5_000);
    let r = c
        .post(
            "/api/analysis",
            None,
            json!({"variant": "kete", "position": long}),
        )
        .await;
    assert_eq!(r.status, 413, "{}", r.text);
    let huge = format!(
        r#"{{"variant":"kete","position":"kete","rules":"{}"}}"#,
        "x".repeat(100_000)
    );
    let r = c.post_raw("/api/analysis", None, huge.into_bytes()).await;
    assert_eq!(r.status, 413, "{}", r.text);
    // A finished game has nothing to analyse: 409 game_over.
    let over = "kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 N 0/54 house:S 0";
    let r = c
        .post(
            "/api/analysis",
            None,
            json!({"variant": "kiswahili", "position": over}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    assert_eq!(r.json["error"], "game_over");
    // Only POST.
    assert_eq!(c.get("/api/analysis", None).await.status, 405);
}
