//! Repetition by a fixed policy (BRD-7.5): walks from real games in which both
//! sides choose their move by a deterministic function of the position.
//!
//! A random walk through a huge graph almost never comes back, which is why the random and
//! quiet walks of `repetition_search` found nothing. A walk whose every move is a fixed
//! function of the position is different: the positions are finitely many, so a walk that
//! never ends the game must come back to a position it has seen, and from there it goes round
//! the same cycle for ever. Policies that keep the game going and move seeds in an orderly
//! way (sowing the top of a staircase, the way solitaire sowing games settle into cycles)
//! may come back soon.
//!
//! The roots are positions of random games from the start position once both hands are
//! empty, so every cycle found is reachable: the whole game (random moves, the policy's
//! moves, the cycle once more) is replayed through [`Game`] and must end in a repetition
//! draw, and is printed so that anyone can check it with `bao apply`.
//!
//! ```text
//! cargo run --release -p bao-research --bin repetition_policy -- kimasai - \
//!     --games 50 --policy top --walk 20000 --seed 1 [--quiet]
//! ```
//!
//! Policies, among the moves that keep the game going (a move that ends the game ends the
//! walk's hope of a cycle):
//! * `top`: a move whose first lap ends in an empty pit (a single lap, no relay, no capture),
//!   the largest such pit; otherwise the move that changes the seed balance least.
//! * `low`: as `top`, the smallest such pit.
//! * `balance`: the move after which the two sides' seed counts are closest (in kiswahili and
//!   kete, where captures are compulsory, the gentlest capture); ties in canonical order.
//! * `hash`: a move picked by a hash of the position (a random but fixed function).
//!
//! `--survive K`: only moves after which some line keeps the game going K plies more (a
//! depth-first look ahead), where there are such moves.
//!
//! `--feed T`: while North holds more than T seeds, South plays the move that leaves him the
//! most seeds (the biggest capture) instead: a ring that holds few seeds can go round as
//! staircases, one that holds many as one staircase (see docs/spec-notes.md).

use bao_rules::{Dir, Game, LegalMove, Move, Position, Rng, Rules, Side, Variant};
use std::collections::HashMap;

use bao_research::line;
use std::hash::{Hash, Hasher};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Policy {
    Top,
    Low,
    Balance,
    Hash,
}

struct Args {
    variant: Variant,
    rules: String,
    games: usize,
    policy: Policy,
    walk: usize,
    seed: u64,
    quiet: bool,
    every: u32,
    feed: i32,
    survive: u32,
}

fn usage() -> ! {
    eprintln!(
        "usage: repetition_policy VARIANT RULES [--games N] [--policy top|low|balance|hash] \
         [--walk L] [--seed S] [--every K] [--feed T] [--survive K] [--quiet]"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.len() < 2 {
        usage();
    }
    let mut a = Args {
        variant: Variant::from_id(&argv[0]).unwrap_or_else(|| usage()),
        rules: argv[1].clone(),
        games: 20,
        policy: Policy::Top,
        walk: 20_000,
        seed: 1,
        quiet: false,
        every: 0,
        feed: 0,
        survive: 0,
    };
    let mut it = argv[2..].iter();
    while let Some(flag) = it.next() {
        if flag == "--quiet" {
            a.quiet = true;
            continue;
        }
        let v = it.next().unwrap_or_else(|| usage());
        match flag.as_str() {
            "--games" => a.games = v.parse().unwrap_or_else(|_| usage()),
            "--walk" => a.walk = v.parse().unwrap_or_else(|_| usage()),
            "--seed" => a.seed = v.parse().unwrap_or_else(|_| usage()),
            "--every" => a.every = v.parse().unwrap_or_else(|_| usage()),
            "--feed" => a.feed = v.parse().unwrap_or_else(|_| usage()),
            "--survive" => a.survive = v.parse().unwrap_or_else(|_| usage()),
            "--policy" => {
                a.policy = match v.as_str() {
                    "top" => Policy::Top,
                    "low" => Policy::Low,
                    "balance" => Policy::Balance,
                    "hash" => Policy::Hash,
                    _ => usage(),
                }
            }
            _ => usage(),
        }
    }
    a
}

fn total(p: &Position, s: Side) -> i32 {
    p.ring(s).iter().map(|&x| i32::from(x)).sum()
}

/// The number of seeds in the lifted pit when the move is a single lap ending in a pit that
/// was empty: such a move never relays and never captures (KIM-7.1 rule 2; in kiswahili and
/// kete a takasa move of the same shape).
fn single_lap(p: &Position, m: &LegalMove) -> Option<u8> {
    let ring = p.ring(p.side());
    let i = m.mv.pit().index();
    let n = ring[i];
    if n == 0 || n >= 16 {
        return None;
    }
    // Kimasai moves have no letter and sow clockwise (KIM-3).
    let d: i32 = match m.mv.letter().map(|l| l.dir_from(m.mv.pit())) {
        Some(Dir::Ccw) => -1,
        _ => 1,
    };
    let end = (i as i32 + d * i32::from(n)).rem_euclid(16) as usize;
    (ring[end] == 0 && m.captured_pits() == 0).then_some(n)
}

fn imbalance(m: &LegalMove) -> i32 {
    (total(&m.next, Side::South) - total(&m.next, Side::North)).abs()
}

fn choose(p: &Position, moves: &[LegalMove], policy: Policy) -> LegalMove {
    match policy {
        Policy::Top | Policy::Low => {
            let single = moves
                .iter()
                .filter_map(|m| single_lap(p, m).map(|n| (n, m)))
                .max_by_key(|&(n, m)| {
                    let k = if policy == Policy::Top {
                        i32::from(n)
                    } else {
                        -i32::from(n)
                    };
                    (k, std::cmp::Reverse(m.mv.pit().index()))
                });
            match single {
                Some((_, m)) => *m,
                None => *moves.iter().min_by_key(|m| imbalance(m)).expect("moves"),
            }
        }
        Policy::Balance => *moves.iter().min_by_key(|m| imbalance(m)).expect("moves"),
        Policy::Hash => {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            p.with_ply(0).hash(&mut h);
            moves[(h.finish() % moves.len() as u64) as usize]
        }
    }
}

/// Whether some line keeps the game going `plies` more plies from `p` (depth first; the first
/// line found is enough, and one almost always is).
fn survives(p: &Position, rules: &Rules, plies: u32) -> bool {
    plies == 0
        || line::ongoing(p, rules)
            .iter()
            .any(|m| survives(&m.next, rules, plies - 1))
}

enum WalkEnd {
    /// Back at the position first seen after `at` moves of the walk: the cycle is the moves
    /// from there on.
    Cycle { at: usize },
    /// No move keeps the game going.
    Stuck,
    /// The walk reached its length without coming back.
    Long,
}

fn walk(
    root: Position,
    rules: &Rules,
    policy: Policy,
    feed: i32,
    survive: u32,
    len: usize,
) -> (Vec<Move>, WalkEnd) {
    let mut seen: HashMap<Position, usize> = HashMap::new();
    let mut path = Vec::new();
    let mut p = root;
    loop {
        if let Some(&at) = seen.get(&p.with_ply(0)) {
            return (path, WalkEnd::Cycle { at });
        }
        if path.len() >= len {
            return (path, WalkEnd::Long);
        }
        seen.insert(p.with_ply(0), path.len());
        let mut moves = line::ongoing(&p, rules);
        if survive > 0 {
            // Only moves after which the game can go on `survive` plies more: a policy
            // blind to the future ends kiswahili and kete games within a hundred plies.
            let lasting: Vec<LegalMove> = moves
                .iter()
                .filter(|m| survives(&m.next, rules, survive))
                .copied()
                .collect();
            if !lasting.is_empty() {
                moves = lasting;
            }
        }
        if moves.is_empty() {
            return (path, WalkEnd::Stuck);
        }
        // Feeding: while North holds more than `feed` seeds, South takes as many as he can.
        let m = if feed > 0 && p.side() == Side::South && total(&p, Side::North) > feed {
            *moves
                .iter()
                .max_by_key(|m| {
                    (
                        total(&m.next, Side::South),
                        std::cmp::Reverse(m.mv.pit().index()),
                    )
                })
                .expect("moves")
        } else {
            choose(&p, &moves, policy)
        };
        path.push(m.mv);
        p = m.next;
    }
}

fn main() {
    let args = parse_args();
    let rules = Rules::parse(args.variant, &args.rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let mut rng = Rng::new(args.seed);
    let (mut roots, mut cycles, mut stuck, mut long) = (0usize, 0usize, 0usize, 0usize);
    let mut walked = 0usize;
    let mut lengths: Vec<usize> = Vec::new();
    let mut best: Option<Vec<Move>> = None;
    for _ in 0..args.games {
        // A random game from the start; each position with both hands empty, every `every`
        // plies (0: only the first), is a root.
        let mut game = Game::new(Position::start(&rules), rules);
        let mut next_root: Option<u32> = None;
        while !game.outcome().is_over() && game.position().ply() < 3000 {
            let p = *game.position();
            let second = p.hand(Side::South) == 0 && p.hand(Side::North) == 0;
            if second && next_root.is_none_or(|n| args.every > 0 && p.ply() >= n) {
                next_root = Some(p.ply() + args.every.max(1));
                roots += 1;
                let (path, end) = walk(p, &rules, args.policy, args.feed, args.survive, args.walk);
                walked += path.len();
                match end {
                    WalkEnd::Stuck => stuck += 1,
                    WalkEnd::Long => long += 1,
                    WalkEnd::Cycle { at } => {
                        cycles += 1;
                        lengths.push(path.len() - at);
                        let mut line = game.moves().to_vec();
                        line.extend_from_slice(&path);
                        line.extend_from_slice(&path[at..]);
                        line::assert_draws_by_repetition(&rules, &line);
                        println!(
                            "cycle of {} plies, reached after {} moves of a random game and {} of the policy",
                            path.len() - at,
                            game.moves().len(),
                            at
                        );
                        if best.as_ref().is_none_or(|b| line.len() < b.len()) {
                            best = Some(line);
                        }
                    }
                }
                if args.every == 0 {
                    break;
                }
            }
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let pool: Vec<&LegalMove> = if args.quiet {
                let q: Vec<&LegalMove> = moves.iter().filter(|m| m.captured_pits() == 0).collect();
                if q.is_empty() {
                    moves.iter().collect()
                } else {
                    q
                }
            } else {
                moves.iter().collect()
            };
            let m = *pool[rng.below(pool.len())];
            game.play(&m);
        }
    }
    lengths.sort_unstable();
    println!(
        "{} {} policy {:?} roots {roots} cycles {cycles} stuck {stuck} long {long} plies walked {walked} \
         cycle lengths min {} median {} max {}",
        args.variant,
        if args.rules.is_empty() { "-" } else { &args.rules },
        args.policy,
        lengths.first().map_or("-".into(), |x| x.to_string()),
        lengths.get(lengths.len() / 2).map_or("-".into(), |x| x.to_string()),
        lengths.last().map_or("-".into(), |x| x.to_string()),
    );
    if let Some(line) = best {
        println!("shortest game drawn by repetition, {} moves:", line.len());
        println!("{}", line::text(&line));
    }
}
