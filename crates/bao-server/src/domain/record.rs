//! Game records (NOT-6) for uploads and downloads, through the rules crate's reader and
//! writer (`bao_rules::Record`): every uploaded record is replayed (NOT-6.4) before it is
//! stored.

use bao_rules::{Move, Position, Record, RecordMove, RecordResult, Rules, Termination};

/// One record read from a file and checked.
#[derive(Clone, Debug)]
pub struct ParsedRecord {
    /// The rules (Variant and Rules tags).
    pub rules: Rules,
    /// The start position (Start tag, or the variant's start).
    pub start: Position,
    /// South tag.
    pub south: String,
    /// North tag.
    pub north: String,
    /// Date tag.
    pub date: String,
    /// Result tag.
    pub result: RecordResult,
    /// Termination tag; `None` when absent.
    pub termination: Option<Termination>,
    /// The moves, canonical.
    pub moves: Vec<Move>,
}

/// Why a record file was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// A category of docs/api.md: the move's category for a refused move, `game_over`,
    /// `too_large`, or `bad_request` for the format.
    pub category: &'static str,
    /// 1-based line number (0: the whole file).
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: {}", self.line, self.reason)
        } else {
            f.write_str(&self.reason)
        }
    }
}

impl From<bao_rules::RecordError> for RecordError {
    fn from(e: bao_rules::RecordError) -> Self {
        RecordError {
            category: match e.category() {
                "bad_record" => "bad_request",
                c => c,
            },
            line: e.line,
            reason: e.reason(),
        }
    }
}

/// Reads every record of a file (NOT-6.1) and checks each by replay (NOT-6.4).
pub fn parse_records(text: &str) -> Result<Vec<ParsedRecord>, RecordError> {
    let recs = bao_rules::parse_records(text)?;
    let mut out = Vec::with_capacity(recs.len());
    for r in recs {
        let game = r.validate()?;
        out.push(ParsedRecord {
            rules: r.rules,
            start: r.start_position(),
            // The same gate as every other name (docs/api.md, "Names"); `?` is NOT-6.2's
            // unknown.
            south: super::names::clean_name(Some(&r.south), "?"),
            north: super::names::clean_name(Some(&r.north), "?"),
            date: r.date.clone(),
            result: r.result,
            termination: r.termination,
            moves: game.moves().to_vec(),
        });
    }
    Ok(out)
}

/// A record to write.
#[derive(Clone, Debug)]
pub struct RecordOut<'a> {
    /// Rules.
    pub rules: &'a Rules,
    /// Start position.
    pub start: &'a Position,
    /// South's name.
    pub south: &'a str,
    /// North's name.
    pub north: &'a str,
    /// `YYYY.MM.DD`.
    pub date: &'a str,
    /// The result.
    pub result: RecordResult,
    /// Termination other than `rules`.
    pub termination: Option<Termination>,
    /// Round (game number in a match).
    pub round: Option<u32>,
    /// The moves.
    pub moves: &'a [Move],
}

/// Writes one record (NOT-6), ending with a newline.
pub fn write_record(r: &RecordOut) -> String {
    let mut rec = Record::new(*r.rules);
    rec.south = if r.south.is_empty() {
        "?".into()
    } else {
        r.south.to_string()
    };
    rec.north = if r.north.is_empty() {
        "?".into()
    } else {
        r.north.to_string()
    };
    rec.date = r.date.to_string();
    rec.result = r.result;
    if *r.start != Position::start(r.rules) {
        rec.start = Some(*r.start);
    }
    rec.termination = r.termination.filter(|t| *t != Termination::Rules);
    if let Some(n) = r.round {
        rec.set_tag("Round", &n.to_string());
    }
    rec.moves = r.moves.iter().map(RecordMove::from).collect();
    rec.to_string()
}

/// The forced end of a game (result, termination) from its stored result and Termination
/// tag: `None` when the rules ended it or it goes on. A match abandoned before any move is
/// closed with Result `-` and Termination `abandoned` (NOT-6.2).
pub fn forced_of(
    result: RecordResult,
    termination: Option<Termination>,
) -> Option<(RecordResult, Termination)> {
    match termination {
        Some(t)
            if t != Termination::Rules
                && (result != RecordResult::Unfinished || t == Termination::Abandoned) =>
        {
            Some((result, t))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::Side;

    // NOT-6.5: the example record of the spec, fixture kis-02's six plies.
    const EXAMPLE: &str = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n[Date \"1994.10.17\"]\n[Result \"-\"]\n[Site \"Zanzibar\"]\n\n1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -\n";

    #[test]
    fn not_6_5_example_reads_and_writes_back() {
        let recs = parse_records(EXAMPLE).unwrap();
        assert_eq!(recs.len(), 1);
        let r = &recs[0];
        assert_eq!(r.south, "Ramadhan");
        assert_eq!(r.moves.len(), 6);
        let out = write_record(&RecordOut {
            rules: &r.rules,
            start: &r.start,
            south: &r.south,
            north: &r.north,
            date: &r.date,
            result: r.result,
            termination: None,
            round: None,
            moves: &r.moves,
        });
        // The Site tag is not kept; everything else is as in the spec's example.
        assert_eq!(out, EXAMPLE.replace("[Site \"Zanzibar\"]\n", ""));
    }

    #[test]
    fn errors_name_the_line_and_category() {
        let e = parse_records(&EXAMPLE.replace("a8L*", "a1L*")).unwrap_err();
        assert_eq!((e.line, e.category), (9, "illegal_move"), "{e}");
        assert!(e.to_string().starts_with("line 9: "));
        let e = parse_records(&EXAMPLE.replace("[Variant \"kiswahili\"]\n", "")).unwrap_err();
        assert_eq!(e.category, "bad_request");
        assert!(parse_records("").is_err());
        // A result the moves do not reach needs a Termination other than rules.
        assert!(parse_records(
            &EXAMPLE
                .replace("[Result \"-\"]", "[Result \"N\"]")
                .replace("a8L* -", "a8L* N")
        )
        .is_err());
        let resigned = EXAMPLE
            .replace(
                "[Result \"-\"]",
                "[Result \"N\"]\n[Termination \"resignation\"]",
            )
            .replace("a8L* -", "a8L* N");
        let r = parse_records(&resigned).unwrap();
        assert_eq!(
            (r[0].result, r[0].termination),
            (
                RecordResult::Win(Side::North),
                Some(Termination::Resignation)
            )
        );
    }
}
