//! Knockout brackets of best-of-three matches (BRD-8.1).
//!
//! Players are seeded by rating ([`crate::seed_order`]). The bracket has room for the next
//! power of two; the missing entrants are byes, and they go to the top seeds. Seeds are
//! placed the standard way, so that seeds 1 and 2 can meet only in the final, 1 to 4 only
//! from the semi-finals, and in every first-round match the seeds add up to the bracket
//! size plus one: with 16, 1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11,
//! top to bottom. An optional match for third place is played between the losing
//! semi-finalists (with four players or more: with three, one semi-final is a bye).
//!
//! Each match is best of three (BRD-8.1): played until one player has two wins, draws not
//! counting, at most five games; after five, more wins take it, and equal wins draw the
//! match, which the organiser must then decide. The players change sides every game
//! (BRD-8.2); in the first game the higher seed plays South (the organiser's choice that
//! BRD-8.2 allows).

use crate::standings::{rank, Standing, Tiebreak};
use crate::types::{seed_order, GameResult, Pairing, Player, PlayerId, Side, TournamentError};

/// The first-round order of seeds (1-based) in a bracket of `size`, a power of two: pairs
/// of neighbours meet in round 1.
///
/// ```
/// use bao_tournament::knockout::bracket_order;
/// assert_eq!(bracket_order(8), [1, 8, 4, 5, 2, 7, 3, 6]);
/// ```
pub fn bracket_order(size: usize) -> Vec<usize> {
    let mut order = vec![1];
    while order.len() < size {
        let m = order.len() * 2;
        order = order.iter().flat_map(|&s| [s, m + 1 - s]).collect();
    }
    order
}

/// One match of the bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct KnockoutMatch {
    /// The round, 1 for the first; the final is the last. The third-place match has the
    /// final's round number and `number` 2.
    pub round: usize,
    /// The match within its round, 1 at the top of the bracket.
    pub number: usize,
    /// The entrant from the upper half of this part of the bracket; `None` while not yet
    /// known, or in round 1 a bye.
    pub upper: Option<PlayerId>,
    /// The entrant from the lower half.
    pub lower: Option<PlayerId>,
    /// The player who went on (at once, for a bye).
    pub winner: Option<PlayerId>,
}

impl KnockoutMatch {
    /// Whether both players are known and no winner yet.
    pub fn is_ready(&self) -> bool {
        self.upper.is_some() && self.lower.is_some() && self.winner.is_none()
    }
    /// The player who lost, once decided (`None` for a bye).
    pub fn loser(&self) -> Option<PlayerId> {
        let w = self.winner?;
        if self.upper == Some(w) {
            self.lower
        } else {
            self.upper
        }
    }
}

/// A knockout bracket.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Knockout {
    /// Players in seed order: `seeds[0]` is seed 1.
    pub seeds: Vec<PlayerId>,
    /// Room in the bracket: the power of two at least the number of players.
    pub size: usize,
    /// The matches, round by round.
    pub rounds: Vec<Vec<KnockoutMatch>>,
    /// The third-place match, if one is played.
    pub third_place: Option<KnockoutMatch>,
}

impl Knockout {
    /// The bracket of `players` (seeded by rating, ties by their order), its byes decided.
    ///
    /// ```
    /// use bao_tournament::knockout::Knockout;
    /// use bao_tournament::{Player, PlayerId};
    ///
    /// let players: Vec<Player> = (0..6).map(|i| Player::rated(format!("p{i}"), 2000 - i)).collect();
    /// let k = Knockout::new(&players, true).unwrap();
    /// assert_eq!(k.size, 8);
    /// // Seeds 1 and 2 have byes; 4 v 5 and 3 v 6 are to be played.
    /// let ready: Vec<(usize, usize)> = k
    ///     .ready()
    ///     .iter()
    ///     .map(|m| (m.upper.unwrap().0 + 1, m.lower.unwrap().0 + 1))
    ///     .collect();
    /// assert_eq!(ready, [(4, 5), (3, 6)]);
    /// ```
    pub fn new(players: &[Player], third_place: bool) -> Result<Knockout, TournamentError> {
        if players.len() < 2 {
            return Err(TournamentError::TooFewPlayers {
                needed: 2,
                got: players.len(),
            });
        }
        let seeds = seed_order(players);
        let size = players.len().next_power_of_two();
        let order = bracket_order(size);
        let count = size.trailing_zeros() as usize;
        let mut rounds: Vec<Vec<KnockoutMatch>> = (1..=count)
            .map(|r| {
                (1..=size >> r)
                    .map(|number| KnockoutMatch {
                        round: r,
                        number,
                        upper: None,
                        lower: None,
                        winner: None,
                    })
                    .collect()
            })
            .collect();
        let at = |s: usize| seeds.get(s - 1).copied();
        for (i, m) in rounds[0].iter_mut().enumerate() {
            m.upper = at(order[2 * i]);
            m.lower = at(order[2 * i + 1]);
        }
        let mut k = Knockout {
            seeds,
            size,
            rounds,
            // With three players a semi-final is a bye: no one to play for third.
            third_place: (third_place && players.len() >= 4).then_some(KnockoutMatch {
                round: count,
                number: 2,
                upper: None,
                lower: None,
                winner: None,
            }),
        };
        // Byes: the lone entrant goes on at once.
        for i in 0..k.rounds[0].len() {
            let m = &k.rounds[0][i];
            if let (Some(p), None) | (None, Some(p)) = (m.upper, m.lower) {
                k.rounds[0][i].winner = Some(p);
                k.advance(1, i, p);
            }
        }
        Ok(k)
    }

    /// The seed of `p` (1 the highest), if in the bracket.
    pub fn seed(&self, p: PlayerId) -> Option<usize> {
        self.seeds.iter().position(|&x| x == p).map(|i| i + 1)
    }

    /// The matches ready to be played (both players known, no winner yet), round by round
    /// and top to bottom, the third-place match last.
    pub fn ready(&self) -> Vec<KnockoutMatch> {
        self.rounds
            .iter()
            .flatten()
            .chain(&self.third_place)
            .filter(|m| m.is_ready())
            .cloned()
            .collect()
    }

    /// The champion, once the final is decided.
    pub fn champion(&self) -> Option<PlayerId> {
        self.rounds.last()?.first()?.winner
    }

    /// Whether every match (the third-place one too) is decided.
    pub fn is_finished(&self) -> bool {
        self.champion().is_some() && self.third_place.as_ref().is_none_or(|m| m.winner.is_some())
    }

    /// Records that `winner` won match `number` of `round` (the third-place match is
    /// `number` 2 of the last round) and moves him on.
    pub fn record(
        &mut self,
        round: usize,
        number: usize,
        winner: PlayerId,
    ) -> Result<(), TournamentError> {
        if self.seed(winner).is_none() {
            return Err(TournamentError::UnknownPlayer(winner));
        }
        let no_such = TournamentError::NoSuchMatch { round, number };
        let last = self.rounds.len();
        let m = if round == last && number == 2 {
            self.third_place.as_mut().ok_or(no_such.clone())?
        } else {
            self.rounds
                .get_mut(round.wrapping_sub(1))
                .and_then(|r| r.get_mut(number.wrapping_sub(1)))
                .ok_or(no_such.clone())?
        };
        if !m.is_ready() {
            return Err(no_such);
        }
        if m.upper != Some(winner) && m.lower != Some(winner) {
            return Err(TournamentError::NotInMatch(winner));
        }
        m.winner = Some(winner);
        let loser = m.loser();
        let third = round == last && number == 2;
        if !third {
            self.advance(round, number - 1, winner);
            // The semi-finals' losers meet for third place.
            if round + 1 == last {
                if let (Some(t), Some(l)) = (self.third_place.as_mut(), loser) {
                    if number == 1 {
                        t.upper = Some(l);
                    } else {
                        t.lower = Some(l);
                    }
                }
            }
        }
        Ok(())
    }

    /// Records the games of match `number` of `round` as played so far, the upper entrant
    /// South in the first game and the sides changing every game (BRD-8.2), and moves the
    /// winner on once the match is decided (BRD-8.1). Returns the match's state; a match
    /// drawn after five games is an error, for the organiser to decide with
    /// [`Self::record`].
    ///
    /// ```
    /// use bao_tournament::knockout::{Knockout, MatchState};
    /// use bao_tournament::{GameResult::*, Player, PlayerId};
    ///
    /// let players: Vec<Player> = (0..4).map(|i| Player::rated(format!("p{i}"), -i)).collect();
    /// let mut k = Knockout::new(&players, false).unwrap();
    /// // 1 v 4: seed 1 South in game 1 wins, loses game 2 as North, wins game 3.
    /// assert_eq!(k.record_games(1, 1, &[SouthWins, SouthWins]), Ok(MatchState::Going));
    /// let state = k.record_games(1, 1, &[SouthWins, SouthWins, SouthWins]).unwrap();
    /// assert_eq!(state, MatchState::Won(PlayerId(0)));
    /// assert_eq!(k.rounds[1][0].upper, Some(PlayerId(0)));
    /// ```
    pub fn record_games(
        &mut self,
        round: usize,
        number: usize,
        games: &[GameResult],
    ) -> Result<MatchState, TournamentError> {
        let m = self
            .ready()
            .into_iter()
            .find(|m| m.round == round && m.number == number)
            .ok_or(TournamentError::NoSuchMatch { round, number })?;
        let (upper, lower) = (m.upper.expect("ready"), m.lower.expect("ready"));
        match best_of_three(upper, lower, games) {
            MatchState::Won(w) => {
                self.record(round, number, w)?;
                Ok(MatchState::Won(w))
            }
            MatchState::Drawn => Err(TournamentError::MatchDrawn),
            MatchState::Going => Ok(MatchState::Going),
        }
    }

    /// Puts the winner of match `index` (0-based) of `round` into the next round.
    fn advance(&mut self, round: usize, index: usize, winner: PlayerId) {
        if let Some(next) = self.rounds.get_mut(round) {
            let m = &mut next[index / 2];
            if index.is_multiple_of(2) {
                m.upper = Some(winner);
            } else {
                m.lower = Some(winner);
            }
        }
    }

    /// The standings so far: points are matches won (byes not counted); then the place the
    /// bracket gives ([`Tiebreak::BracketPosition`]; players still in get the best place
    /// they are sure of), then the seed.
    pub fn standings(&self) -> Vec<Standing> {
        let last = self.rounds.len();
        let mut won = vec![0usize; self.seeds.len().max(1)];
        let mut place: Vec<Option<usize>> = vec![None; won.len()];
        let mut reached = vec![1usize; won.len()];
        for m in self.rounds.iter().flatten().chain(&self.third_place) {
            if let (Some(w), Some(l)) = (m.winner, m.loser()) {
                won[w.0] += 1;
                let third = m.round == last && m.number == 2;
                if !third {
                    // Out in round r of R: place 2^(R-r) + 1 (final 2, semi-finals 3, ...).
                    place[l.0].get_or_insert(1 + (1 << (last - m.round)));
                    reached[w.0] = reached[w.0].max(m.round + 1);
                } else {
                    place[w.0] = Some(3);
                    place[l.0] = Some(4);
                }
            } else if let Some(w) = m.winner {
                reached[w.0] = reached[w.0].max(m.round + 1);
            }
        }
        if let Some(c) = self.champion() {
            place[c.0] = Some(1);
        }
        let mut out: Vec<Standing> = self
            .seeds
            .iter()
            .map(|&p| {
                // Still in: the place of a loser of the round now being played.
                let secured = place[p.0].unwrap_or_else(|| {
                    let r = reached[p.0].min(last);
                    1 + (1 << (last - r))
                });
                Standing {
                    rank: 0,
                    player: p,
                    points: won[p.0] as f64,
                    tiebreaks: vec![
                        (Tiebreak::BracketPosition, secured as f64),
                        (Tiebreak::Seed, self.seed(p).unwrap_or(0) as f64),
                    ],
                }
            })
            .collect();
        // Knockouts rank by place, not by matches won.
        for s in &mut out {
            s.points = -s.tiebreaks[0].1;
        }
        rank(&mut out);
        for s in &mut out {
            s.points = won[s.player.0] as f64;
            s.rank = s.tiebreaks[0].1 as usize;
        }
        out
    }
}

/// How a best-of-three match stands (BRD-8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MatchState {
    /// More games to play.
    Going,
    /// Decided for this player.
    Won(PlayerId),
    /// Five games played and equal wins: the organiser decides.
    Drawn,
}

/// The sides of game `game` (0 for the first) of a match in which `first_south` plays South
/// in the first game: the players change sides every game (BRD-8.2).
///
/// ```
/// use bao_tournament::knockout::match_game;
/// use bao_tournament::PlayerId;
/// let g = match_game(PlayerId(3), PlayerId(7), 1);
/// assert_eq!((g.south, g.north), (PlayerId(7), PlayerId(3)));
/// ```
pub fn match_game(first_south: PlayerId, other: PlayerId, game: usize) -> Pairing {
    if game.is_multiple_of(2) {
        Pairing {
            south: first_south,
            north: other,
        }
    } else {
        Pairing {
            south: other,
            north: first_south,
        }
    }
}

/// The state of a best-of-three match between `first_south` (South in game 1) and `other`,
/// given the results of its games in order (BRD-8.1): two wins take it; draws do not
/// count; after five games the one with more wins takes it, equal wins draw it. A forfeit
/// counts as a win for the opponent.
///
/// ```
/// use bao_tournament::knockout::{best_of_three, MatchState};
/// use bao_tournament::{GameResult::*, PlayerId};
/// let (a, b) = (PlayerId(0), PlayerId(1));
/// // a wins game 1 as South; game 2 (b South) is drawn; a wins game 3 as South.
/// assert_eq!(best_of_three(a, b, &[SouthWins, Draw]), MatchState::Going);
/// assert_eq!(best_of_three(a, b, &[SouthWins, Draw, SouthWins]), MatchState::Won(a));
/// assert_eq!(best_of_three(a, b, &[Draw; 5]), MatchState::Drawn);
/// ```
pub fn best_of_three(first_south: PlayerId, other: PlayerId, games: &[GameResult]) -> MatchState {
    let mut wins = [0usize; 2];
    for (i, r) in games.iter().enumerate() {
        let g = match_game(first_south, other, i);
        if let Some(side) = r.winner() {
            let w = if side == Side::South {
                g.south
            } else {
                g.north
            };
            wins[usize::from(w != first_south)] += 1;
        }
        if wins[0] == 2 {
            return MatchState::Won(first_south);
        }
        if wins[1] == 2 {
            return MatchState::Won(other);
        }
        if i + 1 == 5 {
            return match wins[0].cmp(&wins[1]) {
                std::cmp::Ordering::Greater => MatchState::Won(first_south),
                std::cmp::Ordering::Less => MatchState::Won(other),
                std::cmp::Ordering::Equal => MatchState::Drawn,
            };
        }
    }
    MatchState::Going
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players(n: usize) -> Vec<Player> {
        // Ratings descend: player i is seed i+1.
        (0..n)
            .map(|i| Player::rated(format!("p{}", i + 1), 3000 - i as i32))
            .collect()
    }

    #[test]
    fn sixteen_are_seeded_the_standard_way() {
        let k = Knockout::new(&players(16), false).unwrap();
        let first: Vec<(usize, usize)> = k.rounds[0]
            .iter()
            .map(|m| (m.upper.unwrap().0 + 1, m.lower.unwrap().0 + 1))
            .collect();
        assert_eq!(
            first,
            [
                (1, 16),
                (8, 9),
                (4, 13),
                (5, 12),
                (2, 15),
                (7, 10),
                (3, 14),
                (6, 11)
            ]
        );
    }

    #[test]
    fn seeding_and_byes_for_2_to_64_players() {
        for n in 2..=64 {
            let k = Knockout::new(&players(n), true).unwrap();
            let size = n.next_power_of_two();
            assert_eq!(k.size, size);
            assert_eq!(k.rounds.len(), size.trailing_zeros() as usize);
            let mut seen = vec![false; n];
            let mut byes = Vec::new();
            for m in &k.rounds[0] {
                let (u, l) = (m.upper.map(|p| p.0 + 1), m.lower.map(|p| p.0 + 1));
                match (u, l) {
                    (Some(a), Some(b)) => {
                        // Seeds add up to size + 1, the higher seed on top.
                        assert_eq!(a + b, size + 1, "n {n}");
                        assert!(a < b);
                        assert_eq!(m.winner, None);
                    }
                    (Some(a), None) => {
                        byes.push(a);
                        assert_eq!(m.winner, Some(PlayerId(a - 1)));
                    }
                    _ => panic!("n {n}: a match with no one or a bye on top"),
                }
                for s in [u, l].into_iter().flatten() {
                    assert!(!seen[s - 1]);
                    seen[s - 1] = true;
                }
            }
            assert!(seen.iter().all(|&s| s), "n {n}: everyone placed");
            // The byes go to the top seeds, 1..=size-n.
            byes.sort();
            assert_eq!(byes, (1..=size - n).collect::<Vec<_>>(), "n {n}");
            // Seeds 1 and 2 are in different halves; 1-4 in different quarters.
            let slot = |s: usize| {
                k.rounds[0]
                    .iter()
                    .position(|m| {
                        m.upper == Some(PlayerId(s - 1)) || m.lower == Some(PlayerId(s - 1))
                    })
                    .unwrap()
            };
            let half = (size / 2).max(1) / 2;
            if n >= 2 && size >= 4 {
                assert_ne!(slot(1) / half.max(1), slot(2) / half.max(1), "n {n}");
            }
            if n >= 4 && size >= 8 {
                let q = size / 8;
                let quarters: Vec<usize> = (1..=4).map(|s| slot(s) / q).collect();
                let mut d = quarters.clone();
                d.sort();
                d.dedup();
                assert_eq!(d.len(), 4, "n {n}: {quarters:?}");
            }
        }
    }

    #[test]
    fn the_favourites_go_through_and_meet_last() {
        for n in 2..=64 {
            let mut k = Knockout::new(&players(n), true).unwrap();
            // The higher seed wins every match.
            while let Some(m) = k.ready().first().cloned() {
                let (u, l) = (m.upper.unwrap(), m.lower.unwrap());
                let w = if k.seed(u) < k.seed(l) { u } else { l };
                k.record(m.round, m.number, w).unwrap();
            }
            assert!(k.is_finished());
            assert_eq!(k.champion(), Some(PlayerId(0)));
            let fin = &k.rounds.last().unwrap()[0];
            assert_eq!(fin.upper, Some(PlayerId(0)), "n {n}");
            assert_eq!(fin.lower, Some(PlayerId(1)), "n {n}");
            let s = k.standings();
            assert_eq!(s[0].player, PlayerId(0));
            assert_eq!(s[0].rank, 1);
            assert_eq!(s[1].player, PlayerId(1));
            assert_eq!(s[1].rank, 2);
            if n >= 4 {
                assert_eq!((s[2].player, s[2].rank), (PlayerId(2), 3));
                assert_eq!((s[3].player, s[3].rank), (PlayerId(3), 4));
            }
            if n >= 8 {
                // The quarter-final losers share 5th, ordered by seed.
                let fifth: Vec<usize> = s[4..8].iter().map(|x| x.player.0 + 1).collect();
                assert_eq!(fifth, [5, 6, 7, 8]);
                assert!(s[4..8].iter().all(|x| x.rank == 5));
            }
        }
    }

    #[test]
    fn winners_move_on_whoever_wins() {
        // Any winners: each round's entrants are the winners of the two matches feeding
        // it, and every player but the champion loses exactly once (the third-place match
        // aside).
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for n in 2..=40 {
            let mut k = Knockout::new(&players(n), n % 3 == 0).unwrap();
            while let Some(m) = k.ready().first().cloned() {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let w = if x.is_multiple_of(2) {
                    m.upper
                } else {
                    m.lower
                }
                .unwrap();
                k.record(m.round, m.number, w).unwrap();
            }
            assert!(k.is_finished(), "n {n}");
            for r in 1..k.rounds.len() {
                for (i, m) in k.rounds[r].iter().enumerate() {
                    assert_eq!(m.upper, k.rounds[r - 1][2 * i].winner, "n {n}");
                    assert_eq!(m.lower, k.rounds[r - 1][2 * i + 1].winner, "n {n}");
                }
            }
            let mut losses = vec![0; n];
            for m in k.rounds.iter().flatten() {
                if let Some(l) = m.loser() {
                    losses[l.0] += 1;
                }
            }
            let champion = k.champion().unwrap();
            for (p, &l) in losses.iter().enumerate() {
                assert_eq!(l, usize::from(p != champion.0), "n {n} player {p}");
            }
            let s = k.standings();
            assert_eq!(s[0].player, champion);
            assert_eq!(s.len(), n);
        }
    }

    #[test]
    fn record_refuses_what_is_not_ready() {
        let mut k = Knockout::new(&players(4), false).unwrap();
        assert_eq!(
            k.record(2, 1, PlayerId(0)),
            Err(TournamentError::NoSuchMatch {
                round: 2,
                number: 1
            })
        );
        assert_eq!(
            k.record(1, 1, PlayerId(1)),
            Err(TournamentError::NotInMatch(PlayerId(1)))
        );
        assert_eq!(
            k.record(1, 1, PlayerId(9)),
            Err(TournamentError::UnknownPlayer(PlayerId(9)))
        );
        k.record(1, 1, PlayerId(3)).unwrap();
        assert!(k.record(1, 1, PlayerId(3)).is_err());
        assert_eq!(
            Knockout::new(&players(1), false),
            Err(TournamentError::TooFewPlayers { needed: 2, got: 1 })
        );
    }

    #[test]
    fn a_drawn_match_is_left_to_the_organiser() {
        use GameResult::*;
        let mut k = Knockout::new(&players(2), false).unwrap();
        assert_eq!(
            k.record_games(1, 1, &[Draw; 5]),
            Err(TournamentError::MatchDrawn)
        );
        assert_eq!(k.champion(), None);
        k.record(1, 1, PlayerId(1)).unwrap();
        assert_eq!(k.champion(), Some(PlayerId(1)));
        assert!(k.is_finished());
    }

    #[test]
    fn best_of_three_follows_brd_8_1() {
        use GameResult::*;
        let (a, b) = (PlayerId(0), PlayerId(1));
        // b wins game 1 as North, game 2 as South: 2-0.
        assert_eq!(
            best_of_three(a, b, &[NorthWins, SouthWins]),
            MatchState::Won(b)
        );
        // 1-1 after four games with two draws, a wins the fifth as South.
        assert_eq!(
            best_of_three(a, b, &[SouthWins, SouthWins, Draw, Draw]),
            MatchState::Going
        );
        assert_eq!(
            best_of_three(a, b, &[SouthWins, SouthWins, Draw, Draw, SouthWins]),
            MatchState::Won(a)
        );
        // One win and four draws: more wins take it.
        assert_eq!(
            best_of_three(a, b, &[Draw, Draw, Draw, Draw, NorthWins]),
            MatchState::Won(b)
        );
        assert_eq!(
            best_of_three(a, b, &[Forfeit(Side::North), Forfeit(Side::South)]),
            MatchState::Won(a)
        );
    }
}
