//! # bao-wasm
//!
//! The rules (bao-rules), the computer player (bao-engine) and the board drawing
//! (bao-render) for the browser, so that a game against the computer can be played with no
//! network (docs/api.md, "Offline"): the same rules and the same levels as the server.
//!
//! Built for `wasm32-unknown-unknown` by bao-server's build script and served as
//! `/static/bao.wasm`; `static/engine-worker.js` loads it in a Web Worker. The interface needs
//! no wasm-bindgen: JSON strings through linear memory.
//!
//! * `bao_alloc(len) -> ptr` reserves `len` bytes for a request; the host writes UTF-8 JSON there.
//! * `bao_call(ptr, len) -> out` handles the request (and frees it). `out` points to a
//!   little-endian `u32` length `n` followed by `n` bytes of UTF-8 JSON: `{"ok": ...}` or
//!   `{"error": "what is wrong"}`.
//! * `bao_free(out, n + 4)` gives the answer back.
//! * The module imports `env.bao_now_ms() -> f64` (milliseconds, for the search's clock; see
//!   `bao_engine::time`).
//!
//! The requests ([`Request`]) are the worker's messages: `legal`, `apply`, `choose`, `game`,
//! `record`, `parse_record`, `svg`, `learn` (a move of a Jifunze lesson step checked by
//! bao-learn's goals, docs/learn.md), and for the analysis board `validate` (a position
//! checked by the rules, with a typed problem the page words from its catalogs) and `search`
//! (the engine's evaluation and best line to a depth). [`handle`] is the same function
//! natively, for tests.

use bao_learn::{check_step, stars, Goal, LearnError, MoveFacts, Replies, Step};
use bao_rules::{
    find_move, legal_moves, trace, Game, LegalMove, Outcome, Pit, Position, Record, RecordResult,
    Rules, Side, Termination, Variant,
};
use serde::{Deserialize, Serialize};

/// The most moves a `game` or `record` request may hold: far beyond any real game (the
/// server's default ply limit is lower), and it keeps a bad request from taking minutes.
pub const MAX_MOVES: usize = 5_000;

/// The most plies a `learn` request holds: the bound of the server's
/// `POST /api/learn/{variant}/check` (docs/api.md "Learn"), so that a step played in the
/// browser can always be checked by the server as well.
pub const MAX_LEARN_PLIES: usize = 40;

/// The longest text of one ply in a `learn` request: a canonical move is at most a dozen
/// characters (NOT-1); the server's check has the same bound.
pub const MAX_PLY_CHARS: usize = 32;

/// The rules a request is played under: a variant id and an option string (OPT-1).
#[derive(Clone, Debug, Deserialize)]
pub struct RulesSpec {
    /// `kiswahili`, `kete` or `kimasai`.
    pub variant: String,
    /// Rule options `name=value,...`; `-`, empty or absent for the defaults.
    #[serde(default)]
    pub rules: Option<String>,
}

/// One request of the worker (field `op` names it).
#[derive(Clone, Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub enum Request {
    /// The legal moves of a position, with the position each one leads to (CLI-2).
    Legal {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// A position (NOT-3) or a variant id for its start position.
        position: String,
    },
    /// One move played in a position: its events (CLI-5) and the position after it.
    Apply {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// The position before the move.
        position: String,
        /// The move (canonical or an alias, NOT-2).
        #[serde(rename = "move")]
        mv: String,
    },
    /// The move the computer plays at `level` (the server's
    /// `bao_engine::choose_move_in_game`).
    Choose {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// The position to move in.
        position: String,
        /// 1..=8 (clamped).
        level: u8,
        /// Makes the choice reproducible.
        #[serde(default)]
        seed: u64,
        /// The game's start position, when `moves` is given and it is not the variant's.
        #[serde(default)]
        start: Option<String>,
        /// The moves of the game that led to `position`: with them the computer sees
        /// the positions that would repeat (BRD-7.5).
        #[serde(default)]
        moves: Option<Vec<String>>,
    },
    /// A whole game replayed from its moves: everything the game page shows.
    Game {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// The start position; the variant's start when absent.
        #[serde(default)]
        start: Option<String>,
        /// The moves played, in order.
        moves: Vec<String>,
    },
    /// The record (NOT-6) of a game.
    Record {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// The start position; the variant's start when absent.
        #[serde(default)]
        start: Option<String>,
        /// The moves played, in order.
        moves: Vec<String>,
        /// South's name.
        #[serde(default)]
        south: String,
        /// North's name.
        #[serde(default)]
        north: String,
        /// When the game was played, milliseconds since the Unix epoch (the Date tag).
        #[serde(default)]
        date_ms: Option<i64>,
        /// A result the rules did not reach (`S`, `N`, `draw`), with its termination
        /// (`resignation`, ...). Absent: the result the moves reach.
        #[serde(default)]
        result: Option<String>,
        /// The termination of a forced result (NOT-6.2).
        #[serde(default)]
        termination: Option<String>,
    },
    /// A record file (NOT-6) with one game, checked by replaying it (NOT-6.4): what a game
    /// kept in the browser needs (the replay page's upload with no network).
    ParseRecord {
        /// The text of the record.
        text: String,
    },
    /// A position checked by the rules (NOT-4): the canonical text, or the typed problem
    /// ([`Checked`]). A bad variant or option string is still an error.
    Validate {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// A position (NOT-3) or a variant id for its start position.
        position: String,
    },
    /// The engine's evaluation of a position: iterative deepening up to `depth` plies
    /// (clamped to 1..=[`MAX_SEARCH_DEPTH`]) or `time_ms` (clamped to
    /// [`MAX_SEARCH_MS`]), whichever comes first.
    Search {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// The position to search.
        position: String,
        /// The deepest iteration.
        depth: u32,
        /// The most time, in milliseconds.
        #[serde(default)]
        time_ms: Option<u64>,
    },
    /// The learner's latest move in a lesson step (docs/learn.md): whether it completes the
    /// step (`bao_learn::check_step`), what it did, and the opponent's answer when the step
    /// goes on. See [`LearnAnswer`].
    Learn {
        /// The step, as `GET /api/learn/{variant}` gives it.
        step: LearnStep,
        /// The plies played from the step's position in this try: the learner's first, the
        /// answers between, the learner's latest move last.
        moves: Vec<String>,
        /// The learner's moves in earlier tries of the step that failed: stars count every
        /// move tried in the step, as `bao learn` counts them.
        #[serde(default)]
        earlier: u32,
    },
    /// The board picture (bao-render), as `/api/render/svg` draws it.
    Svg {
        /// The rules.
        #[serde(flatten)]
        rules: RulesSpec,
        /// The position.
        position: String,
        /// The move that led here, marked.
        #[serde(default)]
        last: Option<String>,
    },
}

/// A legal move as the game page's chooser needs it (the server's `LegalView`), with the
/// position it leads to and the result it reaches without repetition (CLI-2).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LegalView {
    /// Canonical move (NOT-1).
    #[serde(rename = "move")]
    pub mv: String,
    /// Start pit in the mover's case.
    pub pit: String,
    /// `L`, `R`, or `None` (kimasai).
    pub letter: Option<String>,
    /// Plays the house (NOT-1.3).
    pub safari: bool,
    /// A takasa move.
    pub takasa: bool,
    /// The position after the move (NOT-3).
    pub next: String,
    /// `-`, `S`, `N` or `draw`, as CLI-2 prints it.
    pub outcome: String,
}

/// One move played (the server's `MoveEvent`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveEvent {
    /// Ply of the position after the move.
    pub ply: u32,
    /// Canonical move (NOT-1).
    #[serde(rename = "move")]
    pub mv: String,
    /// `S` or `N`.
    pub by: &'static str,
    /// The CLI-5 event lines.
    pub events: Vec<String>,
    /// The position after the move (NOT-3).
    pub position: String,
    /// The result after the move: with repetition in a game, without it for `apply`.
    pub result: &'static str,
}

/// A game as the page shows it (the rules' part of the server's GameState).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameView {
    /// Variant id.
    pub variant: &'static str,
    /// Option string (OPT-1), `-` for the defaults.
    pub rules: String,
    /// Start position.
    pub start: String,
    /// Current position.
    pub position: String,
    /// Its ply.
    pub ply: u32,
    /// `S` or `N`.
    pub side_to_move: &'static str,
    /// `-`, `S`, `N`, `draw` (with repetition, BRD-7.5).
    pub result: &'static str,
    /// How the game ended, in English (the page may say it in its own words from `end`).
    pub result_text: Option<String>,
    /// The CLI-5 end event (`win S front_row`, ...), when the game is over.
    pub end: Option<String>,
    /// `namua`, `mtaji`, `nemo`, `phase1`, `phase2`.
    pub stage: &'static str,
    /// The blocked pit (takasia), if any.
    pub block: Option<String>,
    /// The pit the first capture must take, if any.
    pub must: Option<String>,
    /// Every move so far.
    pub moves: Vec<MoveEvent>,
    /// The legal moves of the side to move (empty when the game is over).
    pub legal: Vec<LegalView>,
}

/// The answer to `parse_record`: the game of a checked record.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ParsedRecord {
    /// Variant id.
    pub variant: &'static str,
    /// Option string (OPT-1).
    pub rules: String,
    /// The Start tag's position, if the record has one.
    pub start: Option<String>,
    /// The moves, canonical.
    pub moves: Vec<String>,
    /// South tag.
    pub south: String,
    /// North tag.
    pub north: String,
    /// Date tag.
    pub date: String,
    /// `-`, `S`, `N` or `draw`.
    pub result: &'static str,
    /// Termination tag, if any.
    pub termination: Option<&'static str>,
}

/// The answer to `choose`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Chosen {
    /// The canonical move; `None` when the game is over.
    #[serde(rename = "move")]
    pub mv: Option<String>,
}

/// The deepest search a `search` request may ask for.
pub const MAX_SEARCH_DEPTH: u32 = 40;
/// The longest search a `search` request may ask for, in milliseconds.
pub const MAX_SEARCH_MS: u64 = 60_000;

/// The answer to `validate`: a valid position, or what is wrong with it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Checked {
    /// The rules accept the position.
    pub valid: bool,
    /// The canonical text (NOT-3.6) of a valid position.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<String>,
    /// The stage of a valid position (as `game` names it).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stage: Option<&'static str>,
    /// The result a valid position already has (`-`, `S`, `N`, `draw`, CLI-2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<&'static str>,
    /// What is wrong with an invalid one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub problem: Option<Problem>,
}

/// What is wrong with a position, typed so that a page can say it in its own language: a
/// `code` (a catalog key's last part), the details the sentence needs, and the rules'
/// English sentence.
#[derive(Clone, Debug, Serialize, PartialEq, Eq, Default)]
pub struct Problem {
    /// NOT-4.1's kind: `syntax`, `variant`, `board`, `side`, `hands`, `ply`, `total`, `flags`.
    pub kind: &'static str,
    /// The precise check that failed: the kind, or for `board` `front_rows_empty`, for
    /// `flags` one of `house_empty`, `duty_rule`, `duty_needs_house`, `block_rule`,
    /// `block_hands`, `block_pit`, `block_empty`, `block_house`, `block_capture`,
    /// `must_rule`, `must_hands`, `must_pit`, `nointro_rule`, `nointro_reserve`,
    /// `flag_variant` (a flag of another game), `flag_unknown`, `flag_twice` (NOT-4.2).
    pub code: &'static str,
    /// The seeds counted, for `total`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub total: Option<u64>,
    /// The side a flag is about (`S`, `N`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub side: Option<&'static str>,
    /// The pit a flag names.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pit: Option<String>,
    /// The flag token at fault.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub flag: Option<String>,
    /// The rules crate's sentence (English).
    pub detail: String,
}

/// Every `code` a [`Problem`] can have: a page needs words for each (the analysis page's
/// catalog has `analysis.err_CODE`).
pub const PROBLEM_CODES: &[&str] = &[
    "syntax",
    "variant",
    "board",
    "side",
    "hands",
    "ply",
    "total",
    "flags",
    "front_rows_empty",
    "house_empty",
    "duty_rule",
    "duty_needs_house",
    "block_rule",
    "block_hands",
    "block_pit",
    "block_empty",
    "block_house",
    "block_capture",
    "must_rule",
    "must_hands",
    "must_pit",
    "nointro_rule",
    "nointro_reserve",
    "flag_variant",
    "flag_unknown",
    "flag_twice",
];

/// The answer to `search`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Searched {
    /// The best move (canonical); `None` when the game is over.
    pub best: Option<String>,
    /// `cp` (centi-seeds for the side to move), `win` or `loss` (in plies).
    pub score_kind: &'static str,
    /// The number that goes with `score_kind`.
    pub score: i64,
    /// The principal variation, starting with `best`.
    pub line: Vec<String>,
    /// The depth completed.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds used.
    pub time_ms: u64,
}

/// A lesson step as the page has it from `GET /api/learn/{variant}` (docs/api.md "Learn"):
/// what checking it needs. The other fields of the API's step (its texts, hints and
/// solutions) are accepted and ignored, so the page can pass the step as it got it.
#[derive(Clone, Debug, Deserialize)]
pub struct LearnStep {
    /// The position (NOT-3); the learner is the side to move.
    pub position: String,
    /// The goal (docs/learn.md "Goals").
    pub goal: Goal,
    /// Learner moves for three stars.
    pub par: u32,
    /// The opponent's answers, or `"engine"`.
    #[serde(default)]
    pub replies: Replies,
}

impl LearnStep {
    /// The step as bao-learn checks it (texts play no part in a check).
    fn step(&self) -> Step {
        Step {
            position: self.position.clone(),
            text_key: String::new(),
            goal: self.goal.clone(),
            solutions: Vec::new(),
            par: self.par,
            hints: Vec::new(),
            rules: Vec::new(),
            replies: self.replies.clone(),
        }
    }
}

/// What the learner's move did, from the rules' events: the words the page uses to say why
/// a move missed its goal ("your last seed fell into A4").
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LearnFacts {
    /// The pit the last seed fell into (BRD-5.2).
    pub last: Option<String>,
    /// How many captures (kimasai: raids) the move made.
    pub captures: usize,
    /// How many seeds they took in all.
    pub seeds: u32,
    /// Laps sown, as the `relay` goal counts them (BRD-5.6).
    pub laps: usize,
}

/// Why a step cannot go on after the learner's move: the page offers to try again.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum LearnFailure {
    /// The script has no answer to this move: the step had to be done by now.
    NoReply,
    /// The scripted answer cannot be played after this move (the learner left the lesson's
    /// line; docs/learn.md: off the script, the step starts again).
    OffScript,
    /// The game ended (the learner's move, or the answer to it).
    GameOver,
    /// The try has used every ply a check takes ([`MAX_LEARN_PLIES`]).
    TooLong,
}

/// The answer to `learn`.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LearnAnswer {
    /// The learner's move reached the goal: the step is done.
    pub done: bool,
    /// 1 to 3 when done (`bao_learn::stars` of every move tried in the step), else 0.
    pub stars: u8,
    /// The learner's moves in this try.
    pub moves: u32,
    /// The learner's moves counted for the stars: earlier tries and this one.
    pub counted: u32,
    /// The learner's move: its events and the position after it.
    pub played: MoveEvent,
    /// What it did.
    pub facts: LearnFacts,
    /// The opponent's answer, when the step goes on (or when it ended the game).
    pub reply: Option<MoveEvent>,
    /// The learner's legal moves after the answer; empty when the step is done or failed.
    pub legal: Vec<LegalView>,
    /// Why the step cannot go on; `None` when it is done or goes on.
    pub failed: Option<LearnFailure>,
}

/// Why a request was refused, in words for the person who will read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WasmError {
    /// The request is not JSON of a known shape.
    BadRequest(String),
    /// No such variant.
    UnknownVariant(String),
    /// The option string is wrong.
    BadRules(String),
    /// The position text is wrong.
    BadPosition(String),
    /// A move is not legal (1-based number in the game when it has one).
    BadMove(Option<usize>, String),
    /// Too many moves.
    TooLong(usize),
    /// A forced result or termination that NOT-6.2 does not know.
    BadResult(String),
    /// A record file that is not one valid game (line number, reason).
    BadRecord(usize, String),
}

impl std::fmt::Display for WasmError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            WasmError::BadRequest(e) => write!(f, "the engine did not understand the request: {e}"),
            WasmError::UnknownVariant(v) => write!(
                f,
                "there is no variant '{v}' (kiswahili, kete and kimasai are played)"
            ),
            WasmError::BadRules(e) => write!(f, "the rule options are wrong: {e}"),
            WasmError::BadPosition(e) => write!(f, "the position is wrong: {e}"),
            WasmError::BadMove(Some(n), e) => write!(f, "move {n} cannot be played: {e}"),
            WasmError::BadMove(None, e) => write!(f, "the move cannot be played: {e}"),
            WasmError::TooLong(n) => write!(
                f,
                "a game of {n} moves is longer than the {MAX_MOVES} moves the engine reads"
            ),
            WasmError::BadResult(r) => write!(f, "'{r}' is not a result or termination of a game"),
            WasmError::BadRecord(0, e) => f.write_str(e),
            WasmError::BadRecord(n, e) => write!(f, "line {n}: {e}"),
        }
    }
}

impl std::error::Error for WasmError {}

fn rules_of(spec: &RulesSpec) -> Result<Rules, WasmError> {
    let variant = Variant::from_id(&spec.variant)
        .ok_or_else(|| WasmError::UnknownVariant(bao_rules::printable(&spec.variant)))?;
    Rules::parse(variant, spec.rules.as_deref().unwrap_or("-"))
        .map_err(|e| WasmError::BadRules(e.to_string()))
}

/// A position text, or a variant id for its start position; it must be of the rules' variant.
fn position_of(text: &str, rules: &Rules) -> Result<Position, WasmError> {
    if text.trim() == rules.variant.id() {
        return Ok(Position::start(rules));
    }
    Position::parse(text, rules).map_err(|e| WasmError::BadPosition(e.to_string()))
}

fn side_json(s: Side) -> &'static str {
    match s {
        Side::South => "S",
        Side::North => "N",
    }
}

/// The stage names of the server's GameState (KIS-2, KET names, KIM-4).
fn stage(pos: &Position) -> &'static str {
    match pos.variant() {
        Variant::Kiswahili if pos.is_namua() => "namua",
        Variant::Kete if pos.is_namua() => "nemo",
        Variant::Kiswahili | Variant::Kete => "mtaji",
        Variant::Kimasai => {
            if pos.hand(Side::South) == 0 && pos.hand(Side::North) == 0 {
                "phase2"
            } else {
                "phase1"
            }
        }
    }
}

fn legal_view(m: &LegalMove, rules: &Rules) -> LegalView {
    LegalView {
        mv: m.mv.to_string(),
        pit: m.mv.pit().name(m.mv.side()).to_string(),
        letter: m.mv.letter().map(|l| l.as_char().to_string()),
        safari: m.mv.is_safari(),
        takasa: m.mv.is_takasa(),
        next: m.next.to_string(),
        outcome: m.outcome(rules).token().to_string(),
    }
}

fn move_event(before: &Position, rules: &Rules, m: &LegalMove, result: Outcome) -> MoveEvent {
    let (events, next, _) = trace(before, rules, &m.mv);
    MoveEvent {
        ply: next.ply(),
        mv: m.mv.to_string(),
        by: side_json(m.mv.side()),
        events: events.iter().map(|e| e.to_string()).collect(),
        position: next.to_string(),
        result: result.token(),
    }
}

/// Replays `moves` from `start` (NOT-6.4): the game, and each move's event when `events`.
fn replay(
    rules: Rules,
    start: Option<&str>,
    moves: &[String],
    events: bool,
) -> Result<(Game, Vec<MoveEvent>), WasmError> {
    if moves.len() > MAX_MOVES {
        return Err(WasmError::TooLong(moves.len()));
    }
    let start = match start {
        Some(s) => position_of(s, &rules)?,
        None => Position::start(&rules),
    };
    let mut game = Game::new(start, rules);
    let mut out = Vec::with_capacity(if events { moves.len() } else { 0 });
    for (i, text) in moves.iter().enumerate() {
        let before = *game.position();
        let m = game
            .play_text(text)
            .map_err(|e| WasmError::BadMove(Some(i + 1), e.to_string()))?;
        if events {
            out.push(move_event(&before, &rules, &m, game.outcome()));
        }
    }
    Ok((game, out))
}

fn game_view(game: &Game, moves: Vec<MoveEvent>) -> GameView {
    let rules = game.rules();
    let pos = game.position();
    let outcome = game.outcome();
    GameView {
        variant: rules.variant.id(),
        rules: rules.to_string(),
        start: game.start().to_string(),
        position: pos.to_string(),
        ply: pos.ply(),
        side_to_move: side_json(pos.side()),
        result: outcome.token(),
        result_text: outcome.is_over().then(|| outcome.describe()),
        end: outcome.event().map(|e| e.to_string()),
        stage: stage(pos),
        block: pos.block().map(|s| s.to_string()),
        must: pos.must().map(|s| s.to_string()),
        moves,
        legal: game
            .legal_moves()
            .iter()
            .map(|m| legal_view(m, rules))
            .collect(),
    }
}

fn record_text(
    game: &Game,
    south: &str,
    north: &str,
    date_ms: Option<i64>,
    result: Option<&str>,
    termination: Option<&str>,
) -> Result<String, WasmError> {
    let mut rec = Record::from_game(game);
    let name = |n: &str| {
        let n = n.trim();
        if n.is_empty() {
            "?".to_string()
        } else {
            n.to_string()
        }
    };
    rec.south = name(south);
    rec.north = name(north);
    if let Some(ms) = date_ms {
        rec.date = bao_engine::record::record_date(ms);
    }
    // A forced end (resignation...) only when the rules have not ended the game (NOT-6.2).
    if let (Some(r), false) = (result, game.outcome().is_over()) {
        rec.result =
            RecordResult::from_token(r).ok_or_else(|| WasmError::BadResult(r.to_string()))?;
        let t = termination.unwrap_or("resignation");
        rec.termination =
            Some(Termination::parse(t).ok_or_else(|| WasmError::BadResult(t.to_string()))?);
    }
    Ok(rec.to_string())
}

/// The typed problem of a position the rules refused (NOT-4). The rules crate decides
/// validity; this only finds which of its checks failed, to word it. A flag problem is the
/// first token, in the order NOT-4.2 checks them, whose condition fails.
fn problem(text: &str, rules: &Rules, e: &bao_rules::PositionError) -> Problem {
    use bao_rules::PositionErrorKind as K;
    let mut p = Problem {
        kind: e.kind.as_str(),
        code: e.kind.as_str(),
        detail: e.to_string(),
        ..Default::default()
    };
    let fields: Vec<&str> = text.split([' ', '\t']).filter(|s| !s.is_empty()).collect();
    match e.kind {
        K::Total => {
            // The board and hands parsed: count them again, saturating (NOT-4.1 step 7).
            let mut total = 0u64;
            if let (Some(board), Some(hands)) = (fields.get(1), fields.get(3)) {
                for c in board.split(['/', ',']).chain(hands.split('/')) {
                    let n = c.parse::<u64>().unwrap_or(u64::MAX);
                    total = total.saturating_add(n);
                }
            }
            p.total = Some(total);
        }
        K::Board if e.detail.contains("front rows are empty") => p.code = "front_rows_empty",
        K::Flags if fields.len() == 6 => {
            // The same position without flags: every other check passed.
            let mut bare = fields.clone();
            bare[4] = "-";
            // A mark unknown or given twice is found while reading, before the board's own
            // checks: it needs no valid board.
            let pos = Position::parse(&bare.join(" "), rules).ok();
            flag_problem(pos.as_ref(), rules, fields[4], &mut p);
        }
        _ => {}
    }
    p
}

fn flag_problem(pos: Option<&Position>, rules: &Rules, flags: &str, p: &mut Problem) {
    use bao_rules::{BlockerMustCapture, NoIntro, Square};
    let tokens: Vec<&str> = flags.split(',').collect();
    let has = |t: &str| tokens.contains(&t);
    // NOT-4.2's order: house, duty, block, must, nointro.
    let mut set = |code: &'static str, tok: &str, side: Option<Side>, pit: Option<String>| {
        p.code = code;
        p.flag = Some(tok.to_string());
        p.side = side.map(side_json);
        p.pit = pit;
    };
    let known = |t: &str| {
        matches!(t, "house:S" | "house:N" | "duty:S" | "duty:N" | "nointro")
            || t.strip_prefix("block:")
                .is_some_and(|v| Square::parse(v).is_some())
            || t.strip_prefix("must:")
                .is_some_and(|v| Square::parse(v).is_some())
    };
    if let Some(t) = tokens.iter().find(|t| !known(t)) {
        return set("flag_unknown", t, None, None);
    }
    // NOT-3.4: each token at most once (`block` and `must` once whatever their pit).
    let key = |t: &str| match t.split_once(':') {
        Some((k @ ("block" | "must"), _)) => k.to_string(),
        _ => t.to_string(),
    };
    for (i, t) in tokens.iter().enumerate() {
        if tokens[..i].iter().any(|u| key(u) == key(t)) {
            return set("flag_twice", &key(t), None, None);
        }
    }
    let Some(pos) = pos else { return };
    let stm = pos.side();
    let bao = pos.variant().is_bao();
    let hands_empty = pos.hand(Side::South) == 0 && pos.hand(Side::North) == 0;
    for s in Side::BOTH {
        let tok = format!("house:{}", side_json(s));
        if has(&tok) {
            if !bao {
                return set("flag_variant", &tok, Some(s), None);
            }
            if pos.seeds(s, Pit::HOUSE) == 0 {
                let pit = Pit::HOUSE.name(s).to_string();
                return set("house_empty", &tok, Some(s), Some(pit));
            }
        }
    }
    for s in Side::BOTH {
        let tok = format!("duty:{}", side_json(s));
        if has(&tok) {
            if pos.variant() != Variant::Kete {
                return set("flag_variant", &tok, Some(s), None);
            }
            if !rules.first_takasa_from_kuu {
                return set("duty_rule", &tok, Some(s), None);
            }
            if !has(&format!("house:{}", side_json(s))) {
                return set("duty_needs_house", &tok, Some(s), None);
            }
        }
    }
    if let Some(tok) = tokens.iter().find(|t| t.starts_with("block:")) {
        let sq = Square::parse(&tok[6..]).expect("checked as known");
        let name = Some(sq.to_string());
        if !bao {
            return set("flag_variant", tok, Some(stm), name);
        }
        if !rules.takasia {
            return set("block_rule", tok, Some(stm), name);
        }
        if !hands_empty {
            return set("block_hands", tok, Some(stm), name);
        }
        if sq.side != stm || !sq.pit.is_front() {
            return set("block_pit", tok, Some(stm), name);
        }
        if pos.seeds(stm, sq.pit) == 0 {
            return set("block_empty", tok, Some(stm), name);
        }
        if sq.pit.is_house() && has(&format!("house:{}", side_json(stm))) {
            return set("block_house", tok, Some(stm), name);
        }
        // KIS-5.2: a takasia block only when the side to move cannot capture.
        if legal_moves(pos, rules).iter().any(|m| !m.mv.is_takasa()) {
            return set("block_capture", tok, Some(stm), name);
        }
    }
    if let Some(tok) = tokens.iter().find(|t| t.starts_with("must:")) {
        let sq = Square::parse(&tok[5..]).expect("checked as known");
        let name = Some(sq.to_string());
        if !bao {
            return set("flag_variant", tok, Some(stm.other()), name);
        }
        if !rules.takasia || rules.blocker_must_capture == BlockerMustCapture::Off {
            return set("must_rule", tok, Some(stm.other()), name);
        }
        if !hands_empty {
            return set("must_hands", tok, Some(stm.other()), name);
        }
        if sq.side == stm || !sq.pit.is_front() {
            return set("must_pit", tok, Some(stm.other()), name);
        }
    }
    if has("nointro") {
        if pos.variant() != Variant::Kimasai {
            return set("flag_variant", "nointro", None, None);
        }
        if rules.no_intro == NoIntro::Never {
            return set("nointro_rule", "nointro", None, None);
        }
        if pos.hand(stm) == 0 {
            set("nointro_reserve", "nointro", Some(stm), None);
        }
    }
    // A check this mirror does not know: the code stays `flags`, with the rules' sentence.
}

fn check(text: &str, rules: &Rules) -> Checked {
    match position_of(text, rules) {
        Ok(pos) => Checked {
            valid: true,
            position: Some(pos.to_string()),
            stage: Some(stage(&pos)),
            result: Some(bao_rules::status(&pos, rules).token()),
            problem: None,
        },
        // position_of says nothing more than Position::parse, whose error is typed.
        Err(_) => Checked {
            valid: false,
            position: None,
            stage: None,
            result: None,
            problem: Position::parse(text, rules)
                .err()
                .map(|e| problem(text.trim(), rules, &e)),
        },
    }
}

fn search(pos: &Position, rules: &Rules, depth: u32, time_ms: Option<u64>) -> Searched {
    let level = bao_engine::Level::get(bao_engine::MAX_LEVEL);
    let mut s = level.searcher(rules);
    let limits = bao_engine::Limits {
        depth: Some(depth.clamp(1, MAX_SEARCH_DEPTH)),
        time: Some(std::time::Duration::from_millis(
            time_ms.unwrap_or(MAX_SEARCH_MS).clamp(1, MAX_SEARCH_MS),
        )),
        ..Default::default()
    };
    let r = s.search_root(pos, limits, &mut |_| {});
    let (score_kind, score) = match r.score {
        bao_engine::Score::Cp(c) => ("cp", c as i64),
        bao_engine::Score::Win(n) => ("win", n as i64),
        bao_engine::Score::Loss(n) => ("loss", n as i64),
    };
    Searched {
        best: r.best.map(|m| m.mv.to_string()),
        score_kind,
        score,
        line: r.pv.iter().map(|m| m.to_string()).collect(),
        depth: r.depth,
        nodes: r.nodes,
        time_ms: r.time.as_millis() as u64,
    }
}

/// A ply of a `learn` request could not be played: which one and why.
fn learn_refusal(e: LearnError) -> WasmError {
    match e {
        LearnError::Position { error, .. } => WasmError::BadPosition(error.to_string()),
        LearnError::Move { ply, error, .. } => WasmError::BadMove(Some(ply + 1), error.to_string()),
        LearnError::OffScript { ply, .. } => WasmError::BadMove(Some(ply + 1), e.to_string()),
        LearnError::GameOver { ply } => {
            WasmError::BadMove(Some(ply + 1), "the game is already over".into())
        }
    }
}

/// The `learn` request: the learner's latest move of a step checked by bao-learn, and the
/// step's next state (docs/learn.md: the step is done at the first learner move that reaches
/// the goal; otherwise the script's or the engine's answer is played, and with none the step
/// starts again).
pub fn learn(step: &LearnStep, moves: &[String], earlier: u32) -> Result<LearnAnswer, WasmError> {
    if moves.len() > MAX_LEARN_PLIES {
        return Err(WasmError::BadRequest(format!(
            "at most {MAX_LEARN_PLIES} moves are checked at once, not {}",
            moves.len()
        )));
    }
    if let Some(i) = moves.iter().position(|m| m.chars().count() > MAX_PLY_CHARS) {
        return Err(WasmError::BadMove(
            Some(i + 1),
            format!("it is longer than {MAX_PLY_CHARS} characters: no move is that long"),
        ));
    }
    let Some((last, before)) = moves.split_last() else {
        return Err(WasmError::BadRequest("no move to check".into()));
    };
    let full = step.step();
    let (start, rules) = full.start().map_err(learn_refusal)?;
    // The plies before the latest one, so that its events can be shown; check_step checks
    // them all again (the script included), so nothing here decides a rule.
    let mut pos = start;
    for (i, text) in before.iter().enumerate() {
        pos = find_move(&pos, &rules, text)
            .map_err(|e| WasmError::BadMove(Some(i + 1), e.to_string()))?
            .next;
    }
    if pos.side() != start.side() {
        return Err(WasmError::BadRequest(
            "the last move must be the learner's: the plies alternate, the learner's first".into(),
        ));
    }
    let refs: Vec<&str> = moves.iter().map(String::as_str).collect();
    let r = check_step(&full, &refs).map_err(learn_refusal)?;
    let lm = find_move(&pos, &rules, last)
        .map_err(|e| WasmError::BadMove(Some(moves.len()), e.to_string()))?;
    let f = MoveFacts::play(&pos, &rules, &lm.mv);
    let facts = LearnFacts {
        last: f.last_sown().map(|s| s.to_string()),
        captures: f.captures().count(),
        seeds: f.captures().map(|(_, n)| u32::from(n)).sum(),
        laps: f.laps(),
    };
    let played = move_event(&pos, &rules, &lm, f.outcome);
    let counted = earlier.saturating_add(r.moves);
    let mut out = LearnAnswer {
        done: r.done,
        stars: if r.done { stars(counted, step.par) } else { 0 },
        moves: r.moves,
        counted,
        played,
        facts,
        reply: None,
        legal: Vec::new(),
        failed: None,
    };
    if r.done {
        return Ok(out);
    }
    let after = lm.next;
    if bao_rules::status(&after, &rules).is_over() {
        out.failed = Some(LearnFailure::GameOver);
        return Ok(out);
    }
    // The answer and the learner's next move need two more plies.
    if moves.len() + 2 > MAX_LEARN_PLIES {
        out.failed = Some(LearnFailure::TooLong);
        return Ok(out);
    }
    let reply = match &step.replies {
        Replies::Scripted(script) => {
            let Some(text) = script.get(r.moves as usize - 1) else {
                out.failed = Some(LearnFailure::NoReply);
                return Ok(out);
            };
            match find_move(&after, &rules, text) {
                Ok(m) => m,
                Err(_) => {
                    out.failed = Some(LearnFailure::OffScript);
                    return Ok(out);
                }
            }
        }
        // The weakest level, as `bao learn` answers; the seed makes a try repeatable.
        Replies::Engine => {
            let seed = u64::from(earlier) * 1000 + moves.len() as u64;
            match bao_engine::choose_move(&after, &rules, bao_engine::MIN_LEVEL, seed) {
                Some(m) => m,
                None => {
                    out.failed = Some(LearnFailure::GameOver);
                    return Ok(out);
                }
            }
        }
    };
    out.reply = Some(move_event(&after, &rules, &reply, reply.outcome(&rules)));
    if bao_rules::status(&reply.next, &rules).is_over() {
        out.failed = Some(LearnFailure::GameOver);
        return Ok(out);
    }
    out.legal = legal_moves(&reply.next, &rules)
        .iter()
        .map(|m| legal_view(m, &rules))
        .collect();
    Ok(out)
}

/// Answers one request.
pub fn answer(req: &Request) -> Result<serde_json::Value, WasmError> {
    match req {
        Request::Legal { rules, position } => {
            let rules = rules_of(rules)?;
            let pos = position_of(position, &rules)?;
            let list: Vec<LegalView> = legal_moves(&pos, &rules)
                .iter()
                .map(|m| legal_view(m, &rules))
                .collect();
            Ok(json(&list))
        }
        Request::Apply {
            rules,
            position,
            mv,
        } => {
            let rules = rules_of(rules)?;
            let pos = position_of(position, &rules)?;
            let m =
                find_move(&pos, &rules, mv).map_err(|e| WasmError::BadMove(None, e.to_string()))?;
            Ok(json(&move_event(&pos, &rules, &m, m.outcome(&rules))))
        }
        Request::Choose {
            rules,
            position,
            level,
            seed,
            start,
            moves,
        } => {
            let rules = rules_of(rules)?;
            let pos = position_of(position, &rules)?;
            let history = match moves {
                Some(moves) => {
                    let (game, _) = replay(rules, start.as_deref(), moves, false)?;
                    let ps = game.positions();
                    if ps.last() != Some(&pos) {
                        return Err(WasmError::BadPosition(
                            "it is not the position the moves given lead to".into(),
                        ));
                    }
                    ps[..ps.len() - 1].to_vec()
                }
                None => Vec::new(),
            };
            let m = bao_engine::choose_move_in_game(&pos, &rules, *level, *seed, &history);
            Ok(json(&Chosen {
                mv: m.map(|m| m.mv.to_string()),
            }))
        }
        Request::Game {
            rules,
            start,
            moves,
        } => {
            let (game, events) = replay(rules_of(rules)?, start.as_deref(), moves, true)?;
            Ok(json(&game_view(&game, events)))
        }
        Request::Record {
            rules,
            start,
            moves,
            south,
            north,
            date_ms,
            result,
            termination,
        } => {
            let (game, _) = replay(rules_of(rules)?, start.as_deref(), moves, false)?;
            let text = record_text(
                &game,
                south,
                north,
                *date_ms,
                result.as_deref(),
                termination.as_deref(),
            )?;
            Ok(serde_json::Value::String(text))
        }
        Request::ParseRecord { text } => {
            let bad = |e: bao_rules::RecordError| WasmError::BadRecord(e.line, e.reason());
            let rec = Record::parse(text).map_err(bad)?;
            let game = rec.validate().map_err(bad)?;
            Ok(json(&ParsedRecord {
                variant: rec.rules.variant.id(),
                rules: rec.rules.to_string(),
                start: rec.start.map(|p| p.to_string()),
                moves: game.moves().iter().map(|m| m.to_string()).collect(),
                south: rec.south.clone(),
                north: rec.north.clone(),
                date: rec.date.clone(),
                result: rec.result.token(),
                termination: rec.termination.map(|t| t.as_str()),
            }))
        }
        Request::Validate { rules, position } => {
            let rules = rules_of(rules)?;
            Ok(json(&check(position, &rules)))
        }
        Request::Search {
            rules,
            position,
            depth,
            time_ms,
        } => {
            let rules = rules_of(rules)?;
            let pos = position_of(position, &rules)?;
            if bao_rules::status(&pos, &rules).is_over() {
                return Ok(json(&Searched {
                    best: None,
                    score_kind: "cp",
                    score: 0,
                    line: Vec::new(),
                    depth: 0,
                    nodes: 0,
                    time_ms: 0,
                }));
            }
            Ok(json(&search(&pos, &rules, *depth, *time_ms)))
        }
        Request::Learn {
            step,
            moves,
            earlier,
        } => Ok(json(&learn(step, moves, *earlier)?)),
        Request::Svg {
            rules,
            position,
            last,
        } => {
            let rules = rules_of(rules)?;
            let pos = position_of(position, &rules)?;
            let mut opts = bao_render::SvgOptions {
                size: None,
                ..Default::default()
            };
            if let Some(l) = last.as_deref().filter(|l| !l.is_empty()) {
                opts.last_move = bao_render::LastMove::parse(l, pos.side().other());
            }
            Ok(serde_json::Value::String(bao_render::svg(&pos, &opts)))
        }
    }
}

/// An answer as a JSON value. The answer types hold only strings, numbers, booleans and
/// lists, so serialising cannot fail.
fn json<T: Serialize>(v: &T) -> serde_json::Value {
    serde_json::to_value(v).unwrap_or(serde_json::Value::Null)
}

/// The envelope of every answer.
#[derive(Serialize)]
#[serde(rename_all = "snake_case")]
enum Envelope {
    Ok(serde_json::Value),
    Error(String),
}

/// One request as JSON text to its answer as JSON text: `{"ok": ...}` or `{"error": "..."}`.
pub fn handle(request: &str) -> String {
    let env = match serde_json::from_str::<Request>(request) {
        Err(e) => Envelope::Error(WasmError::BadRequest(e.to_string()).to_string()),
        Ok(req) => match answer(&req) {
            Ok(v) => Envelope::Ok(v),
            Err(e) => Envelope::Error(e.to_string()),
        },
    };
    serde_json::to_string(&env).unwrap_or_else(|_| r#"{"error":"internal error"}"#.into())
}

/// Reserves `len` bytes for a request (see the crate documentation).
#[no_mangle]
pub extern "C" fn bao_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len);
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// Gives back `len` bytes at `ptr` from [`bao_alloc`] or [`bao_call`].
///
/// # Safety
/// `ptr` and `len` must be exactly those of one earlier allocation, freed once.
#[no_mangle]
pub unsafe extern "C" fn bao_free(ptr: *mut u8, len: usize) {
    if !ptr.is_null() {
        // SAFETY: the caller passes back an allocation of capacity `len` made here.
        drop(unsafe { Vec::from_raw_parts(ptr, 0, len) });
    }
}

/// Handles the request of `len` bytes at `ptr` (from [`bao_alloc`], freed here) and returns
/// the answer: a `u32` little-endian length, then that many bytes of JSON.
///
/// # Safety
/// `ptr` must come from `bao_alloc(len)` with `len` bytes written.
#[no_mangle]
pub unsafe extern "C" fn bao_call(ptr: *mut u8, len: usize) -> *mut u8 {
    // SAFETY: the caller wrote `len` bytes into an allocation of capacity `len` from bao_alloc.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len) };
    let out = match std::str::from_utf8(&bytes) {
        Ok(text) => handle(text),
        Err(_) => serde_json::to_string(&Envelope::Error(
            WasmError::BadRequest("the request is not UTF-8 text".into()).to_string(),
        ))
        .unwrap_or_default(),
    };
    drop(bytes);
    let n = out.len();
    let mut buf = Vec::with_capacity(n + 4);
    buf.extend_from_slice(&(n as u32).to_le_bytes());
    buf.extend_from_slice(out.as_bytes());
    // Capacity is exactly n + 4, which the host passes back to bao_free.
    debug_assert_eq!(buf.capacity(), n + 4);
    let p = buf.as_mut_ptr();
    std::mem::forget(buf);
    p
}

#[cfg(test)]
#[path = "../../bao-rules/tests/data/staircase.rs"]
mod staircase;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn ok(req: &str) -> Value {
        let v: Value = serde_json::from_str(&handle(req)).unwrap();
        assert!(v.get("error").is_none(), "{req}: {v}");
        v["ok"].clone()
    }

    fn err(req: &str) -> String {
        let v: Value = serde_json::from_str(&handle(req)).unwrap();
        v["error"]
            .as_str()
            .unwrap_or_else(|| panic!("{req}: {v}"))
            .to_string()
    }

    #[test]
    fn legal_moves_match_the_rules_crate() {
        let rules = Rules::new(Variant::Kiswahili);
        let start = Position::start(&rules);
        let list = ok(r#"{"op":"legal","variant":"kiswahili","position":"kiswahili"}"#);
        let native = legal_moves(&start, &rules);
        assert_eq!(list.as_array().unwrap().len(), native.len());
        for (a, b) in list.as_array().unwrap().iter().zip(native.iter()) {
            assert_eq!(a["move"], b.mv.to_string());
            assert_eq!(a["next"], b.next.to_string());
        }
        // KIS-5: no capture at the start, so every move is a takasa.
        assert!(list.as_array().unwrap().iter().all(|m| m["takasa"] == true));
    }

    #[test]
    fn apply_gives_events_and_the_position() {
        // NOT-6.5's first move.
        let v = ok(r#"{"op":"apply","variant":"kiswahili","position":"kiswahili","move":"A7L*"}"#);
        assert_eq!(v["by"], "S");
        assert_eq!(v["ply"], 1);
        assert!(!v["events"].as_array().unwrap().is_empty());
        let rules = Rules::new(Variant::Kiswahili);
        let m = find_move(&Position::start(&rules), &rules, "A7L*").unwrap();
        assert_eq!(v["position"], m.next.to_string());
    }

    #[test]
    fn a_whole_game_against_the_engine_and_its_record() {
        for variant in ["kiswahili", "kete", "kimasai"] {
            let mut moves: Vec<String> = Vec::new();
            loop {
                let g = ok(
                    &serde_json::json!({"op":"game","variant":variant,"moves":moves}).to_string(),
                );
                if g["result"] != "-" {
                    assert!(g["legal"].as_array().unwrap().is_empty());
                    assert!(g["result_text"].is_string());
                    break;
                }
                assert!(moves.len() < 1000, "{variant}: no end");
                let c = ok(&serde_json::json!({"op":"choose","variant":variant,"position":g["position"],"level":1,"seed":moves.len()}).to_string());
                let mv = c["move"].as_str().unwrap().to_string();
                assert!(g["legal"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|l| l["move"] == mv.as_str()));
                moves.push(mv);
            }
            let rec = ok(&serde_json::json!({"op":"record","variant":variant,"moves":moves,"south":"Asha","north":"Kompyuta","date_ms":951_825_600_000i64}).to_string());
            let text = rec.as_str().unwrap();
            let parsed = Record::parse(text).unwrap();
            assert_eq!(parsed.date, "2000.02.29");
            assert_eq!(parsed.south, "Asha");
            let game = parsed.validate().unwrap();
            assert_eq!(game.moves().len(), moves.len());
            assert!(game.outcome().is_over());
        }
    }

    /// With the game's moves the computer sees a draw by repetition (BRD-7.5): on the
    /// kimasai staircase cycle, North (far behind) takes it; given the position alone it
    /// plays another move. A position the moves do not lead to is refused.
    #[test]
    fn the_computer_given_the_moves_takes_a_repetition() {
        let line: Vec<String> = staircase::round().into_iter().cycle().take(128).collect();
        let rules = Rules::parse(Variant::Kimasai, "-").unwrap();
        let mut game = Game::new(Position::parse(staircase::start(), &rules).unwrap(), rules);
        for m in &line[..127] {
            game.play_text(m).unwrap();
        }
        let pos = game.position().to_string();
        let ask = |moves: Option<&[String]>| {
            let mut req = serde_json::json!({"op":"choose","variant":"kimasai","position":pos,
                "level":8,"seed":1,"start":staircase::start()});
            if let Some(ms) = moves {
                req["moves"] = serde_json::json!(ms);
            }
            req.to_string()
        };
        assert_eq!(ok(&ask(Some(&line[..127])))["move"], line[127].as_str());
        assert_ne!(ok(&ask(None))["move"], line[127].as_str());
        let e = err(&ask(Some(&line[..126])));
        assert!(
            e.contains("not the position the moves given lead to"),
            "{e}"
        );
    }

    #[test]
    fn a_resigned_game_records_its_termination() {
        let text = ok(
            r#"{"op":"record","variant":"kete","moves":["A6L*"],"result":"N","termination":"resignation"}"#,
        );
        let r = Record::parse(text.as_str().unwrap()).unwrap();
        assert_eq!(r.result, RecordResult::from_token("N").unwrap());
        assert_eq!(r.termination, Some(Termination::Resignation));
        r.validate().unwrap();
    }

    #[test]
    fn a_record_is_read_back_into_the_game_it_holds() {
        let moves = ["A6L*", "a5R", "A3L"];
        let text = ok(&serde_json::json!({"op":"record","variant":"kete","moves":moves,"south":"Asha","result":"S","termination":"resignation"}).to_string());
        let r = ok(&serde_json::json!({"op":"parse_record","text":text}).to_string());
        assert_eq!(r["variant"], "kete");
        assert_eq!(r["moves"], serde_json::json!(moves));
        assert_eq!(r["south"], "Asha");
        assert_eq!(
            (r["result"].as_str(), r["termination"].as_str()),
            (Some("S"), Some("resignation"))
        );
        // NOT-6.4: a record whose move is illegal is refused with its line.
        let bad = text.as_str().unwrap().replace("A3L", "A1L*");
        let e = err(&serde_json::json!({"op":"parse_record","text":bad}).to_string());
        assert!(e.starts_with("line 9: ") && e.contains("A1L*"), "{e}");
    }

    #[test]
    fn bad_requests_say_what_is_wrong() {
        assert!(err("not json").contains("did not understand"));
        assert!(err(r#"{"op":"legal","variant":"chess","position":"x"}"#)
            .contains("no variant 'chess'"));
        assert!(
            err(r#"{"op":"legal","variant":"kete","rules":"bogus=1","position":"kete"}"#)
                .contains("rule options")
        );
        assert!(
            err(r#"{"op":"legal","variant":"kete","position":"kete 1,2"}"#)
                .contains("position is wrong")
        );
        assert!(
            err(r#"{"op":"game","variant":"kete","moves":["A6L*","A6L*"]}"#)
                .starts_with("move 2 cannot be played")
        );
        assert!(err(r#"{"op":"record","variant":"kete","moves":[],"result":"X"}"#).contains("'X'"));
    }

    #[test]
    fn the_abi_round_trips() {
        let req = br#"{"op":"legal","variant":"kimasai","position":"kimasai"}"#;
        let p = bao_alloc(req.len());
        unsafe {
            std::ptr::copy_nonoverlapping(req.as_ptr(), p, req.len());
            let out = bao_call(p, req.len());
            let n =
                u32::from_le_bytes(std::slice::from_raw_parts(out, 4).try_into().unwrap()) as usize;
            let text = std::str::from_utf8(std::slice::from_raw_parts(out.add(4), n))
                .unwrap()
                .to_string();
            bao_free(out, n + 4);
            assert!(text.starts_with(r#"{"ok":["#), "{text}");
        }
    }

    /// `validate` answers a valid position with its canonical text, and a refused one with
    /// the typed problem the page words (NOT-4.1, NOT-4.2).
    #[test]
    fn validate_types_the_problem() {
        let v = ok(r#"{"op":"validate","variant":"kiswahili","position":"kiswahili"}"#);
        assert_eq!(v["valid"], true);
        assert_eq!(v["stage"], "namua");
        assert_eq!(v["result"], "-");
        assert_eq!(
            v["position"],
            Position::start(&Rules::new(Variant::Kiswahili)).to_string()
        );
        let ask = |variant: &str, rules: &str, pos: &str| {
            let v = ok(&serde_json::json!({"op":"validate","variant":variant,"rules":rules,"position":pos}).to_string());
            assert_eq!(v["valid"], false, "{pos}: {v}");
            v["problem"].clone()
        };
        // 6 more seeds in South's hand: 70.
        let p = ask("kiswahili", "-", "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 28/22 house:S,house:N 0");
        assert_eq!(
            (p["code"].as_str(), p["total"].as_u64()),
            (Some("total"), Some(70))
        );
        assert!(p["detail"].as_str().unwrap().contains("70"));
        let p = ask(
            "kiswahili",
            "-",
            "kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0 S 32/32 - 0",
        );
        assert_eq!(p["code"], "front_rows_empty");
        // North's house a5 is empty but house:N is set.
        let p = ask("kiswahili", "-", "kiswahili 0,0,0,0,0,0,0,0/0,2,2,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/28 house:S,house:N 0");
        assert_eq!(
            (p["code"].as_str(), p["side"].as_str(), p["pit"].as_str()),
            (Some("house_empty"), Some("N"), Some("a5"))
        );
        let mtaji =
            "kiswahili 2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2/2,2,2,2,2,2,2,2 S 0/0";
        // Every front pit faces a full one: South can capture, so no takasia block (KIS-5.2).
        let p = ask("kiswahili", "-", &format!("{mtaji} block:A3 0"));
        assert_eq!(
            (p["code"].as_str(), p["pit"].as_str()),
            (Some("block_capture"), Some("A3"))
        );
        assert_eq!(
            ask("kiswahili", "-", &format!("{mtaji} block:a3 0"))["code"],
            "block_pit"
        );
        assert_eq!(
            ask("kiswahili", "takasia=false", &format!("{mtaji} block:A3 0"))["code"],
            "block_rule"
        );
        assert_eq!(
            ask("kiswahili", "-", &format!("{mtaji} nointro 0"))["code"],
            "flag_variant"
        );
        assert_eq!(
            ask("kiswahili", "-", &format!("{mtaji} house:X 0"))["code"],
            "flag_unknown"
        );
        assert_eq!(
            ask(
                "kete",
                "-",
                &format!("{} duty:S 0", mtaji.replace("kiswahili", "kete"))
            )["code"],
            "duty_needs_house"
        );
        assert_eq!(ask("kimasai", "-", "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 0/48 nointro 0")["code"], "nointro_reserve");
        // Text that is no position: the kind NOT-4.1 names.
        assert_eq!(ask("kete", "-", "kete 1,2")["code"], "syntax");
        assert_eq!(
            ask(
                "kete",
                "-",
                "kete 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 X 22/22 - 0"
            )["code"],
            "side"
        );
        // A variant that does not exist is a refused request, not a position problem.
        assert!(err(r#"{"op":"validate","variant":"chess","position":"x"}"#).contains("no variant"));
    }

    /// Random boards and marks under random options: `validate` says valid exactly when the
    /// rules crate does, and names a check of [`PROBLEM_CODES`] otherwise; a refused mark is
    /// always found (never the bare `flags` kind). Every code has
    /// words in both catalogs of the analysis page.
    #[test]
    fn validate_agrees_with_the_rules_and_every_problem_has_words() {
        let seed = std::env::var("BAO_VALIDATE_SEED")
            .ok()
            .and_then(|s| s.parse().ok())
            .unwrap_or(20261204u64);
        println!("seed {seed} (BAO_VALIDATE_SEED repeats it)");
        let mut rng = bao_rules::Rng::new(seed);
        let flags = [
            "house:S", "house:N", "duty:S", "duty:N", "block:A3", "block:a3", "block:A5",
            "block:a5", "must:a2", "must:A2", "nointro",
        ];
        let options = [
            "-",
            "takasia=false",
            "first_takasa_from_kuu=false",
            "no_intro=never",
            "blocker_must_capture=off",
        ];
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..20_000 {
            let variant = ["kiswahili", "kete", "kimasai"][rng.below(3)];
            let v = Variant::from_id(variant).unwrap();
            let opt = options[rng.below(options.len())];
            let Ok(rules) = Rules::parse(v, opt) else {
                continue;
            };
            // 64 seeds dealt to a few pits and the hands, sometimes one more or less.
            let mut counts = [0u32; 34];
            let total = 64 + [0, 0, 0, 1][rng.below(4)] - [0, 0, 0, 1][rng.below(4)];
            let spots: Vec<usize> = (0..1 + rng.below(12)).map(|_| rng.below(34)).collect();
            for _ in 0..total {
                counts[spots[rng.below(spots.len())]] += 1;
            }
            if rng.below(2) == 0 {
                counts[32] = 0;
                counts[33] = 0;
                counts[spots[0]] += 0;
            }
            let row = |r: &[u32]| {
                r.iter()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            };
            let marks: Vec<&str> = flags
                .iter()
                .copied()
                .filter(|_| rng.below(4) == 0)
                .collect();
            let text = format!(
                "{variant} {}/{}/{}/{} {} {}/{} {} {}",
                row(&counts[0..8]),
                row(&counts[8..16]),
                row(&counts[16..24]),
                row(&counts[24..32]),
                ["S", "N"][rng.below(2)],
                counts[32],
                counts[33],
                if marks.is_empty() {
                    "-".to_string()
                } else {
                    marks.join(",")
                },
                rng.below(100),
            );
            let v = ok(
                &serde_json::json!({"op":"validate","variant":variant,"rules":opt,"position":text})
                    .to_string(),
            );
            let parsed = Position::parse(&text, &rules);
            assert_eq!(
                v["valid"].as_bool(),
                Some(parsed.is_ok()),
                "{text} ({opt}): {v}"
            );
            if let Err(e) = parsed {
                let code = v["problem"]["code"].as_str().unwrap().to_string();
                assert!(PROBLEM_CODES.contains(&code.as_str()), "{text}: {v}");
                assert_eq!(v["problem"]["kind"], e.kind.as_str());
                if e.kind == bao_rules::PositionErrorKind::Flags {
                    assert_ne!(code, "flags", "{text} ({opt}): {e}");
                }
                seen.insert(code);
            }
        }
        // The random positions reach most checks (the rest have their own cases above).
        println!("codes reached: {seen:?}");
        assert!(seen.len() >= 12, "{seen:?}");
        for lang in ["en", "sw"] {
            let path = format!(
                "{}/../bao-server/web/i18n/{lang}/analysis.json",
                env!("CARGO_MANIFEST_DIR")
            );
            let cat: serde_json::Map<String, Value> =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            for code in PROBLEM_CODES {
                let key = format!("analysis.err_{code}");
                assert!(cat.contains_key(&key), "{path} has no {key}");
            }
        }
    }

    /// `search` gives the engine's best move, a line that starts with it and is legal move
    /// after move, a score and the depth reached; the depth asked for is bounded.
    #[test]
    fn search_gives_a_legal_line_to_the_depth() {
        for variant in ["kiswahili", "kete", "kimasai"] {
            let v = ok(
                &serde_json::json!({"op":"search","variant":variant,"position":variant,"depth":3})
                    .to_string(),
            );
            assert_eq!(v["depth"], 3, "{variant}: {v}");
            let line: Vec<String> = serde_json::from_value(v["line"].clone()).unwrap();
            assert_eq!(Some(line[0].as_str()), v["best"].as_str());
            assert!(["cp", "win", "loss"].contains(&v["score_kind"].as_str().unwrap()));
            let g =
                ok(&serde_json::json!({"op":"game","variant":variant,"moves":line}).to_string());
            assert_eq!(g["moves"].as_array().unwrap().len(), line.len());
        }
        // A depth beyond the bound is cut to it, and the time bound stops it early.
        let v = ok(
            r#"{"op":"search","variant":"kiswahili","position":"kiswahili","depth":1000000,"time_ms":50}"#,
        );
        assert!(v["depth"].as_u64().unwrap() < MAX_SEARCH_DEPTH as u64);
        assert!(v["time_ms"].as_u64().unwrap() < 5_000, "{v}");
        // A finished game has no best move.
        let over = "kiswahili 0,0,0,0,0,0,0,0/0,0,0,0,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 N 0/54 house:S 0";
        let v = ok(
            &serde_json::json!({"op":"search","variant":"kiswahili","position":over,"depth":4})
                .to_string(),
        );
        assert!(
            v["best"].is_null() && v["line"].as_array().unwrap().is_empty(),
            "{v}"
        );
    }

    /// A step as `GET /api/learn/{variant}` shows it (texts and all), with `replies` as given.
    fn api_step(step: &bao_learn::Step, replies: Value) -> Value {
        serde_json::json!({
            "position": step.position, "text": "Sow.", "text_key": step.text_key,
            "goal": step.goal, "solutions": step.solutions, "rules": step.rules,
            "par": step.par, "hints": ["Right."], "hint_keys": step.hints, "replies": replies,
        })
    }

    fn learn_req(step: &Value, moves: &[&str], earlier: u32) -> String {
        serde_json::json!({"op": "learn", "step": step, "moves": moves, "earlier": earlier})
            .to_string()
    }

    /// Every first move of every step of every course: `learn` completes the step exactly
    /// when bao-learn says the move reaches the goal, with the events of the rules.
    #[test]
    fn learn_decides_every_first_move_as_bao_learn() {
        let mut checked = 0;
        for v in Variant::ALL {
            for lesson in bao_learn::course(v).lessons {
                for step in &lesson.steps {
                    let s = api_step(step, serde_json::to_value(&step.replies).unwrap());
                    let goal = bao_learn::goal_moves(step).unwrap();
                    let (pos, rules) = step.start().unwrap();
                    for m in legal_moves(&pos, &rules) {
                        let mv = m.mv.to_string();
                        let a = ok(&learn_req(&s, &[&mv], 0));
                        let want = goal.contains(&mv);
                        assert_eq!(a["done"], want, "{} {mv}", lesson.id);
                        assert_eq!(a["stars"], if want { 3 } else { 0 });
                        assert_eq!(a["played"]["move"], mv.as_str());
                        assert_eq!(a["played"]["position"], m.next.to_string());
                        let (events, _, _) = trace(&pos, &rules, &m.mv);
                        let lines: Vec<String> = events.iter().map(|e| e.to_string()).collect();
                        assert_eq!(a["played"]["events"], serde_json::json!(lines));
                        // A one-move step that is not done cannot go on.
                        if !want && step.par == 1 && step.replies == Replies::default() {
                            let over = bao_rules::status(&m.next, &rules).is_over();
                            let why = if over { "game_over" } else { "no_reply" };
                            assert_eq!(a["failed"], why, "{} {mv}", lesson.id);
                            assert!(a["legal"].as_array().unwrap().is_empty());
                        }
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 150, "{checked}");
    }

    /// docs/learn.md: stars count every move tried in the step (3 at par, 2 one over, then 1);
    /// a missed goal says what the move did.
    #[test]
    fn learn_counts_earlier_tries_and_says_what_a_move_did() {
        let c = bao_learn::course(Variant::Kiswahili);
        let step = &c.lessons[0].steps[0];
        let bao_learn::Goal::LastSeed { pit } = step.goal else {
            panic!("the first step teaches the last seed: {:?}", step.goal)
        };
        let s = api_step(step, serde_json::json!([]));
        let (pos, rules) = step.start().unwrap();
        let goal = bao_learn::goal_moves(step).unwrap();
        let wrong = legal_moves(&pos, &rules)
            .into_iter()
            .find(|m| !goal.contains(&m.mv.to_string()))
            .unwrap();
        let w = ok(&learn_req(&s, &[&wrong.mv.to_string()], 0));
        assert_eq!(
            (w["done"].as_bool(), w["failed"].as_str()),
            (Some(false), Some("no_reply"))
        );
        let f = MoveFacts::play(&pos, &rules, &wrong.mv);
        let last = f.last_sown().unwrap().to_string();
        assert_eq!(w["facts"]["last"], last.as_str());
        assert_ne!(last, pit.to_string());
        let right = step.solutions[0].as_str();
        for (earlier, want) in [(0, 3), (1, 2), (2, 1), (9, 1)] {
            let a = ok(&learn_req(&s, &[right], earlier));
            assert_eq!(a["stars"], want, "after {earlier} moves tried");
            assert_eq!(a["counted"], earlier + 1);
        }
        // A capture step reports the captures and seeds of the move.
        let cap = &c.lessons.iter().find(|l| l.id == "capture").unwrap().steps[1];
        let s = api_step(cap, serde_json::json!([]));
        let a = ok(&learn_req(&s, &[cap.solutions[0].as_str()], 0));
        assert!(a["facts"]["captures"].as_u64().unwrap() >= 2, "{a}");
        assert!(a["facts"]["seeds"].as_u64().unwrap() >= 2, "{a}");
        assert!(a["facts"]["laps"].as_u64().unwrap() >= 2, "{a}");
    }

    /// A step of two learner moves: the script answers the first, the second completes it;
    /// with `"engine"` the browser's engine answers instead.
    #[test]
    fn learn_plays_the_scripted_or_the_engines_answer() {
        let c = bao_learn::course(Variant::Kete);
        let step = c
            .lessons
            .iter()
            .flat_map(|l| &l.steps)
            .find(|s| s.par == 2 && matches!(&s.replies, Replies::Scripted(v) if !v.is_empty()))
            .expect("a kete step with a scripted answer");
        let Replies::Scripted(script) = &step.replies else {
            unreachable!()
        };
        let line: Vec<&str> = step.solutions[0].split_whitespace().collect();
        let s = api_step(step, serde_json::to_value(&step.replies).unwrap());
        let a = ok(&learn_req(&s, &[line[0]], 0));
        assert_eq!(a["done"], false);
        assert!(a["failed"].is_null(), "{a}");
        assert_eq!(a["reply"]["move"], script[0].as_str());
        let legal = a["legal"].as_array().unwrap();
        assert!(legal.iter().any(|m| m["move"] == line[1]), "{a}");
        let b = ok(&learn_req(&s, &[line[0], &script[0], line[1]], 0));
        assert_eq!(
            (b["done"].as_bool(), b["stars"].as_u64()),
            (Some(true), Some(3))
        );
        // Other first moves: the script's answer when it is legal after them (and then a
        // second move that misses has no answer left), else the step cannot go on.
        let (pos, rules) = step.start().unwrap();
        let p1 = find_move(&pos, &rules, line[0]).unwrap().next;
        let mut ends = std::collections::BTreeSet::new();
        for first in legal_moves(&pos, &rules) {
            let mv = first.mv.to_string();
            let a = ok(&learn_req(&s, &[&mv], 0));
            if a["done"] == true {
                continue;
            }
            let answer = find_move(&first.next, &rules, &script[0]);
            match (&answer, a["failed"].as_str()) {
                (Ok(r), None) => {
                    assert_eq!(a["reply"]["move"], script[0].as_str());
                    for second in legal_moves(&r.next, &rules) {
                        let m2 = second.mv.to_string();
                        let b = ok(&learn_req(&s, &[&mv, &script[0], &m2], 0));
                        if b["done"] == false {
                            assert!(b["reply"].is_null(), "{b}");
                            let f = b["failed"].as_str().unwrap().to_string();
                            ends.insert(f);
                        }
                    }
                }
                (Err(_), Some(f)) => {
                    assert!(f == "off_script" || f == "game_over", "{mv}: {a}");
                    ends.insert(f.to_string());
                }
                (_, f) => panic!("{mv}: the script's answer is {answer:?}, failed {f:?}"),
            }
        }
        assert!(
            ends.contains("off_script") || ends.contains("no_reply"),
            "{ends:?}"
        );
        // An answer other than the script's is refused, naming the ply.
        let other = legal_moves(&p1, &rules)
            .into_iter()
            .map(|m| m.mv.to_string())
            .find(|m| *m != script[0])
            .unwrap();
        let e = err(&learn_req(&s, &[line[0], &other, line[1]], 0));
        assert!(e.starts_with("move 2 cannot be played"), "{e}");

        // The same step answered by the engine: some legal answer, then the learner's turn.
        let s = api_step(step, serde_json::json!("engine"));
        let a = ok(&learn_req(&s, &[line[0]], 0));
        assert!(a["failed"].is_null(), "{a}");
        let reply = a["reply"]["move"].as_str().unwrap();
        assert!(find_move(&p1, &rules, reply).is_ok(), "{reply}");
        assert!(!a["legal"].as_array().unwrap().is_empty());
    }

    #[test]
    fn learn_refuses_what_it_cannot_check() {
        let c = bao_learn::course(Variant::Kimasai);
        let step = &c.lessons[0].steps[0];
        let s = api_step(step, serde_json::json!([]));
        let first = step.solutions[0].as_str();
        assert!(err(&learn_req(&s, &[], 0)).contains("no move"));
        let many: Vec<&str> = vec![first; MAX_LEARN_PLIES + 1];
        assert!(err(&learn_req(&s, &many, 0)).contains("at most 40"));
        let long = "A".repeat(MAX_PLY_CHARS + 1);
        assert!(err(&learn_req(&s, &[&long], 0)).starts_with("move 1 cannot be played"));
        assert!(err(&learn_req(&s, &["Z9"], 0)).starts_with("move 1 cannot be played"));
        // Two plies: the last is the opponent's.
        let (pos, rules) = step.start().unwrap();
        let next = find_move(&pos, &rules, first).unwrap().next;
        let answer = legal_moves(&next, &rules)
            .iter()
            .next()
            .unwrap()
            .mv
            .to_string();
        assert!(err(&learn_req(&s, &[first, &answer], 0)).contains("must be the learner's"));
        let mut bad = s.clone();
        bad["position"] = "kimasai 1,2".into();
        assert!(err(&learn_req(&bad, &[first], 0)).contains("position is wrong"));
        bad = s.clone();
        bad["goal"] = serde_json::json!({"kind": "fly"});
        assert!(err(&learn_req(&bad, &[first], 0)).contains("did not understand"));
    }

    #[test]
    fn svg_is_the_renderers() {
        let v = ok(r#"{"op":"svg","variant":"kiswahili","position":"kiswahili","last":"A7L*"}"#);
        let s = v.as_str().unwrap();
        assert!(s.starts_with("<svg") && s.contains(r#"id="pit-A5""#));
        assert!(s.contains("last-move"));
    }
}
