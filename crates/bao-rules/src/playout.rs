//! Random playouts (CLI-9): complete games with uniformly random legal moves.

use crate::event::DrawReason;
use crate::legal::{legal_moves, status, Outcome};
use crate::options::Repetition;
use crate::rng::Rng;
use crate::{Position, Rules, Side};
use std::collections::HashMap;

/// Totals of a series of random games.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct PlayoutStats {
    /// Games played.
    pub games: u64,
    /// Moves played in all games.
    pub plies: u64,
    /// Games won by South.
    pub south: u64,
    /// Games won by North.
    pub north: u64,
    /// Drawn games.
    pub draws: u64,
}

impl std::fmt::Display for PlayoutStats {
    /// The line of CLI-9.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "games {} plies {} S {} N {} draw {}",
            self.games, self.plies, self.south, self.north, self.draws
        )
    }
}

/// Plays one complete random game from `start`; returns the moves played and the result.
///
/// Threefold repetition is counted from `start` (BRD-7.5).
pub fn random_game(start: &Position, rules: &Rules, rng: &mut Rng) -> (u64, Outcome) {
    let mut pos = *start;
    let mut outcome = status(&pos, rules);
    let mut plies = 0;
    let mut seen: HashMap<Position, u8> = HashMap::new();
    let mut hands_total = pos.hand(Side::South) as u16 + pos.hand(Side::North) as u16;
    let threefold = rules.repetition == Repetition::ThreefoldDraw;
    if threefold {
        seen.insert(pos.with_ply(0), 1);
    }
    while outcome == Outcome::Ongoing {
        let moves = legal_moves(&pos, rules);
        let m = moves.as_slice()[rng.below(moves.len())];
        plies += 1;
        pos = m.next;
        outcome = m.outcome(rules);
        if outcome == Outcome::Ongoing && threefold {
            // Hands never grow, so a position can only recur while the hand total is the same.
            let total = pos.hand(Side::South) as u16 + pos.hand(Side::North) as u16;
            if total != hands_total {
                seen.clear();
                hands_total = total;
            }
            let n = seen.entry(pos.with_ply(0)).or_insert(0);
            *n += 1;
            if *n >= 3 {
                outcome = Outcome::Draw(DrawReason::Repetition);
            }
        }
    }
    (plies, outcome)
}

/// Plays `games` random games from `start` with the generator seeded by `seed` (CLI-9).
///
/// ```
/// use bao_rules::{playout, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kimasai);
/// let stats = playout(&Position::start(&rules), &rules, 1, 3);
/// assert_eq!(stats.games, 3);
/// assert_eq!(stats.south + stats.north + stats.draws, 3);
/// ```
pub fn playout(start: &Position, rules: &Rules, seed: u64, games: u64) -> PlayoutStats {
    let mut rng = Rng::new(seed);
    let mut stats = PlayoutStats {
        games,
        ..Default::default()
    };
    for _ in 0..games {
        let (plies, outcome) = random_game(start, rules, &mut rng);
        stats.plies += plies;
        match outcome {
            Outcome::Win(Side::South, _) => stats.south += 1,
            Outcome::Win(Side::North, _) => stats.north += 1,
            _ => stats.draws += 1,
        }
    }
    stats
}
