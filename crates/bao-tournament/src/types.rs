//! The plain data of a tournament: players, sides, pairings, results, points, errors.

use std::fmt;

/// A player of a tournament: its index in the tournament's player list (its registration
/// order, which is also the pairing number's order among equal ratings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PlayerId(pub usize);

impl fmt::Display for PlayerId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "player {}", self.0 + 1)
    }
}

/// A registered player: a name and an optional rating (higher is stronger), which orders
/// the seeding of knockouts and the first pairing numbers of a Swiss.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Player {
    /// The name shown in standings and crosstables.
    pub name: String,
    /// The rating, if known; unrated players rank below rated ones.
    pub rating: Option<i32>,
}

impl Player {
    /// A player with a name and no rating.
    pub fn new(name: impl Into<String>) -> Player {
        Player {
            name: name.into(),
            rating: None,
        }
    }
    /// A player with a name and a rating.
    pub fn rated(name: impl Into<String>, rating: i32) -> Player {
        Player {
            name: name.into(),
            rating: Some(rating),
        }
    }
}

/// The players in rank order: rating (highest first; unrated last), then registration order.
/// The first is seed 1 of a knockout and pairing number 1 of a Swiss.
pub fn seed_order(players: &[Player]) -> Vec<PlayerId> {
    let mut ids: Vec<PlayerId> = (0..players.len()).map(PlayerId).collect();
    ids.sort_by_key(|id| (std::cmp::Reverse(players[id.0].rating), id.0));
    ids
}

/// A side of the board. South makes the first move of every game (BRD-1.3), so South is
/// the side that chess calls White.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// Moves first.
    South,
    /// Moves second.
    North,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }
}

/// One game of a round: who plays South (and so moves first, BRD-1.3) and who plays North.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Pairing {
    /// Plays South and moves first.
    pub south: PlayerId,
    /// Plays North.
    pub north: PlayerId,
}

impl Pairing {
    /// The side `p` plays in this game, if `p` plays in it.
    pub fn side_of(&self, p: PlayerId) -> Option<Side> {
        if p == self.south {
            Some(Side::South)
        } else if p == self.north {
            Some(Side::North)
        } else {
            None
        }
    }
    /// The opponent of `p` in this game, if `p` plays in it.
    pub fn opponent(&self, p: PlayerId) -> Option<PlayerId> {
        match self.side_of(p)? {
            Side::South => Some(self.north),
            Side::North => Some(self.south),
        }
    }
}

/// The result of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GameResult {
    /// South won on the board.
    SouthWins,
    /// North won on the board.
    NorthWins,
    /// Drawn (by the rules, by agreement or by adjudication).
    Draw,
    /// The given side forfeited: it lost without the game being played out (it did not
    /// appear, or an engine crashed). The opponent scores a win. Tie-breaks count the game
    /// as not played (see [`crate::standings`]).
    Forfeit(Side),
}

impl GameResult {
    /// The winning side, `None` for a draw.
    pub fn winner(self) -> Option<Side> {
        match self {
            GameResult::SouthWins => Some(Side::South),
            GameResult::NorthWins => Some(Side::North),
            GameResult::Draw => None,
            GameResult::Forfeit(s) => Some(s.other()),
        }
    }
    /// Whether the game was played out on the board (not a forfeit).
    pub fn played(self) -> bool {
        !matches!(self, GameResult::Forfeit(_))
    }
}

/// Points a result is worth. The default is the usual win 1, draw ½, loss 0, bye 1.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Points {
    /// A won game (also the winner's score of a forfeit).
    pub win: f64,
    /// A drawn game.
    pub draw: f64,
    /// A lost game.
    pub loss: f64,
    /// A round without an opponent (odd number of players).
    pub bye: f64,
    /// A forfeited game, for the player who forfeited.
    pub forfeit_loss: f64,
}

impl Default for Points {
    fn default() -> Points {
        Points {
            win: 1.0,
            draw: 0.5,
            loss: 0.0,
            bye: 1.0,
            forfeit_loss: 0.0,
        }
    }
}

impl Points {
    /// The points `side` scores with `result`.
    ///
    /// ```
    /// use bao_tournament::{GameResult, Points, Side};
    /// let p = Points::default();
    /// assert_eq!(p.score(GameResult::Draw, Side::North), 0.5);
    /// assert_eq!(p.score(GameResult::Forfeit(Side::North), Side::South), 1.0);
    /// ```
    pub fn score(&self, result: GameResult, side: Side) -> f64 {
        match result {
            GameResult::Draw => self.draw,
            GameResult::Forfeit(s) if s == side => self.forfeit_loss,
            r if r.winner() == Some(side) => self.win,
            _ => self.loss,
        }
    }
}

/// One round: its games and the player who sits out, if any.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Round {
    /// 1 for the first round.
    pub number: usize,
    /// The games, board 1 first.
    pub pairings: Vec<Pairing>,
    /// The results, one for each pairing in the same order; `None` until played.
    pub results: Vec<Option<GameResult>>,
    /// The player without an opponent this round (an odd number of players).
    pub bye: Option<PlayerId>,
}

impl Round {
    /// A round with no result yet.
    pub fn new(number: usize, pairings: Vec<Pairing>, bye: Option<PlayerId>) -> Round {
        Round {
            number,
            results: vec![None; pairings.len()],
            pairings,
            bye,
        }
    }
    /// Whether every game of the round has a result.
    pub fn is_complete(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }
    /// The games with their results, played or not.
    pub fn games(&self) -> impl Iterator<Item = (Pairing, Option<GameResult>)> + '_ {
        self.pairings
            .iter()
            .copied()
            .zip(self.results.iter().copied())
    }
}

/// What went wrong, in words a tournament director understands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TournamentError {
    /// The format needs more players.
    TooFewPlayers {
        /// The least the format takes.
        needed: usize,
        /// How many there are.
        got: usize,
    },
    /// A player id that is not in the tournament.
    UnknownPlayer(PlayerId),
    /// Asked to pair a round that already has its pairings.
    RoundAlreadyPaired(usize),
    /// Rounds are paired in order: this is not the next one.
    RoundOutOfOrder {
        /// The round asked for.
        asked: usize,
        /// The next round to pair.
        next: usize,
    },
    /// A Swiss round is paired from the results of the ones before: this one has games
    /// without a result.
    RoundUnfinished {
        /// The unfinished round.
        round: usize,
        /// Games still without a result.
        missing: usize,
    },
    /// Every round of the tournament has been paired.
    NoMoreRounds(usize),
    /// No such round (yet).
    NoSuchRound(usize),
    /// The two players do not meet in that round with those sides.
    NoSuchGame {
        /// The round.
        round: usize,
        /// The South player given.
        south: PlayerId,
        /// The North player given.
        north: PlayerId,
    },
    /// The game already has a result.
    ResultAlreadyRecorded {
        /// The round.
        round: usize,
        /// The South player.
        south: PlayerId,
    },
    /// The organiser's forbidden pairs (or a player paired with himself) leave no way to
    /// pair everyone.
    CannotPair(String),
    /// A knockout match that does not exist or is not ready to be played.
    NoSuchMatch {
        /// The knockout round, 1 for the first.
        round: usize,
        /// The match within the round, 1 for the top of the bracket.
        number: usize,
    },
    /// The winner given does not play in that knockout match.
    NotInMatch(PlayerId),
    /// A match that ended level under BRD-8.1 (equal wins after five games): the organiser
    /// must decide who goes on.
    MatchDrawn,
    /// A setting that makes no sense (zero rounds, a player forbidden to meet himself...).
    Invalid(String),
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use TournamentError::*;
        match self {
            TooFewPlayers { needed, got } => write!(
                f,
                "too few players: this format needs at least {needed}, and there {} {got}",
                if *got == 1 { "is" } else { "are" }
            ),
            UnknownPlayer(p) => write!(f, "{p} is not in this tournament"),
            RoundAlreadyPaired(r) => write!(f, "round {r} is already paired"),
            RoundOutOfOrder { asked, next } => write!(
                f,
                "round {asked} cannot be paired now: the next round to pair is round {next}"
            ),
            RoundUnfinished { round, missing } => write!(
                f,
                "round {round} is not finished: {missing} game{} still without a result",
                if *missing == 1 { "" } else { "s" }
            ),
            NoMoreRounds(n) => write!(f, "all {n} rounds are already paired"),
            NoSuchRound(r) => write!(f, "there is no round {r} (yet)"),
            NoSuchGame {
                round,
                south,
                north,
            } => write!(
                f,
                "in round {round}, {south} does not play South against {north}"
            ),
            ResultAlreadyRecorded { round, south } => write!(
                f,
                "the game of round {round} with {south} as South already has a result"
            ),
            CannotPair(why) => write!(f, "no pairing is possible: {why}"),
            NoSuchMatch { round, number } => write!(
                f,
                "knockout round {round} has no match {number} ready to be played"
            ),
            NotInMatch(p) => write!(f, "{p} does not play in that match"),
            MatchDrawn => write!(
                f,
                "the match is drawn (equal wins after five games, BRD-8.1): the organiser must decide who goes on"
            ),
            Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for TournamentError {}
