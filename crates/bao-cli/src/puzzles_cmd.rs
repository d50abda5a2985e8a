//! `bao puzzles`: mines puzzles from records files and self-play games (bao-engine's
//! `puzzle` module) into the data files the server embeds
//! (crates/bao-server/data/puzzles/VARIANT.json), with their themes (bao-engine's `theme`
//! module), and checks such a file again.

use crate::common::{out, variant_rules, CliError};
use bao_engine::puzzle::{self, MineConfig, Mined, Puzzle, SourceGame};
use bao_engine::theme::themes;
use bao_rules::{find_move, parse_records_bytes, Position, Rules, MAX_RECORD_BYTES};
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
    /// Examine every position of the games of records files (--from), then of self-play
    /// games between levels, and keep the positions with one proven best line that is not
    /// trivial; print them with their themes as JSON (the server's data file form).
    ///
    /// Progress (games and positions examined, candidates found) goes to standard error.
    /// The same arguments and files give the same puzzles. The exact command lines of the
    /// shipped files are in docs/api.md, "Puzzles".
    Mine(MineArgs),
    /// Prove every puzzle of a data file again and report the ones that fail: the proof,
    /// not trivial, and the themes the rules' events give.
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
    /// Candidates gathered per puzzle wanted before the best are kept (1: the first found).
    #[arg(long)]
    pool: Option<usize>,
    /// Candidates of each goal taken from one self-play game.
    #[arg(long)]
    per_game: Option<usize>,
    /// Also examine the position after every other legal move of each self-play position
    /// (more positions per game played).
    #[arg(long)]
    children: bool,
    /// Records files (NOT-6, as `bao record` writes and the server's records endpoints
    /// serve) whose games are mined first, every position; records of another variant or
    /// other rules than the variant's defaults are skipped (counted on standard error).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    from: Vec<String>,
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
    if let Some(p) = a.pool {
        if p == 0 {
            return Err(CliError::usage("--pool must be at least 1"));
        }
        cfg.pool = p;
    }
    if let Some(n) = a.per_game {
        cfg.per_game = n;
    }
    cfg.children = a.children;
    let records = read_games(&a.from, &rules)?;
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
    let pool = cfg.pool;
    let record_games = records.len();
    let mut next_report = std::time::Instant::now();
    let mut last = None;
    let mined = puzzle::mine(&rules, &cfg, &records, &mut |p| {
        last = Some(p);
        let msg = format!(
            "{} positions; found win {}/{}, seeds {}/{}, save the house {}/{}",
            p.positions,
            p.found[0],
            pool * want[0],
            p.found[1],
            pool * want[1],
            p.found[2],
            pool * want[2]
        );
        match &bar {
            Some(b) => {
                b.set_message(msg);
                b.set_position(p.games as u64);
            }
            // A line every ten seconds at most, and at the end of the records' games.
            None if std::time::Instant::now() >= next_report || p.games == record_games => {
                next_report = std::time::Instant::now() + std::time::Duration::from_secs(10);
                eprintln!("{} games: {msg}", p.games);
            }
            None => {}
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(p) = last {
        eprintln!(
            "{} games, {} positions examined; candidates: win {}, seeds {}, save the house {}",
            p.games, p.positions, p.found[0], p.found[1], p.found[2]
        );
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

/// The games of records files as positions to mine: every record of `rules`' variant
/// played under `rules` (the variant's defaults), each replayed by the rules (NOT-6.4).
/// Records of other rules are skipped with a count on standard error; a file that cannot
/// be read or parsed, or a record that does not replay, is an error naming it.
fn read_games(files: &[String], rules: &Rules) -> Result<Vec<SourceGame>, CliError> {
    let mut out = Vec::new();
    let mut skipped = 0;
    for file in files {
        let meta = std::fs::metadata(file)
            .map_err(|e| CliError::usage(format!("cannot read {file}: {e}")))?;
        if meta.len() > MAX_RECORD_BYTES as u64 {
            return Err(CliError::usage(format!(
                "{file}: larger than {MAX_RECORD_BYTES} bytes"
            )));
        }
        let bytes =
            std::fs::read(file).map_err(|e| CliError::usage(format!("cannot read {file}: {e}")))?;
        let records = parse_records_bytes(&bytes)
            .map_err(|e| CliError::usage(format!("{file}: line {}: {}", e.line, e.reason())))?;
        for (i, r) in records.iter().enumerate() {
            if r.rules != *rules {
                skipped += 1;
                continue;
            }
            let game = r.validate().map_err(|e| {
                CliError::usage(format!(
                    "{file}: record {}: line {}: {}",
                    i + 1,
                    e.line,
                    e.reason()
                ))
            })?;
            out.push(SourceGame {
                label: format!("{} record {}", file_name(file), i + 1),
                positions: game.positions().to_vec(),
            });
        }
    }
    if skipped > 0 {
        eprintln!(
            "{skipped} records skipped: not {} under its default rules",
            rules.variant.id()
        );
    }
    Ok(out)
}

/// The file's name without its folders, so that a puzzle's source does not depend on where
/// the file was.
fn file_name(path: &str) -> String {
    std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
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
            themes: themes(&m.puzzle, rules),
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
        let r = to_puzzle(e, &rules).and_then(|p| {
            puzzle::verify(&p, &rules)?;
            if puzzle::is_trivial(&p, &rules) {
                return Err("trivial: the only move or the obvious capture".into());
            }
            let found = themes(&p, &rules);
            if found != e.themes {
                return Err(format!(
                    "the themes are {found:?}, the file says {:?}",
                    e.themes
                ));
            }
            Ok(())
        });
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
