//! Round robins by Berger tables (the tables FIDE publishes for all-play-all events).
//!
//! Players are numbered 1..n in seed order. With an odd number of players a dummy player
//! n+1 is added and whoever meets it has a bye that round. With n (even) numbers and r
//! rounds 1..n-1, players i, j < n meet in round r when i + j ≡ r + 1 (mod n-1), and player n
//! meets the player i with 2i ≡ r + 1 (mod n-1). Sides follow the tables: player n has
//! North in odd rounds and South in even ones; of two other players, South goes to the one
//! from whom the opponent is an odd number of steps ahead (mod n-1). So every player's
//! sides alternate as far as the table allows, and the Souths of any two players differ by
//! at most one. South moves first (BRD-1.3): it is the side chess calls White.
//!
//! A double round robin plays the table twice, the second cycle with every game's sides
//! swapped, so every pair meets once with each player as South. As FIDE advises, the last
//! two rounds of the first cycle are played in the other order, so that no one has the
//! same side three times running where the cycles meet (from six players; with four, no
//! order of the rounds avoids it).

use crate::types::{Pairing, PlayerId, Round};

/// The rounds of a round robin among `players`, given in seed order (the first is number 1
/// of the table). `double` plays everything twice, sides swapped in the second cycle.
///
/// Fewer than two players give no rounds.
///
/// ```
/// use bao_tournament::{berger, PlayerId};
///
/// let p: Vec<PlayerId> = (0..4).map(PlayerId).collect();
/// let rounds = berger::rounds(&p, false);
/// assert_eq!(rounds.len(), 3);
/// // Round 1 of the 4-player table: 1-4, 2-3 (South first).
/// let r1: Vec<(usize, usize)> =
///     rounds[0].pairings.iter().map(|g| (g.south.0 + 1, g.north.0 + 1)).collect();
/// assert_eq!(r1, [(1, 4), (2, 3)]);
///
/// // Five players: a bye each round, everyone sits out once.
/// let p: Vec<PlayerId> = (0..5).map(PlayerId).collect();
/// let rounds = berger::rounds(&p, true);
/// assert_eq!(rounds.len(), 10);
/// assert!(rounds.iter().all(|r| r.pairings.len() == 2 && r.bye.is_some()));
/// ```
pub fn rounds(players: &[PlayerId], double: bool) -> Vec<Round> {
    let count = players.len();
    if count < 2 {
        return Vec::new();
    }
    // With an odd count, number n is the dummy: meeting it is a bye.
    let n = count + count % 2;
    let m = n - 1;
    let id = |k: usize| -> Option<PlayerId> { players.get(k - 1).copied() };
    let mut out = Vec::new();
    for r in 1..=m {
        let target = (r + 1) % m;
        // The partner of n: 2i ≡ r+1 (mod m), m odd.
        let p = (1..=m).find(|&i| (2 * i) % m == target).expect("m is odd");
        let mut games = Vec::new();
        let mut bye = None;
        // Table 1: player n; then tables outward from p, as printed in the tables.
        let (s, t) = if r % 2 == 1 { (p, n) } else { (n, p) };
        match (id(s), id(t)) {
            (Some(s), Some(t)) => games.push(Pairing { south: s, north: t }),
            (Some(x), None) | (None, Some(x)) => bye = Some(x),
            (None, None) => {}
        }
        for k in 1..n / 2 {
            let a = (p - 1 + k) % m + 1;
            let b = (p - 1 + m - k) % m + 1;
            // South is the one from whom the other is an odd number of steps ahead.
            let (s, t) = if (b + m - a) % m % 2 == 1 {
                (a, b)
            } else {
                (b, a)
            };
            if let (Some(s), Some(t)) = (id(s), id(t)) {
                games.push(Pairing { south: s, north: t });
            }
        }
        out.push(Round::new(r, games, bye));
    }
    if double {
        // FIDE's advice for double round robins: swap the last two rounds of the first
        // cycle, so that no one plays the same side three times running across the turn.
        if m >= 3 {
            out.swap(m - 2, m - 1);
            out[m - 2].number = m - 1;
            out[m - 1].number = m;
        }
        let first: Vec<Round> = out.clone();
        for (i, r) in first.into_iter().enumerate() {
            let swapped = r
                .pairings
                .iter()
                .map(|g| Pairing {
                    south: g.north,
                    north: g.south,
                })
                .collect();
            out.push(Round::new(m + i + 1, swapped, r.bye));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn table(n: usize) -> Vec<Vec<(usize, usize)>> {
        let p: Vec<PlayerId> = (0..n).map(PlayerId).collect();
        rounds(&p, false)
            .iter()
            .map(|r| {
                r.pairings
                    .iter()
                    .map(|g| (g.south.0 + 1, g.north.0 + 1))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn matches_the_published_tables() {
        // FIDE's Berger tables for 4, 6 and 8 players, White (South) first.
        assert_eq!(
            table(4),
            [
                vec![(1, 4), (2, 3)],
                vec![(4, 3), (1, 2)],
                vec![(2, 4), (3, 1)]
            ]
        );
        assert_eq!(
            table(6),
            [
                vec![(1, 6), (2, 5), (3, 4)],
                vec![(6, 4), (5, 3), (1, 2)],
                vec![(2, 6), (3, 1), (4, 5)],
                vec![(6, 5), (1, 4), (2, 3)],
                vec![(3, 6), (4, 2), (5, 1)],
            ]
        );
        assert_eq!(
            table(8),
            [
                vec![(1, 8), (2, 7), (3, 6), (4, 5)],
                vec![(8, 5), (6, 4), (7, 3), (1, 2)],
                vec![(2, 8), (3, 1), (4, 7), (5, 6)],
                vec![(8, 6), (7, 5), (1, 4), (2, 3)],
                vec![(3, 8), (4, 2), (5, 1), (6, 7)],
                vec![(8, 7), (1, 6), (2, 5), (3, 4)],
                vec![(4, 8), (5, 3), (6, 2), (7, 1)],
            ]
        );
    }

    #[test]
    fn every_pair_meets_the_right_number_of_times_for_2_to_20_players() {
        for n in 2..=20 {
            for double in [false, true] {
                let p: Vec<PlayerId> = (0..n).map(PlayerId).collect();
                let rs = rounds(&p, double);
                let cycle = if n % 2 == 0 { n - 1 } else { n };
                assert_eq!(rs.len(), cycle * if double { 2 } else { 1 }, "n {n}");
                // Ordered (south, north) counts.
                let mut met: HashMap<(usize, usize), usize> = HashMap::new();
                let mut byes = vec![0; n];
                for (i, r) in rs.iter().enumerate() {
                    assert_eq!(r.number, i + 1);
                    let mut seen = vec![false; n];
                    for g in &r.pairings {
                        assert_ne!(g.south, g.north);
                        for x in [g.south, g.north] {
                            assert!(!seen[x.0], "n {n}: {x} twice in round {}", r.number);
                            seen[x.0] = true;
                        }
                        *met.entry((g.south.0, g.north.0)).or_default() += 1;
                    }
                    match r.bye {
                        Some(b) => {
                            assert_eq!(n % 2, 1);
                            assert!(!seen[b.0]);
                            seen[b.0] = true;
                            byes[b.0] += 1;
                        }
                        None => assert_eq!(n % 2, 0),
                    }
                    // Everyone plays or has the bye, every round.
                    assert!(seen.iter().all(|&s| s), "n {n} round {}", r.number);
                    assert_eq!(r.pairings.len(), n / 2);
                }
                for a in 0..n {
                    for b in a + 1..n {
                        let ab = met.get(&(a, b)).copied().unwrap_or(0);
                        let ba = met.get(&(b, a)).copied().unwrap_or(0);
                        if double {
                            assert_eq!((ab, ba), (1, 1), "n {n}: {a} v {b}");
                        } else {
                            assert_eq!(ab + ba, 1, "n {n}: {a} v {b}");
                        }
                    }
                }
                // Odd counts: each player sits out once a cycle.
                let want = if n % 2 == 1 {
                    if double {
                        2
                    } else {
                        1
                    }
                } else {
                    0
                };
                assert!(byes.iter().all(|&b| b == want), "n {n} byes {byes:?}");
            }
        }
    }

    #[test]
    fn no_one_has_a_side_three_times_running() {
        // Even fields (no byes to break the run), single and double. With four players no
        // order of the three rounds avoids it when the second cycle repeats the first
        // (all six orders tried: each leaves someone three in a row).
        for n in (6..=20).step_by(2) {
            for double in [false, true] {
                let p: Vec<PlayerId> = (0..n).map(PlayerId).collect();
                let rs = rounds(&p, double);
                for x in &p {
                    let sides: Vec<bool> = rs
                        .iter()
                        .map(|r| r.pairings.iter().any(|g| g.south == *x))
                        .collect();
                    assert!(
                        !sides.windows(3).any(|w| w[0] == w[1] && w[1] == w[2]),
                        "n {n} double {double}: {x} {sides:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn sides_are_balanced_as_in_the_tables() {
        for n in 2..=20 {
            let p: Vec<PlayerId> = (0..n).map(PlayerId).collect();
            let rs = rounds(&p, false);
            let mut souths = vec![0i32; n];
            let mut norths = vec![0i32; n];
            for r in &rs {
                for g in &r.pairings {
                    souths[g.south.0] += 1;
                    norths[g.north.0] += 1;
                }
            }
            // Each player's Souths and Norths differ by at most one, and any two players'
            // Souths by at most one.
            for i in 0..n {
                assert!((souths[i] - norths[i]).abs() <= 1, "n {n} player {i}");
            }
            let (lo, hi) = (souths.iter().min().unwrap(), souths.iter().max().unwrap());
            assert!(hi - lo <= 1, "n {n} souths {souths:?}");
        }
    }
}
