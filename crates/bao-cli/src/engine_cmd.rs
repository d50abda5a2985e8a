//! `bao bestmove`, `bao analyse`, `bao engine` and `bao match`: thin glue over bao-engine.

use crate::common::{load, out, variant_rules, CliError};
use bao_engine::arena::{
    run_match, ForfeitReason, MatchConfig, PlayerSpec, SearchTally, TimeControl,
};
use bao_engine::search::{Limits, Score, Searcher};
use bao_engine::stats::{fmt_elo, Wdl};
use bao_engine::{protocol, Weights};
use bao_rules::{status, Side};
use clap::Args;
use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::time::Duration;

#[derive(Args, Debug)]
pub struct LimitArgs {
    /// Search this many plies deep.
    #[arg(long, value_name = "D")]
    depth: Option<u32>,
    /// Search at most this many nodes (moves executed).
    #[arg(long, value_name = "N")]
    nodes: Option<u64>,
    /// Search at most this many milliseconds.
    #[arg(long, value_name = "MS")]
    time: Option<u64>,
    /// Rule options, name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Search threads (1 is reproducible with --depth or --nodes; more use more cores).
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
}

impl LimitArgs {
    fn searcher(&self, rules: bao_rules::Rules) -> Result<Searcher, CliError> {
        let mut s = Searcher::new(rules, Weights::for_variant(rules.variant), 20);
        s.set_threads(threads(self.threads)?);
        Ok(s)
    }

    /// The limits; with none given, the top level's node budget in `variant`.
    fn limits(&self, variant: bao_rules::Variant) -> Result<Limits, CliError> {
        for (name, v) in [
            ("--depth", self.depth.map(|d| d as u64)),
            ("--nodes", self.nodes),
            ("--time", self.time),
        ] {
            if v == Some(0) {
                return Err(CliError::usage(format!(
                    "{name} must be a positive integer"
                )));
            }
        }
        let l = Limits {
            depth: self.depth.map(|d| d.min(64)),
            nodes: self.nodes,
            time: self.time.map(Duration::from_millis),
            soft_time: None,
        };
        Ok(if l == Limits::default() {
            bao_engine::Level::get(bao_engine::MAX_LEVEL).limits_for(variant)
        } else {
            l
        })
    }
}

#[derive(Args, Debug)]
pub struct BestmoveArgs {
    #[command(flatten)]
    limits: LimitArgs,
    /// The position (or a variant name for its start).
    position: String,
}

#[derive(Args, Debug)]
pub struct AnalyseArgs {
    #[command(flatten)]
    limits: LimitArgs,
    /// The position (or a variant name for its start).
    position: String,
}

#[derive(Args, Debug)]
pub struct EngineArgs {}

#[derive(Args, Debug)]
pub struct MatchArgs {
    /// First player: random, greedy, level:N, depth:N, nodes:N, nodes:N:WEIGHTS_FILE (the
    /// engine with weights written by `bao tune`), time:MS or time:MS:THREADS (the engine
    /// with a fixed time per move) or cmd:"COMMAND ARGS".
    a: String,
    /// Second player, in the same form.
    b: String,
    /// The game: kiswahili, kete or kimasai.
    #[arg(long, default_value = "kiswahili")]
    variant: String,
    /// Rule options, name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Number of games (rounded up to pairs with the same opening, sides swapped).
    #[arg(long, default_value_t = 20)]
    games: usize,
    /// Games played at the same time (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Random plies at the start of each pair's opening.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Seed of the openings and of the players' randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// File the game records are appended to (NOT-6).
    #[arg(long, default_value = "bao-match.txt")]
    records: String,
    /// The `go` arguments sent to external engines.
    #[arg(long, default_value = "level 4")]
    go: String,
    /// Seconds to wait for an external engine's reply.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Play on clocks: INITIAL+INCREMENT in seconds, e.g. 10+0.1. External engines get
    /// `go wtime .. btime .. winc .. binc ..`; a player whose clock runs out loses the game
    /// (a forfeit for time).
    #[arg(long, value_name = "INITIAL+INC")]
    tc: Option<String>,
    /// Search threads of each built-in engine player (external engines: add `threads N` to
    /// --go).
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
    /// SPRT hypotheses ELO0,ELO1.
    #[arg(long, default_value = "0,50")]
    sprt: String,
}

/// The most search threads the commands accept.
const MAX_THREADS: usize = 64;

pub(crate) fn threads(n: usize) -> Result<usize, CliError> {
    if (1..=MAX_THREADS).contains(&n) {
        Ok(n)
    } else {
        Err(CliError::usage(format!(
            "--threads must be 1..{MAX_THREADS}, not {n}"
        )))
    }
}

pub fn bestmove(a: BestmoveArgs) -> Result<(), CliError> {
    let (pos, rules) = load(&a.position, a.limits.rules.as_deref())?;
    let limits = a.limits.limits(rules.variant)?;
    let mut o = out();
    if status(&pos, &rules).is_over() {
        writeln!(o, "bestmove none")?;
        writeln!(o, "result {}", status(&pos, &rules).token())?;
        return Ok(());
    }
    let mut s = a.limits.searcher(rules)?;
    let r = s.search_root(&pos, limits, &mut |_| {});
    let best = r.best.ok_or_else(|| CliError::internal("no move found"))?;
    let pv: Vec<String> = r.pv.iter().map(|m| m.to_string()).collect();
    writeln!(o, "bestmove {}", best.mv)?;
    writeln!(o, "score {}", r.score)?;
    writeln!(o, "pv {}", pv.join(" "))?;
    let nps = (r.nodes as f64 / r.time.as_secs_f64().max(1e-9)) as u64;
    writeln!(
        o,
        "depth {} seldepth {} nodes {} time {} nps {}",
        r.depth,
        r.seldepth,
        r.nodes,
        r.time.as_millis(),
        nps
    )?;
    o.flush()?;
    Ok(())
}

pub fn analyse(a: AnalyseArgs) -> Result<(), CliError> {
    let (pos, rules) = load(&a.position, a.limits.rules.as_deref())?;
    let limits = a.limits.limits(rules.variant)?;
    let mut o = out();
    if status(&pos, &rules).is_over() {
        writeln!(o, "result {}", status(&pos, &rules).token())?;
        return Ok(());
    }
    let mut s = a.limits.searcher(rules)?;
    let (mut scored, depth, nodes) = s.analyse(&pos, limits);
    // Best first; equal scores keep the canonical order (stable sort).
    scored.sort_by_key(|x| std::cmp::Reverse(x.1));
    for (m, sc) in &scored {
        writeln!(o, "{}\t{}", m.mv, Score::from_internal(*sc))?;
    }
    writeln!(o, "depth {depth} nodes {nodes}")?;
    o.flush()?;
    Ok(())
}

pub fn engine(_a: EngineArgs) -> Result<(), CliError> {
    let stdin = std::io::stdin();
    protocol::run(
        stdin.lock(),
        protocol::Out::new(Box::new(std::io::stdout())),
    );
    Ok(())
}

pub fn play_match(a: MatchArgs) -> Result<(), CliError> {
    let rules = variant_rules(&a.variant, a.rules.as_deref())?;
    let pa: PlayerSpec = a.a.parse().map_err(CliError::usage)?;
    let pb: PlayerSpec = a.b.parse().map_err(CliError::usage)?;
    if a.games == 0 {
        return Err(CliError::usage("--games must be at least 1"));
    }
    let (elo0, elo1) = a
        .sprt
        .split_once(',')
        .and_then(|(x, y)| Some((x.trim().parse::<f64>().ok()?, y.trim().parse::<f64>().ok()?)))
        .filter(|(x, y)| x < y)
        .ok_or_else(|| CliError::usage("--sprt takes ELO0,ELO1 with ELO0 < ELO1, e.g. 0,50"))?;
    let tc: Option<TimeControl> =
        a.tc.as_deref()
            .map(str::parse)
            .transpose()
            .map_err(CliError::usage)?;
    let threads = threads(a.threads)?;
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let cfg = MatchConfig {
        rules,
        a: pa.clone(),
        b: pb.clone(),
        games: a.games,
        opening_plies: a.opening_plies,
        concurrency: a.concurrency.unwrap_or(cores).max(1),
        seed: a.seed,
        max_plies: a.max_plies.max(1),
        go: a.go.clone(),
        timeout: Duration::from_secs(a.timeout.max(1)),
        tc,
        threads,
    };
    let total = a.games.div_ceil(2) * 2;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&a.records)
        .map_err(|e| CliError::internal(format!("cannot open {}: {e}", a.records)))?;
    let bar = if std::io::stderr().is_terminal() {
        let b = indicatif::ProgressBar::new(total as u64);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:30} {pos}/{len} games  {msg}  [{elapsed_precise}, eta {eta}]",
        ) {
            b.set_style(style);
        }
        Some(b)
    } else {
        None
    };
    let mut write_err = None;
    let mut forfeits: BTreeMap<ForfeitReason, usize> = BTreeMap::new();
    let mut searches = [SearchTally::default(); 2];
    let res = run_match(&cfg, |g, wdl| {
        for (t, gt) in searches.iter_mut().zip(&g.searches) {
            t.merge(gt);
        }
        if let Some((side, f)) = &g.forfeit {
            *forfeits.entry(f.reason).or_default() += 1;
            let who = if (*side == Side::South) == g.a_south {
                &cfg.a
            } else {
                &cfg.b
            };
            let line = format!(
                "game {}: {who} ({}) forfeits for {}: {}",
                g.index + 1,
                side.name(),
                f.reason,
                f.detail
            );
            match &bar {
                Some(b) => b.println(line),
                None => eprintln!("{line}"),
            }
        }
        // Records are written as games finish, so nothing is lost if the match is cut short.
        // A blank line separates records (NOT-6.1).
        if let Err(e) = writeln!(file, "{}", g.record).and_then(|_| file.flush()) {
            write_err.get_or_insert(e);
        }
        if let Some(b) = &bar {
            b.set_message(format!("+{} ={} -{}", wdl.wins, wdl.draws, wdl.losses));
            b.inc(1);
        }
    });
    if let Some(b) = &bar {
        b.finish_and_clear();
    }
    if let Some(e) = write_err {
        return Err(CliError::internal(format!(
            "cannot write {}: {e}",
            a.records
        )));
    }
    let wdl = res.map_err(|e| CliError {
        category: "engine",
        detail: e,
        status: 1,
    })?;
    let mut o = out();
    summary(&mut o, &cfg, &wdl, elo0, elo1, &a.records)?;
    let total_forfeits: usize = forfeits.values().sum();
    let mut line = format!("forfeits {total_forfeits}");
    for (r, n) in &forfeits {
        line.push_str(&format!(", {r} {n}"));
    }
    writeln!(o, "{line}")?;
    // How deep each built-in engine searched: at equal time, the depth its speed buys.
    for (who, t) in [&cfg.a, &cfg.b].into_iter().zip(&searches) {
        if let (Some(d), Some(m), Some(n)) = (t.mean_depth(), t.median_depth(), t.mean_nodes()) {
            writeln!(
                o,
                "search {who}: mean depth {d:.2}, median {m}, {:.0} nodes a move, over {} moves with a choice",
                n, t.searches()
            )?;
        }
    }
    o.flush()?;
    Ok(())
}

fn summary(
    o: &mut impl Write,
    cfg: &MatchConfig,
    w: &Wdl,
    elo0: f64,
    elo1: f64,
    records: &str,
) -> std::io::Result<()> {
    writeln!(
        o,
        "match {} vs {} variant {} rules {}",
        cfg.a,
        cfg.b,
        cfg.rules.variant.id(),
        cfg.rules
    )?;
    if let Some(tc) = cfg.tc {
        writeln!(o, "time control {tc} seconds")?;
    }
    if cfg.threads > 1 {
        writeln!(o, "threads {} per built-in engine", cfg.threads)?;
    }
    writeln!(
        o,
        "games {} wins {} draws {} losses {} score {:.1} %",
        w.games(),
        w.wins,
        w.draws,
        w.losses,
        100.0 * w.score()
    )?;
    let (e, lo, hi) = w.elo();
    let (wl, wh) = w.wilson();
    let (el, eh) = (
        bao_engine::stats::elo_from_score(wl),
        bao_engine::stats::elo_from_score(wh),
    );
    writeln!(
        o,
        "elo {} 95% [{}, {}]",
        fmt_elo(e),
        fmt_elo(lo),
        fmt_elo(hi)
    )?;
    writeln!(
        o,
        "wilson 95% score [{:.1} %, {:.1} %] elo [{}, {}]",
        100.0 * wl,
        100.0 * wh,
        fmt_elo(el),
        fmt_elo(eh)
    )?;
    let llr = w.llr(elo0, elo1);
    let (lb, ub) = Wdl::sprt_bounds();
    let verdict = if llr >= ub {
        "H1 accepted"
    } else if llr <= lb {
        "H0 accepted"
    } else {
        "inconclusive"
    };
    writeln!(
        o,
        "sprt elo0 {elo0} elo1 {elo1} llr {llr:.2} bounds [{lb:.2}, {ub:.2}] {verdict}"
    )?;
    writeln!(o, "records {records}")?;
    Ok(())
}
