//! Ratings as the server keeps and shows them (docs/api.md, "Ratings"): one Glicko-2 rating
//! per account and variant, lichess's instant update ([`bao_rating`], its default settings:
//! 1500, deviation 500, volatility 0.09, tau 0.75, provisional above deviation 110). Pure:
//! the time is passed in.

use bao_rating::{Config, Outcome, Rating};
use serde::Serialize;
use std::time::Duration;

/// A rating is shown on the leaderboard only with a game in this window (90 days).
pub const ACTIVE_MS: i64 = 90 * 24 * 3600 * 1000;

/// The rating system: bao-rating's defaults (docs/api.md, "Ratings", says why).
pub fn config() -> Config {
    Config::default()
}

/// One account's rating in one variant as stored (table `ratings`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stored {
    /// The rating.
    pub rating: f64,
    /// Its deviation (RD) after the last rated game.
    pub rd: f64,
    /// Its volatility.
    pub volatility: f64,
    /// Rated games played in the variant; also the row's version.
    pub games: i64,
    /// When the last rated game was rated (ms since the epoch); `None` before the first.
    pub last_played: Option<i64>,
}

impl Stored {
    /// A new player's rating (no row yet).
    pub fn start() -> Stored {
        let s = config().start();
        Stored {
            rating: s.rating(),
            rd: s.deviation(),
            volatility: s.volatility(),
            games: 0,
            last_played: None,
        }
    }

    /// As a bao-rating value; a stored value out of range (a corrupt row) is brought back
    /// within range rather than refused, so one bad row cannot stop every game it touches.
    pub fn rating(&self) -> Rating {
        let ok = |x: f64, lo: f64, hi: f64, d: f64| if x.is_finite() { x.clamp(lo, hi) } else { d };
        let start = config().start();
        Rating::new(
            ok(
                self.rating,
                Rating::MIN_RATING,
                Rating::MAX_RATING,
                start.rating(),
            ),
            ok(
                self.rd,
                Rating::MIN_DEVIATION,
                Rating::MAX_DEVIATION,
                start.deviation(),
            ),
            ok(
                self.volatility,
                Rating::MIN_VOLATILITY,
                Rating::MAX_VOLATILITY,
                start.volatility(),
            ),
        )
        .unwrap_or(start)
    }

    /// The time since the last rated game at `now` (zero before the first).
    pub fn idle(&self, now: i64) -> Duration {
        let ms = self.last_played.map_or(0, |t| (now - t).max(0));
        Duration::from_millis(ms as u64)
    }

    /// The rating as it stands at `now`: its deviation grown since the last rated game.
    pub fn now(&self, now: i64) -> Rating {
        config().after_idle(self.rating(), self.idle(now))
    }

    /// How it is shown at `now`: the rounded rating and whether it is provisional.
    pub fn shown(&self, now: i64) -> Shown {
        let r = self.now(now);
        let s = config().display(&r);
        Shown {
            rating: s.rating,
            provisional: s.provisional,
        }
    }
}

/// A rating as GameState and the profiles show it.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct Shown {
    /// The rating rounded to an integer.
    pub rating: i32,
    /// Its deviation (as it stands now) is above 110.
    pub provisional: bool,
}

/// The outcome of a game for player 0, from the winner (`Some(0)`, `Some(1)`) or a draw
/// (`None`).
pub fn outcome_for_p0(winner: Option<usize>) -> Outcome {
    match winner {
        Some(0) => Outcome::Win,
        Some(_) => Outcome::Loss,
        None => Outcome::Draw,
    }
}

/// One rated game's update for both players (0 = the creator), at `now`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Update {
    /// Each player's rating before, as read.
    pub before: [Stored; 2],
    /// Each player's rating after.
    pub after: [Stored; 2],
    /// Each player's change as shown: rounded after minus rounded before.
    pub change: [i32; 2],
}

/// Rates one game between players 0 and 1 whose ratings are `before`; `outcome` is player
/// 0's. Lichess's instant Glicko-2: each player's deviation first grows with the time since
/// their last rated game.
pub fn rate(before: [Stored; 2], outcome: Outcome, now: i64) -> Update {
    let c = config();
    let (a, b) = c.rate_game(
        before[0].rating(),
        before[0].idle(now),
        before[1].rating(),
        before[1].idle(now),
        outcome,
    );
    let stored = |s: &Stored, r: Rating| Stored {
        rating: r.rating(),
        rd: r.deviation(),
        volatility: r.volatility(),
        games: s.games + 1,
        last_played: Some(now),
    };
    let after = [stored(&before[0], a), stored(&before[1], b)];
    let change = [
        a.rounded() - before[0].rating().rounded(),
        b.rounded() - before[1].rating().rounded(),
    ];
    Update {
        before,
        after,
        change,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_new_players_move_apart_by_the_same_amount() {
        let u = rate([Stored::start(); 2], Outcome::Win, 1_000);
        assert_eq!(u.change[0], -u.change[1]);
        assert!(u.change[0] > 200, "{u:?}");
        assert_eq!(u.after[0].games, 1);
        assert_eq!(u.after[1].last_played, Some(1_000));
        let d = rate([Stored::start(); 2], Outcome::Draw, 1_000);
        assert_eq!(d.change, [0, 0]);
    }

    #[test]
    fn a_corrupt_row_is_brought_into_range() {
        let bad = Stored {
            rating: f64::NAN,
            rd: 9_999.0,
            volatility: -1.0,
            games: 3,
            last_played: Some(0),
        };
        let r = bad.rating();
        assert_eq!(r.rating(), 1500.0);
        assert_eq!(r.deviation(), Rating::MAX_DEVIATION);
        assert_eq!(r.volatility(), Rating::MIN_VOLATILITY);
    }

    #[test]
    fn deviation_grows_while_away() {
        let s = Stored {
            rating: 1800.0,
            rd: 60.0,
            volatility: 0.06,
            games: 40,
            last_played: Some(0),
        };
        assert!(!s.shown(0).provisional);
        let year = 365 * 24 * 3600 * 1000;
        assert!(s.shown(2 * year).provisional);
        assert_eq!(s.shown(2 * year).rating, 1800);
    }
}
