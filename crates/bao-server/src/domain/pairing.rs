//! Quick pairing (docs/api.md, "Finding an opponent", "Quick pairing"): who plays whom among
//! the tickets waiting in the pools. Pure: the tickets, their ratings, how long they waited
//! and the blocks are passed in, the pairs come out; the store claims them afterwards.
//!
//! The rule: within one pool (a variant and a clock), the tickets sorted by rating; each
//! ticket's allowed difference grows with its waiting time ([`range`]); a pair is allowed when
//! the difference of the two ratings is within both players' ranges, the accounts differ and
//! neither blocked the other. Among the allowed pairs between near neighbours in the rating
//! order, the closest ratings are paired first (greedy), and an account is paired at most once
//! per pass (it may wait in several pools at once).

use std::collections::HashSet;

/// The allowed rating difference of a ticket that has just arrived.
pub const RANGE_START: i64 = 100;
/// Added to the allowed difference per [`RANGE_STEP_MS`] waited.
pub const RANGE_GROWTH: i64 = 50;
/// The waiting time per step of the allowed difference (5 s).
pub const RANGE_STEP_MS: i64 = 5_000;
/// The allowed difference never grows past this.
pub const RANGE_MAX: i64 = 1_000;
/// How far apart in the rating order (of one pool) two tickets may be and still be tried: a
/// neighbour that is blocked or the same account is skipped for the next ones.
pub const NEIGHBOURS: usize = 8;

/// A waiting ticket as the pairing sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Waiting {
    /// The ticket id.
    pub ticket: String,
    /// The account that waits.
    pub account: String,
    /// The pool: variant and clock (tickets of different pools never meet).
    pub pool: String,
    /// The account's rating in the pool's variant.
    pub rating: i64,
    /// When it started waiting, ms since the epoch.
    pub since: i64,
}

/// The allowed rating difference after waiting `waited_ms`: [`RANGE_START`], plus
/// [`RANGE_GROWTH`] per whole [`RANGE_STEP_MS`] waited, at most [`RANGE_MAX`].
pub fn range(waited_ms: i64) -> i64 {
    let steps = waited_ms.max(0) / RANGE_STEP_MS;
    RANGE_START
        .saturating_add(steps.saturating_mul(RANGE_GROWTH))
        .min(RANGE_MAX)
}

/// The pairs to make now among `tickets` (indexes into it, the lower rating first), given
/// the blocks (`(blocker, blocked)` account ids, one way each) and the time.
pub fn pair(tickets: &[Waiting], blocks: &[(String, String)], now: i64) -> Vec<(usize, usize)> {
    let blocked: HashSet<(&str, &str)> = blocks
        .iter()
        .flat_map(|(a, b)| [(a.as_str(), b.as_str()), (b.as_str(), a.as_str())])
        .collect();
    let mut taken_tickets = vec![false; tickets.len()];
    let mut taken_accounts: HashSet<&str> = HashSet::new();
    let mut out = Vec::new();
    // Passes until one pairs nobody: after a pass, tickets whose neighbours were all taken
    // become neighbours of each other and are tried in the next.
    loop {
        let mut order: Vec<usize> = (0..tickets.len())
            .filter(|&i| !taken_tickets[i] && !taken_accounts.contains(tickets[i].account.as_str()))
            .collect();
        order.sort_by(|&a, &b| {
            let (x, y) = (&tickets[a], &tickets[b]);
            x.pool
                .cmp(&y.pool)
                .then(x.rating.cmp(&y.rating))
                .then(x.since.cmp(&y.since))
                .then(x.ticket.cmp(&y.ticket))
        });
        // Candidate pairs: each ticket with its next few neighbours in the same pool.
        let mut edges: Vec<(i64, i64, usize, usize)> = Vec::new();
        for (k, &i) in order.iter().enumerate() {
            let a = &tickets[i];
            let range_a = range(now - a.since);
            for &j in order.iter().skip(k + 1).take(NEIGHBOURS) {
                let b = &tickets[j];
                if b.pool != a.pool {
                    break;
                }
                let diff = (b.rating - a.rating).abs();
                if diff > range_a {
                    // Sorted by rating: the ones further on are further from `a` still.
                    break;
                }
                if diff > range(now - b.since)
                    || a.account == b.account
                    || blocked.contains(&(a.account.as_str(), b.account.as_str()))
                {
                    continue;
                }
                // The longest waiter first among equal differences.
                edges.push((diff, a.since.min(b.since), i, j));
            }
        }
        edges.sort();
        let before = out.len();
        for (_, _, i, j) in edges {
            let (a, b) = (&tickets[i], &tickets[j]);
            if taken_tickets[i]
                || taken_tickets[j]
                || taken_accounts.contains(a.account.as_str())
                || taken_accounts.contains(b.account.as_str())
            {
                continue;
            }
            taken_tickets[i] = true;
            taken_tickets[j] = true;
            taken_accounts.insert(&a.account);
            taken_accounts.insert(&b.account);
            out.push((i, j));
        }
        if out.len() == before {
            return out;
        }
    }
}

/// A crowd of `n` waiting players in three pools, with ratings 800 to 2400, waits up to 60 s
/// and one block per 20 players, from `seed` (the pairing test and bench).
pub fn crowd(n: usize, seed: u64) -> (Vec<Waiting>, Vec<(String, String)>, i64) {
    // A small linear congruential generator: the domain takes no random source.
    let mut x = seed | 1;
    let mut next = move |m: u64| {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (x >> 33) % m
    };
    let now = 1_800_000_000_000_i64;
    let pools = ["kete 300000+3000", "kete 600000+5000", "kiswahili 1d"];
    let tickets: Vec<Waiting> = (0..n)
        .map(|i| Waiting {
            ticket: format!("t{i}"),
            account: format!("a{i}"),
            pool: pools[next(3) as usize].to_string(),
            rating: 800 + next(1600) as i64,
            since: now - next(60_000) as i64,
        })
        .collect();
    let blocks = (0..n / 20)
        .map(|_| {
            (
                format!("a{}", next(n as u64)),
                format!("a{}", next(n as u64)),
            )
        })
        .collect();
    (tickets, blocks, now)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(id: &str, account: &str, rating: i64, since: i64) -> Waiting {
        Waiting {
            ticket: id.into(),
            account: account.into(),
            pool: "kete 300000+3000".into(),
            rating,
            since,
        }
    }

    fn names(tickets: &[Waiting], pairs: &[(usize, usize)]) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = pairs
            .iter()
            .map(|&(i, j)| {
                let (a, b) = (tickets[i].ticket.clone(), tickets[j].ticket.clone());
                if a < b {
                    (a, b)
                } else {
                    (b, a)
                }
            })
            .collect();
        v.sort();
        v
    }

    #[test]
    fn the_range_widens_with_waiting_and_stops() {
        assert_eq!(range(0), 100);
        assert_eq!(range(4_999), 100);
        assert_eq!(range(5_000), 150);
        assert_eq!(range(60_000), 700);
        assert_eq!(range(90_000), 1_000);
        assert_eq!(range(i64::MAX), 1_000);
        assert_eq!(range(-5), 100);
    }

    #[test]
    fn closest_ratings_first() {
        let now = 1_000_000;
        let ts = vec![
            t("a", "A", 1500, now),
            t("b", "B", 1590, now),
            t("c", "C", 1510, now),
            t("d", "D", 1600, now),
        ];
        // a-c (10) and b-d (10), not a-b or c-b.
        let p = pair(&ts, &[], now);
        assert_eq!(
            names(&ts, &p),
            [("a".into(), "c".into()), ("b".into(), "d".into())]
        );
    }

    #[test]
    fn too_far_apart_until_both_waited() {
        let now = 1_000_000;
        let ts = vec![t("a", "A", 1500, now), t("b", "B", 1800, now)];
        assert!(pair(&ts, &[], now).is_empty());
        // A difference of 300 needs 20 s of waiting from both (100 + 4 * 50).
        let ts = vec![t("a", "A", 1500, now - 20_000), t("b", "B", 1800, now)];
        assert!(pair(&ts, &[], now).is_empty(), "b has just come");
        let ts = vec![
            t("a", "A", 1500, now - 20_000),
            t("b", "B", 1800, now - 20_000),
        ];
        assert_eq!(pair(&ts, &[], now).len(), 1);
    }

    #[test]
    fn never_the_same_account_nor_a_blocked_pair() {
        let now = 1_000_000;
        let ts = vec![
            t("a1", "A", 1500, now),
            t("b", "B", 1500, now),
            t("c", "C", 1502, now),
        ];
        // Unblocked, A and B (equal ratings) play.
        assert_eq!(
            names(&ts, &pair(&ts, &[], now)),
            [("a1".into(), "b".into())]
        );
        // B blocked A: one of them plays C, the other waits.
        let blocks = vec![("B".to_string(), "A".to_string())];
        let p = pair(&ts, &blocks, now);
        assert_eq!(p.len(), 1);
        assert_ne!(names(&ts, &p), [("a1".to_string(), "b".to_string())]);
        assert!(names(&ts, &p)[0].1 == "c");
        // One account in two pools is paired once per pass.
        let mut other = t("a2", "A", 1500, now);
        other.pool = "kete 600000+5000".into();
        let ts = vec![t("a1", "A", 1500, now), t("b", "B", 1500, now), other, {
            let mut x = t("d", "D", 1500, now);
            x.pool = "kete 600000+5000".into();
            x
        }];
        let p = pair(&ts, &[], now);
        assert_eq!(p.len(), 1, "{p:?}");
        // Alone with itself: no game.
        let ts = vec![t("x", "A", 1500, now), t("y", "A", 1500, now)];
        assert!(pair(&ts, &[], now).is_empty());
    }

    #[test]
    fn pools_never_mix() {
        let now = 0;
        let mut b = t("b", "B", 1500, now);
        b.pool = "kiswahili 1d".into();
        let ts = vec![t("a", "A", 1500, now), b];
        assert!(pair(&ts, &[], now).is_empty());
    }

    /// 1,000 waiting players with random ratings and waits, some blocks: every pair is
    /// allowed, no ticket or account is used twice, and no two tickets left waiting could have
    /// been paired as neighbours (the greedy pass leaves no allowed pair of free neighbours).
    /// The time of one pass: `measure_pairing_pass` in tests/seeks_sqlite.rs (docs/api.md).
    #[test]
    fn a_thousand_players() {
        let seed: u64 = std::env::var("BAO_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(rand::random);
        println!("seed {seed}");
        let (ts, blocks, now) = crowd(1_000, seed);
        let p = pair(&ts, &blocks, now);
        let blocked: HashSet<(&str, &str)> = blocks
            .iter()
            .flat_map(|(a, b)| [(a.as_str(), b.as_str()), (b.as_str(), a.as_str())])
            .collect();
        let mut used = HashSet::new();
        let mut used_accounts = HashSet::new();
        for &(i, j) in &p {
            let (a, b) = (&ts[i], &ts[j]);
            assert!(used.insert(i) && used.insert(j), "seed {seed}");
            assert!(used_accounts.insert(&a.account) && used_accounts.insert(&b.account));
            assert_eq!(a.pool, b.pool);
            assert_ne!(a.account, b.account);
            assert!(!blocked.contains(&(a.account.as_str(), b.account.as_str())));
            let d = (a.rating - b.rating).abs();
            assert!(d <= range(now - a.since) && d <= range(now - b.since));
        }
        assert!(
            p.len() > 300,
            "most of a dense crowd is paired: {}",
            p.len()
        );
        // No free pair of direct neighbours left that the rule allows.
        let mut free: Vec<usize> = (0..ts.len())
            .filter(|i| !used.contains(i) && !used_accounts.contains(&ts[*i].account))
            .collect();
        free.sort_by_key(|&i| (ts[i].pool.clone(), ts[i].rating));
        for w in free.windows(2) {
            let (a, b) = (&ts[w[0]], &ts[w[1]]);
            let ok = a.pool == b.pool
                && a.account != b.account
                && !blocked.contains(&(a.account.as_str(), b.account.as_str()))
                && (a.rating - b.rating).abs() <= range(now - a.since).min(range(now - b.since));
            assert!(!ok, "seed {seed}: {a:?} and {b:?} were left waiting");
        }
    }
}
