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
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-tui-cli-{}", std::process::id()));
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

/// The real terminal loop in a pseudo-terminal (util-linux `script`, Debian package
/// bsdutils): type a move, skip its animation, quit, confirm; the record is saved and
/// valid. Fails (does not skip) when `script` is missing.
#[test]
fn play_in_a_pseudo_terminal_saves_a_valid_record() {
    use std::io::Write;
    use std::time::Duration;
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-pty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.txt");
    let _ = std::fs::remove_file(&record);
    let cmd = format!(
        "stty cols 110 rows 32; {} play --vs computer:1 --no-animation --record {}",
        env!("CARGO_BIN_EXE_bao"),
        record.display()
    );
    let mut child = Command::new("script")
        .args(["-qfec", &cmd, "/dev/null"])
        .env("TERM", "xterm-256color")
        .env("COLUMNS", "110")
        .env("LINES", "32")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the `script` program (util-linux / bsdutils) is needed for this test");
    let mut stdin = child.stdin.take().unwrap();
    let keys: [(u64, &[u8]); 4] = [(3000, b":A7L*\r"), (3000, b"q"), (1000, b"y"), (2000, b"")];
    for (wait, k) in keys {
        std::thread::sleep(Duration::from_millis(wait));
        let _ = stdin.write_all(k);
        let _ = stdin.flush();
    }
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    let screen = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{screen}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(screen.contains("Game record saved to"), "{screen}");
    assert!(
        screen.contains("Board") && screen.contains("a8"),
        "the board was drawn"
    );
    let text = std::fs::read_to_string(&record).expect("the record was saved");
    let recs = bao_rules::parse_records(&text).unwrap();
    let game = recs[0].validate().unwrap();
    assert_eq!(game.moves()[0].to_string(), "A7L*", "{text}");
    assert_eq!(recs[0].termination, Some(bao_rules::Termination::Abandoned));
    let _ = std::fs::remove_dir_all(&dir);
}
