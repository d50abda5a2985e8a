//! Learn (docs/api.md, "Learn"): the lessons over real HTTP in both languages, every
//! solution accepted by the check with three stars at par, a wrong move not done, bad input
//! refused in words, an unknown game 404.

mod common;

use common::*;
use serde_json::{json, Value};

/// The plies of a solution line: the learner's moves with the scripted replies between them,
/// as bao-learn's `Step::solution_plies` builds them, from the API's fields alone.
fn plies(step: &Value, line: &str) -> Vec<String> {
    let script: Vec<String> = step["replies"]
        .as_array()
        .map(|a| a.iter().map(|r| r.as_str().unwrap().to_string()).collect())
        .unwrap_or_default();
    let mine: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::new();
    for (i, m) in mine.iter().enumerate() {
        out.push(m.to_string());
        if i + 1 < mine.len() {
            out.push(script[i].clone());
        }
    }
    out
}

#[tokio::test]
async fn lessons_in_both_languages_with_keys_and_texts() {
    let s = server(&sqlite_url("learn")).start().await;
    let c = Client::new(&s);
    for v in ["kiswahili", "kete", "kimasai"] {
        let en = c.get(&format!("/api/learn/{v}?lang=en"), None).await;
        let sw = c.get(&format!("/api/learn/{v}?lang=sw"), None).await;
        assert_eq!(en.status, 200, "{}", en.text);
        assert_eq!(sw.status, 200, "{}", sw.text);
        assert_eq!(en.json["lang"], "en");
        assert_eq!(sw.json["lang"], "sw");
        assert_eq!(en.headers["content-language"], "en");
        assert_eq!(sw.headers["content-language"], "sw");
        let (le, ls) = (
            en.json["lessons"].as_array().unwrap(),
            sw.json["lessons"].as_array().unwrap(),
        );
        assert!(!le.is_empty());
        assert_eq!(le.len(), ls.len());
        for (a, b) in le.iter().zip(ls) {
            assert_eq!(a["id"], b["id"]);
            assert_eq!(a["title_key"], b["title_key"]);
            let key = a["title_key"].as_str().unwrap();
            assert!(key.starts_with("learn."), "{key}");
            let (ta, tb) = (a["title"].as_str().unwrap(), b["title"].as_str().unwrap());
            // Real texts, not the keys, and a different one in each language.
            assert!(ta != key && tb != key && ta != tb, "{key}: {ta} / {tb}");
            for (sa, sb) in a["steps"]
                .as_array()
                .unwrap()
                .iter()
                .zip(b["steps"].as_array().unwrap())
            {
                for f in ["position", "goal", "solutions", "rules", "par", "replies"] {
                    assert_eq!(sa[f], sb[f], "{f}");
                    assert!(!sa[f].is_null(), "{f}");
                }
                assert!(!sa["solutions"].as_array().unwrap().is_empty());
                let tk = sa["text_key"].as_str().unwrap();
                assert_eq!(sb["text_key"], tk);
                assert_ne!(sa["text"], tk);
                assert_ne!(sa["text"], sb["text"], "{tk}");
                let hints = sa["hints"].as_array().unwrap();
                assert_eq!(hints.len(), sa["hint_keys"].as_array().unwrap().len());
                assert_eq!(hints.len(), sb["hints"].as_array().unwrap().len());
                for (h, k) in hints.iter().zip(sa["hint_keys"].as_array().unwrap()) {
                    assert_ne!(h, k);
                }
            }
        }
    }
    s.stop().await;
}

#[tokio::test]
async fn the_language_comes_from_the_query_the_cookie_or_accept_language() {
    let s = server(&sqlite_url("learn-lang")).start().await;
    let c = Client::new(&s);
    let url = format!("{}/api/learn/kiswahili", c.base);
    let lang = |r: reqwest::Response| async move {
        let v: Value = r.json().await.unwrap();
        v["lang"].as_str().unwrap().to_string()
    };
    let plain = c.http.get(&url).send().await.unwrap();
    assert_eq!(lang(plain).await, "en");
    let accept = c
        .http
        .get(&url)
        .header("accept-language", "sw-TZ, en;q=0.5")
        .send()
        .await
        .unwrap();
    assert_eq!(lang(accept).await, "sw");
    let cookie = c
        .http
        .get(&url)
        .header("cookie", "bao_lang=sw")
        .header("accept-language", "en")
        .send()
        .await
        .unwrap();
    assert_eq!(lang(cookie).await, "sw");
    let query = c
        .http
        .get(format!("{url}?lang=en"))
        .header("cookie", "bao_lang=sw")
        .send()
        .await
        .unwrap();
    assert_eq!(lang(query).await, "en");
    s.stop().await;
}

#[tokio::test]
async fn every_solution_is_done_with_three_stars_at_par() {
    let s = server(&sqlite_url("learn-check")).start().await;
    let c = Client::new(&s);
    let mut checked = 0;
    for v in ["kiswahili", "kete", "kimasai"] {
        let course = c.get(&format!("/api/learn/{v}"), None).await.json;
        for lesson in course["lessons"].as_array().unwrap() {
            for (i, step) in lesson["steps"].as_array().unwrap().iter().enumerate() {
                for line in step["solutions"].as_array().unwrap() {
                    let line = line.as_str().unwrap();
                    let r = c
                        .post(
                            &format!("/api/learn/{v}/check"),
                            None,
                            json!({"lesson": lesson["id"], "step": i, "moves": plies(step, line)}),
                        )
                        .await;
                    assert_eq!(r.status, 200, "{v} {} {i} {line}: {}", lesson["id"], r.text);
                    assert_eq!(r.json["done"], true, "{v} {} {i} {line}", lesson["id"]);
                    assert_eq!(r.json["stars"], 3, "{v} {} {i} {line}", lesson["id"]);
                    assert_eq!(r.json["moves"], line.split_whitespace().count());
                    assert!(r.json["moves"].as_u64() <= step["par"].as_u64());
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 60, "{checked}");
    s.stop().await;
}

/// A legal move of the first kiswahili step that is not one of its solutions: the first
/// step teaches one sowing, so a sowing in the other direction misses it.
#[tokio::test]
async fn a_wrong_move_is_not_done() {
    let s = server(&sqlite_url("learn-wrong")).start().await;
    let c = Client::new(&s);
    let course = c.get("/api/learn/kiswahili", None).await.json;
    let lesson = &course["lessons"][0];
    let step = &lesson["steps"][0];
    let solutions: Vec<&str> = step["solutions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap())
        .collect();
    let pos = bao_rules::Position::parse(
        step["position"].as_str().unwrap(),
        &bao_rules::Rules::new(bao_rules::Variant::Kiswahili),
    )
    .unwrap();
    let legal = bao_rules::legal_moves(&pos, &bao_rules::Rules::new(bao_rules::Variant::Kiswahili));
    let wrong = legal
        .iter()
        .map(|m| m.mv.to_string())
        .find(|m| !solutions.contains(&m.as_str()))
        .expect("a legal move that misses the goal");
    let r = c
        .post(
            "/api/learn/kiswahili/check",
            None,
            json!({"lesson": lesson["id"], "step": 0, "moves": [wrong]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json, json!({"done": false, "stars": 0, "moves": 1}));
    // Nothing played yet: not done, no moves.
    let r = c
        .post(
            "/api/learn/kiswahili/check",
            None,
            json!({"lesson": lesson["id"], "step": 0, "moves": []}),
        )
        .await;
    assert_eq!(r.json, json!({"done": false, "stars": 0, "moves": 0}));
    s.stop().await;
}

#[tokio::test]
async fn bad_input_is_refused_in_words_and_an_unknown_game_is_404() {
    let s = server(&sqlite_url("learn-bad")).start().await;
    let c = Client::new(&s);
    let course = c.get("/api/learn/kete", None).await.json;
    let id = course["lessons"][0]["id"].clone();
    let url = "/api/learn/kete/check";
    let refused = |r: &Answer, status: u16| {
        assert_eq!(r.status, status, "{}", r.text);
        let m = r.json["message"].as_str().unwrap();
        assert!(m.len() > 15 && m.contains(' '), "{m}");
    };
    let cases = [
        json!({"lesson": "nope", "step": 0, "moves": []}),
        json!({"lesson": id, "step": 99, "moves": []}),
        json!({"lesson": id, "step": 0, "moves": vec!["A5L"; 41]}),
        json!({"lesson": id, "step": 0, "moves": ["A".repeat(33)]}),
        json!({"lesson": id, "step": 0, "moves": ["zz!"]}),
        json!({"lesson": id, "step": 0}),
        json!({"lesson": id, "step": 0, "moves": [], "extra": 1}),
        json!({"lesson": id, "step": -1, "moves": []}),
    ];
    for body in cases {
        let r = c.post(url, None, body.clone()).await;
        refused(&r, 400);
        let category = r.json["error"].as_str().unwrap();
        assert!(
            category == "bad_request" || category == "bad_move",
            "{body}: {}",
            r.text
        );
    }
    let r = c.post_raw(url, None, b"{not json".to_vec()).await;
    refused(&r, 400);
    // A move the rules refuse in this position: 422, as for a game.
    let r = c
        .post(
            url,
            None,
            json!({"lesson": id, "step": 0, "moves": ["h9R"]}),
        )
        .await;
    assert!(r.status == 400 || r.status == 422, "{}", r.text);
    for path in ["/api/learn/chess", "/api/learn/chess?lang=sw"] {
        let r = c.get(path, None).await;
        refused(&r, 404);
        assert!(r.json["message"].as_str().unwrap().contains("kiswahili"));
    }
    let r = c
        .post(
            "/api/learn/chess/check",
            None,
            json!({"lesson": "x", "step": 0, "moves": []}),
        )
        .await;
    refused(&r, 404);
    s.stop().await;
}

/// The Learn page (docs/learn.md, "The web page"): `/learn` and one address per lesson of
/// every course, in the reader's language; an unknown game or lesson is 404.
#[tokio::test]
async fn the_page_has_an_address_per_lesson() {
    let s = server(&sqlite_url("learn-page")).start().await;
    let c = Client::new(&s);
    let list = c.get("/learn?lang=sw", None).await;
    assert_eq!(list.status, 200);
    assert!(
        list.text.contains("<title>Jifunze · bao</title>"),
        "{}",
        list.text
    );
    assert!(list.text.contains("/static/learn.js?v="));
    let en = c.get("/learn?lang=en", None).await;
    assert!(en.text.contains("<title>Learn · bao</title>"));
    let mut lessons = 0;
    for v in ["kiswahili", "kete", "kimasai"] {
        let course = c.get(&format!("/api/learn/{v}"), None).await;
        for l in course.json["lessons"].as_array().unwrap() {
            let id = l["id"].as_str().unwrap();
            let page = c.get(&format!("/learn/{v}/{id}?step=1"), None).await;
            assert_eq!(page.status, 200, "/learn/{v}/{id}");
            assert!(page.text.contains("id=\"lesson\""));
            lessons += 1;
        }
    }
    assert_eq!(lessons, 24);
    for bad in [
        "/learn/kete/no_such_lesson",
        "/learn/chess/board",
        "/learn/kete",
    ] {
        assert_eq!(c.get(bad, None).await.status, 404, "{bad}");
    }
    // The home page and every page's navigation lead here.
    let home = c.get("/?lang=sw", None).await;
    // The guest's first screen offers the lessons among its three ways to start.
    let start = &home.text[home
        .text
        .find("id=\"learn-link\"")
        .expect("learn link on home")..];
    let start = &start[..start.find("</a>").unwrap()];
    assert!(start.contains("Jifunze kucheza"), "{start}");
    assert!(home.text.contains("href=\"/learn\" id=\"learn-link\""));
    // (minijinja writes the `/` of a value as `&#x2f;`.)
    let nav = &home.text[home.text.find("class=\"site-nav\"").unwrap()..];
    assert!(nav.contains("learn\">Jifunze</a>"), "{nav}");
    s.stop().await;
}
