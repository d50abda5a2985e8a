//! A tournament of games (round robin or Swiss): the players, the rounds paired so far
//! and their results; the state a server keeps and a command line updates.

use crate::standings::{standings, Standing, Tiebreak, Unplayed};
use crate::swiss::{pair, SwissPlayer};
use crate::types::{
    seed_order, GameResult, Pairing, Player, PlayerId, Points, Round, Side, TournamentError,
};
use crate::{berger, Format};

/// A round robin or Swiss tournament. Knockouts are run with [`crate::knockout::Knockout`].
///
/// ```
/// use bao_tournament::{Format, GameResult, Player, Tournament};
///
/// let players = ["Ali", "Bakari", "Chausiku"].map(Player::new).to_vec();
/// let mut t = Tournament::new(Format::RoundRobin { double: false }, players).unwrap();
/// while let Ok(round) = t.pair_next_round() {
///     let (n, games) = (round.number, round.pairings.clone());
///     for g in games {
///         t.record(n, g, GameResult::SouthWins).unwrap();
///     }
/// }
/// assert!(t.is_finished());
/// let s = t.standings();
/// // Three games and three byes, a point each.
/// assert_eq!(s.iter().map(|x| x.points).sum::<f64>(), 3.0 + 3.0);
/// ```
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tournament {
    /// The format.
    pub format: Format,
    /// The players; a [`PlayerId`] is an index here.
    pub players: Vec<Player>,
    /// What results are worth.
    pub points: Points,
    /// Pairs the organiser will not have meet (Swiss: same club, same family).
    pub forbidden: Vec<(PlayerId, PlayerId)>,
    /// The rounds paired so far, with their results.
    pub rounds: Vec<Round>,
}

impl Tournament {
    /// A tournament with default points and no forbidden pairs.
    pub fn new(format: Format, players: Vec<Player>) -> Result<Tournament, TournamentError> {
        let needed = 2;
        if players.len() < needed {
            return Err(TournamentError::TooFewPlayers {
                needed,
                got: players.len(),
            });
        }
        match format {
            Format::Knockout { .. } => {
                return Err(TournamentError::Invalid(
                    "a knockout is a bracket of matches: use Knockout::new".into(),
                ))
            }
            Format::Swiss { rounds: 0 } => {
                return Err(TournamentError::Invalid(
                    "a Swiss needs at least one round".into(),
                ))
            }
            _ => {}
        }
        Ok(Tournament {
            format,
            players,
            points: Points::default(),
            forbidden: Vec::new(),
            rounds: Vec::new(),
        })
    }

    /// Forbids `a` and `b` to meet (Swiss pairings only: a round robin pairs everyone).
    pub fn forbid(&mut self, a: PlayerId, b: PlayerId) -> Result<(), TournamentError> {
        for p in [a, b] {
            self.check(p)?;
        }
        if a == b {
            return Err(TournamentError::Invalid(format!(
                "{a} cannot be forbidden to meet himself"
            )));
        }
        self.forbidden.push((a, b));
        Ok(())
    }

    fn check(&self, p: PlayerId) -> Result<(), TournamentError> {
        if p.0 < self.players.len() {
            Ok(())
        } else {
            Err(TournamentError::UnknownPlayer(p))
        }
    }

    /// The number of rounds the tournament has.
    pub fn total_rounds(&self) -> usize {
        let n = self.players.len();
        match self.format {
            Format::RoundRobin { double } => {
                let cycle = if n.is_multiple_of(2) { n - 1 } else { n };
                cycle * if double { 2 } else { 1 }
            }
            Format::Swiss { rounds } => rounds,
            Format::Knockout { .. } => 0,
        }
    }

    /// Pairs the next round. A round robin's rounds come from the Berger table and can be
    /// paired before the results are in; a Swiss round needs every result of the round
    /// before.
    pub fn pair_next_round(&mut self) -> Result<&Round, TournamentError> {
        self.pair_round(self.rounds.len() + 1)
    }

    /// Pairs round `number`, which must be the next one (see [`Self::pair_next_round`]).
    pub fn pair_round(&mut self, number: usize) -> Result<&Round, TournamentError> {
        let next = self.rounds.len() + 1;
        if number < next && number >= 1 {
            return Err(TournamentError::RoundAlreadyPaired(number));
        }
        let total = self.total_rounds();
        if next > total {
            return Err(TournamentError::NoMoreRounds(total));
        }
        if number != next {
            return Err(TournamentError::RoundOutOfOrder {
                asked: number,
                next,
            });
        }
        let round = match self.format {
            Format::RoundRobin { double } => {
                let order = seed_order(&self.players);
                berger::rounds(&order, double)
                    .into_iter()
                    .nth(number - 1)
                    .expect("a round of the table")
            }
            Format::Swiss { .. } => {
                if let Some(last) = self.rounds.last() {
                    if !last.is_complete() {
                        return Err(TournamentError::RoundUnfinished {
                            round: last.number,
                            missing: last.results.iter().filter(|r| r.is_none()).count(),
                        });
                    }
                }
                let sp = pair(&self.swiss_players(), &self.forbidden)?;
                Round::new(number, sp.pairings, sp.bye)
            }
            Format::Knockout { .. } => unreachable!("refused by new"),
        };
        self.rounds.push(round);
        Ok(self.rounds.last().expect("just pushed"))
    }

    /// Each player's state for the Swiss pairing, in pairing-number order.
    pub fn swiss_players(&self) -> Vec<SwissPlayer> {
        let score: Vec<f64> = {
            let s = standings(
                self.players.len(),
                &self.rounds,
                &self.points,
                &[],
                Unplayed::Ignored,
            );
            let mut v = vec![0.0; self.players.len()];
            for x in s {
                v[x.player.0] = x.points;
            }
            v
        };
        seed_order(&self.players)
            .into_iter()
            .map(|id| {
                let mut p = SwissPlayer::new(id);
                p.score = score[id.0];
                for r in &self.rounds {
                    let g = r.pairings.iter().find(|g| g.side_of(id).is_some());
                    p.sides.push(g.and_then(|g| g.side_of(id)));
                    if let Some(o) = g.and_then(|g| g.opponent(id)) {
                        p.opponents.push(o);
                    }
                    if r.bye == Some(id) {
                        p.had_bye = true;
                    }
                }
                p
            })
            .collect()
    }

    /// Records the result of the game of round `round` between `game.south` and
    /// `game.north`.
    pub fn record(
        &mut self,
        round: usize,
        game: Pairing,
        result: GameResult,
    ) -> Result<(), TournamentError> {
        for p in [game.south, game.north] {
            self.check(p)?;
        }
        let r = self
            .rounds
            .get_mut(round.wrapping_sub(1))
            .ok_or(TournamentError::NoSuchRound(round))?;
        let i = r
            .pairings
            .iter()
            .position(|g| *g == game)
            .ok_or(TournamentError::NoSuchGame {
                round,
                south: game.south,
                north: game.north,
            })?;
        if r.results[i].is_some() {
            return Err(TournamentError::ResultAlreadyRecorded {
                round,
                south: game.south,
            });
        }
        r.results[i] = Some(result);
        Ok(())
    }

    /// Whether every round is paired and every game has its result.
    pub fn is_finished(&self) -> bool {
        self.rounds.len() == self.total_rounds() && self.rounds.iter().all(Round::is_complete)
    }

    /// The tie-breaks of the format ([`Format::tiebreaks`]).
    pub fn tiebreaks(&self) -> Vec<Tiebreak> {
        self.format.tiebreaks()
    }

    /// The standings after the results recorded so far.
    pub fn standings(&self) -> Vec<Standing> {
        let unplayed = match self.format {
            Format::Swiss { .. } => Unplayed::VirtualOpponent,
            _ => Unplayed::Ignored,
        };
        standings(
            self.players.len(),
            &self.rounds,
            &self.points,
            &self.tiebreaks(),
            unplayed,
        )
    }

    /// The side `p` played in round `round`, if he played.
    pub fn side_in(&self, p: PlayerId, round: usize) -> Option<Side> {
        self.rounds
            .get(round.wrapping_sub(1))?
            .pairings
            .iter()
            .find_map(|g| g.side_of(p))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn players(n: usize) -> Vec<Player> {
        (0..n).map(|i| Player::new(format!("p{i}"))).collect()
    }

    #[test]
    fn errors() {
        assert_eq!(
            Tournament::new(Format::Swiss { rounds: 3 }, players(1)),
            Err(TournamentError::TooFewPlayers { needed: 2, got: 1 })
        );
        let mut t = Tournament::new(Format::Swiss { rounds: 2 }, players(4)).unwrap();
        t.pair_next_round().unwrap();
        let e = t.pair_next_round().unwrap_err();
        assert_eq!(
            e,
            TournamentError::RoundUnfinished {
                round: 1,
                missing: 2
            }
        );
        assert_eq!(
            e.to_string(),
            "round 1 is not finished: 2 games still without a result"
        );
        assert_eq!(
            t.pair_round(1).unwrap_err(),
            TournamentError::RoundAlreadyPaired(1)
        );
        assert_eq!(
            t.pair_round(3).unwrap_err(),
            TournamentError::RoundOutOfOrder { asked: 3, next: 2 }
        );
        let g = t.rounds[0].pairings[0];
        assert_eq!(
            t.record(
                1,
                Pairing {
                    south: g.south,
                    north: PlayerId(7)
                },
                GameResult::Draw
            ),
            Err(TournamentError::UnknownPlayer(PlayerId(7)))
        );
        assert!(matches!(
            t.record(
                1,
                Pairing {
                    south: g.north,
                    north: g.south
                },
                GameResult::Draw
            ),
            Err(TournamentError::NoSuchGame { .. })
        ));
        t.record(1, g, GameResult::Draw).unwrap();
        assert!(t.record(1, g, GameResult::Draw).is_err());
        assert_eq!(
            t.record(5, g, GameResult::Draw),
            Err(TournamentError::NoSuchRound(5))
        );
        let g2 = t.rounds[0].pairings[1];
        t.record(1, g2, GameResult::SouthWins).unwrap();
        t.pair_next_round().unwrap();
        assert_eq!(
            t.pair_next_round().unwrap_err(),
            TournamentError::NoMoreRounds(2)
        );
        assert!(Tournament::new(Format::Knockout { third_place: false }, players(4)).is_err());
        assert!(t.forbid(PlayerId(0), PlayerId(0)).is_err());
        assert!(t.forbid(PlayerId(0), PlayerId(9)).is_err());
    }

    #[test]
    fn a_double_round_robin_meets_each_pair_once_each_way() {
        let mut t = Tournament::new(Format::RoundRobin { double: true }, players(5)).unwrap();
        assert_eq!(t.total_rounds(), 10);
        while t.pair_next_round().is_ok() {}
        let mut met = std::collections::HashSet::new();
        for r in &t.rounds {
            for g in &r.pairings {
                assert!(met.insert((g.south, g.north)), "{g:?} twice");
            }
        }
        assert_eq!(met.len(), 5 * 4);
        assert!(!t.is_finished());
    }

    #[test]
    fn a_swiss_with_forbidden_pairs_never_pairs_them() {
        let mut t = Tournament::new(Format::Swiss { rounds: 5 }, players(10)).unwrap();
        // Two clubs of three.
        for (a, b) in [(0, 1), (0, 2), (1, 2), (5, 6), (5, 7), (6, 7)] {
            t.forbid(PlayerId(a), PlayerId(b)).unwrap();
        }
        for r in 1..=5 {
            let games = t.pair_next_round().unwrap().pairings.clone();
            for g in games {
                let (a, b) = (g.south.0.min(g.north.0), g.south.0.max(g.north.0));
                assert!(
                    !t.forbidden.contains(&(PlayerId(a), PlayerId(b))),
                    "round {r}: {a} v {b}"
                );
                let res = if (a + b + r) % 3 == 0 {
                    GameResult::Draw
                } else {
                    GameResult::SouthWins
                };
                t.record(r, g, res).unwrap();
            }
        }
        assert!(t.is_finished());
    }
}
