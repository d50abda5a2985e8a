//! The match arena: two players (built-in levels, the random and greedy players, or any
//! external program that speaks the engine protocol) play paired games, in parallel.
//!
//! Paired openings: for each pair a random opening of a few plies is drawn from the seed,
//! and played twice with the sides swapped, so neither player profits from a lucky start.

use crate::clock::Clock;
use crate::level::{greedy_move, random_move, Level, Searched};
use crate::record::today;
use crate::search::{Limits, Searcher};
use crate::stats::Wdl;
use crate::Weights;
use bao_rules::{
    count_legal_moves, find_move, printable, Game, LegalMove, Outcome, Position, Rng, Rules, Side,
};
use bao_rules::{Record, RecordResult, Termination};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Who plays: parsed from `random`, `greedy`, `level:N`, `depth:N`, `nodes:N`, `time:MS[:T]`,
/// `weights:FILE:nodes:N` (for tuning) or `cmd:COMMAND ARGS` (an external protocol engine).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerSpec {
    /// A uniformly random legal move.
    Random,
    /// The one-ply greedy player: most seeds captured.
    Greedy,
    /// A playing level.
    Level(u8),
    /// The full engine to a fixed depth.
    Depth(u32),
    /// The full engine with a fixed node budget.
    Nodes(u64),
    /// The full engine with a fixed time per move in milliseconds, on a number of threads
    /// (`time:MS` uses the match's `--threads`, `time:MS:T` T threads).
    Time(u64, Option<usize>),
    /// The engine with given weights and a node budget (used by the tuner).
    Weighted(Box<Weights>, u64, String),
    /// An external program speaking the engine protocol; the words of its command line.
    Cmd(Vec<String>),
}

impl FromStr for PlayerSpec {
    type Err = String;
    fn from_str(s: &str) -> Result<PlayerSpec, String> {
        let num = |v: &str, what: &str| -> Result<u64, String> {
            v.parse::<u64>()
                .ok()
                .filter(|&n| n >= 1)
                .ok_or_else(|| format!("{what} needs a positive integer, not '{}'", printable(v)))
        };
        if s == "random" {
            return Ok(PlayerSpec::Random);
        }
        if s == "greedy" {
            return Ok(PlayerSpec::Greedy);
        }
        if let Some(v) = s.strip_prefix("level:") {
            let n = num(v, "level:")?;
            if !(crate::MIN_LEVEL as u64..=crate::MAX_LEVEL as u64).contains(&n) {
                return Err(format!(
                    "level must be {}..{}, not {n}",
                    crate::MIN_LEVEL,
                    crate::MAX_LEVEL
                ));
            }
            return Ok(PlayerSpec::Level(n as u8));
        }
        if let Some(v) = s.strip_prefix("time:") {
            let (ms, t) = match v.split_once(':') {
                Some((ms, t)) => (ms, Some(num(t, "time:MS:")?.min(64) as usize)),
                None => (v, None),
            };
            return Ok(PlayerSpec::Time(num(ms, "time:")?, t));
        }
        if let Some(v) = s.strip_prefix("depth:") {
            return Ok(PlayerSpec::Depth(num(v, "depth:")?.min(64) as u32));
        }
        if let Some(v) = s.strip_prefix("nodes:") {
            // nodes:N, or nodes:N:FILE for the engine with the weights in FILE (as written
            // by `bao tune`).
            let Some((n, path)) = v.split_once(':') else {
                return Ok(PlayerSpec::Nodes(num(v, "nodes:")?));
            };
            let n = num(n, "nodes:")?;
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read weights file '{}': {e}", printable(path)))?;
            let w = Weights::parse(&text, Weights::material_only())
                .map_err(|e| format!("weights file '{}': {e}", printable(path)))?;
            return Ok(PlayerSpec::Weighted(Box::new(w), n, path.to_string()));
        }
        if let Some(v) = s.strip_prefix("cmd:") {
            let words: Vec<String> = v.split_whitespace().map(String::from).collect();
            if words.is_empty() {
                return Err("cmd: needs a command, e.g. cmd:\"bao engine\"".into());
            }
            return Ok(PlayerSpec::Cmd(words));
        }
        Err(format!(
            "unknown player '{}' (random, greedy, level:N, depth:N, nodes:N, nodes:N:WEIGHTS_FILE, time:MS, time:MS:THREADS, cmd:\"COMMAND ARGS\")",
            printable(s)
        ))
    }
}

impl fmt::Display for PlayerSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerSpec::Random => f.write_str("random"),
            PlayerSpec::Greedy => f.write_str("greedy"),
            PlayerSpec::Level(n) => write!(f, "level:{n}"),
            PlayerSpec::Depth(n) => write!(f, "depth:{n}"),
            PlayerSpec::Nodes(n) => write!(f, "nodes:{n}"),
            PlayerSpec::Time(ms, None) => write!(f, "time:{ms}"),
            PlayerSpec::Time(ms, Some(t)) => write!(f, "time:{ms}:{t}"),
            PlayerSpec::Weighted(_, n, name) => write!(f, "nodes:{n}:{name}"),
            PlayerSpec::Cmd(w) => write!(f, "cmd:{}", w.join(" ")),
        }
    }
}

/// Why a player forfeited a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ForfeitReason {
    /// An external engine gave no answer within the match's reply timeout.
    Timeout,
    /// An external engine ended or closed its input or output.
    Crash,
    /// The move played is not legal (or not a move).
    IllegalMove,
    /// An external engine answered with an error or out of protocol.
    Protocol,
    /// The player's clock ran out (`bao match --tc`).
    Time,
}

impl ForfeitReason {
    /// The reason in words, as printed in the summary.
    pub fn as_str(self) -> &'static str {
        match self {
            ForfeitReason::Timeout => "timeout",
            ForfeitReason::Crash => "crash",
            ForfeitReason::IllegalMove => "illegal move",
            ForfeitReason::Protocol => "protocol error",
            ForfeitReason::Time => "time",
        }
    }
}

impl fmt::Display for ForfeitReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A forfeit: its reason and what happened, for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Forfeit {
    /// The reason.
    pub reason: ForfeitReason,
    /// What happened.
    pub detail: String,
}

impl Forfeit {
    fn new(reason: ForfeitReason, detail: impl Into<String>) -> Forfeit {
        Forfeit {
            reason,
            detail: detail.into(),
        }
    }
}

impl fmt::Display for Forfeit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.reason, self.detail)
    }
}

/// The clocks of a game played with a time control: time left per side (South, North) and
/// the increment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clocks {
    /// Time left, indexed by [`Side::index`].
    pub left: [Duration; 2],
    /// Added after each move.
    pub increment: Duration,
}

/// A time control `INITIAL+INC` in seconds, e.g. `10+0.1` (`bao match --tc`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time on each clock at the start.
    pub initial: Duration,
    /// Added to the mover's clock after each move.
    pub increment: Duration,
}

impl FromStr for TimeControl {
    type Err = String;
    fn from_str(s: &str) -> Result<TimeControl, String> {
        let secs = |v: &str| -> Option<Duration> {
            let x: f64 = v.trim().parse().ok()?;
            (x.is_finite() && (0.0..1e6).contains(&x)).then(|| Duration::from_secs_f64(x))
        };
        let (a, b) = s.split_once('+').unwrap_or((s, "0"));
        match (secs(a), secs(b)) {
            (Some(initial), Some(increment)) if !initial.is_zero() => {
                Ok(TimeControl { initial, increment })
            }
            _ => Err(format!(
                "time control '{}' is not INITIAL+INCREMENT in seconds, e.g. 10+0.1",
                printable(s)
            )),
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}+{}",
            self.initial.as_secs_f64(),
            self.increment.as_secs_f64()
        )
    }
}

impl Clocks {
    /// Both clocks at the start of a game.
    pub fn start(tc: TimeControl) -> Clocks {
        Clocks {
            left: [tc.initial; 2],
            increment: tc.increment,
        }
    }
    /// The clock of `side`, for the engine's time budget.
    pub fn clock(&self, side: Side) -> Clock {
        Clock::new(self.left[side.index()], self.increment)
    }
}

/// A player in a game.
pub trait Player {
    /// The move to play in the game's current position (not over), with `clocks` when the
    /// game is played on a clock. An error forfeits the game.
    fn choose(
        &mut self,
        game: &Game,
        seed: u64,
        clocks: Option<&Clocks>,
    ) -> Result<LegalMove, Forfeit>;
    /// A new game starts. An external engine is brought back in step here after a fault
    /// (or restarted when it ended); an error forfeits the game.
    fn new_game(&mut self) -> Result<(), Forfeit> {
        Ok(())
    }
    /// How far the search for the last move chosen went, for players that search and had a
    /// choice (a forced move is not a search worth counting).
    fn last_search(&self) -> Option<Searched> {
        None
    }
}

/// The searches of one player over games: how deep they went in the time or budget given.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchTally {
    /// Sum of their nodes.
    pub nodes: u64,
    /// Searches by completed depth (a search completes at most 64 plies; a deeper one would
    /// be counted at 64).
    pub by_depth: [u64; 65],
}

impl Default for SearchTally {
    fn default() -> SearchTally {
        SearchTally {
            nodes: 0,
            by_depth: [0; 65],
        }
    }
}

impl SearchTally {
    /// Counts one search.
    pub fn add(&mut self, s: Searched) {
        self.nodes += s.nodes;
        self.by_depth[(s.depth as usize).min(64)] += 1;
    }
    /// Adds another tally to this one.
    pub fn merge(&mut self, o: &SearchTally) {
        self.nodes += o.nodes;
        for (a, b) in self.by_depth.iter_mut().zip(&o.by_depth) {
            *a += b;
        }
    }
    /// Searches counted (moves chosen among two or more).
    pub fn searches(&self) -> u64 {
        self.by_depth.iter().sum()
    }
    /// Mean completed depth, `None` before any search.
    pub fn mean_depth(&self) -> Option<f64> {
        let sum: u64 = self
            .by_depth
            .iter()
            .enumerate()
            .map(|(d, n)| d as u64 * n)
            .sum();
        let n = self.searches();
        (n > 0).then(|| sum as f64 / n as f64)
    }
    /// Median completed depth (the lower middle), `None` before any search. Unlike the
    /// mean, a few endgame searches that run to great depths do not move it: compare two
    /// players' depths with this.
    ///
    /// ```
    /// use bao_engine::arena::SearchTally;
    /// use bao_engine::Searched;
    ///
    /// let mut t = SearchTally::default();
    /// for depth in [8, 9, 9, 40] {
    ///     t.add(Searched { depth, nodes: 1 });
    /// }
    /// assert_eq!(t.median_depth(), Some(9));
    /// assert_eq!(t.mean_depth(), Some(16.5));
    /// assert_eq!(t.searches(), 4);
    /// ```
    pub fn median_depth(&self) -> Option<u32> {
        let half = self.searches().checked_sub(1)? / 2;
        let mut seen = 0;
        for (d, n) in self.by_depth.iter().enumerate() {
            seen += n;
            if seen > half {
                return Some(d as u32);
            }
        }
        None
    }
    /// Mean nodes a search, `None` before any search.
    pub fn mean_nodes(&self) -> Option<f64> {
        let n = self.searches();
        (n > 0).then(|| self.nodes as f64 / n as f64)
    }
}

struct Builtin {
    spec: PlayerSpec,
    searcher: Option<(Searcher, Level)>,
    last: Option<Searched>,
}

impl Builtin {
    fn new(spec: PlayerSpec, rules: &Rules, threads: usize) -> Builtin {
        let searcher = match &spec {
            PlayerSpec::Level(n) => {
                let l = Level::get(*n);
                Some((l.searcher(rules), l))
            }
            PlayerSpec::Depth(d) => {
                let l = Level {
                    limits: Limits::depth(*d),
                    ..Level::get(crate::MAX_LEVEL)
                };
                Some((l.searcher(rules), l))
            }
            PlayerSpec::Nodes(n) => {
                let l = Level {
                    limits: Limits::nodes(*n),
                    ..Level::get(crate::MAX_LEVEL)
                };
                Some((l.searcher(rules), l))
            }
            PlayerSpec::Time(ms, _) => {
                let l = Level {
                    limits: Limits::time(*ms),
                    ..Level::get(crate::MAX_LEVEL)
                };
                Some((l.searcher(rules), l))
            }
            PlayerSpec::Weighted(w, n, _) => {
                let l = Level {
                    limits: Limits::nodes(*n),
                    tt_bits: 18,
                    ..Level::get(crate::MAX_LEVEL)
                };
                Some((Searcher::new(*rules, **w, l.tt_bits), l))
            }
            _ => None,
        };
        let mut searcher = searcher;
        if let Some((s, _)) = &mut searcher {
            s.set_threads(match spec {
                PlayerSpec::Time(_, Some(t)) => t,
                _ => threads,
            });
        }
        Builtin {
            spec,
            searcher,
            last: None,
        }
    }
}

impl Player for Builtin {
    fn choose(
        &mut self,
        game: &Game,
        seed: u64,
        clocks: Option<&Clocks>,
    ) -> Result<LegalMove, Forfeit> {
        let pos = game.position();
        let rules = game.rules();
        self.last = None;
        let m = match (&self.spec, &mut self.searcher) {
            (PlayerSpec::Random, _) => random_move(pos, rules, seed),
            (PlayerSpec::Greedy, _) => greedy_move(pos, rules, seed),
            (_, Some((s, l))) => {
                let p = game.positions();
                let mut limits = l.limits_for(rules.variant);
                if let Some(c) = clocks {
                    limits = c.clock(pos.side()).limit(limits);
                }
                let (m, searched) = l.choose_searched(s, pos, &p[..p.len() - 1], seed, limits);
                if count_legal_moves(pos, rules) > 1 {
                    self.last = Some(searched);
                }
                m
            }
            _ => None,
        };
        m.ok_or_else(|| Forfeit::new(ForfeitReason::IllegalMove, "no move chosen"))
    }
    fn new_game(&mut self) -> Result<(), Forfeit> {
        if let Some((s, _)) = &mut self.searcher {
            s.clear();
        }
        Ok(())
    }
    fn last_search(&self) -> Option<Searched> {
        self.last
    }
}

/// An external engine process, driven through the engine protocol.
pub struct External {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    go: String,
    timeout: Duration,
    name: String,
    words: Vec<String>,
    /// The last exchange failed: resynchronise (or restart) before the next game.
    faulted: bool,
}

/// A process, its input, and its output lines on a channel.
type Spawned = (Child, ChildStdin, Receiver<String>);

impl External {
    /// Starts `words` (program and arguments) and waits for `baook`.
    pub fn start(words: &[String], go: &str, timeout: Duration) -> Result<External, String> {
        let name = words.join(" ");
        let (child, stdin, lines) = Self::spawn(words, &name)?;
        let mut e = External {
            child,
            stdin,
            lines,
            go: go.to_string(),
            timeout,
            name,
            words: words.to_vec(),
            faulted: false,
        };
        e.handshake().map_err(|f| f.to_string())?;
        Ok(e)
    }

    fn handshake(&mut self) -> Result<(), Forfeit> {
        self.send("bao")?;
        self.wait_for(|l| l == "baook")?;
        Ok(())
    }

    fn spawn(words: &[String], name: &str) -> Result<Spawned, String> {
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", printable(name)))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok((child, stdin, rx))
    }

    fn send(&mut self, line: &str) -> Result<(), Forfeit> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| {
                self.faulted = true;
                Forfeit::new(
                    ForfeitReason::Crash,
                    format!("'{}' stopped reading: {e}", printable(&self.name)),
                )
            })
    }

    /// Reads lines until one satisfies `want`; `error` lines fail.
    fn wait_for(&mut self, want: impl Fn(&str) -> bool) -> Result<String, Forfeit> {
        self.wait_until(want, self.timeout)
    }

    fn wait_until(
        &mut self,
        want: impl Fn(&str) -> bool,
        timeout: Duration,
    ) -> Result<String, Forfeit> {
        let name = printable(&self.name);
        let r = loop {
            match self.lines.recv_timeout(timeout) {
                Ok(l) if want(l.trim()) => break Ok(l.trim().to_string()),
                Ok(l) if l.starts_with("error") => {
                    break Err(Forfeit::new(
                        ForfeitReason::Protocol,
                        format!("'{name}' said: {}", printable(&l)),
                    ))
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    break Err(Forfeit::new(
                        ForfeitReason::Timeout,
                        format!("'{name}' did not answer within {timeout:?}"),
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let how = match self.child.try_wait() {
                        Ok(Some(st)) => format!(" ({st})"),
                        _ => String::new(),
                    };
                    break Err(Forfeit::new(
                        ForfeitReason::Crash,
                        format!("'{name}' closed its output{how}"),
                    ));
                }
            }
        };
        if r.is_err() {
            self.faulted = true;
        }
        r
    }

    /// Brings the engine back in step after a fault: `stop`, then `isready` until
    /// `readyok`, dropping whatever the engine still had to say (a late `bestmove`, errors).
    /// An engine that ended, or does not answer, is restarted.
    fn resync(&mut self) -> Result<(), Forfeit> {
        let alive = matches!(self.child.try_wait(), Ok(None));
        if alive && self.send("stop").is_ok() && self.send("isready").is_ok() {
            let deadline = std::time::Instant::now() + self.timeout;
            loop {
                let left = deadline.saturating_duration_since(std::time::Instant::now());
                match self.lines.recv_timeout(left) {
                    Ok(l) if l.trim() == "readyok" => {
                        self.faulted = false;
                        return Ok(());
                    }
                    Ok(_) => {}
                    Err(_) => break,
                }
            }
        }
        self.restart()
    }

    fn restart(&mut self) -> Result<(), Forfeit> {
        self.kill();
        let (child, stdin, lines) = Self::spawn(&self.words, &self.name)
            .map_err(|e| Forfeit::new(ForfeitReason::Crash, e))?;
        self.child = child;
        self.stdin = stdin;
        self.lines = lines;
        self.handshake()?;
        self.faulted = false;
        Ok(())
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for External {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // Give it a moment to leave, then make sure it does.
        for _ in 0..50 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Player for External {
    fn choose(
        &mut self,
        game: &Game,
        seed: u64,
        clocks: Option<&Clocks>,
    ) -> Result<LegalMove, Forfeit> {
        if self.faulted {
            self.resync()?;
        }
        let rules = game.rules();
        self.send(&format!("variant {}", rules.variant.id()))?;
        self.send(&format!("rules {rules}"))?;
        let mut line = format!("position {} moves", game.start());
        for m in game.moves() {
            line.push(' ');
            line.push_str(&m.to_string());
        }
        if game.moves().is_empty() {
            line.truncate(line.len() - " moves".len());
        }
        self.send(&line)?;
        let go = match clocks {
            // The clocks replace the time limits of --go (KIS rules have no clock; NOT-6.2
            // Termination "time" records a loss on it).
            Some(c) => format!(
                "go {} wtime {} btime {} winc {} binc {}",
                self.go,
                c.left[Side::South.index()].as_millis(),
                c.left[Side::North.index()].as_millis(),
                c.increment.as_millis(),
                c.increment.as_millis()
            ),
            None => format!("go {}", self.go),
        };
        self.send(&format!("{} seed {}", go.trim_end(), seed % 1_000_000_007))?;
        // With a clock, waiting longer than the time left is pointless.
        let timeout = match clocks {
            Some(c) => self
                .timeout
                .min(c.left[game.side().index()] + Duration::from_secs(1)),
            None => self.timeout,
        };
        let l = self.wait_until(|l| l.starts_with("bestmove"), timeout)?;
        let mv = l.split_whitespace().nth(1).unwrap_or("none");
        find_move(game.position(), rules, mv).map_err(|e| {
            Forfeit::new(
                ForfeitReason::IllegalMove,
                format!("'{}' played {}: {e}", printable(&self.name), printable(mv)),
            )
        })
    }
    fn new_game(&mut self) -> Result<(), Forfeit> {
        if self.faulted {
            self.resync()?;
        }
        self.send("newgame")
    }
}

/// Makes a player from its spec; `go` is the `go` argument string for external engines,
/// `threads` the search threads of the built-in engine players.
pub fn make_player(
    spec: &PlayerSpec,
    rules: &Rules,
    go: &str,
    timeout: Duration,
    threads: usize,
) -> Result<Box<dyn Player>, String> {
    match spec {
        PlayerSpec::Cmd(words) => Ok(Box::new(External::start(words, go, timeout)?)),
        s => Ok(Box::new(Builtin::new(s.clone(), rules, threads))),
    }
}

/// Settings of a match.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The rules (and so the variant).
    pub rules: Rules,
    /// First player (scores are from its point of view).
    pub a: PlayerSpec,
    /// Second player.
    pub b: PlayerSpec,
    /// Number of games; rounded up to an even number (pairs).
    pub games: usize,
    /// Random plies of each paired opening.
    pub opening_plies: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// Seed of the openings and of the players' own randomness.
    pub seed: u64,
    /// A game still going after this many plies is adjudicated a draw.
    pub max_plies: u32,
    /// `go` arguments sent to external engines.
    pub go: String,
    /// How long to wait for an external engine's answer.
    pub timeout: Duration,
    /// Play on clocks with this time control; a player whose clock runs out forfeits.
    pub tc: Option<TimeControl>,
    /// Search threads of the built-in engine players (external ones: `threads N` in `go`).
    pub threads: usize,
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct GameResult {
    /// Game number, 0-based.
    pub index: usize,
    /// Whether the first player had South.
    pub a_south: bool,
    /// +1 first player won, 0 draw, -1 lost.
    pub score_a: i32,
    /// The record.
    pub record: Record,
    /// Why it ended, for people.
    pub why: String,
    /// The forfeit that ended it, with the side that forfeited.
    pub forfeit: Option<(Side, Forfeit)>,
    /// The searches of player a and of player b in this game (built-in engines only).
    pub searches: [SearchTally; 2],
}

/// The random opening of pair `pair`: `plies` random legal moves that neither end the game
/// nor leave the side to move a win at once.
pub fn opening(rules: &Rules, seed: u64, pair: usize, plies: usize) -> Vec<LegalMove> {
    let start = Position::start(rules);
    for attempt in 0..100u64 {
        let mut rng =
            Rng::new(seed ^ (pair as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ attempt << 56);
        let mut game = Game::new(start, *rules);
        let mut moves = Vec::new();
        for _ in 0..plies {
            let ms = game.legal_moves();
            if ms.is_empty() {
                break;
            }
            let m = ms.as_slice()[rng.below(ms.len())];
            game.play(&m);
            moves.push(m);
        }
        // The opening must leave a game to play: not over, and no win at once for the side
        // to move (which would decide the game before one player has chosen a move).
        let decided = game
            .legal_moves()
            .iter()
            .any(|m| m.outcome(rules).winner() == Some(m.mv.side()));
        if !game.outcome().is_over() && !decided {
            return moves;
        }
    }
    Vec::new()
}

/// Plays one game between `south` and `north` after the opening.
#[allow(clippy::too_many_arguments)]
pub fn play_game(
    cfg: &MatchConfig,
    index: usize,
    a: &mut dyn Player,
    b: &mut dyn Player,
    a_south: bool,
    open: &[LegalMove],
) -> GameResult {
    let rules = cfg.rules;
    let mut game = Game::new(Position::start(&rules), rules);
    for m in open {
        game.play(m);
    }
    let a_side = if a_south { Side::South } else { Side::North };
    let mut forfeit: Option<(Side, Forfeit)> = None;
    // Both players get ready (an engine that failed in the last game is resynchronised);
    // one that cannot forfeits this game, and the match goes on.
    if let Err(f) = a.new_game() {
        forfeit = Some((a_side, f));
    }
    if let Err(f) = b.new_game() {
        forfeit.get_or_insert((a_side.other(), f));
    }
    let mut clocks = cfg.tc.map(Clocks::start);
    let mut searches = [SearchTally::default(); 2];
    let mut n = 0u64;
    while forfeit.is_none()
        && !game.outcome().is_over()
        && (game.moves().len() as u32) < cfg.max_plies
    {
        let side = game.side();
        let a_moves = side == a_side;
        let seed = cfg.seed ^ (index as u64) << 20 ^ n;
        n += 1;
        let t0 = std::time::Instant::now();
        let r = if a_moves {
            a.choose(&game, seed, clocks.as_ref())
        } else {
            b.choose(&game, seed, clocks.as_ref())
        };
        let searched = if a_moves {
            a.last_search()
        } else {
            b.last_search()
        };
        if let Some(s) = searched {
            searches[usize::from(!a_moves)].add(s);
        }
        // The mover is charged the wall time from asking to answer.
        let used = t0.elapsed();
        let flagged = clocks.as_mut().and_then(|c| {
            let left = &mut c.left[side.index()];
            if used > *left {
                Some(Forfeit::new(
                    ForfeitReason::Time,
                    format!(
                        "used {} ms with {} ms left",
                        used.as_millis(),
                        left.as_millis()
                    ),
                ))
            } else {
                *left = *left - used + c.increment;
                None
            }
        });
        match (r, flagged) {
            (_, Some(f)) | (Err(f), None) => forfeit = Some((side, f)),
            (Ok(m), None) => game.play(&m),
        }
    }
    let (result, termination, why) = match (&forfeit, game.outcome()) {
        // NOT-6.2: a loss on time is "time"; any other forfeit (the engine crashed, hung,
        // broke the protocol or played an illegal move) ends the game "abandoned".
        (Some((side, f)), _) => (
            side.other().letter().to_string(),
            Some(
                if f.reason == ForfeitReason::Time {
                    "time"
                } else {
                    "abandoned"
                }
                .to_string(),
            ),
            format!("{} forfeits ({f})", side.name()),
        ),
        (None, Outcome::Ongoing) => (
            "draw".into(),
            Some("adjudication".to_string()),
            format!("drawn by adjudication after {} plies", cfg.max_plies),
        ),
        (None, o) => (o.token().to_string(), None, o.describe()),
    };
    let score_a = match result.as_str() {
        "draw" => 0,
        r if r == a_side.letter().to_string() => 1,
        _ => -1,
    };
    let (sn, nn) = if a_south {
        (cfg.a.to_string(), cfg.b.to_string())
    } else {
        (cfg.b.to_string(), cfg.a.to_string())
    };
    let mut record = Record::from_game(&game);
    record.south = sn;
    record.north = nn;
    record.date = today();
    record.result = RecordResult::from_token(&result).unwrap_or(RecordResult::Unfinished);
    record.termination = termination.as_deref().and_then(Termination::parse);
    record.set_tag("Event", "bao match");
    record.set_tag("Round", &(index + 1).to_string());
    GameResult {
        index,
        a_south,
        score_a,
        record,
        why,
        forfeit,
        searches,
    }
}

/// Runs a match: games are handed out to `concurrency` worker threads; `on_game` is called
/// on the calling thread for each finished game, in the order they finish. Returns the
/// tally from the first player's point of view.
pub fn run_match(
    cfg: &MatchConfig,
    mut on_game: impl FnMut(&GameResult, &Wdl),
) -> Result<Wdl, String> {
    let games = cfg.games.div_ceil(2) * 2;
    let next = Arc::new(AtomicUsize::new(0));
    let (tx, rx) = mpsc::channel::<Result<GameResult, String>>();
    let workers = cfg.concurrency.clamp(1, games.max(1));
    let mut handles = Vec::new();
    for _ in 0..workers {
        let cfg = cfg.clone();
        let next = next.clone();
        let tx = tx.clone();
        handles.push(std::thread::spawn(move || {
            let mk = |s: &PlayerSpec| {
                make_player(s, &cfg.rules, &cfg.go, cfg.timeout, cfg.threads.max(1))
            };
            let (mut a, mut b) = match (mk(&cfg.a), mk(&cfg.b)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(e), _) | (_, Err(e)) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            };
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= games {
                    break;
                }
                let open = opening(&cfg.rules, cfg.seed, i / 2, cfg.opening_plies);
                let r = play_game(&cfg, i, a.as_mut(), b.as_mut(), i.is_multiple_of(2), &open);
                if tx.send(Ok(r)).is_err() {
                    break;
                }
            }
        }));
    }
    drop(tx);
    let mut wdl = Wdl::default();
    let mut err = None;
    for r in rx {
        match r {
            Ok(g) => {
                match g.score_a {
                    1 => wdl.wins += 1,
                    0 => wdl.draws += 1,
                    _ => wdl.losses += 1,
                }
                on_game(&g, &wdl);
            }
            Err(e) => {
                // Stop handing out games; the workers finish the ones they hold.
                next.store(games, Ordering::Relaxed);
                err.get_or_insert(e);
            }
        }
    }
    for h in handles {
        let _ = h.join();
    }
    match err {
        Some(e) if wdl.games() == 0 => Err(e),
        Some(e) => Err(format!("{e} (after {} games)", wdl.games())),
        None => Ok(wdl),
    }
}
