//! # bao-engine
//!
//! The computer opponent for the three Bao games: an iterative deepening principal
//! variation search with a transposition table ([`search`]), an evaluation from Bao
//! features tuned by self-play ([`eval`], [`tune`]), playing levels ([`level`]), the line-based engine
//! protocol ([`protocol`], docs/engine-protocol.md), the match arena ([`arena`]) and game
//! review ([`review`]).
//!
//! Built on `bao-rules`: every move the engine considers comes from
//! [`bao_rules::legal_moves`], so the engine never re-decides a rule.
//!
//! ```
//! use bao_engine::{choose_move, MAX_LEVEL};
//! use bao_rules::{Position, Rules, Variant};
//! let rules = Rules::new(Variant::Kiswahili);
//! let m = choose_move(&Position::start(&rules), &rules, 3, 42).unwrap();
//! assert!(m.mv.is_takasa()); // no capture is possible at the start
//! ```
#![warn(missing_docs)]

pub mod arena;
pub mod clock;
pub mod eval;
pub mod fairplay;
pub mod level;
pub mod protocol;
pub mod puzzle;
pub mod record;
pub mod review;
pub mod search;
pub mod stats;
pub mod theme;
pub mod time;
pub mod tune;
pub mod zobrist;

use bao_rules::{LegalMove, Position, Rules};

pub use clock::{choose_move_clocked, Clock};
pub use eval::Weights;
pub use level::{Level, Searched, LEVELS};
pub use search::{Info, Limits, Score, SearchResult, Searcher};

/// The lowest playing level.
pub const MIN_LEVEL: u8 = 1;
/// The highest playing level.
pub const MAX_LEVEL: u8 = 8;

/// The move the computer plays at `level` (MIN_LEVEL..=MAX_LEVEL, clamped) in `pos`, or
/// `None` when the game is over. `seed` makes the choice reproducible: the same arguments
/// give the same move. Takes a few tenths of a second at most (a fixed node budget); callers
/// in async code run it on a blocking thread.
pub fn choose_move(pos: &Position, rules: &Rules, level: u8, seed: u64) -> Option<LegalMove> {
    choose_move_in_game(pos, rules, level, seed, &[])
}

/// [`choose_move`] in a game whose earlier positions are `history` (oldest first, `pos`
/// not included): the computer then sees the positions that would repeat (BRD-7.5), and
/// takes or avoids a draw by repetition like any other result.
///
/// ```
/// use bao_rules::{Game, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kiswahili);
/// let mut game = Game::new(Position::start(&rules), rules);
/// let first = game.legal_moves().as_slice()[0];
/// game.play(&first);
/// let ps = game.positions();
/// let m = bao_engine::choose_move_in_game(game.position(), &rules, 1, 7, &ps[..ps.len() - 1]);
/// assert!(m.is_some());
/// ```
pub fn choose_move_in_game(
    pos: &Position,
    rules: &Rules,
    level: u8,
    seed: u64,
    history: &[Position],
) -> Option<LegalMove> {
    if bao_rules::status(pos, rules).is_over() {
        return None;
    }
    let l = Level::get(level);
    let mut s = l.searcher(rules);
    l.choose(&mut s, pos, history, seed)
}
