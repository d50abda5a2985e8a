//! Perft (CLI-4): the number of move sequences of a given length.

use crate::event::{NoEvents, StopReason};
use crate::exec::{self, End, Ended};
use crate::legal::{
    after_move, count_legal_moves, filtered, for_each_legal, over_without_movegen, removed,
};
use crate::movegen::{self, Candidate};
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
        return perft1(pos, rules);
    }
    if filtered(pos, rules) {
        // Steps 4 and 5 of BRD-7.1 need the whole list.
        let mut n = 0;
        for_each_legal(pos, rules, |m| {
            // A never-ending move ends the game: counted at its own depth only.
            if !m.is_never_ending() {
                n += perft(&m.next, rules, depth - 1);
            }
        });
        return n;
    }
    // The legal moves straight from the runs (BRD-7.1 steps 1 to 3), without building them.
    let ctx = exec::Ctx::new(pos, rules);
    let mut n = 0;
    let mut child = |c: Candidate, e: &Ended, end: End| {
        // Removed moves do not count, and a never-ending move ends the game: counted at its
        // own depth only.
        if removed(end, rules) || end == End::Stop(StopReason::NeverEnding) {
            return;
        }
        let next = after_move(pos, rules, c.kind, e, &mut NoEvents);
        n += if depth == 2 {
            // The last level in place: most children are counted here.
            perft1(&next, rules)
        } else {
            perft(&next, rules, depth - 1)
        };
    };
    if let Some(caps) = movegen::namua_captures(pos) {
        exec::for_each_end_namua_captures(&ctx, caps, &mut child);
    } else {
        let cands = movegen::candidates(pos, rules);
        exec::for_each_end(&ctx, cands.as_slice(), &mut child);
    }
    n
}

/// perft(P, 1): the legal moves of a position whose game goes on (BRD-7.3 steps 1, 2, 4 first).
#[inline(always)]
fn perft1(pos: &Position, rules: &Rules) -> u64 {
    if over_without_movegen(pos, rules) {
        return 0;
    }
    // A position without legal moves is over, and counts 0 either way.
    count_legal_moves(pos, rules) as u64
}
