//! `bao bestmove`, `bao analyse`, and the engine protocol end to end: `bao match` drives
//! `bao engine` as an external process and saves records that replay legally (NOT-6).

use std::process::Command;

fn bao() -> Command {
    Command::new(env!("CARGO_BIN_EXE_bao"))
}

fn run(args: &[&str]) -> (i32, String, String) {
    let o = bao().args(args).output().unwrap();
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8(o.stdout).unwrap(),
        String::from_utf8(o.stderr).unwrap(),
    )
}

#[test]
fn bestmove_prints_move_score_and_pv() {
    let (code, out, _) = run(&["bestmove", "--depth", "3", "kiswahili"]);
    assert_eq!(code, 0);
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        [
            "bestmove A6L*",
            "bestmove A6R*",
            "bestmove A7L*",
            "bestmove A7R*"
        ]
        .contains(&lines[0]),
        "{out}"
    );
    assert!(lines[1].starts_with("score cp "), "{out}");
    assert!(
        lines[2].starts_with(&format!("pv {}", &lines[0][9..])),
        "{out}"
    );
    assert!(lines[3].starts_with("depth 3 "), "{out}");
    // KIS-14.1 position: South wins nothing at once, but must capture; a bad position errors.
    let (code, _, err) = run(&["bestmove", "--depth", "2", "kiswahili 1,2,3"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: bad_position: "), "{err}");
    let (code, _, err) = run(&["bestmove", "--nodes", "0", "kiswahili"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: usage: "), "{err}");
}

#[test]
fn analyse_lists_every_legal_move() {
    let (code, out, _) = run(&["analyse", "--depth", "2", "kimasai"]);
    assert_eq!(code, 0);
    let mut moves: Vec<&str> = out
        .lines()
        .filter(|l| l.contains('\t'))
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    moves.sort();
    let (_, legal, _) = run(&["moves", "kimasai"]);
    let legal: Vec<&str> = legal
        .lines()
        .map(|l| l.split('\t').next().unwrap())
        .collect();
    assert_eq!(moves, legal);
    assert!(out.lines().last().unwrap().starts_with("depth 2 nodes "));
}

#[test]
fn match_drives_an_external_engine_and_saves_records() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-match-e2e-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.txt");
    let engine = format!("cmd:{} engine", env!("CARGO_BIN_EXE_bao"));
    let (code, out, err) = run(&[
        "match",
        "level:2",
        &engine,
        "--variant",
        "kimasai",
        "--games",
        "2",
        "--go",
        "level 2",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("games 2 wins "), "{out}");
    assert!(out.contains("\nelo "), "{out}");
    assert!(out.contains("\nsprt "), "{out}");
    let text = std::fs::read_to_string(&records).unwrap();
    let recs: Vec<&str> = text.split("\n\n[").collect();
    assert_eq!(recs.len(), 2, "{text}");
    for (i, r) in text.split("[Variant").skip(1).enumerate() {
        let r = format!("[Variant{r}");
        assert!(
            r.contains(&format!(
                "[South \"{}\"]",
                if r.contains("[Round \"1\"]") || r.contains("[Round \"3\"]") {
                    "level:2"
                } else {
                    engine.as_str()
                }
            )),
            "{i}: {r}"
        );
        // The movetext replays with `bao apply` to the stated result.
        let (_, movetext) = r.trim_end().split_once("\n\n").unwrap();
        let toks: Vec<&str> = movetext
            .split_whitespace()
            .filter(|t| !t.ends_with('.'))
            .collect();
        let (result, moves) = toks.split_last().unwrap();
        let mut args = vec!["apply", "kimasai"];
        args.extend(moves.iter().copied());
        let (code, out, err) = run(&args);
        assert_eq!(code, 0, "{err}");
        if !r.contains("[Termination") {
            assert_eq!(out.lines().nth(1).unwrap(), *result, "{r}");
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The summary says how deep each built-in engine searched: a depth limit is the ceiling of
/// its mean, a deeper limit gives a deeper mean, and a player that does not search
/// (`random`) has no line.
#[test]
fn match_reports_how_deep_each_engine_searched() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-match-depth-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let records = dir.join("games.txt");
    let records = records.to_str().unwrap();
    let mean = |out: &str, who: &str| -> f64 {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("search {who}: mean depth ")))
            .unwrap_or_else(|| panic!("no search line for {who}:\n{out}"));
        line.split_whitespace()
            .nth(4)
            .unwrap()
            .trim_end_matches(',')
            .parse()
            .unwrap()
    };
    let play = |a: &str, b: &str| {
        run(&[
            "match",
            a,
            b,
            "--games",
            "2",
            "--concurrency",
            "1",
            "--records",
            records,
        ])
    };
    let (code, out, err) = play("depth:2", "depth:4");
    assert_eq!(code, 0, "{out}{err}");
    let (d2, d4) = (mean(&out, "depth:2"), mean(&out, "depth:4"));
    assert!(d2 > 1.0 && d2 <= 2.0, "{out}");
    assert!(d4 > d2 && d4 <= 4.0, "{out}");
    // The median lies within the limit too (the line reads "mean depth M, median D, ...").
    for who in ["depth:2", "depth:4"] {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("search {who}:")))
            .unwrap();
        let median: u32 = line
            .split_whitespace()
            .nth(6)
            .unwrap()
            .trim_end_matches(',')
            .parse()
            .unwrap();
        let limit: u32 = who[6..].parse().unwrap();
        assert!(median >= 1 && median <= limit, "{out}");
    }
    assert!(out.contains(" nodes a move, over "), "{out}");
    let (code, out, err) = play("random", "depth:2");
    assert_eq!(code, 0, "{out}{err}");
    assert!(!out.contains("search random"), "{out}");
    assert!(mean(&out, "depth:2") <= 2.0, "{out}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn match_rejects_bad_players() {
    let (code, _, err) = run(&["match", "level:2", "grandmaster", "--games", "2"]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: usage: unknown player"), "{err}");
    let (code, _, err) = run(&[
        "match",
        "level:2",
        "cmd:/nonexistent/engine",
        "--games",
        "2",
        "--records",
        "/dev/null",
    ]);
    assert_ne!(code, 0);
    assert!(err.contains("cannot start"), "{err}");
}

/// `bao tune` writes weights that `bao match` can load as a player (nodes:N:FILE), and
/// refuses bad arguments with a usage error.
#[test]
fn tune_writes_weights_that_match_can_play() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-tune-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("w.txt");
    let file_s = file.to_str().unwrap();
    let args = [
        "tune",
        "--variant",
        "kimasai",
        "--iterations",
        "2",
        "--games",
        "2",
        "--nodes",
        "200",
        "--concurrency",
        "1",
        "--out",
        file_s,
    ];
    let (code, out, err) = run(&args);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("# bao tune --variant kimasai"), "{out}");
    // Without a terminal, progress goes to stderr line by line.
    assert!(err.contains("iteration 2/2"), "{err}");
    let written = std::fs::read_to_string(&file).unwrap();
    assert_eq!(written, out, "the file holds what was printed");
    assert!(written.lines().any(|l| l.starts_with("material 100 100")));
    // Same arguments, same weights.
    let (_, again, _) = run(&args);
    assert_eq!(again, out);
    let player = format!("nodes:300:{file_s}");
    let records = dir.join("m.txt");
    let (code, out, err) = run(&[
        "match",
        &player,
        "nodes:300",
        "--variant",
        "kimasai",
        "--games",
        "2",
        "--records",
        records.to_str().unwrap(),
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains(&format!("match {player} vs nodes:300")),
        "{out}"
    );
    assert!(out.contains("games 2 "), "{out}");
    let (code, _, err) = run(&["match", "nodes:300:/nonexistent/w.txt", "random"]);
    assert_eq!(code, 2);
    assert!(err.contains("cannot read weights file"), "{err}");
    std::fs::write(&file, "material 100\n").unwrap();
    let (code, _, err) = run(&["match", &player, "random"]);
    assert_eq!(code, 2);
    assert!(err.contains("line 1"), "{err}");
    for bad in [
        vec!["tune", "--variant", "chess"],
        vec!["tune", "--iterations", "0"],
        vec!["tune", "--step", "-1"],
        vec!["tune", "--start", "/nonexistent/w.txt"],
    ] {
        let (code, _, err) = run(&bad);
        assert_eq!(code, 2, "{bad:?}");
        assert!(err.starts_with("error: usage: "), "{bad:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
