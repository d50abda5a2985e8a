//! `bao engine` driven back to back under CPU load never answers `busy` and gives a
//! `bestmove` for every `go` (docs/engine-protocol.md, "Conventions": `bestmove` means ready);
//! `bao match` between two `bao engine` processes under load has no forfeit.
//! scripts/engine-load.sh runs the full 100-game match.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

mod common;
use common::bao;

#[path = "../../bao-engine/tests/load/mod.rs"]
mod load;
use load::Load;

#[test]
fn a_thousand_back_to_back_searches_under_load_give_no_error() {
    let _load = Load::start(2);
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .arg("engine")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = child.stdin.take().unwrap();
    let mut output = BufReader::new(child.stdout.take().unwrap()).lines();
    let mut moves: Vec<String> = Vec::new();
    let (mut errors, mut bestmoves) = (Vec::new(), 0);
    let start = Instant::now();
    for i in 0..1000 {
        let mut pos = String::from("position startpos");
        if !moves.is_empty() {
            pos.push_str(" moves ");
            pos.push_str(&moves.join(" "));
        }
        // Alternately a short time and a small node budget; sent at once after bestmove.
        let go = if i % 2 == 0 {
            "go movetime 5"
        } else {
            "go nodes 300"
        };
        writeln!(input, "{pos}\n{go}").unwrap();
        input.flush().unwrap();
        let best = loop {
            let l = output.next().expect("the engine ended").unwrap();
            if l.starts_with("error") {
                errors.push(format!("search {i}: {l}"));
            }
            if let Some(m) = l.strip_prefix("bestmove ") {
                break m.to_string();
            }
        };
        bestmoves += 1;
        if best == "none" || moves.len() >= 150 {
            moves.clear();
        } else {
            moves.push(best);
        }
    }
    writeln!(input, "quit").unwrap();
    drop(input);
    let _ = child.wait();
    eprintln!("1000 searches in {:?}", start.elapsed());
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(bestmoves, 1000);
}

/// The number of games of the match test: 100 in scripts/engine-load.sh, fewer here so the
/// suite stays short on two shared cores (BAO_LOAD_GAMES overrides).
fn games() -> String {
    std::env::var("BAO_LOAD_GAMES").unwrap_or_else(|_| "20".into())
}

#[test]
fn a_match_between_two_engines_under_load_has_no_forfeit() {
    let _load = Load::start(2);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-load-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.txt");
    let engine = format!("cmd:{} engine", env!("CARGO_BIN_EXE_bao"));
    let games = games();
    let (code, out, err) = bao(&[
        "match",
        &engine,
        &engine,
        "--go",
        "movetime 5",
        "--games",
        &games,
        "--timeout",
        "30",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.contains(&format!("games {games} ")), "{out}");
    assert!(out.lines().any(|l| l == "forfeits 0"), "{out}\n{err}");
    assert!(!err.contains("forfeits"), "{err}");
    let text = std::fs::read_to_string(&records).unwrap();
    assert!(!text.contains("abandoned"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--tc` plays on clocks; a fast clock with an increment still has no loss on time.
#[test]
fn a_match_on_clocks_has_no_loss_on_time() {
    let _load = Load::start(2);
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-tc-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.txt");
    let engine = format!("cmd:{} engine", env!("CARGO_BIN_EXE_bao"));
    let (code, out, err) = bao(&[
        "match",
        &engine,
        "level:4",
        "--go",
        "",
        "--tc",
        "1+0.05",
        "--variant",
        "kete",
        "--games",
        "4",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(out.lines().any(|l| l == "forfeits 0"), "{out}\n{err}");
    assert!(
        out.lines().any(|l| l == "time control 1+0.05 seconds"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
