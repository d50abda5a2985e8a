//! The crate's layers (docs/architecture.md, "Layers") hold: every `crate::` path in
//! src/ is read, and a file may only name a layer below its own (or its own module). The
//! game core never imports a feature, no feature imports another, the pure domain uses no
//! axum, tokio or SQL, and SQL (sqlx, or SQL text) appears only in the store.
//!
//! The checker is a function of file texts, so the planted violations below show that it
//! fails, naming the file, the line and the import.

use std::path::Path;

/// Layers from the bottom. A file may use a module of a lower layer, or its own module.
const LAYERS: &[(&str, u8)] = &[
    ("util", 0),
    ("domain", 1),
    ("store", 2),
    ("error", 3),
    ("engine_pool", 3),
    ("edge", 4),
    ("web", 4),
    ("game", 5),
    ("features", 6),
    ("app", 7),
    ("loadtest", 7),
];

/// Crates the pure domain must not use.
const NOT_IN_DOMAIN: &[&str] = &["axum", "tokio", "sqlx", "hyper", "tower", "tower_http"];

/// The module of a source path relative to src/: (`game`, None), (`features`, Some("lobby")).
fn module_of(path: &str) -> (String, Option<String>) {
    let parts: Vec<&str> = path.split('/').collect();
    let top = parts[0].trim_end_matches(".rs").to_string();
    let sub = (top == "features" && parts.len() > 1)
        .then(|| parts[1].trim_end_matches(".rs").to_string());
    (top, sub)
}

fn layer(module: &str) -> u8 {
    LAYERS
        .iter()
        .find(|(m, _)| *m == module)
        .map_or(7, |(_, l)| *l)
}

/// The code of a line without its comment (good enough for our sources: a `//` inside a
/// string is rare, and would only hide a line from the check, never invent a violation).
fn code(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with("//") {
        return "";
    }
    match line.find("//") {
        Some(i) if !line[..i].contains('"') => &line[..i],
        _ => line,
    }
}

/// Every violation in `files` (path relative to src/, text), as `path:line: what`.
fn check(files: &[(String, String)]) -> Vec<String> {
    let sql = regex_lite(&["SELECT ", "INSERT INTO", "DELETE FROM", " SET "]);
    let mut out = Vec::new();
    for (path, text) in files {
        let (top, sub) = module_of(path);
        let mine = layer(&top);
        let root = top == "lib" || mine == 7;
        for (n, line) in text.lines().enumerate() {
            let c = code(line);
            let at = |what: String| format!("src/{path}:{}: {what}: {}", n + 1, line.trim());
            let mut rest = c;
            while let Some(i) = rest.find("crate::") {
                rest = &rest[i + 7..];
                let name: String = rest
                    .chars()
                    .take_while(|ch| ch.is_alphanumeric() || *ch == '_')
                    .collect();
                let after = &rest[name.len()..];
                let target_sub = after.strip_prefix("::").map(|r| {
                    r.chars()
                        .take_while(|ch| ch.is_alphanumeric() || *ch == '_')
                        .collect::<String>()
                });
                if root || name.is_empty() {
                    continue;
                }
                let theirs = layer(&name);
                if name == top {
                    // Within a module; for features, within the same feature.
                    if top == "features" && target_sub.as_deref() != sub.as_deref() {
                        out.push(at(format!(
                            "the feature {} imports the feature {}",
                            sub.as_deref().unwrap_or("?"),
                            target_sub.as_deref().unwrap_or("?")
                        )));
                    }
                } else if theirs >= mine {
                    out.push(at(format!(
                        "{top} (layer {mine}) imports {name} (layer {theirs}), which is not below it"
                    )));
                }
            }
            if top == "features" && c.contains("super::super") {
                out.push(at(
                    "a feature reaches out of itself with super::super".into()
                ));
            }
            if top == "domain" {
                for k in NOT_IN_DOMAIN {
                    if c.contains(&format!("{k}::")) {
                        out.push(at(format!("the pure domain uses {k}")));
                    }
                }
            }
            if top != "store" {
                if c.contains("sqlx::") {
                    out.push(at("sqlx outside the store".into()));
                }
                if sql(c) {
                    out.push(at("SQL text outside the store".into()));
                }
            }
        }
    }
    out
}

/// A matcher for SQL keywords inside a string literal of a line.
fn regex_lite(words: &'static [&'static str]) -> impl Fn(&str) -> bool {
    move |line: &str| {
        let mut inside = false;
        let mut lit = String::new();
        for ch in line.chars() {
            if ch == '"' {
                if inside && words.iter().any(|w| lit.contains(w)) {
                    return true;
                }
                inside = !inside;
                lit.clear();
            } else if inside {
                lit.push(ch);
            }
        }
        // A string that goes on to the next line (a multi-line query).
        inside && words.iter().any(|w| lit.contains(w))
    }
}

fn sources() -> Vec<(String, String)> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut out = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for e in std::fs::read_dir(&dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "rs") {
                let rel = p
                    .strip_prefix(&src)
                    .unwrap()
                    .to_string_lossy()
                    .replace('\\', "/");
                out.push((rel, std::fs::read_to_string(&p).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[test]
fn the_layers_hold_in_src() {
    let files = sources();
    assert!(files.len() > 20, "src/ was not found");
    let v = check(&files);
    assert!(v.is_empty(), "layer violations:\n{}", v.join("\n"));
}

#[test]
fn every_module_of_src_has_a_layer() {
    for (path, _) in sources() {
        let (top, _) = module_of(&path);
        assert!(
            top == "lib" || LAYERS.iter().any(|(m, _)| *m == top),
            "src/{path} is in no layer: add its module to LAYERS (and to docs/architecture.md)"
        );
    }
}

fn one(path: &str, text: &str) -> Vec<String> {
    check(&[(path.to_string(), text.to_string())])
}

#[test]
fn planted_violations_are_found_and_named() {
    // The core imports a feature.
    let v = one("game/ops.rs", "use crate::features::lobby::Lobby;\n");
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].starts_with("src/game/ops.rs:1: game (layer 5) imports features"),
        "{v:?}"
    );
    // A feature imports another.
    let v = one(
        "features/rematch.rs",
        "use crate::game::Games;\nuse crate::features::review::ReviewPool;\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].contains("src/features/rematch.rs:2: the feature rematch imports the feature review"),
        "{v:?}"
    );
    // A feature may use its own files and the core.
    assert!(one(
        "features/lobby/mod.rs",
        "use crate::features::lobby::x;\nuse crate::game::Observer;"
    )
    .is_empty());
    // SQL outside the store, as a query or as text.
    let v = one(
        "features/mine.rs",
        "let q = sqlx::query(\"SELECT id FROM games\");\n",
    );
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(one(
        "store/mod.rs",
        "let q = sqlx::query(\"SELECT id FROM games\");"
    )
    .is_empty());
    let v = one("game/mod.rs", "    \"UPDATE games SET x = 1\n");
    assert_eq!(v.len(), 1, "{v:?}");
    // The domain stays pure.
    let v = one("domain/model.rs", "fn f() { tokio::spawn(async {}); }\n");
    assert!(v[0].contains("the pure domain uses tokio"), "{v:?}");
    // A lower layer never names a higher one; comments do not count.
    assert_eq!(one("store/mod.rs", "use crate::game::Games;").len(), 1);
    assert_eq!(one("edge/mod.rs", "use crate::web::pages;").len(), 1);
    assert!(one("store/mod.rs", "// see crate::game::Games").is_empty());
    // The composition root may name everything.
    assert!(one(
        "app.rs",
        "use crate::features::lobby;\nuse crate::game::Games;"
    )
    .is_empty());
}
