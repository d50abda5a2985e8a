//! Game records (NOT-6): reading uploaded files and writing downloads.
//!
//! Reading validates every record as NOT-6.4 says: the moves are replayed from the start
//! position with the rules crate, and the result must agree with the rules unless the
//! Termination tag says otherwise.

use bao_rules::{find_move, Game, Move, Outcome, Position, Rules, Side, Variant};
use std::fmt::Write as _;

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
    /// Result tag: `-`, `S`, `N` or `draw`.
    pub result: String,
    /// Termination tag; `None` when absent.
    pub termination: Option<String>,
    /// Round tag.
    pub round: Option<String>,
    /// The moves, canonical.
    pub moves: Vec<Move>,
}

/// Why a record file was refused: the 1-based line and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordError {
    /// The NOT-5 category of the underlying problem, or `bad_request` for the format.
    pub category: &'static str,
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "line {}: {}", self.line, self.reason)
    }
}

fn err(category: &'static str, line: usize, reason: impl Into<String>) -> RecordError {
    RecordError {
        category,
        line,
        reason: reason.into(),
    }
}

/// Parses `[Name "value"]`.
fn parse_tag(line: &str, n: usize) -> Result<(String, String), RecordError> {
    let bad = |why: &str| err("bad_request", n, format!("bad tag line: {why}"));
    let inner = line
        .strip_prefix('[')
        .and_then(|s| s.strip_suffix(']'))
        .ok_or_else(|| bad("a tag is written [Name \"value\"]"))?;
    let (name, rest) = inner
        .split_once(' ')
        .ok_or_else(|| bad("a tag is written [Name \"value\"]"))?;
    if name.is_empty() || !name.bytes().all(|b| b.is_ascii_alphabetic()) {
        return Err(bad("a tag name is made of ASCII letters"));
    }
    let rest = rest.trim_start();
    let body = rest
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .ok_or_else(|| bad("the value must be in double quotes"))?;
    let mut value = String::new();
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some(c @ ('"' | '\\')) => value.push(c),
                _ => return Err(bad("only \\\" and \\\\ may follow a backslash")),
            },
            '"' => return Err(bad("a quote inside a value is written \\\"")),
            c => value.push(c),
        }
    }
    Ok((name.to_string(), value))
}

const RESULTS: [&str; 4] = ["-", "S", "N", "draw"];
const TERMINATIONS: [&str; 6] = [
    "rules",
    "resignation",
    "time",
    "agreement",
    "adjudication",
    "abandoned",
];

/// Reads every record of a file (NOT-6.1), checking each (NOT-6.4).
pub fn parse_records(text: &str) -> Result<Vec<ParsedRecord>, RecordError> {
    let lines: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let mut i = 0;
    let mut out = Vec::new();
    loop {
        while i < lines.len() && lines[i].trim().is_empty() {
            i += 1;
        }
        if i >= lines.len() {
            break;
        }
        let (rec, next) = parse_one(&lines, i)?;
        out.push(rec);
        i = next;
    }
    if out.is_empty() {
        return Err(err("bad_request", 1, "the file holds no record"));
    }
    Ok(out)
}

/// A movetext token with its line.
struct Tok<'a> {
    text: &'a str,
    line: usize,
}

fn parse_one(lines: &[&str], mut i: usize) -> Result<(ParsedRecord, usize), RecordError> {
    let first = i + 1;
    let mut tags: Vec<(String, String, usize)> = Vec::new();
    while i < lines.len() && lines[i].trim_start().starts_with('[') {
        let (k, v) = parse_tag(lines[i].trim(), i + 1)?;
        if tags.iter().any(|(n, _, _)| *n == k) {
            return Err(err("bad_request", i + 1, format!("tag {k} is given twice")));
        }
        tags.push((k, v, i + 1));
        i += 1;
    }
    if tags.is_empty() {
        return Err(err(
            "bad_request",
            i + 1,
            "a record starts with its tags, such as [Variant \"kiswahili\"]",
        ));
    }
    let tag = |name: &str| tags.iter().find(|(n, _, _)| n == name);
    let required = |name: &str| {
        tag(name).ok_or_else(|| {
            err(
                "bad_request",
                first,
                format!("the required tag {name} is missing"),
            )
        })
    };
    let (_, vtext, vline) = required("Variant")?;
    let variant = Variant::from_id(vtext).ok_or_else(|| {
        err(
            "bad_request",
            *vline,
            format!("unknown variant '{vtext}' (kiswahili, kete or kimasai)"),
        )
    })?;
    let (_, rtext, rline) = required("Rules")?;
    let rules = Rules::parse(variant, rtext).map_err(|e| err("bad_rules", *rline, e.to_string()))?;
    let south = required("South")?.1.clone();
    let north = required("North")?.1.clone();
    let date = required("Date")?.1.clone();
    let (_, result, res_line) = required("Result")?;
    if !RESULTS.contains(&result.as_str()) {
        return Err(err(
            "bad_request",
            *res_line,
            format!("Result must be S, N, draw or -, not '{result}'"),
        ));
    }
    let start = match tag("Start") {
        None => Position::start(&rules),
        Some((_, s, l)) => {
            let v = Position::variant_of(s).map_err(|e| err("bad_position", *l, e.to_string()))?;
            if v != variant {
                return Err(err(
                    "bad_position",
                    *l,
                    format!("the Start position is {v}, but Variant is {variant}"),
                ));
            }
            Position::parse(s, &rules).map_err(|e| err("bad_position", *l, e.to_string()))?
        }
    };
    let termination = match tag("Termination") {
        None => None,
        Some((_, t, l)) => {
            if !TERMINATIONS.contains(&t.as_str()) {
                return Err(err(
                    "bad_request",
                    *l,
                    format!("unknown Termination '{t}' ({})", TERMINATIONS.join(", ")),
                ));
            }
            Some(t.clone())
        }
    };
    let round = tag("Round").map(|t| t.1.clone());
    // The blank line between tags and movetext.
    if i < lines.len() && !lines[i].trim().is_empty() {
        return Err(err(
            "bad_request",
            i + 1,
            "a blank line must separate the tags from the moves",
        ));
    }
    // Movetext: tokens up to and including the result token.
    let mut toks: Vec<Tok> = Vec::new();
    let mut in_comment = false;
    let mut ended = false;
    while i < lines.len() && !ended {
        let line = lines[i];
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                match rest.find('}') {
                    Some(k) => {
                        rest = &rest[k + 1..];
                        in_comment = false;
                    }
                    None => rest = "",
                }
                continue;
            }
            rest = rest.trim_start();
            if rest.is_empty() {
                break;
            }
            if let Some(r) = rest.strip_prefix('{') {
                in_comment = true;
                rest = r;
                continue;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let t = &rest[..end];
            rest = &rest[end..];
            if ended {
                return Err(err(
                    "bad_request",
                    i + 1,
                    format!("'{}' comes after the result token", bao_rules::printable(t)),
                ));
            }
            toks.push(Tok { text: t, line: i + 1 });
            if RESULTS.contains(&t) {
                ended = true;
            }
        }
        i += 1;
    }
    if in_comment {
        return Err(err("bad_request", i, "a comment { ... } is not closed"));
    }
    let Some(last) = toks.last().filter(|_| ended) else {
        return Err(err(
            "bad_request",
            i.max(1),
            "the moves must end with the result token (S, N, draw or -)",
        ));
    };
    if last.text != result {
        return Err(err(
            "bad_request",
            last.line,
            format!(
                "the result token '{}' differs from the Result tag '{result}'",
                last.text
            ),
        ));
    }
    let mut game = Game::new(start, rules);
    let n = toks.len() - 1;
    for t in &toks[..n] {
        if is_move_number(t.text) {
            continue;
        }
        if game.outcome().is_over() {
            return Err(err(
                "game_over",
                t.line,
                format!(
                    "move '{}' comes after the end of the game ({})",
                    bao_rules::printable(t.text),
                    game.outcome().describe()
                ),
            ));
        }
        let m = find_move(game.position(), &rules, t.text).map_err(|e| {
            err(
                e.category(),
                t.line,
                format!("move {} {e}", game.moves().len() + 1),
            )
        })?;
        game.play(&m);
    }
    let term_rules = match &termination {
        Some(t) => t == "rules",
        None => result != "-",
    };
    if term_rules {
        let reached = game.outcome();
        if reached.token() != result {
            return Err(err(
                "bad_request",
                *res_line,
                format!(
                    "Result is '{result}' but the moves give '{}' ({}); a game ended otherwise needs a Termination tag",
                    reached.token(),
                    reached.describe()
                ),
            ));
        }
    }
    Ok((
        ParsedRecord {
            rules,
            start,
            south,
            north,
            date,
            result: result.clone(),
            termination,
            round,
            moves: game.moves().to_vec(),
        },
        i,
    ))
}

/// `n.` or `n...` (NOT-6.3).
fn is_move_number(t: &str) -> bool {
    let digits = t.trim_end_matches('.');
    digits.len() < t.len()
        && !digits.is_empty()
        && digits.bytes().all(|b| b.is_ascii_digit())
        && matches!(t.len() - digits.len(), 1 | 3)
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
    /// `-`, `S`, `N`, `draw`.
    pub result: &'a str,
    /// Termination other than `rules`.
    pub termination: Option<&'a str>,
    /// Site / Event.
    pub event: Option<&'a str>,
    /// Round (game number in a match).
    pub round: Option<u32>,
    /// The moves.
    pub moves: &'a [Move],
}

fn quote(v: &str) -> String {
    let mut s = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            c if c.is_control() => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

/// Writes one record (NOT-6), ending with a newline.
pub fn write_record(r: &RecordOut) -> String {
    let mut t = String::new();
    let mut tag = |k: &str, v: &str| {
        let _ = writeln!(t, "[{k} \"{}\"]", quote(v));
    };
    tag("Variant", r.rules.variant.id());
    tag("Rules", &r.rules.to_string());
    tag("South", if r.south.is_empty() { "?" } else { r.south });
    tag("North", if r.north.is_empty() { "?" } else { r.north });
    tag("Date", r.date);
    tag("Result", r.result);
    if *r.start != Position::start(r.rules) {
        tag("Start", &r.start.to_string());
    }
    if let Some(term) = r.termination.filter(|t| *t != "rules") {
        tag("Termination", term);
    }
    if let Some(e) = r.event {
        tag("Event", e);
    }
    if let Some(n) = r.round {
        tag("Round", &n.to_string());
    }
    t.push('\n');
    let mut tokens: Vec<String> = Vec::new();
    let mut n = 1;
    for (i, m) in r.moves.iter().enumerate() {
        if m.side() == Side::South {
            tokens.push(format!("{n}."));
            n += 1;
        } else if i == 0 {
            tokens.push("1...".into());
        }
        tokens.push(m.to_string());
    }
    tokens.push(r.result.to_string());
    let mut line = String::new();
    for tok in tokens {
        if !line.is_empty() && line.len() + 1 + tok.len() > 79 {
            t.push_str(&line);
            t.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&tok);
    }
    t.push_str(&line);
    t.push('\n');
    t
}

/// The result token and sentence of a game that ended by `termination` with `result`.
pub fn forced_text(result: &str, termination: &str) -> String {
    let winner = Side::from_letter(result);
    match (winner, termination) {
        (Some(w), "resignation") => {
            format!("{} resigned: {} has won", w.other().name(), w.name())
        }
        (Some(w), t) => format!("{} has won ({t})", w.name()),
        (None, t) if result == "draw" => format!("drawn ({t})"),
        (None, t) => format!("unfinished ({t})"),
    }
}

/// The outcome's result token.
pub fn outcome_token(o: Outcome) -> &'static str {
    o.token()
}

#[cfg(test)]
mod tests {
    use super::*;

    // NOT-6.5: the example record of the spec, fixture kis-02's six plies.
    const EXAMPLE: &str = "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n[Date \"1994.10.17\"]\n[Result \"-\"]\n[Site \"Zanzibar\"]\n\n1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -\n";

    #[test]
    fn not_6_5_example_reads_and_writes_back() {
        let recs = parse_records(EXAMPLE).unwrap();
        assert_eq!(recs.len(), 1);
        let r = &recs[0];
        assert_eq!(r.south, "Ramadhan");
        assert_eq!(r.moves.len(), 6);
        assert_eq!(r.result, "-");
        let out = write_record(&RecordOut {
            rules: &r.rules,
            start: &r.start,
            south: &r.south,
            north: &r.north,
            date: &r.date,
            result: &r.result,
            termination: None,
            event: None,
            round: None,
            moves: &r.moves,
        });
        // The Site tag is not written back; everything else is as in the spec's example.
        assert_eq!(out, EXAMPLE.replace("[Site \"Zanzibar\"]\n", ""));
        // Written records read back the same.
        let again = parse_records(&out).unwrap();
        assert_eq!(again[0].moves, r.moves);
    }

    #[test]
    fn two_records_comments_and_aliases() {
        let text = format!(
            "{EXAMPLE}\n[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"?\"]\n[North \"?\"]\n[Date \"????.??.??\"]\n[Result \"-\"]\n\n1. 7l* {{a comment\nover lines}} a5R\n-\n"
        );
        let recs = parse_records(&text).unwrap();
        assert_eq!(recs.len(), 2);
        assert_eq!(recs[1].moves.len(), 2);
        assert_eq!(recs[1].moves[0].to_string(), "A7L*");
    }

    #[test]
    fn errors_name_the_line() {
        let bad = EXAMPLE.replace("a6R*", "a6Q");
        let e = parse_records(&bad).unwrap_err();
        assert_eq!((e.line, e.category), (9, "bad_move"), "{e}");
        let bad = EXAMPLE.replace("a8L*", "a1L*");
        let e = parse_records(&bad).unwrap_err();
        assert_eq!((e.line, e.category), (9, "illegal_move"), "{e}");
        let bad = EXAMPLE.replace("[Result \"-\"]", "[Result \"S\"]");
        assert!(parse_records(&bad).is_err());
        let bad = EXAMPLE.replace("[Variant \"kiswahili\"]\n", "");
        assert!(parse_records(&bad).unwrap_err().reason.contains("Variant"));
        assert!(parse_records("").is_err());
        assert!(parse_records("1. A7L* -").is_err());
        // A result the moves do not reach is accepted with a Termination other than rules.
        let resigned = EXAMPLE
            .replace("[Result \"-\"]", "[Result \"N\"]\n[Termination \"resignation\"]")
            .replace("a8L* -", "a8L* N");
        assert_eq!(parse_records(&resigned).unwrap()[0].result, "N");
    }
}
