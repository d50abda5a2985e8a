//! Perft (CLI-4): the number of move sequences of a given length.

use crate::legal::{count_legal_moves, for_each_legal, over_without_movegen};
use crate::{Position, Rules};

/// perft(P, d) as CLI-4 defines it: moves that end the game are counted at their own depth
/// and not extended; repetition is not applied.
///
/// ```
/// use bao_rules::{perft, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kimasai);
/// assert_eq!(perft(&Position::start(&rules), &rules, 2), 64);
/// ```
pub fn perft(pos: &Position, rules: &Rules, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if over_without_movegen(pos, rules) {
        return 0;
    }
    if depth == 1 {
        // A position without legal moves is over, and counts 0 either way.
        return count_legal_moves(pos, rules) as u64;
    }
    let mut n = 0;
    for_each_legal(pos, rules, |m| {
        // A never-ending move ends the game: counted at its own depth only.
        if !m.is_never_ending() {
            n += perft(&m.next, rules, depth - 1);
        }
    });
    n
}
