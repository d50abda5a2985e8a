//! Steps 2 to 8 of Glickman's "Example of the Glicko-2 system", on the Glicko-2 scale (mu,
//! phi, sigma). The callers convert, clamp and validate; nothing here can fail, and every
//! loop is bounded.

use std::f64::consts::PI;

/// Step 2's factor between the Glicko scale and the Glicko-2 scale (400 / ln 10, to the
/// paper's precision, as the other implementations use it).
pub(crate) const SCALE: f64 = 173.7178;
/// Step 2's centre: a rating of 1500 is mu = 0, whatever a configuration starts players at.
pub(crate) const CENTRE: f64 = 1500.0;

/// Step 5's convergence tolerance on ln(sigma^2), the paper's epsilon.
const CONVERGENCE: f64 = 1e-6;
/// The Illinois iteration converges in well under 20 steps on any input the crate accepts;
/// the bound only keeps a pathological float from looping for ever.
const MAX_ITERATIONS: u32 = 100;

pub(crate) fn to_mu(rating: f64) -> f64 {
    (rating - CENTRE) / SCALE
}

pub(crate) fn to_phi(deviation: f64) -> f64 {
    deviation / SCALE
}

pub(crate) fn from_mu(mu: f64) -> f64 {
    mu * SCALE + CENTRE
}

pub(crate) fn from_phi(phi: f64) -> f64 {
    phi * SCALE
}

/// Step 3's g: how much a result against an opponent with deviation phi counts.
pub(crate) fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// Step 3's E: the expected score against an opponent at mu_j whose g is g_j.
pub(crate) fn expected(mu: f64, mu_j: f64, g_j: f64) -> f64 {
    1.0 / (1.0 + (-g_j * (mu - mu_j)).exp())
}

/// One opponent of a rating period, on the Glicko-2 scale.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Game {
    pub mu: f64,
    pub phi: f64,
    pub score: f64,
}

/// The player's new (mu, phi, sigma) after a rating period with at least one game.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Updated {
    pub mu: f64,
    pub phi: f64,
    pub sigma: f64,
}

/// The quantities of steps 3 and 4, kept for the tests that check the paper's intermediate
/// figures.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Estimates {
    /// Step 3's v: the estimated variance of the rating from the games alone.
    pub v: f64,
    /// Step 4's sum of g(phi_j) (s_j - E_j); Delta is v times it.
    pub sum: f64,
}

/// Steps 3 and 4 over the period's games (an iterator, so that the callers need not collect
/// the games into a buffer). With no game, v is infinite and the sum zero.
pub(crate) fn estimates(mu: f64, games: impl IntoIterator<Item = Game>) -> Estimates {
    let mut information = 0.0;
    let mut sum = 0.0;
    for game in games {
        let g_j = g(game.phi);
        let e_j = expected(mu, game.mu, g_j);
        information += g_j * g_j * e_j * (1.0 - e_j);
        sum += g_j * (game.score - e_j);
    }
    Estimates {
        v: 1.0 / information,
        sum,
    }
}

/// Step 5: the new volatility, by the Illinois algorithm as the paper gives it. Returns
/// `sigma` unchanged if the arithmetic breaks down (it does not on the inputs the crate
/// accepts; the guard keeps a NaN from ever being stored).
pub(crate) fn volatility(sigma: f64, phi: f64, v: f64, delta: f64, tau: f64) -> f64 {
    let a = (sigma * sigma).ln();
    let delta2 = delta * delta;
    let phi2 = phi * phi;
    let tau2 = tau * tau;
    let f = |x: f64| {
        let ex = x.exp();
        let d = phi2 + v + ex;
        ex * (delta2 - phi2 - v - ex) / (2.0 * d * d) - (x - a) / tau2
    };

    let mut lo = a;
    let mut hi = if delta2 > phi2 + v {
        (delta2 - phi2 - v).ln()
    } else {
        // f's first term is above -1/2 and its second is k / tau here, so with tau at most
        // 2 (Config's bound) k = 1 or 2 ends the search; the cap is a guard only.
        let mut k = 1.0;
        while f(a - k * tau) < 0.0 && k < 1000.0 {
            k += 1.0;
        }
        a - k * tau
    };

    let mut f_lo = f(lo);
    let mut f_hi = f(hi);
    let mut iterations = 0;
    while (hi - lo).abs() > CONVERGENCE && iterations < MAX_ITERATIONS {
        iterations += 1;
        let c = lo + (lo - hi) * f_lo / (f_hi - f_lo);
        if !c.is_finite() {
            break;
        }
        let f_c = f(c);
        // "<= 0", not "< 0": with a root hit exactly (f_c == 0) the strict test would halve
        // f_lo for ever without moving lo.
        if f_c * f_hi <= 0.0 {
            lo = hi;
            f_lo = f_hi;
        } else {
            f_lo /= 2.0;
        }
        hi = c;
        f_hi = f_c;
    }

    let new = (lo / 2.0).exp();
    if new.is_finite() && new > 0.0 {
        new
    } else {
        sigma
    }
}

/// Step 6: the deviation grown over `periods` rating periods at volatility `sigma`, capped
/// at `max_phi`. Glickman's paper has exactly one period; lichess counts fractions of one.
pub(crate) fn grown(phi: f64, sigma: f64, periods: f64, max_phi: f64) -> f64 {
    (phi * phi + periods * sigma * sigma).sqrt().min(max_phi)
}

/// The system's constants as [`update`] needs them, on the Glicko-2 scale.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Limits {
    pub tau: f64,
    /// The cap on step 6's grown deviation.
    pub max_phi: f64,
    /// The new volatility is clamped into these before step 6 uses it, so that what is
    /// stored is what was used.
    pub min_sigma: f64,
    pub max_sigma: f64,
}

/// Steps 5 to 7 for a player with at least one game, given steps 3 and 4's `estimates`:
/// the volatility step on the player's deviation as it was after their last game, then the
/// growth over the idle `periods` with the new volatility (step 6), then the games'
/// information (step 7). With `periods` = 1 and no caps this is the paper's rating period
/// exactly.
pub(crate) fn update(
    mu: f64,
    phi: f64,
    sigma: f64,
    estimates: Estimates,
    periods: f64,
    limits: Limits,
) -> Updated {
    let Estimates { v, sum } = estimates;
    debug_assert!(v.is_finite(), "no game");
    let delta = v * sum;
    let sigma_new =
        volatility(sigma, phi, v, delta, limits.tau).clamp(limits.min_sigma, limits.max_sigma);
    let phi_star = grown(phi, sigma_new, periods, limits.max_phi);
    let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
    Updated {
        mu: mu + phi_new * phi_new * sum,
        phi: phi_new,
        sigma: sigma_new,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: f64, want: f64, tolerance: f64) -> bool {
        (got - want).abs() <= tolerance
    }

    /// The paper's intermediate and final figures, to the decimals it prints.
    #[test]
    fn paper_intermediate_figures() {
        let mu = to_mu(1500.0);
        let phi = to_phi(200.0);
        assert!(close(mu, 0.0, 1e-12));
        assert!(close(phi, 1.1513, 0.00005), "phi {phi}");

        let opponents = [
            (1400.0, 30.0, 1.0),
            (1550.0, 100.0, 0.0),
            (1700.0, 300.0, 0.0),
        ];
        let games: Vec<Game> = opponents
            .iter()
            .map(|&(r, rd, score)| Game {
                mu: to_mu(r),
                phi: to_phi(rd),
                score,
            })
            .collect();
        let want_g = [0.9955, 0.9531, 0.7242];
        let want_e = [0.639, 0.432, 0.303];
        for (game, (wg, we)) in games.iter().zip(want_g.iter().zip(want_e)) {
            let g_j = g(game.phi);
            assert!(close(g_j, *wg, 0.00005), "g {g_j} want {wg}");
            let e_j = expected(mu, game.mu, g_j);
            assert!(close(e_j, we, 0.0005), "E {e_j} want {we}");
        }

        // The paper works v and Delta out from E rounded to three decimals, so its 1.7785
        // and -0.4834 are that far from the exact 1.77898 and -0.48393.
        let Estimates { v, sum } = estimates(mu, games.iter().copied());
        assert!(close(v, 1.7785, 0.001), "v {v}");
        assert!(close(v * sum, -0.4834, 0.001), "Delta {}", v * sum);

        let sigma = volatility(0.06, phi, v, v * sum, 0.5);
        // 0.0599960 exactly (skillratings gets the same to the last digit); the paper's
        // 0.05999 comes from its rounded v and Delta, so one unit of its last digit.
        assert!(close(sigma, 0.05999, 0.00001), "sigma' {sigma}");
        let phi_star = grown(phi, sigma, 1.0, f64::INFINITY);
        // The paper squares its rounded phi, 1.1513, for 1.152862; the exact phi gives
        // 1.152855.
        assert!(close(phi_star, 1.152862, 0.00001), "phi* {phi_star}");

        let limits = Limits {
            tau: 0.5,
            max_phi: f64::INFINITY,
            min_sigma: 0.0,
            max_sigma: 1.0,
        };
        let new = update(mu, phi, 0.06, Estimates { v, sum }, 1.0, limits);
        assert!(close(new.phi, 0.8722, 0.00005), "phi' {}", new.phi);
        assert!(close(new.mu, -0.2069, 0.00005), "mu' {}", new.mu);
    }

    #[test]
    fn volatility_survives_an_exact_root() {
        // Delta = 0: f(a) = 0 exactly, the case a strict "< 0" test loops on.
        let sigma = volatility(0.06, 1.0, 2.0, 0.0, 0.5);
        assert!(sigma.is_finite() && sigma > 0.0 && sigma <= 0.06);
    }
}
