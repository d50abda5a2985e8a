//! The match arena: two players (built-in levels, the random and greedy players, or any
//! external program that speaks the engine protocol) play paired games, in parallel.
//!
//! Paired openings: for each pair a random opening of a few plies is drawn from the seed,
//! and played twice with the sides swapped, so neither player profits from a lucky start.

use crate::level::{greedy_move, random_move, Level};
use crate::record::today;
use crate::search::{Limits, Searcher};
use crate::stats::Wdl;
use crate::Weights;
use bao_rules::{find_move, printable, Game, LegalMove, Outcome, Position, Rng, Rules, Side};
use bao_rules::{Record, RecordResult, Termination};
use std::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::Arc;
use std::time::Duration;

/// Who plays: parsed from `random`, `greedy`, `level:N`, `depth:N`, `nodes:N`,
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
            "unknown player '{}' (random, greedy, level:N, depth:N, nodes:N, nodes:N:WEIGHTS_FILE, cmd:\"COMMAND ARGS\")",
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
            PlayerSpec::Weighted(_, n, name) => write!(f, "nodes:{n}:{name}"),
            PlayerSpec::Cmd(w) => write!(f, "cmd:{}", w.join(" ")),
        }
    }
}

/// A player in a game.
pub trait Player {
    /// The move to play in the game's current position (not over). An error forfeits.
    fn choose(&mut self, game: &Game, seed: u64) -> Result<LegalMove, String>;
    /// A new game starts.
    fn new_game(&mut self) {}
}

struct Builtin {
    spec: PlayerSpec,
    searcher: Option<(Searcher, Level)>,
}

impl Builtin {
    fn new(spec: PlayerSpec, rules: &Rules) -> Builtin {
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
        Builtin { spec, searcher }
    }
}

impl Player for Builtin {
    fn choose(&mut self, game: &Game, seed: u64) -> Result<LegalMove, String> {
        let pos = game.position();
        let rules = game.rules();
        let m = match (&self.spec, &mut self.searcher) {
            (PlayerSpec::Random, _) => random_move(pos, rules, seed),
            (PlayerSpec::Greedy, _) => greedy_move(pos, rules, seed),
            (_, Some((s, l))) => {
                let p = game.positions();
                l.choose(s, pos, &p[..p.len() - 1], seed)
            }
            _ => None,
        };
        m.ok_or_else(|| "no legal move".to_string())
    }
    fn new_game(&mut self) {
        if let Some((s, _)) = &mut self.searcher {
            s.clear();
        }
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
}

impl External {
    /// Starts `words` (program and arguments) and waits for `baook`.
    pub fn start(words: &[String], go: &str, timeout: Duration) -> Result<External, String> {
        let name = words.join(" ");
        let mut child = Command::new(&words[0])
            .args(&words[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .map_err(|e| format!("cannot start '{}': {e}", printable(&name)))?;
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
        let mut e = External {
            child,
            stdin,
            lines: rx,
            go: go.to_string(),
            timeout,
            name,
        };
        e.send("bao")?;
        e.wait_for(|l| l == "baook")?;
        Ok(e)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("'{}' stopped reading: {e}", printable(&self.name)))
    }

    /// Reads lines until one satisfies `want`; `error` lines fail.
    fn wait_for(&mut self, want: impl Fn(&str) -> bool) -> Result<String, String> {
        loop {
            match self.lines.recv_timeout(self.timeout) {
                Ok(l) if want(l.trim()) => return Ok(l.trim().to_string()),
                Ok(l) if l.starts_with("error") => {
                    return Err(format!(
                        "'{}' said: {}",
                        printable(&self.name),
                        printable(&l)
                    ))
                }
                Ok(_) => {}
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!(
                        "'{}' did not answer within {:?}",
                        printable(&self.name),
                        self.timeout
                    ))
                }
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(format!("'{}' closed its output", printable(&self.name)))
                }
            }
        }
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
    fn choose(&mut self, game: &Game, seed: u64) -> Result<LegalMove, String> {
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
        self.send(&format!("go {} seed {}", self.go, seed % 1_000_000_007))?;
        let l = self.wait_for(|l| l.starts_with("bestmove"))?;
        let mv = l.split_whitespace().nth(1).unwrap_or("none");
        find_move(game.position(), rules, mv)
            .map_err(|e| format!("'{}' played {}: {e}", printable(&self.name), printable(mv)))
    }
    fn new_game(&mut self) {
        let _ = self.send("newgame");
    }
}

/// Makes a player from its spec; `go` is the `go` argument string for external engines.
pub fn make_player(
    spec: &PlayerSpec,
    rules: &Rules,
    go: &str,
    timeout: Duration,
) -> Result<Box<dyn Player>, String> {
    match spec {
        PlayerSpec::Cmd(words) => Ok(Box::new(External::start(words, go, timeout)?)),
        s => Ok(Box::new(Builtin::new(s.clone(), rules))),
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
    a.new_game();
    b.new_game();
    for m in open {
        game.play(m);
    }
    let mut forfeit: Option<(Side, String)> = None;
    let mut n = 0u64;
    while !game.outcome().is_over() && (game.moves().len() as u32) < cfg.max_plies {
        let side = game.side();
        let a_moves = (side == Side::South) == a_south;
        let seed = cfg.seed ^ (index as u64) << 20 ^ n;
        n += 1;
        let r = if a_moves {
            a.choose(&game, seed)
        } else {
            b.choose(&game, seed)
        };
        match r {
            Ok(m) => game.play(&m),
            Err(e) => {
                forfeit = Some((side, e));
                break;
            }
        }
    }
    let (result, termination, why) = match (&forfeit, game.outcome()) {
        (Some((side, e)), _) => (
            side.other().letter().to_string(),
            Some("adjudication".to_string()),
            format!("{} forfeits: {e}", side.name()),
        ),
        (None, Outcome::Ongoing) => (
            "draw".into(),
            Some("adjudication".to_string()),
            format!("drawn by adjudication after {} plies", cfg.max_plies),
        ),
        (None, o) => (o.token().to_string(), None, o.describe()),
    };
    let a_side = if a_south { Side::South } else { Side::North };
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
            let mk = |s: &PlayerSpec| make_player(s, &cfg.rules, &cfg.go, cfg.timeout);
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
