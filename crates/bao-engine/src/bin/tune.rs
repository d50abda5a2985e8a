//! `bao-tune`: tunes the evaluation weights of one variant by self-play (SPSA).
//!
//! Each iteration draws a random ±1 direction over the weights, plays paired games between
//! the weights moved one step along it and one step against it, and moves the weights
//! towards the side that scored better. The result is printed in the weights text format
//! (`feature namua mtaji` per line), ready to be pasted into eval.rs or loaded with
//! `Weights::parse`.
//!
//! ```text
//! cargo run --release -p bao-engine --bin bao-tune -- --variant kiswahili --iterations 50 \
//!     --games 8 --nodes 3000 [--start weights.txt] [--seed 1] [--concurrency 2]
//! ```

#![allow(clippy::needless_range_loop)] // index loops over (feature, stage) read best here

use bao_engine::arena::{run_match, MatchConfig, PlayerSpec};
use bao_engine::eval::{Weights, FEATURES, N};
use bao_rules::{Rng, Rules, Variant};
use std::time::Duration;

struct Args {
    variant: Variant,
    iterations: u32,
    games: usize,
    nodes: u64,
    start: Option<String>,
    seed: u64,
    concurrency: usize,
    step: f64,
    rate: f64,
}

fn parse_args() -> Result<Args, String> {
    let mut a = Args {
        variant: Variant::Kiswahili,
        iterations: 20,
        games: 8,
        nodes: 3000,
        start: None,
        seed: 1,
        concurrency: std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1),
        step: 8.0,
        rate: 40.0,
    };
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < argv.len() {
        let key = argv[i].as_str();
        let val = argv
            .get(i + 1)
            .ok_or_else(|| format!("{key} needs a value"))?;
        let num = || {
            val.parse::<u64>()
                .map_err(|_| format!("{key}: '{val}' is not a number"))
        };
        match key {
            "--variant" => {
                a.variant =
                    Variant::from_id(val).ok_or_else(|| format!("unknown variant '{val}'"))?
            }
            "--iterations" => a.iterations = num()? as u32,
            "--games" => a.games = num()?.max(2) as usize,
            "--nodes" => a.nodes = num()?.max(100),
            "--start" => a.start = Some(val.clone()),
            "--seed" => a.seed = num()?,
            "--concurrency" => a.concurrency = num()?.max(1) as usize,
            "--step" => a.step = val.parse().map_err(|_| format!("{key}: bad number"))?,
            "--rate" => a.rate = val.parse().map_err(|_| format!("{key}: bad number"))?,
            _ => return Err(format!("unknown option '{key}'")),
        }
        i += 2;
    }
    Ok(a)
}

/// Features that are tuned; material and hand are the unit (100 per seed) and stay fixed.
fn tunable(f: usize) -> bool {
    !matches!(FEATURES[f], "material" | "hand")
}

fn main() {
    let a = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("error: usage: {e}");
            std::process::exit(2);
        }
    };
    let rules = Rules::new(a.variant);
    let mut w = Weights::for_variant(a.variant);
    if let Some(path) = &a.start {
        let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
            eprintln!("error: cannot read {path}: {e}");
            std::process::exit(2)
        });
        w = Weights::parse(&text, w).unwrap_or_else(|e| {
            eprintln!("error: {path}: {e}");
            std::process::exit(2)
        });
    }
    // Work in real numbers; the weights are rounded for each match.
    let mut theta: Vec<[f64; 2]> = w
        .values
        .iter()
        .map(|v| [v[0] as f64, v[1] as f64])
        .collect();
    let mut rng = Rng::new(a.seed);
    for it in 0..a.iterations {
        let delta: Vec<[f64; 2]> = (0..N)
            .map(|f| {
                if tunable(f) {
                    [
                        if rng.below(2) == 0 { -1.0 } else { 1.0 },
                        if rng.below(2) == 0 { -1.0 } else { 1.0 },
                    ]
                } else {
                    [0.0, 0.0]
                }
            })
            .collect();
        let make = |sign: f64| {
            let mut v = Weights {
                values: [[0; 2]; N],
            };
            for f in 0..N {
                for s in 0..2 {
                    v.values[f][s] = (theta[f][s] + sign * a.step * delta[f][s]).round() as i32;
                }
            }
            v
        };
        let (plus, minus) = (make(1.0), make(-1.0));
        let cfg = MatchConfig {
            rules,
            a: PlayerSpec::Weighted(Box::new(plus), a.nodes, "plus".into()),
            b: PlayerSpec::Weighted(Box::new(minus), a.nodes, "minus".into()),
            games: a.games,
            opening_plies: 6,
            concurrency: a.concurrency,
            seed: a.seed.wrapping_mul(1000).wrapping_add(it as u64),
            max_plies: 400,
            go: String::new(),
            timeout: Duration::from_secs(60),
        };
        let wdl = match run_match(&cfg, |_, _| {}) {
            Ok(w) => w,
            Err(e) => {
                eprintln!("error: {e}");
                std::process::exit(1);
            }
        };
        let r = wdl.score() - 0.5;
        for f in 0..N {
            for s in 0..2 {
                theta[f][s] += a.rate * r * delta[f][s];
            }
        }
        eprintln!(
            "iteration {} plus {}-{}-{} score {:.2}",
            it + 1,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            wdl.score()
        );
    }
    let mut out = Weights {
        values: [[0; 2]; N],
    };
    for f in 0..N {
        for s in 0..2 {
            out.values[f][s] = theta[f][s].round() as i32;
        }
    }
    println!(
        "# bao-tune {} iterations {} games {} nodes {} seed {}",
        a.variant, a.iterations, a.games, a.nodes, a.seed
    );
    print!("{out}");
}
