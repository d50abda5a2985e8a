//! Pits: ring indices (BRD-3), names (BRD-2) and direction letters (BRD-4).

use crate::Side;
use std::fmt;

/// One of a player's 16 pits, by ring index (BRD-3.1): `A1`=0 … `A8`=7, `B8`=8 … `B1`=15.
///
/// A `Pit` is always in range; which player owns it is carried separately (see [`Square`]).
///
/// ```
/// use bao_rules::Pit;
/// let a5 = Pit::front(5);
/// assert_eq!(a5.index(), 4);
/// assert!(a5.is_house());
/// assert_eq!(Pit::back(1).index(), 15);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Pit(u8);

impl Pit {
    /// The house (nyumba, kuu): ring index 4 (BRD-2.4).
    pub const HOUSE: Pit = Pit(4);
    /// The pits in the order of canonical move strings (NOT-1.5): A1…A8, then B1…B8.
    pub const CANONICAL_ORDER: [Pit; 16] = [
        Pit(0),
        Pit(1),
        Pit(2),
        Pit(3),
        Pit(4),
        Pit(5),
        Pit(6),
        Pit(7),
        Pit(15),
        Pit(14),
        Pit(13),
        Pit(12),
        Pit(11),
        Pit(10),
        Pit(9),
        Pit(8),
    ];

    /// The pit with ring index `i`, if `i < 16`.
    #[inline]
    pub fn new(i: usize) -> Option<Pit> {
        (i < 16).then_some(Pit(i as u8))
    }

    /// Ring index without a range check; callers guarantee `i < 16`.
    #[inline]
    pub(crate) const fn from_index(i: u8) -> Pit {
        Pit(i & 15)
    }

    /// Front pit `Ak` (k = 1…8). Panics outside 1…8.
    pub fn front(k: u8) -> Pit {
        assert!((1..=8).contains(&k), "front pit number {k} is not 1..8");
        Pit(k - 1)
    }

    /// Back pit `Bk` (k = 1…8). Panics outside 1…8.
    pub fn back(k: u8) -> Pit {
        assert!((1..=8).contains(&k), "back pit number {k} is not 1..8");
        Pit(16 - k)
    }

    /// Pit from a row (front or back) and a number 1…8.
    pub fn from_row(front: bool, k: u8) -> Option<Pit> {
        if !(1..=8).contains(&k) {
            return None;
        }
        Some(if front { Pit(k - 1) } else { Pit(16 - k) })
    }

    /// Ring index 0…15.
    #[inline]
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// Front row (ring 0…7)?
    #[inline]
    pub fn is_front(self) -> bool {
        self.0 < 8
    }

    /// The house pit A5/a5 (only meaningful in kiswahili and kete).
    #[inline]
    pub fn is_house(self) -> bool {
        self.0 == 4
    }

    /// A kichwa: A1 or A8.
    pub fn is_kichwa(self) -> bool {
        self.0 == 0 || self.0 == 7
    }

    /// The number k in the pit's name `Ak`/`Bk`.
    pub fn number(self) -> u8 {
        if self.is_front() {
            self.0 + 1
        } else {
            16 - self.0
        }
    }

    /// The opponent's front pit facing this front pit (BRD-3.3): front index i faces 7 − i.
    #[inline]
    pub fn facing(self) -> Pit {
        debug_assert!(self.is_front());
        Pit(7 - self.0)
    }

    /// One step in ring direction `d` (+1 or −1).
    #[inline]
    pub fn step(self, d: Dir) -> Pit {
        Pit((self.0 + d.offset()) & 15)
    }

    /// The pit's name with the owner's letter case (BRD-2.5), e.g. `A5` or `b3`.
    pub fn name(self, owner: Side) -> Square {
        Square {
            side: owner,
            pit: self,
        }
    }
}

/// A ring direction (BRD-3.2). `Cw` is +1 (clockwise for both players), `Ccw` is −1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Dir {
    /// +1.
    Cw,
    /// −1.
    Ccw,
}

impl Dir {
    /// Added to a ring index (mod 16) for one step.
    #[inline]
    pub(crate) fn offset(self) -> u8 {
        match self {
            Dir::Cw => 1,
            Dir::Ccw => 15,
        }
    }

    /// The reverse direction.
    pub fn reverse(self) -> Dir {
        match self {
            Dir::Cw => Dir::Ccw,
            Dir::Ccw => Dir::Cw,
        }
    }
}

/// A move letter (BRD-4.1): the mover's left or right.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Letter {
    /// Towards the mover's left (or, in a namua capture, the left kichwa).
    L,
    /// Towards the mover's right (or the right kichwa).
    R,
}

impl Letter {
    /// Both letters, in canonical order.
    pub const BOTH: [Letter; 2] = [Letter::L, Letter::R];

    /// The ring direction of a lap started from `pit` with this letter (BRD-4.1).
    ///
    /// ```
    /// use bao_rules::{Dir, Letter, Pit};
    /// assert_eq!(Letter::R.dir_from(Pit::front(3)), Dir::Cw);
    /// assert_eq!(Letter::L.dir_from(Pit::back(3)), Dir::Cw);
    /// ```
    #[inline]
    pub fn dir_from(self, pit: Pit) -> Dir {
        match (pit.is_front(), self) {
            (true, Letter::R) | (false, Letter::L) => Dir::Cw,
            _ => Dir::Ccw,
        }
    }

    /// The letter that sows from `pit` in ring direction `d`.
    pub fn for_dir(pit: Pit, d: Dir) -> Letter {
        if Letter::R.dir_from(pit) == d {
            Letter::R
        } else {
            Letter::L
        }
    }

    /// `L` or `R`.
    pub fn as_char(self) -> char {
        match self {
            Letter::L => 'L',
            Letter::R => 'R',
        }
    }
}

/// A pit together with its owner: prints as `A5`, `b3`, … (BRD-2.5).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Square {
    /// The owner.
    pub side: Side,
    /// The pit.
    pub pit: Pit,
}

impl Square {
    /// Parses `A1`…`B8` (South) or `a1`…`b8` (North).
    ///
    /// ```
    /// use bao_rules::{Side, Square};
    /// let sq = Square::parse("b3").unwrap();
    /// assert_eq!(sq.side, Side::North);
    /// assert_eq!(sq.to_string(), "b3");
    /// assert!(Square::parse("C3").is_none());
    /// ```
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let (side, front) = match b[0] {
            b'A' => (Side::South, true),
            b'B' => (Side::South, false),
            b'a' => (Side::North, true),
            b'b' => (Side::North, false),
            _ => return None,
        };
        if !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square {
            side,
            pit: Pit::from_row(front, b[1] - b'0')?,
        })
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let row = match (self.side, self.pit.is_front()) {
            (Side::South, true) => 'A',
            (Side::South, false) => 'B',
            (Side::North, true) => 'a',
            (Side::North, false) => 'b',
        };
        write!(f, "{}{}", row, self.pit.number())
    }
}
