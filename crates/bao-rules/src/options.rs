//! Rule options (options.md): every contested point of the sources, with per-variant defaults.

use crate::error::RulesError;
use crate::Variant;
use std::fmt;

macro_rules! option_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $var:ident = $s:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
        pub enum $name { $($(#[$vm])* #[doc = concat!("The value `", $s, "`.")] $var),+ }
        impl $name {
            /// Every value, in the order of the spec's table.
            pub const VALUES: &'static [$name] = &[$($name::$var),+];
            /// The value as written in an option string.
            pub fn as_str(self) -> &'static str { match self { $($name::$var => $s),+ } }
            /// Parses the value as written in an option string.
            pub fn parse(s: &str) -> Option<Self> { match s { $($s => Some($name::$var),)+ _ => None } }
        }
        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { f.write_str(self.as_str()) }
        }
    };
}

option_enum!(
    /// `house_lost_at` (KIS-7.2, KIS-6.9).
    HouseLostAt { EmptiedOrCaptured = "emptied_or_captured", FirstMtajiCapture = "first_mtaji_capture", EndOfNamua = "end_of_namua" }
);
option_enum!(
    /// `lone_house_tax` (KIS-4.5, KET-3).
    LoneHouseTax { Functional = "functional", KeepMin = "keep_min" }
);
option_enum!(
    /// `namua_singletons` (KIS-4.6).
    NamuaSingletons { FunctionalHouse = "functional_house", OwnedHouse = "owned_house" }
);
option_enum!(
    /// `takasia_house_protection` (KIS-7.7, KIS-8.3).
    HouseProtection { Owned = "owned", Functional = "functional" }
);
option_enum!(
    /// `blocker_must_capture` (KIS-8.8, KET-5).
    BlockerMustCapture { Off = "off", FirstCapture = "first_capture", AnyCapture = "any_capture" }
);
option_enum!(
    /// `front_row_empty` (BRD-7.1, BRD-7.2).
    FrontRowEmpty { EndOfMove = "end_of_move", Illegal = "illegal" }
);
option_enum!(
    /// `never_ending` (BRD-6.3).
    NeverEnding { Illegal = "illegal", Draw = "draw", MoverLoses = "mover_loses" }
);
option_enum!(
    /// `repetition` (BRD-7.5).
    Repetition { ThreefoldDraw = "threefold_draw", None = "none" }
);
option_enum!(
    /// `match` (BRD-8).
    MatchFormat { BestOfThree = "best_of_three", SingleGame = "single_game" }
);
option_enum!(
    /// `intro_pits` (KIM-5.2).
    IntroPits { Any = "any", FrontOnly = "front_only" }
);
option_enum!(
    /// `no_intro` (KIM-5.1).
    NoIntro { GameFirstMove = "game_first_move", EachFirstMove = "each_first_move", Never = "never" }
);

/// The rule options in force for one game: the variant and every option of OPT-2.
///
/// Options that do not apply to the variant keep their kiswahili-family default and are
/// ignored by the rules of that variant.
///
/// ```
/// use bao_rules::{Rules, Variant, BlockerMustCapture};
/// let kete = Rules::new(Variant::Kete);
/// assert_eq!(kete.blocker_must_capture, BlockerMustCapture::FirstCapture);
/// let r = Rules::parse(Variant::Kiswahili, "takasia=false,max_plies=200").unwrap();
/// assert!(!r.takasia);
/// assert_eq!(r.to_string(), "takasia=false,max_plies=200");
/// assert!(Rules::parse(Variant::Kimasai, "takasia=false").is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    /// The game.
    pub variant: Variant,
    /// `house_lost_at`.
    pub house_lost_at: HouseLostAt,
    /// `house_functional_min`, 2–64.
    pub house_functional_min: u8,
    /// `lone_house_tax`.
    pub lone_house_tax: LoneHouseTax,
    /// `namua_singletons`.
    pub namua_singletons: NamuaSingletons,
    /// `mtaji_house_stop`.
    pub mtaji_house_stop: bool,
    /// `takasia`.
    pub takasia: bool,
    /// `takasia_excludes_singletons`.
    pub takasia_excludes_singletons: bool,
    /// `takasia_house_protection`.
    pub takasia_house_protection: HouseProtection,
    /// `takasia_house_first_lap_exception`.
    pub takasia_house_first_lap_exception: bool,
    /// `blocker_must_capture`.
    pub blocker_must_capture: BlockerMustCapture,
    /// `first_takasa_from_kuu` (kete only).
    pub first_takasa_from_kuu: bool,
    /// `front_row_empty`.
    pub front_row_empty: FrontRowEmpty,
    /// `never_ending`.
    pub never_ending: NeverEnding,
    /// `repetition`.
    pub repetition: Repetition,
    /// `max_plies`: `None` is the value `none`.
    pub max_plies: Option<u32>,
    /// `match`.
    pub match_format: MatchFormat,
    /// `intro_pits` (kimasai only).
    pub intro_pits: IntroPits,
    /// `no_intro` (kimasai only).
    pub no_intro: NoIntro,
    /// `capture_compulsory` (kimasai only).
    pub capture_compulsory: bool,
}

/// Which variants an option applies to: kiswahili, kete, kimasai (the "–" of OPT-2).
const BAO: [bool; 3] = [true, true, false];
const KETE: [bool; 3] = [false, true, false];
const ALL: [bool; 3] = [true, true, true];
const MASAI: [bool; 3] = [false, false, true];

/// Every option name in the order of the table in OPT-2, with the variants it applies to.
pub const OPTION_NAMES: [(&str, [bool; 3]); 19] = [
    ("house_lost_at", BAO),
    ("house_functional_min", BAO),
    ("lone_house_tax", BAO),
    ("namua_singletons", BAO),
    ("mtaji_house_stop", BAO),
    ("takasia", BAO),
    ("takasia_excludes_singletons", BAO),
    ("takasia_house_protection", BAO),
    ("takasia_house_first_lap_exception", BAO),
    ("blocker_must_capture", BAO),
    ("first_takasa_from_kuu", KETE),
    ("front_row_empty", ALL),
    ("never_ending", ALL),
    ("repetition", ALL),
    ("max_plies", ALL),
    ("match", ALL),
    ("intro_pits", MASAI),
    ("no_intro", MASAI),
    ("capture_compulsory", MASAI),
];

fn parse_bool(s: &str) -> Option<bool> {
    match s {
        "true" => Some(true),
        "false" => Some(false),
        _ => None,
    }
}

impl Rules {
    /// The default options of a variant (OPT-2, KET-6).
    pub fn new(variant: Variant) -> Rules {
        let kete = variant == Variant::Kete;
        Rules {
            variant,
            house_lost_at: HouseLostAt::EmptiedOrCaptured,
            house_functional_min: 6,
            lone_house_tax: if kete {
                LoneHouseTax::KeepMin
            } else {
                LoneHouseTax::Functional
            },
            namua_singletons: NamuaSingletons::FunctionalHouse,
            mtaji_house_stop: false,
            takasia: true,
            takasia_excludes_singletons: false,
            takasia_house_protection: HouseProtection::Owned,
            takasia_house_first_lap_exception: true,
            blocker_must_capture: if kete {
                BlockerMustCapture::FirstCapture
            } else {
                BlockerMustCapture::Off
            },
            first_takasa_from_kuu: kete,
            front_row_empty: FrontRowEmpty::EndOfMove,
            never_ending: NeverEnding::Illegal,
            repetition: Repetition::ThreefoldDraw,
            max_plies: None,
            match_format: MatchFormat::BestOfThree,
            intro_pits: IntroPits::Any,
            no_intro: NoIntro::GameFirstMove,
            capture_compulsory: false,
        }
    }

    /// Parses an option string (OPT-1) for `variant`. An empty string or `-` means all defaults.
    pub fn parse(variant: Variant, text: &str) -> Result<Rules, RulesError> {
        let mut rules = Rules::new(variant);
        if text.is_empty() || text == "-" {
            return Ok(rules);
        }
        let mut seen = [false; OPTION_NAMES.len()];
        for item in text.split(',') {
            let (name, value) = item
                .split_once('=')
                .ok_or_else(|| RulesError::Syntax(item.to_string()))?;
            rules.set(name, value, &mut seen)?;
        }
        Ok(rules)
    }

    /// Sets one option by name, checking it as OPT-1.1 says.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), RulesError> {
        let mut seen = [false; OPTION_NAMES.len()];
        self.set(name, value, &mut seen)
    }

    fn set(&mut self, name: &str, value: &str, seen: &mut [bool]) -> Result<(), RulesError> {
        let Some(slot) = OPTION_NAMES.iter().position(|(n, _)| *n == name) else {
            return Err(RulesError::UnknownName(name.to_string()));
        };
        if !OPTION_NAMES[slot].1[self.variant.index()] {
            return Err(RulesError::NotForVariant {
                name: name.to_string(),
                variant: self.variant,
            });
        }
        if std::mem::replace(&mut seen[slot], true) {
            return Err(RulesError::Duplicate(name.to_string()));
        }
        let bad = || RulesError::BadValue {
            name: name.to_string(),
            value: value.to_string(),
        };
        macro_rules! set {
            ($field:ident, $parse:expr) => {
                self.$field = $parse(value).ok_or_else(bad)?
            };
        }
        match name {
            "house_lost_at" => set!(house_lost_at, HouseLostAt::parse),
            "house_functional_min" => {
                let n = parse_decimal(value).ok_or_else(bad)?;
                if !(2..=64).contains(&n) {
                    return Err(bad());
                }
                self.house_functional_min = n as u8;
            }
            "lone_house_tax" => set!(lone_house_tax, LoneHouseTax::parse),
            "namua_singletons" => set!(namua_singletons, NamuaSingletons::parse),
            "mtaji_house_stop" => set!(mtaji_house_stop, parse_bool),
            "takasia" => set!(takasia, parse_bool),
            "takasia_excludes_singletons" => set!(takasia_excludes_singletons, parse_bool),
            "takasia_house_protection" => set!(takasia_house_protection, HouseProtection::parse),
            "takasia_house_first_lap_exception" => {
                set!(takasia_house_first_lap_exception, parse_bool)
            }
            "blocker_must_capture" => set!(blocker_must_capture, BlockerMustCapture::parse),
            "first_takasa_from_kuu" => set!(first_takasa_from_kuu, parse_bool),
            "front_row_empty" => set!(front_row_empty, FrontRowEmpty::parse),
            "never_ending" => set!(never_ending, NeverEnding::parse),
            "repetition" => set!(repetition, Repetition::parse),
            "max_plies" => {
                self.max_plies = if value == "none" {
                    None
                } else {
                    let n = parse_decimal(value).ok_or_else(bad)?;
                    if n == 0 || n > u32::MAX as u64 {
                        return Err(bad());
                    }
                    Some(n as u32)
                }
            }
            "match" => set!(match_format, MatchFormat::parse),
            "intro_pits" => set!(intro_pits, IntroPits::parse),
            "no_intro" => set!(no_intro, NoIntro::parse),
            "capture_compulsory" => set!(capture_compulsory, parse_bool),
            _ => unreachable!("every name of OPTION_NAMES is handled"),
        }
        Ok(())
    }

    /// The value of an option as written in an option string, or `None` for an unknown name.
    pub fn get(&self, name: &str) -> Option<String> {
        Some(match name {
            "house_lost_at" => self.house_lost_at.to_string(),
            "house_functional_min" => self.house_functional_min.to_string(),
            "lone_house_tax" => self.lone_house_tax.to_string(),
            "namua_singletons" => self.namua_singletons.to_string(),
            "mtaji_house_stop" => self.mtaji_house_stop.to_string(),
            "takasia" => self.takasia.to_string(),
            "takasia_excludes_singletons" => self.takasia_excludes_singletons.to_string(),
            "takasia_house_protection" => self.takasia_house_protection.to_string(),
            "takasia_house_first_lap_exception" => {
                self.takasia_house_first_lap_exception.to_string()
            }
            "blocker_must_capture" => self.blocker_must_capture.to_string(),
            "first_takasa_from_kuu" => self.first_takasa_from_kuu.to_string(),
            "front_row_empty" => self.front_row_empty.to_string(),
            "never_ending" => self.never_ending.to_string(),
            "repetition" => self.repetition.to_string(),
            "max_plies" => match self.max_plies {
                None => "none".to_string(),
                Some(n) => n.to_string(),
            },
            "match" => self.match_format.to_string(),
            "intro_pits" => self.intro_pits.to_string(),
            "no_intro" => self.no_intro.to_string(),
            "capture_compulsory" => self.capture_compulsory.to_string(),
            _ => return None,
        })
    }

    /// The names of the options that apply to this variant, in table order.
    pub fn option_names(variant: Variant) -> impl Iterator<Item = &'static str> {
        OPTION_NAMES
            .iter()
            .filter(move |(_, v)| v[variant.index()])
            .map(|(n, _)| *n)
    }

    /// The options that differ from the variant's defaults, as `(name, value)` pairs in table order.
    pub fn changed(&self) -> Vec<(&'static str, String)> {
        let def = Rules::new(self.variant);
        Rules::option_names(self.variant)
            .filter_map(|n| {
                let v = self.get(n)?;
                (def.get(n)? != v).then_some((n, v))
            })
            .collect()
    }

    /// The bound on the seeds of a functional house (`house_functional_min`).
    #[inline]
    pub(crate) fn min(&self) -> u8 {
        self.house_functional_min
    }
}

/// Parses a decimal digit string without sign, saturating far above any valid value.
fn parse_decimal(s: &str) -> Option<u64> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some(s.bytes().fold(0u64, |acc, b| {
        acc.saturating_mul(10).saturating_add((b - b'0') as u64)
    }))
}

/// The canonical option string: the options that differ from the defaults, or `-`.
impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let changed = self.changed();
        if changed.is_empty() {
            return f.write_str("-");
        }
        for (i, (n, v)) in changed.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{n}={v}")?;
        }
        Ok(())
    }
}

/// The values an option takes, as listed in OPT-2, for help texts.
pub fn option_values(name: &str) -> String {
    fn join<T: fmt::Display>(v: &[T]) -> String {
        v.iter()
            .map(|x| x.to_string())
            .collect::<Vec<_>>()
            .join(", ")
    }
    match name {
        "house_lost_at" => join(HouseLostAt::VALUES),
        "house_functional_min" => "2..64".into(),
        "lone_house_tax" => join(LoneHouseTax::VALUES),
        "namua_singletons" => join(NamuaSingletons::VALUES),
        "takasia_house_protection" => join(HouseProtection::VALUES),
        "blocker_must_capture" => join(BlockerMustCapture::VALUES),
        "front_row_empty" => join(FrontRowEmpty::VALUES),
        "never_ending" => join(NeverEnding::VALUES),
        "repetition" => join(Repetition::VALUES),
        "max_plies" => "none, 1..".into(),
        "match" => join(MatchFormat::VALUES),
        "intro_pits" => join(IntroPits::VALUES),
        "no_intro" => join(NoIntro::VALUES),
        _ => "true, false".into(),
    }
}
