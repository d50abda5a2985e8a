//! Game records (NOT-6): reading, writing and checking by replay.
//!
//! A record file holds one or more records. Each has a tag section (`[Name "value"]`
//! lines), a blank line and the movetext: move numbers, moves, `{ comments }` and the
//! result token. [`parse_records`] reads a file, [`Record::validate`] replays a record
//! (NOT-6.4, with repetition counted from its start position) and [`Record`]'s `Display`
//! writes the canonical form.
//!
//! Hostile input is refused with the line and the reason, never a panic: files over
//! [`MAX_RECORD_BYTES`] are refused before they are read further.
//!
//! ```
//! use bao_rules::parse_records;
//! let text = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n\
//!             [Date \"1994.10.17\"]\n[Result \"-\"]\n[Site \"Zanzibar\"]\n\n\
//!             1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -\n";
//! let records = parse_records(text).unwrap();
//! let game = records[0].validate().unwrap();
//! assert_eq!(game.moves().len(), 6);
//! assert_eq!(records[0].to_string(), text);
//! ```

use crate::error::printable;
use crate::{Game, Move, MoveError, Outcome, Position, Rules, Side, Variant};
use std::fmt;

/// The largest record file accepted, in bytes (16 MiB).
pub const MAX_RECORD_BYTES: usize = 16 * 1024 * 1024;

/// The `Result` tag and the result token (NOT-6.2): `S`, `N`, `draw` or `-`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RecordResult {
    /// `-`: unfinished or unknown.
    Unfinished,
    /// `S` or `N`: that side won.
    Win(Side),
    /// `draw`.
    Draw,
}

impl RecordResult {
    /// The token as written.
    pub fn token(self) -> &'static str {
        match self {
            RecordResult::Unfinished => "-",
            RecordResult::Win(Side::South) => "S",
            RecordResult::Win(Side::North) => "N",
            RecordResult::Draw => "draw",
        }
    }
    /// Reads a token.
    pub fn from_token(s: &str) -> Option<RecordResult> {
        match s {
            "-" => Some(RecordResult::Unfinished),
            "S" => Some(RecordResult::Win(Side::South)),
            "N" => Some(RecordResult::Win(Side::North)),
            "draw" => Some(RecordResult::Draw),
            _ => None,
        }
    }
}

impl From<Outcome> for RecordResult {
    fn from(o: Outcome) -> RecordResult {
        match o {
            Outcome::Ongoing => RecordResult::Unfinished,
            Outcome::Win(s, _) => RecordResult::Win(s),
            Outcome::Draw(_) => RecordResult::Draw,
        }
    }
}

impl fmt::Display for RecordResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.token())
    }
}

/// The `Termination` tag (NOT-6.2).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Termination {
    /// The result follows from the rules.
    Rules,
    /// A player resigned.
    Resignation,
    /// A player ran out of time.
    Time,
    /// The players agreed.
    Agreement,
    /// An arbiter decided.
    Adjudication,
    /// The game was abandoned.
    Abandoned,
}

impl Termination {
    /// Every value, in the order of NOT-6.2.
    pub const ALL: [Termination; 6] = [
        Termination::Rules,
        Termination::Resignation,
        Termination::Time,
        Termination::Agreement,
        Termination::Adjudication,
        Termination::Abandoned,
    ];
    /// The value as written.
    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Rules => "rules",
            Termination::Resignation => "resignation",
            Termination::Time => "time",
            Termination::Agreement => "agreement",
            Termination::Adjudication => "adjudication",
            Termination::Abandoned => "abandoned",
        }
    }
    /// Reads a value.
    pub fn parse(s: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.as_str() == s)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One move of a record, as written, with the comment that follows it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordMove {
    /// The move text (canonical when written by this crate; any NOT-2 form when read).
    pub text: String,
    /// The comment after the move, without braces.
    pub comment: Option<String>,
    /// The 1-based line of the file the move was read from; 0 when not read from a file.
    pub line: usize,
}

impl From<&Move> for RecordMove {
    /// A played move, in canonical notation, without comment.
    fn from(m: &Move) -> RecordMove {
        RecordMove {
            text: m.to_string(),
            comment: None,
            line: 0,
        }
    }
}

/// A game record (NOT-6).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Record {
    /// The game (`Variant` tag).
    pub variant: Variant,
    /// The rule options the game was played under (`Rules` tag).
    pub rules: Rules,
    /// South's player (`South` tag, `?` if unknown).
    pub south: String,
    /// North's player (`North` tag, `?` if unknown).
    pub north: String,
    /// `YYYY.MM.DD`, unknown parts `??` (`Date` tag).
    pub date: String,
    /// The declared result (`Result` tag, equal to the result token).
    pub result: RecordResult,
    /// The `Start` tag; `None` means the variant's start position under `rules`.
    pub start: Option<Position>,
    /// The `Termination` tag, if given.
    pub termination: Option<Termination>,
    /// Every other tag (`Event`, `Site`, `Round` and unknown ones), in file order.
    pub other_tags: Vec<(String, String)>,
    /// A comment before the first move.
    pub comment: Option<String>,
    /// The moves.
    pub moves: Vec<RecordMove>,
    lines: SourceLines,
}

/// Where things were in the file, for error messages.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
struct SourceLines {
    first: usize,
    result_tag: usize,
    result_token: usize,
}

/// Why a record was refused: the line (1-based; 0 when the whole file is at fault) and
/// the reason.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RecordError {
    /// The 1-based line of the file, or 0 when no single line is at fault.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong with a record.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum RecordErrorKind {
    /// The file is larger than [`MAX_RECORD_BYTES`].
    TooLarge(usize),
    /// The file is not UTF-8.
    NotUtf8,
    /// The file holds no record.
    Empty,
    /// The file holds several records where one was expected.
    SeveralRecords(usize),
    /// A line in the tag section is not `[Name "value"]`.
    BadTagLine(String),
    /// The same tag twice in one record.
    DuplicateTag(String),
    /// A required tag is missing.
    MissingTag(&'static str),
    /// A known tag has a value it cannot have.
    BadTagValue {
        /// The tag.
        tag: String,
        /// Why.
        reason: String,
    },
    /// A movetext token that is not a move number, a move, a comment or the result.
    BadToken(String),
    /// A `{` without its `}`.
    UnterminatedComment,
    /// The movetext ends without a result token.
    MissingResult,
    /// Something follows the result token on its line.
    AfterResult(String),
    /// The result token differs from the `Result` tag.
    ResultTokenMismatch {
        /// The tag's value.
        tag: RecordResult,
        /// The token.
        token: RecordResult,
    },
    /// A move is refused by the rules (NOT-2, BRD-7.1).
    Move {
        /// 1-based number of the move in the record (its ply from the record's start).
        number: usize,
        /// Who was to move.
        side: Side,
        /// The rules' error, with the move text.
        error: MoveError,
    },
    /// The game had already ended by the rules before this move (NOT-6.4).
    MoveAfterEnd {
        /// 1-based number of the move.
        number: usize,
        /// The move text.
        text: String,
        /// How the game had ended.
        outcome: Outcome,
    },
    /// `Termination` is `rules` but `Result` differs from the outcome reached (NOT-6.4).
    WrongResult {
        /// The declared result.
        declared: RecordResult,
        /// The result the moves lead to.
        reached: Outcome,
    },
}

impl RecordError {
    fn new(line: usize, kind: RecordErrorKind) -> RecordError {
        RecordError { line, kind }
    }

    /// The error category: the move's NOT-5 category for a refused move, `game_over` for a
    /// move after the end, `too_large` for an oversized file, otherwise `bad_record`.
    pub fn category(&self) -> &'static str {
        match &self.kind {
            RecordErrorKind::Move { error, .. } => error.category(),
            RecordErrorKind::MoveAfterEnd { .. } => "game_over",
            RecordErrorKind::TooLarge(_) => "too_large",
            _ => "bad_record",
        }
    }

    /// The reason without the line number.
    pub fn reason(&self) -> String {
        use RecordErrorKind as K;
        match &self.kind {
            K::TooLarge(n) => format!(
                "the file has {n} bytes; records larger than {} MiB are refused",
                MAX_RECORD_BYTES / (1024 * 1024)
            ),
            K::NotUtf8 => "the file is not UTF-8 text".into(),
            K::Empty => "the file holds no record".into(),
            K::SeveralRecords(n) => format!("the file holds {n} records where one was expected"),
            K::BadTagLine(l) => format!(
                "'{}' is not a tag line of the form [Name \"value\"]",
                printable(l)
            ),
            K::DuplicateTag(t) => format!("the tag {} is given twice", printable(t)),
            K::MissingTag(t) => format!("the required tag {t} is missing"),
            K::BadTagValue { tag, reason } => format!("tag {}: {reason}", printable(tag)),
            K::BadToken(t) => format!(
                "'{}' is not a move number, a move, a comment or a result",
                printable(t)
            ),
            K::UnterminatedComment => "a comment opened with '{' is never closed".into(),
            K::MissingResult => "the movetext ends without a result token (S, N, draw or -)".into(),
            K::AfterResult(t) => format!(
                "'{}' follows the result token, which must come last",
                printable(t)
            ),
            K::ResultTokenMismatch { tag, token } => {
                format!("the result token '{token}' differs from the Result tag '{tag}'")
            }
            K::Move {
                number,
                side,
                error,
            } => format!("move {number} ({}): {error}", side.name()),
            K::MoveAfterEnd {
                number,
                text,
                outcome,
            } => format!(
                "move {number} '{}': the game is already over ({})",
                printable(text),
                outcome.describe()
            ),
            K::WrongResult { declared, reached } => format!(
                "the Result is '{declared}' but the moves lead to '{}' ({})",
                reached.token(),
                reached.describe()
            ),
        }
    }
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.reason())
        } else {
            f.write_str(&self.reason())
        }
    }
}

impl std::error::Error for RecordError {}

/// Reads every record of a file given as bytes: checks the size and UTF-8 first.
pub fn parse_records_bytes(bytes: &[u8]) -> Result<Vec<Record>, RecordError> {
    if bytes.len() > MAX_RECORD_BYTES {
        return Err(RecordError::new(0, RecordErrorKind::TooLarge(bytes.len())));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_records(text),
        Err(e) => {
            let line = 1 + bytes[..e.valid_up_to()]
                .iter()
                .filter(|&&b| b == b'\n')
                .count();
            Err(RecordError::new(line, RecordErrorKind::NotUtf8))
        }
    }
}

/// Reads every record of a file (NOT-6.1). The moves are not checked here: see
/// [`Record::validate`].
pub fn parse_records(text: &str) -> Result<Vec<Record>, RecordError> {
    if text.len() > MAX_RECORD_BYTES {
        return Err(RecordError::new(0, RecordErrorKind::TooLarge(text.len())));
    }
    let mut p = Parser::new(text);
    let mut out = Vec::new();
    while let Some(r) = p.record()? {
        out.push(r);
    }
    if out.is_empty() {
        return Err(RecordError::new(0, RecordErrorKind::Empty));
    }
    Ok(out)
}

impl Record {
    /// An empty record of a game under `rules` from the variant's start position.
    pub fn new(rules: Rules) -> Record {
        Record {
            variant: rules.variant,
            rules,
            south: "?".into(),
            north: "?".into(),
            date: "????.??.??".into(),
            result: RecordResult::Unfinished,
            start: None,
            termination: None,
            other_tags: Vec::new(),
            comment: None,
            moves: Vec::new(),
            lines: SourceLines::default(),
        }
    }

    /// The record of a game played so far: canonical moves, its rules, its start position
    /// (as a `Start` tag unless it is the standard start) and the result it reached.
    pub fn from_game(game: &Game) -> Record {
        let rules = *game.rules();
        let mut r = Record::new(rules);
        if !game.start().same_as(&Position::start(&rules)) || game.start().ply() != 0 {
            r.start = Some(*game.start());
        }
        r.moves = game.moves().iter().map(RecordMove::from).collect();
        r.result = game.outcome().into();
        r
    }

    /// Reads a file that must hold exactly one record.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut v = parse_records(text)?;
        if v.len() > 1 {
            let line = v[1].lines.first;
            return Err(RecordError::new(
                line,
                RecordErrorKind::SeveralRecords(v.len()),
            ));
        }
        Ok(v.remove(0))
    }

    /// The start position: the `Start` tag, or the variant's start under the rules.
    pub fn start_position(&self) -> Position {
        self.start.unwrap_or_else(|| Position::start(&self.rules))
    }

    /// Looks up any tag by name, including the required ones, as it would be written.
    pub fn tag(&self, name: &str) -> Option<String> {
        match name {
            "Variant" => Some(self.variant.id().into()),
            "Rules" => Some(self.rules.to_string()),
            "South" => Some(self.south.clone()),
            "North" => Some(self.north.clone()),
            "Date" => Some(self.date.clone()),
            "Result" => Some(self.result.token().into()),
            "Start" => self.start.map(|p| p.to_string()),
            "Termination" => self.termination.map(|t| t.as_str().into()),
            _ => self
                .other_tags
                .iter()
                .find(|(n, _)| n == name)
                .map(|(_, v)| v.clone()),
        }
    }

    /// Sets a tag other than the required ones, `Start` and `Termination` (for example
    /// `Event`, `Site`, `Round`), replacing an earlier value.
    pub fn set_tag(&mut self, name: &str, value: &str) {
        if let Some(t) = self.other_tags.iter_mut().find(|(n, _)| n == name) {
            t.1 = value.to_string();
        } else {
            self.other_tags.push((name.to_string(), value.to_string()));
        }
    }

    /// Replays the record (NOT-6.4): every move must be legal in turn, no move may follow
    /// the end of the game by the rules (with repetition from the start position), and if
    /// the termination is `rules` the `Result` must be the outcome reached. Returns the
    /// game, whose `outcome()` is the result by the rules.
    pub fn validate(&self) -> Result<Game, RecordError> {
        let mut game = Game::new(self.start_position(), self.rules);
        for (i, m) in self.moves.iter().enumerate() {
            let outcome = game.outcome();
            if outcome.is_over() {
                return Err(RecordError::new(
                    m.line,
                    RecordErrorKind::MoveAfterEnd {
                        number: i + 1,
                        text: m.text.clone(),
                        outcome,
                    },
                ));
            }
            let side = game.side();
            if let Err(error) = game.play_text(&m.text) {
                return Err(RecordError::new(
                    m.line,
                    RecordErrorKind::Move {
                        number: i + 1,
                        side,
                        error,
                    },
                ));
            }
        }
        let termination = self.termination.or(match self.result {
            RecordResult::Unfinished => None,
            _ => Some(Termination::Rules),
        });
        if termination == Some(Termination::Rules)
            && RecordResult::from(game.outcome()) != self.result
        {
            let line = if self.lines.result_token > 0 {
                self.lines.result_token
            } else {
                self.lines.result_tag
            };
            return Err(RecordError::new(
                line,
                RecordErrorKind::WrongResult {
                    declared: self.result,
                    reached: game.outcome(),
                },
            ));
        }
        Ok(game)
    }

    /// Validates, then rewrites every move in canonical notation (NOT-1).
    pub fn canonical(&self) -> Result<Record, RecordError> {
        let game = self.validate()?;
        let mut r = self.clone();
        for (m, mv) in r.moves.iter_mut().zip(game.moves()) {
            m.text = mv.to_string();
        }
        Ok(r)
    }

    /// The tags in writing order (NOT-6.2): required, then `Start`, `Termination`, `Event`,
    /// `Site`, `Round`, then the others in their order.
    pub fn tags(&self) -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = vec![
            ("Variant".into(), self.variant.id().into()),
            ("Rules".into(), self.rules.to_string()),
            ("South".into(), self.south.clone()),
            ("North".into(), self.north.clone()),
            ("Date".into(), self.date.clone()),
            ("Result".into(), self.result.token().into()),
        ];
        if let Some(p) = &self.start {
            v.push(("Start".into(), p.to_string()));
        }
        if let Some(t) = self.termination {
            v.push(("Termination".into(), t.as_str().into()));
        }
        for name in ["Event", "Site", "Round"] {
            if let Some((n, val)) = self.other_tags.iter().find(|(n, _)| n == name) {
                v.push((n.clone(), val.clone()));
            }
        }
        for (n, val) in &self.other_tags {
            if !matches!(n.as_str(), "Event" | "Site" | "Round") {
                v.push((n.clone(), val.clone()));
            }
        }
        v
    }

    /// The side that makes the first move of the record.
    pub fn first_side(&self) -> Side {
        self.start_position().side()
    }
}

fn escape_tag(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            // A tag is one line: line breaks in a value become spaces.
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// A comment as written: braces cannot nest, so a `}` inside becomes `)`.
fn clean_comment(c: &str) -> String {
    c.replace('}', ")")
}

impl fmt::Display for Record {
    /// The canonical text of NOT-6: tags, a blank line, the movetext broken before 80
    /// columns, the result token, and a final LF.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (n, v) in self.tags() {
            writeln!(f, "[{n} \"{}\"]", escape_tag(&v))?;
        }
        writeln!(f)?;
        let mut tokens: Vec<String> = Vec::new();
        if let Some(c) = &self.comment {
            tokens.push(format!("{{{}}}", clean_comment(c)));
        }
        let mut side = self.first_side();
        let mut number = 1;
        for (i, m) in self.moves.iter().enumerate() {
            match side {
                Side::South => tokens.push(format!("{number}.")),
                Side::North if i == 0 => tokens.push(format!("{number}...")),
                Side::North => {}
            }
            tokens.push(m.text.clone());
            if let Some(c) = &m.comment {
                tokens.push(format!("{{{}}}", clean_comment(c)));
            }
            if side == Side::North {
                number += 1;
            }
            side = side.other();
        }
        tokens.push(self.result.token().into());
        let mut col = 0;
        for t in tokens {
            if col > 0 && col + 1 + t.len() > 79 {
                writeln!(f)?;
                col = 0;
            }
            if col > 0 {
                f.write_str(" ")?;
                col += 1;
            }
            f.write_str(&t)?;
            col += t.len();
        }
        writeln!(f)
    }
}

/// A line-aware reader of record files.
struct Parser<'a> {
    lines: Vec<&'a str>,
    /// Index of the next line to read (0-based).
    next: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        let lines = text
            .split('\n')
            .map(|l| l.strip_suffix('\r').unwrap_or(l))
            .collect();
        Parser { lines, next: 0 }
    }

    /// The next record, or `None` at the end of the file.
    fn record(&mut self) -> Result<Option<Record>, RecordError> {
        while self.next < self.lines.len() && self.lines[self.next].trim().is_empty() {
            self.next += 1;
        }
        if self.next >= self.lines.len() {
            return Ok(None);
        }
        let first = self.next + 1;
        // The tag section.
        let mut tags: Vec<(String, String, usize)> = Vec::new();
        while self.next < self.lines.len() {
            let line = self.lines[self.next].trim();
            if !line.starts_with('[') {
                break;
            }
            let lineno = self.next + 1;
            let (name, value) = parse_tag_line(line).ok_or_else(|| {
                RecordError::new(lineno, RecordErrorKind::BadTagLine(line.into()))
            })?;
            if tags.iter().any(|(n, _, _)| *n == name) {
                return Err(RecordError::new(
                    lineno,
                    RecordErrorKind::DuplicateTag(name),
                ));
            }
            tags.push((name, value, lineno));
            self.next += 1;
        }
        let mut record = build_record(&tags, first)?;
        // The movetext: tokens until the result token; it may be spread over lines and
        // carry comments that span lines.
        self.movetext(&mut record)?;
        Ok(Some(record))
    }

    fn movetext(&mut self, record: &mut Record) -> Result<(), RecordError> {
        let mut comment: Option<(String, usize)> = None; // open comment and its line
        while self.next < self.lines.len() {
            let lineno = self.next + 1;
            let line = self.lines[self.next];
            self.next += 1;
            if comment.is_none() && line.trim_start().starts_with('[') {
                // The next record's tags: this record has no result token.
                return Err(RecordError::new(lineno, RecordErrorKind::MissingResult));
            }
            let mut rest = line;
            loop {
                if let Some((text, _)) = comment.as_mut() {
                    match rest.find('}') {
                        Some(end) => {
                            text.push_str(&rest[..end]);
                            rest = &rest[end + 1..];
                            let (text, _) = comment.take().expect("a comment is open");
                            attach_comment(record, text.trim().to_string());
                        }
                        None => {
                            text.push_str(rest);
                            text.push(' ');
                            break;
                        }
                    }
                }
                rest = rest.trim_start_matches([' ', '\t']);
                if rest.is_empty() {
                    break;
                }
                if let Some(after) = rest.strip_prefix('{') {
                    comment = Some((String::new(), lineno));
                    rest = after;
                    continue;
                }
                let end = rest.find([' ', '\t', '{']).unwrap_or(rest.len());
                let token = &rest[..end];
                rest = &rest[end..];
                if let Some(result) = RecordResult::from_token(token) {
                    record.lines.result_token = lineno;
                    if result != record.result {
                        return Err(RecordError::new(
                            lineno,
                            RecordErrorKind::ResultTokenMismatch {
                                tag: record.result,
                                token: result,
                            },
                        ));
                    }
                    return self.after_result(rest, lineno, record);
                }
                let mv = strip_move_number(token);
                match mv {
                    Some("") => {}
                    Some(mv) if looks_like_move(mv) => record.moves.push(RecordMove {
                        text: mv.to_string(),
                        comment: None,
                        line: lineno,
                    }),
                    _ => {
                        return Err(RecordError::new(
                            lineno,
                            RecordErrorKind::BadToken(token.to_string()),
                        ))
                    }
                }
            }
        }
        if let Some((_, line)) = comment {
            return Err(RecordError::new(line, RecordErrorKind::UnterminatedComment));
        }
        Err(RecordError::new(
            self.lines.len().max(1),
            RecordErrorKind::MissingResult,
        ))
    }

    /// After the result token only comments may follow on its line.
    fn after_result(
        &mut self,
        mut rest: &str,
        lineno: usize,
        record: &mut Record,
    ) -> Result<(), RecordError> {
        loop {
            rest = rest.trim_start_matches([' ', '\t']);
            if rest.is_empty() {
                return Ok(());
            }
            if let Some(after) = rest.strip_prefix('{') {
                match after.find('}') {
                    Some(end) => {
                        attach_comment(record, after[..end].trim().to_string());
                        rest = &after[end + 1..];
                    }
                    None => {
                        return Err(RecordError::new(
                            lineno,
                            RecordErrorKind::UnterminatedComment,
                        ))
                    }
                }
            } else {
                let end = rest.find([' ', '\t']).unwrap_or(rest.len());
                return Err(RecordError::new(
                    lineno,
                    RecordErrorKind::AfterResult(rest[..end].to_string()),
                ));
            }
        }
    }
}

fn attach_comment(record: &mut Record, text: String) {
    let slot = match record.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut record.comment,
    };
    match slot {
        Some(c) => {
            c.push(' ');
            c.push_str(&text);
        }
        None => *slot = Some(text),
    }
}

/// Removes a move number `n.` or `n...` in front of a token; `Some("")` for a bare number,
/// `None` for a malformed one (digits then something other than dots, e.g. `12x`).
fn strip_move_number(token: &str) -> Option<&str> {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Some(token);
    }
    let rest = &token[digits..];
    if let Some(r) = rest.strip_prefix("...") {
        Some(r)
    } else if let Some(r) = rest.strip_prefix('.') {
        Some(r)
    } else if digits == 1 && !rest.contains('.') {
        // A namua move without its row letter (NOT-2.2), e.g. `7L*`.
        Some(token)
    } else {
        None
    }
}

/// The characters of NOT-2.1; the rules decide the rest when the record is replayed.
fn looks_like_move(t: &str) -> bool {
    !t.is_empty()
        && t.len() <= 8
        && t.bytes().all(|c| {
            matches!(
                c,
                b'A' | b'B' | b'a' | b'b' | b'1'
                    ..=b'8' | b'L' | b'R' | b'l' | b'r' | b'<' | b'>' | b'+' | b'*'
            )
        })
        && t.bytes().any(|c| (b'1'..=b'8').contains(&c))
}

/// `[Name "value"]` with `\"` and `\\` escapes (NOT-6.2).
fn parse_tag_line(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let name_len = inner.bytes().take_while(u8::is_ascii_alphabetic).count();
    if name_len == 0 {
        return None;
    }
    let name = &inner[..name_len];
    let rest = inner[name_len..].trim_start_matches([' ', '\t']);
    if rest.len() == inner.len() - name_len {
        return None; // no white space between name and value
    }
    let body = rest.strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = body.chars();
    loop {
        match chars.next()? {
            '\\' => match chars.next()? {
                '"' => value.push('"'),
                '\\' => value.push('\\'),
                _ => return None,
            },
            '"' => break,
            c => value.push(c),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return None;
    }
    Some((name.to_string(), value))
}

fn valid_date(d: &str) -> bool {
    let b = d.as_bytes();
    b.len() == 10
        && b[4] == b'.'
        && b[7] == b'.'
        && b.iter()
            .enumerate()
            .all(|(i, c)| i == 4 || i == 7 || c.is_ascii_digit() || *c == b'?')
}

fn build_record(tags: &[(String, String, usize)], first: usize) -> Result<Record, RecordError> {
    let get = |name: &'static str| -> Result<(&str, usize), RecordError> {
        tags.iter()
            .find(|(n, _, _)| n == name)
            .map(|(_, v, l)| (v.as_str(), *l))
            .ok_or_else(|| RecordError::new(first, RecordErrorKind::MissingTag(name)))
    };
    let bad = |tag: &str, line: usize, reason: String| {
        RecordError::new(
            line,
            RecordErrorKind::BadTagValue {
                tag: tag.into(),
                reason,
            },
        )
    };
    if tags.is_empty() {
        return Err(RecordError::new(
            first,
            RecordErrorKind::MissingTag("Variant"),
        ));
    }
    let (v, vl) = get("Variant")?;
    let variant = Variant::from_id(v).ok_or_else(|| {
        bad(
            "Variant",
            vl,
            format!("'{}' is not kiswahili, kete or kimasai", printable(v)),
        )
    })?;
    let (r, rl) = get("Rules")?;
    let rules = Rules::parse(variant, r).map_err(|e| bad("Rules", rl, e.to_string()))?;
    let (south, _) = get("South")?;
    let (north, _) = get("North")?;
    let (date, dl) = get("Date")?;
    if !valid_date(date) {
        return Err(bad(
            "Date",
            dl,
            format!("'{}' is not YYYY.MM.DD (unknown parts ??)", printable(date)),
        ));
    }
    let (res, resl) = get("Result")?;
    let result = RecordResult::from_token(res).ok_or_else(|| {
        bad(
            "Result",
            resl,
            format!("'{}' is not S, N, draw or -", printable(res)),
        )
    })?;
    let mut record = Record::new(rules);
    record.south = south.into();
    record.north = north.into();
    record.date = date.into();
    record.result = result;
    record.lines = SourceLines {
        first,
        result_tag: resl,
        result_token: 0,
    };
    for (name, value, line) in tags {
        match name.as_str() {
            "Variant" | "Rules" | "South" | "North" | "Date" | "Result" => {}
            "Start" => {
                if Position::variant_of(value).ok() != Some(variant) {
                    return Err(bad(
                        "Start",
                        *line,
                        format!("the position is not a {} position", variant.id()),
                    ));
                }
                let pos = Position::parse(value, &rules)
                    .map_err(|e| bad("Start", *line, e.to_string()))?;
                record.start = Some(pos);
            }
            "Termination" => {
                record.termination = Some(Termination::parse(value).ok_or_else(|| {
                    bad(
                        "Termination",
                        *line,
                        format!(
                            "'{}' is not one of rules, resignation, time, agreement, adjudication, abandoned",
                            printable(value)
                        ),
                    )
                })?);
            }
            _ => record.other_tags.push((name.clone(), value.clone())),
        }
    }
    Ok(record)
}

#[cfg(feature = "serde")]
mod json {
    //! The JSON form of a record: the same content as the text, as plain fields.
    use super::*;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct RecordJson {
        variant: String,
        rules: String,
        south: String,
        north: String,
        date: String,
        result: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        start: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        termination: Option<String>,
        #[serde(default)]
        tags: Vec<TagJson>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        comment: Option<String>,
        moves: Vec<MoveJson>,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct TagJson {
        name: String,
        value: String,
    }

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct MoveJson {
        #[serde(rename = "move")]
        text: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        comment: Option<String>,
    }

    impl Serialize for Record {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            RecordJson {
                variant: self.variant.id().into(),
                rules: self.rules.to_string(),
                south: self.south.clone(),
                north: self.north.clone(),
                date: self.date.clone(),
                result: self.result.token().into(),
                start: self.start.map(|p| p.to_string()),
                termination: self.termination.map(|t| t.as_str().into()),
                tags: self
                    .other_tags
                    .iter()
                    .map(|(n, v)| TagJson {
                        name: n.clone(),
                        value: v.clone(),
                    })
                    .collect(),
                comment: self.comment.clone(),
                moves: self
                    .moves
                    .iter()
                    .map(|m| MoveJson {
                        text: m.text.clone(),
                        comment: m.comment.clone(),
                    })
                    .collect(),
            }
            .serialize(s)
        }
    }

    impl<'de> Deserialize<'de> for Record {
        /// Goes through the same checks as the text form: the tags are rebuilt as tag
        /// lines and checked by the text reader's rules.
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Record, D::Error> {
            use serde::de::Error as _;
            let j = RecordJson::deserialize(d)?;
            let mut tags: Vec<(String, String, usize)> = vec![
                ("Variant".into(), j.variant, 0),
                ("Rules".into(), j.rules, 0),
                ("South".into(), j.south, 0),
                ("North".into(), j.north, 0),
                ("Date".into(), j.date, 0),
                ("Result".into(), j.result, 0),
            ];
            if let Some(s) = j.start {
                tags.push(("Start".into(), s, 0));
            }
            if let Some(t) = j.termination {
                tags.push(("Termination".into(), t, 0));
            }
            for t in j.tags {
                if t.name.is_empty() || !t.name.bytes().all(|c| c.is_ascii_alphabetic()) {
                    return Err(D::Error::custom(format!(
                        "tag name '{}' is not made of ASCII letters",
                        printable(&t.name)
                    )));
                }
                if tags.iter().any(|(n, _, _)| *n == t.name) {
                    return Err(D::Error::custom(format!(
                        "the tag {} is given twice",
                        printable(&t.name)
                    )));
                }
                tags.push((t.name, t.value, 0));
            }
            let mut r = build_record(&tags, 0).map_err(|e| D::Error::custom(e.reason()))?;
            r.comment = j.comment;
            for m in j.moves {
                if !looks_like_move(&m.text) {
                    return Err(D::Error::custom(
                        RecordError::new(0, RecordErrorKind::BadToken(m.text)).reason(),
                    ));
                }
                r.moves.push(RecordMove {
                    text: m.text,
                    comment: m.comment,
                    line: 0,
                });
            }
            Ok(r)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const DONKERS: &str = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n[Date \"1994.10.17\"]\n[Result \"-\"]\n[Site \"Zanzibar\"]\n\n1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -\n";

    #[test]
    fn not_6_5_example_parses_validates_and_round_trips() {
        let r = Record::parse(DONKERS).unwrap();
        assert_eq!(r.south, "Ramadhan");
        assert_eq!(r.tag("Site").as_deref(), Some("Zanzibar"));
        assert_eq!(r.moves.len(), 6);
        assert_eq!(r.moves[3].text, "a6R*");
        let game = r.validate().unwrap();
        assert_eq!(game.outcome(), Outcome::Ongoing);
        assert_eq!(r.to_string(), DONKERS);
    }

    #[test]
    fn tag_line_escapes() {
        assert_eq!(
            parse_tag_line(r#"[Event "a \"b\" \\ c"]"#),
            Some(("Event".into(), "a \"b\" \\ c".into()))
        );
        assert_eq!(parse_tag_line(r#"[Event "a \n"]"#), None);
        assert_eq!(parse_tag_line(r#"[Event "open]"#), None);
        assert_eq!(parse_tag_line(r#"[Ev3nt "x"]"#), None);
        assert_eq!(parse_tag_line(r#"[Event"x"]"#), None);
        assert_eq!(parse_tag_line(r#"[Event "x" y]"#), None);
        assert_eq!(
            parse_tag_line("[Event \"é\"]"),
            Some(("Event".into(), "é".into()))
        );
    }

    #[test]
    fn move_numbers() {
        assert_eq!(strip_move_number("1."), Some(""));
        assert_eq!(strip_move_number("12..."), Some(""));
        assert_eq!(strip_move_number("3.A7L*"), Some("A7L*"));
        assert_eq!(strip_move_number("7L*"), Some("7L*"));
        assert_eq!(strip_move_number("12x"), None);
    }

    #[test]
    fn dates() {
        assert!(valid_date("1994.10.??"));
        assert!(valid_date("????.??.??"));
        assert!(!valid_date("1994-10-17"));
        assert!(!valid_date("1994.1.17"));
    }
}
