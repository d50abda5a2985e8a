//! Hostile input to the `bao` binary (CLI-8, NOT-4, NOT-5): malformed positions and moves,
//! bad options, usage errors, batch mode. Each must give exit status 2, an empty standard
//! output and exactly one line `error: <category>: …` on standard error; never a panic
//! (status 101) or a hang (every run has a deadline).

mod common;
use common::spawn_bao;
use std::io::{Read, Write};
use std::time::{Duration, Instant};

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

/// Runs `bao` with `args` and `stdin`, killing it after 20 s (a hang fails the test).
fn bao_in(args: &[&str], stdin: &str) -> Run {
    let mut child = spawn_bao(args);
    let mut input = child.stdin.take().unwrap();
    let data = stdin.as_bytes().to_vec();
    let writer = std::thread::spawn(move || {
        let _ = input.write_all(&data);
    });
    // Read both pipes while waiting, so that a large output cannot block the child.
    let mut out_pipe = child.stdout.take().unwrap();
    let mut err_pipe = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_reader = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(st) = child.try_wait().unwrap() {
            break st;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("bao {args:?} did not finish within 20 s");
        }
        std::thread::sleep(Duration::from_millis(2));
    };
    let _ = writer.join();
    Run {
        code: status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out_reader.join().unwrap()).into_owned(),
        stderr: String::from_utf8_lossy(&err_reader.join().unwrap()).into_owned(),
    }
}

fn bao(args: &[&str]) -> Run {
    bao_in(args, "")
}

/// Exit 2, nothing on stdout, one line `error: <category>: …` on stderr.
fn assert_error(args: &[&str], category: &str) -> String {
    let r = bao(args);
    assert_ne!(r.code, 101, "bao {args:?} panicked: {}", r.stderr);
    assert_eq!(
        r.code, 2,
        "bao {args:?}: status {} stderr {:?}",
        r.code, r.stderr
    );
    assert_eq!(r.stdout, "", "bao {args:?} printed to stdout");
    let prefix = format!("error: {category}: ");
    assert!(
        r.stderr.starts_with(&prefix),
        "bao {args:?}: {:?} is not {prefix}…",
        r.stderr
    );
    assert!(
        r.stderr.ends_with('\n') && r.stderr.lines().count() == 1,
        "bao {args:?}: {:?}",
        r.stderr
    );
    assert!(
        r.stderr.len() > prefix.len() + 1,
        "no detail in {:?}",
        r.stderr
    );
    r.stderr
}

const START: &str =
    "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0";

/// The start position with one field replaced (0-based field index).
fn with_field(i: usize, value: &str) -> String {
    let mut f: Vec<&str> = START.split(' ').collect();
    f[i] = value;
    f.join(" ")
}

#[test]
fn not_4_1_malformed_positions() {
    let long = "9,".repeat(20_000);
    let cases: Vec<(String, &str)> = vec![
        (String::new(), "syntax"),
        ("   ".into(), "syntax"),
        ("kiswahili 0,0".into(), "syntax"),
        (format!("{START} extra"), "syntax"),
        ("chess".into(), "syntax"),
        (with_field(0, "Kiswahili"), "variant"),
        (with_field(0, "kiswahíli"), "variant"),
        (with_field(1, "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0"), "board"),
        (with_field(1, "0,0,0,0,0,0,0/0,2,2,6,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0"), "board"),
        (with_field(1, "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,-0"), "board"),
        (with_field(1, "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,+6,2,2,0/0,0,0,0,0,0,0,0"), "board"),
        (with_field(1, "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,٣"), "board"),
        (with_field(1, "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,"), "board"),
        (with_field(1, &format!("{long}0")), "board"),
        (with_field(2, "W"), "side"),
        (with_field(2, "s"), "side"),
        (with_field(3, "22"), "hands"),
        (with_field(3, "22/-1"), "hands"),
        (with_field(3, "22/22/0"), "hands"),
        (with_field(5, "-1"), "ply"),
        (with_field(5, "1.5"), "ply"),
        (with_field(5, "99999999999999999999999"), "ply"),
        (with_field(3, "22/21"), "total"),
        (with_field(1, "99999999999999999999,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0"), "total"),
        (with_field(3, "99999999999999999999/45"), "total"),
        (with_field(3, "22/23"), "total"),
        (with_field(1, "0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,9999999999999999"), "total"),
        ("kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,20 S 22/22 - 0".into(), "board"),
        (with_field(4, "house:X"), "flags"),
        (with_field(4, "house:S,house:S,house:N"), "flags"),
        (with_field(4, "nointro"), "flags"),
        (with_field(4, "flag"), "flags"),
        (with_field(4, "house:S,"), "flags"),
        (with_field(4, "block:A6"), "flags"), // hands are not empty
        (with_field(4, "must:a5"), "flags"),  // blocker_must_capture=off
        (with_field(4, "duty:S"), "flags"),   // kiswahili
    ];
    for (pos, kind) in &cases {
        let line = assert_error(&["moves", pos], "bad_position");
        assert!(
            line.starts_with(&format!("error: bad_position: {kind}: ")),
            "{pos:?}: {line:?}"
        );
        // The same through apply, perft, trace and show.
        assert_error(&["apply", pos], "bad_position");
        assert_error(&["perft", pos, "1"], "bad_position");
        assert_error(&["trace", pos, "A6L*"], "bad_position");
        assert_error(&["show", pos], "bad_position");
    }
}

#[test]
fn not_4_1_tabs_and_spaces_between_fields_are_accepted() {
    let spaced = START.replace(' ', " \t  ");
    let r = bao(&["apply", &format!("  {spaced}\t")]);
    assert_eq!(
        (r.code, r.stdout.as_str()),
        (0, format!("{START}\n-\n").as_str())
    );
}

#[test]
fn not_5_malformed_and_illegal_moves() {
    for (m, cat) in [
        ("", "bad_move"),
        ("A", "bad_move"),
        ("A9L", "bad_move"),
        ("C3L", "bad_move"),
        ("A3X", "bad_move"),
        ("A3L**+", "bad_move"),
        ("A3L*x", "bad_move"),
        ("Ａ3L", "bad_move"),
        ("A3\tL", "bad_move"),
        ("6 L*", "bad_move"),
        ("A5L*", "illegal_move"),
        ("B1L", "illegal_move"),
        ("A6L+", "illegal_move"),
        ("6", "ambiguous_move"),
        ("a6", "ambiguous_move"),
    ] {
        let line = assert_error(&["apply", "kiswahili", m], cat);
        assert!(line.contains("move 1 "), "{line:?}");
        assert_error(&["trace", "kiswahili", m], cat);
    }
    let long = "A".repeat(100_000);
    assert_error(&["apply", "kiswahili", &long], "bad_move");
    // The second move is named, and nothing is printed even though the first was good.
    let line = assert_error(&["apply", "kiswahili", "A6L*", "a9"], "bad_move");
    assert!(line.contains("move 2 'a9'"), "{line:?}");
    // Kimasai moves have no letters; mtaji moves need the row letter (NOT-2.2).
    assert_error(&["apply", "kimasai", "A1L"], "bad_move");
    assert_error(&["apply", "kimasai", "1"], "bad_move");
    let mtaji =
        "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0/0 - 0";
    assert_error(&["apply", mtaji, "7L*"], "bad_move");
    // A move after the end of the game (fixture kis-34 style: after a bao hamna).
    let won = "kiswahili 0,0,0,0,0,0,0,0/1,2,2,16,0,0,2,0/2,0,0,0,14,0,0,1/0,0,0,0,0,0,0,0 S 12/12 house:S,house:N 1";
    let line = assert_error(&["apply", won, "A1L+", "a2L"], "game_over");
    assert!(line.contains("move 2 'a2L'"), "{line:?}");
}

#[test]
fn not_5_usage_errors() {
    for args in [
        vec!["perft", "kiswahili", "0"],
        vec!["perft", "kiswahili", "-1"],
        vec!["perft", "kiswahili", "abc"],
        vec!["perft", "kiswahili", "1.0"],
        vec!["perft", "kiswahili"],
        vec!["playout", "kiswahili", "abc"],
        vec!["playout", "kiswahili", "0"],
        vec!["playout", "--seed", "x", "kiswahili", "1"],
        vec!["playout", "--seed", "-5", "kiswahili", "1"],
        vec!["frobnicate"],
        vec!["moves"],
        vec!["moves", "kiswahili", "extra"],
        vec!["trace", "kiswahili"],
        vec!["moves", "--bogus", "kiswahili"],
        vec!["moves", "--rules"],
    ] {
        assert_error(&args, "usage");
    }
}

#[test]
fn opt_1_1_bad_rules() {
    for opts in [
        "takasia=maybe",
        "nonsense=1",
        "takasia=false,takasia=false",
        "intro_pits=any",
        "first_takasa_from_kuu=false",
        "takasia",
        "takasia=false,",
        "TAKASIA=false",
        "takasia = false",
        "house_functional_min=1",
        "house_functional_min=65",
        "house_functional_min=+6",
        "max_plies=0",
        "max_plies=-3",
        "never_ending=Draw",
        "\ntakasia=false",
        "takasia=\u{1b}[31mfalse",
    ] {
        assert_error(&["moves", "--rules", opts, "kiswahili"], "bad_rules");
        assert_error(
            &["apply", &format!("--rules={opts}"), "kiswahili"],
            "bad_rules",
        );
    }
    // Options of another variant (OPT-1.1 fourth point).
    assert_error(
        &["moves", "--rules", "takasia=false", "kimasai"],
        "bad_rules",
    );
    assert_error(
        &["moves", "--rules", "capture_compulsory=true", "kete"],
        "bad_rules",
    );
}

#[test]
fn cli_8_3_order_of_checks() {
    // 1. usage before everything (a bad DEPTH with a bad position and bad rules).
    assert_error(&["perft", "--rules", "x=y", "nonsense", "0"], "usage");
    // 2. fields and variant before the options.
    assert_error(&["moves", "--rules", "x=y", "kiswahili 0"], "bad_position");
    assert_error(
        &["moves", "--rules", "x=y", &with_field(0, "chess")],
        "bad_position",
    );
    // 3. the options (checked against the variant) before the rest of the position.
    assert_error(
        &["moves", "--rules", "x=y", &with_field(3, "1/1")],
        "bad_rules",
    );
    assert_error(
        &[
            "moves",
            "--rules",
            "capture_compulsory=true",
            &with_field(3, "1/1"),
        ],
        "bad_rules",
    );
    // 4. the rest of the position before the moves.
    assert_error(&["apply", &with_field(3, "1/1"), "Z9"], "bad_position");
    // Flag validity depends on the options (NOT-4.2, OPT-1.2).
    let must =
        "kete 20,25,0,0,0,0,0,0/0,4,0,2,0,0,0,1/0,1,0,1,0,0,0,1/4,3,0,0,0,0,2,0 S 0/0 must:a5 9";
    assert_eq!(bao(&["moves", must]).code, 0);
    let line = assert_error(
        &["moves", "--rules", "blocker_must_capture=off", must],
        "bad_position",
    );
    assert!(line.starts_with("error: bad_position: flags: "), "{line}");
    assert_error(&["moves", "--rules", "takasia=false", must], "bad_position");
    let kete_start = "kete 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N,duty:S,duty:N 0";
    assert_error(
        &[
            "moves",
            "--rules",
            "first_takasa_from_kuu=false",
            kete_start,
        ],
        "bad_position",
    );
    let masai =
        "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24/24 nointro 0";
    assert_error(
        &["moves", "--rules", "no_intro=never", masai],
        "bad_position",
    );
    // 5. then the moves.
    assert_error(&["apply", "kiswahili", "Z9"], "bad_move");
}

#[test]
fn cli_2_1_batch_mode() {
    // Good lines are answered with their moves and '.'; blank lines are skipped.
    let r = bao_in(&["moves", "-"], "kiswahili\n\n  \nkimasai\r\n");
    assert_eq!(r.code, 0, "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.iter().filter(|l| **l == ".").count(), 2);
    assert_eq!(lines.len(), 4 + 1 + 8 + 1); // 4 kiswahili moves, 8 kimasai moves (perft.txt)
    assert!(lines[0].starts_with("A6L*\t"));
    // The first bad line stops the run: its 1-based number is in the message, earlier output
    // is kept, later lines are not read.
    let input = format!("kiswahili\n\n{}\nkete\n", with_field(3, "22/21"));
    let r = bao_in(&["moves", "-"], &input);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout.lines().filter(|l| *l == ".").count(), 1);
    assert!(r.stdout.ends_with(".\n"));
    assert!(
        r.stderr.starts_with("error: bad_position: total: "),
        "{:?}",
        r.stderr
    );
    assert!(r.stderr.contains("line 3"), "{:?}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1);
    // A game-over position prints just '.'.
    let won = "kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/2,0,0,0,14,0,0,1/0,0,0,0,0,0,0,0 N 12/35 house:S 1";
    let r = bao_in(&["moves", "-"], &format!("{won}\n"));
    assert_eq!((r.code, r.stdout.as_str()), (0, ".\n"), "{}", r.stderr);
    // Bad rules are reported for the first line, with its number.
    let r = bao_in(&["moves", "--rules", "takasia=false", "-"], "kimasai\n");
    assert_eq!((r.code, r.stdout.as_str()), (2, ""));
    assert!(
        r.stderr.starts_with("error: bad_rules: ") && r.stderr.contains("line 1"),
        "{:?}",
        r.stderr
    );
    // Non-UTF-8 and binary junk: a clean error.
    let r = bao_in(&["moves", "-"], "kiswahili\n\u{0}\u{1}\u{fffd}\u{7f}\n");
    assert_eq!(r.code, 2);
    assert!(
        r.stderr.starts_with("error: bad_position: ") && r.stderr.contains("line 2"),
        "{:?}",
        r.stderr
    );
    // Many lines: no per-line process (a quick sanity run of 300 positions).
    let r = bao_in(&["moves", "-"], &"kete\n".repeat(300));
    assert_eq!(
        (r.code, r.stdout.lines().filter(|l| *l == ".").count()),
        (0, 300)
    );
}

#[test]
fn no_input_makes_bao_panic() {
    // A sweep of odd arguments to every command: any status but 101, and no hang.
    let odd = [
        "", "-", "--", "\t", "kiswahili\u{1}", "💥", "kete kete kete kete kete kete", "kimasai\n",
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 4294967295",
    ];
    for cmd in ["moves", "apply", "perft", "trace", "show", "playout"] {
        for a in odd {
            for b in ["", "1", "A6L*", "x"] {
                let mut args = vec![cmd, a];
                if !b.is_empty() {
                    args.push(b);
                }
                let r = bao(&args);
                assert_ne!(r.code, 101, "bao {args:?} panicked: {}", r.stderr);
                if r.code != 0 {
                    assert_eq!(r.stdout, "", "bao {args:?}");
                    assert!(
                        r.stderr.starts_with("error: ") && r.stderr.lines().count() == 1,
                        "bao {args:?}: {:?}",
                        r.stderr
                    );
                }
            }
        }
    }
}
