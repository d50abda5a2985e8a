//! A small writer for game records in the format of NOT-6 (tag section, blank line,
//! movetext ending in the result token). Used by `bao match` to save every game.

use bao_rules::{Move, Position, Rules, Side};
use std::fmt::Write;

/// A finished (or unfinished) game, ready to be written as a NOT-6 record.
#[derive(Clone, Debug)]
pub struct Record {
    /// The rules (Variant and Rules tags).
    pub rules: Rules,
    /// South's player name.
    pub south: String,
    /// North's player name.
    pub north: String,
    /// `YYYY.MM.DD`.
    pub date: String,
    /// `S`, `N`, `draw` or `-`.
    pub result: String,
    /// The start position, written as the Start tag when it is not the variant's start.
    pub start: Position,
    /// `None` for `rules`; otherwise the Termination tag value (e.g. `adjudication`).
    pub termination: Option<String>,
    /// Event tag.
    pub event: Option<String>,
    /// Round tag (the game number within a match).
    pub round: Option<String>,
    /// The moves, in canonical notation (NOT-1).
    pub moves: Vec<Move>,
}

/// Quotes a tag value: `\` and `"` are escaped (NOT-6.2).
fn quote(v: &str) -> String {
    let mut s = String::with_capacity(v.len() + 2);
    for c in v.chars() {
        match c {
            '"' => s.push_str("\\\""),
            '\\' => s.push_str("\\\\"),
            '\n' | '\r' => s.push(' '),
            c => s.push(c),
        }
    }
    s
}

impl Record {
    /// The record text (ending with a newline), tags in the order of NOT-6.2.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let rules = self.rules.to_string();
        let tag = |t: &mut String, k: &str, v: &str| {
            let _ = writeln!(t, "[{k} \"{}\"]", quote(v));
        };
        tag(&mut t, "Variant", self.rules.variant.id());
        tag(&mut t, "Rules", &rules);
        tag(&mut t, "South", &self.south);
        tag(&mut t, "North", &self.north);
        tag(&mut t, "Date", &self.date);
        tag(&mut t, "Result", &self.result);
        if self.start != Position::start(&self.rules) {
            tag(&mut t, "Start", &self.start.to_string());
        }
        if let Some(term) = &self.termination {
            tag(&mut t, "Termination", term);
        }
        if let Some(e) = &self.event {
            tag(&mut t, "Event", e);
        }
        if let Some(r) = &self.round {
            tag(&mut t, "Round", r);
        }
        t.push('\n');
        // Movetext: numbers before South moves (NOT-6.3), lines of at most ~80 characters.
        let mut tokens: Vec<String> = Vec::new();
        let mut n = 1;
        for (i, m) in self.moves.iter().enumerate() {
            if m.side() == Side::South {
                tokens.push(format!("{n}."));
                n += 1;
            } else if i == 0 {
                tokens.push("1...".into());
            }
            tokens.push(m.to_string());
        }
        tokens.push(self.result.clone());
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
}

/// Today's date as `YYYY.MM.DD` (UTC), from the system clock.
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}.{m:02}.{d:02}")
}

/// Days since 1970-01-01 to (year, month, day) in the proleptic Gregorian calendar
/// (H. Hinnant's algorithm).
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::{Game, Variant};

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
    }

    #[test]
    fn writes_the_not_6_5_example() {
        // NOT-6.5: the opening of Ramadhan v. Kijumbe, six plies (fixture kis-02).
        let rules = Rules::new(Variant::Kiswahili);
        let mut g = Game::new(Position::start(&rules), rules);
        for m in ["A7L*", "a5R", "A6R*", "a6R*", "A7R*", "a8L*"] {
            g.play_text(m).unwrap();
        }
        let r = Record {
            rules,
            south: "Ramadhan".into(),
            north: "Kijumbe".into(),
            date: "1994.10.17".into(),
            result: "-".into(),
            start: Position::start(&rules),
            termination: None,
            event: None,
            round: None,
            moves: g.moves().to_vec(),
        };
        assert_eq!(
            r.to_text(),
            "[Variant \"kiswahili\"]\n[Rules \"-\"]\n[South \"Ramadhan\"]\n[North \"Kijumbe\"]\n\
             [Date \"1994.10.17\"]\n[Result \"-\"]\n\n1. A7L* a5R 2. A6R* a6R* 3. A7R* a8L* -\n"
        );
        let q = Record {
            south: "a \"b\" \\c".into(),
            ..r
        };
        assert!(q.to_text().contains("[South \"a \\\"b\\\" \\\\c\"]"));
    }
}
