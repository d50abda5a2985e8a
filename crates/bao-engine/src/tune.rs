//! Tuning the evaluation weights by self-play: SPSA (simultaneous perturbation stochastic
//! approximation), the method chess engines use to tune many weights with few games.
//!
//! Each iteration draws a random ±1 direction over the tunable weights, plays paired games
//! (the same opening twice, sides swapped) between the weights moved one step along it and
//! one step against it, and moves the weights towards the side that scored better. The step
//! and the move shrink with the iteration number, as SPSA requires for convergence.
//! `bao tune` runs it from the command line.
//!
//! Material and seeds in hand stay at 100 per seed: they are the unit of the evaluation.
//! Features that never vary in a variant are left alone (see [`tunable`]).

use crate::arena::{run_match, MatchConfig, PlayerSpec};
use crate::eval::{Weights, FEATURES, N};
use bao_rules::{Rng, Rules, Variant};
use std::time::Duration;

/// A tuning run.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The rules (and so the variant) the games are played under.
    pub rules: Rules,
    /// The weights to start from.
    pub start: Weights,
    /// SPSA iterations.
    pub iterations: u32,
    /// Games per iteration (rounded up to pairs).
    pub games: usize,
    /// Node budget of each move in the tuning games.
    pub nodes: u64,
    /// Seed of the directions and the openings: the same config gives the same result.
    pub seed: u64,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Perturbation of the first iteration, in centi-seeds.
    pub step: f64,
    /// Learning rate of the first iteration: centi-seeds moved per unit of score
    /// difference per unit of perturbation.
    pub rate: f64,
}

impl TuneConfig {
    /// Defaults for `rules`: start from the current weights, 200 iterations of 16 games at
    /// 2,000 nodes per move.
    pub fn new(rules: Rules) -> TuneConfig {
        TuneConfig {
            rules,
            start: Weights::for_variant(rules.variant),
            iterations: 200,
            games: 16,
            nodes: 2_000,
            seed: 1,
            concurrency: 1,
            step: 20.0,
            rate: 12.0,
        }
    }
}

/// What one iteration did.
#[derive(Clone, Debug)]
pub struct Iteration {
    /// 1-based iteration number.
    pub number: u32,
    /// Wins, draws and losses of the `plus` weights against the `minus` weights.
    pub wins: u64,
    /// Draws.
    pub draws: u64,
    /// Losses.
    pub losses: u64,
    /// The weights after this iteration (rounded).
    pub weights: Weights,
}

/// Whether feature `f` is tuned in `variant`: material and hand are the unit and stay
/// fixed, and a feature that is always zero in the variant (the house and takasia in
/// kimasai, the duty outside kete) would only random-walk.
pub fn tunable(f: usize, variant: Variant) -> bool {
    match FEATURES[f] {
        "material" | "hand" => false,
        "house" | "house_seeds" | "blocked" => variant.is_bao(),
        "duty" => variant == Variant::Kete,
        _ => true,
    }
}

fn rounded(theta: &[[f64; 2]; N]) -> Weights {
    Weights {
        values: theta.map(|t| t.map(|x| x.round() as i32)),
    }
}

/// `theta += k * delta`, weight by weight.
fn add_scaled(theta: &mut [[f64; 2]; N], delta: &[[f64; 2]; N], k: f64) {
    for (t, d) in theta.iter_mut().zip(delta) {
        for (x, y) in t.iter_mut().zip(d) {
            *x += k * y;
        }
    }
}

/// Runs SPSA and returns the tuned weights; `progress` sees every iteration.
///
/// The usual gain sequences: the perturbation shrinks as `step / k^0.101`, the learning
/// rate as `rate / (k + iterations / 10)^0.602` (k = 1, 2, ...). Weights that never mattered
/// in the games random-walk a little; weights that matter move towards better play.
pub fn tune(cfg: &TuneConfig, mut progress: impl FnMut(&Iteration)) -> Result<Weights, String> {
    let mut theta = cfg.start.values.map(|v| v.map(f64::from));
    let mut rng = Rng::new(cfg.seed);
    let stability = (cfg.iterations as f64 / 10.0).max(1.0);
    for it in 0..cfg.iterations {
        let k = it as f64 + 1.0;
        let c = cfg.step / k.powf(0.101);
        let a = cfg.rate / ((k + stability) / (1.0 + stability)).powf(0.602);
        let mut delta = [[0f64; 2]; N];
        for f in (0..N).filter(|&f| tunable(f, cfg.rules.variant)) {
            for d in delta[f].iter_mut() {
                *d = if rng.below(2) == 0 { -1.0 } else { 1.0 };
            }
        }
        let shifted = |sign: f64| {
            let mut t = theta;
            add_scaled(&mut t, &delta, sign * c);
            rounded(&t)
        };
        let match_cfg = MatchConfig {
            rules: cfg.rules,
            a: PlayerSpec::Weighted(Box::new(shifted(1.0)), cfg.nodes, "plus".into()),
            b: PlayerSpec::Weighted(Box::new(shifted(-1.0)), cfg.nodes, "minus".into()),
            games: cfg.games,
            opening_plies: 6,
            concurrency: cfg.concurrency.max(1),
            seed: cfg.seed.wrapping_mul(1_000_003).wrapping_add(it as u64),
            max_plies: 400,
            go: String::new(),
            timeout: Duration::from_secs(60),
            tc: None,
            threads: 1,
        };
        let wdl = run_match(&match_cfg, |_, _| {})?;
        // Score difference plus - minus, in [-1, 1].
        let r = 2.0 * wdl.score() - 1.0;
        add_scaled(&mut theta, &delta, a * r);
        progress(&Iteration {
            number: it + 1,
            wins: wdl.wins,
            draws: wdl.draws,
            losses: wdl.losses,
            weights: rounded(&theta),
        });
    }
    Ok(rounded(&theta))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_is_reproducible_and_keeps_the_unit() {
        let mut cfg = TuneConfig::new(Rules::new(Variant::Kiswahili));
        cfg.iterations = 3;
        cfg.games = 4;
        cfg.nodes = 300;
        let mut seen = 0;
        let a = tune(&cfg, |it| {
            seen += 1;
            assert_eq!(it.number, seen);
            assert_eq!(it.wins + it.draws + it.losses, 4);
        })
        .unwrap();
        assert_eq!(seen, 3);
        let b = tune(&cfg, |_| {}).unwrap();
        assert_eq!(a, b, "same seed, same weights");
        for (f, name) in FEATURES.iter().enumerate() {
            if !tunable(f, Variant::Kiswahili) {
                assert_eq!(a.values[f], cfg.start.values[f], "{name} is fixed");
            }
        }
        // Something moved unless every pair was split evenly.
        cfg.seed = 2;
        let c = tune(&cfg, |_| {}).unwrap();
        assert!(
            a != cfg.start || c != cfg.start,
            "three iterations moved nothing"
        );
    }
}
