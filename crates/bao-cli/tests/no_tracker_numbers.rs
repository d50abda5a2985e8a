//! No comment, doc or script cites a tracker number ("issue 11", "issues 9 and 11",
//! "Issue #4", "(issue 13.2)"): a reader of the repository cannot look those up. Cite a rule
//! ID of docs/spec (`KIS-5.2`, checked by spec_ids.rs) or a docs section instead
//! (`docs/api.md, "Clocks"`), or say the thing itself.
//!
//! The files are the repository's own: what git lists (tracked, and new files not ignored),
//! or without git every file outside target/, node_modules/, artifacts/ and .git. Lock files
//! (package names only) and binary files are skipped.
//!
//! The pattern: the word `issue` or `issues` (any case, not inside a longer word such as
//! "tissue" or "issued"), then at most a few spaces, `#`, `-` or `_`, then a digit. It also
//! catches a reference wrapped across two lines of a comment ("issue" at the end of one, the
//! number at the start of the next). The English verb followed by a count ("may issue 3
//! requests") would be flagged too: rephrase it.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Separators allowed between the word and the number: `issue 11`, `issue #4`, `issue-9`,
/// `issue_13`.
fn is_separator(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'#' | b'-' | b'_')
}

/// The byte offsets in `line` just after each word `issue` or `issues` (any case) that is not
/// part of a longer word.
fn issue_words(line: &str) -> Vec<usize> {
    let lower = line.to_ascii_lowercase();
    let b = lower.as_bytes();
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("issue") {
        let start = from + at;
        let mut end = start + "issue".len();
        if b.get(end) == Some(&b's') {
            end += 1;
        }
        let starts_word = start == 0 || !(b[start - 1].is_ascii_alphanumeric());
        let ends_word = b.get(end).is_none_or(|c| !c.is_ascii_alphabetic());
        if starts_word && ends_word {
            out.push(end);
        }
        from = start + 1;
    }
    out
}

/// Does `rest` start with at most four separators and then a digit?
fn number_follows(rest: &[u8]) -> bool {
    let seps = rest.iter().take_while(|&&c| is_separator(c)).count();
    seps <= 4 && rest.get(seps).is_some_and(u8::is_ascii_digit)
}

/// `line` with its leading whitespace and comment leaders (`//!`, `///`, `//`, `#`, `*`,
/// `--`) removed.
fn after_comment_leader(line: &str) -> &str {
    let mut s = line.trim_start();
    for leader in ["//!", "///", "//", "#", "*", "--"] {
        if let Some(rest) = s.strip_prefix(leader) {
            s = rest;
            break;
        }
    }
    s.trim_start()
}

/// The 1-based numbers of the lines of `text` that cite a tracker number. A reference
/// wrapped across two lines is reported at the line holding the word.
fn tracker_lines(text: &str) -> Vec<usize> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let hit = issue_words(line).into_iter().any(|end| {
            let rest = &line.as_bytes()[end..];
            if number_follows(rest) {
                return true;
            }
            // The word ends the line (separators aside): look at the start of the next one.
            rest.iter().all(|&c| is_separator(c))
                && lines
                    .get(i + 1)
                    .is_some_and(|next| number_follows(after_comment_leader(next).as_bytes()))
        });
        if hit {
            out.push(i + 1);
        }
    }
    out
}

/// Paths (relative to the root) of the files to scan.
fn repository_files(root: &Path) -> Vec<PathBuf> {
    let git = Command::new("git")
        .arg("-C")
        .arg(root)
        .args([
            "ls-files",
            "-z",
            "--cached",
            "--others",
            "--exclude-standard",
        ])
        .output();
    if let Ok(out) = git {
        if out.status.success() && !out.stdout.is_empty() {
            let mut files: Vec<PathBuf> = out
                .stdout
                .split(|&b| b == 0)
                .filter(|p| !p.is_empty())
                .map(|p| PathBuf::from(String::from_utf8_lossy(p).into_owned()))
                // A file deleted in the work tree but still in the index is not there to read.
                .filter(|p| root.join(p).is_file())
                .collect();
            files.sort();
            files.dedup();
            return files;
        }
    }
    // No git (a source archive): every file but build output and installed packages.
    fn walk(base: &Path, dir: &Path, out: &mut Vec<PathBuf>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
            .map(|e| e.expect("directory entry").path())
            .collect();
        entries.sort();
        for p in entries {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            if p.is_dir() {
                if !matches!(
                    name.as_str(),
                    "target" | ".git" | "node_modules" | "artifacts"
                ) {
                    walk(base, &p, out);
                }
            } else {
                out.push(p.strip_prefix(base).unwrap().to_path_buf());
            }
        }
    }
    let mut out = Vec::new();
    walk(root, root, &mut out);
    out
}

/// Migrations already applied to players' databases: sqlx keeps a checksum of each applied
/// migration and refuses to start on a database whose migration file has changed, so their
/// bytes (comments included) are frozen. Newer migrations are checked like everything else.
const FROZEN: &[&str] = &[
    "crates/bao-server/migrations/0001_games.sql",
    "crates/bao-server/migrations/0002_moved.sql",
    "crates/bao-server/migrations/0003_play.sql",
];

fn is_lock_file(path: &Path) -> bool {
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    name.ends_with(".lock") || name == "package-lock.json" || name == "pnpm-lock.yaml"
}

#[test]
fn the_pattern_finds_tracker_numbers_and_nothing_else() {
    for hit in [
        "see issue 11",
        "(issue 13.2)",
        "issues 9 and 11",
        "Issue #4: the clock",
        "ISSUE 3",
        "the three issue-9 branches",
        "fn issue_12_test()",
        "(issue 9 point 8)",
        "//! Issue 13 point 1: under load",
        "issue  # 7",
    ] {
        assert_eq!(tracker_lines(hit), [1], "{hit:?} should be found");
    }
    for clean in [
        "tissue 3",
        "issued 3 times",
        "the issue is closed",
        "issues: none",
        "an issue with 3 seeds",
        "KIS-5.2 and BRD-6",
        "misissue 4",
        "issue",
        "issue ----- 5",
    ] {
        assert!(
            tracker_lines(clean).is_empty(),
            "{clean:?} is not a citation"
        );
    }
    // Wrapped across two comment lines, reported at the word's line.
    assert_eq!(
        tracker_lines("// the clocks (see\n// issue\n// 11) apply"),
        [2]
    );
    assert_eq!(tracker_lines("# measured for issue\n# #13"), [1]);
    // A list after a heading is not a citation: a blank line separates them.
    assert!(tracker_lines("## Known issues\n\n1. none").is_empty());
}

#[test]
fn no_tracker_numbers_in_the_repository() {
    let root = root();
    let me = Path::new("crates/bao-cli/tests/no_tracker_numbers.rs");
    let mut hits = Vec::new();
    let mut scanned = 0;
    for f in repository_files(&root) {
        // This file cites tracker numbers on purpose, to test the pattern.
        if f == me || is_lock_file(&f) || FROZEN.iter().any(|z| f == Path::new(z)) {
            continue;
        }
        let Ok(bytes) = std::fs::read(root.join(&f)) else {
            continue;
        };
        let Ok(text) = String::from_utf8(bytes) else {
            continue; // binary
        };
        if text.contains('\0') {
            continue; // binary
        }
        scanned += 1;
        let lines: Vec<&str> = text.lines().collect();
        for n in tracker_lines(&text) {
            hits.push(format!("{}:{n}: {}", f.display(), lines[n - 1].trim()));
        }
    }
    assert!(scanned > 50, "only {scanned} files scanned: wrong root?");
    assert!(
        hits.is_empty(),
        "{} lines cite tracker numbers, which a reader cannot look up; cite a rule ID of \
         docs/spec or a docs section instead, or drop the reference:\n{}",
        hits.len(),
        hits.join("\n")
    );
}
