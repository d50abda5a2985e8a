//! Tournaments of Bao: pairings, results and standings, as pure functions of plain data (no
//! I/O), shared by the server and `bao tournament`.
//!
//! * [`berger`]: round robins by Berger tables, single or double, byes for odd counts.
//! * [`swiss`]: Swiss pairings by maximum-weight matching ([`matching`]); its module doc
//!   says how close this is to FIDE's Dutch system.
//! * [`knockout`]: brackets of best-of-three matches (BRD-8.1) seeded by rating.
//! * [`standings`]: points, tie-breaks (Sonneborn-Berger, direct encounter, Buchholz,
//!   Buchholz cut 1, bracket position) and CSV.
//! * [`Tournament`]: a round robin or Swiss in progress: pair the next round, record
//!   results, read the standings.
//!
//! South moves first in every game (BRD-1.3): it plays the part of White in the chess
//! terms these systems were written in.
//!
//! ```
//! use bao_tournament::{Format, GameResult, Player, Tournament};
//!
//! let players = ["Ali", "Bakari", "Chausiku", "Dogo"].map(Player::new).to_vec();
//! let mut t = Tournament::new(Format::Swiss { rounds: 3 }, players).unwrap();
//! for _ in 0..3 {
//!     let round = t.pair_next_round().unwrap().clone();
//!     for g in round.pairings {
//!         t.record(round.number, g, GameResult::NorthWins).unwrap();
//!     }
//! }
//! let csv = bao_tournament::standings::to_csv(&t.standings(), &t.players);
//! assert!(csv.starts_with("rank,player,points,BH-C1,BH,SB\r\n"));
//! ```

pub mod berger;
pub mod knockout;
pub mod matching;
pub mod standings;
pub mod swiss;
mod tournament;
mod types;

pub use standings::{Standing, Tiebreak, Unplayed};
pub use tournament::Tournament;
pub use types::{
    seed_order, GameResult, Pairing, Player, PlayerId, Points, Round, Side, TournamentError,
};

/// How a tournament is run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Format {
    /// Everyone meets everyone (Berger tables); `double`: twice, sides swapped.
    RoundRobin {
        /// Two cycles, the second with every game's sides swapped.
        double: bool,
    },
    /// A fixed number of rounds, each paired by score ([`swiss`]).
    Swiss {
        /// The number of rounds.
        rounds: usize,
    },
    /// A bracket of best-of-three matches ([`knockout`]).
    Knockout {
        /// Whether the losing semi-finalists play for third place.
        third_place: bool,
    },
}

impl Format {
    /// The tie-breaks of the format, in the order they apply after points: round robins
    /// direct encounter, then Sonneborn-Berger; Swiss Buchholz cut 1, Buchholz, then
    /// Sonneborn-Berger (FIDE's recommended order for individual Swiss events); knockouts
    /// the bracket position, then the seed.
    pub fn tiebreaks(self) -> Vec<Tiebreak> {
        match self {
            Format::RoundRobin { .. } => {
                vec![Tiebreak::DirectEncounter, Tiebreak::SonnebornBerger]
            }
            Format::Swiss { .. } => vec![
                Tiebreak::BuchholzCut1,
                Tiebreak::Buchholz,
                Tiebreak::SonnebornBerger,
            ],
            Format::Knockout { .. } => vec![Tiebreak::BracketPosition, Tiebreak::Seed],
        }
    }
}
