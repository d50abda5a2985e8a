//! # bao-engine
//!
//! The computer opponent. PLACEHOLDER: this first version only picks a random legal move;
//! the search (issue 3) replaces the body of [`choose_move`] and keeps its signature.

use bao_rules::{legal_moves, status, LegalMove, Position, Rng, Rules};

/// The lowest playing level.
pub const MIN_LEVEL: u8 = 1;
/// The highest playing level.
pub const MAX_LEVEL: u8 = 8;

/// The move the computer plays at `level` (MIN_LEVEL..=MAX_LEVEL) in `pos`, or `None` when the
/// game is over. `seed` makes the choice reproducible. May take up to a few seconds at the
/// top level; callers in async code run it on a blocking thread.
pub fn choose_move(pos: &Position, rules: &Rules, level: u8, seed: u64) -> Option<LegalMove> {
    let _ = level;
    if status(pos, rules).is_over() {
        return None;
    }
    let moves = legal_moves(pos, rules);
    let mut rng = Rng::new(seed ^ pos.repetition_key());
    Some(moves.as_slice()[rng.below(moves.len())])
}
