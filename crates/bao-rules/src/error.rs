//! Error types. Every message names what is wrong in words a player understands.

use crate::Variant;
use std::fmt;

/// The kind of a position error (NOT-4.1), printed after `bad_position:`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PositionErrorKind {
    /// Not exactly six fields.
    Syntax,
    /// Unknown variant.
    Variant,
    /// Rows, counts, or both front rows empty.
    Board,
    /// Side is not `S` or `N`.
    Side,
    /// Hands field malformed.
    Hands,
    /// Ply field malformed.
    Ply,
    /// Seeds do not add up to 64.
    Total,
    /// A flag is unknown, repeated, or not allowed here.
    Flags,
}

impl PositionErrorKind {
    /// The kind as written in error lines (`syntax`, `variant`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            PositionErrorKind::Syntax => "syntax",
            PositionErrorKind::Variant => "variant",
            PositionErrorKind::Board => "board",
            PositionErrorKind::Side => "side",
            PositionErrorKind::Hands => "hands",
            PositionErrorKind::Ply => "ply",
            PositionErrorKind::Total => "total",
            PositionErrorKind::Flags => "flags",
        }
    }
}

/// A position that fails validation (NOT-4). Displays as `<kind>: <detail>`.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
#[error("{}: {detail}", kind.as_str())]
pub struct PositionError {
    /// Which check failed.
    pub kind: PositionErrorKind,
    /// What is wrong, for people.
    pub detail: String,
}

impl PositionError {
    pub(crate) fn new(kind: PositionErrorKind, detail: impl Into<String>) -> PositionError {
        PositionError {
            kind,
            detail: detail.into(),
        }
    }
}

/// A bad `--rules` string (OPT-1.1).
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum RulesError {
    /// An item without `=`.
    #[error("'{}' is not of the form name=value", printable(.0))]
    Syntax(String),
    /// An unknown option name.
    #[error("unknown option '{}'", printable(.0))]
    UnknownName(String),
    /// A value not listed for the option.
    #[error("'{}' is not a valid value for {}", printable(.value), printable(.name))]
    BadValue {
        /// The option.
        name: String,
        /// The value given.
        value: String,
    },
    /// The same name twice.
    #[error("option {} is given twice", printable(.0))]
    Duplicate(String),
    /// An option of another variant.
    #[error("option {name} does not apply to {variant}")]
    NotForVariant {
        /// The option.
        name: String,
        /// The position's variant.
        variant: Variant,
    },
}

/// Why a move text was refused (NOT-2, NOT-5).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The text does not fit the move syntax (`bad_move`).
    Malformed {
        /// The text as given.
        input: String,
        /// What is wrong with it.
        reason: String,
    },
    /// Well-formed, but no legal move matches (`illegal_move`).
    Illegal {
        /// The text as given.
        input: String,
        /// Why, e.g. "A4 is empty" or "a capture is compulsory: A5L, A7R".
        reason: String,
    },
    /// Several legal moves match (`ambiguous_move`).
    Ambiguous {
        /// The text as given.
        input: String,
        /// The canonical moves it could mean.
        choices: Vec<String>,
    },
    /// The game is already over (`game_over`).
    GameOver {
        /// The text as given.
        input: String,
        /// How the game ended, e.g. "South has won".
        reason: String,
    },
}

impl MoveError {
    /// The error category of NOT-5.
    pub fn category(&self) -> &'static str {
        match self {
            MoveError::Malformed { .. } => "bad_move",
            MoveError::Illegal { .. } => "illegal_move",
            MoveError::Ambiguous { .. } => "ambiguous_move",
            MoveError::GameOver { .. } => "game_over",
        }
    }

    /// The move text as it was given.
    pub fn input(&self) -> &str {
        match self {
            MoveError::Malformed { input, .. }
            | MoveError::Illegal { input, .. }
            | MoveError::Ambiguous { input, .. }
            | MoveError::GameOver { input, .. } => input,
        }
    }

    /// The reason, without the move text.
    pub fn reason(&self) -> String {
        match self {
            MoveError::Malformed { reason, .. }
            | MoveError::Illegal { reason, .. }
            | MoveError::GameOver { reason, .. } => reason.clone(),
            MoveError::Ambiguous { choices, .. } => {
                format!("could mean any of {}", choices.join(", "))
            }
        }
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}': {}", printable(self.input()), self.reason())
    }
}

impl std::error::Error for MoveError {}

/// Makes user text safe to echo in one line: non-printable and non-ASCII characters are escaped.
pub fn printable(s: &str) -> String {
    // Cut by output length: one escaped character can take eight.
    const MAX: usize = 80;
    let mut out = String::new();
    for c in s.chars() {
        if out.len() >= MAX {
            out.push('…');
            break;
        }
        if c.is_ascii_graphic() || c == ' ' {
            out.push(c);
        } else {
            out.extend(c.escape_default());
        }
    }
    out
}

/// Any error of the rules crate, with its NOT-5 category.
#[derive(Clone, PartialEq, Eq, Debug, thiserror::Error)]
pub enum Error {
    /// `bad_position`.
    #[error("{0}")]
    Position(#[from] PositionError),
    /// `bad_rules`.
    #[error("{0}")]
    Rules(#[from] RulesError),
    /// A move error.
    #[error("{0}")]
    Move(#[from] MoveError),
}

impl Error {
    /// The category of NOT-5.
    pub fn category(&self) -> &'static str {
        match self {
            Error::Position(_) => "bad_position",
            Error::Rules(_) => "bad_rules",
            Error::Move(m) => m.category(),
        }
    }
}
