//! The repository carries its own specification in docs/spec, and every rule ID it cites is
//! defined there.
//!
//! * docs/spec is a copy of the project's specification. When the specification's home
//!   (`../shared/spec` beside the repository) is present, the copy must equal it file by file;
//!   without it there is nothing to compare and the test says so, since a clone stands alone.
//! * Code, tests, docs, scripts, the web app and every `--help` text cite rule IDs such as
//!   `KIS-5.2` or `CLI-2`. Each one must be defined in docs/spec: as a heading (`## KIS-5 ...`)
//!   or as a bold rule label (`**KIS-5.2 ...**`). An ID-shaped word with an unknown prefix
//!   (a typo such as `KSI-5`) fails too, unless it is a known non-rule name (`UTF-8`).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn spec_dir() -> PathBuf {
    root().join("docs/spec")
}

/// Words shaped like rule IDs that are not rule IDs: hashes, encodings, standards, and the
/// licence names of deny.toml (`BSD-3-Clause`, `BSL-1.0`).
const NOT_RULE_PREFIXES: &[&str] = &[
    "SHA", "UTF", "ISO", "RFC", "TLS", "BSD", "BSL", "GPL", "LGPL", "MPL",
];

/// Every file under `dir`, as paths relative to it, sorted.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                // Build output, version control and installed packages are not ours.
                if !matches!(name.as_str(), "target" | ".git" | "node_modules") {
                    walk(base, &p, out);
                }
            } else {
                out.push(p.strip_prefix(base).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(dir, dir, &mut out);
    out
}

/// The rule-ID prefixes the specification declares (README.md, "Rule IDs": `| `BRD-` | ...`).
fn spec_prefixes() -> BTreeSet<String> {
    let readme =
        std::fs::read_to_string(spec_dir().join("README.md")).expect("docs/spec/README.md");
    let prefixes: BTreeSet<String> = readme
        .lines()
        .filter_map(|l| {
            let l = l.trim().strip_prefix("| `")?;
            let (p, _) = l.split_once("-` |")?;
            (p.len() >= 2 && p.chars().all(|c| c.is_ascii_uppercase())).then(|| p.to_string())
        })
        .collect();
    assert!(
        prefixes.len() >= 7,
        "docs/spec/README.md declares too few rule prefixes: {prefixes:?}"
    );
    prefixes
}

/// Every word shaped like a rule ID in `text`: two to five capitals at a word start, `-`,
/// then numbers separated by dots (`KIS-5.2`; a sentence's final dot is not part of it).
fn id_words(text: &str) -> Vec<String> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let starts_word = i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_');
        if !(starts_word && b[i].is_ascii_uppercase()) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && b[j].is_ascii_uppercase() {
            j += 1;
        }
        let letters = j - i;
        if !(2..=5).contains(&letters)
            || j + 1 >= b.len()
            || b[j] != b'-'
            || !b[j + 1].is_ascii_digit()
        {
            i = j.max(i + 1);
            continue;
        }
        let mut k = j + 1;
        loop {
            while k < b.len() && b[k].is_ascii_digit() {
                k += 1;
            }
            if k + 1 < b.len() && b[k] == b'.' && b[k + 1].is_ascii_digit() {
                k += 1;
            } else {
                break;
            }
        }
        out.push(text[i..k].to_string());
        i = k;
    }
    out
}

/// The IDs docs/spec defines: headings (`## BRD-6 ...`) and bold rule labels (`**KIS-7.5 ...`).
fn defined_ids() -> BTreeSet<String> {
    let mut ids = BTreeSet::new();
    for f in files_under(&spec_dir()) {
        if f.extension().is_none_or(|e| e != "md") {
            continue;
        }
        let text = std::fs::read_to_string(spec_dir().join(&f)).unwrap();
        for line in text.lines() {
            let heading = line.trim_start_matches('#');
            if heading.len() < line.len() {
                if let Some(id) = id_words(heading.trim_start()).first() {
                    if heading.trim_start().starts_with(id.as_str()) {
                        ids.insert(id.clone());
                    }
                }
            }
            for part in line.split("**").skip(1).step_by(2) {
                if let Some(id) = id_words(part).first() {
                    if part.starts_with(id.as_str()) {
                        ids.insert(id.clone());
                    }
                }
            }
        }
    }
    ids
}

/// Checks each cited ID; returns "where: ID (why)" for the bad ones.
fn check_citations(
    cited: &BTreeMap<String, BTreeSet<String>>,
    defined: &BTreeSet<String>,
    prefixes: &BTreeSet<String>,
) -> Vec<String> {
    let mut bad = Vec::new();
    for (id, places) in cited {
        let prefix = id.split('-').next().unwrap();
        let why = if prefixes.contains(prefix) {
            if defined.contains(id) {
                continue;
            }
            "not defined in docs/spec"
        } else if NOT_RULE_PREFIXES.contains(&prefix) {
            continue;
        } else {
            "unknown rule prefix"
        };
        let places: Vec<&str> = places.iter().map(String::as_str).collect();
        bad.push(format!("{id} ({why}), cited in {}", places.join(", ")));
    }
    bad
}

#[test]
fn docs_spec_equals_the_shared_spec_when_present() {
    let shared = root().join("../shared/spec");
    if !shared.is_dir() {
        eprintln!(
            "note: {} is absent; docs/spec is the repository's own copy and is not compared",
            shared.display()
        );
        return;
    }
    let ours = files_under(&spec_dir());
    let theirs = files_under(&shared);
    assert_eq!(
        ours, theirs,
        "docs/spec and ../shared/spec hold different files: copy the spec again \
         (rm -r docs/spec && cp -r ../shared/spec docs/spec)"
    );
    for f in &ours {
        let a = std::fs::read(spec_dir().join(f)).unwrap();
        let b = std::fs::read(shared.join(f)).unwrap();
        assert!(
            a == b,
            "docs/spec/{} differs from ../shared/spec/{}: copy the spec again",
            f.display(),
            f.display()
        );
    }
}

#[test]
fn id_words_are_found_as_cited() {
    assert_eq!(
        id_words("see KIS-5.2. And BRD-6, (CLI-2) xKIS-1 NOT-6.2.1; KIS-"),
        ["KIS-5.2", "BRD-6", "CLI-2", "NOT-6.2.1"]
    );
    assert_eq!(
        id_words("UTF-8 SHA-256 HTTP/1.1 A7L* K-1"),
        ["UTF-8", "SHA-256"]
    );
}

#[test]
fn the_checker_names_undefined_and_misspelt_ids() {
    let defined: BTreeSet<String> = ["KIS-5".to_string(), "KIS-5.2".to_string()].into();
    let prefixes: BTreeSet<String> = ["KIS".to_string()].into();
    let mut cited = BTreeMap::new();
    for (id, at) in [
        ("KIS-5.2", "a.rs"),
        ("KIS-5.9", "b.rs"),
        ("KSI-5", "c.md"),
        ("UTF-8", "d.md"),
    ] {
        cited
            .entry(id.to_string())
            .or_insert_with(BTreeSet::new)
            .insert(at.to_string());
    }
    assert_eq!(
        check_citations(&cited, &defined, &prefixes),
        [
            "KIS-5.9 (not defined in docs/spec), cited in b.rs",
            "KSI-5 (unknown rule prefix), cited in c.md"
        ]
    );
}

#[test]
fn spec_defines_the_ids_it_is_known_for() {
    let defined = defined_ids();
    // Independent of the scanner: IDs read off the spec by eye (heading, bold label, and
    // sub-rules of each prefix).
    for id in [
        "BRD-6", "BRD-5.6", "KIS-7.5", "KIS-4.5", "KET-5", "KIM-2", "OPT-1.1", "NOT-3.5", "CLI-2",
        "CLI-8",
    ] {
        assert!(defined.contains(id), "{id} should be defined in docs/spec");
    }
    assert!(!defined.contains("KIS-99"));
}

/// The `--help` text of `bao` and of each command it lists.
fn help_texts() -> Vec<(String, String)> {
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_bao"))
            .args(args)
            .output()
            .expect("run bao");
        assert!(out.status.success(), "bao {args:?} failed");
        String::from_utf8(out.stdout).expect("help is UTF-8")
    };
    let top = run(&["--help"]);
    // Command lines are indented by two spaces: `  moves  Legal moves ...`.
    let commands: Vec<String> = top
        .lines()
        .filter_map(|l| {
            let name = l.strip_prefix("  ")?.split_whitespace().next()?;
            (l.len() > 2 + name.len()
                && !l[2..].starts_with(' ')
                && name.chars().all(|c| c.is_ascii_lowercase() || c == '-'))
            .then(|| name.to_string())
        })
        .filter(|n| n != "help")
        .collect();
    assert!(
        commands.len() >= 10 && commands.iter().any(|c| c == "moves"),
        "could not read the command list of bao --help: {commands:?}"
    );
    let mut texts = vec![("bao --help".to_string(), top)];
    for c in commands {
        let text = run(&[&c, "--help"]);
        texts.push((format!("bao {c} --help"), text));
    }
    texts
}

#[test]
fn every_cited_rule_id_is_defined_in_docs_spec() {
    let defined = defined_ids();
    let prefixes = spec_prefixes();
    let root = root();
    let mut cited: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut scanned = 0;
    for f in files_under(&root) {
        // The spec itself is the definition; lock files list package names only; this file
        // cites wrong IDs on purpose, to test the checker.
        if f.starts_with("docs/spec")
            || f.file_name().is_some_and(|n| n == "package-lock.json")
            || f == Path::new("crates/bao-cli/tests/spec_ids.rs")
        {
            continue;
        }
        let Ok(text) = std::fs::read_to_string(root.join(&f)) else {
            continue; // not text
        };
        scanned += 1;
        for id in id_words(&text) {
            cited.entry(id).or_default().insert(f.display().to_string());
        }
    }
    assert!(scanned > 50, "only {scanned} files scanned: wrong root?");
    for (what, text) in help_texts() {
        for id in id_words(&text) {
            cited.entry(id).or_default().insert(what.clone());
        }
    }
    let bad = check_citations(&cited, &defined, &prefixes);
    assert!(
        bad.is_empty(),
        "{} cited rule IDs are wrong:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
