//! Swiss pairing by maximum-weight matching.
//!
//! Every round, each player is put in a **score group** (players on the same points) and
//! ranked: points first, then pairing number (the order the players are given in, which
//! [`crate::seed_order`] makes rating order). The players (and, with an odd number, one
//! extra vertex standing for the bye) form a complete graph, less the organiser's forbidden
//! pairs. Each edge gets an integer weight that stacks these criteria, each one worth more
//! than all the ones below it together, and [`crate::matching::max_weight_matching`] takes
//! the matching that pairs the most players and, among those, weighs most:
//!
//! 1. **No repeat.** Two players who have met are paired again only if no pairing without
//!    a repeat exists (fewest repeats). Likewise the bye goes to a player who has had one
//!    only if it cannot be avoided.
//! 2. **Absolute side rule.** Two players who must both have the same side (a player must
//!    not play the same side three times in a row, nor have a side difference beyond ±2)
//!    are not paired where avoidable.
//! 3. **Score groups.** Each pair's cost is the square of the number of score groups
//!    between the players (0 within a group, 1 between adjacent groups), plus a little for
//!    how high the float happens, so that the top groups are paired among themselves
//!    first. The bye counts as a player below the lowest group: it goes to the lowest
//!    group.
//! 4. **Side preferences.** Two players who both prefer the same side cost the strength of
//!    the weaker preference (strong, for a side difference of one, or mild, to alternate).
//! 5. **Who floats.** The player who floats down is the lowest-ranked of his group; the
//!    bye goes to the lowest-ranked player of the lowest group.
//! 6. **Dutch order.** Within a group, the top half meets the bottom half in order (1 v 5,
//!    2 v 6, ... in a group of eight); a player who floats down meets the highest-ranked
//!    of the group below that he can.
//!
//! Sides are then allotted pair by pair (FIDE's rules, in order): grant both preferences
//! if they differ; else the stronger one; else alternate from the last round in which the
//! two had different sides; else the higher-ranked player's. With no preference at all
//! (the first round), the higher-ranked player takes South on odd boards and North on even
//! ones. South moves first (BRD-1.3).
//!
//! # How close this is to FIDE's Dutch system
//!
//! The Dutch system (FIDE Handbook C.04.3) pairs score group by score group from the top,
//! trying transpositions and exchanges of the group's halves in a fixed order until its
//! criteria C.1–C.21 are met as well as they can be. This module states the same kinds of
//! criterion as one weight and optimises the whole round at once, as pairing programs built
//! on weighted matching (bbpPairings, for one) do, though they reproduce the Dutch order
//! exactly with weights of many more levels, bracket by bracket. The same:
//! * the absolute criteria: no repeat, at most one bye each, no side three times in a row
//!   or a difference beyond two (while possible: the Dutch system allows the last only for
//!   topscorers in the last round, here it is allowed wherever nothing else pairs);
//! * players paired within their score group first, top-half against bottom-half order,
//!   the lowest-ranked player floating and the bye to the lowest-ranked player of the
//!   lowest group without one;
//! * the side allocation rules.
//!
//! Where it differs:
//! * **Global, not bracket by bracket.** The Dutch system settles the top bracket before
//!   looking at the next; here the squared group distance trades floats across the whole
//!   round, so two one-group floats are preferred to one two-group float even where the
//!   Dutch system would keep a higher bracket intact. The small "how high" term only
//!   breaks ties between equal sums.
//! * **No float history.** The Dutch criteria C.14–C.21 (no player floating down or up
//!   twice in a row, or in the last two rounds) are not applied.
//! * **Side preferences are a cost, not a sequence.** The Dutch system counts the number
//!   of unmet preferences and strong preferences separately (C.12, C.13); here both go into
//!   one cost (mild 1, strong 2), below the score criterion as in the Dutch order.
//! * **Exchange order.** Among pairings equal on every criterion the Dutch system takes the
//!   first in its transposition order; this takes the one that best fits "1 v 5, 2 v 6" by
//!   a distance, which agrees with the Dutch choice in the ordinary case (an even group
//!   with no repeat) and may differ in others.
//! * **Organiser's forbidden pairs** (same club, family) are respected absolutely; FIDE has
//!   no such rule for rated events.

use crate::matching::max_weight_matching;
use crate::types::{Pairing, PlayerId, Side, TournamentError};
use std::collections::HashSet;

/// What the pairing needs to know of one player.
#[derive(Clone, Debug, PartialEq)]
pub struct SwissPlayer {
    /// The player.
    pub id: PlayerId,
    /// Points so far.
    pub score: f64,
    /// Everyone met so far, once per game (forfeits count: the two are not paired again).
    pub opponents: Vec<PlayerId>,
    /// The side played in each round so far, `None` for a bye or an absence.
    pub sides: Vec<Option<Side>>,
    /// Whether the player has had a bye.
    pub had_bye: bool,
}

impl SwissPlayer {
    /// A player before the first round.
    pub fn new(id: PlayerId) -> SwissPlayer {
        SwissPlayer {
            id,
            score: 0.0,
            opponents: Vec::new(),
            sides: Vec::new(),
            had_bye: false,
        }
    }

    /// Souths minus Norths over the games played.
    pub fn side_difference(&self) -> i32 {
        self.sides
            .iter()
            .flatten()
            .map(|s| if *s == Side::South { 1 } else { -1 })
            .sum()
    }

    /// The side the player should have next and how strongly: 3 absolute (a difference of
    /// two, or the same side twice running), 2 strong (a difference of one), 1 mild (even,
    /// alternate from the last game), 0 none (no game yet).
    pub fn preference(&self) -> (Option<Side>, u8) {
        let played: Vec<Side> = self.sides.iter().flatten().copied().collect();
        let diff = self.side_difference();
        let last = played.last().copied();
        let twice = match played.as_slice() {
            [.., a, b] if a == b => Some(*a),
            _ => None,
        };
        if diff <= -2 {
            (Some(Side::South), 3)
        } else if diff >= 2 {
            (Some(Side::North), 3)
        } else if let Some(s) = twice {
            (Some(s.other()), 3)
        } else if diff == -1 {
            (Some(Side::South), 2)
        } else if diff == 1 {
            (Some(Side::North), 2)
        } else if let Some(l) = last {
            (Some(l.other()), 1)
        } else {
            (None, 0)
        }
    }
}

/// A round's pairing: the games, board 1 first, and the bye.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SwissPairing {
    /// The games: the highest score first.
    pub pairings: Vec<Pairing>,
    /// The player who sits out (an odd number of players).
    pub bye: Option<PlayerId>,
}

/// Pairs the next round. `players` are given in pairing-number order (their rank among
/// equal scores); `forbidden` lists pairs the organiser will not have meet.
///
/// Errors: fewer than two players, a player listed twice, and forbidden pairs that leave
/// no way to pair everyone.
///
/// ```
/// use bao_tournament::swiss::{pair, SwissPlayer};
/// use bao_tournament::PlayerId;
///
/// // Round 1 of eight: 1 v 5, 2 v 6, 3 v 7, 4 v 8, the top player South on board 1.
/// let players: Vec<SwissPlayer> = (0..8).map(|i| SwissPlayer::new(PlayerId(i))).collect();
/// let round = pair(&players, &[]).unwrap();
/// let boards: Vec<(usize, usize)> =
///     round.pairings.iter().map(|g| (g.south.0 + 1, g.north.0 + 1)).collect();
/// assert_eq!(boards, [(1, 5), (6, 2), (3, 7), (8, 4)]);
/// assert_eq!(round.bye, None);
///
/// // Forbid 1 v 5: the matching finds the nearest pairing without it.
/// let round = pair(&players, &[(PlayerId(0), PlayerId(4))]).unwrap();
/// assert!(round.pairings.iter().all(|g| g.opponent(PlayerId(0)) != Some(PlayerId(4))));
/// ```
pub fn pair(
    players: &[SwissPlayer],
    forbidden: &[(PlayerId, PlayerId)],
) -> Result<SwissPairing, TournamentError> {
    let n = players.len();
    if n < 2 {
        return Err(TournamentError::TooFewPlayers { needed: 2, got: n });
    }
    let mut ids = HashSet::new();
    for p in players {
        if !ids.insert(p.id) {
            return Err(TournamentError::Invalid(format!(
                "{} is listed twice for the pairing",
                p.id
            )));
        }
    }
    // Rank: points, then pairing number (the given order; the sort is stable).
    let mut rank: Vec<usize> = (0..n).collect();
    rank.sort_by(|&a, &b| players[b].score.total_cmp(&players[a].score));
    // Score groups, 0 the top, and each player's place in its group.
    let mut group = vec![0usize; n];
    let mut pos = vec![0usize; n];
    let mut sizes: Vec<usize> = Vec::new();
    for (r, &i) in rank.iter().enumerate() {
        if r > 0 && players[i].score != players[rank[r - 1]].score {
            sizes.push(0);
        }
        if sizes.is_empty() {
            sizes.push(0);
        }
        group[i] = sizes.len() - 1;
        pos[i] = *sizes.last().expect("a group");
        *sizes.last_mut().expect("a group") += 1;
    }
    let g_count = sizes.len();
    let bye_vertex = (n % 2 == 1).then_some(n);
    let forbid: HashSet<(PlayerId, PlayerId)> = forbidden
        .iter()
        .flat_map(|&(a, b)| [(a, b), (b, a)])
        .collect();
    let prefs: Vec<(Option<Side>, u8)> = players.iter().map(SwissPlayer::preference).collect();

    // The criteria of one edge, highest first (all costs, to be minimised).
    struct Cost {
        repeat: i128,
        absolute: i128,
        score: i128,
        side: i128,
        floater: i128,
        order: i128,
    }
    let gc = g_count as i128;
    // At most this many edges in a matching (the bye's included).
    let edges = (n as i128 + 1) / 2;
    // The squared distance counts first: the "how high" term (at most gc an edge) only
    // breaks ties between equal sums of squares.
    let score_cost = |gi: usize, gj: usize| -> i128 {
        let d = gi.abs_diff(gj) as i128;
        if d == 0 {
            0
        } else {
            d * d * (edges * gc + 1) + (gc - gi.min(gj) as i128)
        }
    };
    let pair_cost = |i: usize, j: usize| -> Cost {
        let (a, b) = (&players[i], &players[j]);
        let repeat = a.opponents.iter().filter(|&&o| o == b.id).count() as i128;
        let (pa, sa) = prefs[i];
        let (pb, sb) = prefs[j];
        let same = pa.is_some() && pa == pb;
        let absolute = i128::from(same && sa == 3 && sb == 3);
        let side = if same {
            i128::from(sa.min(sb).min(2))
        } else {
            0
        };
        // Within a group: top half against bottom half in order. Across groups: the one
        // who floats down should be the lowest of his group (first), and meet the top of
        // the group below (then).
        let (floater, order) = if group[i] == group[j] {
            let half = sizes[group[i]] / 2;
            (0, pos[i].abs_diff(pos[j]).abs_diff(half) as i128)
        } else {
            let (hi, lo) = if group[i] < group[j] { (i, j) } else { (j, i) };
            ((sizes[group[hi]] - 1 - pos[hi]) as i128, pos[lo] as i128)
        };
        Cost {
            repeat,
            absolute,
            score: score_cost(group[i], group[j]),
            side,
            floater,
            order,
        }
    };
    let bye_cost = |i: usize| -> Cost {
        Cost {
            repeat: i128::from(players[i].had_bye),
            absolute: 0,
            score: score_cost(group[i], g_count),
            side: 0,
            floater: (sizes[group[i]] - 1 - pos[i]) as i128,
            order: 0,
        }
    };

    let mut costs: Vec<(usize, usize, Cost)> = Vec::new();
    for i in 0..n {
        for j in i + 1..n {
            if forbid.contains(&(players[i].id, players[j].id)) {
                continue;
            }
            costs.push((i, j, pair_cost(i, j)));
        }
        if let Some(b) = bye_vertex {
            costs.push((i, b, bye_cost(i)));
        }
    }
    // Stack the criteria: each level's unit is worth more than the most that all the
    // levels below can add up to over one matching (at most `edges` edges).
    let max = |f: &dyn Fn(&Cost) -> i128| costs.iter().map(|c| f(&c.2)).max().unwrap_or(0);
    let levels: [&dyn Fn(&Cost) -> i128; 6] = [
        &|c| c.repeat,
        &|c| c.absolute,
        &|c| c.score,
        &|c| c.side,
        &|c| c.floater,
        &|c| c.order,
    ];
    let maxima: Vec<i128> = levels.iter().map(|f| max(*f)).collect();
    let mut unit = vec![1i128; levels.len()];
    for l in (0..levels.len() - 1).rev() {
        unit[l] = unit[l + 1] * (edges * maxima[l + 1] + 1);
    }
    let weighted: Vec<(usize, usize, i128)> = costs
        .iter()
        .map(|(i, j, c)| {
            let w: i128 = (0..levels.len())
                .map(|l| unit[l] * (maxima[l] - levels[l](c)))
                .sum();
            // Positive, so that every edge is worth taking.
            (*i, *j, w + 1)
        })
        .collect();
    let mate = max_weight_matching(&weighted, true);
    let mate_of = |v: usize| mate.get(v).copied().flatten();

    let mut bye = None;
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for (i, p) in players.iter().enumerate() {
        match mate_of(i) {
            Some(j) if Some(j) == bye_vertex => bye = Some(p.id),
            Some(j) if i < j => pairs.push((i, j)),
            Some(_) => {}
            None => {
                return Err(TournamentError::CannotPair(format!(
                    "the forbidden pairs leave {} without an opponent",
                    p.id
                )))
            }
        }
    }
    if bye_vertex.is_some() && bye.is_none() {
        return Err(TournamentError::CannotPair(
            "no player can take the bye".into(),
        ));
    }
    // Boards: the highest score first, then the higher-ranked player.
    let rank_of = {
        let mut r = vec![0; n];
        for (k, &i) in rank.iter().enumerate() {
            r[i] = k;
        }
        r
    };
    let mut pairs: Vec<(usize, usize)> = pairs
        .into_iter()
        .map(|(i, j)| {
            if rank_of[i] < rank_of[j] {
                (i, j)
            } else {
                (j, i)
            }
        })
        .collect();
    pairs.sort_by(|&(a, b), &(c, d)| {
        let top = |x: usize, y: usize| players[x].score.max(players[y].score);
        top(c, d)
            .total_cmp(&top(a, b))
            .then(rank_of[a].cmp(&rank_of[c]))
    });
    let pairings = pairs
        .iter()
        .enumerate()
        .map(|(board, &(hi, lo))| {
            let hi_side = allot(&players[hi], &players[lo], board);
            let (h, l) = (players[hi].id, players[lo].id);
            match hi_side {
                Side::South => Pairing { south: h, north: l },
                Side::North => Pairing { south: l, north: h },
            }
        })
        .collect();
    Ok(SwissPairing { pairings, bye })
}

/// The side of the higher-ranked player `hi` against `lo` on `board` (0 for board 1).
fn allot(hi: &SwissPlayer, lo: &SwissPlayer, board: usize) -> Side {
    let (ph, sh) = hi.preference();
    let (pl, sl) = lo.preference();
    match (ph, pl) {
        (None, None) => {
            if board.is_multiple_of(2) {
                Side::South
            } else {
                Side::North
            }
        }
        (Some(h), None) => h,
        (None, Some(l)) => l.other(),
        (Some(h), Some(l)) if h != l => h,
        (Some(h), Some(_)) => {
            if sh != sl {
                return if sh > sl { h } else { h.other() };
            }
            if sh == 3 {
                // Both absolute: the larger side difference gets its way.
                let (dh, dl) = (hi.side_difference().abs(), lo.side_difference().abs());
                if dh != dl {
                    return if dh > dl { h } else { h.other() };
                }
            }
            // Alternate from the last round in which they had different sides.
            let rounds = hi.sides.len().min(lo.sides.len());
            for r in (0..rounds).rev() {
                if let (Some(a), Some(b)) = (hi.sides[r], lo.sides[r]) {
                    if a != b {
                        return a.other();
                    }
                }
            }
            h
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(v: &[(usize, usize)]) -> Vec<(PlayerId, PlayerId)> {
        v.iter().map(|&(a, b)| (PlayerId(a), PlayerId(b))).collect()
    }

    #[test]
    fn preferences_follow_the_side_history() {
        let mut p = SwissPlayer::new(PlayerId(0));
        assert_eq!(p.preference(), (None, 0));
        p.sides = vec![Some(Side::South)];
        assert_eq!(p.preference(), (Some(Side::North), 2));
        p.sides = vec![Some(Side::South), Some(Side::North)];
        assert_eq!(p.preference(), (Some(Side::South), 1));
        p.sides = vec![Some(Side::North), Some(Side::South), Some(Side::South)];
        assert_eq!(p.preference(), (Some(Side::North), 3));
        p.sides = vec![Some(Side::North), None, Some(Side::North)];
        assert_eq!(p.preference(), (Some(Side::South), 3));
    }

    #[test]
    fn two_players_and_three() {
        let two: Vec<SwissPlayer> = (0..2).map(|i| SwissPlayer::new(PlayerId(i))).collect();
        let r = pair(&two, &[]).unwrap();
        assert_eq!(
            r.pairings,
            [Pairing {
                south: PlayerId(0),
                north: PlayerId(1)
            }]
        );
        let three: Vec<SwissPlayer> = (0..3).map(|i| SwissPlayer::new(PlayerId(i))).collect();
        let r = pair(&three, &[]).unwrap();
        // The lowest-ranked player sits out.
        assert_eq!(r.bye, Some(PlayerId(2)));
        assert_eq!(r.pairings.len(), 1);
    }

    #[test]
    fn errors_are_explained() {
        let one = [SwissPlayer::new(PlayerId(0))];
        assert_eq!(
            pair(&one, &[]),
            Err(TournamentError::TooFewPlayers { needed: 2, got: 1 })
        );
        let two: Vec<SwissPlayer> = (0..2).map(|i| SwissPlayer::new(PlayerId(i))).collect();
        let e = pair(&two, &ids(&[(1, 0)])).unwrap_err();
        assert!(e.to_string().contains("no pairing is possible"), "{e}");
        let dup = [SwissPlayer::new(PlayerId(0)), SwissPlayer::new(PlayerId(0))];
        assert!(pair(&dup, &[]).unwrap_err().to_string().contains("twice"));
    }

    #[test]
    fn a_hand_checked_second_round() {
        // Six players after round 1 (1 v 4, 5 v 2, 3 v 6, South first): 1, 2 and 6 won.
        // Groups {1, 2, 6} and {3, 4, 5}. The top group pairs 1 v 2 and floats its lowest,
        // 6, who has met 3: he meets 4 or 5. 6 v 5 with 3 v 4 grants every side preference
        // (6 and 4 had North, 3 and 5 South); 6 v 4 with 3 v 5 would grant none of the four.
        let mut p: Vec<SwissPlayer> = (0..6).map(|i| SwissPlayer::new(PlayerId(i))).collect();
        let games = [(0, 3, 0), (4, 1, 1), (2, 5, 5)]; // (south, north, winner)
        for &(s, n, w) in &games {
            p[s].opponents.push(PlayerId(n));
            p[n].opponents.push(PlayerId(s));
            p[s].sides.push(Some(Side::South));
            p[n].sides.push(Some(Side::North));
            p[w].score += 1.0;
        }
        let r = pair(&p, &[]).unwrap();
        let mut got: Vec<(usize, usize)> = r
            .pairings
            .iter()
            .map(|g| {
                let (a, b) = (g.south.0, g.north.0);
                (a.min(b), a.max(b))
            })
            .collect();
        got.sort();
        assert_eq!(got, [(0, 1), (2, 3), (4, 5)]);
        // Sides: 1 (South last) and 2 (North last) get their wishes: 2 South, 1 North.
        assert!(r.pairings.contains(&Pairing {
            south: PlayerId(1),
            north: PlayerId(0)
        }));
    }
}
