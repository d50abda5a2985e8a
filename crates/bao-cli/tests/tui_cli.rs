//! `bao play` and `bao replay` from the command line: arguments are checked, and records are
//! checked before the viewer starts. The game itself is tested key by key in
//! crates/bao-tui/tests/tui_game.rs (ratatui's TestBackend).

use std::process::{Command, Stdio};

fn bao() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bao"))
}

fn run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = bao().args(args).stdin(Stdio::null()).output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn play_checks_its_arguments_before_needing_a_terminal() {
    let (code, out, err) = run(&["play", "--variant", "chess"]);
    assert_eq!(code, Some(2));
    assert!(out.is_empty());
    assert!(err.starts_with("error: usage: "), "{err}");
    let (code, _, err) = run(&["play", "--vs", "computer:99"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("computer:LEVEL"), "{err}");
    let (code, _, err) = run(&["play", "--rules", "takasia=perhaps"]);
    assert_eq!(code, Some(2));
    assert!(err.starts_with("error: bad_rules: "), "{err}");
    let (code, _, err) = run(&["play", "--side", "E"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("--side"), "{err}");
    // Valid arguments, but no terminal: a clear refusal, not a garbled screen.
    let (code, _, err) = run(&["play", "--variant", "kete", "--vs", "human"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs a terminal"), "{err}");
}

#[test]
fn replay_checks_the_record_first() {
    let dir = std::env::temp_dir().join(format!("bao-tui-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bad = dir.join("bad.txt");
    std::fs::write(
        &bad,
        "[Variant \"kimasai\"]\n[Rules \"-\"]\n[South \"?\"]\n[North \"?\"]\n[Date \"????.??.??\"]\n[Result \"-\"]\n\n1. A1 a1 2. B9 -\n",
    )
    .unwrap();
    let (code, _, err) = run(&["replay", bad.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("line 8"), "{err}");
    let good = dir.join("good.txt");
    std::fs::write(
        &good,
        "[Variant \"kimasai\"]\n[Rules \"-\"]\n[South \"?\"]\n[North \"?\"]\n[Date \"????.??.??\"]\n[Result \"-\"]\n\n1. A1 a1 -\n",
    )
    .unwrap();
    let (code, _, err) = run(&["replay", good.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("needs a terminal"), "{err}");
}
