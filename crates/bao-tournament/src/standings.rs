//! Standings: points and tie-breaks, and their CSV form.
//!
//! **Points** are the sum over rounds of the game's points ([`Points`]: win 1, draw ½,
//! loss 0 by default) and of the bye's (1 by default).
//!
//! **Unplayed rounds.** A bye, and a game won or lost by forfeit, is not a game played.
//! In a Swiss ([`Unplayed::VirtualOpponent`]) it counts for Buchholz and Sonneborn-Berger
//! as a game against a *virtual opponent* with the player's own final points (the
//! convention of FIDE's tie-break regulations for unplayed games), so a player neither
//! gains nor loses by a bye or by an absent opponent. In a round robin
//! ([`Unplayed::Ignored`]) every player of an odd field sits out once by the schedule, so
//! unplayed rounds add nothing to Sonneborn-Berger. Forfeits count in direct encounter,
//! which is about results between players.

use crate::types::{Player, PlayerId, Points, Round, Side};
use std::fmt;

/// A tie-break: a second number comparing players on equal points (higher is better,
/// except [`Tiebreak::BracketPosition`] and [`Tiebreak::Seed`], where lower is better).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Tiebreak {
    /// Points scored in the games between the players on the same points as this one
    /// (round robins). It decides a tie only between players who have all met, which is
    /// always the case at the end of a round robin.
    DirectEncounter,
    /// Sonneborn-Berger: the sum, over the games, of the opponent's final points times
    /// the fraction of the game won (1 for a win, ½ for a draw, 0 for a loss). Beating the
    /// strong counts more than beating the weak.
    SonnebornBerger,
    /// Buchholz: the sum of the opponents' final points. Measures how hard the draw was
    /// (Swiss).
    Buchholz,
    /// Buchholz cut 1: Buchholz less the lowest opponent's points, so that one very weak
    /// opponent does not decide (Swiss; FIDE's first recommendation).
    BuchholzCut1,
    /// Knockouts: the place the bracket gives (1 champion, 2 runner-up, 3 and 4 for the
    /// third-place match, or 3 for both losing semi-finalists without one, 5 for the
    /// quarter-final losers, 9 for the round of 16...). Lower is better.
    BracketPosition,
    /// Knockouts: the seed (1 the highest rating). Lower is better.
    Seed,
    /// Team tournaments: the board points of the entrant's matches (a board won 1, drawn
    /// ½), the first tie-break after match points. Given from outside ([`lead_with`]): the
    /// pairings hold the matches' results only.
    BoardPoints,
}

impl Tiebreak {
    /// A short name for column headings.
    pub fn name(self) -> &'static str {
        match self {
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::SonnebornBerger => "SB",
            Tiebreak::Buchholz => "BH",
            Tiebreak::BuchholzCut1 => "BH-C1",
            Tiebreak::BracketPosition => "Place",
            Tiebreak::Seed => "Seed",
            Tiebreak::BoardPoints => "BP",
        }
    }
    /// Whether a lower value ranks higher.
    pub fn lower_is_better(self) -> bool {
        matches!(self, Tiebreak::BracketPosition | Tiebreak::Seed)
    }
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How Buchholz and Sonneborn-Berger count a round without a game played (a bye or a
/// forfeit); see the module doc.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unplayed {
    /// As a game against an opponent with the player's own points (Swiss).
    VirtualOpponent,
    /// Not at all (round robins).
    Ignored,
}

/// One line of the standings.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Standing {
    /// 1 for the first; players equal on points and every tie-break share a rank.
    pub rank: usize,
    /// The player.
    pub player: PlayerId,
    /// Points (knockouts: matches won, byes not counted).
    pub points: f64,
    /// The tie-breaks in the order they are applied.
    pub tiebreaks: Vec<(Tiebreak, f64)>,
}

/// What one player did in one round, for the tie-breaks.
#[derive(Clone, Copy, Debug)]
struct Entry {
    /// The opponent, `None` for an unplayed round (bye or forfeit).
    opponent: Option<PlayerId>,
    /// The opponent in a forfeited game (direct encounter counts it).
    met: Option<PlayerId>,
    points: f64,
    /// Fraction of the game won: 1, ½, 0.
    fraction: f64,
}

/// The standings of a round robin or Swiss among `count` players after `rounds`, with
/// `tiebreaks` applied in order after points, unplayed rounds counted as `unplayed` says.
/// Games without a result are left out.
///
/// ```
/// use bao_tournament::standings::{standings, Tiebreak, Unplayed};
/// use bao_tournament::{GameResult, Pairing, PlayerId, Points, Round};
///
/// let p = |i| PlayerId(i);
/// let mut r = Round::new(1, vec![Pairing { south: p(0), north: p(1) }], Some(p(2)));
/// r.results[0] = Some(GameResult::Draw);
/// let tb = [Tiebreak::Buchholz];
/// let s = standings(3, &[r], &Points::default(), &tb, Unplayed::VirtualOpponent);
/// assert_eq!((s[0].player, s[0].points), (p(2), 1.0));
/// assert_eq!(s[1].points, 0.5);
/// ```
pub fn standings(
    count: usize,
    rounds: &[Round],
    points: &Points,
    tiebreaks: &[Tiebreak],
    unplayed: Unplayed,
) -> Vec<Standing> {
    let mut entries: Vec<Vec<Entry>> = vec![Vec::new(); count];
    let win = if points.win != 0.0 { points.win } else { 1.0 };
    for r in rounds {
        for (g, res) in r.games() {
            let Some(res) = res else { continue };
            for (me, side, other) in [
                (g.south, Side::South, g.north),
                (g.north, Side::North, g.south),
            ] {
                let pts = points.score(res, side);
                let fraction = match res.winner() {
                    None => 0.5,
                    Some(s) if s == side => 1.0,
                    _ => 0.0,
                };
                if let Some(e) = entries.get_mut(me.0) {
                    e.push(Entry {
                        opponent: res.played().then_some(other),
                        met: Some(other),
                        points: pts,
                        fraction,
                    });
                }
            }
        }
        if let Some(b) = r.bye {
            if let Some(e) = entries.get_mut(b.0) {
                e.push(Entry {
                    opponent: None,
                    met: None,
                    points: points.bye,
                    fraction: points.bye / win,
                });
            }
        }
    }
    let score: Vec<f64> = entries
        .iter()
        .map(|es| es.iter().map(|e| e.points).sum())
        .collect();
    // The points of the opponent in each round: the virtual opponent has the player's own.
    let opp_scores = |i: usize| -> Vec<(f64, &Entry)> {
        entries[i]
            .iter()
            .filter_map(|e| match (e.opponent, unplayed) {
                (Some(o), _) => Some((score[o.0], e)),
                (None, Unplayed::VirtualOpponent) => Some((score[i], e)),
                (None, Unplayed::Ignored) => None,
            })
            .collect()
    };
    let value = |i: usize, t: Tiebreak| -> f64 {
        match t {
            Tiebreak::Buchholz => opp_scores(i).iter().map(|x| x.0).sum(),
            Tiebreak::BuchholzCut1 => {
                let v: Vec<f64> = opp_scores(i).iter().map(|x| x.0).collect();
                let lowest = v.iter().copied().fold(f64::INFINITY, f64::min);
                if v.is_empty() {
                    0.0
                } else {
                    v.iter().sum::<f64>() - lowest
                }
            }
            Tiebreak::SonnebornBerger => opp_scores(i).iter().map(|(s, e)| s * e.fraction).sum(),
            Tiebreak::DirectEncounter => entries[i]
                .iter()
                .filter(|e| e.met.is_some_and(|o| o.0 != i && score[o.0] == score[i]))
                .map(|e| e.points)
                .sum(),
            // Knockout tie-breaks mean nothing here; board points come from outside.
            Tiebreak::BracketPosition | Tiebreak::Seed | Tiebreak::BoardPoints => 0.0,
        }
    };
    let mut out: Vec<Standing> = (0..count)
        .map(|i| Standing {
            rank: 0,
            player: PlayerId(i),
            points: score[i],
            tiebreaks: tiebreaks.iter().map(|&t| (t, value(i, t))).collect(),
        })
        .collect();
    rank(&mut out);
    out
}

/// Sorts standings by points then tie-breaks (the player id last, for a stable order),
/// and gives equal players the same rank.
pub(crate) fn rank(out: &mut [Standing]) {
    let key_cmp = |a: &Standing, b: &Standing| {
        let mut o = b.points.total_cmp(&a.points);
        for ((t, x), (_, y)) in a.tiebreaks.iter().zip(&b.tiebreaks) {
            o = o.then(if t.lower_is_better() {
                x.total_cmp(y)
            } else {
                y.total_cmp(x)
            });
        }
        o
    };
    out.sort_by(|a, b| key_cmp(a, b).then(a.player.cmp(&b.player)));
    for i in 0..out.len() {
        out[i].rank = if i > 0 && key_cmp(&out[i - 1], &out[i]).is_eq() {
            out[i - 1].rank
        } else {
            i + 1
        };
    }
}

/// Puts tie-break `t` with `values` (indexed by player id; missing ones 0) first among the
/// tie-breaks of `out` and ranks again: a team tournament ranks by match points, then board
/// points ([`Tiebreak::BoardPoints`]), then the format's tie-breaks.
///
/// ```
/// use bao_tournament::standings::{lead_with, Standing, Tiebreak};
/// use bao_tournament::PlayerId;
///
/// let line = |p, points| Standing { rank: 1, player: PlayerId(p), points, tiebreaks: vec![] };
/// let mut s = vec![line(0, 2.0), line(1, 2.0)];
/// lead_with(&mut s, Tiebreak::BoardPoints, &[1.5, 2.5]);
/// assert_eq!((s[0].player, s[0].rank, s[1].rank), (PlayerId(1), 1, 2));
/// assert_eq!(s[0].tiebreaks, vec![(Tiebreak::BoardPoints, 2.5)]);
/// ```
pub fn lead_with(out: &mut [Standing], t: Tiebreak, values: &[f64]) {
    for s in out.iter_mut() {
        let v = values.get(s.player.0).copied().unwrap_or(0.0);
        s.tiebreaks.insert(0, (t, v));
    }
    rank(out);
}

/// A number as people write it: `2`, `1.5`, `0.25`.
pub fn fmt_points(x: f64) -> String {
    if x == x.trunc() && x.abs() < 1e15 {
        format!("{}", x as i64)
    } else {
        let s = format!("{x:.4}");
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    }
}

/// One CSV field (RFC 4180): quoted when it holds a comma, a quote, a line break or
/// leading or trailing spaces, with quotes doubled.
pub fn csv_field(s: &str) -> String {
    let needs = s.contains([',', '"', '\n', '\r']) || s.starts_with(' ') || s.ends_with(' ');
    if needs {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The standings as CSV (RFC 4180, lines ending CRLF): a header `rank,player,points,` and
/// the tie-breaks' short names, then one line per player, names quoted where needed.
///
/// ```
/// use bao_tournament::standings::{to_csv, Standing, Tiebreak};
/// use bao_tournament::{Player, PlayerId};
///
/// let players = [Player::new("Ali, \"the fox\""), Player::new("Bao")];
/// let s = [Standing {
///     rank: 1,
///     player: PlayerId(0),
///     points: 1.5,
///     tiebreaks: vec![(Tiebreak::SonnebornBerger, 0.75)],
/// }];
/// assert_eq!(
///     to_csv(&s, &players),
///     "rank,player,points,SB\r\n1,\"Ali, \"\"the fox\"\"\",1.5,0.75\r\n"
/// );
/// ```
pub fn to_csv(standings: &[Standing], players: &[Player]) -> String {
    let mut out = String::from("rank,player,points");
    if let Some(first) = standings.first() {
        for (t, _) in &first.tiebreaks {
            out.push(',');
            out.push_str(&csv_field(t.name()));
        }
    }
    out.push_str("\r\n");
    for s in standings {
        let name = players
            .get(s.player.0)
            .map_or_else(|| s.player.to_string(), |p| p.name.clone());
        out.push_str(&format!(
            "{},{},{}",
            s.rank,
            csv_field(&name),
            fmt_points(s.points)
        ));
        for (_, v) in &s.tiebreaks {
            out.push(',');
            out.push_str(&fmt_points(*v));
        }
        out.push_str("\r\n");
    }
    out
}

/// Results as a crosstable: `cell[i][j]` the points player i scored against player j over
/// all their games (`None` where they have not met).
pub fn crosstable(count: usize, rounds: &[Round], points: &Points) -> Vec<Vec<Option<f64>>> {
    let mut cell = vec![vec![None; count]; count];
    for r in rounds {
        for (g, res) in r.games() {
            let Some(res) = res else { continue };
            if g.south.0 >= count || g.north.0 >= count {
                continue;
            }
            for (me, side, other) in [
                (g.south, Side::South, g.north),
                (g.north, Side::North, g.south),
            ] {
                let c: &mut Option<f64> = &mut cell[me.0][other.0];
                *c = Some(c.unwrap_or(0.0) + points.score(res, side));
            }
        }
    }
    cell
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{GameResult, Pairing};

    /// Team scoring: match points 2 / 1 / 0, then board points, then the format's
    /// tie-breaks (here Sonneborn-Berger), which still decide when board points are level.
    #[test]
    fn board_points_come_between_points_and_tiebreaks() {
        let teams = Points {
            win: 2.0,
            draw: 1.0,
            loss: 0.0,
            bye: 2.0,
            forfeit_loss: 0.0,
        };
        // 0 beats 1, 2 beats 3; then 0 draws 2, 1 draws 3.
        let rounds = [
            round(
                1,
                &[(0, 1, GameResult::SouthWins), (2, 3, GameResult::SouthWins)],
                None,
            ),
            round(
                2,
                &[(0, 2, GameResult::Draw), (1, 3, GameResult::Draw)],
                None,
            ),
        ];
        let tb = [Tiebreak::SonnebornBerger];
        let mut s = standings(4, &rounds, &teams, &tb, Unplayed::Ignored);
        assert_eq!(s[0].points, 3.0);
        // Board points decide between 0 and 2, level on match points.
        lead_with(&mut s, Tiebreak::BoardPoints, &[3.0, 1.0, 3.5, 0.5]);
        let order: Vec<usize> = s.iter().map(|x| x.player.0).collect();
        assert_eq!(order, vec![2, 0, 1, 3]);
        assert_eq!(s[0].tiebreaks[0], (Tiebreak::BoardPoints, 3.5));
        assert_eq!(s[0].tiebreaks[1].0, Tiebreak::SonnebornBerger);
        // Level on board points too: the format's tie-break, and equal all through, a rank
        // shared.
        let mut s = standings(4, &rounds, &teams, &tb, Unplayed::Ignored);
        lead_with(&mut s, Tiebreak::BoardPoints, &[2.0, 1.0, 2.0, 1.0]);
        assert_eq!(s[0].rank, 1);
        assert_eq!(s[1].rank, 1);
        assert_eq!((s[2].rank, s[3].rank), (3, 3));
    }

    fn game(s: usize, n: usize) -> Pairing {
        Pairing {
            south: PlayerId(s),
            north: PlayerId(n),
        }
    }

    fn round(number: usize, games: &[(usize, usize, GameResult)], bye: Option<usize>) -> Round {
        let mut r = Round::new(
            number,
            games.iter().map(|&(s, n, _)| game(s, n)).collect(),
            bye.map(PlayerId),
        );
        for (i, g) in games.iter().enumerate() {
            r.results[i] = Some(g.2);
        }
        r
    }

    fn get(s: &[Standing], p: usize) -> &Standing {
        s.iter().find(|x| x.player == PlayerId(p)).unwrap()
    }

    #[test]
    fn round_robin_of_four_by_hand() {
        use GameResult::*;
        // A (0), B (1), C (2), D (3). Results:
        //   A beats B, A draws C, A loses to D   -> A 1.5
        //   B beats C, B beats D                 -> B 2
        //   C beats D                            -> C 1.5
        //   D: beat A                            -> D 1
        // Points: B 2, A 1.5, C 1.5, D 1.
        // SB (opponent's points x fraction won):
        //   A: B 2 x1 + C 1.5 x½ + D 1 x0 = 2.75
        //   C: A 1.5 x½ + D 1 x1 = 1.75
        //   B: C 1.5 + D 1 = 2.5;  D: A 1.5 = 1.5
        // Direct encounter between A and C (both 1.5): their game was drawn, ½ each.
        let rounds = [
            round(1, &[(0, 1, SouthWins), (2, 3, SouthWins)], None),
            round(2, &[(2, 0, Draw), (1, 3, SouthWins)], None),
            round(3, &[(0, 3, NorthWins), (1, 2, SouthWins)], None),
        ];
        let tb = [Tiebreak::DirectEncounter, Tiebreak::SonnebornBerger];
        let s = standings(4, &rounds, &Points::default(), &tb, Unplayed::Ignored);
        let order: Vec<usize> = s.iter().map(|x| x.player.0).collect();
        assert_eq!(order, [1, 0, 2, 3]);
        assert_eq!(get(&s, 0).points, 1.5);
        assert_eq!(get(&s, 0).tiebreaks[0].1, 0.5);
        assert_eq!(get(&s, 2).tiebreaks[0].1, 0.5);
        assert_eq!(get(&s, 0).tiebreaks[1].1, 2.75);
        assert_eq!(get(&s, 2).tiebreaks[1].1, 1.75);
        assert_eq!(get(&s, 1).tiebreaks[1].1, 2.5);
        assert_eq!(get(&s, 3).tiebreaks[1].1, 1.5);
        // B alone on 2: no one to meet on equal points.
        assert_eq!(get(&s, 1).tiebreaks[0].1, 0.0);
        assert_eq!(s.iter().map(|x| x.rank).collect::<Vec<_>>(), [1, 2, 3, 4]);
    }

    #[test]
    fn swiss_of_five_with_a_bye_and_a_forfeit_by_hand() {
        use GameResult::*;
        // Five players, two rounds.
        // R1: 0 beats 3, 1 draws 4, 2 has the bye.
        // R2: 2 beats 0, 4 wins by forfeit against 3 (3 forfeits as South), 1 has the bye.
        // Points: 0: 1, 1: 0.5 + 1 = 1.5, 2: 1 + 1 = 2, 3: 0, 4: 0.5 + 1 = 1.5.
        let rounds = [
            round(1, &[(0, 3, SouthWins), (1, 4, Draw)], Some(2)),
            round(
                2,
                &[(2, 0, SouthWins), (3, 4, Forfeit(Side::South))],
                Some(1),
            ),
        ];
        let tb = [
            Tiebreak::BuchholzCut1,
            Tiebreak::Buchholz,
            Tiebreak::SonnebornBerger,
        ];
        let s = standings(
            5,
            &rounds,
            &Points::default(),
            &tb,
            Unplayed::VirtualOpponent,
        );
        let pts: Vec<(usize, f64)> = s.iter().map(|x| (x.player.0, x.points)).collect();
        // Buchholz (virtual opponent = own points for byes and forfeits):
        //   0: 3 (0) + 2 (2) = 2;       cut 1: 2
        //   1: 4 (1.5) + own (1.5) = 3;  cut 1: 1.5
        //   2: own (2) + 0 (1) = 3;      cut 1: 2
        //   3: 0 (1) + own (0) = 1;      cut 1: 1
        //   4: 1 (1.5) + own (1.5) = 3;  cut 1: 1.5
        // SB:
        //   1: 4's 1.5 x½ + own 1.5 x1 = 2.25;   4: 1's 1.5 x½ + own 1.5 x1 = 2.25
        //   2: own 2 x1 + 0's 1 x1 = 3;          0: 3's 0 x1 + 2's 2 x0 = 0
        // Order: 2 (2 pts), then 1 and 4 (1.5, equal on everything: shared rank 2, by id),
        // then 0 (1), 3 (0).
        assert_eq!(pts, [(2, 2.0), (1, 1.5), (4, 1.5), (0, 1.0), (3, 0.0)]);
        assert_eq!(
            get(&s, 0).tiebreaks,
            [(tb[0], 2.0), (tb[1], 2.0), (tb[2], 0.0)]
        );
        assert_eq!(
            get(&s, 1).tiebreaks,
            [(tb[0], 1.5), (tb[1], 3.0), (tb[2], 2.25)]
        );
        assert_eq!(
            get(&s, 2).tiebreaks,
            [(tb[0], 2.0), (tb[1], 3.0), (tb[2], 3.0)]
        );
        assert_eq!(
            get(&s, 3).tiebreaks,
            [(tb[0], 1.0), (tb[1], 1.0), (tb[2], 0.0)]
        );
        assert_eq!(
            get(&s, 4).tiebreaks,
            [(tb[0], 1.5), (tb[1], 3.0), (tb[2], 2.25)]
        );
        assert_eq!(
            s.iter().map(|x| x.rank).collect::<Vec<_>>(),
            [1, 2, 2, 4, 5]
        );
    }

    #[test]
    fn a_round_robin_bye_adds_nothing_to_sonneborn_berger() {
        use GameResult::*;
        // Three players: 0 beats 1 (round 1, 2 sits out), 2 beats 0 (round 2, 1 sits
        // out), 1 draws 2 (round 3, 0 sits out). Points with a bye worth 1: 0: 1 + 1 = 2,
        // 1: 1 + 0.5 = 1.5, 2: 1 + 1 + 0.5 = 2.5.
        // SB, games only: 0: beat 1 (1.5) = 1.5; 1: drew 2 (2.5) x½ = 1.25;
        // 2: beat 0 (2) + drew 1 (1.5) x½ = 2.75.
        let rounds = [
            round(1, &[(0, 1, SouthWins)], Some(2)),
            round(2, &[(2, 0, SouthWins)], Some(1)),
            round(3, &[(1, 2, Draw)], Some(0)),
        ];
        let tb = [Tiebreak::SonnebornBerger];
        let s = standings(3, &rounds, &Points::default(), &tb, Unplayed::Ignored);
        assert_eq!(get(&s, 0).tiebreaks[0].1, 1.5);
        assert_eq!(get(&s, 1).tiebreaks[0].1, 1.25);
        assert_eq!(get(&s, 2).tiebreaks[0].1, 2.75);
        assert_eq!(
            s.iter().map(|x| x.points).collect::<Vec<_>>(),
            [2.5, 2.0, 1.5]
        );
    }

    #[test]
    fn configurable_points() {
        use GameResult::*;
        // Three for a win, one for a draw, none for the bye.
        let p = Points {
            win: 3.0,
            draw: 1.0,
            loss: 0.0,
            bye: 0.0,
            forfeit_loss: -1.0,
        };
        let rounds = [
            round(1, &[(0, 1, Draw)], Some(2)),
            round(2, &[(2, 0, NorthWins)], Some(1)),
            round(3, &[(1, 2, Forfeit(Side::North))], Some(0)),
        ];
        let s = standings(3, &rounds, &p, &[], Unplayed::VirtualOpponent);
        // 0: 1 + 3 + 0 = 4; 1: 1 + 0 + 3 = 4; 2: 0 + 0 - 1 = -1.
        assert_eq!(get(&s, 0).points, 4.0);
        assert_eq!(get(&s, 1).points, 4.0);
        assert_eq!(get(&s, 2).points, -1.0);
        assert_eq!(s[0].rank, 1);
        assert_eq!(s[1].rank, 1);
    }

    #[test]
    fn csv_escapes_and_formats() {
        assert_eq!(csv_field("plain"), "plain");
        assert_eq!(csv_field("a,b"), "\"a,b\"");
        assert_eq!(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
        assert_eq!(csv_field("two\nlines"), "\"two\nlines\"");
        assert_eq!(csv_field(" pad"), "\" pad\"");
        assert_eq!(fmt_points(2.0), "2");
        assert_eq!(fmt_points(1.5), "1.5");
        assert_eq!(fmt_points(2.25), "2.25");
        assert_eq!(fmt_points(-1.0), "-1");
    }

    #[test]
    fn crosstable_sums_both_games() {
        use GameResult::*;
        let rounds = [
            round(1, &[(0, 1, SouthWins)], None),
            round(2, &[(1, 0, Draw)], None),
        ];
        let c = crosstable(2, &rounds, &Points::default());
        assert_eq!(c[0][1], Some(1.5));
        assert_eq!(c[1][0], Some(0.5));
        assert_eq!(c[0][0], None);
    }
}
