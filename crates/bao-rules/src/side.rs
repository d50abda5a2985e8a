//! The two players and the three games.

use std::fmt;

/// One of the two players. South moves first (BRD-1.3).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Side {
    /// The player at the bottom of a diagram; pits `A1`…`B8`.
    South = 0,
    /// The player at the top of a diagram; pits `a1`…`b8`.
    North = 1,
}

impl Side {
    /// Both sides, South first.
    pub const BOTH: [Side; 2] = [Side::South, Side::North];

    /// The other player.
    ///
    /// ```
    /// use bao_rules::Side;
    /// assert_eq!(Side::South.other(), Side::North);
    /// ```
    #[inline]
    pub fn other(self) -> Side {
        match self {
            Side::South => Side::North,
            Side::North => Side::South,
        }
    }

    /// 0 for South, 1 for North: the index used in per-side arrays.
    #[inline]
    pub fn index(self) -> usize {
        self as usize
    }

    /// The side with this index (0 South, anything else North).
    #[inline]
    pub fn from_index(i: usize) -> Side {
        if i == 0 {
            Side::South
        } else {
            Side::North
        }
    }

    /// `S` or `N`, as in positions and results.
    pub fn letter(self) -> char {
        match self {
            Side::South => 'S',
            Side::North => 'N',
        }
    }

    /// Parses `S` or `N`.
    pub fn from_letter(s: &str) -> Option<Side> {
        match s {
            "S" => Some(Side::South),
            "N" => Some(Side::North),
            _ => None,
        }
    }

    /// "South" or "North", for people.
    pub fn name(self) -> &'static str {
        match self {
            Side::South => "South",
            Side::North => "North",
        }
    }
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// The three games of the family.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "lowercase"))]
pub enum Variant {
    /// Bao la Kiswahili (Zanzibar Bao).
    Kiswahili,
    /// Bao la Kete (Lamu).
    Kete,
    /// Bao la Kimasai (Maasai Bao).
    Kimasai,
}

impl Variant {
    /// All variants, in the order of the spec.
    pub const ALL: [Variant; 3] = [Variant::Kiswahili, Variant::Kete, Variant::Kimasai];

    /// The variant id used in positions and records.
    ///
    /// ```
    /// use bao_rules::Variant;
    /// assert_eq!(Variant::Kete.id(), "kete");
    /// assert_eq!(Variant::from_id("kimasai"), Some(Variant::Kimasai));
    /// ```
    pub fn id(self) -> &'static str {
        match self {
            Variant::Kiswahili => "kiswahili",
            Variant::Kete => "kete",
            Variant::Kimasai => "kimasai",
        }
    }

    /// Parses a variant id.
    pub fn from_id(s: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.id() == s)
    }

    /// The game's full name, for people.
    pub fn title(self) -> &'static str {
        match self {
            Variant::Kiswahili => "Bao la Kiswahili",
            Variant::Kete => "Bao la Kete",
            Variant::Kimasai => "Bao la Kimasai",
        }
    }

    /// Kiswahili and kete share the house, kichwa and takasia rules; kimasai has none.
    #[inline]
    pub fn is_bao(self) -> bool {
        !matches!(self, Variant::Kimasai)
    }

    /// Index 0..3, for per-variant tables.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}
