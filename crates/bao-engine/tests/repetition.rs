//! The engine scores a repeating line as a draw (BRD-7.5), on the kimasai staircase cycle of
//! crates/bao-rules/tests/repetition.rs: South's staircase 10, 9, …, 1 (A1 to B7) and North's
//! 3, 2, 1 (a1–a3) and 2, 1 (b8–b7) each move one pit per move, and the first position recurs
//! after 64 plies. North, with 9 cows against 55, is far behind on material: a draw is the
//! best he can hope for, so an engine that sees the repetition takes it.

use bao_engine::search::{Limits, Score, Searcher};
use bao_engine::Weights;
use bao_rules::{find_move, DrawReason, Game, Outcome, Position, Rules, Variant};

#[path = "../../bao-rules/tests/data/staircase.rs"]
mod staircase;

/// The game one ply before the third occurrence: 127 plies from the cycle's start, North to move.
fn before_third() -> (Rules, Game, String) {
    let rules = Rules::parse(Variant::Kimasai, "-").unwrap();
    let start = Position::parse(staircase::start(), &rules).unwrap();
    let line: Vec<String> = staircase::round().into_iter().cycle().take(128).collect();
    let mut game = Game::new(start, rules);
    for m in &line[..127] {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.outcome(), Outcome::Ongoing);
    (rules, game, line[127].clone())
}

#[test]
fn brd_7_5_engine_scores_the_move_that_repeats_as_a_draw() {
    let (rules, game, last) = before_third();
    let root = *game.position();
    let history = &game.positions()[..game.positions().len() - 1];
    // The rules agree that the move draws the game.
    let mut g = game.clone();
    g.play_text(&last).unwrap();
    assert_eq!(g.outcome(), Outcome::Draw(DrawReason::Repetition));

    let mut s = Searcher::new(rules, Weights::for_variant(Variant::Kimasai), 16);
    s.set_history(history);
    let (scored, _, _) = s.analyse(&root, Limits::depth(2));
    let rep = find_move(&root, &rules, &last).unwrap();
    let score = scored.iter().find(|(m, _)| m.mv == rep.mv).unwrap().1;
    assert_eq!(score, 0, "the repeating move {last} is a draw");

    // Without the game's history the same move is just a move, scored by the evaluation:
    // North is 46 cows down.
    let mut fresh = Searcher::new(rules, Weights::for_variant(Variant::Kimasai), 16);
    let (scored, _, _) = fresh.analyse(&root, Limits::depth(2));
    let score = scored.iter().find(|(m, _)| m.mv == rep.mv).unwrap().1;
    assert!(score < 0, "without history {last} scores {score}");
}

#[test]
fn brd_7_5_engine_behind_on_material_takes_the_repetition() {
    let (rules, game, last) = before_third();
    let root = *game.position();
    let history = &game.positions()[..game.positions().len() - 1];
    let mut s = Searcher::new(rules, Weights::for_variant(Variant::Kimasai), 16);
    s.set_history(history);
    let r = s.search_root(&root, Limits::depth(3), &mut |_| {});
    let best = r.best.expect("North has moves");
    assert_eq!(best.mv.to_string(), last);
    assert_eq!(r.score, Score::Cp(0));
}

/// The computer player of a game (the server's, without a clock) is given the game's
/// history and takes the draw too.
#[test]
fn brd_7_5_the_computer_in_a_game_takes_the_repetition() {
    let (rules, game, last) = before_third();
    let history = &game.positions()[..game.positions().len() - 1];
    let m = bao_engine::choose_move_in_game(game.position(), &rules, 8, 1, history)
        .expect("North has moves");
    assert_eq!(m.mv.to_string(), last);
    let mut g = game.clone();
    g.play(&m);
    assert_eq!(g.outcome(), Outcome::Draw(DrawReason::Repetition));
}

#[test]
fn brd_7_5_engine_under_repetition_none_sees_no_draw() {
    let (_, game, last) = before_third();
    let rules = Rules::parse(Variant::Kimasai, "repetition=none").unwrap();
    let root = *game.position();
    let history = &game.positions()[..game.positions().len() - 1];
    let mut s = Searcher::new(rules, Weights::for_variant(Variant::Kimasai), 16);
    s.set_history(history);
    let (scored, _, _) = s.analyse(&root, Limits::depth(2));
    let rep = find_move(&root, &rules, &last).unwrap();
    let score = scored.iter().find(|(m, _)| m.mv == rep.mv).unwrap().1;
    assert!(score < 0, "under repetition=none {last} scores {score}");
}

/// The game of crates/bao-rules/tests/data/VARIANT-game-to-repetition.txt (`text`), one ply
/// before its end: South, far behind (kiswahili 8 seeds against 56, kete 9 against 55), to
/// play the move that makes the third occurrence of a position (a cycle of takasa moves and
/// a few captures).
fn game_before_third(variant: Variant, text: &str) -> (Rules, Game, String) {
    let rules = Rules::parse(variant, "-").unwrap();
    let moves: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .flat_map(str::split_whitespace)
        .collect();
    let mut game = Game::new(Position::start(&rules), rules);
    for m in &moves[..moves.len() - 1] {
        game.play_text(m).unwrap();
    }
    assert_eq!(game.outcome(), Outcome::Ongoing);
    (rules, game, moves[moves.len() - 1].to_string())
}

/// With the game's history the repeating move scores 0 and South, far behind, takes it;
/// without the history it is a move of a side far behind.
fn assert_takes_the_repetition(variant: Variant, text: &str) {
    let (rules, game, last) = game_before_third(variant, text);
    let root = *game.position();
    let history = &game.positions()[..game.positions().len() - 1];
    let weights = Weights::for_variant(variant);
    let rep = find_move(&root, &rules, &last).unwrap();

    let mut s = Searcher::new(rules, weights, 16);
    s.set_history(history);
    let (scored, _, _) = s.analyse(&root, Limits::depth(2));
    let score = scored.iter().find(|(m, _)| m.mv == rep.mv).unwrap().1;
    assert_eq!(score, 0, "the repeating move {last} is a draw");

    let mut fresh = Searcher::new(rules, weights, 16);
    let (scored, _, _) = fresh.analyse(&root, Limits::depth(2));
    let score = scored.iter().find(|(m, _)| m.mv == rep.mv).unwrap().1;
    assert!(score < 0, "without history {last} scores {score}");

    let mut s = Searcher::new(rules, weights, 16);
    s.set_history(history);
    let r = s.search_root(&root, Limits::depth(4), &mut |_| {});
    assert_eq!(r.best.expect("South has moves").mv.to_string(), last);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn brd_7_5_engine_scores_a_kiswahili_repetition_as_a_draw_and_takes_it() {
    assert_takes_the_repetition(
        Variant::Kiswahili,
        include_str!("../../bao-rules/tests/data/kiswahili-game-to-repetition.txt"),
    );
}

#[test]
fn brd_7_5_engine_scores_a_kete_repetition_as_a_draw_and_takes_it() {
    assert_takes_the_repetition(
        Variant::Kete,
        include_str!("../../bao-rules/tests/data/kete-game-to-repetition.txt"),
    );
}
