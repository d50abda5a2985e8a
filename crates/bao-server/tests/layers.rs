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

/// The code of a file: comments removed and the insides of string and character literals
/// blanked, every line kept in its place (so that offsets still give line numbers, and a
/// brace or a path inside a string is not code).
fn code_of(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    let blank = |c: u8| if c == b'\n' { b'\n' } else { b' ' };
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    out.extend_from_slice(b"  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
        } else if c == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string: r"...", r#"..."#.
            let mut j = i + 1;
            while b.get(j) == Some(&b'#') {
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c);
                i += 1;
                continue;
            }
            let hashes = j - i - 1;
            out.extend(std::iter::repeat_n(b' ', j - i + 1));
            i = j + 1;
            while i < b.len() {
                if b[i] == b'"'
                    && b[i + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    out.extend(std::iter::repeat_n(b' ', hashes + 1));
                    i += hashes + 1;
                    break;
                }
                out.push(blank(b[i]));
                i += 1;
            }
        } else if c == b'"' {
            out.push(b'"');
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    out.push(b' ');
                    i += 1;
                }
                if i < b.len() {
                    out.push(blank(b[i]));
                    i += 1;
                }
            }
            out.push(b'"');
            i += 1;
        } else if c == b'\'' && (b.get(i + 2) == Some(&b'\'') || (b.get(i + 1) == Some(&b'\\'))) {
            // A character literal ('{', '\n', '\''); a lifetime ('a) has no closing quote.
            let mut j = i + 1;
            if b[j] == b'\\' {
                j += 2;
            } else {
                j += 1;
            }
            while j < b.len() && b[j] != b'\'' {
                j += 1;
            }
            out.extend(std::iter::repeat_n(b' ', j + 1 - i));
            i = j + 1;
        } else {
            out.push(c);
            i += 1;
        }
    }
    out.truncate(b.len());
    String::from_utf8_lossy(&out).into_owned()
}

/// The module path of a source file relative to src/: `game/ops.rs` is `[game, ops]`,
/// `game/mod.rs` `[game]`, `lib.rs` `[]`.
fn module_path(path: &str) -> Vec<String> {
    let mut parts: Vec<String> = path
        .trim_end_matches(".rs")
        .split('/')
        .map(str::to_string)
        .collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

fn is_ident(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

/// The paths a use tree names, each as its segments and the offset of its first one:
/// `a::b` is one path; `{a::b, c::{d, e}}` are three; `self` names the tree's own prefix.
fn expand_tree(
    code: &str,
    mut at: usize,
    prefix: &[String],
    out: &mut Vec<(Vec<String>, usize)>,
) -> usize {
    let b = code.as_bytes();
    let skip_ws = |mut i: usize| {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    };
    let mut segs: Vec<String> = prefix.to_vec();
    let mut start = None;
    loop {
        at = skip_ws(at);
        if b.get(at) == Some(&b'{') {
            at += 1;
            loop {
                at = skip_ws(at);
                match b.get(at) {
                    Some(b'}') => return at + 1,
                    Some(b',') => at += 1,
                    None => return at,
                    _ => at = expand_tree(code, at, &segs, out),
                }
            }
        }
        let s = at;
        while at < b.len() && is_ident(b[at]) {
            at += 1;
        }
        if s == at {
            // `*`, or the end of the path.
            if b.get(at) == Some(&b'*') {
                at += 1;
            }
            break;
        }
        start.get_or_insert(s);
        let name = &code[s..at];
        if name != "self" {
            segs.push(name.to_string());
        }
        let n = skip_ws(at);
        if code[n..].starts_with("::") {
            at = n + 2;
        } else {
            break;
        }
    }
    out.push((segs, start.unwrap_or(at)));
    at
}

/// Every path of `code` that names a module of the crate (`crate::`, `super::`, alone or
/// as use trees), resolved from `here` (the file's module path) into a path from the crate
/// root, with the offset it was written at. Inline modules (`mod tests { ... }`) count:
/// `super` inside one is the file's own module.
fn crate_paths(code: &str, here: &[String]) -> Vec<(Vec<String>, usize)> {
    let b = code.as_bytes();
    let mut out = Vec::new();
    // Inline modules open at a brace depth: (name, depth inside it).
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'{' {
            depth += 1;
            i += 1;
            continue;
        }
        if c == b'}' {
            depth = depth.saturating_sub(1);
            while inline.last().is_some_and(|(_, d)| *d > depth) {
                inline.pop();
            }
            i += 1;
            continue;
        }
        let boundary = i == 0 || !(is_ident(b[i - 1]) || b[i - 1] == b':');
        if !boundary || !is_ident(c) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && is_ident(b[j]) {
            j += 1;
        }
        let word = &code[i..j];
        if word == "mod" {
            // `mod name {`: an inline module.
            let mut k = j;
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            let s = k;
            while k < b.len() && is_ident(b[k]) {
                k += 1;
            }
            let name = code[s..k].to_string();
            while k < b.len() && b[k].is_ascii_whitespace() {
                k += 1;
            }
            if !name.is_empty() && b.get(k) == Some(&b'{') {
                depth += 1;
                inline.push((name, depth));
                i = k + 1;
                continue;
            }
            i = j;
            continue;
        }
        if (word == "crate" || word == "super") && code[j..].starts_with("::") {
            let mut base: Vec<String> = if word == "crate" {
                Vec::new()
            } else {
                let mut m: Vec<String> = here.to_vec();
                m.extend(inline.iter().map(|(n, _)| n.clone()));
                m.pop();
                m
            };
            let mut at = j + 2;
            if word == "super" {
                while code[at..].starts_with("super::") {
                    base.pop();
                    at += 7;
                }
            }
            let end = expand_tree(code, at, &base, &mut out);
            // The tree's offsets start at its first segment; a bare `crate::x` starts here.
            if let Some(last) = out.last_mut() {
                if last.1 == at {
                    last.1 = i;
                }
            }
            i = end.max(j);
            continue;
        }
        i = j;
    }
    out
}

/// Every violation in `files` (path relative to src/, text), as `path:line: what`.
fn check(files: &[(String, String)]) -> Vec<String> {
    let sql = regex_lite(&["SELECT ", "INSERT INTO", "DELETE FROM", " SET "]);
    let mut out = Vec::new();
    for (path, text) in files {
        let (top, sub) = module_of(path);
        let mine = layer(&top);
        let root = top == "lib" || mine == 7;
        let code = code_of(text);
        let lines: Vec<&str> = text.lines().collect();
        let line_of = |offset: usize| code[..offset].matches('\n').count();
        let at = |n: usize, what: String| {
            format!(
                "src/{path}:{}: {what}: {}",
                n + 1,
                lines.get(n).map_or("", |l| l.trim())
            )
        };
        for (segs, offset) in crate_paths(&code, &module_path(path)) {
            let Some(name) = segs.first() else { continue };
            if root {
                continue;
            }
            let target_sub = segs.get(1);
            let n = line_of(offset);
            if *name == top {
                // Within a module; for features, within the same feature.
                if top == "features" && target_sub.map(String::as_str) != sub.as_deref() {
                    out.push(at(
                        n,
                        format!(
                            "the feature {} imports the feature {}",
                            sub.as_deref().unwrap_or("?"),
                            target_sub.map_or("?", String::as_str)
                        ),
                    ));
                }
            } else {
                let theirs = layer(name);
                if theirs >= mine {
                    out.push(at(
                        n,
                        format!(
                            "{top} (layer {mine}) imports {name} (layer {theirs}), which is not below it"
                        ),
                    ));
                }
            }
        }
        for (n, line) in code.lines().enumerate() {
            if top == "domain" {
                for k in NOT_IN_DOMAIN {
                    if line.contains(&format!("{k}::")) {
                        out.push(at(n, format!("the pure domain uses {k}")));
                    }
                }
            }
            if top != "store" && line.contains("sqlx::") {
                out.push(at(n, "sqlx outside the store".into()));
            }
        }
        if top != "store" {
            // SQL text lives in string literals: read the lines as written (comments off).
            for (n, line) in text.lines().enumerate() {
                let c = without_comment(line);
                if sql(c) {
                    out.push(at(n, "SQL text outside the store".into()));
                }
            }
        }
    }
    out
}

/// A line without its `//` comment (good enough for the SQL check: a `//` inside a string is
/// rare, and would only hide a line from it, never invent a violation).
fn without_comment(line: &str) -> &str {
    let t = line.trim_start();
    if t.starts_with("//") {
        return "";
    }
    match line.find("//") {
        Some(i) if !line[..i].contains('"') => &line[..i],
        _ => line,
    }
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
    // A path written in a string or a comment is not an import.
    assert!(one(
        "game/ops.rs",
        "let s = \"crate::features::lobby\"; /* crate::features::push */ let c = '{';"
    )
    .is_empty());
}

#[test]
fn grouped_imports_are_read() {
    // One group, one violation among lawful imports.
    let v = one(
        "features/rematch.rs",
        "use crate::{game::Games, features::review::ReviewPool, store::Write};\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].starts_with(
            "src/features/rematch.rs:1: the feature rematch imports the feature review"
        ),
        "{v:?}"
    );
    // Nested groups over several lines (as rustfmt writes long ones): each path is checked
    // and named at its own line.
    let v = one(
        "game/ops.rs",
        "use crate::{\n    edge::{self, body::Json},\n    features::{lobby::Lobby, push},\n    store::Store,\n};\n",
    );
    assert_eq!(v.len(), 2, "{v:?}");
    assert!(
        v.iter()
            .all(|x| x.starts_with("src/game/ops.rs:3: game (layer 5) imports features")),
        "{v:?}"
    );
    // A lower layer naming a higher one inside a group.
    let v = one(
        "store/mod.rs",
        "use crate::{domain::model::Match, game::Games};",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].contains("store (layer 2) imports game (layer 5)"),
        "{v:?}"
    );
    // A group within the feature's own module is its own.
    assert!(one(
        "features/seeks/pool.rs",
        "use crate::{features::seeks::Seeks, game::{NewPair, PairSeat}};"
    )
    .is_empty());
}

#[test]
fn super_super_is_resolved() {
    // Up from a feature's file into another feature.
    let v = one(
        "features/seeks/pool.rs",
        "use super::super::lobby::Lobby;\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].starts_with(
            "src/features/seeks/pool.rs:1: the feature seeks imports the feature lobby"
        ),
        "{v:?}"
    );
    // Up from the core to the crate and down into the features, in a group.
    let v = one(
        "game/ops.rs",
        "fn f() {}\nuse super::super::{features::lobby, util};\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].starts_with("src/game/ops.rs:2: game (layer 5) imports features"),
        "{v:?}"
    );
    // In a path, not only a `use`.
    let v = one("edge/mod.rs", "fn f() { super::game::Games::new(); }");
    assert_eq!(v.len(), 1, "{v:?}");
    // Its own module, and lower layers, are allowed: `super` of a feature's sub-file is
    // the feature; `super::super` inside an inline `mod tests` is the file's parent.
    assert!(one(
        "features/seeks/pool.rs",
        "use super::{terms, Seeks};\nuse super::super::seeks::Seeks as S;\n"
    )
    .is_empty());
    assert!(one(
        "store/presence.rs",
        "fn f() {}\n#[cfg(test)]\nmod tests {\n    use super::super::{Durability, Store};\n    use super::*;\n}\n"
    )
    .is_empty());
    assert!(one("features/push.rs", "use super::super::game::Games;").is_empty());
    // After an inline module closes, `super` is the file's parent again.
    let v = one(
        "features/review/mod.rs",
        "pub mod routes {\n    use super::ReviewPool;\n}\nuse super::lobby::Lobby;\n",
    );
    assert_eq!(v.len(), 1, "{v:?}");
    assert!(
        v[0].starts_with(
            "src/features/review/mod.rs:4: the feature review imports the feature lobby"
        ),
        "{v:?}"
    );
}
