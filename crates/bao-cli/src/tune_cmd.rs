//! `bao tune`: tunes the evaluation weights of one variant by self-play (SPSA), with a
//! progress bar, and writes them in the weights text format.

use crate::common::{out, variant_rules, CliError};
use bao_engine::tune::{tune, TuneConfig};
use bao_engine::Weights;
use clap::Args;
use std::io::{IsTerminal, Write};

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// The game: kiswahili, kete or kimasai.
    #[arg(long, default_value = "kiswahili")]
    variant: String,
    /// Rule options, name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Start from the weights in this file (lines `feature namua mtaji`) instead of the
    /// built-in ones; features it does not name keep their built-in values.
    #[arg(long, value_name = "FILE")]
    start: Option<String>,
    /// SPSA iterations.
    #[arg(long, default_value_t = 200)]
    iterations: u32,
    /// Games per iteration (rounded up to pairs: one opening, sides swapped).
    #[arg(long, default_value_t = 16)]
    games: usize,
    /// Node budget per move in the tuning games (small: many games beat deep games).
    #[arg(long, default_value_t = 2000)]
    nodes: u64,
    /// Perturbation of the first iteration, in centi-seeds.
    #[arg(long, default_value_t = 20.0)]
    step: f64,
    /// Learning rate of the first iteration.
    #[arg(long, default_value_t = 12.0)]
    rate: f64,
    /// Seed: the same arguments give the same weights.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Games played at the same time (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Write the weights here as well as to standard output; written after every
    /// iteration, so an interrupted run keeps its progress.
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
}

fn write_weights(path: &str, header: &str, w: &Weights) -> Result<(), CliError> {
    // Write beside and rename, so the file is never half written.
    let tmp = format!("{path}.tmp");
    std::fs::write(&tmp, format!("{header}\n{w}"))
        .and_then(|_| std::fs::rename(&tmp, path))
        .map_err(|e| CliError::internal(format!("cannot write {path}: {e}")))
}

pub fn run(a: TuneArgs) -> Result<(), CliError> {
    let rules = variant_rules(&a.variant, a.rules.as_deref())?;
    if a.iterations == 0 || a.games == 0 || a.nodes == 0 {
        return Err(CliError::usage(
            "--iterations, --games and --nodes must be at least 1",
        ));
    }
    if !(a.step > 0.0 && a.step.is_finite() && a.rate >= 0.0 && a.rate.is_finite()) {
        return Err(CliError::usage(
            "--step must be positive and --rate not negative",
        ));
    }
    let mut cfg = TuneConfig::new(rules);
    if let Some(path) = &a.start {
        let text = std::fs::read_to_string(path)
            .map_err(|e| CliError::usage(format!("cannot read {path}: {e}")))?;
        cfg.start = Weights::parse(&text, cfg.start)
            .map_err(|e| CliError::usage(format!("{path}: {e}")))?;
    }
    cfg.iterations = a.iterations;
    cfg.games = a.games;
    cfg.nodes = a.nodes;
    cfg.step = a.step;
    cfg.rate = a.rate;
    cfg.seed = a.seed;
    cfg.concurrency = a.concurrency.unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    });
    let header = format!(
        "# bao tune --variant {} --rules {} --iterations {} --games {} --nodes {} --step {} --rate {} --seed {}",
        rules.variant.id(),
        rules,
        a.iterations,
        a.games,
        a.nodes,
        a.step,
        a.rate,
        a.seed
    );
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(a.iterations as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} iterations  {msg}  [{elapsed_precise}, eta {eta}]",
        ) {
            b.set_style(style);
        }
        b
    });
    let mut write_err = None;
    let result = tune(&cfg, |it| {
        let msg = format!(
            "plus vs minus weights: +{} ={} -{}",
            it.wins, it.draws, it.losses
        );
        match &bar {
            Some(b) => {
                b.set_message(msg);
                b.inc(1);
            }
            None => eprintln!("iteration {}/{}: {msg}", it.number, a.iterations),
        }
        if let Some(path) = &a.out {
            let h = format!("{header}\n# after iteration {}", it.number);
            if let Err(e) = write_weights(path, &h, &it.weights) {
                write_err.get_or_insert(e);
            }
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_err {
        return Err(e);
    }
    let w = result.map_err(|e| CliError {
        category: "engine",
        detail: e,
        status: 1,
    })?;
    if let Some(path) = &a.out {
        write_weights(path, &header, &w)?;
    }
    let mut o = out();
    writeln!(o, "{header}")?;
    write!(o, "{w}")?;
    o.flush()?;
    Ok(())
}
