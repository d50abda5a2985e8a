//! Move notation: canonical output (NOT-1) and lenient input patterns (NOT-2).

use crate::error::{printable, MoveError};
use crate::movegen::Kind;
use crate::{Letter, Pit, Side, Variant};
use std::fmt;

/// A legal move of some position. Only the rules crate makes them (from the legal moves of a
/// position), so a `Move` is never malformed.
///
/// Displays in canonical notation (NOT-1): `A8R+`, `a6L*`, `B2R`; in kimasai just `A3`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Move {
    pub(crate) side: Side,
    pub(crate) pit: Pit,
    pub(crate) letter: Option<Letter>,
    pub(crate) kind: Kind,
    pub(crate) safari: bool,
}

impl Move {
    /// The mover.
    pub fn side(&self) -> Side {
        self.side
    }
    /// The start pit (for a namua move, the pit that gets the hand seed).
    pub fn pit(&self) -> Pit {
        self.pit
    }
    /// The letter: direction, or entry kichwa of a namua capture (NOT-1.2). `None` in kimasai.
    pub fn letter(&self) -> Option<Letter> {
        self.letter
    }
    /// A takasa (non-capturing) move, written with `*`.
    pub fn is_takasa(&self) -> bool {
        self.kind.is_takasa()
    }
    /// A capture move of kiswahili or kete (kimasai moves are neither).
    pub fn is_capture(&self) -> bool {
        matches!(self.kind, Kind::NamuaCapture | Kind::MtajiCapture)
    }
    /// Continues at a house choice point (safari), written with `+`.
    pub fn is_safari(&self) -> bool {
        self.safari
    }
    /// A namua (nemo) move: the mover puts a seed from his hand first.
    pub fn is_namua(&self) -> bool {
        matches!(
            self.kind,
            Kind::NamuaCapture | Kind::NamuaTakasa | Kind::NamuaTax
        )
    }
    /// A namua takasa that taxes the lone house (KIS-4.5).
    pub fn is_tax(&self) -> bool {
        self.kind == Kind::NamuaTax
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.pit.name(self.side))?;
        if let Some(l) = self.letter {
            write!(f, "{}", l.as_char())?;
        }
        if self.safari {
            f.write_str("+")?;
        }
        if self.kind.is_takasa() {
            f.write_str("*")?;
        }
        Ok(())
    }
}

/// A move as typed, before it is matched against the legal moves (NOT-2.1, NOT-2.2).
///
/// ```
/// use bao_rules::{MovePattern, Letter, Variant};
/// let p = MovePattern::parse("8R>", Variant::Kiswahili, true).unwrap();
/// assert_eq!(p.letter, Some(Letter::R));
/// assert!(p.safari);
/// assert!(MovePattern::parse("2R", Variant::Kiswahili, false).is_err()); // mtaji needs a row
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MovePattern {
    /// The start pit; the row is implied (front) when omitted in namua.
    pub pit: Pit,
    /// The letter, if given.
    pub letter: Option<Letter>,
    /// The house mark (`+`, or `>` after a letter) was given.
    pub safari: bool,
    /// The takasa mark (`*` or `**`) was given.
    pub takasa: bool,
}

impl MovePattern {
    /// Parses move input. `namua`: the mover still has seeds in hand (kiswahili, kete), which
    /// allows leaving out the row letter.
    pub fn parse(text: &str, variant: Variant, namua: bool) -> Result<MovePattern, MoveError> {
        let bad = |reason: &str| MoveError::Malformed {
            input: text.to_string(),
            reason: reason.to_string(),
        };
        if text.is_empty() {
            return Err(bad("empty move"));
        }
        if !text.is_ascii() {
            return Err(bad("a move is written in ASCII, like A6L* or a3R"));
        }
        let b = text.as_bytes();
        let mut i = 0;
        let front = match b[0] {
            b'A' | b'a' => {
                i += 1;
                Some(true)
            }
            b'B' | b'b' => {
                i += 1;
                Some(false)
            }
            _ => None,
        };
        let Some(&dch) = b.get(i).filter(|c| (b'1'..=b'8').contains(c)) else {
            return Err(bad("expected a pit number 1 to 8 after the row letter"));
        };
        i += 1;
        let letter = match b.get(i) {
            Some(b'L' | b'l' | b'<') => Some(Letter::L),
            Some(b'R' | b'r' | b'>') => Some(Letter::R),
            _ => None,
        };
        if letter.is_some() {
            i += 1;
        }
        let safari = match b.get(i) {
            Some(b'+') => true,
            Some(b'>') if letter.is_some() => true,
            _ => false,
        };
        if safari {
            i += 1;
        }
        let takasa = match &b[i..] {
            [b'*', b'*', ..] => {
                i += 2;
                true
            }
            [b'*', ..] => {
                i += 1;
                true
            }
            _ => false,
        };
        if i != b.len() {
            return Err(bad(&format!(
                "unexpected '{}' (moves look like A6L*, a5R, A8R+ or B2L)",
                printable(&text[i..])
            )));
        }
        let front = match front {
            Some(f) => f,
            None if variant.is_bao() && namua => true,
            None if variant.is_bao() => {
                return Err(bad(
                    "the row letter (A/B) is required once the hands are empty (mtaji)",
                ))
            }
            None => return Err(bad("a kimasai move is a pit name like A3 or b7")),
        };
        if !variant.is_bao() && (letter.is_some() || safari || takasa) {
            return Err(bad(
                "kimasai moves have no direction or marks: write only the pit, like A3",
            ));
        }
        Ok(MovePattern {
            pit: Pit::from_row(front, dch - b'0').expect("digit checked"),
            letter,
            safari,
            takasa,
        })
    }

    /// NOT-2.3: whether a legal move matches this pattern.
    pub fn matches(&self, m: &Move) -> bool {
        m.pit == self.pit
            && (self.letter.is_none() || self.letter == m.letter)
            && m.safari == self.safari
            && (!self.takasa || m.is_takasa())
    }
}
