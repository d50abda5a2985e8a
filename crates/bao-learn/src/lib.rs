//! # bao-learn
//!
//! *Jifunze* / *Learn*: the beginner lessons of the three Bao games, as data, with goals that
//! the rules crate checks.
//!
//! A [`Course`] is one game's lessons; a [`Lesson`] is a few [`Step`]s; a step is a position, a
//! sentence of teaching (a message key), a [`Goal`], the solutions, a par in moves and hints.
//! Texts are not here: every title, teaching sentence and hint is a key of the web app's
//! message catalogs (`crates/bao-server/web/i18n/{en,sw}/learn.json`).
//!
//! A goal is decided from what the rules report when the learner's move is executed: its
//! events ([`bao_rules::trace`]), the position after it and its outcome. So a lesson cannot
//! claim something the rules do not do; the tests of this crate replay every solution and
//! check that some legal move of every step misses the goal.
//!
//! ```
//! use bao_learn::{check_step, course, stars};
//! use bao_rules::Variant;
//! let c = course(Variant::Kiswahili);
//! let step = &c.lessons[0].steps[0];
//! let first = step.solutions[0].split_whitespace().next().unwrap();
//! let r = check_step(step, &[first]).unwrap();
//! assert!(r.done);
//! assert_eq!(r.stars, stars(r.moves, step.par));
//! ```
//!
//! Pure: no I/O except the lesson files embedded with `include_str!`.
//!
//! The lesson format, the goal kinds and how to write a step: `docs/learn.md`.
#![warn(missing_docs)]

use bao_rules::{
    find_move, legal_moves, trace, Event, Move, Outcome, Position, PositionError, Rules, Side,
    Square, Variant,
};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One game's lessons, in the order a beginner takes them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Course {
    /// The game.
    pub variant: Variant,
    /// The lessons, easiest first.
    pub lessons: Vec<Lesson>,
}

/// A short lesson: a few steps that teach one thing.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Lesson {
    /// Stable identifier, unique within the course (`board`, `capture`, ...).
    pub id: String,
    /// Message key of the title (`learn.…`).
    pub title_key: String,
    /// The steps, in order.
    pub steps: Vec<Step>,
}

/// One exercise: a position, a sentence, a goal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// The position, in the spec's position notation (NOT-3). The learner is the side to move.
    pub position: String,
    /// Message key of the teaching sentence.
    pub text_key: String,
    /// What the learner has to do.
    pub goal: Goal,
    /// Lines that complete the step: the learner's moves in canonical notation (NOT-1),
    /// separated by spaces, with the scripted replies played between them. A one-move step's
    /// solutions are exactly the moves that reach its goal (the tests check this).
    pub solutions: Vec<String>,
    /// The number of learner moves for three stars.
    pub par: u32,
    /// Message keys of hints, shown one at a time.
    #[serde(default)]
    pub hints: Vec<String>,
    /// Rule IDs of docs/spec that the step teaches (`KIS-5.2`, ...).
    #[serde(default)]
    pub rules: Vec<String>,
    /// The opponent's answers between the learner's moves.
    #[serde(default)]
    pub replies: Replies,
}

/// Who answers the learner's moves within a step.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Replies {
    /// These moves, in order: the i-th answers the learner's i-th move. Empty for a one-move
    /// step. Written as a JSON array of canonical moves.
    Scripted(Vec<String>),
    /// The front-end asks an engine. Written as the JSON string `"engine"`.
    Engine,
}

impl Default for Replies {
    fn default() -> Replies {
        Replies::Scripted(Vec::new())
    }
}

impl Serialize for Replies {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Replies::Scripted(v) => v.serialize(s),
            Replies::Engine => s.serialize_str("engine"),
        }
    }
}

impl<'de> Deserialize<'de> for Replies {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Replies, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            List(Vec<String>),
            Word(String),
        }
        match Raw::deserialize(d)? {
            Raw::List(v) => Ok(Replies::Scripted(v)),
            Raw::Word(w) if w == "engine" => Ok(Replies::Engine),
            Raw::Word(w) => Err(serde::de::Error::custom(format!(
                "replies: expected a list of moves or \"engine\", got {w:?}"
            ))),
        }
    }
}

/// A pit name with its owner's letter case (`A5`, `a4`, `B2`), as in the spec (BRD-2.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct PitName(pub Square);

impl Serialize for PitName {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0.to_string())
    }
}

impl<'de> Deserialize<'de> for PitName {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<PitName, D::Error> {
        let s = String::deserialize(d)?;
        Square::parse(&s).map(PitName).ok_or_else(|| {
            serde::de::Error::custom(format!("{s:?} is not a pit name like A5 or b3"))
        })
    }
}

impl fmt::Display for PitName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// What the learner must do, decided from one of his moves as the rules execute it.
///
/// Pits are named as in the spec: the learner's in his case, the opponent's in the other
/// (`A5` and `a4` when South learns). Goals are checked after each of the learner's moves;
/// the step is done at the first move that reaches the goal.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
pub enum Goal {
    /// The move captures (kiswahili, kete: KIS-6.4; kimasai: a raid, KIM-7.2). With `pit`: some
    /// capture of the move takes that opponent pit. With `min_seeds`: the move takes at least
    /// that many seeds in all.
    Capture {
        /// The opponent pit to take.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pit: Option<PitName>,
        /// The fewest seeds to take in the whole move.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        min_seeds: Option<u8>,
    },
    /// The move captures at least `min` times: captured seeds sown so that they capture again
    /// (KIS-6.3 rule 3, KIS-6.5; kimasai KIM-7.3).
    Captures {
        /// The fewest captures.
        min: u8,
    },
    /// The last seed of the move falls into this pit (BRD-5.2, BRD-5.5).
    LastSeed {
        /// The pit.
        pit: PitName,
    },
    /// The learner owns his house after the move as before it (KIS-7.2, KIS-7.5).
    KeepHouse,
    /// The move continues from the house at a choice point (safari, KIS-7.5).
    Safari,
    /// The move taxes the lone house: two seeds, the house stays (KIS-4.5, KET-3).
    Tax,
    /// The move puts a seed from the hand on the board (KIS-2.1, KIS-6.1, KIM-5.2); with `pit`,
    /// into that pit.
    BringIn {
        /// The pit that gets the hand seed.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pit: Option<PitName>,
    },
    /// The learner's hand (reserve) is empty after the move, and was not before it.
    HandEmpty,
    /// The move sows at least `min_laps` laps: the first lap and the relays (BRD-5.6), entry
    /// laps of captured seeds (BRD-5.3) and the tax lap included.
    Relay {
        /// The fewest laps.
        min_laps: u8,
    },
    /// After the move the opponent's pit is blocked by takasia / hizi zetu (KIS-8.4, KET-5).
    Block {
        /// The opponent pit.
        pit: PitName,
    },
    /// After the move the learner would have a capture move if it were his turn again (the
    /// threat of KIS-8.2); with `pit`, one whose first capture takes that opponent pit.
    Threaten {
        /// The opponent pit threatened.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pit: Option<PitName>,
    },
    /// The move wins the game (BRD-7.3, BRD-7.4).
    Win,
    /// The move does not lose the game at once: the mover does not leave his own front row
    /// empty (BRD-7.2, KIM-8.2) nor end it in any other lost position (BRD-7.3).
    Survive,
    /// Every one of these goals, by the same move.
    All {
        /// The goals.
        goals: Vec<Goal>,
    },
}

/// What one move did, as the rules report it: the input of [`Goal::reached`].
#[derive(Clone, Debug)]
pub struct MoveFacts {
    /// The position the move was played in.
    pub before: Position,
    /// The move.
    pub mv: Move,
    /// Its events (CLI-5.2).
    pub events: Vec<Event>,
    /// The position after it.
    pub after: Position,
    /// Its result (BRD-7.4).
    pub outcome: Outcome,
}

impl MoveFacts {
    /// Plays the legal move `mv` in `pos` and records what happened.
    pub fn play(pos: &Position, rules: &Rules, mv: &Move) -> MoveFacts {
        let (events, after, outcome) = trace(pos, rules, mv);
        MoveFacts {
            before: *pos,
            mv: *mv,
            events,
            after,
            outcome,
        }
    }

    /// The player who made the move.
    pub fn mover(&self) -> Side {
        self.mv.side()
    }

    /// Each capture of the move: the opponent pit taken and its seeds (kimasai: raids).
    pub fn captures(&self) -> impl Iterator<Item = (Square, u8)> + '_ {
        self.events.iter().filter_map(|e| match e {
            Event::Capture(sq, n) => Some((*sq, *n)),
            _ => None,
        })
    }

    /// The pit the move's last seed fell into (BRD-5.2).
    pub fn last_sown(&self) -> Option<Square> {
        self.events.iter().rev().find_map(|e| match e {
            Event::Sow(sq) => Some(*sq),
            _ => None,
        })
    }

    /// The laps the move sowed: the first lap and the relays (BRD-5.6), entry laps of
    /// captured seeds (BRD-5.3) and the tax lap, as [`Goal::Relay`] counts them.
    pub fn laps(&self) -> usize {
        self.events
            .iter()
            .filter(|e| matches!(e, Event::Lift(..) | Event::Tax(_) | Event::Enter(_)))
            .count()
    }
}

impl Goal {
    /// Whether the move described by `f` reaches the goal.
    pub fn reached(&self, f: &MoveFacts, rules: &Rules) -> bool {
        let me = f.mover();
        match self {
            Goal::Capture { pit, min_seeds } => {
                let caps: Vec<(Square, u8)> = f.captures().collect();
                let total: u32 = caps.iter().map(|&(_, n)| u32::from(n)).sum();
                !caps.is_empty()
                    && pit.is_none_or(|p| caps.iter().any(|&(sq, _)| sq == p.0))
                    && min_seeds.is_none_or(|m| total >= u32::from(m))
            }
            Goal::Captures { min } => f.captures().count() >= usize::from(*min),
            Goal::LastSeed { pit } => f.last_sown() == Some(pit.0),
            // KIS-7.2: a house is lost when it is captured or lifted; the flag says which.
            Goal::KeepHouse => f.before.owns_house(me) && f.after.owns_house(me),
            Goal::Safari => f.mv.is_safari(),
            Goal::Tax => f.mv.is_tax(),
            Goal::BringIn { pit } => f.events.iter().any(|e| match e {
                Event::Place(sq) => pit.is_none_or(|p| p.0 == *sq),
                _ => false,
            }),
            Goal::HandEmpty => f.before.hand(me) > 0 && f.after.hand(me) == 0,
            Goal::Relay { min_laps } => f.laps() >= usize::from(*min_laps),
            Goal::Block { pit } => f.after.block() == Some(pit.0),
            Goal::Threaten { pit } => threats(&f.after, rules, me)
                .iter()
                .any(|t| pit.is_none_or(|p| p.0 == *t)),
            Goal::Win => f.outcome.winner() == Some(me),
            Goal::Survive => f.outcome.winner() != Some(me.other()),
            Goal::All { goals } => goals.iter().all(|g| g.reached(f, rules)),
        }
    }

    /// Whether playing the legal move `mv` in `pos` reaches the goal.
    pub fn reached_by(&self, pos: &Position, rules: &Rules, mv: &Move) -> bool {
        self.reached(&MoveFacts::play(pos, rules, mv), rules)
    }

    /// The pits the goal names, for checking that they exist in the game.
    pub fn pits(&self) -> Vec<PitName> {
        match self {
            Goal::Capture { pit, .. } | Goal::BringIn { pit } | Goal::Threaten { pit } => {
                pit.iter().copied().collect()
            }
            Goal::LastSeed { pit } | Goal::Block { pit } => vec![*pit],
            Goal::All { goals } => goals.iter().flat_map(Goal::pits).collect(),
            _ => Vec::new(),
        }
    }
}

/// The opponent pits that `side` would take with the first capture of one of his capture
/// moves if it were his turn in `pos` (the threats of KIS-8.2; kimasai: raids, KIM-7.2).
pub fn threats(pos: &Position, rules: &Rules, side: Side) -> Vec<Square> {
    let mut setup = pos.setup();
    setup.side = side;
    setup.flags.block = None;
    setup.flags.must = None;
    setup.flags.nointro = false;
    let Ok(p) = setup.validate(rules) else {
        return Vec::new();
    };
    let mut out: Vec<Square> = legal_moves(&p, rules)
        .iter()
        .filter_map(|m| {
            let pit = m.first_capture()?;
            Some(pit.name(side.other()))
        })
        .collect();
    out.sort_by_key(|s| s.to_string());
    out.dedup();
    out
}

/// How a step went.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepResult {
    /// The goal was reached.
    pub done: bool,
    /// 1 to 3 when done ([`stars`]), 0 otherwise.
    pub stars: u8,
    /// The learner's moves counted: up to the one that reached the goal, or all of them.
    pub moves: u32,
}

/// Why a step could not be checked.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// The step's position does not parse or is not valid (lesson data error).
    #[error("step position {position:?}: {error}")]
    Position {
        /// The position text.
        position: String,
        /// What is wrong with it.
        error: PositionError,
    },
    /// A ply is not a legal move of its position.
    #[error("ply {ply} ({text:?}): {error}")]
    Move {
        /// Index of the ply, from 0.
        ply: usize,
        /// The text given.
        text: String,
        /// Why the rules refuse it.
        error: bao_rules::MoveError,
    },
    /// An opponent ply is not the scripted reply.
    #[error("ply {ply}: the opponent's reply here is {expected:?}, not {got:?}")]
    OffScript {
        /// Index of the ply, from 0.
        ply: usize,
        /// The scripted reply, if any.
        expected: Option<String>,
        /// The move given.
        got: String,
    },
    /// A ply was given after the game had ended.
    #[error("ply {ply}: the game is already over")]
    GameOver {
        /// Index of the ply, from 0.
        ply: usize,
    },
}

impl Step {
    /// The step's position and the default rules of its game (lessons teach the defaults,
    /// `options.md`).
    pub fn start(&self) -> Result<(Position, Rules), LearnError> {
        let bad = |error| LearnError::Position {
            position: self.position.clone(),
            error,
        };
        let variant = Position::variant_of(&self.position).map_err(bad)?;
        let rules = Rules::new(variant);
        let pos = Position::parse(&self.position, &rules).map_err(bad)?;
        Ok((pos, rules))
    }

    /// The plies of a solution line, both sides: the learner's moves with the scripted
    /// replies between them (as many replies as the line needs).
    pub fn solution_plies(&self, solution: &str) -> Vec<String> {
        let script: &[String] = match &self.replies {
            Replies::Scripted(v) => v,
            Replies::Engine => &[],
        };
        let mut out = Vec::new();
        let mine: Vec<&str> = solution.split_whitespace().collect();
        for (i, m) in mine.iter().enumerate() {
            out.push(m.to_string());
            if i + 1 < mine.len() {
                if let Some(r) = script.get(i) {
                    out.push(r.clone());
                }
            }
        }
        out
    }
}

/// Checks the plies played in a step: the learner's first, then the opponent's, alternating.
///
/// The step is done at the first learner move that reaches its goal; later plies are not
/// looked at. Opponent plies must be the scripted replies when the step has a script (any
/// legal move with [`Replies::Engine`]). Stars count the learner's moves ([`stars`]).
pub fn check_step(step: &Step, plies: &[&str]) -> Result<StepResult, LearnError> {
    let (mut pos, rules) = step.start()?;
    let learner = pos.side();
    let mut moves = 0u32;
    for (i, text) in plies.iter().enumerate() {
        if bao_rules::status(&pos, &rules).is_over() {
            return Err(LearnError::GameOver { ply: i });
        }
        let lm = find_move(&pos, &rules, text).map_err(|error| LearnError::Move {
            ply: i,
            text: text.to_string(),
            error,
        })?;
        if pos.side() == learner {
            moves += 1;
            let f = MoveFacts::play(&pos, &rules, &lm.mv);
            if step.goal.reached(&f, &rules) {
                return Ok(StepResult {
                    done: true,
                    stars: stars(moves, step.par),
                    moves,
                });
            }
        } else if let Replies::Scripted(script) = &step.replies {
            let expected = script.get(i / 2);
            if expected.is_none_or(|e| *e != lm.mv.to_string()) {
                return Err(LearnError::OffScript {
                    ply: i,
                    expected: expected.cloned(),
                    got: lm.mv.to_string(),
                });
            }
        }
        pos = lm.next;
    }
    Ok(StepResult {
        done: false,
        stars: 0,
        moves,
    })
}

/// Stars for a step done in `moves` learner moves with par `par`, as lichess's Learn scores a
/// level (lila `ui/learn/src/score.ts`, `getLevelBonus`): with `late = moves - par`, three
/// stars when `late <= 0`, two when `late <= max(1, par / 8)`, one otherwise. So a step with a
/// par below 16 gives two stars for one move over par and one star beyond that.
///
/// ```
/// use bao_learn::stars;
/// assert_eq!((stars(1, 1), stars(2, 1), stars(3, 1)), (3, 2, 1));
/// assert_eq!((stars(18, 16), stars(19, 16)), (2, 1));
/// ```
pub fn stars(moves: u32, par: u32) -> u8 {
    let late = i64::from(moves) - i64::from(par);
    // lila divides in floating point: late <= max(1, par / 8); in integers that is
    // 8 * late <= max(8, par).
    if late <= 0 {
        3
    } else if 8 * late <= i64::from(par.max(8)) {
        2
    } else {
        1
    }
}

/// The lesson file of a game, as embedded.
pub fn lesson_text(variant: Variant) -> &'static str {
    match variant {
        Variant::Kiswahili => include_str!("../lessons/kiswahili.json"),
        Variant::Kete => include_str!("../lessons/kete.json"),
        Variant::Kimasai => include_str!("../lessons/kimasai.json"),
    }
}

/// Parses a lesson file.
pub fn parse_course(text: &str) -> Result<Course, serde_json::Error> {
    serde_json::from_str(text)
}

/// The course of a game, parsed from the embedded lesson file. The crate's tests check every
/// file, so this does not fail.
pub fn course(variant: Variant) -> Course {
    parse_course(lesson_text(variant))
        .unwrap_or_else(|e| panic!("lessons/{}.json: {e}", variant.id()))
}

/// The legal moves of a step's position that reach its goal at once, in canonical order.
pub fn goal_moves(step: &Step) -> Result<Vec<String>, LearnError> {
    let (pos, rules) = step.start()?;
    Ok(legal_moves(&pos, &rules)
        .iter()
        .filter(|m| step.goal.reached_by(&pos, &rules, &m.mv))
        .map(|m| m.mv.to_string())
        .collect())
}
