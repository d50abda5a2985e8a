//! Whole games found by the repetition programs (BRD-7.5): each is replayed from the
//! start position through [`Game`], the rules' own path for a move, and must end in a
//! repetition draw, so that what a program prints is a game anyone can check with `bao apply`.

use bao_rules::{legal_moves, DrawReason, Game, LegalMove, Move, Outcome, Position, Rules};

/// Plays `line` from the start position; panics, naming the move, unless every move is legal
/// and the game ends in a draw by repetition at its last move.
pub fn assert_draws_by_repetition(rules: &Rules, line: &[Move]) {
    let mut game = Game::new(Position::start(rules), *rules);
    for (i, m) in line.iter().enumerate() {
        game.play_text(&m.to_string())
            .unwrap_or_else(|e| panic!("move {} ({m}) of the line: {e}", i + 1));
    }
    assert_eq!(
        game.outcome(),
        Outcome::Draw(DrawReason::Repetition),
        "the line must draw by repetition"
    );
}

/// The moves as text, space separated.
pub fn text(moves: &[Move]) -> String {
    moves
        .iter()
        .map(|m| m.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `line` up to the move that ends the game: a line built from a way into a cycle and the
/// cycle twice may pass a position of the cycle on the way in, and then it is drawn earlier.
pub fn to_the_end(rules: &Rules, line: &[Move]) -> Vec<Move> {
    let mut game = Game::new(Position::start(rules), *rules);
    for (i, m) in line.iter().enumerate() {
        if game.outcome().is_over() {
            return line[..i].to_vec();
        }
        game.play_text(&m.to_string())
            .unwrap_or_else(|e| panic!("move {} ({m}) of the line: {e}", i + 1));
    }
    line.to_vec()
}

/// The moves that keep the game going: a move that ends it (BRD-7.4, a decided result) cannot
/// be part of a cycle.
pub fn ongoing(p: &Position, rules: &Rules) -> Vec<LegalMove> {
    legal_moves(p, rules)
        .iter()
        .filter(|m| !m.is_never_ending() && m.outcome(rules) == Outcome::Ongoing)
        .copied()
        .collect()
}

/// The moves from the root of an explored graph to node `v`, by each node's parent (the node
/// it was first reached from and the move).
pub fn path_to(parent: &[Option<(u32, Move)>], mut v: u32) -> Vec<Move> {
    let mut moves = Vec::new();
    while let Some((u, m)) = parent[v as usize] {
        moves.push(m);
        v = u;
    }
    moves.reverse();
    moves
}
