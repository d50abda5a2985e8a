//! `bao review RECORD`: every move of a game judged by the engine (docs/review.md), thin glue
//! over `bao_engine::review`.

use crate::common::{out, positive, CliError};
use crate::record_cmd::{load_records, record_error};
use bao_engine::review::{review_game, Review, ReviewOptions};
use bao_engine::search::Limits;
use bao_rules::Side;
use clap::Args;
use std::io::{IsTerminal, Write};
use std::time::Duration;

/// The default budget of each search, in milliseconds: a 60-ply record takes at most two
/// searches per ply, so well under a minute.
const DEFAULT_TIME_MS: u64 = 300;

#[derive(Args, Debug)]
#[command(after_help = "\
Output, one line per move, then one summary line per player:
  PLY MOVE BEST LOSS MARK
  summary SIDE moves N average_loss CS inaccuracies N mistakes N blunders N

LOSS is what the move cost against the best move, in centi-seeds (100 = one seed), or
`win` when the best move won by force and the played move does not, or `loss` when the
played move loses by force and the best move did not.
MARK: `-` below 150, `?!` (inaccuracy) from 150, `?` (mistake) from 400, `??` (blunder)
from 900 or a forced result thrown away. average_loss counts each move at most 2000.

Each search gets --time, or --depth / --nodes; with --threads 1 and --depth or --nodes the
review is the same on every run and machine. A progress bar goes to standard error when it
is a terminal.

Example:
  bao match level:8 level:3 --games 2 --records games.txt
  bao review --game 1 games.txt")]
pub struct ReviewArgs {
    /// Milliseconds per search (a move takes one search, or two when it is not the best);
    /// 300 when no --depth or --nodes is given.
    #[arg(long, value_name = "MS")]
    time: Option<String>,
    /// Search this many plies deep per move instead of a time.
    #[arg(long, value_name = "D")]
    depth: Option<String>,
    /// Search at most this many nodes per search instead of a time.
    #[arg(long, value_name = "N")]
    nodes: Option<String>,
    /// Search threads (1 is reproducible with --depth or --nodes; more use more cores).
    #[arg(long, value_name = "N", default_value = "1")]
    threads: String,
    /// Which game of a file holding several (1-based; a file of one game needs none).
    #[arg(long, value_name = "N")]
    game: Option<String>,
    /// The record file (NOT-6, text or JSON; `-` for standard input).
    #[arg(value_name = "RECORD", allow_hyphen_values = true)]
    record: String,
}

impl ReviewArgs {
    fn options(&self) -> Result<ReviewOptions, CliError> {
        let num = |name: &str, v: &Option<String>| -> Result<Option<u64>, CliError> {
            v.as_deref().map(|s| positive(name, s)).transpose()
        };
        let time = num("--time", &self.time)?;
        let depth = num("--depth", &self.depth)?;
        let nodes = num("--nodes", &self.nodes)?;
        let threads = positive("--threads", &self.threads)?;
        if threads > 64 {
            return Err(CliError::usage(format!(
                "--threads must be 1..64, not {threads}"
            )));
        }
        let mut limits = Limits {
            depth: depth.map(|d| d.min(64) as u32),
            nodes,
            time: time.map(Duration::from_millis),
            soft_time: None,
        };
        if limits == Limits::default() {
            limits = Limits::time(DEFAULT_TIME_MS);
        }
        Ok(ReviewOptions {
            limits,
            threads: threads as usize,
            ..ReviewOptions::default()
        })
    }
}

pub fn run(a: ReviewArgs) -> Result<(), CliError> {
    let opts = a.options()?;
    let (records, _) = load_records(&a.record)?;
    let index = match &a.game {
        Some(g) => {
            let n = positive("--game", g)? as usize;
            if n > records.len() {
                return Err(CliError::usage(format!(
                    "--game {n}: the file holds {} game(s)",
                    records.len()
                )));
            }
            n - 1
        }
        None if records.len() > 1 => {
            return Err(CliError::usage(format!(
                "the file holds {} games; choose one with --game N",
                records.len()
            )))
        }
        None => 0,
    };
    let game = records[index]
        .validate()
        .map_err(|e| record_error(&a.record, Some(index + 1), &e))?;
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(game.moves().len() as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} moves  [{elapsed_precise}, eta {eta}]",
        ) {
            b.set_style(style);
        }
        Some(b)
    } else {
        None
    };
    let review = review_game(&game, &opts, &mut |done, _| {
        if let Some(b) = &bar {
            b.set_position(done as u64);
        }
        true
    })
    .ok_or_else(|| CliError::internal("the review stopped"))?;
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    write_review(&review)
}

fn write_review(r: &Review) -> Result<(), CliError> {
    let mut o = out();
    for p in &r.plies {
        writeln!(
            o,
            "{} {} {} {} {}",
            p.number, p.played, p.best, p.loss, p.mark
        )?;
    }
    for side in [Side::South, Side::North] {
        let s = r.summary(side);
        writeln!(
            o,
            "summary {} moves {} average_loss {} inaccuracies {} mistakes {} blunders {}",
            side.letter(),
            s.moves,
            s.average_loss,
            s.inaccuracies,
            s.mistakes,
            s.blunders
        )?;
    }
    o.flush()?;
    Ok(())
}
