//! Repetition by a beam that tries to keep the game alive (BRD-7.5).
//!
//! Before this search, every kiswahili and kete line looked at ended the game: random games,
//! games by a fixed policy and engine self-play end within some hundred plies, and
//! breadth-first searches reach only 11 or 12 plies. This search found the first kiswahili
//! and kete cycles (docs/spec-notes.md, tests/data/). A cycle is a line that never ends, so it
//! asks the question the other way round: how long can the game be kept going at all? From
//! a second-stage root of a random game it keeps, ply after ply, the `width` positions (never
//! one seen before) that look most alive, and expands them all. In a finite graph a line that
//! never ends must come back to a position; a beam that survives far is a place to look for
//! cycles, and a beam that dies says that, from this root, no line the beam could see lasts.
//!
//! Every move between explored positions is kept, also a move to a position seen before (on
//! another line or earlier on the same one), so the cycles of the explored graph are found by
//! its strongly connected components; the shortest one is replayed from the start position
//! through [`Game`] and must end in a repetition draw.
//!
//! ```text
//! cargo run --release -p bao-research --bin repetition_beam -- kiswahili - \
//!     --roots 10 --width 2000 --depth 3000 --score balance --seed 1
//! ```
//!
//! Scores (higher is kept; ties broken at random):
//! * `balance`: the smaller side's seed count, then the smaller side's front-row seeds (a side
//!   with an empty front row has lost, KIS-9.1);
//! * `front`: the smaller side's front-row seeds, then the smaller side's seed count;
//! * `random`: none (a random subset: the widest spread of the beam);
//! * `sparse`: the fewest occupied pits (a small part of the graph, more likely to close);
//! * `home`: the closest to the root, pit by pit (a beam that tries to come back; with
//!   `--target`, to the nearest position of a known cycle);
//! * `lopsided`: a gap between the two sides' seed counts as near 50 as possible (the first
//!   kiswahili cycle found has 57 seeds against 7). Steering to the widest gap killed the
//!   beams within 33-56 plies (kiswahili, 5 roots); a gap near 50 kept them alive for 600
//!   plies (3 roots) but they did not come back: not how the cycles were found.
//!
//! `--chase N`: a move to a position X seen before on another line (from a position Y) is a
//! cycle if X leads back to Y; for the N such moves with the widest gap between the two
//! sights of X, a second beam from X steers to Y (`home` with Y as the target).
//! `--target POSITION --cycle MOVES`: steer (`home`) to the positions of a known cycle
//! instead of the root, the nearest counting, and stop when one is reached (a cycle found in
//! one variant, tried from the start of another).
//! `--show`: print the line to the last position kept, with its captures.

use bao_rules::{find_move, legal_moves, Game, Move, Position, Rng, Rules, Side, Variant};
use std::collections::{HashMap, VecDeque};
use std::time::Instant;

use bao_research::line;
use bao_research::scc::{Dense, Scc};

/// What a beam keeps (see the head of the file).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
enum Score {
    Balance,
    Front,
    Random,
    Sparse,
    Home,
    Lopsided,
}

/// Beams that try to keep a Bao game going and to come back to a position (BRD-7.5).
#[derive(clap::Parser)]
struct Args {
    /// kiswahili, kete or kimasai.
    #[arg(value_parser = parse_variant)]
    variant: Variant,
    /// Rule options (name=value,...), or - for the defaults.
    rules: String,
    /// Roots: random games from the start up to their first second-stage position.
    #[arg(long, default_value_t = 10)]
    roots: usize,
    /// Positions kept a ply.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..))]
    width: u64,
    /// Plies at most.
    #[arg(long, default_value_t = 3000)]
    depth: usize,
    #[arg(long, value_enum, default_value_t = Score::Balance)]
    score: Score,
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Plies of the random game past its first second-stage position before the root.
    #[arg(long, default_value_t = 0)]
    skip: u32,
    /// How many moves to a position seen before to chase (the widest gaps first).
    #[arg(long, default_value_t = 0)]
    chase: usize,
    /// Width of each chase.
    #[arg(long, default_value_t = 20_000, value_parser = clap::value_parser!(u64).range(1..))]
    chase_width: u64,
    /// Depth of each chase.
    #[arg(long, default_value_t = 40)]
    chase_depth: usize,
    /// Print the line to the last position kept, every eighth of the way.
    #[arg(long)]
    show: bool,
    /// A known cycle's first position, to steer to instead of the root (with --cycle).
    #[arg(long, requires = "cycle")]
    target: Option<String>,
    /// The known cycle's moves, from --target back to it.
    #[arg(long, requires = "target")]
    cycle: Option<String>,
}

fn parse_variant(s: &str) -> Result<Variant, String> {
    Variant::from_id(s).ok_or_else(|| format!("unknown variant '{s}': kiswahili, kete or kimasai"))
}

fn seeds(p: &Position, s: Side) -> i64 {
    p.ring(s).iter().map(|&x| i64::from(x)).sum()
}

fn front(p: &Position, s: Side) -> i64 {
    p.ring(s)[..8].iter().map(|&x| i64::from(x)).sum()
}

/// Seeds that would have to move to turn `p` into `t`, pit by pit (counted twice: once
/// where they are, once where they should be).
fn distance(p: &Position, t: &Position) -> i64 {
    [Side::South, Side::North]
        .iter()
        .map(|&s| {
            p.ring(s)
                .iter()
                .zip(t.ring(s))
                .map(|(&a, &b)| (i64::from(a) - i64::from(b)).abs())
                .sum::<i64>()
        })
        .sum()
}

fn liveliness(p: &Position, targets: &[Position], score: Score) -> i64 {
    let total = seeds(p, Side::South).min(seeds(p, Side::North));
    let fr = front(p, Side::South).min(front(p, Side::North));
    match score {
        Score::Balance => total * 100 + fr,
        Score::Front => fr * 100 + total,
        Score::Random => 0,
        Score::Lopsided => {
            // 50: wide, but leaving the smaller side enough seeds to keep moving.
            -((seeds(p, Side::South) - seeds(p, Side::North)).abs() - 50).abs()
        }
        Score::Sparse => {
            let occupied = [Side::South, Side::North]
                .iter()
                .map(|&s| p.ring(s).iter().filter(|&&x| x > 0).count() as i64)
                .sum::<i64>();
            -occupied
        }
        Score::Home => targets
            .iter()
            .map(|t| -2 * distance(p, t) - i64::from(p.side() != t.side()))
            .max()
            .unwrap_or(0),
    }
}

/// The explored graph of one root.
struct Explored {
    nodes: Vec<Position>,
    parent: Vec<Option<(u32, Move)>>,
    edges: Vec<Vec<(u32, Move)>>,
    /// The last ply at which the beam still held a position.
    survived: usize,
    /// The best score kept at ply 4 or later (how close `home` came back, in half-seeds).
    best_late: Option<i64>,
    /// Moves to a position seen before on another line, as (from, to, plies between the two
    /// sights of `to`): leads for a cycle, if `to` can come back to `from`.
    cross: Vec<(u32, u32, u32)>,
    /// The node of a target, once found, and which target.
    reached: Option<(u32, usize)>,
}

/// What one beam looks for.
struct Shape {
    width: usize,
    depth: usize,
    score: Score,
    /// The positions `home` steers to (the nearest counts); the search stops when it finds
    /// one.
    targets: Vec<Position>,
}

fn beam(root: Position, rules: &Rules, shape: &Shape, rng: &mut Rng) -> Explored {
    let mut index: HashMap<Position, u32> = HashMap::new();
    let mut g = Explored {
        nodes: vec![root],
        parent: vec![None],
        edges: vec![Vec::new()],
        survived: 0,
        best_late: None,
        cross: Vec::new(),
        reached: None,
    };
    let goals: HashMap<Position, usize> = shape
        .targets
        .iter()
        .enumerate()
        .map(|(i, t)| (t.with_ply(0), i))
        .collect();
    index.insert(root.with_ply(0), 0);
    let mut frontier: Vec<u32> = vec![0];
    let mut depth_of: Vec<u32> = vec![0];
    for ply in 1..=shape.depth {
        let mut fresh: Vec<(i64, u64, u32)> = Vec::new();
        for &u in &frontier {
            let here = g.nodes[u as usize];
            for m in line::ongoing(&here, rules) {
                let key = m.next.with_ply(0);
                let v = match index.get(&key) {
                    Some(&v) => {
                        g.cross.push((u, v, ply as u32 - depth_of[v as usize]));
                        v
                    }
                    None => {
                        let v = g.nodes.len() as u32;
                        depth_of.push(ply as u32);
                        index.insert(key, v);
                        g.nodes.push(m.next);
                        g.parent.push(Some((u, m.mv)));
                        g.edges.push(Vec::new());
                        let score = liveliness(&m.next, &shape.targets, shape.score);
                        fresh.push((score, rng.next_u64(), v));
                        if let Some(&i) = goals.get(&key) {
                            g.reached = Some((v, i));
                        }
                        v
                    }
                };
                g.edges[u as usize].push((v, m.mv));
            }
        }
        if fresh.is_empty() || g.reached.is_some() {
            break;
        }
        g.survived = ply;
        // The liveliest first, ties at random; only those are expanded.
        fresh.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        fresh.truncate(shape.width);
        if ply >= 4 {
            let top = fresh[0].0;
            g.best_late = Some(g.best_late.map_or(top, |b| b.max(top)));
        }
        frontier = fresh.into_iter().map(|(_, _, v)| v).collect();
    }
    g
}

/// The shortest cycle through the first node of a component with a cycle: breadth first
/// inside the component, back to that node.
fn cycle_in(g: &Explored, members: &[u32]) -> (u32, Vec<Move>) {
    let inside: std::collections::HashSet<u32> = members.iter().copied().collect();
    let s = *members.last().expect("a component has members");
    let mut from: HashMap<u32, (u32, Move)> = HashMap::new();
    let mut queue = VecDeque::from([s]);
    while let Some(u) = queue.pop_front() {
        for &(v, mv) in &g.edges[u as usize] {
            if !inside.contains(&v) {
                continue;
            }
            if v == s {
                let mut moves = vec![mv];
                let mut w = u;
                while w != s {
                    let (p, m) = from[&w];
                    moves.push(m);
                    w = p;
                }
                moves.reverse();
                return (s, moves);
            }
            if let std::collections::hash_map::Entry::Vacant(e) = from.entry(v) {
                e.insert((u, mv));
                queue.push_back(v);
            }
        }
    }
    unreachable!("a strongly connected component with a cycle leads back to each member")
}

fn main() {
    let args = <Args as clap::Parser>::parse();
    let rules = Rules::parse(args.variant, &args.rules).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    // A known cycle: the positions along it, each a target; the moves from each.
    let known: Option<(Vec<Position>, Vec<Move>)> = args.target.as_ref().map(|text| {
        let first = Position::parse(text, &rules).unwrap_or_else(|e| {
            eprintln!("--target: {e}");
            std::process::exit(2)
        });
        let mut at = first;
        let mut positions = Vec::new();
        let mut moves = Vec::new();
        for m in args.cycle.as_deref().unwrap_or("").split_whitespace() {
            let lm = find_move(&at, &rules, m).unwrap_or_else(|e| {
                eprintln!("--cycle: {m}: {e}");
                std::process::exit(2)
            });
            positions.push(at);
            moves.push(lm.mv);
            at = lm.next;
        }
        if moves.is_empty() || !at.same_as(&first) {
            eprintln!("--cycle must lead from --target back to it");
            std::process::exit(2)
        }
        (positions, moves)
    });
    let cycle_targets = known.as_ref().map(|k| k.0.clone());
    let started = Instant::now();
    let mut rng = Rng::new(args.seed);
    let (mut roots, mut nodes, mut cycles) = (0usize, 0usize, 0usize);
    let mut survived: Vec<usize> = Vec::new();
    let mut best: Option<Vec<Move>> = None;
    let mut attempts = 0;
    while roots < args.roots && attempts < args.roots * 20 {
        attempts += 1;
        // A random game from the start up to its first second-stage position, `skip` plies on.
        let mut game = Game::new(Position::start(&rules), rules);
        let mut since: Option<u32> = None;
        let mut root = None;
        while !game.outcome().is_over() {
            let p = *game.position();
            if p.hand(Side::South) == 0 && p.hand(Side::North) == 0 {
                let first = *since.get_or_insert(p.ply());
                if p.ply() >= first + args.skip {
                    root = Some(p);
                    break;
                }
            }
            let moves = game.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m = *moves.iter().nth(rng.below(moves.len())).expect("a move");
            game.play(&m);
        }
        let Some(root) = root else { continue };
        roots += 1;
        let shape = Shape {
            width: args.width as usize,
            depth: args.depth,
            score: args.score,
            targets: cycle_targets.clone().unwrap_or_else(|| vec![root]),
        };
        let g = beam(root, &rules, &shape, &mut rng);
        nodes += g.nodes.len();
        survived.push(g.survived);
        let mut found: Option<(u32, Vec<Move>)> = None;
        let mut scc: Scc<u32, Dense> = Scc::with_index(Dense::new(g.nodes.len()));
        scc.explore(
            0,
            |&u| {
                g.edges[u as usize]
                    .iter()
                    .map(|&(v, _)| v)
                    .collect::<Vec<_>>()
            },
            |_, _| true,
            |members, order| {
                let ids: Vec<u32> = members.iter().map(|&i| order[i as usize]).collect();
                let c = cycle_in(&g, &ids);
                if found.as_ref().is_none_or(|f| c.1.len() < f.1.len()) {
                    found = Some(c);
                }
            },
        );
        if let (Some((v, i)), Some((_, moves))) = (g.reached, known.as_ref()) {
            // Reached the known cycle at its i-th position: from there it goes round.
            let mut cycle = moves[i..].to_vec();
            cycle.extend_from_slice(&moves[..i]);
            found = Some((v, cycle));
        }
        println!(
            "root {roots} (ply {}): beam alive {} plies, {} positions, best score from ply 4 {:?}{}",
            root.ply(),
            g.survived,
            g.nodes.len(),
            g.best_late,
            found
                .as_ref()
                .map_or(String::new(), |f| format!(", cycle of {} plies", f.1.len()))
        );
        if args.show {
            // The line to the last position kept: how its plies went.
            let last = (g.nodes.len() - 1) as u32;
            let way = line::path_to(&g.parent, last);
            let mut p = root;
            let mut captures = 0;
            for (i, mv) in way.iter().enumerate() {
                let m = *legal_moves(&p, &rules)
                    .iter()
                    .find(|m| m.mv == *mv)
                    .expect("the kept line is legal");
                if m.captured_pits() > 0 {
                    captures += 1;
                }
                if i % (way.len() / 8).max(1) == 0 {
                    println!(
                        "  ply {i}: {p} ({} S {} N seeds, {captures} captures so far)",
                        seeds(&p, Side::South),
                        seeds(&p, Side::North)
                    );
                }
                p = m.next;
            }
            println!(
                "  line of {} plies, {captures} captures: {}",
                way.len(),
                line::text(&way[..way.len().min(60)])
            );
        }
        let mut gaps: std::collections::BTreeMap<u32, usize> = Default::default();
        for &(_, _, gap) in &g.cross {
            *gaps.entry(gap).or_default() += 1;
        }
        println!("  moves to a position seen before, by plies between its two sights: {gaps:?}");
        // Chase the leads: a move Y -> X to a position X seen before is a cycle as soon as
        // X leads back to Y. A beam from X steers to Y, pit by pit.
        let mut leads = g.cross.clone();
        leads.sort_by_key(|&(_, _, gap)| std::cmp::Reverse(gap));
        leads.truncate(args.chase);
        for (y, x, gap) in leads {
            let shape = Shape {
                width: args.chase_width as usize,
                depth: args.chase_depth,
                score: Score::Home,
                targets: vec![g.nodes[y as usize]],
            };
            let h = beam(g.nodes[x as usize], &rules, &shape, &mut rng);
            // Where the two lines to X part: their common start.
            let (to_x, to_y) = (line::path_to(&g.parent, x), line::path_to(&g.parent, y));
            let common = to_x.iter().zip(&to_y).take_while(|(a, b)| a == b).count();
            println!(
                "  chase of a lead with gap {gap} (X at ply {}, Y at ply {}, lines part at ply {common}: {} / {} + the move): \
                 {} positions, closest {:?} half-seeds{}",
                to_x.len(),
                to_y.len(),
                line::text(&to_x[common..]),
                line::text(&to_y[common..]),
                h.nodes.len(),
                h.best_late.map(|b| -b),
                if h.reached.is_some() { ", back" } else { "" }
            );
            let Some((r, _)) = h.reached else { continue };
            let back = g.edges[y as usize]
                .iter()
                .find(|e| e.0 == x)
                .expect("the lead's move")
                .1;
            let mut cycle = line::path_to(&h.parent, r);
            cycle.push(back);
            if found.as_ref().is_none_or(|f| cycle.len() < f.1.len()) {
                found = Some((x, cycle));
            }
        }
        if let Some((s, cycle)) = found {
            cycles += 1;
            let mut line = game.moves().to_vec();
            line.extend(line::path_to(&g.parent, s));
            line.extend(cycle.iter().chain(cycle.iter()));
            let line = line::to_the_end(&rules, &line);
            line::assert_draws_by_repetition(&rules, &line);
            println!("  cycle: {}", line::text(&cycle));
            println!("  position: {}", g.nodes[s as usize]);
            println!(
                "  game drawn by repetition, {} moves: {}",
                line.len(),
                line::text(&line)
            );
            if best.as_ref().is_none_or(|b| line.len() < b.len()) {
                best = Some(line);
            }
        }
    }
    survived.sort_unstable();
    println!(
        "{} {} score {:?} width {} roots {roots} positions {nodes} cycles {cycles} \
         beam alive (plies) min {} median {} max {} wall {:.1}s",
        args.variant,
        if args.rules.is_empty() {
            "-"
        } else {
            &args.rules
        },
        args.score,
        args.width,
        survived.first().map_or("-".into(), |x| x.to_string()),
        survived
            .get(survived.len() / 2)
            .map_or("-".into(), |x| x.to_string()),
        survived.last().map_or("-".into(), |x| x.to_string()),
        started.elapsed().as_secs_f64()
    );
    if let Some(line) = best {
        println!("shortest game drawn by repetition, {} moves:", line.len());
        println!("{}", line::text(&line));
    }
}
