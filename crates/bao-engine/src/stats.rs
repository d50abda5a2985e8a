//! Match statistics: score, Elo difference with a 95 % interval, the Wilson interval of the
//! score, and a sequential probability ratio test (GSPRT, the normal approximation used by
//! fishtest) for "A is at least elo1 stronger" against "A is at most elo0 stronger".

/// Wins, draws and losses from the first player's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won by the first player.
    pub wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games lost by the first player.
    pub losses: u64,
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_963_985;

/// Elo difference for an expected score (±infinity at 0 and 1).
pub fn elo_from_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// Expected score for an Elo difference.
pub fn score_from_elo(e: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-e / 400.0))
}

impl Wdl {
    /// Games played.
    pub fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// Mean score (win 1, draw ½), or 0.5 with no games.
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (self.wins as f64 + 0.5 * self.draws as f64) / n as f64
    }

    /// Variance of one game's score.
    fn variance(&self) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        let s = self.score();
        let (w, d, l) = (
            self.wins as f64 / n,
            self.draws as f64 / n,
            self.losses as f64 / n,
        );
        w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)
    }

    /// Elo difference and its 95 % interval (normal approximation on the mean score).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = self.games() as f64;
        let s = self.score();
        let se = if n > 0.0 {
            (self.variance() / n).sqrt()
        } else {
            0.0
        };
        if se == 0.0 {
            // A clean sweep (or no games) has no spread: the normal interval collapses, so
            // the Wilson interval gives the bounds instead.
            let (lo, hi) = self.wilson();
            return (elo_from_score(s), elo_from_score(lo), elo_from_score(hi));
        }
        (
            elo_from_score(s),
            elo_from_score((s - Z95 * se).max(0.0)),
            elo_from_score((s + Z95 * se).min(1.0)),
        )
    }

    /// Wilson 95 % score interval, counting a draw as half a win.
    pub fn wilson(&self) -> (f64, f64) {
        let n = self.games() as f64;
        if n == 0.0 {
            return (0.0, 1.0);
        }
        let p = self.score();
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
        // At a clean sweep the bound is exactly 1 (or 0); rounding must not turn it into
        // a finite Elo.
        let lo = if p <= 0.0 {
            0.0
        } else {
            (centre - half).max(0.0)
        };
        let hi = if p >= 1.0 {
            1.0
        } else {
            (centre + half).min(1.0)
        };
        (lo, hi)
    }

    /// Log-likelihood ratio of H1 (elo1) against H0 (elo0), in the normal approximation.
    pub fn llr(&self, elo0: f64, elo1: f64) -> f64 {
        let n = self.games() as f64;
        if n == 0.0 {
            return 0.0;
        }
        // With no spread yet (a clean sweep), use the largest possible one-game variance,
        // so that the evidence grows but is not overstated.
        let var = match self.variance() {
            v if v > 0.0 => v,
            _ => 0.25,
        };
        let s = self.score();
        let (s0, s1) = (score_from_elo(elo0), score_from_elo(elo1));
        (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var / n)
    }

    /// SPRT decision bounds for α = β = 0.05: (lower, upper).
    pub fn sprt_bounds() -> (f64, f64) {
        let (a, b) = (0.05f64, 0.05f64);
        ((b / (1.0 - a)).ln(), ((1.0 - b) / a).ln())
    }
}

/// An Elo value for people: `+inf`, `-inf` or a signed number.
pub fn fmt_elo(e: f64) -> String {
    if e.is_infinite() {
        if e > 0.0 {
            "+inf".into()
        } else {
            "-inf".into()
        }
    } else {
        format!("{e:+.0}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_and_intervals() {
        let even = Wdl {
            wins: 50,
            draws: 0,
            losses: 50,
        };
        assert!((even.score() - 0.5).abs() < 1e-12);
        assert!(even.elo().0.abs() < 1e-9);
        // 75 % is about +191 Elo.
        let w = Wdl {
            wins: 75,
            draws: 0,
            losses: 25,
        };
        assert!((w.elo().0 - 190.85).abs() < 0.1);
        let (lo, hi) = w.wilson();
        assert!(lo < 0.75 && 0.75 < hi && lo > 0.6 && hi < 0.85);
        assert!(w.llr(0.0, 50.0) > Wdl::sprt_bounds().1);
        assert!(even.llr(0.0, 50.0) < 0.0);
        let sweep = Wdl {
            wins: 20,
            draws: 0,
            losses: 0,
        };
        assert_eq!(fmt_elo(sweep.elo().0), "+inf");
        assert!(sweep.wilson().0 > 0.8);
        assert_eq!(sweep.wilson().1, 1.0);
        assert_eq!(fmt_elo(elo_from_score(sweep.wilson().1)), "+inf");
        assert!((score_from_elo(elo_from_score(0.3)) - 0.3).abs() < 1e-12);
    }
}
