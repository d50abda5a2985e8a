//! Positions: the notation of NOT-3, validation (NOT-4) and start positions (NOT-3.5).

use crate::error::{printable, PositionError, PositionErrorKind as K};
use crate::movegen;
use crate::options::{HouseProtection, NoIntro};
use crate::{BlockerMustCapture, Pit, Rules, Side, Square, Variant};
use std::fmt;

/// The flags of a position (NOT-3.4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Flags {
    /// `house:S`, `house:N`: the side still owns its house (KIS-7.1). Indexed by [`Side::index`].
    pub house: [bool; 2],
    /// `duty:S`, `duty:N`: kete first-takata duty (KET-4).
    pub duty: [bool; 2],
    /// `block:<pit>`: a front pit of the side to move (KIS-8.4).
    pub block: Option<Pit>,
    /// `must:<pit>`: a front pit of the side not to move (KIS-8.8).
    pub must: Option<Pit>,
    /// `nointro`: the kimasai mover adds no cow (KIM-5.1).
    pub nointro: bool,
}

/// A position as plain data, not yet checked (after shakmaty's `Setup`).
///
/// Use it to build positions in code; [`Setup::validate`] checks it under a set of rules.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// The game.
    pub variant: Variant,
    /// Seeds per pit, `[side][ring index]` (BRD-3.1).
    pub board: [[u8; 16]; 2],
    /// Seeds in hand, by side.
    pub hands: [u8; 2],
    /// The side to move.
    pub side: Side,
    /// The flags.
    pub flags: Flags,
    /// Moves played since the start position.
    pub ply: u32,
}

/// A valid position: board, hands, side to move, flags and ply (NOT-3).
///
/// Small and `Copy`, cheap to hash; the rules are passed beside it.
///
/// ```
/// use bao_rules::{Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kiswahili);
/// let start = Position::start(&rules);
/// assert_eq!(
///     start.to_string(),
///     "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0"
/// );
/// let parsed = Position::parse(&start.to_string(), &rules).unwrap();
/// assert_eq!(parsed, start);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    pub(crate) rings: [[u8; 16]; 2],
    pub(crate) hands: [u8; 2],
    pub(crate) side: Side,
    pub(crate) variant: Variant,
    pub(crate) flags: Flags,
    pub(crate) ply: u32,
}

impl Position {
    /// The start position of the rules' variant, under those rules (NOT-3.5).
    pub fn start(rules: &Rules) -> Position {
        let mut rings = [[0u8; 16]; 2];
        let mut flags = Flags::default();
        let hands;
        match rules.variant {
            Variant::Kiswahili | Variant::Kete => {
                for r in rings.iter_mut() {
                    r[4] = 6;
                    r[5] = 2;
                    r[6] = 2;
                }
                hands = [22, 22];
                flags.house = [true, true];
                if rules.variant == Variant::Kete && rules.first_takasa_from_kuu {
                    flags.duty = [true, true];
                }
            }
            Variant::Kimasai => {
                for r in rings.iter_mut() {
                    r[..8].fill(1);
                }
                hands = [24, 24];
                flags.nointro = rules.no_intro != NoIntro::Never;
            }
        }
        Position {
            rings,
            hands,
            side: Side::South,
            variant: rules.variant,
            flags,
            ply: 0,
        }
    }

    /// Reads the variant of a position text: checks 1 and 2 of NOT-4.1 only.
    ///
    /// The CLI needs the variant before it can check `--rules` (CLI-8.3).
    pub fn variant_of(text: &str) -> Result<Variant, PositionError> {
        let text = text.trim_matches([' ', '\t']);
        if let Some(v) = Variant::from_id(text) {
            return Ok(v);
        }
        let fields: Vec<&str> = fields(text);
        // A lone word is meant as a variant name (`bao moves chess`): say it is not one. The
        // category stays `syntax` (a position needs 6 fields, NOT-3).
        if let [word] = fields[..] {
            if word.chars().all(|c| c.is_alphabetic()) {
                return Err(PositionError::new(
                    K::Syntax,
                    format!(
                        "unknown variant '{}': give kiswahili, kete or kimasai, or a full position \
                         of 6 fields (variant board side hands flags ply)",
                        printable(word)
                    ),
                ));
            }
        }
        if fields.len() != 6 {
            return Err(PositionError::new(
                K::Syntax,
                format!(
                    "a position has 6 fields (variant board side hands flags ply), found {}",
                    fields.len()
                ),
            ));
        }
        Variant::from_id(fields[0]).ok_or_else(|| {
            PositionError::new(
                K::Variant,
                format!(
                    "unknown variant '{}' (expected kiswahili, kete or kimasai)",
                    printable(fields[0])
                ),
            )
        })
    }

    /// Parses and validates a position (NOT-3, NOT-4) under `rules`.
    ///
    /// A text that is exactly a variant name is that variant's start position.
    pub fn parse(text: &str, rules: &Rules) -> Result<Position, PositionError> {
        let variant = Position::variant_of(text)?;
        if variant != rules.variant {
            return Err(PositionError::new(
                K::Variant,
                format!(
                    "the position is {} but the rules are for {}",
                    variant, rules.variant
                ),
            ));
        }
        let text = text.trim_matches([' ', '\t']);
        if Variant::from_id(text).is_some() {
            return Ok(Position::start(rules));
        }
        let f = fields(text);
        let board = parse_board(f[1])?;
        let side = Side::from_letter(f[2]).ok_or_else(|| {
            PositionError::new(
                K::Side,
                format!("side to move must be S or N, not '{}'", printable(f[2])),
            )
        })?;
        let hands = parse_hands(f[3])?;
        let ply = parse_ply(f[5])?;
        // Counts saturate when read; add them saturating too, so that huge numbers are a
        // `total` error and never wrap round to 64 (NOT-4.1 step 7).
        let total: u64 = board
            .iter()
            .flatten()
            .chain(hands.iter())
            .fold(0u64, |a, &c| a.saturating_add(c));
        if total != 64 {
            let shown = if total >= u32::MAX as u64 {
                "far more than 64".to_string()
            } else {
                total.to_string()
            };
            return Err(PositionError::new(
                K::Total,
                format!("seed total is {shown}, expected 64"),
            ));
        }
        // Every count is now at most 64.
        let mut rings = [[0u8; 16]; 2];
        for s in 0..2 {
            for i in 0..16 {
                rings[s][i] = board[s][i] as u8;
            }
        }
        let (flags, cases) = parse_flags(f[4])?;
        Setup {
            variant,
            board: rings,
            hands: [hands[0] as u8, hands[1] as u8],
            side,
            flags,
            ply,
        }
        .validate_cases(rules, cases)
    }

    /// The position as plain data.
    pub fn setup(&self) -> Setup {
        Setup {
            variant: self.variant,
            board: self.rings,
            hands: self.hands,
            side: self.side,
            flags: self.flags,
            ply: self.ply,
        }
    }

    /// The game.
    #[inline]
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The side to move.
    #[inline]
    pub fn side(&self) -> Side {
        self.side
    }

    /// Seeds in `side`'s hand.
    #[inline]
    pub fn hand(&self, side: Side) -> u8 {
        self.hands[side.index()]
    }

    /// Seeds in `side`'s pit.
    #[inline]
    pub fn seeds(&self, side: Side, pit: Pit) -> u8 {
        self.rings[side.index()][pit.index()]
    }

    /// `side`'s 16 pits by ring index.
    #[inline]
    pub fn ring(&self, side: Side) -> &[u8; 16] {
        &self.rings[side.index()]
    }

    /// Moves played since the start position.
    #[inline]
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The flags.
    #[inline]
    pub fn flags(&self) -> &Flags {
        &self.flags
    }

    /// Whether `side` still owns its house.
    #[inline]
    pub fn owns_house(&self, side: Side) -> bool {
        self.flags.house[side.index()]
    }

    /// The blocked pit of the side to move, if any (takasia).
    pub fn block(&self) -> Option<Square> {
        self.flags.block.map(|p| p.name(self.side))
    }

    /// The opponent pit the side to move must capture first, if any (KIS-8.8).
    pub fn must(&self) -> Option<Square> {
        self.flags.must.map(|p| p.name(self.side.other()))
    }

    /// True when `side`'s front row holds no seed.
    #[inline]
    pub fn front_row_empty(&self, side: Side) -> bool {
        front_empty(&self.rings[side.index()])
    }

    /// Kiswahili/kete stage of the side to move: namua (or nemo) while it holds seeds in hand.
    pub fn is_namua(&self) -> bool {
        self.hands[self.side.index()] > 0
    }

    /// The same position with another ply counter.
    pub fn with_ply(mut self, ply: u32) -> Position {
        self.ply = ply;
        self
    }

    /// A 64-bit hash of everything but the ply counter: positions equal for repetition
    /// (NOT-3.6) have equal keys.
    pub fn repetition_key(&self) -> u64 {
        let mut words = [0u64; 5];
        for (s, ring) in self.rings.iter().enumerate() {
            words[2 * s] = u64::from_le_bytes(ring[..8].try_into().unwrap());
            words[2 * s + 1] = u64::from_le_bytes(ring[8..].try_into().unwrap());
        }
        let f = &self.flags;
        words[4] = (self.hands[0] as u64)
            | (self.hands[1] as u64) << 8
            | (self.side as u64) << 16
            | (self.variant as u64) << 18
            | (f.house[0] as u64) << 20
            | (f.house[1] as u64) << 21
            | (f.duty[0] as u64) << 22
            | (f.duty[1] as u64) << 23
            | (f.nointro as u64) << 24
            | (f.block.map_or(0, |p| p.index() as u64 + 1)) << 32
            | (f.must.map_or(0, |p| p.index() as u64 + 1)) << 40;
        let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
        for w in words {
            h = (h ^ w).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            h ^= h >> 31;
        }
        h
    }

    /// Equal for the repetition rule: every field but the ply (NOT-3.6).
    pub fn same_as(&self, other: &Position) -> bool {
        self.with_ply(0) == other.with_ply(0)
    }
}

#[inline]
pub(crate) fn front_empty(ring: &[u8; 16]) -> bool {
    u64::from_ne_bytes(ring[..8].try_into().unwrap()) == 0
}

impl Setup {
    /// Checks 7 to 9 of NOT-4.1 (total, front rows, flags) under `rules`.
    pub fn validate(self, rules: &Rules) -> Result<Position, PositionError> {
        self.validate_cases(rules, [None, None])
    }

    fn validate_cases(
        self,
        rules: &Rules,
        cases: [Option<Side>; 2],
    ) -> Result<Position, PositionError> {
        if self.variant != rules.variant {
            return Err(PositionError::new(
                K::Variant,
                format!(
                    "the position is {} but the rules are for {}",
                    self.variant, rules.variant
                ),
            ));
        }
        let total: u32 = self.board.iter().flatten().map(|&c| c as u32).sum::<u32>()
            + self.hands[0] as u32
            + self.hands[1] as u32;
        if total != 64 {
            return Err(PositionError::new(
                K::Total,
                format!("seed total is {total}, expected 64"),
            ));
        }
        if front_empty(&self.board[0]) && front_empty(&self.board[1]) {
            return Err(PositionError::new(
                K::Board,
                "both front rows are empty; at least one must hold a seed",
            ));
        }
        let pos = Position {
            rings: self.board,
            hands: self.hands,
            side: self.side,
            variant: self.variant,
            flags: self.flags,
            ply: self.ply,
        };
        check_flags(&pos, rules, cases)?;
        Ok(pos)
    }
}

fn fields(text: &str) -> Vec<&str> {
    text.split([' ', '\t']).filter(|s| !s.is_empty()).collect()
}

fn parse_count(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.bytes().fold(0u64, |a, b| {
        a.saturating_mul(10).saturating_add((b - b'0') as u64)
    }))
}

/// Diagram rows (NOT-3.2) to rings: returns counts by [side][ring index].
fn parse_board(s: &str) -> Result<[[u64; 16]; 2], PositionError> {
    let rows: Vec<&str> = s.split('/').collect();
    if rows.len() != 4 {
        return Err(PositionError::new(
            K::Board,
            format!(
                "the board has 4 rows separated by '/', found {}",
                rows.len()
            ),
        ));
    }
    const ROW_NAMES: [&str; 4] = [
        "North's back row",
        "North's front row",
        "South's front row",
        "South's back row",
    ];
    let mut board = [[0u64; 16]; 2];
    for (r, row) in rows.iter().enumerate() {
        let counts: Vec<&str> = row.split(',').collect();
        if counts.len() != 8 {
            return Err(PositionError::new(
                K::Board,
                format!("{} has {} counts, expected 8", ROW_NAMES[r], counts.len()),
            ));
        }
        for (j, c) in counts.iter().enumerate() {
            let n = parse_count(c).ok_or_else(|| {
                PositionError::new(
                    K::Board,
                    format!(
                        "'{}' in {} is not a seed count (digits only)",
                        printable(c),
                        ROW_NAMES[r]
                    ),
                )
            })?;
            let (side, ring) = match r {
                0 => (1, 8 + j),
                1 => (1, 7 - j),
                2 => (0, j),
                _ => (0, 15 - j),
            };
            board[side][ring] = n;
        }
    }
    Ok(board)
}

fn parse_hands(s: &str) -> Result<[u64; 2], PositionError> {
    let bad = || {
        PositionError::new(
            K::Hands,
            format!(
                "hands must be <south>/<north> in digits, not '{}'",
                printable(s)
            ),
        )
    };
    let (a, b) = s.split_once('/').ok_or_else(bad)?;
    Ok([
        parse_count(a).ok_or_else(bad)?,
        parse_count(b).ok_or_else(bad)?,
    ])
}

fn parse_ply(s: &str) -> Result<u32, PositionError> {
    let n = parse_count(s).ok_or_else(|| {
        PositionError::new(
            K::Ply,
            format!("the ply must be a number, not '{}'", printable(s)),
        )
    })?;
    u32::try_from(n)
        .map_err(|_| PositionError::new(K::Ply, format!("the ply {} is too large", printable(s))))
}

/// Parses the flags field; also returns the side whose letter case the block and must pits use.
fn parse_flags(s: &str) -> Result<(Flags, [Option<Side>; 2]), PositionError> {
    let mut flags = Flags::default();
    let mut cases = [None, None];
    if s == "-" {
        return Ok((flags, cases));
    }
    let mut seen: Vec<&str> = Vec::new();
    for tok in s.split(',') {
        let key = tok.split_once(':').map_or(tok, |(k, _)| k);
        let dup_key = match key {
            "house" | "duty" => tok,
            _ => key,
        };
        if seen.contains(&dup_key) {
            return Err(PositionError::new(
                K::Flags,
                format!("flag '{}' is given twice", printable(dup_key)),
            ));
        }
        seen.push(dup_key);
        match tok {
            "house:S" => flags.house[0] = true,
            "house:N" => flags.house[1] = true,
            "duty:S" => flags.duty[0] = true,
            "duty:N" => flags.duty[1] = true,
            "nointro" => flags.nointro = true,
            _ => {
                let (k, v) = tok.split_once(':').unwrap_or((tok, ""));
                let sq = Square::parse(v);
                match (k, sq) {
                    ("block", Some(sq)) => {
                        flags.block = Some(sq.pit);
                        cases[0] = Some(sq.side);
                    }
                    ("must", Some(sq)) => {
                        flags.must = Some(sq.pit);
                        cases[1] = Some(sq.side);
                    }
                    _ => {
                        return Err(PositionError::new(
                            K::Flags,
                            format!("unknown flag '{}'", printable(tok)),
                        ))
                    }
                }
            }
        }
    }
    Ok((flags, cases))
}

/// `cases`: the letter case (side) the `block` and `must` pits were written in, if parsed.
fn check_flags(
    pos: &Position,
    rules: &Rules,
    cases: [Option<Side>; 2],
) -> Result<(), PositionError> {
    let bad = |m: String| Err(PositionError::new(K::Flags, m));
    let f = &pos.flags;
    let bao = pos.variant.is_bao();
    let stm = pos.side;
    for s in Side::BOTH {
        let i = s.index();
        if f.house[i] {
            if !bao {
                return bad(format!("house:{s} is not a {} flag", pos.variant));
            }
            if pos.rings[i][4] == 0 {
                return bad(format!(
                    "house:{s} needs seeds in {}, which is empty",
                    Pit::HOUSE.name(s)
                ));
            }
        }
    }
    for s in Side::BOTH {
        let i = s.index();
        if f.duty[i] {
            if pos.variant != crate::Variant::Kete {
                return bad(format!(
                    "duty:{s} is a kete flag, not a {} flag",
                    pos.variant
                ));
            }
            if !rules.first_takasa_from_kuu {
                return bad(format!(
                    "duty:{s} needs the rule first_takasa_from_kuu=true"
                ));
            }
            if !f.house[i] {
                return bad(format!("duty:{s} needs house:{s}"));
            }
        }
    }
    if let Some(t) = f.block {
        let name = t.name(cases[0].unwrap_or(stm));
        if !bao {
            return bad(format!("block:{name} is not a {} flag", pos.variant));
        }
        if !rules.takasia {
            return bad(format!("block:{name} needs the rule takasia=true"));
        }
        if pos.hands != [0, 0] {
            return bad(format!("block:{name} needs both hands empty"));
        }
        if cases[0].is_some_and(|c| c != stm) || !t.is_front() {
            return bad(format!(
                "block:{name} must name a front pit of the side to move ({stm})"
            ));
        }
        if pos.rings[stm.index()][t.index()] == 0 {
            return bad(format!("block:{name} names an empty pit"));
        }
        if t.is_house() && f.house[stm.index()] {
            let protected = match rules.takasia_house_protection {
                HouseProtection::Owned => true,
                HouseProtection::Functional => pos.rings[stm.index()][4] >= rules.min(),
            };
            if protected {
                return bad(format!(
                    "block:{name} names an owned house, which cannot be blocked"
                ));
            }
        }
        if movegen::has_capture(&pos.rings, stm) {
            return bad(format!(
                "block:{name} is impossible: the side to move has a capture move"
            ));
        }
    }
    if let Some(t) = f.must {
        let owner = stm.other();
        let name = t.name(cases[1].unwrap_or(owner));
        if !bao {
            return bad(format!("must:{name} is not a {} flag", pos.variant));
        }
        if !rules.takasia || rules.blocker_must_capture == BlockerMustCapture::Off {
            return bad(format!(
                "must:{name} needs takasia=true and blocker_must_capture other than off"
            ));
        }
        if pos.hands != [0, 0] {
            return bad(format!("must:{name} needs both hands empty"));
        }
        if cases[1].is_some_and(|c| c != owner) || !t.is_front() {
            return bad(format!(
                "must:{name} must name a front pit of the side not to move ({owner})"
            ));
        }
    }
    if f.nointro {
        if pos.variant != Variant::Kimasai {
            return bad(format!(
                "nointro is a kimasai flag, not a {} flag",
                pos.variant
            ));
        }
        if rules.no_intro == NoIntro::Never {
            return bad("nointro is not allowed under no_intro=never".to_string());
        }
        if pos.hands[stm.index()] == 0 {
            return bad("nointro needs cows in the reserve of the side to move".to_string());
        }
    }
    Ok(())
}

/// The canonical position string (NOT-3.6).
impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut s = String::with_capacity(96);
        s.push_str(self.variant.id());
        s.push(' ');
        let n = &self.rings[1];
        let so = &self.rings[0];
        let rows: [[u8; 8]; 4] = [
            std::array::from_fn(|j| n[8 + j]),
            std::array::from_fn(|j| n[7 - j]),
            std::array::from_fn(|j| so[j]),
            std::array::from_fn(|j| so[15 - j]),
        ];
        for (r, row) in rows.iter().enumerate() {
            if r > 0 {
                s.push('/');
            }
            for (j, c) in row.iter().enumerate() {
                if j > 0 {
                    s.push(',');
                }
                s.push_str(&c.to_string());
            }
        }
        let fl = &self.flags;
        let mut toks: Vec<String> = Vec::new();
        if fl.house[0] {
            toks.push("house:S".into());
        }
        if fl.house[1] {
            toks.push("house:N".into());
        }
        if fl.duty[0] {
            toks.push("duty:S".into());
        }
        if fl.duty[1] {
            toks.push("duty:N".into());
        }
        if let Some(b) = fl.block {
            toks.push(format!("block:{}", b.name(self.side)));
        }
        if let Some(m) = fl.must {
            toks.push(format!("must:{}", m.name(self.side.other())));
        }
        if fl.nointro {
            toks.push("nointro".into());
        }
        let flags = if toks.is_empty() {
            "-".to_string()
        } else {
            toks.join(",")
        };
        write!(
            f,
            "{s} {} {}/{} {flags} {}",
            self.side, self.hands[0], self.hands[1], self.ply
        )
    }
}
