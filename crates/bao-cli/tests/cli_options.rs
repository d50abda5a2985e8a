//! Rule options through the `bao` binary: never-ending moves listed by `bao moves` with their
//! RESULT and traced with `stop never_ending` (BRD-6.3, BRD-6.4, OPT-3, CLI-2, CLI-5), the ply
//! cap (BRD-7.6) in `moves`, `apply`, `perft` and `trace`, and `--rules` spelt both ways.
//! The expected positions are derived by hand in crates/bao-rules/tests/options.rs.

mod common;
use common::bao;

/// Fixture kis-32: A7R* never ends; BRD-6.4 stops it where its first relay state recurs, which
/// is the board after its first lap (see options.rs).
const KIS32: &str =
    "kiswahili 2,1,2,3,2,4,0,3/0,2,0,0,3,0,0,0/1,0,2,1,0,1,2,1/2,0,1,2,0,1,2,0 S 13/13 - 0";
const KIS32_STOP: &str =
    "kiswahili 2,1,2,3,2,4,0,3/0,2,0,0,3,0,0,0/1,0,2,1,0,1,0,2/2,0,1,2,0,1,3,1 N 12/13 - 1";

fn move_lines(out: &str) -> Vec<(String, String, String)> {
    out.lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 3, "{l:?}");
            (f[0].to_string(), f[1].to_string(), f[2].to_string())
        })
        .collect()
}

#[test]
fn brd_6_3_never_ending_moves_in_bao_moves() {
    let (code, out, _) = bao(&["moves", KIS32]);
    assert_eq!(code, 0);
    let names: Vec<String> = move_lines(&out).into_iter().map(|l| l.0).collect();
    assert_eq!(names, ["A3L*", "A3R*", "A7L*"]);
    for (opts, result) in [
        ("never_ending=draw", "draw"),
        ("never_ending=mover_loses", "N"),
    ] {
        let (code, out, err) = bao(&["moves", "--rules", opts, KIS32]);
        assert_eq!(code, 0, "{err}");
        let lines = move_lines(&out);
        assert_eq!(lines.len(), 4);
        assert_eq!(
            lines[3],
            (
                "A7R*".to_string(),
                KIS32_STOP.to_string(),
                result.to_string()
            )
        );
        // The other three lines are those of the default rules.
        let (_, def, _) = bao(&["moves", KIS32]);
        assert_eq!(move_lines(&def), lines[..3].to_vec());
    }
}

#[test]
fn cli_5_never_ending_trace_and_apply() {
    let (code, out, err) = bao(&["trace", "--rules=never_ending=draw", KIS32, "A7R*"]);
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    let n = lines.len();
    assert_eq!(
        lines[n - 4..],
        [
            "stop never_ending",
            "draw never_ending",
            &format!("position {KIS32_STOP}"),
            "result draw"
        ]
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("lift ")).count(), 97);
    let (code, out, _) = bao(&["trace", "--rules", "never_ending=mover_loses", KIS32, "7R"]);
    assert_eq!(code, 0);
    assert!(
        out.ends_with(&format!(
            "stop never_ending\nwin N never_ending\nposition {KIS32_STOP}\nresult N\n"
        )),
        "{out}"
    );
    // apply: the game ends with the move; a further move is game_over.
    let (code, out, _) = bao(&["apply", "--rules", "never_ending=draw", KIS32, "A7R*"]);
    assert_eq!((code, out), (0, format!("{KIS32_STOP}\ndraw\n")));
    let (code, out, err) = bao(&[
        "apply",
        "--rules",
        "never_ending=draw",
        KIS32,
        "A7R*",
        "a5L",
    ]);
    assert_eq!((code, out.as_str()), (2, ""));
    assert!(err.starts_with("error: game_over: move 2 'a5L'"), "{err}");
    // Under the default the move is not legal at all.
    let (code, _, err) = bao(&["apply", KIS32, "A7R*"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("error: illegal_move: move 1 'A7R*'"),
        "{err}"
    );
}

#[test]
fn brd_7_6_max_plies_through_the_cli() {
    // Every move from the start reaches ply 1 = max_plies: RESULT draw (BRD-7.3 step 4).
    let (code, out, _) = bao(&["moves", "--rules", "max_plies=1", "kiswahili"]);
    assert_eq!(code, 0);
    let lines = move_lines(&out);
    assert_eq!(lines.len(), 4);
    assert!(lines.iter().all(|l| l.2 == "draw" && l.1.ends_with(" 1")));
    let (_, out, _) = bao(&["perft", "--rules", "max_plies=2", "kiswahili", "3"]);
    assert_eq!(out, "depth 1 4\ndepth 2 14\ndepth 3 0\n");
    let (_, out, _) = bao(&["trace", "--rules", "max_plies=1", "kiswahili", "A6L*"]);
    assert!(
        out.contains("\nstop empty\ndraw max_plies\nposition "),
        "{out}"
    );
    assert!(out.ends_with("\nresult draw\n"));
    let (code, _, err) = bao(&[
        "apply",
        "--rules",
        "max_plies=1",
        "kiswahili",
        "A6L*",
        "a6L*",
    ]);
    assert_eq!(code, 2);
    assert!(err.starts_with("error: game_over: move 2 "), "{err}");
    // A position already at the cap lists nothing and reports draw (CLI-2, CLI-3).
    let capped = "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 5";
    assert_eq!(bao(&["moves", "--rules", "max_plies=5", capped]).1, "");
    assert_eq!(
        bao(&["apply", "--rules", "max_plies=5", capped]).1,
        format!("{capped}\ndraw\n")
    );
    assert_eq!(
        bao(&["apply", "--rules", "max_plies=6", capped]).1,
        format!("{capped}\n-\n")
    );
}

#[test]
fn opt_1_empty_and_dash_mean_defaults() {
    let (_, def, _) = bao(&["moves", "kete"]);
    for opts in ["-", ""] {
        let (code, out, err) = bao(&["moves", "--rules", opts, "kete"]);
        assert_eq!((code, out.as_str()), (0, def.as_str()), "{err}");
    }
    // Options change the start position (NOT-3.5).
    let (_, out, _) = bao(&["apply", "--rules", "no_intro=never", "kimasai"]);
    assert_eq!(
        out,
        "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24/24 - 0\n-\n"
    );
    let (_, out, _) = bao(&["apply", "--rules", "first_takasa_from_kuu=false", "kete"]);
    assert!(out.starts_with("kete 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0\n"), "{out}");
}
