//! `bao puzzles`: mines puzzles from self-play games (bao-engine's `puzzle` module) into the
//! data files the server embeds (crates/bao-server/data/puzzles/VARIANT.json), and checks
//! such a file again.

use crate::common::{out, variant_rules, CliError};
use bao_engine::puzzle::{self, MineConfig, Mined, Puzzle};
use bao_rules::{find_move, Position, Rules};
use bao_server::features::puzzles::Entry;
use clap::{Args, Subcommand};
use std::io::{IsTerminal, Write};

#[derive(Args, Debug)]
pub struct PuzzlesArgs {
    #[command(subcommand)]
    command: PuzzlesCommand,
}

#[derive(Subcommand, Debug)]
enum PuzzlesCommand {
    /// Play self-play games between levels and keep the positions with one proven best
    /// line; print them as JSON (the server's data file form).
    Mine(MineArgs),
    /// Prove every puzzle of a data file again and report the ones that fail.
    Check(CheckArgs),
}

#[derive(Args, Debug)]
struct MineArgs {
    /// The game: kiswahili, kete or kimasai (default rules: the server serves those).
    #[arg(long, default_value = "kiswahili")]
    variant: String,
    /// Seed: the same arguments give the same puzzles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Most games to play.
    #[arg(long)]
    games: Option<usize>,
    /// Puzzles wanted of each goal: win,seeds,save_house (save_house needs a nyumba).
    #[arg(long, value_name = "W,S,H")]
    want: Option<String>,
    /// Proof depth of the win puzzles, in plies.
    #[arg(long)]
    win_depth: Option<u32>,
    /// Write the file here instead of standard output.
    #[arg(long, value_name = "FILE")]
    out: Option<String>,
}

#[derive(Args, Debug)]
struct CheckArgs {
    /// The game of the file.
    #[arg(long, default_value = "kiswahili")]
    variant: String,
    /// A data file (JSON, as written by `bao puzzles mine`).
    file: String,
}

pub fn run(a: PuzzlesArgs) -> Result<(), CliError> {
    match a.command {
        PuzzlesCommand::Mine(m) => mine(m),
        PuzzlesCommand::Check(c) => check(c),
    }
}

fn parse_want(text: &str) -> Result<[usize; 3], CliError> {
    let parts: Vec<Result<usize, _>> = text.split(',').map(|p| p.trim().parse()).collect();
    match parts.as_slice() {
        [Ok(w), Ok(s), Ok(h)] => Ok([*w, *s, *h]),
        _ => Err(CliError::usage(format!(
            "--want takes three counts, win,seeds,save_house (like 20,20,15), not '{}'",
            bao_rules::printable(text)
        ))),
    }
}

fn mine(a: MineArgs) -> Result<(), CliError> {
    let rules = variant_rules(&a.variant, None)?;
    let mut cfg = MineConfig::for_rules(&rules, a.seed);
    if let Some(g) = a.games {
        cfg.games = g;
    }
    if let Some(w) = &a.want {
        cfg.want = parse_want(w)?;
    }
    if !rules.variant.is_bao() {
        cfg.want[2] = 0;
    }
    if let Some(d) = a.win_depth {
        if !(1..=12).contains(&d) {
            return Err(CliError::usage("--win-depth must be 1 to 12"));
        }
        cfg.win_depth = d;
    }
    let bar = std::io::stderr().is_terminal().then(|| {
        let b = indicatif::ProgressBar::new(cfg.games as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}]",
        ) {
            b.set_style(style);
        }
        b
    });
    let want = cfg.want;
    let mined = puzzle::mine(&rules, &cfg, &mut |p| {
        let msg = format!(
            "win {}/{}, seeds {}/{}, save the house {}/{}",
            p.found[0], want[0], p.found[1], want[1], p.found[2], want[2]
        );
        match &bar {
            Some(b) => {
                b.set_message(msg);
                b.set_position(p.games as u64);
            }
            None if p.games % 10 == 0 => eprintln!("{} games: {msg}", p.games),
            None => {}
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    let entries = entries(&rules, &mined);
    let text = serde_json::to_string_pretty(&entries)
        .map_err(|e| CliError::internal(format!("cannot write JSON: {e}")))?;
    match &a.out {
        Some(path) => std::fs::write(path, format!("{text}\n"))
            .map_err(|e| CliError::internal(format!("cannot write {path}: {e}")))?,
        None => {
            let mut o = out();
            writeln!(o, "{text}")?;
            o.flush()?;
        }
    }
    eprintln!("{} puzzles", entries.len());
    Ok(())
}

/// The data file's entries, numbered `VARIANT-NNN` in the order found.
fn entries(rules: &Rules, mined: &[Mined]) -> Vec<Entry> {
    mined
        .iter()
        .enumerate()
        .map(|(i, m)| Entry {
            id: format!("{}-{:03}", rules.variant.id(), i + 1),
            position: m.puzzle.position.to_string(),
            goal: m.puzzle.goal,
            moves: m.puzzle.moves.iter().map(|mv| mv.to_string()).collect(),
            depth: m.puzzle.depth,
            source: m.source.clone(),
        })
        .collect()
}

/// An entry as a puzzle of the engine; an error names what the rules refuse.
fn to_puzzle(e: &Entry, rules: &Rules) -> Result<Puzzle, String> {
    let position = Position::parse(&e.position, rules).map_err(|x| x.to_string())?;
    let mut p = position;
    let mut moves = Vec::new();
    for m in &e.moves {
        let lm = find_move(&p, rules, m).map_err(|x| x.to_string())?;
        moves.push(lm.mv);
        p = lm.next;
    }
    Ok(Puzzle {
        position,
        goal: e.goal,
        moves,
        depth: e.depth,
    })
}

fn check(a: CheckArgs) -> Result<(), CliError> {
    let rules = variant_rules(&a.variant, None)?;
    let text = std::fs::read_to_string(&a.file)
        .map_err(|e| CliError::usage(format!("cannot read {}: {e}", a.file)))?;
    let list: Vec<Entry> = serde_json::from_str(&text)
        .map_err(|e| CliError::usage(format!("{}: not a puzzle file: {e}", a.file)))?;
    let mut bad = 0;
    let mut o = out();
    for e in &list {
        let r = to_puzzle(e, &rules).and_then(|p| puzzle::verify(&p, &rules));
        match r {
            Ok(()) => writeln!(o, "{}\tok", e.id)?,
            Err(why) => {
                bad += 1;
                writeln!(o, "{}\tfailed\t{why}", e.id)?;
            }
        }
    }
    o.flush()?;
    if bad > 0 {
        return Err(CliError::internal(format!(
            "{bad} of {} puzzles failed",
            list.len()
        )));
    }
    Ok(())
}
