//! One ring alone under the kiswahili/kete mtaji takasa rules (BRD-7.5).
//!
//! A small fast model for search only (every find is re-checked through `Game`): the mover has
//! no capture move, no house and no block, so his ring moves by KIS-5.4 (front pits with 2+
//! seeds first, else back pits with 2+), KIS-5.5 (lone kichwa), BRD-5 sowing with relays,
//! never-ending moves removed (BRD-6.2) and moves that leave his front row empty removed (he
//! would lose, BRD-7.2).
//!
//! Every claim made with it in notes/repetition.md ("Before the cycles were found") can be
//! rerun:
//!
//! ```text
//! repetition_ring check SAMPLES [SEED]    # the model against legal_moves on random positions
//! repetition_ring scc LO HI [--no-reach]  # every ring of LO..=HI seeds: cycles (Tarjan SCCs);
//!                                         # --no-reach: only rings no capture can ever start from
//! repetition_ring alt LO HI [--no-reach]  # front row 1,0,1,0,… (either phase), LO..=HI seeds in
//!                                         # the back row, every such ring
//! repetition_ring mask N MASK K SAMPLES [SEED]
//!     # random rings of N seeds and the cycles reachable from them without leaving a class:
//!     # MASK (binary, bit i = front index i) K>0: front pits outside MASK empty, inside <= K
//!     # MASK 0: no capture can start from the ring (reach empty)
//!     # MASK K=0: no capture can end a first lap inside MASK
//!     # 11111111 255: every ring (one ring alone, captures ignored)
//! repetition_ring pair SOUTH SAMPLES BUDGET [SEED]
//!     # both rings at random (SOUTH + NORTH = 64 seeds): quiet play of the two together
//! ```

// Pits are addressed by their ring index (BRD-3.1) throughout, as the rules do.
#![allow(clippy::needless_range_loop)]

use std::collections::HashSet;

use bao_research::scc::{Dense, Scc};

type Ring = [u8; 16];

/// Ring after one takasa move from `r` in direction `d`, or None when it is never-ending or
/// leaves the front row empty.
fn play(ring: &Ring, r: usize, d: i32) -> Option<Ring> {
    let mut h = *ring;
    let mut cur = r;
    // A never-ending move repeats its relay states for ever, so recording them only from the
    // 64th lap on still finds the repetition, and most moves end long before.
    let mut seen: HashSet<(Ring, usize)> = HashSet::new();
    let mut laps = 0u32;
    loop {
        laps += 1;
        let n = h[cur];
        h[cur] = 0;
        for _ in 0..n {
            cur = ((cur as i32 + d).rem_euclid(16)) as usize;
            h[cur] += 1;
        }
        if h[cur] == 1 {
            break;
        }
        if laps >= 64 && !seen.insert((h, cur)) {
            return None;
        }
    }
    if h[..8].iter().all(|&x| x == 0) {
        return None;
    }
    Some(h)
}

fn moves(ring: &Ring) -> Vec<(usize, i32, Ring)> {
    let front: Vec<usize> = (0..8).filter(|&i| ring[i] >= 2).collect();
    let pits: Vec<usize> = if front.is_empty() {
        (8..16).filter(|&i| ring[i] >= 2).collect()
    } else {
        front
    };
    let occ: Vec<usize> = (0..8).filter(|&i| ring[i] > 0).collect();
    let mut out = Vec::new();
    for &r in &pits {
        for d in [1, -1] {
            if occ == [r] && ((r == 0 && d == -1) || (r == 7 && d == 1)) {
                continue;
            }
            if let Some(n) = play(ring, r, d) {
                out.push((r, d, n));
            }
        }
    }
    out
}

/// Occupied front pits (bit i: front index i holds seeds).
fn front_mask(ring: &Ring) -> u8 {
    (0..8).filter(|&i| ring[i] > 0).fold(0, |m, i| m | 1 << i)
}

/// Front pits e that a capture move could end its first lap in (KIS-5.2 items 1-3): occupied,
/// and reached in one lap by a pit holding 2..=15 seeds.
fn reach_mask(ring: &Ring) -> u8 {
    let mut m = 0u8;
    for r in 0..16 {
        let n = ring[r] as i32;
        if (2..=15).contains(&n) {
            for d in [1, -1] {
                let e = (r as i32 + n * d).rem_euclid(16) as usize;
                if e < 8 && ring[e] > 0 {
                    m |= 1 << e;
                }
            }
        }
    }
    m
}

struct Binom([[u64; 80]; 17]);

impl Binom {
    fn new() -> Binom {
        let mut c = [[0u64; 80]; 17];
        for n in 0..80 {
            for k in 0..17 {
                c[k][n] = if k == 0 {
                    1
                } else if n == 0 {
                    0
                } else {
                    c[k - 1][n - 1] + c[k][n - 1]
                };
            }
        }
        Binom(c)
    }
    /// C(n, k)
    fn c(&self, n: i64, k: usize) -> u64 {
        if n < 0 {
            0
        } else {
            self.0[k][n as usize]
        }
    }
    /// Number of rings of `parts` pits holding `seeds` seeds.
    fn count(&self, parts: usize, seeds: u32) -> u64 {
        self.c(seeds as i64 + parts as i64 - 1, parts - 1)
    }
    fn rank(&self, ring: &Ring) -> u64 {
        self.rank_parts(ring)
    }
    fn unrank(&self, rank: u64, seeds: u32) -> Ring {
        let mut ring = [0u8; 16];
        self.unrank_parts(rank, seeds, &mut ring);
        ring
    }
    /// Rank of a composition among those with the same number of parts and total.
    fn rank_parts(&self, parts: &[u8]) -> u64 {
        let k = parts.len();
        let mut left: u32 = parts.iter().map(|&x| x as u32).sum();
        let mut rank = 0;
        for i in 0..k - 1 {
            for v in 0..parts[i] as u32 {
                rank += self.count(k - 1 - i, left - v);
            }
            left -= parts[i] as u32;
        }
        rank
    }
    fn unrank_parts(&self, mut rank: u64, seeds: u32, parts: &mut [u8]) {
        let k = parts.len();
        let mut left = seeds;
        for i in 0..k - 1 {
            let mut v = 0;
            loop {
                let c = self.count(k - 1 - i, left - v);
                if rank < c {
                    break;
                }
                rank -= c;
                v += 1;
            }
            parts[i] = v as u8;
            left -= v;
        }
        parts[k - 1] = left as u8;
    }
}

fn show(r: &Ring) -> String {
    // front A1..A8 / back B1..B8 as seen from the owner
    let f: Vec<String> = r[..8].iter().map(|x| x.to_string()).collect();
    let b: Vec<String> = (0..8).map(|k| r[15 - k].to_string()).collect();
    format!("A:{} B:{}", f.join(","), b.join(","))
}

/// Nontrivial strongly connected components of a graph in CSR form, members by ring rank.
fn tarjan(total: usize, adj_start: &[u32], adj: &[u32]) -> Vec<Vec<u32>> {
    let mut search = Scc::with_index(Dense::new(total));
    let mut comps: Vec<Vec<u32>> = Vec::new();
    for s in 0..total as u32 {
        search.explore(
            s,
            // Tried last first: reversed, the edges are tried in the order they were built.
            |&v| {
                adj[adj_start[v as usize] as usize..adj_start[v as usize + 1] as usize]
                    .iter()
                    .rev()
                    .copied()
            },
            |_, _| true,
            |members, nodes| comps.push(members.iter().map(|&i| nodes[i as usize]).collect()),
        );
    }
    comps
}

fn scc(seeds: u32, quiet_only: bool) {
    let bin = Binom::new();
    let total = bin.count(16, seeds) as usize;
    eprintln!("seeds {seeds}: {total} rings");
    let mut adj_start = vec![0u32; total + 1];
    let mut adj: Vec<u32> = Vec::new();
    for i in 0..total {
        let ring = bin.unrank(i as u64, seeds);
        debug_assert_eq!(bin.rank(&ring) as usize, i);
        if front_mask(&ring) != 0 && (!quiet_only || reach_mask(&ring) == 0) {
            for (_, _, n) in moves(&ring) {
                if !quiet_only || reach_mask(&n) == 0 {
                    adj.push(bin.rank(&n) as u32);
                }
            }
        }
        adj_start[i + 1] = adj.len() as u32;
    }
    eprintln!("edges {}", adj.len());
    let mut comps = tarjan(total, &adj_start, &adj);
    let in_cycles: usize = comps.iter().map(|c| c.len()).sum();
    println!(
        "seeds {seeds}: rings {total}, nontrivial SCCs {}, rings on cycles {in_cycles}",
        comps.len()
    );
    comps.sort_by_key(|c| std::cmp::Reverse(c.len()));
    for c in comps.iter().take(6) {
        let rings: Vec<Ring> = c.iter().map(|&i| bin.unrank(i as u64, seeds)).collect();
        let fmin = rings
            .iter()
            .map(|r| front_mask(r).count_ones())
            .min()
            .unwrap();
        let fmax = rings
            .iter()
            .map(|r| front_mask(r).count_ones())
            .max()
            .unwrap();
        let rmax = rings
            .iter()
            .map(|r| reach_mask(r).count_ones())
            .max()
            .unwrap();
        let maxpit = rings.iter().flat_map(|r| r.iter()).max().unwrap();
        println!(
            "  scc size {} front occupied {fmin}..{fmax} reach max {rmax} biggest pit {maxpit} e.g. {}",
            c.len(),
            show(&rings[0])
        );
        if quiet_only {
            for r in &rings {
                println!("      {}", show(r));
            }
        }
    }
}

/// Rings whose front row is alternately 1 and 0 (A1, A3, A5, A7 or A2, A4, A6, A8 holding one
/// seed each) and whose back row holds `back` seeds: the graph of moves between them.
fn alt(back: u32, quiet_only: bool) {
    let bin = Binom::new();
    let per = bin.count(8, back) as usize;
    let total = 2 * per;
    let decode = |i: usize| -> Ring {
        let mut ring = [0u8; 16];
        let phase = i / per;
        for h in 0..8 {
            ring[h] = u8::from(h % 2 == phase);
        }
        bin.unrank_parts((i % per) as u64, back, &mut ring[8..]);
        ring
    };
    let encode = |ring: &Ring| -> Option<usize> {
        let phase = if ring[0] == 1 { 0 } else { 1 };
        if (0..8).any(|h| ring[h] != u8::from(h % 2 == phase)) {
            return None;
        }
        Some(phase * per + bin.rank_parts(&ring[8..]) as usize)
    };
    eprintln!("alt back {back}: {total} rings");
    let mut adj_start = vec![0u32; total + 1];
    let mut adj: Vec<u32> = Vec::new();
    for i in 0..total {
        let ring = decode(i);
        if !quiet_only || reach_mask(&ring) == 0 {
            for (_, _, n) in moves(&ring) {
                if let Some(j) = encode(&n) {
                    if !quiet_only || reach_mask(&n) == 0 {
                        adj.push(j as u32);
                    }
                }
            }
        }
        adj_start[i + 1] = adj.len() as u32;
    }
    let comps = tarjan(total, &adj_start, &adj);
    let in_cycles: usize = comps.iter().map(|c| c.len()).sum();
    println!(
        "alt back {back} (seeds {}): rings {total}, nontrivial SCCs {}, rings on cycles {in_cycles}",
        back + 4,
        comps.len()
    );
    for c in comps.iter().take(12) {
        let rings: Vec<Ring> = c.iter().map(|&i| decode(i as usize)).collect();
        let rmax = rings
            .iter()
            .map(|r| reach_mask(r).count_ones())
            .max()
            .unwrap();
        let maxpit = rings.iter().flat_map(|r| r.iter()).max().unwrap();
        println!(
            "  scc size {} reach max {rmax} biggest pit {maxpit}",
            c.len()
        );
        for r in rings.iter().take(8) {
            println!("      {}", show(r));
        }
    }
}

/// The class of rings searched by `mask`: front pits outside `mask` empty, front pits inside
/// it holding at most `k` seeds, the front row not empty. Two rings of one class with a mask
/// that holds no two facing pits (never both h and 7 - h) never face each other: no capture
/// move exists for either side, whatever the back rows hold (KIS-5.2 item 4).
fn in_class(r: &Ring, mask: u8, k: u8) -> bool {
    let f = front_mask(r);
    if mask == 0 {
        // the other class: no pit can end a first lap on an occupied front pit
        return f != 0 && reach_mask(r) == 0;
    }
    if k == 0 {
        // a third class: no first lap ends on an occupied front pit inside `mask`
        return f != 0 && reach_mask(r) & mask == 0;
    }
    f != 0 && f & !mask == 0 && r[..8].iter().all(|&x| x <= k)
}

fn random_ring(rng: &mut bao_rules::Rng, seeds: u32, mask: u8, k: u8) -> Ring {
    if k == 0 || k == 255 {
        loop {
            let r = uniform_ring(rng, seeds);
            if in_class(&r, mask, k) {
                return r;
            }
        }
    }
    if mask == 0 {
        loop {
            let mut r = [0u8; 16];
            // a few big piles and the rest in singles and pairs
            let mut left = seeds;
            while left > 0 {
                let i = rng.below(16);
                let v = if rng.below(4) == 0 {
                    left.min(16 + rng.below(8) as u32)
                } else {
                    1
                };
                let v = v.min(left);
                r[i] = r[i].saturating_add(v as u8);
                left -= v;
            }
            if in_class(&r, 0, k) {
                return r;
            }
        }
    }
    loop {
        let mut r = [0u8; 16];
        let mut left = seeds as i64;
        for h in 0..8 {
            if mask & (1 << h) != 0 {
                r[h] = rng.below(k as usize + 1) as u8;
                left -= r[h] as i64;
            }
        }
        if left < 0 || front_mask(&r) == 0 {
            continue;
        }
        // a uniform composition of the rest over the back row (stars and bars)
        let mut bars: Vec<usize> = (0..7).map(|_| rng.below(left as usize + 8)).collect();
        bars.sort_unstable();
        bars.dedup();
        if bars.len() < 7 {
            continue;
        }
        let mut prev: i64 = -1;
        for (j, &b) in bars.iter().enumerate() {
            r[8 + j] = (b as i64 - prev - 1) as u8;
            prev = b as i64;
        }
        r[15] = (left + 7 - prev - 1) as u8;
        if r.iter().map(|&x| x as u32).sum::<u32>() == seeds {
            return r;
        }
    }
}

/// Lazy Tarjan over the class from random rings: cycles of rings that stay in the class.
fn mask_search(seeds: u32, mask: u8, k: u8, samples: u64, seed: u64) {
    let mut rng = bao_rules::Rng::new(seed);
    let mut search: Scc<Ring> = Scc::new();
    let succ = |r: &Ring| -> Vec<Ring> {
        moves(r)
            .into_iter()
            .map(|(_, _, n)| n)
            .filter(|n| in_class(n, mask, k))
            .collect()
    };
    let mut found = 0;
    let mut biggest = 0;
    for _ in 0..samples {
        let root = random_ring(&mut rng, seeds, mask, k);
        search.explore(
            root,
            &succ,
            |_, _| true,
            |members, rings| {
                found += 1;
                biggest = biggest.max(members.len());
                if found <= 5 {
                    let first = members[members.len() - 1];
                    println!(
                        "  cycle class: {} rings, e.g. {}",
                        members.len(),
                        show(&rings[first as usize])
                    );
                }
            },
        );
    }
    println!(
        "mask {mask:08b} k {k} seeds {seeds}: {samples} samples, {} rings explored, {found} SCCs, biggest {biggest}",
        search.nodes().len()
    );
}

/// A ring of `seeds` seeds, uniform among those with a front row that is not empty.
fn uniform_ring(rng: &mut bao_rules::Rng, seeds: u32) -> Ring {
    let bin = Binom::new();
    loop {
        let total = bin.count(16, seeds);
        let pick = rng.next_u64() % total;
        let r = bin.unrank(pick, seeds);
        if front_mask(&r) != 0 {
            return r;
        }
    }
}

/// Does the mover (ring `me`) have a capture move against ring `other` (KIS-5.2)?
fn has_capture(me: &Ring, other: &Ring) -> bool {
    let facing = front_mask(other).reverse_bits();
    reach_mask(me) & facing != 0
}

/// Quiet play of both rings together: South ring, North ring, South to move or not. An edge is
/// a takasa move (the mover has no capture move) after which the opponent has none either, and
/// the mover threatens nothing (so no takasia, KIS-8.2, can change the next move).
fn pair_search(south_seeds: u32, samples: u64, budget: usize, seed: u64) {
    type Node = (Ring, Ring, bool);
    let mut rng = bao_rules::Rng::new(seed);
    let succ = |v: &Node| -> Vec<Node> {
        let (s, n, south) = v;
        let (me, other) = if *south { (s, n) } else { (n, s) };
        if has_capture(me, other) {
            return Vec::new();
        }
        moves(me)
            .into_iter()
            .filter(|(_, _, m)| !has_capture(other, m) && !has_capture(m, other))
            .map(|(_, _, m)| {
                if *south {
                    (m, *n, false)
                } else {
                    (*s, m, true)
                }
            })
            .collect()
    };
    let mut found = 0;
    let mut explored = 0usize;
    for _ in 0..samples {
        // North: a ring of 64 - south_seeds seeds; South: the rest. Both uniform at random.
        let s = uniform_ring(&mut rng, south_seeds);
        let n = uniform_ring(&mut rng, 64 - south_seeds);
        let root: Node = (s, n, true);
        let mut search: Scc<Node> = Scc::new();
        search.explore(
            root,
            &succ,
            |_, visited| visited < budget,
            |members, nodes| {
                found += 1;
                let (s, n, south) = nodes[members[members.len() - 1] as usize];
                println!(
                    "  quiet cycle class of {}: S {} N {} {}",
                    members.len(),
                    show(&s),
                    show(&n),
                    if south { "S" } else { "N" }
                );
            },
        );
        explored += search.nodes().len();
    }
    println!("pair south {south_seeds} north {}: {samples} roots, {explored} positions, {found} quiet cycle classes", 64 - south_seeds);
}

/// Compare the model with the rules crate: on random positions where South has no capture
/// move, the model's moves must give exactly the South rings of the legal moves that do not
/// end the game (never-ending moves and moves that empty South's front row).
fn check(samples: u64, seed: u64) {
    use bao_rules::{legal_moves, Position, Rules, Side, Variant};
    let rules = Rules::new(Variant::Kiswahili);
    let mut rng = bao_rules::Rng::new(seed);
    let (mut compared, mut moves_seen) = (0u64, 0usize);
    for _ in 0..samples {
        let k = 4 + rng.below(57) as u32;
        let s = uniform_ring(&mut rng, k);
        let n = uniform_ring(&mut rng, 64 - k);
        if has_capture(&s, &n) {
            continue;
        }
        let list = |it: &mut dyn Iterator<Item = u8>| {
            it.map(|x| x.to_string()).collect::<Vec<_>>().join(",")
        };
        let text = format!(
            "kiswahili {}/{}/{}/{} S 0/0 - 0",
            list(&mut n[8..16].iter().copied()),
            list(&mut n[..8].iter().rev().copied()),
            list(&mut s[..8].iter().copied()),
            list(&mut s[8..16].iter().rev().copied()),
        );
        let p = Position::parse(&text, &rules).expect("valid position");
        let mut real: Vec<Ring> = legal_moves(&p, &rules)
            .iter()
            .filter(|m| !m.is_never_ending() && !m.next.front_row_empty(Side::South))
            .map(|m| {
                assert_eq!(m.captured_pits(), 0, "{text}");
                assert_eq!(m.next.ring(Side::North), &n, "{text}");
                *m.next.ring(Side::South)
            })
            .collect();
        let mut model: Vec<Ring> = moves(&s).into_iter().map(|(_, _, r)| r).collect();
        real.sort_unstable();
        model.sort_unstable();
        assert_eq!(real, model, "{text}");
        compared += 1;
        moves_seen += real.len();
    }
    println!("model agrees with the rules crate on {compared} positions ({moves_seen} moves)");
}

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    match argv.first().map(|s| s.as_str()) {
        Some("scc") => {
            let lo: u32 = argv[1].parse().unwrap();
            let hi: u32 = argv.get(2).map(|s| s.parse().unwrap()).unwrap_or(lo);
            let quiet = argv.iter().any(|a| a == "--no-reach");
            for k in lo..=hi {
                scc(k, quiet);
            }
        }
        Some("alt") => {
            let lo: u32 = argv[1].parse().unwrap();
            let hi: u32 = argv[2].parse().unwrap();
            let quiet = argv.iter().any(|a| a == "--no-reach");
            for k in lo..=hi {
                alt(k, quiet);
            }
        }
        Some("mask") => {
            let seeds: u32 = argv[1].parse().unwrap();
            let mask = u8::from_str_radix(&argv[2], 2).unwrap();
            let k: u8 = argv[3].parse().unwrap();
            let samples: u64 = argv[4].parse().unwrap();
            let seed: u64 = argv.get(5).map(|s| s.parse().unwrap()).unwrap_or(1);
            mask_search(seeds, mask, k, samples, seed);
        }
        Some("pair") => {
            let south: u32 = argv[1].parse().unwrap();
            let samples: u64 = argv[2].parse().unwrap();
            let budget: usize = argv[3].parse().unwrap();
            let seed: u64 = argv.get(4).map(|s| s.parse().unwrap()).unwrap_or(1);
            pair_search(south, samples, budget, seed);
        }
        Some("check") => {
            check(
                argv[1].parse().unwrap(),
                argv.get(2).map_or(1, |s| s.parse().unwrap()),
            );
        }
        _ => {
            eprintln!(
                "usage: repetition_ring check|scc|alt|mask|pair ... (see the head of the file)"
            );
            std::process::exit(2)
        }
    }
}
