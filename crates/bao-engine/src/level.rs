//! Playing levels for people, and the simple built-in players (random, greedy).
//!
//! Each level is a fixed budget and style (docs/levels.md). Budgets are depths or node
//! counts, not times, so a level plays the same on every machine and every run.

use crate::eval::{self, Weights};
use crate::search::{Limits, Searcher};
use bao_rules::{legal_moves, LegalMove, Position, Rng, Rules, Variant};

/// A playing level: a search budget and a style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    /// The level number.
    pub number: u8,
    /// The search budget.
    pub limits: Limits,
    /// Quiescence search over captures at the leaves.
    pub quiescence: bool,
    /// Random noise added to each root move's score, in centi-seeds (0: none). A noisy
    /// level scores every root move and plays the best noisy score.
    pub noise: i32,
    /// Only material counts (the low levels do not see threats, the house or mobility).
    pub material_only: bool,
    /// Transposition table size, as a power of two of entries.
    pub tt_bits: u32,
}

/// The table of levels (docs/levels.md).
pub const LEVELS: [Level; 8] = [
    lvl(1, Limits::depth(1), false, 800, true, 12),
    lvl(2, Limits::depth(1), true, 200, true, 14),
    lvl(3, Limits::depth(2), true, 60, false, 16),
    lvl(4, Limits::depth(3), true, 0, false, 16),
    lvl(5, Limits::nodes(4_000), true, 0, false, 18),
    lvl(6, Limits::nodes(15_000), true, 0, false, 18),
    lvl(7, Limits::nodes(50_000), true, 0, false, 19),
    lvl(8, Limits::nodes(200_000), true, 0, false, 20),
];

const fn lvl(
    number: u8,
    limits: Limits,
    quiescence: bool,
    noise: i32,
    material_only: bool,
    tt_bits: u32,
) -> Level {
    Level {
        number,
        limits,
        quiescence,
        noise,
        material_only,
        tt_bits,
    }
}

impl Level {
    /// Level `n`, clamped to MIN_LEVEL..=MAX_LEVEL.
    pub fn get(n: u8) -> Level {
        LEVELS[(n.clamp(crate::MIN_LEVEL, crate::MAX_LEVEL) - 1) as usize]
    }

    /// The budget in `variant`. Kimasai positions cost about four times the nodes per ply
    /// of the other two games (more moves, longer capture chains in quiescence), so its node
    /// budgets are four times larger: the same look-ahead, and each level still clearly
    /// above the depth-limited level 4.
    pub fn limits_for(&self, variant: Variant) -> Limits {
        let mut l = self.limits;
        if variant == Variant::Kimasai {
            l.nodes = l.nodes.map(|n| n * 4);
        }
        l
    }

    /// A searcher set up for this level.
    pub fn searcher(&self, rules: &Rules) -> Searcher {
        let w = if self.material_only {
            Weights::material_only()
        } else {
            Weights::for_variant(rules.variant)
        };
        let mut s = Searcher::new(*rules, w, self.tt_bits);
        s.quiescence = self.quiescence;
        s
    }

    /// The move this level plays in `pos`, with `history` the game's earlier positions
    /// (oldest first, for repetitions). `None` when the side to move has no legal move.
    pub fn choose(
        &self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[Position],
        seed: u64,
    ) -> Option<LegalMove> {
        let limits = self.limits_for(searcher.rules().variant);
        self.choose_with(searcher, pos, history, seed, limits)
    }

    /// [`Self::choose`] with other limits than the level's (a clock's, see [`crate::clock`]);
    /// the style (noise) stays the level's.
    pub fn choose_with(
        &self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[Position],
        seed: u64,
        limits: Limits,
    ) -> Option<LegalMove> {
        self.choose_searched(searcher, pos, history, seed, limits).0
    }

    /// [`Self::choose_with`], also telling how far the search went (for `bao match`'s
    /// summary: how deep each player searches in the same time).
    ///
    /// ```
    /// use bao_engine::{Level, Limits};
    /// use bao_rules::{Position, Rules, Variant};
    ///
    /// let rules = Rules::new(Variant::Kiswahili);
    /// let level = Level::get(8);
    /// let mut searcher = level.searcher(&rules);
    /// let start = Position::start(&rules);
    /// let (m, searched) = level.choose_searched(&mut searcher, &start, &[], 1, Limits::depth(3));
    /// assert!(m.is_some());
    /// assert_eq!(searched.depth, 3);
    /// assert!(searched.nodes > 0);
    /// ```
    pub fn choose_searched(
        &self,
        searcher: &mut Searcher,
        pos: &Position,
        history: &[Position],
        seed: u64,
        limits: Limits,
    ) -> (Option<LegalMove>, Searched) {
        searcher.set_history(history);
        if self.noise > 0 {
            let (scored, depth, nodes) = searcher.analyse(pos, limits);
            let mut rng = Rng::new(seed ^ pos.repetition_key());
            let span = (2 * self.noise + 1) as usize;
            let m = scored
                .into_iter()
                .map(|(m, s)| {
                    let r = rng.below(span) as i32 - self.noise;
                    // Wins and losses by distance are never blurred.
                    (
                        m,
                        if s.abs() >= crate::search::WIN_BOUND {
                            s
                        } else {
                            s + r
                        },
                    )
                })
                .enumerate()
                // Ties go to the first move in canonical order.
                .max_by(|a, b| a.1 .1.cmp(&b.1 .1).then(b.0.cmp(&a.0)))
                .map(|(_, (m, _))| m);
            return (m, Searched { depth, nodes });
        }
        let r = searcher.search_root(pos, limits, &mut |_| {});
        (
            r.best,
            Searched {
                depth: r.depth,
                nodes: r.nodes,
            },
        )
    }
}

/// How far one search went: the depth it completed and the nodes it searched (all threads).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Searched {
    /// Depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

/// A uniformly random legal move.
pub fn random_move(pos: &Position, rules: &Rules, seed: u64) -> Option<LegalMove> {
    let moves = legal_moves(pos, rules);
    if moves.is_empty() {
        return None;
    }
    let mut rng = Rng::new(seed ^ pos.repetition_key());
    Some(moves.as_slice()[rng.below(moves.len())])
}

/// The one-ply greedy player: the move that captures the most seeds (measured by playing
/// it); ties are broken at random. A move that wins at once takes every front seed, so the
/// greedy player also never misses a bao hamna that captures most.
pub fn greedy_move(pos: &Position, rules: &Rules, seed: u64) -> Option<LegalMove> {
    let moves = legal_moves(pos, rules);
    let best = moves.iter().map(|m| eval::gain(pos, m)).max()?;
    let top: Vec<&LegalMove> = moves
        .iter()
        .filter(|m| eval::gain(pos, m) == best)
        .collect();
    let mut rng = Rng::new(seed ^ pos.repetition_key());
    Some(*top[rng.below(top.len())])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Late move reductions start at nodes with three plies or more to go, so they never
    /// touch the depth levels 1-4 (docs/levels.md): level 4 (depth 3) searches exactly as
    /// a searcher without reductions, and "looks at its move, the reply and its answer".
    #[test]
    fn late_move_reductions_leave_the_depth_levels_alone() {
        for variant in [Variant::Kiswahili, Variant::Kete, Variant::Kimasai] {
            let rules = Rules::new(variant);
            // A middle game: twenty plies of moves picked by their index.
            let mut pos = Position::start(&rules);
            for k in 0..20 {
                let moves = legal_moves(&pos, &rules);
                pos = moves.as_slice()[(k * 7) % moves.len()].next;
            }
            for n in 1..=4 {
                let level = Level::get(n);
                let play =
                    |mut s: Searcher| level.choose_searched(&mut s, &pos, &[], 1, level.limits);
                let mut full = level.searcher(&rules);
                full.reductions = false;
                let (a, b) = (play(level.searcher(&rules)), play(full));
                assert_eq!(
                    a.0.map(|m| m.mv),
                    b.0.map(|m| m.mv),
                    "{variant:?} level {n}"
                );
                assert_eq!(a.1, b.1, "{variant:?} level {n}");
            }
        }
    }
}
