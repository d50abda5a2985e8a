//! Swiss pairings over many random tournaments, checked against the rules they must keep.
//!
//! The seed is printed; `BAO_SWISS_SEED=N cargo test -p bao-tournament --test swiss_random`
//! repeats a run.

use bao_tournament::matching::max_weight_matching;
use bao_tournament::swiss::SwissPlayer;
use bao_tournament::{Format, GameResult, Player, PlayerId, Side, Tournament};
use std::collections::HashSet;

/// splitmix64: small, deterministic, good enough for test data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn seed() -> u64 {
    let s = std::env::var("BAO_SWISS_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(1)
        });
    eprintln!("BAO_SWISS_SEED={s}");
    s
}

/// Whether the players can all be paired (one taking the bye when odd) with no repeat, no
/// second bye and no forbidden pair: by trying every pairing when small, else by a
/// maximum-cardinality matching on the allowed pairs only.
fn repeat_free_exists(ps: &[SwissPlayer], forbidden: &HashSet<(PlayerId, PlayerId)>) -> bool {
    let n = ps.len();
    let allowed = |i: usize, j: usize| -> bool {
        if j == n {
            return !ps[i].had_bye;
        }
        !ps[i].opponents.contains(&ps[j].id) && !forbidden.contains(&(ps[i].id, ps[j].id))
    };
    let verts = n + n % 2;
    if verts <= 12 {
        fn go(free: &mut Vec<usize>, allowed: &dyn Fn(usize, usize) -> bool) -> bool {
            let Some(a) = free.pop() else { return true };
            for k in 0..free.len() {
                let b = free[k];
                let (x, y) = (a.min(b), a.max(b));
                if allowed(x, y) {
                    free.remove(k);
                    if go(free, allowed) {
                        return true;
                    }
                    free.insert(k, b);
                }
            }
            free.push(a);
            false
        }
        let mut free: Vec<usize> = (0..verts).collect();
        return go(&mut free, &allowed);
    }
    let mut edges = Vec::new();
    for i in 0..n {
        for j in i + 1..verts {
            if allowed(i, j) {
                edges.push((i, j, 1));
            }
        }
    }
    let mate = max_weight_matching(&edges, true);
    mate.len() == verts && mate.iter().all(Option::is_some)
}

/// Two players who must both have the same side (absolute preferences, FIDE's term).
fn side_conflict(a: &SwissPlayer, b: &SwissPlayer) -> bool {
    let (pa, sa) = a.preference();
    let (pb, sb) = b.preference();
    sa == 3 && sb == 3 && pa == pb
}

/// A pairing's costs, each to be as small as possible, the first first: repeats (and second
/// byes), absolute side conflicts, and the sum of the squared score-group distances of the
/// pairs (the bye counting as a group below the lowest).
type Costs = (usize, usize, usize);

/// The score group of each player (0 the top).
fn groups(ps: &[SwissPlayer]) -> Vec<usize> {
    let mut scores: Vec<f64> = ps.iter().map(|p| p.score).collect();
    scores.sort_by(|a, b| b.total_cmp(a));
    scores.dedup();
    ps.iter()
        .map(|p| scores.iter().position(|&s| s == p.score).unwrap())
        .collect()
}

/// The least costs over every way of pairing the players (the bye included), found by
/// trying them all: for up to 12 players.
fn best_by_brute_force(ps: &[SwissPlayer], forbidden: &HashSet<(PlayerId, PlayerId)>) -> Costs {
    let n = ps.len();
    let verts = n + n % 2;
    let g = groups(ps);
    let lowest = g.iter().max().unwrap() + 1;
    let cost = |i: usize, j: usize| -> Option<Costs> {
        if j == n {
            let d = lowest - g[i];
            return Some((usize::from(ps[i].had_bye), 0, d * d));
        }
        if forbidden.contains(&(ps[i].id, ps[j].id)) {
            return None;
        }
        let rep = ps[i].opponents.iter().filter(|&&o| o == ps[j].id).count();
        let d = g[i].abs_diff(g[j]);
        Some((rep, usize::from(side_conflict(&ps[i], &ps[j])), d * d))
    };
    fn go(
        free: &mut Vec<usize>,
        acc: Costs,
        best: &mut Option<Costs>,
        cost: &dyn Fn(usize, usize) -> Option<Costs>,
    ) {
        let Some(a) = free.pop() else {
            if best.is_none_or(|b| acc < b) {
                *best = Some(acc);
            }
            return;
        };
        for k in 0..free.len() {
            let b = free[k];
            if let Some(c) = cost(a.min(b), a.max(b)) {
                free.remove(k);
                go(free, (acc.0 + c.0, acc.1 + c.1, acc.2 + c.2), best, cost);
                free.insert(k, b);
            }
        }
        free.push(a);
    }
    let mut best = None;
    go(&mut (0..verts).collect(), (0, 0, 0), &mut best, &cost);
    best.expect("some pairing")
}

#[derive(Default, Debug)]
struct Tally {
    rounds: usize,
    games: usize,
    repeats: usize,
    far_floats: usize,
    three_in_a_row: usize,
    difference_over_two: usize,
    bye_not_lowest: usize,
}

#[test]
fn random_swiss_tournaments_keep_the_rules() {
    let mut rng = Rng(seed());
    let mut t = Tally::default();
    for case in 0..1000 {
        let n = 2 + rng.below(if case % 10 == 0 { 60 } else { 24 });
        // Rounds: up to a little more than a Swiss usually has, but fewer than n.
        let log = (usize::BITS - n.leading_zeros()) as usize;
        let rounds = 1 + rng.below((log + 2).min(n - 1));
        let players: Vec<Player> = (0..n)
            .map(|i| Player::rated(format!("p{i}"), 1000 + rng.below(1500) as i32))
            .collect();
        let strength: Vec<i32> = players.iter().map(|p| p.rating.unwrap()).collect();
        let mut tour = Tournament::new(Format::Swiss { rounds }, players).unwrap();
        // Now and then a few forbidden pairs (clubs of two).
        if case % 4 == 0 && n >= 6 {
            for k in 0..rng.below(n / 3) {
                let (a, b) = (2 * k, 2 * k + 1);
                tour.forbid(PlayerId(a), PlayerId(b)).unwrap();
            }
        }
        let forbidden: HashSet<(PlayerId, PlayerId)> = tour
            .forbidden
            .iter()
            .flat_map(|&(a, b)| [(a, b), (b, a)])
            .collect();
        for r in 1..=rounds {
            let before = tour.swiss_players();
            let possible = repeat_free_exists(&before, &forbidden);
            let round = match tour.pair_next_round() {
                Ok(round) => round.clone(),
                Err(e) => panic!("case {case} n {n} round {r}: {e}"),
            };
            t.rounds += 1;
            let by_id = |id: PlayerId| before.iter().find(|p| p.id == id).unwrap();
            // Everyone exactly once: in one game or on the bye.
            let mut seen = HashSet::new();
            for g in &round.pairings {
                assert!(seen.insert(g.south) && seen.insert(g.north), "case {case}");
                assert!(
                    !forbidden.contains(&(g.south, g.north)),
                    "case {case}: forbidden"
                );
            }
            if let Some(b) = round.bye {
                assert!(seen.insert(b));
            }
            assert_eq!(seen.len(), n, "case {case}");
            assert_eq!(round.bye.is_some(), n % 2 == 1);

            // No repeat (and no second bye) while a pairing without one exists.
            let repeats = round
                .pairings
                .iter()
                .filter(|g| by_id(g.south).opponents.contains(&g.north))
                .count()
                + usize::from(round.bye.is_some_and(|b| by_id(b).had_bye));
            if possible {
                assert_eq!(
                    repeats, 0,
                    "case {case} n {n} round {r}: a repeat that was avoidable"
                );
            }
            t.repeats += repeats;
            // Small fields: no absolute side conflict unless every pairing with as few
            // repeats has one, and score groups as close as those two allow.
            if n <= 12 {
                let conflicts = round
                    .pairings
                    .iter()
                    .filter(|g| side_conflict(by_id(g.south), by_id(g.north)))
                    .count();
                let gs = groups(&before);
                let gi = |id: PlayerId| gs[before.iter().position(|p| p.id == id).unwrap()];
                let lowest = gs.iter().max().unwrap() + 1;
                let distance: usize = round
                    .pairings
                    .iter()
                    .map(|g| gi(g.south).abs_diff(gi(g.north)).pow(2))
                    .chain(round.bye.map(|b| (lowest - gi(b)).pow(2)))
                    .sum();
                let best = best_by_brute_force(&before, &forbidden);
                assert_eq!(
                    (repeats, conflicts, distance),
                    best,
                    "case {case} n {n} round {r}"
                );
            }

            // Score groups: distinct scores, highest first.
            let mut scores: Vec<f64> = before.iter().map(|p| p.score).collect();
            scores.sort_by(|a, b| b.total_cmp(a));
            scores.dedup();
            let group = |id: PlayerId| scores.iter().position(|&s| s == by_id(id).score).unwrap();
            for g in &round.pairings {
                t.games += 1;
                if group(g.south).abs_diff(group(g.north)) > 1 {
                    t.far_floats += 1;
                }
            }
            // The bye: to a player of the lowest group among those without one.
            if let Some(b) = round.bye {
                let eligible: Vec<&SwissPlayer> = before.iter().filter(|p| !p.had_bye).collect();
                let lowest = eligible.iter().map(|p| group(p.id)).max();
                if !by_id(b).had_bye && Some(group(b)) != lowest {
                    t.bye_not_lowest += 1;
                }
            }
            // Results: the stronger player wins more often; some draws.
            for g in &round.pairings {
                let d = strength[g.south.0] - strength[g.north.0];
                let x = rng.below(1000) as i32 + d / 2;
                let res = if x > 600 {
                    GameResult::SouthWins
                } else if x > 400 {
                    GameResult::Draw
                } else {
                    GameResult::NorthWins
                };
                tour.record(r, *g, res).unwrap();
            }
        }
        // Sides: no one three times running on one side, no difference beyond two.
        // (Small fields were checked round by round above: there a full schedule can force
        // it.)
        for p in tour.swiss_players().into_iter().filter(|_| n > 12) {
            let sides: Vec<Side> = p.sides.iter().flatten().copied().collect();
            if sides.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]) {
                t.three_in_a_row += 1;
            }
            if p.side_difference().abs() > 2 {
                t.difference_over_two += 1;
            }
        }
    }
    eprintln!("{t:?}");
    // Where the rules above are not absolute, they hold nearly always.
    assert!(t.far_floats * 50 <= t.games, "{t:?}");
    assert!(t.three_in_a_row == 0 && t.difference_over_two == 0, "{t:?}");
    assert!(t.bye_not_lowest * 20 <= t.rounds, "{t:?}");
}
