//! `bao puzzles mine` and `bao puzzles check` end to end (docs/api.md, "Puzzles"): mining is
//! deterministic, what it writes passes the check, a tampered line fails it, and the data
//! files the server embeds pass it.

use std::path::PathBuf;
use std::process::Command;

fn run(args: &[&str]) -> (i32, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .output()
        .unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

fn tmp(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name)
}

#[test]
fn mining_is_repeatable_and_its_output_checks() {
    let args = [
        "puzzles",
        "mine",
        "--variant",
        "kete",
        "--games",
        "8",
        "--want",
        "1,1,1",
        "--seed",
        "3",
    ];
    let (code, a, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    let (_, b, _) = run(&args);
    assert_eq!(a, b, "the same seed gives the same puzzles");
    let list: Vec<serde_json::Value> = serde_json::from_str(&a).unwrap();
    assert!(!list.is_empty(), "{a}");
    assert!(list.len() <= 3);
    for p in &list {
        assert!(p["id"].as_str().unwrap().starts_with("kete-"));
        assert!(p["position"].as_str().unwrap().starts_with("kete "));
        assert!(!p["moves"].as_array().unwrap().is_empty());
    }
    let file = tmp("puzzles-kete.json");
    std::fs::write(&file, &a).unwrap();
    let (code, out, err) = run(&[
        "puzzles",
        "check",
        "--variant",
        "kete",
        file.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.lines().count(), list.len());
    assert!(out.lines().all(|l| l.ends_with("\tok")), "{out}");

    // Another legal first move: the proof no longer holds.
    let first = list[0]["moves"][0].as_str().unwrap();
    let (_, moves, _) = run(&["moves", list[0]["position"].as_str().unwrap()]);
    let other = moves
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .find(|m| *m != first)
        .unwrap();
    let mut bad = list.clone();
    bad[0]["moves"][0] = other.into();
    let file = tmp("puzzles-kete-bad.json");
    std::fs::write(&file, serde_json::to_string(&bad).unwrap()).unwrap();
    let (code, out, _) = run(&[
        "puzzles",
        "check",
        "--variant",
        "kete",
        file.to_str().unwrap(),
    ]);
    assert_ne!(code, 0);
    assert!(out.lines().next().unwrap().contains("\tfailed\t"), "{out}");
}

#[test]
fn the_embedded_data_files_pass_the_check() {
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../bao-server/data/puzzles");
    for v in ["kiswahili", "kete", "kimasai"] {
        let file = data.join(format!("{v}.json"));
        let (code, out, err) = run(&["puzzles", "check", "--variant", v, file.to_str().unwrap()]);
        assert_eq!(code, 0, "{v}: {out}{err}");
        assert!(out.lines().count() >= 50, "{v}");
    }
}

#[test]
fn bad_arguments_are_usage_errors() {
    let (code, _, err) = run(&["puzzles", "mine", "--want", "1,2"]);
    assert_eq!(code, 2);
    assert!(err.contains("--want takes three counts"), "{err}");
    let (code, _, err) = run(&["puzzles", "mine", "--variant", "chess"]);
    assert_eq!(code, 2);
    assert!(err.contains("chess"), "{err}");
    let (code, _, err) = run(&["puzzles", "check", "/nonexistent/puzzles.json"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}

/// A records file (NOT-6) of two kete games between computer levels and one kimasai game.
fn records_file(name: &str) -> PathBuf {
    use bao_rules::{Game, Position, Record, Rules, Variant};
    let mut text = String::new();
    for (variant, seed) in [
        (Variant::Kete, 1),
        (Variant::Kimasai, 2),
        (Variant::Kete, 3),
    ] {
        let rules = Rules::new(variant);
        let mut game = Game::new(Position::start(&rules), rules);
        while !game.outcome().is_over() && game.moves().len() < 120 {
            let level = 2 + (game.moves().len() % 2) as u8;
            let m = bao_engine::choose_move_in_game(
                game.position(),
                &rules,
                level,
                seed,
                &game.positions()[..game.positions().len() - 1],
            )
            .unwrap();
            game.play(&m);
        }
        text.push_str(&Record::from_game(&game).to_string());
        text.push('\n');
    }
    let file = tmp(name);
    std::fs::write(&file, text).unwrap();
    file
}

#[test]
fn mining_a_records_file_examines_its_games() {
    let file = records_file("puzzles-records.txt");
    let args = [
        "puzzles",
        "mine",
        "--variant",
        "kete",
        "--games",
        "0",
        "--pool",
        "1",
        "--want",
        "1000,1000,1000",
        "--from",
        file.to_str().unwrap(),
    ];
    let (code, a, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    // The kimasai game is not kete: skipped and counted.
    assert!(err.contains("1 records skipped"), "{err}");
    assert!(err.contains("2 games,"), "{err}");
    let (_, b, _) = run(&args);
    assert_eq!(a, b, "the same file gives the same puzzles");
    let list: Vec<serde_json::Value> = serde_json::from_str(&a).unwrap();
    assert!(
        !list.is_empty(),
        "two games of 120 plies give some puzzle: {err}"
    );
    for p in &list {
        let source = p["source"].as_str().unwrap();
        assert!(
            source.starts_with("puzzles-records.txt record 1 ply ")
                || source.starts_with("puzzles-records.txt record 3 ply "),
            "{source}"
        );
        assert!(p["themes"].is_array(), "{p}");
    }
    let out = tmp("puzzles-from-records.json");
    std::fs::write(&out, &a).unwrap();
    let (code, checked, err) = run(&[
        "puzzles",
        "check",
        "--variant",
        "kete",
        out.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{checked}{err}");

    // A file that is not records is a usage error naming it.
    let bad = tmp("puzzles-not-records.txt");
    std::fs::write(&bad, "this is not a record\n").unwrap();
    let (code, _, err) = run(&[
        "puzzles",
        "mine",
        "--variant",
        "kete",
        "--from",
        bad.to_str().unwrap(),
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("puzzles-not-records.txt"), "{err}");
}
