//! Clock-aware time use: from the time left on the mover's clock, its increment and the
//! moves to go, a soft limit (no new iteration is started after it) and a hard limit (the
//! search stops at once). Used by `go wtime ... btime ...` in the engine protocol, by
//! `bao match --tc`, and by the server's computer player through [`choose_move_clocked`].
//!
//! What keeps the engine from losing on time: the hard limit never exceeds half of what is
//! left after a safety margin for the driver's latency, and the increment is spent in full
//! only while the clock holds a reserve of twenty increments. The clock then settles where
//! the time spent per move (search and driver latency) equals the increment, and an engine
//! with at least a second left and an increment does not flag unless the driver's own
//! latency per move exceeds the increment (tested with a simulated clock under CPU load).

use crate::level::Level;
use crate::search::Limits;
use bao_rules::{status, LegalMove, Position, Rules};
use std::time::Duration;

/// The state of the mover's clock when it is asked for a move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added to the mover's clock after each of its moves.
    pub increment: Duration,
    /// Moves (of the mover) until the next time control, if the control has one.
    pub moves_to_go: Option<u32>,
}

/// Time kept back for the driver: reading the reply, scheduling on a busy machine.
const MARGIN: Duration = Duration::from_millis(40);
/// Without `movestogo`, the time left is shared as if this many own moves remained (a Bao
/// game lasts about 30 to 80 moves of each side; the increment pays for the rest).
const MOVES_LEFT: u32 = 25;

impl Clock {
    /// A clock with `remaining` and `increment`, no moves-to-go.
    pub fn new(remaining: Duration, increment: Duration) -> Clock {
        Clock {
            remaining,
            increment,
            moves_to_go: None,
        }
    }

    /// The (soft, hard) time budget of one move.
    pub fn budget(&self) -> (Duration, Duration) {
        let avail = self.remaining.saturating_sub(MARGIN);
        let moves = self.moves_to_go.unwrap_or(MOVES_LEFT).clamp(1, MOVES_LEFT);
        // The last move before a control may use more of the time left, but still not all.
        let cap = if moves == 1 {
            avail.mul_f64(0.7)
        } else {
            avail / 2
        };
        // The increment is spent in full only while the clock holds a reserve of twenty
        // increments; below it, less and less of it, so that the clock fills up again
        // unless every move costs the driver nearly a whole increment.
        let reserve = self.increment * 20;
        let share = if reserve.is_zero() {
            0.0
        } else {
            (avail.as_secs_f64() / reserve.as_secs_f64()).min(1.0)
        };
        let inc = self.increment.mul_f64(0.75 * share);
        let soft = (avail / moves + inc).min(cap / 2);
        let hard = (soft * 3).min(cap);
        (
            soft.max(Duration::from_millis(1)),
            hard.max(Duration::from_millis(1)),
        )
    }

    /// `limits` with this clock's budget on top: the smaller time wins, depth and node
    /// limits stay.
    pub fn limit(&self, limits: Limits) -> Limits {
        let (soft, hard) = self.budget();
        let time = limits.time.map_or(hard, |t| t.min(hard));
        Limits {
            time: Some(time),
            soft_time: Some(limits.soft_time.map_or(soft, |s| s.min(soft)).min(time)),
            ..limits
        }
    }
}

/// The move the computer plays at `level` in `pos` with `clock` the state of its clock:
/// the level's budget, cut short when the clock demands it. `history` holds the game's
/// earlier positions (oldest first, for repetitions); `threads` the search threads
/// (1 is reproducible with the level's node budget, as long as the clock does not cut in).
/// `None` when the game is over. Blocking: async callers run it on a blocking thread.
pub fn choose_move_clocked(
    pos: &Position,
    rules: &Rules,
    level: u8,
    seed: u64,
    history: &[Position],
    clock: &Clock,
    threads: usize,
) -> Option<LegalMove> {
    if status(pos, rules).is_over() {
        return None;
    }
    let l = Level::get(level);
    let mut s = l.searcher(rules);
    s.set_threads(threads);
    let limits = clock.limit(l.limits_for(rules.variant));
    l.choose_with(&mut s, pos, history, seed, limits)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn the_budget_never_exceeds_half_of_what_is_left() {
        for rem in [0, 1, 30, 100, 1_000, 2_000, 60_000] {
            for inc in [0, 50, 1_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let c = Clock {
                        remaining: ms(rem),
                        increment: ms(inc),
                        moves_to_go: mtg,
                    };
                    let (soft, hard) = c.budget();
                    assert!(soft <= hard, "{c:?}");
                    let avail = ms(rem).saturating_sub(MARGIN);
                    let cap = if mtg == Some(1) {
                        avail.mul_f64(0.7)
                    } else {
                        avail / 2
                    };
                    assert!(hard <= cap.max(ms(1)), "{c:?}: {hard:?}");
                }
            }
        }
    }

    #[test]
    fn more_time_and_increment_give_more_time() {
        let a = Clock::new(ms(2_000), ms(50)).budget();
        let b = Clock::new(ms(20_000), ms(50)).budget();
        let c = Clock::new(ms(2_000), ms(500)).budget();
        assert!(b.0 > a.0 && b.1 > a.1);
        assert!(c.0 > a.0 && c.1 > a.1);
        // An explicit movetime below the budget stays.
        let l = Clock::new(ms(60_000), ms(0)).limit(Limits::time(10));
        assert_eq!(l.time, Some(ms(10)));
        assert!(l.soft_time.unwrap() <= ms(10));
    }

    #[test]
    fn a_level_on_a_comfortable_clock_plays_as_without_one_and_a_short_clock_is_quick() {
        use bao_rules::Variant;
        let rules = Rules::new(Variant::Kete);
        let pos = Position::start(&rules);
        let roomy = Clock::new(Duration::from_secs(3600), ms(0));
        for level in [2, 5] {
            let a = crate::choose_move(&pos, &rules, level, 9).unwrap();
            let b = choose_move_clocked(&pos, &rules, level, 9, &[], &roomy, 1).unwrap();
            assert_eq!(a.mv, b.mv, "level {level}");
        }
        let short = Clock::new(ms(100), ms(0));
        let t = std::time::Instant::now();
        let m = choose_move_clocked(&pos, &rules, 8, 9, &[], &short, 2).unwrap();
        assert!(bao_rules::legal_moves(&pos, &rules).as_slice().contains(&m));
        // The hard limit is 30 ms; a busy machine may add some, not seconds.
        assert!(t.elapsed() < Duration::from_secs(3), "{:?}", t.elapsed());
    }
}
