//! Threefold repetition (BRD-7.5) through the `bao` binary: `bao apply` counts history
//! (CLI-3) and `bao record validate` checks records with it (NOT-6.4).
//!
//! The line is the kimasai staircase cycle of crates/bao-rules/tests/repetition.rs: South's
//! staircase 10, 9, …, 1 (A1 to B7) and North's 3, 2, 1 (a1–a3) and 2, 1 (b8–b7) each move one
//! pit per move without capturing, and the first position recurs after 64 plies.

mod common;
use common::bao;

#[path = "../../bao-rules/tests/data/staircase.rs"]
mod staircase;

fn apply(opts: &str, moves: &[String]) -> (i32, String, String) {
    let mut args: Vec<String> = vec!["apply".into(), "--rules".into(), opts.into()];
    args.push(staircase::start().into());
    args.extend(moves.iter().cloned());
    bao(&args)
}

/// The cycle's start with another ply counter (the board, hands, side and flags are the same).
fn at_ply(ply: u32) -> String {
    staircase::start().replace(" - 0", &format!(" - {ply}"))
}

#[test]
fn cli_3_apply_draws_on_the_third_occurrence() {
    let line: Vec<String> = staircase::round().into_iter().cycle().take(128).collect();
    // After one round: the second occurrence, the game goes on.
    let (code, out, err) = apply("-", &line[..64]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{}\n-\n", at_ply(64)));
    // One ply short of the third occurrence: still going.
    let (code, out, err) = apply("-", &line[..127]);
    assert_eq!(code, 0, "{err}");
    assert!(out.ends_with("\n-\n"), "{out}");
    // The third occurrence: drawn by repetition.
    let (code, out, err) = apply("-", &line);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{}\ndraw\n", at_ply(128)));
}

#[test]
fn cli_3_apply_refuses_a_move_after_the_repetition_draw() {
    let line: Vec<String> = staircase::round().into_iter().cycle().take(129).collect();
    let (code, out, err) = apply("-", &line);
    assert_eq!(code, 2);
    assert!(out.is_empty(), "{out}");
    // CLI-3/CLI-8: one line naming the move as given and its number.
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("129"), "{err}");
    assert!(err.contains(&format!("'{}'", line[128])), "{err}");
}

#[test]
fn cli_3_apply_with_repetition_none_plays_on() {
    let line: Vec<String> = staircase::round().into_iter().cycle().take(192).collect();
    let (code, out, err) = apply("repetition=none", &line);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out, format!("{}\n-\n", at_ply(192)));
}

/// A record of the line from the cycle's start (NOT-6.2 `Start` tag), with move numbers.
fn record(moves: &[String], result: &str) -> String {
    let mut text = format!(
        "[Variant \"kimasai\"]\n[Rules \"-\"]\n[South \"?\"]\n[North \"?\"]\n[Date \"2026.11.??\"]\n\
         [Result \"{result}\"]\n[Start \"{}\"]\n\n",
        staircase::start()
    );
    for (i, pair) in moves.chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    text.push_str(result);
    text.push('\n');
    text
}

fn validate(name: &str, text: &str) -> (i32, String, String) {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-repetition-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    let out = bao(&["record".into(), "validate".into(), p.display().to_string()]);
    let _ = std::fs::remove_file(&p);
    out
}

#[test]
fn not_6_4_record_ending_in_a_repetition_draw_is_valid() {
    let line: Vec<String> = staircase::round().into_iter().cycle().take(128).collect();
    let (code, out, err) = validate("draw.txt", &record(&line, "draw"));
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("record 1: valid"), "{out}");
    assert!(out.contains("128 moves"), "{out}");
}

#[test]
fn not_6_4_record_playing_on_after_the_draw_is_refused() {
    let line: Vec<String> = staircase::round().into_iter().cycle().take(130).collect();
    let (code, out, err) = validate("on.txt", &record(&line, "-"));
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    // The first move after the end is named: move 129, South's A1.
    assert!(err.contains("move 129"), "{err}");
    assert!(err.contains("over"), "{err}");
}

#[test]
fn not_6_4_record_claiming_another_result_after_the_draw_is_refused() {
    // Termination defaults to `rules`, so Result must be the outcome reached: a draw.
    let line: Vec<String> = staircase::round().into_iter().cycle().take(128).collect();
    let (code, _, err) = validate("claim.txt", &record(&line, "S"));
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("draw"), "{err}");
}

/// The moves of a whole game from the start position drawn by repetition:
/// crates/bao-rules/tests/data/VARIANT-game-to-repetition.txt.
fn whole_game(text: &'static str) -> Vec<&'static str> {
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
}

fn kimasai_game() -> Vec<&'static str> {
    whole_game(include_str!(
        "../../bao-rules/tests/data/kimasai-game-to-repetition.txt"
    ))
}

fn kete_game() -> Vec<&'static str> {
    whole_game(include_str!(
        "../../bao-rules/tests/data/kete-game-to-repetition.txt"
    ))
}

fn kiswahili_game() -> Vec<&'static str> {
    whole_game(include_str!(
        "../../bao-rules/tests/data/kiswahili-game-to-repetition.txt"
    ))
}

/// `bao record validate` accepts the game (no Start tag: from the start position) as a
/// draw, and refuses it with the cycle's next move played after the end.
fn assert_whole_game_record(variant: &str, moves: &[&str], cycle: usize) {
    let mut text = format!(
        "[Variant \"{variant}\"]\n[Rules \"-\"]\n[South \"?\"]\n[North \"?\"]\n\
         [Date \"2026.12.01\"]\n[Result \"draw\"]\n\n"
    );
    for (i, pair) in moves.chunks(2).enumerate() {
        text.push_str(&format!("{}. {}\n", i + 1, pair.join(" ")));
    }
    text.push_str("draw\n");
    let (code, out, err) = validate(&format!("{variant}-game.txt"), &text);
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("record 1: valid"), "{out}");
    assert!(out.contains(&format!("{} moves", moves.len())), "{out}");
    // One move more is refused: the game was over.
    let more = text.replace("\ndraw\n", &format!(" {}\n-\n", moves[moves.len() - cycle]));
    let more = more.replace("[Result \"draw\"]", "[Result \"-\"]");
    let (code, _, err) = validate(&format!("{variant}-more.txt"), &more);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains(&format!("move {}", moves.len() + 1)), "{err}");
}

#[test]
fn not_6_4_a_whole_kimasai_game_drawn_by_repetition_is_valid() {
    assert_whole_game_record("kimasai", &kimasai_game(), 672);
}

#[test]
fn not_6_4_a_whole_kete_game_drawn_by_repetition_is_valid() {
    assert_whole_game_record("kete", &kete_game(), 48);
}

#[test]
fn not_6_4_a_whole_kiswahili_game_drawn_by_repetition_is_valid() {
    assert_whole_game_record("kiswahili", &kiswahili_game(), 24);
}

/// `bao apply VARIANT <the game>`: the cycle's first position (`first`, without its ply
/// counter) at its three occurrences, the game going on until the third, drawn there, and a
/// move after the draw refused, named by its number.
fn assert_apply_draws(variant: &str, moves: &[&str], first: &str, cycle: usize) {
    let run = |n: usize, extra: Option<&str>| {
        let mut args: Vec<String> = vec!["apply".into(), variant.into()];
        args.extend(moves[..n].iter().map(|m| m.to_string()));
        args.extend(extra.map(str::to_string));
        bao(&args)
    };
    let n = moves.len();
    for (plies, result) in [
        (n - 2 * cycle, "-"),
        (n - cycle, "-"),
        (n - 1, "-"),
        (n, "draw"),
    ] {
        let (code, out, err) = run(plies, None);
        assert_eq!(code, 0, "{err}");
        if plies % cycle == n % cycle {
            assert_eq!(out, format!("{first} {plies}\n{result}\n"));
        } else {
            assert!(out.ends_with(&format!("\n{result}\n")), "{out}");
        }
    }
    let (code, out, err) = run(n, Some(moves[n - cycle]));
    assert_eq!(code, 2, "{out}");
    assert!(err.contains(&format!("{}", n + 1)), "{err}");
}

#[test]
fn cli_3_apply_draws_a_kiswahili_game_on_the_third_occurrence() {
    // The cycle's first position, after 493 moves (the data file's header names it).
    assert_apply_draws(
        "kiswahili",
        &kiswahili_game(),
        "kiswahili 1,12,8,1,0,2,15,9/1,3,0,1,0,1,1,1/1,0,0,0,0,0,0,1/0,1,1,2,0,1,1,0 N 0/0 -",
        24,
    );
}

#[test]
fn cli_3_apply_draws_a_kete_game_on_the_third_occurrence() {
    // The cycle's first position, after 257 moves.
    assert_apply_draws(
        "kete",
        &kete_game(),
        "kete 1,16,4,1,2,0,14,8/1,4,1,0,1,1,1,0/0,0,0,0,0,0,0,1/1,2,1,0,1,0,2,1 N 0/0 -",
        48,
    );
}
