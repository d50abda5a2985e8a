//! The engine protocol: a line-based protocol on standard input and output, in the spirit of
//! UCI and GTP, for the three Bao games. Specified in docs/engine-protocol.md.
//!
//! The searches run on their own thread, so `stop`, `isready` and `quit` are answered while
//! a search runs. Bad input gets one `error <category>: <detail>` line and never ends the
//! session.

use crate::clock::Clock;
use crate::level::Level;
use crate::search::{Info, Limits, Searcher};
use crate::Weights;
use bao_rules::{printable, Game, Position, Rules, Side, Variant};
use std::io::{BufRead, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The protocol's name, sent in the `id` line.
pub const ENGINE_NAME: &str = concat!("bao-engine ", env!("CARGO_PKG_VERSION"));

/// Shared output: whole lines, flushed at once, from the main and the search threads.
#[derive(Clone)]
pub struct Out(Arc<Mutex<Box<dyn Write + Send>>>);

impl Out {
    /// Wraps a writer.
    pub fn new(w: Box<dyn Write + Send>) -> Out {
        Out(Arc::new(Mutex::new(w)))
    }
    /// Writes one line and flushes; a closed output is ignored (the driver went away).
    pub fn line(&self, s: &str) {
        let mut w = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let _ = writeln!(w, "{s}");
        let _ = w.flush();
    }
}

/// The `info` line of a completed iteration.
pub fn info_line(i: &Info) -> String {
    let mut s = format!(
        "info depth {} seldepth {} score {} nodes {} nps {} time {}",
        i.depth,
        i.seldepth,
        i.score,
        i.nodes,
        i.nps(),
        i.time.as_millis()
    );
    if !i.pv.is_empty() {
        s.push_str(" pv");
        for m in &i.pv {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

struct Running {
    stop: Arc<AtomicBool>,
    /// Set by the search thread just before it writes `bestmove`: from then on the session
    /// is ready for the next command (the join only waits for that last line).
    done: Arc<AtomicBool>,
    handle: JoinHandle<Searcher>,
    /// The searcher is the session's main one (not a level's), kept for the next search.
    keep: bool,
    infinite: bool,
}

/// A protocol session.
pub struct Session {
    out: Out,
    rules: Rules,
    game: Game,
    searcher: Option<Searcher>,
    running: Option<Running>,
    tt_bits: u32,
}

/// Parsed `go` arguments.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Go {
    limits: Limits,
    level: Option<u8>,
    infinite: bool,
    seed: u64,
    /// Search threads; 0: not given (one).
    threads: usize,
    /// Clock times left in milliseconds, South (`wtime`, the side that moves first) and
    /// North (`btime`), then the increments and the moves to go.
    time: [Option<u64>; 2],
    inc: [u64; 2],
    moves_to_go: Option<u32>,
}

impl Go {
    /// The clock of `side`, when the driver gave its time.
    fn clock(&self, side: Side) -> Option<Clock> {
        let i = side.index();
        self.time[i].map(|t| Clock {
            remaining: Duration::from_millis(t),
            increment: Duration::from_millis(self.inc[i]),
            moves_to_go: self.moves_to_go,
        })
    }
}

/// The most threads `go threads N` accepts.
const MAX_THREADS: u64 = 64;

fn parse_go(args: &[&str]) -> Result<Go, String> {
    let mut g = Go::default();
    let mut i = 0;
    while i < args.len() {
        let key = args[i];
        if key == "infinite" {
            g.infinite = true;
            i += 1;
            continue;
        }
        let val = args
            .get(i + 1)
            .ok_or_else(|| format!("'go {key}' needs a number"))?;
        let n: u64 = val
            .parse()
            .ok()
            // Times and increments may be 0 (a clock that ran out, no increment).
            .filter(|&n| n >= 1 || matches!(key, "seed" | "wtime" | "btime" | "winc" | "binc"))
            .ok_or_else(|| {
                format!(
                    "'{}' after '{key}' is not a positive integer",
                    printable(val)
                )
            })?;
        match key {
            "depth" => g.limits.depth = Some(n.min(64) as u32),
            "nodes" => g.limits.nodes = Some(n),
            "movetime" => g.limits.time = Some(Duration::from_millis(n)),
            "level" => {
                if !(crate::MIN_LEVEL as u64..=crate::MAX_LEVEL as u64).contains(&n) {
                    return Err(format!(
                        "level must be {}..{}, not {n}",
                        crate::MIN_LEVEL,
                        crate::MAX_LEVEL
                    ));
                }
                g.level = Some(n as u8);
            }
            "seed" => g.seed = n,
            "threads" => {
                if n > MAX_THREADS {
                    return Err(format!("threads must be 1..{MAX_THREADS}, not {n}"));
                }
                g.threads = n as usize;
            }
            "wtime" => g.time[Side::South.index()] = Some(n),
            "btime" => g.time[Side::North.index()] = Some(n),
            "winc" => g.inc[Side::South.index()] = n,
            "binc" => g.inc[Side::North.index()] = n,
            "movestogo" => g.moves_to_go = Some(n.min(u32::MAX as u64) as u32),
            _ => {
                return Err(format!(
                    "unknown go parameter '{}' (depth, nodes, movetime, wtime, btime, winc, binc, movestogo, level, threads, seed, infinite)",
                    printable(key)
                ))
            }
        }
        i += 2;
    }
    Ok(g)
}

impl Session {
    /// A session writing to `out`, set to the kiswahili start position with default rules.
    pub fn new(out: Out) -> Session {
        let rules = Rules::new(Variant::Kiswahili);
        Session {
            out,
            rules,
            game: Game::new(Position::start(&rules), rules),
            searcher: None,
            running: None,
            tt_bits: 20,
        }
    }

    fn error(&self, category: &str, detail: &str) {
        self.out.line(&format!("error {category}: {detail}"));
    }

    fn searching(&mut self) -> bool {
        if let Some(r) = &self.running {
            if r.done.load(Ordering::Acquire) || r.handle.is_finished() {
                self.join();
                return false;
            }
            return true;
        }
        false
    }

    fn join(&mut self) {
        if let Some(r) = self.running.take() {
            match r.handle.join() {
                Ok(s) if r.keep => self.searcher = Some(s),
                Ok(_) => {}
                Err(_) => self.error("internal", "the search failed"),
            }
        }
    }

    fn stop(&mut self) {
        if let Some(r) = &self.running {
            r.stop.store(true, Ordering::Relaxed);
        }
        self.join();
    }

    /// Handles one input line; returns false after `quit`.
    pub fn handle(&mut self, line: &str) -> bool {
        let tokens: Vec<&str> = line.split_whitespace().collect();
        let Some(&cmd) = tokens.first() else {
            return true;
        };
        let args = &tokens[1..];
        match cmd {
            "quit" => {
                self.stop();
                return false;
            }
            "stop" => self.stop(),
            "isready" => self.out.line("readyok"),
            _ if self.searching() => self.error(
                "busy",
                &format!("a search is running; send stop before '{}'", printable(cmd)),
            ),
            "bao" => {
                self.out.line(&format!("id name {ENGINE_NAME}"));
                self.out.line("id author the bao project");
                self.out.line("variants kiswahili kete kimasai");
                self.out.line(&format!("levels {} {}", crate::MIN_LEVEL, crate::MAX_LEVEL));
                self.out.line("baook");
            }
            "newgame" => {
                if let Some(s) = &mut self.searcher {
                    s.clear();
                }
            }
            "variant" => match args {
                [v] => match Variant::from_id(v) {
                    Some(v) => self.set_rules(Rules::new(v)),
                    None => self.error(
                        "usage",
                        &format!("unknown variant '{}' (kiswahili, kete, kimasai)", printable(v)),
                    ),
                },
                _ => self.error("usage", "variant takes one name: kiswahili, kete or kimasai"),
            },
            "rules" => match args {
                [r] => match Rules::parse(self.rules.variant, r) {
                    Ok(r) => self.set_rules(r),
                    Err(e) => self.error("bad_rules", &e.to_string()),
                },
                _ => self.error("usage", "rules takes one option string, e.g. rules takasia=false,max_plies=300 (or -)"),
            },
            "position" => self.position(args),
            "print" => {
                self.out.line(&format!("position {}", self.game.position()));
                self.out.line(&format!("result {}", self.game.outcome().token()));
            }
            "go" => match parse_go(args) {
                Ok(g) => self.go(g),
                Err(e) => self.error("usage", &e),
            },
            _ => self.error(
                "usage",
                &format!(
                    "unknown command '{}' (bao, isready, variant, rules, position, go, stop, newgame, print, quit)",
                    printable(cmd)
                ),
            ),
        }
        true
    }

    fn set_rules(&mut self, rules: Rules) {
        self.rules = rules;
        self.game = Game::new(Position::start(&rules), rules);
        self.searcher = None;
    }

    fn position(&mut self, args: &[&str]) {
        let split = args
            .iter()
            .position(|&a| a == "moves")
            .unwrap_or(args.len());
        let (pos_args, moves) = (&args[..split], args.get(split + 1..).unwrap_or(&[]));
        let start = match pos_args {
            [] => {
                return self.error(
                    "usage",
                    "position needs startpos, a variant name or a full position",
                )
            }
            ["startpos"] => Position::start(&self.rules),
            _ => match Position::parse(&pos_args.join(" "), &self.rules) {
                Ok(p) => p,
                Err(e) => return self.error("bad_position", &e.to_string()),
            },
        };
        let mut game = Game::new(start, self.rules);
        for (n, m) in moves.iter().enumerate() {
            if let Err(e) = game.play_text(m) {
                return self.error(e.category(), &format!("move {} {e}", n + 1));
            }
        }
        self.game = game;
    }

    fn go(&mut self, g: Go) {
        let pos = *self.game.position();
        if self.game.outcome().is_over() {
            self.out.line(&format!(
                "info string game over: {}",
                self.game.outcome().describe()
            ));
            self.out.line("bestmove none");
            return;
        }
        let history: Vec<Position> = {
            let p = self.game.positions();
            p[..p.len() - 1].to_vec()
        };
        let level = g.level.map(Level::get);
        let mut searcher = match level {
            Some(l) => l.searcher(&self.rules),
            None => self.searcher.take().unwrap_or_else(|| {
                Searcher::new(
                    self.rules,
                    Weights::for_variant(self.rules.variant),
                    self.tt_bits,
                )
            }),
        };
        let stop = searcher.stop_flag();
        stop.store(false, Ordering::Relaxed);
        let out = self.out.clone();
        searcher.set_threads(g.threads.max(1));
        let clock = g.clock(pos.side()).filter(|_| !g.infinite);
        let limits = match (level, g.infinite) {
            (Some(l), false) if g.limits == Limits::default() => l.limits_for(self.rules.variant),
            // With a clock and no other limit, the clock alone decides.
            (None, false) if g.limits == Limits::default() && clock.is_none() => {
                Level::get(crate::MAX_LEVEL).limits_for(self.rules.variant)
            }
            _ => g.limits,
        };
        let limits = match clock {
            Some(c) => c.limit(limits),
            None => limits,
        };
        let seed = g.seed;
        let done = Arc::new(AtomicBool::new(false));
        let done_thread = done.clone();
        let handle = std::thread::spawn(move || {
            searcher.set_history(&history);
            let best = match level {
                Some(l) if l.noise > 0 => l
                    .choose_with(&mut searcher, &pos, &history, seed, limits)
                    .map(|m| m.mv),
                _ => {
                    let r = searcher.search_root(&pos, limits, &mut |i| out.line(&info_line(i)));
                    r.best.map(|m| m.mv)
                }
            };
            // The driver may send its next command as soon as it reads `bestmove`: mark the
            // search done first, so that command is never answered `busy`
            // (docs/engine-protocol.md, "Conventions").
            done_thread.store(true, Ordering::Release);
            match best {
                Some(m) => out.line(&format!("bestmove {m}")),
                None => out.line("bestmove none"),
            }
            searcher
        });
        // A level's searcher is not kept: the main searcher stays for plain searches.
        self.running = Some(Running {
            stop,
            done,
            handle,
            keep: level.is_none(),
            infinite: g.infinite,
        });
    }

    /// The end of the input: an infinite search is stopped, any other one finishes.
    pub fn finish(&mut self) {
        if self.running.as_ref().is_some_and(|r| r.infinite) {
            self.stop();
        }
        self.join();
    }
}

/// Runs a session over `input` until `quit` or the end of the input (which waits for a
/// running search to finish, and stops an infinite one).
pub fn run(input: impl BufRead, out: Out) {
    let mut s = Session::new(out);
    for line in input.lines() {
        let Ok(line) = line else { break };
        if !s.handle(&line) {
            return;
        }
    }
    s.finish();
}
