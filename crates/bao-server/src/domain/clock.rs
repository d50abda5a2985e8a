//! The clocks of a match as a value (docs/api.md, "Clocks"; the shape of scalachess's `Clock`):
//! a time control, the time each player had when the running clock started, and when it
//! started. Time is passed in, never read here; [`ClockState::step`] is the one place a
//! move is charged.
//!
//! ```
//! use bao_server::domain::clock::{ClockState, TimeControl};
//! // 5 s each, 1 s increment; player 0's clock starts at t = 0.
//! let c = ClockState::new(TimeControl::Real { initial_ms: 5_000, increment_ms: 1_000 }).run_from(0);
//! // Player 0 moves after 2.5 s: 5 - 2.5 + 1 = 3.5 s left, and player 1's clock runs from then.
//! let c = c.step(0, 2_500);
//! assert_eq!(c.left, [3_500, 5_000]);
//! assert_eq!(c.left_at(1, Some(1), 4_000), 3_500);
//! ```

use serde::{Deserialize, Serialize};

/// Milliseconds in a day (correspondence clocks).
pub const DAY_MS: i64 = 24 * 3600 * 1000;

/// A game's time control (docs/api.md, "Clocks"), as `POST /api/games` takes it and GameState shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged, deny_unknown_fields)]
pub enum TimeControl {
    /// Real time: every player starts with `initial_ms` and gets `increment_ms` after each
    /// of their moves.
    Real {
        /// Starting time per player.
        initial_ms: i64,
        /// Added after each move of the player.
        increment_ms: i64,
    },
    /// Correspondence: `days_per_move` days for every move (the clock is set back to it
    /// after each move).
    Days {
        /// Days per move.
        days_per_move: i64,
    },
}

impl TimeControl {
    /// Time per player at the start of a game.
    pub fn initial(&self) -> i64 {
        match *self {
            TimeControl::Real { initial_ms, .. } => initial_ms,
            TimeControl::Days { days_per_move } => days_per_move * DAY_MS,
        }
    }

    /// The mover's time after a move that left `left` on the clock.
    pub fn after_move(&self, left: i64) -> i64 {
        match *self {
            TimeControl::Real { increment_ms, .. } => left + increment_ms,
            TimeControl::Days { days_per_move } => days_per_move * DAY_MS,
        }
    }

    /// The increment (zero for correspondence).
    pub fn increment(&self) -> i64 {
        match *self {
            TimeControl::Real { increment_ms, .. } => increment_ms,
            TimeControl::Days { .. } => 0,
        }
    }

    /// Checks the bounds of docs/api.md, "Clocks": a real-time game gets 0.1 s (bullet tests
    /// and drills; the page offers minutes) to 3 h and an increment of at most 10 min; a
    /// correspondence game 1 to 14 days per move. The error is a sentence for people.
    pub fn check(&self) -> Result<(), String> {
        match *self {
            TimeControl::Real {
                initial_ms,
                increment_ms,
            } => {
                if !(MIN_INITIAL_MS..=MAX_INITIAL_MS).contains(&initial_ms) {
                    return Err(format!(
                        "clock.initial_ms is the time per player in milliseconds, from {MIN_INITIAL_MS} to {MAX_INITIAL_MS} (3 hours)"
                    ));
                }
                if !(0..=MAX_INCREMENT_MS).contains(&increment_ms) {
                    return Err(format!(
                        "clock.increment_ms is the time added after each move in milliseconds, from 0 to {MAX_INCREMENT_MS} (10 minutes)"
                    ));
                }
            }
            TimeControl::Days { days_per_move } => {
                if !(1..=MAX_DAYS).contains(&days_per_move) {
                    return Err(format!("clock.days_per_move is from 1 to {MAX_DAYS}"));
                }
            }
        }
        Ok(())
    }
}

/// The shortest real-time clock ([`TimeControl::check`]).
pub const MIN_INITIAL_MS: i64 = 100;
/// The longest real-time clock.
pub const MAX_INITIAL_MS: i64 = 3 * 3600 * 1000;
/// The largest increment.
pub const MAX_INCREMENT_MS: i64 = 600_000;
/// The most days per move.
pub const MAX_DAYS: i64 = 14;

/// The clocks of a match: per player (0 = creator), as of `since`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockState {
    /// The time control.
    pub control: TimeControl,
    /// Time left per player (ms) when the running clock started.
    pub left: [i64; 2],
    /// When the player to move's clock started (ms since the epoch); `None` while no clock
    /// runs (a seat still open, the game over).
    pub since: Option<i64>,
    /// Per player: went berserk (docs/api.md, "Arenas"): half their time, no increment.
    pub berserk: [bool; 2],
}

/// The clocks as GameState and move frames show them: time left now, by side.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct ClockView {
    /// South's time left (ms).
    #[serde(rename = "S")]
    pub south: i64,
    /// North's time left (ms).
    #[serde(rename = "N")]
    pub north: i64,
    /// The side whose clock runs, if any.
    pub running: Option<&'static str>,
    /// The time control.
    pub control: TimeControl,
}

impl ClockState {
    /// Both players with the control's starting time, no clock running.
    pub fn new(control: TimeControl) -> ClockState {
        ClockState {
            control,
            left: [control.initial(); 2],
            since: None,
            berserk: [false; 2],
        }
    }

    /// The same clocks with the running one started at `now` (the next player's turn began).
    pub fn run_from(self, now: i64) -> ClockState {
        ClockState {
            since: Some(now),
            ..self
        }
    }

    /// The same clocks with none running (a seat open, the game over).
    pub fn stopped(self) -> ClockState {
        ClockState {
            since: None,
            ..self
        }
    }

    /// Player `p`'s time left at `now` (ms; negative once it has run out), given the player
    /// whose clock runs, if any.
    pub fn left_at(&self, p: usize, running: Option<usize>, now: i64) -> i64 {
        match (running, self.since) {
            (Some(r), Some(since)) if r == p => self.left[p] - (now - since).max(0),
            _ => self.left[p],
        }
    }

    /// When `running`'s clock runs out (ms since the epoch), if a clock runs.
    pub fn deadline(&self, running: usize) -> Option<i64> {
        Some(self.since? + self.left[running])
    }

    /// Player `p` goes berserk (docs/api.md, "Arenas"): their time left is halved and they
    /// get no increment from now on. The caller allows it only before their first move.
    pub fn go_berserk(self, p: usize) -> ClockState {
        let mut left = self.left;
        let mut berserk = self.berserk;
        if !berserk[p] {
            left[p] /= 2;
            berserk[p] = true;
        }
        ClockState {
            left,
            berserk,
            ..self
        }
    }

    /// `p`, whose clock was running, spent the time up to `now` without moving (a takeback
    /// gives the turn back to them): charged, no increment, and the clock runs on from `now`.
    pub fn spend(self, p: usize, now: i64) -> ClockState {
        let Some(since) = self.since else {
            return self;
        };
        let mut left = self.left;
        left[p] -= (now - since).max(0);
        ClockState {
            left,
            since: Some(now),
            ..self
        }
    }

    /// `mover`, whose clock was running, moved at `now`: their clock is charged for the time
    /// since it started and gets the increment (a correspondence clock is set back to its
    /// days per move), and the next clock runs from `now`. Charged before the turn passes,
    /// so the mover is named, never derived from whose turn it is after the move. A clock
    /// that was not running (a seat still open) is neither charged nor given the increment.
    pub fn step(self, mover: usize, now: i64) -> ClockState {
        let Some(since) = self.since else {
            return self;
        };
        let mut left = self.left;
        let spent = left[mover] - (now - since).max(0);
        // A berserk player gave up the increment (a correspondence clock has no berserk).
        left[mover] = if self.berserk[mover] {
            spent
        } else {
            self.control.after_move(spent)
        };
        ClockState {
            left,
            since: Some(now),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE_THREE: TimeControl = TimeControl::Real {
        initial_ms: 300_000,
        increment_ms: 3_000,
    };

    #[test]
    fn berserk_halves_the_time_and_drops_the_increment() {
        let c = ClockState::new(FIVE_THREE).run_from(0).go_berserk(0);
        assert_eq!(c.left, [150_000, 300_000]);
        // Twice is once.
        assert_eq!(c.go_berserk(0).left, c.left);
        // 10 s spent, no increment; the other player still gets theirs.
        let c = c.step(0, 10_000);
        assert_eq!(c.left, [140_000, 300_000]);
        let c = c.step(1, 15_000);
        assert_eq!(c.left, [140_000, 298_000]);
    }

    #[test]
    fn a_move_charges_the_mover_and_adds_the_increment() {
        let c = ClockState::new(FIVE_THREE).run_from(1_000);
        let c = c.step(0, 11_000);
        assert_eq!(c.left, [300_000 - 10_000 + 3_000, 300_000]);
        assert_eq!(c.since, Some(11_000));
        // The other player thinks 4 s.
        let c = c.step(1, 15_000);
        assert_eq!(c.left, [293_000, 299_000]);
        // The first player's time runs from the second's move on.
        assert_eq!(c.left_at(0, Some(0), 20_000), 288_000);
        assert_eq!(c.left_at(1, Some(0), 20_000), 299_000);
        assert_eq!(c.deadline(0), Some(15_000 + 293_000));
    }

    #[test]
    fn two_moves_of_two_and_a_half_seconds_use_up_five_seconds() {
        // The issue's reproduction: 5+0, South waits 2.5 s before each move.
        let ctl = TimeControl::Real {
            initial_ms: 5_000,
            increment_ms: 0,
        };
        let mut c = ClockState::new(ctl).run_from(0);
        let mut t = 0;
        for _ in 0..2 {
            t += 2_500;
            c = c.step(0, t);
            t += 100;
            c = c.step(1, t);
        }
        assert_eq!(c.left[0], 0);
        assert_eq!(c.left[1], 4_800);
        assert!(c.left_at(0, Some(0), t + 1) < 0);
    }

    #[test]
    fn time_spent_without_a_move_gets_no_increment() {
        let c = ClockState::new(FIVE_THREE).run_from(0).spend(1, 7_000);
        assert_eq!(c.left, [300_000, 293_000]);
        assert_eq!(c.since, Some(7_000));
    }

    #[test]
    fn correspondence_is_set_back_to_its_days() {
        let c = ClockState::new(TimeControl::Days { days_per_move: 2 }).run_from(0);
        let c = c.step(0, DAY_MS);
        assert_eq!(c.left, [2 * DAY_MS, 2 * DAY_MS]);
    }

    #[test]
    fn a_clock_not_running_is_not_charged() {
        let c = ClockState::new(FIVE_THREE);
        assert_eq!(c.step(0, 50_000), c);
        assert_eq!(c.deadline(0), None);
        assert_eq!(c.left_at(0, Some(0), 99_000), 300_000);
        assert_eq!(c.run_from(5).stopped(), c);
    }

    #[test]
    fn time_going_backwards_charges_nothing() {
        let c = ClockState::new(FIVE_THREE).run_from(10_000).step(0, 9_000);
        assert_eq!(c.left[0], 303_000);
        assert_eq!(c.left_at(1, Some(1), 8_000), 300_000);
    }
}
