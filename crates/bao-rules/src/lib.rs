//! # bao-rules
//!
//! The rules of three East African four-row mancala games, exactly as the project's
//! specification states them: Bao la Kiswahili, Bao la Kete and Bao la Kimasai.
//!
//! A pure library: no I/O, no global state. The rules are deterministic functions of a
//! [`Position`], a set of [`Rules`] (the variant and its options) and a [`Move`].
//!
//! ```
//! use bao_rules::{legal_moves, Position, Rules, Variant};
//! let rules = Rules::new(Variant::Kiswahili);
//! let start = Position::start(&rules);
//! for m in &legal_moves(&start, &rules) {
//!     println!("{}\t{}\t{}", m.mv, m.next, m.outcome(&rules));
//! }
//! ```
//!
//! The pieces, in the order a move passes through them:
//! * [`Position::parse`] / [`Display`](std::fmt::Display): the position notation (NOT-3, NOT-4);
//! * [`legal_moves`]: candidates (KIS-4, KIS-5, KIM-5, KIM-6), execution, removal and
//!   filters (BRD-7.1);
//! * [`find_move`] and [`MovePattern`]: typed moves matched against the legal ones (NOT-2);
//! * [`trace`] / [`play_with_events`]: the event stream of a move (CLI-5);
//! * [`status`], [`LegalMove::outcome`], [`Game`]: results, with repetition (BRD-7).
#![warn(missing_docs)]

mod error;
mod event;
mod exec;
mod game;
mod legal;
mod movegen;
mod notation;
mod options;
mod perft;
mod pit;
mod playout;
mod position;
mod record;
mod rng;
mod side;

pub use error::{printable, Error, MoveError, PositionError, PositionErrorKind, RulesError};
pub use event::{DrawReason, Event, EventSink, NoEvents, StopReason, WinReason};
pub use game::{find_move, Game};
pub use legal::{
    count_legal_moves, has_legal_move, legal_moves, legal_moves_within, play_with_events, status,
    trace, LegalMove, MoveList, Outcome, OverBudget,
};
pub use notation::{Move, MovePattern};
pub use options::{
    option_values, BlockerMustCapture, FrontRowEmpty, HouseLostAt, HouseProtection, IntroPits,
    LoneHouseTax, MatchFormat, NamuaSingletons, NeverEnding, NoIntro, Repetition, Rules,
    OPTION_NAMES,
};
pub use perft::perft;
pub use pit::{Dir, Letter, Pit, Square};
pub use playout::{playout, random_game, random_move, PlayoutStats};
pub use position::{Flags, Position, Setup};
pub use record::{
    parse_records, parse_records_bytes, Record, RecordError, RecordErrorKind, RecordMove,
    RecordResult, Termination, MAX_RECORD_BYTES,
};
pub use rng::Rng;
pub use side::{Side, Variant};
