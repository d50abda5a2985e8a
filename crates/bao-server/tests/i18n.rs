//! Languages (docs/i18n.md): the catalogs agree, every key is used and every used key exists, and
//! a page answers in the language chosen by `?lang=`, the cookie or `Accept-Language`.

mod common;

use common::*;
use regex::Regex;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn web() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("web")
}

/// area file name → (key → text), for one language.
fn catalog(lang: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    for e in std::fs::read_dir(web().join("i18n").join(lang)).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            let v: BTreeMap<String, serde_json::Value> =
                serde_json::from_str(&std::fs::read_to_string(&p).unwrap())
                    .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            let m = v
                .into_iter()
                .filter(|(k, _)| !k.starts_with('_'))
                .map(|(k, v)| (k, v.as_str().expect("string").to_string()))
                .collect();
            out.insert(p.file_name().unwrap().to_string_lossy().into_owned(), m);
        }
    }
    out
}

/// Every template and script of the web app, as text.
fn sources() -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut stack = vec![web().join("templates"), web().join("static")];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p
                .extension()
                .is_some_and(|x| x == "html" || x == "js" || x == "mjs")
            {
                let text = std::fs::read_to_string(&p).unwrap();
                // Comment lines of scripts (usage examples) neither use nor need a key.
                let text = if p.extension().is_some_and(|x| x == "html") {
                    text
                } else {
                    text.lines()
                        .filter(|l| {
                            let l = l.trim_start();
                            !(l.starts_with("//") || l.starts_with('*') || l.starts_with("/*"))
                        })
                        .collect::<Vec<_>>()
                        .join("\n")
                };
                out.push((p.display().to_string(), text));
            }
        }
    }
    // Web Push texts are put together by the server (features/push.rs), not by a page.
    let push = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/features/push.rs");
    out.push((
        push.display().to_string(),
        std::fs::read_to_string(&push).unwrap(),
    ));
    // The Learn lessons (bao-learn) name the keys of the learn area in their data files.
    let lessons = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bao-learn/lessons");
    for e in std::fs::read_dir(&lessons).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "json") {
            out.push((
                p.display().to_string(),
                std::fs::read_to_string(&p).unwrap(),
            ));
        }
    }
    out
}

#[test]
fn english_and_swahili_have_the_same_files_keys_and_parameters() {
    let en = catalog("en");
    let sw = catalog("sw");
    assert!(en.contains_key("common.json"), "{:?}", en.keys());
    assert_eq!(
        en.keys().collect::<Vec<_>>(),
        sw.keys().collect::<Vec<_>>(),
        "the same AREA files in en/ and sw/"
    );
    let param = Regex::new(r"\{([A-Za-z0-9_]+)\}").unwrap();
    let params = |s: &str| -> BTreeSet<String> {
        param.captures_iter(s).map(|c| c[1].to_string()).collect()
    };
    let mut problems = Vec::new();
    for (file, e) in &en {
        let s = &sw[file];
        for k in e.keys().filter(|k| !s.contains_key(*k)) {
            problems.push(format!("{k} is in en/{file} but not in sw/{file}"));
        }
        for k in s.keys().filter(|k| !e.contains_key(*k)) {
            problems.push(format!("{k} is in sw/{file} but not in en/{file}"));
        }
        for (k, text) in e {
            if let Some(st) = s.get(k) {
                if params(text) != params(st) {
                    problems.push(format!("{k}: parameters differ: {text:?} / {st:?}"));
                }
                if st.trim().is_empty() || text.trim().is_empty() {
                    problems.push(format!("{k}: empty text"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn catalog_markup_is_limited_to_a_few_inline_tags() {
    let tag = Regex::new(r"<(/?)([A-Za-z0-9]+)[^>]*>").unwrap();
    let allowed = [
        "span", "em", "strong", "code", "a", "br", "kbd", "b", "i", "sub",
    ];
    for lang in ["en", "sw"] {
        for (file, m) in catalog(lang) {
            for (k, text) in m {
                for c in tag.captures_iter(&text) {
                    assert!(
                        allowed.contains(&&c[2]),
                        "{lang}/{file} {k}: tag <{}> is not allowed",
                        &c[2]
                    );
                }
            }
        }
    }
}

#[test]
fn every_key_is_used_and_every_used_key_exists() {
    let en: BTreeMap<String, String> = catalog("en").into_values().flatten().collect();
    let src = sources();
    let all: String = src
        .iter()
        .map(|(_, t)| t.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    // Used: written literally in quotes somewhere (t("k"), t('k'), tn('k', ...) for k.one/k.other).
    let used = |k: &str| {
        let quoted = |k: &str| all.contains(&format!("\"{k}\"")) || all.contains(&format!("'{k}'"));
        quoted(k)
            || k.strip_suffix(".one")
                .or_else(|| k.strip_suffix(".other"))
                .is_some_and(quoted)
    };
    let unused: Vec<&String> = en.keys().filter(|k| !used(k)).collect();
    assert!(
        unused.is_empty(),
        "keys no template or script uses: {unused:?}"
    );

    let call =
        Regex::new(r#"\b(t|tHtml|tn)\(\s*["']([a-z][a-z0-9_]*\.[A-Za-z0-9_.]+)["']"#).unwrap();
    let mut missing = Vec::new();
    for (path, text) in &src {
        for c in call.captures_iter(text) {
            let key = &c[2];
            let wanted: Vec<String> = if &c[1] == "tn" {
                vec![format!("{key}.one"), format!("{key}.other")]
            } else {
                vec![key.to_string()]
            };
            for w in wanted {
                if !en.contains_key(&w) {
                    missing.push(format!("{path}: {w}"));
                }
            }
            // Scripts get the catalog without the template-only "rules" area.
            if path.ends_with(".js") && key.starts_with("rules.") {
                missing.push(format!("{path}: {key} is a template-only key"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "keys used but not in the catalog: {missing:?}"
    );
}

#[test]
fn every_page_renders_in_both_languages_with_matching_html_lang() {
    let assets = bao_server::web::assets::Assets::load();
    let pages = bao_server::web::pages::Pages::load(&assets).expect("templates and catalogs load");
    let names: Vec<&str> = pages.names().collect();
    for p in [
        "index",
        "game",
        "replay",
        "rules-kiswahili",
        "rules-kete",
        "rules-kimasai",
        "account",
        "account-signup",
        "account-login",
        "account-recover",
        "profile",
        "leaderboard",
    ] {
        assert!(names.contains(&p), "{names:?}");
    }
    for name in names {
        for lang in bao_server::web::i18n::Lang::ALL {
            let html = pages.html(name, lang).unwrap();
            assert!(
                html.contains(&format!("<html lang=\"{}\">", lang.code())),
                "{name} {lang}"
            );
            assert!(html.contains("id=\"bao-i18n\""), "{name} {lang}");
            assert!(html.contains("/static/i18n.js?v="), "{name} {lang}");
        }
    }
}

#[test]
fn the_rules_are_written_in_swahili() {
    let assets = bao_server::web::assets::Assets::load();
    let pages = bao_server::web::pages::Pages::load(&assets).unwrap();
    use bao_server::web::i18n::Lang;
    for page in ["rules-kiswahili", "rules-kete", "rules-kimasai"] {
        let sw = pages.html(page, Lang::Sw).unwrap();
        let en = pages.html(page, Lang::En).unwrap();
        assert!(
            sw.contains("Chaguo za sheria"),
            "{page}: the Swahili options section"
        );
        assert!(
            !sw.contains("Rule options"),
            "{page}: no English section left"
        );
        assert!(
            en.contains("Rule options") && !en.contains("Chaguo za sheria"),
            "{page}"
        );
        // The same diagrams in both languages.
        let imgs = |h: &str| h.matches("<img src=\"/api/render/svg").count();
        assert_eq!(imgs(sw), imgs(en), "{page}");
        // ... and their words in the page's language.
        assert_eq!(sw.matches("&amp;lang=sw\"").count(), imgs(sw), "{page}");
    }
    let home = pages.html("index", Lang::Sw).unwrap();
    assert!(home.contains("/api/render/svg?position=kiswahili&amp;lang=sw\""));
}

/// The ideas of docs/i18n.md's Swahili glossary: how the English names each, and its one
/// Swahili word (with the forms the catalogs use).
const IDEAS: &[(&str, &str, &str)] = &[
    ("match", r"(?i)\bmatch", r"(?i)\bmechi\b"),
    ("tournament", r"(?i)tournament", r"(?i)shindano"),
    ("rating", r"(?i)\brat(ing|ed|e)", r"(?i)\b[kv]iwango\b"),
    ("level", r"(?i)\blevel", r"(?i)\bngazi\b"),
    (
        "create",
        r"(?i)creat|\bnew\b|\bmake\b",
        r"(?i)\b(unda|kuunda|uliyeunda|aliyeunda|imeundwa|halikuundwa|umeunda|ameunda|uunde)\b",
    ),
    ("start", r"(?i)start|begin|launch", r"(?i)anzish"),
    ("step", r"(?i)\bstep", r"(?i)\bhatua\b"),
    ("stage", r"(?i)\bstage|\bphase", r"(?i)\bawamu\b"),
    (
        "move",
        r"(?i)\bmove|\bturn\b|\bpl(y|ies)\b",
        r"(?i)\bzamu\b",
    ),
    ("challenge", r"(?i)challeng", r"(?i)changamoto"),
    (
        "invitation",
        r"(?i)invit",
        r"(?i)\b(mwaliko|mialiko|mwalike|kumwalika|unayemwalika)\b",
    ),
    (
        "review",
        r"(?i)review",
        r"(?i)\b(mapitio|pitia|kupitia|kupitiwa)\b",
    ),
    ("analysis", r"(?i)analy", r"(?i)chambu"),
];

/// The ideas that must never share a word (docs/i18n.md, "Swahili glossary").
const APART: &[(&str, &str)] = &[
    ("match", "tournament"),
    ("rating", "level"),
    ("create", "start"),
    ("step", "stage"),
    ("step", "move"),
    ("stage", "move"),
    ("challenge", "invitation"),
    ("review", "analysis"),
];

#[test]
fn swahili_words_mean_one_thing() {
    let idea = |name: &str| {
        let (_, en, sw) = IDEAS.iter().find(|i| i.0 == name).unwrap();
        (Regex::new(en).unwrap(), Regex::new(sw).unwrap())
    };
    let en = catalog("en");
    let mut problems = Vec::new();
    for (file, texts) in catalog("sw") {
        for (k, sw) in &texts {
            let e = &en[&file][k];
            for &(a, b) in APART {
                for (x, y) in [(a, b), (b, a)] {
                    // The Swahili says y's word where the English names x and not y.
                    let ((x_en, _), (y_en, y_sw)) = (idea(x), idea(y));
                    if y_sw.is_match(sw) && x_en.is_match(e) && !y_en.is_match(e) {
                        problems.push(format!(
                            "sw/{file} {k}: the word for {y} used for {x}: {sw:?} ({e:?})"
                        ));
                    }
                }
            }
        }
    }
    // The Swahili rules pages speak of games, matches and stages only.
    for name in ["kiswahili", "kete", "kimasai"] {
        let path = web().join(format!("templates/_rules-{name}-sw.html"));
        let text = std::fs::read_to_string(&path).unwrap().to_lowercase();
        for wrong in [
            "mashindano",
            "hatua ya kwanza",
            "hatua ya pili",
            "hatua ya mtaji",
        ] {
            if text.contains(wrong) {
                problems.push(format!("{}: {wrong:?}", path.display()));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[tokio::test]
async fn board_pictures_speak_the_language_asked_for() {
    let s = server(&sqlite_url("i18n-svg")).start().await;
    let http = reqwest::Client::new();
    let get = |q: &'static str| {
        let url = format!("http://{}/api/render/svg?{q}", s.addr);
        let http = http.clone();
        async move {
            let r = http.get(url).send().await.unwrap();
            (r.status().as_u16(), r.text().await.unwrap())
        }
    };
    let (status, sw) = get("position=kiswahili&lang=sw").await;
    assert_eq!(status, 200);
    for words in ["Mkono wa Kaskazini", "Mkono wa Kusini", "Zamu ya Kusini"] {
        assert!(sw.contains(words), "{words} in {sw}");
    }
    assert!(!sw.contains("North") && !sw.contains("South"), "{sw}");
    let (_, masai) = get("position=kimasai&lang=sw").await;
    assert!(masai.contains("Akiba ya Kusini") && !masai.contains("Mkono"));
    let (_, en) = get("position=kiswahili").await;
    assert!(en.contains("North hand") && en.contains("South to move"));
    let (status, bad) = get("position=kiswahili&lang=fr").await;
    assert_eq!(status, 400);
    assert!(bad.contains("lang must be en or sw"), "{bad}");
}

#[tokio::test]
async fn a_page_answers_in_the_chosen_language_and_remembers_it() {
    let s = server(&sqlite_url("i18n")).start().await;
    let http = reqwest::Client::new();
    let base = format!("http://{}", s.addr);
    let get = |path: &str, headers: &[(&str, &str)]| {
        let mut r = http.get(format!("{base}{path}"));
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        r.send()
    };
    let lang_of = |html: &str| -> String {
        let i = html.find("<html lang=\"").expect("html lang") + 12;
        html[i..i + 2].to_string()
    };

    // Nothing said: English.
    let r = get("/", &[]).await.unwrap();
    assert_eq!(r.headers()["content-language"], "en");
    assert!(r.headers()["vary"]
        .to_str()
        .unwrap()
        .contains("Accept-Language"));
    assert!(r.headers().get("set-cookie").is_none());
    let en_etag = r.headers()["etag"].clone();
    assert_eq!(lang_of(&r.text().await.unwrap()), "en");

    // Accept-Language with q-values.
    let r = get("/", &[("accept-language", "en;q=0.4, sw-TZ;q=0.9")])
        .await
        .unwrap();
    assert_eq!(r.headers()["content-language"], "sw");
    let sw_etag = r.headers()["etag"].clone();
    assert_ne!(en_etag, sw_etag, "each language has its own ETag");
    let html = r.text().await.unwrap();
    assert_eq!(lang_of(&html), "sw");
    assert!(
        html.contains("Sheria za Kiswahili"),
        "the Swahili navigation"
    );

    // The cookie beats Accept-Language; ?lang beats both and sets the cookie.
    let r = get(
        "/replay",
        &[("accept-language", "sw"), ("cookie", "x=1; bao_lang=en")],
    )
    .await
    .unwrap();
    assert_eq!(lang_of(&r.text().await.unwrap()), "en");
    let r = get("/rules/kete?lang=sw", &[("cookie", "bao_lang=en")])
        .await
        .unwrap();
    let cookie = r.headers()["set-cookie"].to_str().unwrap().to_string();
    assert!(cookie.starts_with("bao_lang=sw;"), "{cookie}");
    assert!(cookie.contains("Path=/"), "{cookie}");
    assert!(cookie.contains("Max-Age="), "{cookie}");
    assert_eq!(lang_of(&r.text().await.unwrap()), "sw");
    // An unknown ?lang is ignored (no cookie), the rest decides.
    let r = get("/g/abc?lang=fr", &[("cookie", "bao_lang=sw")])
        .await
        .unwrap();
    assert!(r.headers().get("set-cookie").is_none());
    assert_eq!(lang_of(&r.text().await.unwrap()), "sw");

    // 304 for the ETag of the language chosen, 200 when the language changes.
    let r = get(
        "/",
        &[
            ("accept-language", "sw"),
            ("if-none-match", sw_etag.to_str().unwrap()),
        ],
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 304);
    let r = get("/", &[("if-none-match", sw_etag.to_str().unwrap())])
        .await
        .unwrap();
    assert_eq!(r.status(), 200);
    s.stop().await;
}
