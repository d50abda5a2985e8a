//! Bounded search for threefold repetition (BRD-7.5).
//!
//! Positions can repeat only once both hands are empty (BRD-7.5, informative), so the roots of
//! the search are mtaji / phase-2 positions taken from random games. From each root the game
//! graph is explored breadth first, up to a depth and a node budget, with positions compared
//! as the repetition rule compares them (everything but the ply, NOT-3.6). A cycle in the
//! explored graph is a sequence of legal moves that returns to the same position with the
//! same side to move and the same flags; played twice it draws by repetition. Every cycle
//! found is replayed through [`Game`] from the start position and must end in a repetition
//! draw there, so what is printed is a complete game that anyone can check with `bao apply`.
//!
//! Run (one core, a few minutes at most):
//!
//! ```text
//! cargo run --release -p bao-research --bin repetition_search -- kimasai - \
//!     --games 40 --every 6 --depth 10 --nodes 100000 --seed 1 [--quiet]
//! ```
//!
//! `--quiet` makes the random games that produce the roots prefer moves that capture
//! nothing (where the rules leave a choice), which keeps more seeds on both sides.
//! scripts/repetition-search.sh (in this crate) runs the set of searches reported in
//! docs/spec-notes.md and notes/repetition.md.
//!
//! `--piles A` (kiswahili, kete) takes constructed roots instead of random games: a pile of 16
//! or more seeds in a back pit of each side and A seeds elsewhere (`constructed_root`);
//! `--symmetric` takes roots whose two rings are the same 32 seeds. Every search also looks for
//! cycles at half their length, from a position to its mirror image (`half_cycle`).
//! `--exchange` takes roots built so that both sides have a capture move, North's preferably
//! taking back from where South's captured seeds enter (`exchange_root`).

use bao_rules::{
    legal_moves, status, DrawReason, Game, LegalMove, Move, Outcome, Position, Rng, Rules, Side,
    Variant,
};
use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use bao_research::line;

struct Args {
    variant: Variant,
    rules: String,
    games: usize,
    every: u32,
    depth: u32,
    nodes: usize,
    seed: u64,
    quiet: bool,
    walk: u32,
    max_ply: u32,
    piles: u32,
    symmetric: bool,
    exchange: bool,
}

fn usage() -> ! {
    eprintln!(
        "usage: repetition_search VARIANT RULES [--games N] [--every K] [--depth D] \
         [--nodes M] [--seed S] [--max-ply P] [--walk L] [--quiet] [--piles A] [--symmetric] [--exchange]"
    );
    std::process::exit(2)
}

fn parse_args() -> Args {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.len() < 2 {
        usage();
    }
    let variant = Variant::from_id(&argv[0]).unwrap_or_else(|| usage());
    let mut a = Args {
        variant,
        rules: argv[1].clone(),
        games: 20,
        every: 8,
        depth: 8,
        nodes: 50_000,
        seed: 1,
        quiet: false,
        max_ply: 600,
        walk: 0,
        piles: 0,
        symmetric: false,
        exchange: false,
    };
    let mut it = argv[2..].iter();
    while let Some(flag) = it.next() {
        if flag == "--quiet" {
            a.quiet = true;
            continue;
        }
        if flag == "--symmetric" {
            a.symmetric = true;
            continue;
        }
        if flag == "--exchange" {
            a.exchange = true;
            continue;
        }
        let value = it.next().unwrap_or_else(|| usage());
        let n: u64 = value.parse().unwrap_or_else(|_| usage());
        match flag.as_str() {
            "--games" => a.games = n as usize,
            "--every" => a.every = n.max(1) as u32,
            "--depth" => a.depth = n as u32,
            "--nodes" => a.nodes = n as usize,
            "--seed" => a.seed = n,
            "--max-ply" => a.max_ply = n as u32,
            "--walk" => a.walk = n as u32,
            "--piles" => a.piles = n as u32,
            _ => usage(),
        }
    }
    a
}

/// Both hands empty: the only positions that can repeat.
fn second_stage(p: &Position) -> bool {
    p.hand(Side::South) == 0 && p.hand(Side::North) == 0
}

/// The moves that keep the game going: never-ending moves end it (BRD-7.4) and a move whose
/// result is decided cannot be part of a cycle.
fn ongoing_moves(p: &Position, rules: &Rules) -> Vec<LegalMove> {
    if p.front_row_empty(p.side()) || p.front_row_empty(p.side().other()) {
        return Vec::new();
    }
    legal_moves(p, rules)
        .iter()
        .filter(|m| !m.is_never_ending())
        .copied()
        .collect()
}

/// A random game from the start.
struct RootGame {
    /// The moves played.
    played: Vec<Move>,
    /// Positions of the second stage every `every` plies, with the number of moves before.
    roots: Vec<(usize, Position)>,
    outcome: Outcome,
    /// The first position that occurred a second time: the move numbers of its two
    /// occurrences. The moves between them form a cycle.
    twice: Option<(usize, usize)>,
}

fn root_game(rules: &Rules, rng: &mut Rng, args: &Args) -> RootGame {
    let mut game = Game::new(Position::start(rules), *rules);
    let mut roots = Vec::new();
    let mut next_root: Option<u32> = None;
    let mut seen: HashMap<Position, usize> = HashMap::new();
    let mut twice = None;
    while !game.outcome().is_over() && game.position().ply() < args.max_ply {
        let p = *game.position();
        if second_stage(&p) {
            let at = game.moves().len();
            if let Some(&before) = seen.get(&p.with_ply(0)) {
                twice.get_or_insert((before, at));
            } else {
                seen.insert(p.with_ply(0), at);
            }
            let next = next_root.get_or_insert(p.ply());
            if p.ply() >= *next {
                roots.push((game.moves().len(), p));
                *next = p.ply() + args.every;
            }
        }
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        let pool: Vec<&LegalMove> = if args.quiet {
            let quiet: Vec<&LegalMove> = moves.iter().filter(|m| m.captured_pits() == 0).collect();
            if quiet.is_empty() {
                moves.iter().collect()
            } else {
                quiet
            }
        } else {
            moves.iter().collect()
        };
        let m = *pool[rng.below(pool.len())];
        game.play(&m);
    }
    RootGame {
        played: game.moves().to_vec(),
        roots,
        outcome: game.outcome(),
        twice,
    }
}

/// A quiet move. Kiswahili and kete (captures compulsory, KIS-3.2): the opponent has no
/// capture after it. Kimasai (captures optional, KIM-6.2): it captures nothing itself.
fn leaves_no_capture(m: &LegalMove, rules: &Rules) -> bool {
    if rules.variant == Variant::Kimasai {
        return m.captured_pits() == 0;
    }
    legal_moves(&m.next, rules)
        .iter()
        .all(|r| r.captured_pits() == 0 && r.mv.is_takasa())
}

/// The moves from a root to a cycle's first position, and the cycle.
type WayAndCycle = (Vec<Move>, Vec<Move>);

/// A random walk of up to `len` plies from `root` through quiet positions only: each move
/// must leave the opponent without a capture. In a finite graph a walk that never gets
/// stuck must come back to a position it has seen; returns the cycle (the moves between
/// the two occurrences and the way to it) if it does, and the plies walked.
fn quiet_walk(
    root: Position,
    rules: &Rules,
    rng: &mut Rng,
    len: u32,
) -> (u32, Option<WayAndCycle>) {
    let mut seen: HashMap<Position, usize> = HashMap::new();
    let mut path: Vec<Move> = Vec::new();
    let mut p = root;
    for step in 0..len {
        if let Some(&at) = seen.get(&p.with_ply(0)) {
            return (step, Some((path[..at].to_vec(), path[at..].to_vec())));
        }
        seen.insert(p.with_ply(0), path.len());
        let quiet: Vec<LegalMove> = ongoing_moves(&p, rules)
            .into_iter()
            .filter(|m| m.outcome(rules) == Outcome::Ongoing && leaves_no_capture(m, rules))
            .collect();
        if quiet.is_empty() {
            return (step, None);
        }
        let m = quiet[rng.below(quiet.len())];
        path.push(m.mv);
        p = m.next;
    }
    (len, None)
}

/// The explored part of the game graph from one root.
struct Graph {
    nodes: Vec<Position>,
    parent: Vec<Option<(u32, Move)>>,
    edges: Vec<Vec<(u32, Move)>>,
    /// Depth reached with every node expanded.
    full_depth: u32,
}

fn explore(root: Position, rules: &Rules, depth: u32, budget: usize) -> Graph {
    let key = |p: &Position| p.with_ply(0);
    let mut index: HashMap<Position, u32> = HashMap::new();
    let mut g = Graph {
        nodes: vec![root],
        parent: vec![None],
        edges: vec![Vec::new()],
        full_depth: 0,
    };
    index.insert(key(&root), 0);
    let mut queue = VecDeque::from([(0u32, 0u32)]);
    let mut complete = true;
    while let Some((u, d)) = queue.pop_front() {
        if d >= depth {
            continue;
        }
        if g.nodes.len() >= budget {
            complete = false;
            g.full_depth = d;
            break;
        }
        let here = g.nodes[u as usize];
        for m in ongoing_moves(&here, rules) {
            let k = key(&m.next);
            let v = match index.get(&k) {
                Some(&v) => v,
                None => {
                    let v = g.nodes.len() as u32;
                    index.insert(k, v);
                    g.nodes.push(m.next);
                    g.parent.push(Some((u, m.mv)));
                    g.edges.push(Vec::new());
                    queue.push_back((v, d + 1));
                    v
                }
            };
            g.edges[u as usize].push((v, m.mv));
        }
    }
    if complete {
        g.full_depth = depth;
    }
    g
}

/// The shortest cycle of the explored graph, as (first node, moves), if there is one.
fn shortest_cycle(g: &Graph) -> Option<(u32, Vec<Move>)> {
    // Peel nodes without a way on: what stays lies on a cycle or leads into one.
    let n = g.nodes.len();
    let mut outdeg: Vec<usize> = g.edges.iter().map(|e| e.len()).collect();
    let mut preds: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (u, es) in g.edges.iter().enumerate() {
        for &(v, _) in es {
            preds[v as usize].push(u as u32);
        }
    }
    let mut alive = vec![true; n];
    let mut stack: Vec<u32> = (0..n as u32).filter(|&u| outdeg[u as usize] == 0).collect();
    while let Some(v) = stack.pop() {
        if !alive[v as usize] {
            continue;
        }
        alive[v as usize] = false;
        for &u in &preds[v as usize] {
            if alive[u as usize] {
                outdeg[u as usize] -= 1;
                if outdeg[u as usize] == 0 {
                    stack.push(u);
                }
            }
        }
    }
    let left: Vec<u32> = (0..n as u32).filter(|&u| alive[u as usize]).collect();
    let mut best: Option<(u32, Vec<Move>)> = None;
    for &s in left.iter().take(2000) {
        // Breadth first from s back to s, inside the live part.
        let mut from: HashMap<u32, (u32, Move)> = HashMap::new();
        let mut queue = VecDeque::from([(s, 0usize)]);
        let mut found: Option<(u32, Move)> = None;
        'bfs: while let Some((u, d)) = queue.pop_front() {
            if best.as_ref().is_some_and(|b| d + 1 >= b.1.len()) {
                break;
            }
            for &(v, mv) in &g.edges[u as usize] {
                if !alive[v as usize] {
                    continue;
                }
                if v == s {
                    found = Some((u, mv));
                    break 'bfs;
                }
                if let std::collections::hash_map::Entry::Vacant(e) = from.entry(v) {
                    e.insert((u, mv));
                    queue.push_back((v, d + 1));
                }
            }
        }
        if let Some((mut u, mv)) = found {
            let mut moves = vec![mv];
            while u != s {
                let (p, m) = from[&u];
                moves.push(m);
                u = p;
            }
            moves.reverse();
            best = Some((s, moves));
        }
    }
    best
}

/// CPU time of this process (Linux `/proc`), which unlike wall time does not depend on
/// what else the shared machine is doing.
fn cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which ends with ')'): utime is the 12th.
    let rest = stat.rsplit_once(')')?.1;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse().ok()?;
    Some(ticks / 100.0)
}

/// A constructed mtaji root (kiswahili, kete): each side keeps most of its seeds in one pile
/// of 16 or more in a back pit, which is never a capture move (KIS-5.2, 16-seed rule) and need
/// never be played, and `active` seeds lie at random in the other 30 pits. Both hands empty, no
/// house, South to move. In a cycle without captures every pit of a ring is sown into (see
/// notes/repetition.md), so a pile that stays put needs captures in the cycle: this is where
/// to look for them.
fn constructed_root(
    rules: &Rules,
    rng: &mut Rng,
    active: u32,
    symmetric: bool,
) -> Option<Position> {
    let mut rings = [[0u8; 16]; 2];
    if symmetric {
        // Both rings the same (32 seeds each, at random): the position is its own mirror
        // but for the side to move, so a line to any mirror-symmetric position closes a
        // cycle at half its length (see `half_cycle`).
        for _ in 0..32 {
            rings[0][rng.below(16)] += 1;
        }
        rings[1] = rings[0];
        return finish_root(rules, &rings);
    }
    let rest = 64 - active;
    let south_pile = 16 + rng.below((rest - 31) as usize) as u32;
    let piles = [south_pile, rest - south_pile];
    let mut pile_pit = [0usize; 2];
    for s in 0..2 {
        pile_pit[s] = 8 + rng.below(8);
        rings[s][pile_pit[s]] = piles[s] as u8;
    }
    for _ in 0..active {
        loop {
            let s = rng.below(2);
            // front pits twice as likely as back pits: captures happen there
            let i = if rng.below(3) < 2 {
                rng.below(8)
            } else {
                8 + rng.below(8)
            };
            if i != pile_pit[s] {
                rings[s][i] += 1;
                break;
            }
        }
    }
    finish_root(rules, &rings)
}

/// A constructed mtaji root (kiswahili, kete) built for an exchange of captures: South has a
/// capture move (a pile of 2 to 15 seeds whose first lap ends on an occupied front pit facing
/// an occupied pit of North, KIS-5.2), and North has one that takes from South's front row,
/// preferably from the kichwa side where South's captured seeds enter (KIS-6.5). The other
/// seeds lie at random, front pits twice as likely as back pits, sometimes with a large back
/// pile on one side. A cycle with captures needs each capture to be answered by one that takes
/// the seeds back: this is where such answers are most likely.
fn exchange_root(rules: &Rules, rng: &mut Rng) -> Option<Position> {
    let mut rings = [[0u8; 16]; 2];
    let mut left = 64i32;
    fn put(rings: &mut [[u8; 16]; 2], left: &mut i32, s: usize, i: usize, n: i32) -> Option<()> {
        if n > *left {
            return None;
        }
        rings[s][i] += n as u8;
        *left -= n;
        Some(())
    }
    for s in 0..2 {
        // Side s captures at its front pit c from the other side's pit 7 - c.
        let c = if s == 1 && rng.below(2) == 0 {
            // North takes from South's kimbi, where South's captured seeds enter.
            [7, 6, 1, 0][rng.below(4)]
        } else {
            rng.below(8)
        };
        let n = 2 + rng.below(14) as i32;
        let d: i32 = if rng.below(2) == 0 { 1 } else { -1 };
        let r = (c as i32 - n * d).rem_euclid(16) as usize;
        if rings[s][r] != 0 || r == c {
            return None;
        }
        put(&mut rings, &mut left, s, r, n)?;
        put(&mut rings, &mut left, s, c, 1 + rng.below(3) as i32)?;
        put(&mut rings, &mut left, 1 - s, 7 - c, 1 + rng.below(8) as i32)?;
    }
    if rng.below(3) == 0 && left > 16 {
        let s = rng.below(2);
        let pile = 16 + rng.below((left - 15) as usize) as i32;
        put(&mut rings, &mut left, s, 8 + rng.below(8), pile)?;
    }
    while left > 0 {
        let s = rng.below(2);
        let i = if rng.below(3) < 2 {
            rng.below(8)
        } else {
            8 + rng.below(8)
        };
        put(&mut rings, &mut left, s, i, 1)?;
    }
    finish_root(rules, &rings)
}

/// The mtaji position with these rings, South to move, no flags, if valid and not over.
fn finish_root(rules: &Rules, rings: &[[u8; 16]; 2]) -> Option<Position> {
    let list =
        |it: &mut dyn Iterator<Item = u8>| it.map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let (so, no) = (&rings[0], &rings[1]);
    let text = format!(
        "{} {}/{}/{}/{} S 0/0 - 0",
        rules.variant.id(),
        list(&mut no[8..16].iter().copied()),
        list(&mut no[..8].iter().rev().copied()),
        list(&mut so[..8].iter().copied()),
        list(&mut so[8..16].iter().rev().copied()),
    );
    let p = Position::parse(&text, rules).ok()?;
    (status(&p, rules) == Outcome::Ongoing).then_some(p)
}

/// The same position with the sides swapped (South's ring becomes North's, the other side to
/// move), or None when it carries a flag that names a pit. The rules treat both sides alike
/// once the hands are empty, so a line from P to mirror(P) followed by the same line with the
/// sides swapped comes back to P: a cycle found at half its length.
fn mirror(p: &Position, rules: &Rules) -> Option<Position> {
    let f = p.flags();
    if f.block.is_some() || f.must.is_some() || f.nointro {
        return None;
    }
    let mut flags = Vec::new();
    for (side, name) in [(Side::North, "S"), (Side::South, "N")] {
        if f.house[side.index()] {
            flags.push(format!("house:{name}"));
        }
        if f.duty[side.index()] {
            flags.push(format!("duty:{name}"));
        }
    }
    let list =
        |it: &mut dyn Iterator<Item = &u8>| it.map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let (so, no) = (p.ring(Side::North), p.ring(Side::South));
    let text = format!(
        "{} {}/{}/{}/{} {} {}/{} {} 0",
        rules.variant.id(),
        list(&mut no[8..16].iter()),
        list(&mut no[..8].iter().rev()),
        list(&mut so[..8].iter()),
        list(&mut so[8..16].iter().rev()),
        if p.side() == Side::South { "N" } else { "S" },
        p.hand(Side::North),
        p.hand(Side::South),
        if flags.is_empty() {
            "-".to_string()
        } else {
            flags.join(",")
        },
    );
    Position::parse(&text, rules).ok()
}

/// A move text for the other side: the same pit and letter, the row letter's case swapped.
fn mirror_move(m: &Move) -> String {
    let t = m.to_string();
    let mut c = t.chars();
    let first = c.next().map_or(String::new(), |ch| {
        if ch.is_ascii_uppercase() {
            ch.to_ascii_lowercase().to_string()
        } else {
            ch.to_ascii_uppercase().to_string()
        }
    });
    first + c.as_str()
}

/// A node u of the breadth-first tree with a descendant v = mirror(u): the moves from u to v,
/// then the same moves for the other side, form a cycle from u. Returned with u, checked
/// through Game (played twice round it must draw by repetition).
fn half_cycle(g: &Graph, rules: &Rules) -> Option<(Position, Vec<String>)> {
    let index: HashMap<Position, u32> = g
        .nodes
        .iter()
        .enumerate()
        .map(|(i, p)| (p.with_ply(0), i as u32))
        .collect();
    if let Some(m) = mirror(&g.nodes[0], rules) {
        // The mirror of the mirror is the root: the swap loses nothing.
        let back = mirror(&m, rules).expect("a mirror has a mirror");
        assert!(back.with_ply(0).same_as(&g.nodes[0].with_ply(0)));
    }
    for (v, p) in g.nodes.iter().enumerate() {
        let Some(m) = mirror(p, rules) else { continue };
        let Some(&u) = index.get(&m.with_ply(0)) else {
            continue;
        };
        if u as usize == v {
            continue;
        }
        // Is u an ancestor of v? Collect the moves on the way up.
        let mut moves = Vec::new();
        let mut at = v as u32;
        while at != u {
            let Some((up, mv)) = g.parent[at as usize] else {
                break;
            };
            moves.push(mv);
            at = up;
        }
        if at != u {
            continue;
        }
        moves.reverse();
        let mut cycle: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
        cycle.extend(moves.iter().map(mirror_move));
        let start = g.nodes[u as usize];
        let mut game = Game::new(start, *rules);
        for t in cycle.iter().chain(cycle.iter()) {
            game.play_text(t).expect("the mirrored cycle replays");
        }
        assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
        return Some((start, cycle));
    }
    None
}

fn constructed(args: &Args, rules: &Rules) {
    let mut rng = Rng::new(args.seed);
    let (mut roots, mut nodes, mut cycles) = (0usize, 0usize, 0usize);
    let mut depth_sum = 0u64;
    for _ in 0..args.games {
        let root = if args.exchange {
            exchange_root(rules, &mut rng)
        } else {
            constructed_root(rules, &mut rng, args.piles, args.symmetric)
        };
        let Some(root) = root else {
            continue;
        };
        let g = explore(root, rules, args.depth, args.nodes);
        roots += 1;
        nodes += g.nodes.len();
        depth_sum += g.full_depth as u64;
        if let Some((start, cycle)) = half_cycle(&g, rules) {
            cycles += 1;
            println!(
                "mirror cycle of {} plies from {start}: {}",
                cycle.len(),
                cycle.join(" ")
            );
        }
        let Some((s, cycle)) = shortest_cycle(&g) else {
            continue;
        };
        cycles += 1;
        // Replayed through Game from the root: the way to the cycle, the cycle twice.
        let mut game = Game::new(root, *rules);
        let line: Vec<Move> = line::path_to(&g.parent, s)
            .into_iter()
            .chain(cycle.iter().copied())
            .chain(cycle.iter().copied())
            .collect();
        for m in &line {
            game.play_text(&m.to_string()).expect("the cycle replays");
        }
        assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
        println!(
            "cycle of {} plies from {}: {}",
            cycle.len(),
            g.nodes[s as usize],
            line::text(&cycle)
        );
    }
    println!(
        "{} {} constructed roots ({}) {roots} nodes {nodes} mean-full-depth {:.1} cycles {cycles} cpu {}",
        args.variant,
        if args.rules.is_empty() { "-" } else { &args.rules },
        if args.exchange {
            "exchange".to_string()
        } else if args.symmetric {
            "symmetric, 32 seeds a side".to_string()
        } else {
            format!("piles, {} active seeds", args.piles)
        },
        depth_sum as f64 / roots.max(1) as f64,
        cpu_seconds().map_or("?".to_string(), |c| format!("{c:.1}s"))
    );
}

fn main() {
    let args = parse_args();
    let rules = Rules::parse(args.variant, &args.rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    if args.piles > 0 || args.symmetric || args.exchange {
        constructed(&args, &rules);
        return;
    }
    let started = Instant::now();
    let mut rng = Rng::new(args.seed);
    let (mut roots, mut nodes, mut cycles) = (0usize, 0usize, 0usize);
    let mut depth_sum = 0u64;
    // Root games: won, drawn otherwise, drawn by repetition, stopped at --max-ply.
    let mut ended = [0usize; 4];
    let mut twice_found = 0usize;
    let mut best: Option<(Vec<Move>, usize)> = None;
    for _ in 0..args.games {
        let RootGame {
            played,
            roots: game_roots,
            outcome,
            twice,
        } = root_game(&rules, &mut rng, &args);
        // A position seen twice in the game: the moves between are a cycle, and playing
        // them once more makes the third occurrence.
        if let Some((a, b)) = twice {
            let mut line: Vec<Move> = played[..b].to_vec();
            line.extend_from_slice(&played[a..b]);
            line::assert_draws_by_repetition(&rules, &line);
            println!(
                "random game repeated a position: cycle of {} plies at ply {a}: {}",
                b - a,
                line::text(&played[a..b])
            );
            twice_found += 1;
        }
        // The random game itself may have repeated a position three times.
        match outcome {
            Outcome::Draw(DrawReason::Repetition) => {
                ended[2] += 1;
                println!(
                    "random game drawn by repetition after {} moves: {}",
                    played.len(),
                    line::text(&played)
                );
            }
            Outcome::Ongoing => ended[3] += 1,
            Outcome::Draw(_) => ended[1] += 1,
            Outcome::Win(..) => ended[0] += 1,
        }
        for (at, root) in game_roots {
            if args.walk > 0 {
                // Quiet walks instead of the breadth-first search.
                let quiet_root = rules.variant == Variant::Kimasai
                    || legal_moves(&root, &rules)
                        .iter()
                        .all(|r| r.captured_pits() == 0 && r.mv.is_takasa());
                if !quiet_root {
                    continue;
                }
                roots += 1;
                let (walked, cycle) = quiet_walk(root, &rules, &mut rng, args.walk);
                nodes += walked as usize;
                depth_sum += walked as u64;
                if let Some((way, cycle)) = cycle {
                    cycles += 1;
                    let mut line: Vec<Move> = played[..at].to_vec();
                    line.extend(way);
                    line.extend(cycle.iter().chain(cycle.iter()));
                    line::assert_draws_by_repetition(&rules, &line);
                    println!(
                        "quiet walk cycle of {} plies: {}",
                        cycle.len(),
                        line::text(&cycle)
                    );
                }
                continue;
            }
            let g = explore(root, &rules, args.depth, args.nodes);
            roots += 1;
            nodes += g.nodes.len();
            depth_sum += g.full_depth as u64;
            if let Some((start, cycle)) = half_cycle(&g, &rules) {
                cycles += 1;
                println!(
                    "mirror cycle of {} plies from {start}: {}",
                    cycle.len(),
                    cycle.join(" ")
                );
            }
            let Some((s, cycle)) = shortest_cycle(&g) else {
                continue;
            };
            cycles += 1;
            if best.as_ref().is_some_and(|b| b.1 <= cycle.len()) {
                continue;
            }
            // The whole game: the random game up to the root, the way to the cycle, the
            // cycle twice. Replayed through Game: the last move must draw by repetition.
            let mut line: Vec<Move> = played[..at].to_vec();
            line.extend(line::path_to(&g.parent, s));
            line.extend(cycle.iter().chain(cycle.iter()));
            line::assert_draws_by_repetition(&rules, &line);
            println!(
                "cycle of {} plies at ply {} (root ply {}): {}",
                cycle.len(),
                at + line::path_to(&g.parent, s).len(),
                root.ply(),
                line::text(&cycle)
            );
            println!("  position: {}", g.nodes[s as usize]);
            best = Some((line, cycle.len()));
        }
    }
    println!(
        "{} {} games {} roots {} nodes {} mean-{} {:.1} cycles {} wall {:.1}s cpu {}",
        args.variant,
        if args.rules.is_empty() {
            "-"
        } else {
            &args.rules
        },
        args.games,
        roots,
        nodes,
        if args.walk > 0 { "walk" } else { "full-depth" },
        depth_sum as f64 / roots.max(1) as f64,
        cycles,
        started.elapsed().as_secs_f64(),
        cpu_seconds().map_or("?".to_string(), |c| format!("{c:.1}s"))
    );
    println!(
        "root games: won {} drawn {} drawn-by-repetition {} unfinished {} with-a-position-twice {}",
        ended[0], ended[1], ended[2], ended[3], twice_found
    );
    if let Some((line, len)) = best {
        println!(
            "shortest cycle {len} plies; game drawn by repetition after {} moves:",
            line.len()
        );
        println!("{}", line::text(&line));
    }
}
