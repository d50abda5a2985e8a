//! Threefold repetition (BRD-7.5) on a real repeating line.
//!
//! Kimasai phase 2 (KIM-6): any occupied pit may be played, every lap runs clockwise
//! (direction +1, KIM-3), and a lap whose last cow falls into an empty pit ends the move
//! before any capture is looked at (KIM-7.1, rule 2 comes before rule 3). A *staircase*
//! n, n−1, …, 1 in consecutive pits, with an empty pit after it, therefore moves one pit
//! forward when its top pit is played: the n cows go one each into the next n pits, the
//! last of which was empty. After 16 such moves it is back where it started.
//!
//! The line below (docs/spec-notes.md, "Threefold repetition") uses that:
//! * South: a staircase of 10 (55 cows) from A1 (10) to B7 (1). It spans 10 pits, so it
//!   always has a cow in the front row; period 16 South moves.
//! * North: 9 cows, a staircase of 3 at a1–a3 and one of 2 at b8–b7, moved in turn. The two
//!   are 8 pits apart, so one of them is always in the front row; period 32 North moves.
//!
//! After 32 moves each (64 plies) the position is the same again, with the same side to move
//! and no flags; a second round makes it occur for the third time.

mod common;
use bao_rules::{find_move, status, DrawReason, Game, Outcome, Position, Rules, Side, Variant};
use common::*;

#[path = "data/staircase.rs"]
mod staircase;

/// The cycle's first position, read from tests/data/kimasai-staircase.txt.
fn staircase_position(r: &Rules) -> Position {
    pos(r, staircase::start())
}

#[test]
fn brd_7_5_the_data_file_holds_the_staircases_described_above() {
    // The position of the data file, pit by pit, is the one explained in the header.
    let r = rules(Variant::Kimasai, "-");
    let pits = [
        ("A1", 10),
        ("A2", 9),
        ("A3", 8),
        ("A4", 7),
        ("A5", 6),
        ("A6", 5),
        ("A7", 4),
        ("A8", 3),
        ("B8", 2),
        ("B7", 1),
        ("a1", 3),
        ("a2", 2),
        ("a3", 1),
        ("b8", 2),
        ("b7", 1),
    ];
    let described = build(&r, Side::South, [0, 0], &pits, "-");
    assert!(staircase_position(&r).same_as(&described));
    // Each side plays the top of a staircase: South A1, A2, ... round the ring; North a1,
    // b8, a2, b7, ... (docs/spec-notes.md).
    let round = staircase::round();
    assert_eq!(round.len(), 64);
    assert_eq!(
        &round[..8],
        ["A1", "a1", "A2", "b8", "A3", "a2", "A4", "b7"]
    );
}

#[test]
fn brd_7_5_kimasai_staircase_cycle_repeats_after_64_plies() {
    let r = rules(Variant::Kimasai, "-");
    let p = staircase_position(&r);
    assert_eq!(status(&p, &r), Outcome::Ongoing);
    let cycle = staircase::round();
    assert_eq!(cycle.len(), 64);
    let mut game = Game::new(p, r);
    for (i, m) in cycle.iter().enumerate() {
        let played = game
            .play_text(m)
            .unwrap_or_else(|e| panic!("ply {} ({m}): {e}", i + 1));
        // Every move is a single lap into an empty pit: it captures nothing.
        assert_eq!(played.captured_pits(), 0, "ply {} ({m})", i + 1);
        assert_eq!(game.outcome(), Outcome::Ongoing, "ply {} ({m})", i + 1);
        // The position first recurs after the full round, not earlier.
        assert_eq!(
            game.position().same_as(&p),
            i == 63,
            "ply {} ({m}): {}",
            i + 1,
            game.position()
        );
    }
    assert_eq!(game.position().to_string(), p.with_ply(64).to_string());
}

#[test]
fn brd_7_5_third_occurrence_draws_and_ends_the_game() {
    let r = rules(Variant::Kimasai, "-");
    let p = staircase_position(&r);
    let cycle = staircase::round();
    let mut game = Game::new(p, r);
    // Second occurrence at ply 64, third at ply 128: only the last move draws.
    for (i, m) in cycle.iter().chain(cycle.iter()).enumerate() {
        assert_eq!(game.outcome(), Outcome::Ongoing, "before ply {}", i + 1);
        game.play_text(m).unwrap();
    }
    assert_eq!(game.moves().len(), 128);
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
    assert_eq!(game.outcome().token(), "draw");
    // The position itself is not drawn (BRD-7.3 ignores history) ...
    assert_eq!(status(game.position(), &r), Outcome::Ongoing);
    // ... but the game is over: no legal moves and no further move (NOT-2.5).
    assert!(game.legal_moves().is_empty());
    let err = game.play_text(&cycle[0]).unwrap_err();
    assert_eq!(err.category(), "game_over");
    // Taking the last move back reopens the game.
    game.undo();
    assert_eq!(game.outcome(), Outcome::Ongoing);
}

#[test]
fn brd_7_5_counting_starts_from_the_first_position_of_the_game() {
    // Started one ply into the cycle, the game has not seen the cycle's first position:
    // it occurs at plies 63 and 127 only, and the third occurrence of the game's own first
    // position comes at ply 128.
    let r = rules(Variant::Kimasai, "-");
    let cycle = staircase::round();
    let mut game = Game::new(staircase_position(&r), r);
    game.play_text(&cycle[0]).unwrap();
    let second = *game.position();
    let mut game = Game::new(second.with_ply(0), r);
    let rotated: Vec<&String> = cycle[1..].iter().chain(&cycle[..1]).collect();
    for m in rotated.iter().chain(rotated.iter()).take(127) {
        game.play_text(m).unwrap();
        assert_eq!(game.outcome(), Outcome::Ongoing);
    }
    game.play_text(rotated[63]).unwrap();
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
}

#[test]
fn brd_7_5_repetition_none_plays_on() {
    let r = rules(Variant::Kimasai, "repetition=none");
    let cycle = staircase::round();
    let mut game = Game::new(staircase_position(&r), r);
    for m in cycle.iter().chain(&cycle).chain(&cycle) {
        game.play_text(m).unwrap();
    }
    // Four occurrences, and the game goes on.
    assert_eq!(game.outcome(), Outcome::Ongoing);
    assert_eq!(game.moves().len(), 192);
}

/// A whole game from the start position under the default options, read from
/// tests/data/VARIANT-game-to-repetition.txt (found by the research programs
/// crates/bao-research/src/bin/repetition_policy.rs for kimasai and repetition_beam.rs for
/// kiswahili and kete).
fn game_to_repetition(variant: Variant) -> Vec<&'static str> {
    let text = match variant {
        Variant::Kimasai => include_str!("data/kimasai-game-to-repetition.txt"),
        Variant::Kiswahili => include_str!("data/kiswahili-game-to-repetition.txt"),
        Variant::Kete => include_str!("data/kete-game-to-repetition.txt"),
    };
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect()
}

/// Plays the game of `variant`'s data file: every move legal, only the last one ends the
/// game, by the third occurrence of a position (BRD-7.5) `cycle` plies apart, `captures` of
/// the cycle's moves capturing; under repetition=none the same moves leave the game going.
fn assert_game_draws_by_repetition(variant: Variant, cycle: usize, captures: usize) {
    let r = rules(variant, "-");
    let moves = game_to_repetition(variant);
    let mut game = Game::new(Position::start(&r), r);
    let mut captured = 0;
    for (i, m) in moves.iter().enumerate() {
        assert_eq!(game.outcome(), Outcome::Ongoing, "before move {}", i + 1);
        // Captures counted by the rules, not by the notation (kimasai writes no `*`).
        let lm = find_move(game.position(), &r, m)
            .unwrap_or_else(|e| panic!("move {} ({m}): {e}", i + 1));
        if i >= moves.len() - cycle && lm.captured_pits() > 0 {
            captured += 1;
        }
        game.play(&lm);
    }
    assert_eq!(captured, captures, "capture moves in the cycle");
    if variant != Variant::Kimasai {
        // NOT-1.1 marks every takasa move with `*`: the other moves of the cycle are its
        // captures, so the notation gives the same count independently of `captured_pits`.
        let takasa = moves[moves.len() - cycle..]
            .iter()
            .filter(|m| m.ends_with('*'))
            .count();
        assert_eq!(cycle - takasa, captures, "moves without `*` in the cycle");
    }
    assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
    let last = *game.position();
    assert_eq!(status(&last, &r), Outcome::Ongoing);
    // The last position has occurred exactly three times, both hands empty each time, and
    // the plies between its occurrences are equal: a cycle played twice.
    let at: Vec<usize> = game
        .positions()
        .iter()
        .enumerate()
        .filter(|(_, p)| p.same_as(&last))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(at.len(), 3, "occurrences at {at:?}");
    assert_eq!(at[2] - at[1], cycle);
    assert_eq!(at[1] - at[0], cycle);
    assert_eq!(last.hand(Side::South) + last.hand(Side::North), 0);
    let none = rules(variant, "repetition=none");
    let mut game = Game::new(Position::start(&none), none);
    for m in &moves {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.outcome(), Outcome::Ongoing);
}

#[test]
fn brd_7_5_a_kimasai_game_from_the_start_draws_by_repetition() {
    // Repetition is reachable in kimasai: the game starts from the start position (KIM-2),
    // and its staircase cycle captures nothing.
    assert_game_draws_by_repetition(Variant::Kimasai, 672, 0);
}

#[test]
fn brd_7_5_a_kiswahili_game_from_the_start_draws_by_repetition() {
    // Repetition is reachable in kiswahili too (KIS-11), with captures (KIS-6): of the cycle's 24
    // plies 5 capture and 19 are takasa moves, and North holds 56 seeds to South's 8 when
    // it closes.
    assert_game_draws_by_repetition(Variant::Kiswahili, 24, 5);
}

#[test]
fn brd_7_5_a_kete_game_from_the_start_draws_by_repetition() {
    // And in kete (KET-6 captures): a cycle of 48 plies, 12 of them captures, North 55 seeds
    // to South's 9, North's back row never moving.
    assert_game_draws_by_repetition(Variant::Kete, 48, 12);
}
