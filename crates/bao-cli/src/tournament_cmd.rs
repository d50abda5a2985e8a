//! `bao tournament`: a round robin or Swiss among engines and levels, paired and ranked by
//! bao-tournament, its games played by the match arena of bao-engine.

use crate::common::{out, variant_rules, CliError};
use crate::engine_cmd::threads;
use bao_engine::arena::{make_player, opening, play_game, ForfeitReason, MatchConfig, PlayerSpec};
use bao_engine::arena::{Player as ArenaPlayer, TimeControl};
use bao_rules::Side as RulesSide;
use bao_tournament::standings::{crosstable, fmt_points, to_csv};
use bao_tournament::{Format, GameResult, Pairing, Player, PlayerId, Points, Standing, Tournament};
use clap::{Args, ValueEnum};
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::io::Write;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum TournamentFormat {
    /// Everyone meets everyone once (Berger tables).
    RoundRobin,
    /// Everyone meets everyone twice, once with each side.
    DoubleRoundRobin,
    /// A fixed number of rounds, players paired with others on the same points.
    Swiss,
}

#[derive(Args, Debug)]
#[command(after_help = "\
Each pairing plays one game; South moves first (BRD-1.3). The round robin follows the
Berger tables (an odd number of players: one sits out each round, with a bye); the Swiss
pairs players on equal points who have not met, balancing sides, by weighted matching (see
the bao-tournament crate). A game's opening is a few random plies (--opening-plies) drawn
from --seed, so the same command plays the same tournament with depth- or node-limited
players.

Results print as the games finish, then a crosstable (each cell: the row player's points
against the column player) and the standings with their tie-breaks: round robins direct
encounter (DE) then Sonneborn-Berger (SB); Swiss Buchholz cut 1 (BH-C1), Buchholz (BH),
then SB. A bye is worth --bye-points. A game an engine forfeits (a crash, a hang, an
illegal move) counts as a loss and, for tie-breaks, as not played.

Examples:
  bao tournament level:1 level:3 level:5 --max-plies 200
  bao tournament depth:2 depth:4 nodes:5000 greedy --format double-round-robin \\
      --records games.txt --csv standings.csv
  bao tournament level:2 level:3 level:4 level:5 level:6 random --format swiss --rounds 3
  bao tournament level:4 level:6 'cmd:bao engine' --go 'movetime 100'
  bao record validate games.txt")]
pub struct TournamentArgs {
    /// The players, two or more, in the forms `bao match` takes: random, greedy, level:N,
    /// depth:N, nodes:N, nodes:N:WEIGHTS_FILE, time:MS, time:MS:THREADS or
    /// cmd:"COMMAND ARGS". Their order is the seeding (first is number 1); a player given
    /// twice plays as two entrants.
    #[arg(value_name = "PLAYER", required = true, num_args = 2..)]
    players: Vec<String>,
    /// How the players meet.
    #[arg(long, value_enum, default_value_t = TournamentFormat::RoundRobin)]
    format: TournamentFormat,
    /// Swiss rounds (default: log2 of the players rounded up, plus one; at most players - 1).
    #[arg(long, value_name = "N")]
    rounds: Option<usize>,
    /// The game: kiswahili, kete or kimasai.
    #[arg(long, default_value = "kiswahili")]
    variant: String,
    /// Rule options, name=value,...
    #[arg(long, value_name = "OPTS")]
    rules: Option<String>,
    /// Games played at the same time (default: the number of cores).
    #[arg(long)]
    concurrency: Option<usize>,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 4)]
    opening_plies: usize,
    /// Seed of the openings and of the players' randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Adjudicate a draw after this many plies.
    #[arg(long, default_value_t = 600)]
    max_plies: u32,
    /// Write every game to this record file (NOT-6), replacing it; `bao record validate`
    /// checks it.
    #[arg(long, value_name = "FILE")]
    records: Option<String>,
    /// Write the standings to this file as CSV.
    #[arg(long, value_name = "FILE")]
    csv: Option<String>,
    /// Points for a bye.
    #[arg(long, value_name = "POINTS", default_value_t = 1.0)]
    bye_points: f64,
    /// The `go` arguments sent to external engines.
    #[arg(long, default_value = "level 4")]
    go: String,
    /// Seconds to wait for an external engine's reply.
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Play on clocks: INITIAL+INCREMENT in seconds, e.g. 10+0.1 (as `bao match --tc`).
    #[arg(long, value_name = "INITIAL+INC")]
    tc: Option<String>,
    /// Search threads of each built-in engine player.
    #[arg(long, value_name = "N", default_value_t = 1)]
    threads: usize,
}

/// One game to play.
#[derive(Clone, Copy, Debug)]
struct Job {
    round: usize,
    board: usize,
    game: Pairing,
    /// Number of the game in the tournament, 0-based: its opening and seed.
    index: usize,
}

/// A played game: its result for the tournament, and what to print and save.
struct Played {
    job: Job,
    result: GameResult,
    why: String,
    record: String,
}

pub fn run(a: TournamentArgs) -> Result<(), CliError> {
    let rules = variant_rules(&a.variant, a.rules.as_deref())?;
    let specs: Vec<PlayerSpec> = a
        .players
        .iter()
        .map(|s| s.parse().map_err(CliError::usage))
        .collect::<Result<_, _>>()?;
    let n = specs.len();
    let tc: Option<TimeControl> =
        a.tc.as_deref()
            .map(str::parse)
            .transpose()
            .map_err(CliError::usage)?;
    if !a.bye_points.is_finite() {
        return Err(CliError::usage("--bye-points must be a number"));
    }
    let format = match a.format {
        TournamentFormat::RoundRobin => Format::RoundRobin { double: false },
        TournamentFormat::DoubleRoundRobin => Format::RoundRobin { double: true },
        TournamentFormat::Swiss => {
            let default = (usize::BITS - (n - 1).leading_zeros()) as usize + 1;
            let rounds = a.rounds.unwrap_or(default).min(n - 1);
            if rounds == 0 {
                return Err(CliError::usage("--rounds must be at least 1"));
            }
            Format::Swiss { rounds }
        }
    };
    if a.rounds.is_some() && a.format != TournamentFormat::Swiss {
        return Err(CliError::usage(
            "--rounds is for --format swiss; a round robin has as many rounds as it needs",
        ));
    }
    // Names: the spec, numbered when one is given twice.
    let names: Vec<String> = a
        .players
        .iter()
        .enumerate()
        .map(|(i, s)| {
            if a.players.iter().filter(|x| *x == s).count() > 1 {
                let k = a.players[..=i].iter().filter(|x| *x == s).count();
                format!("{s}#{k}")
            } else {
                s.clone()
            }
        })
        .collect();
    let players: Vec<Player> = names
        .iter()
        .enumerate()
        .map(|(i, name)| Player::rated(name.clone(), -(i as i32)))
        .collect();
    let mut t = Tournament::new(format, players).map_err(|e| CliError::usage(e.to_string()))?;
    t.points = Points {
        bye: a.bye_points,
        ..Points::default()
    };
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let cfg = MatchConfig {
        rules,
        a: PlayerSpec::Random,
        b: PlayerSpec::Random,
        games: 2,
        opening_plies: a.opening_plies,
        concurrency: a.concurrency.unwrap_or(cores).max(1),
        seed: a.seed,
        max_plies: a.max_plies.max(1),
        go: a.go.clone(),
        timeout: Duration::from_secs(a.timeout.max(1)),
        tc,
        threads: threads(a.threads)?,
    };
    let mut file = match &a.records {
        Some(path) => Some(
            std::fs::File::create(path)
                .map_err(|e| CliError::internal(format!("cannot create {path}: {e}")))?,
        ),
        None => None,
    };
    let mut o = out();
    let kind = match format {
        Format::RoundRobin { double: false } => "round robin".to_string(),
        Format::RoundRobin { double: true } => "double round robin".to_string(),
        Format::Swiss { .. } => "Swiss".to_string(),
        Format::Knockout { .. } => unreachable!("not offered"),
    };
    writeln!(
        o,
        "tournament: {kind}, {n} players, {} round{}, variant {} rules {}",
        t.total_rounds(),
        if t.total_rounds() == 1 { "" } else { "s" },
        rules.variant.id(),
        rules
    )?;
    o.flush()?;
    let mut next_index = 0;
    let mut jobs_of = |t: &Tournament, round: usize| -> Vec<Job> {
        t.rounds[round - 1]
            .pairings
            .iter()
            .enumerate()
            .map(|(b, &game)| {
                next_index += 1;
                Job {
                    round,
                    board: b + 1,
                    game,
                    index: next_index - 1,
                }
            })
            .collect()
    };
    let mut write_err = None;
    let mut on_game = |t: &mut Tournament, p: Played, o: &mut dyn Write| -> Result<(), CliError> {
        t.record(p.job.round, p.job.game, p.result)
            .map_err(|e| CliError::internal(e.to_string()))?;
        let score = match p.result.winner() {
            None => "1/2-1/2",
            Some(bao_tournament::Side::South) => "1-0",
            Some(bao_tournament::Side::North) => "0-1",
        };
        writeln!(
            o,
            "round {} board {}: {} - {}  {score}  ({})",
            p.job.round,
            p.job.board,
            t.players[p.job.game.south.0].name,
            t.players[p.job.game.north.0].name,
            p.why
        )?;
        o.flush()?;
        if let Some(f) = file.as_mut() {
            // A blank line separates records (NOT-6.1); written as games finish, so nothing
            // is lost if the tournament is cut short.
            if let Err(e) = writeln!(f, "{}", p.record).and_then(|_| f.flush()) {
                write_err.get_or_insert(e);
            }
        }
        Ok(())
    };
    match format {
        Format::RoundRobin { .. } => {
            // Every round is known in advance: play them all as one queue.
            let mut jobs = Vec::new();
            while t.pair_next_round().is_ok() {
                let r = t.rounds.len();
                if let Some(b) = t.rounds[r - 1].bye {
                    writeln!(o, "round {r}: {} has a bye", t.players[b.0].name)?;
                }
                jobs.extend(jobs_of(&t, r));
            }
            play_all(&cfg, &specs, &names, jobs, |p| on_game(&mut t, p, &mut o))?;
        }
        _ => {
            for r in 1..=t.total_rounds() {
                t.pair_next_round()
                    .map_err(|e| CliError::internal(e.to_string()))?;
                if let Some(b) = t.rounds[r - 1].bye {
                    writeln!(o, "round {r}: {} has a bye", t.players[b.0].name)?;
                }
                let jobs = jobs_of(&t, r);
                play_all(&cfg, &specs, &names, jobs, |p| on_game(&mut t, p, &mut o))?;
            }
        }
    }
    if let (Some(e), Some(path)) = (write_err, &a.records) {
        return Err(CliError::internal(format!("cannot write {path}: {e}")));
    }
    let standings = t.standings();
    writeln!(o)?;
    print_crosstable(&mut o, &t, &standings)?;
    writeln!(o)?;
    print_standings(&mut o, &t, &standings)?;
    if let Some(path) = &a.records {
        writeln!(o, "records {path}")?;
    }
    if let Some(path) = &a.csv {
        std::fs::write(path, to_csv(&standings, &t.players))
            .map_err(|e| CliError::internal(format!("cannot write {path}: {e}")))?;
        writeln!(o, "standings csv {path}")?;
    }
    o.flush()?;
    Ok(())
}

/// Plays `jobs` on `cfg.concurrency` threads, each keeping its own instance of every player
/// (an external engine is started once per thread); `on_game` runs on this thread as each
/// game finishes.
fn play_all(
    cfg: &MatchConfig,
    specs: &[PlayerSpec],
    names: &[String],
    jobs: Vec<Job>,
    mut on_game: impl FnMut(Played) -> Result<(), CliError>,
) -> Result<(), CliError> {
    if jobs.is_empty() {
        return Ok(());
    }
    let queue = Arc::new(Mutex::new(jobs.into_iter().rev().collect::<Vec<Job>>()));
    let workers = cfg
        .concurrency
        .clamp(1, queue.lock().map(|q| q.len()).unwrap_or(1));
    let (tx, rx) = mpsc::channel::<Result<Played, String>>();
    let mut handles = Vec::new();
    for _ in 0..workers {
        let (cfg, specs, names, queue, tx) = (
            cfg.clone(),
            specs.to_vec(),
            names.to_vec(),
            queue.clone(),
            tx.clone(),
        );
        handles.push(std::thread::spawn(move || {
            let mut instances: HashMap<usize, Box<dyn ArenaPlayer>> = HashMap::new();
            // The guard is consumed by and_then: the queue is not held while playing.
            while let Some(job) = queue.lock().ok().and_then(|mut q| q.pop()) {
                let r = play_one(&cfg, &specs, &names, &mut instances, job);
                let failed = r.is_err();
                if tx.send(r).is_err() || failed {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let mut err = None;
    for r in rx {
        match r {
            Ok(p) => {
                if err.is_none() {
                    if let Err(e) = on_game(p) {
                        err = Some(e);
                    }
                }
            }
            Err(e) => {
                // Stop handing out games; the others finish the ones they hold.
                if let Ok(mut q) = queue.lock() {
                    q.clear();
                }
                err.get_or_insert(CliError {
                    category: "engine",
                    detail: e,
                    status: 1,
                });
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    err.map_or(Ok(()), Err)
}

fn play_one(
    cfg: &MatchConfig,
    specs: &[PlayerSpec],
    names: &[String],
    instances: &mut HashMap<usize, Box<dyn ArenaPlayer>>,
    job: Job,
) -> Result<Played, String> {
    let (s, n) = (job.game.south.0, job.game.north.0);
    for i in [s, n] {
        if let Entry::Vacant(e) = instances.entry(i) {
            e.insert(make_player(
                &specs[i],
                &cfg.rules,
                &cfg.go,
                cfg.timeout,
                cfg.threads,
            )?);
        }
    }
    let mut south = instances.remove(&s).expect("made above");
    let north = instances.get_mut(&n).expect("made above");
    let game_cfg = MatchConfig {
        a: specs[s].clone(),
        b: specs[n].clone(),
        ..cfg.clone()
    };
    let open = opening(&cfg.rules, cfg.seed, job.index, cfg.opening_plies);
    let g = play_game(
        &game_cfg,
        job.index,
        south.as_mut(),
        north.as_mut(),
        true,
        &open,
    );
    instances.insert(s, south);
    let result = match &g.forfeit {
        // A loss on time is a game lost on the board; any other forfeit (a crash, a hang,
        // an illegal move) is a game not played out.
        Some((side, f)) if f.reason != ForfeitReason::Time => GameResult::Forfeit(match side {
            RulesSide::South => bao_tournament::Side::South,
            RulesSide::North => bao_tournament::Side::North,
        }),
        _ => match g.score_a {
            1 => GameResult::SouthWins,
            -1 => GameResult::NorthWins,
            _ => GameResult::Draw,
        },
    };
    let mut record = g.record;
    record.south = names[s].clone();
    record.north = names[n].clone();
    record.set_tag("Event", "bao tournament");
    // NOT-6.2: Round is the game number within a match; each pairing is one game. The
    // tournament's round and board go in tags of their own.
    record.set_tag("Round", "1");
    record.set_tag("TournamentRound", &job.round.to_string());
    record.set_tag("Board", &job.board.to_string());
    Ok(Played {
        job,
        result,
        why: g.why,
        record: record.to_string(),
    })
}

fn print_crosstable(
    o: &mut impl Write,
    t: &Tournament,
    standings: &[Standing],
) -> std::io::Result<()> {
    let cells = crosstable(t.players.len(), &t.rounds, &t.points);
    let byes: Vec<usize> = (0..t.players.len())
        .map(|i| {
            t.rounds
                .iter()
                .filter(|r| r.bye == Some(PlayerId(i)))
                .count()
        })
        .collect();
    let order: Vec<usize> = standings.iter().map(|s| s.player.0).collect();
    let width = t
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    let col = order
        .iter()
        .flat_map(|&i| order.iter().map(move |&j| (i, j)))
        .filter_map(|(i, j)| cells[i][j].map(|v| fmt_points(v).len()))
        .max()
        .unwrap_or(1)
        .max(order.len().to_string().len())
        .max(1);
    writeln!(
        o,
        "crosstable (row player's points against the column player)"
    )?;
    let mut head = format!("{:>3}  {:width$}", "#", "player");
    for k in 1..=order.len() {
        head.push_str(&format!("  {k:>col$}"));
    }
    head.push_str("  byes  points");
    writeln!(o, "{}", head.trim_end())?;
    for (k, &i) in order.iter().enumerate() {
        let mut line = format!("{:>3}  {:width$}", k + 1, t.players[i].name);
        for &j in &order {
            let c = if i == j {
                "*".to_string()
            } else {
                cells[i][j].map_or(".".to_string(), fmt_points)
            };
            line.push_str(&format!("  {c:>col$}"));
        }
        let points = standings
            .iter()
            .find(|s| s.player.0 == i)
            .map_or(0.0, |s| s.points);
        line.push_str(&format!("  {:>4}  {:>6}", byes[i], fmt_points(points)));
        writeln!(o, "{line}")?;
    }
    Ok(())
}

fn print_standings(
    o: &mut impl Write,
    t: &Tournament,
    standings: &[Standing],
) -> std::io::Result<()> {
    let width = t
        .players
        .iter()
        .map(|p| p.name.chars().count())
        .max()
        .unwrap_or(6)
        .max(6);
    writeln!(o, "standings")?;
    let mut head = format!("{:>4}  {:width$}  {:>6}", "rank", "player", "points");
    for tb in t.tiebreaks() {
        head.push_str(&format!("  {:>6}", tb.name()));
    }
    writeln!(o, "{head}")?;
    for s in standings {
        let mut line = format!(
            "{:>4}  {:width$}  {:>6}",
            s.rank,
            t.players[s.player.0].name,
            fmt_points(s.points)
        );
        for (_, v) in &s.tiebreaks {
            line.push_str(&format!("  {:>6}", fmt_points(*v)));
        }
        writeln!(o, "{line}")?;
    }
    Ok(())
}
