//! Cycles with captures around two parked piles, searched exhaustively (BRD-7.5).
//!
//! In a cycle without captures every pit of both rings is sown into (notes/repetition.md), so no
//! seed can stay parked. Captures lift that bar. This program fixes a pile of 16 or more seeds
//! in one back pit of each side (never a capture move, KIS-5.2 item 1) and enumerates every
//! mtaji position with `active` more seeds anywhere else, both hands empty, no house, either
//! side to move. The graph is every legal move (through `legal_moves`, so exact) that keeps both
//! piles as they are; positions with flags (takasia blocks) are reached on the way. Its cycles
//! (Tarjan) are repeating lines; the first one found is replayed through `Game` from its first
//! position, twice round, and must draw by repetition.
//!
//! ```text
//! repetition_piles VARIANT RULES ACTIVE SOUTH_PILE_PIT NORTH_PILE_PIT
//! repetition_piles kiswahili - 6 B5 b5
//! ```

use bao_rules::{legal_moves, DrawReason, Game, Move, Outcome, Position, Rules, Side, Variant};
use std::collections::HashMap;

use bao_research::scc::Scc;

/// Every way to put `left` seeds into the pits of `free` (ring, index) not yet filled.
fn fill(
    rings: &mut [[u8; 16]; 2],
    free: &[(usize, usize)],
    left: u32,
    out: &mut dyn FnMut(&[[u8; 16]; 2]),
) {
    match free.split_first() {
        None => {
            if left == 0 {
                out(rings)
            }
        }
        Some((&(s, i), rest)) => {
            for v in 0..=left {
                rings[s][i] = v as u8;
                fill(rings, rest, left - v, out);
            }
            rings[s][i] = 0;
        }
    }
}

fn text(variant: Variant, rings: &[[u8; 16]; 2], side: Side) -> String {
    let list =
        |it: &mut dyn Iterator<Item = &u8>| it.map(|x| x.to_string()).collect::<Vec<_>>().join(",");
    let (so, no) = (&rings[0], &rings[1]);
    format!(
        "{} {}/{}/{}/{} {} 0/0 - 0",
        variant.id(),
        list(&mut no[8..16].iter()),
        list(&mut no[..8].iter().rev()),
        list(&mut so[..8].iter()),
        list(&mut so[8..16].iter().rev()),
        if side == Side::South { "S" } else { "N" }
    )
}

/// Ring index of a back pit name such as `B5` or `b5` (BRD-3.1: Bk is 16 − k).
fn back_index(name: &str) -> usize {
    let k: usize = name[1..].parse().expect("a back pit such as B5");
    assert!((1..=8).contains(&k), "a back pit such as B5");
    16 - k
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    if argv.len() != 5 {
        eprintln!("usage: repetition_piles VARIANT RULES ACTIVE SOUTH_PILE_PIT NORTH_PILE_PIT");
        std::process::exit(2);
    }
    let variant = Variant::from_id(&argv[0]).expect("variant");
    let rules = Rules::parse(variant, &argv[1]).expect("rules");
    let active: u32 = argv[2].parse().expect("active seeds");
    let pits = [back_index(&argv[3]), back_index(&argv[4])];
    let rest = 64 - active;
    assert!(rest >= 32, "both piles need 16 seeds or more");
    // Split the rest as evenly as possible; each pile is at least 16 either way.
    let piles = [(rest / 2) as u8, (rest - rest / 2) as u8];
    let keeps = |p: &Position| {
        p.ring(Side::South)[pits[0]] == piles[0] && p.ring(Side::North)[pits[1]] == piles[1]
    };

    let mut roots: Vec<Position> = Vec::new();
    let free: Vec<(usize, usize)> = (0..2)
        .flat_map(|s| (0..16).filter(move |&i| i != pits[s]).map(move |i| (s, i)))
        .collect();
    let mut rings = [[0u8; 16]; 2];
    rings[0][pits[0]] = piles[0];
    rings[1][pits[1]] = piles[1];
    fill(&mut rings, &free, active, &mut |r| {
        for side in [Side::South, Side::North] {
            if let Ok(p) = Position::parse(&text(variant, r, side), &rules) {
                roots.push(p);
            }
        }
    });
    eprintln!("{} roots", roots.len());

    // Strongly connected components of positions (ply 0), edges: legal moves keeping both piles.
    let succ = |p: &Position| -> Vec<(Move, Position)> {
        if p.front_row_empty(Side::South) || p.front_row_empty(Side::North) {
            return Vec::new();
        }
        legal_moves(p, &rules)
            .iter()
            .filter(|m| !m.is_never_ending() && m.outcome(&rules) == Outcome::Ongoing)
            .map(|m| (m.mv, m.next.with_ply(0)))
            .filter(|(_, q)| keeps(q))
            .collect()
    };
    let mut search: Scc<Position> = Scc::new();
    let mut captures_seen = 0u64;
    let (mut found, mut largest) = (0usize, 0usize);
    let mut example: Option<Vec<Position>> = None;
    for root in roots {
        search.explore(
            root.with_ply(0),
            |p| {
                let next = succ(p);
                captures_seen += next.iter().filter(|(mv, _)| !mv.is_takasa()).count() as u64;
                next.into_iter().map(|(_, q)| q)
            },
            |_, _| true,
            |members, nodes| {
                found += 1;
                largest = largest.max(members.len());
                if example.is_none() {
                    example = Some(members.iter().map(|&i| nodes[i as usize]).collect());
                }
            },
        );
    }
    println!(
        "{} {} active {active} piles {}+{} at {} {}: {} positions, {captures_seen} capture edges, \
         {found} cycle components, largest {largest}",
        variant.id(),
        argv[1],
        piles[0],
        piles[1],
        argv[3],
        argv[4],
        search.nodes().len()
    );
    if let Some(members) = example {
        // A cycle inside the component: walk from its first node, always to a member,
        // until a node comes back.
        let set: HashMap<Position, ()> = members.iter().map(|&p| (p, ())).collect();
        let mut at = members[0];
        let mut seen: HashMap<Position, usize> = HashMap::new();
        let mut path: Vec<(Position, Move)> = Vec::new();
        let start = loop {
            if let Some(&k) = seen.get(&at) {
                break k;
            }
            seen.insert(at, path.len());
            let (mv, next) = succ(&at)
                .into_iter()
                .find(|(_, q)| set.contains_key(q))
                .expect("a member has a successor in its component");
            path.push((at, mv));
            at = next;
        };
        let first = path[start].0;
        let cycle: Vec<Move> = path[start..].iter().map(|(_, m)| *m).collect();
        let mut game = Game::new(first, rules);
        for m in cycle.iter().chain(cycle.iter()) {
            game.play_text(&m.to_string()).expect("the cycle replays");
        }
        assert_eq!(game.outcome(), Outcome::Draw(DrawReason::Repetition));
        println!("cycle of {} plies from {first}:", cycle.len());
        println!(
            "{}",
            cycle
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        );
    }
}
