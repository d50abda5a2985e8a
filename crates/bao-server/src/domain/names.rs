//! The one gate for every name a player gives (create, join, the South/North tags of an
//! uploaded record): what is stored is what every page shows, the same on SQLite and
//! PostgreSQL.

use unicode_properties::{GeneralCategory, UnicodeGeneralCategory};

/// Longest name kept, in characters (Unicode scalar values).
pub const MAX_NAME: usize = 40;

/// A player's name as stored: control and format characters (Unicode categories Cc and Cf:
/// NUL, BEL, zero-width spaces and joiners, bidi controls, ...) removed, every run of white
/// space made one space, trimmed, cut to [`MAX_NAME`] characters; `default` when nothing is
/// left. PostgreSQL refuses NUL in text, so removing it here is also what keeps the two
/// databases storing the same name.
pub fn clean_name(name: Option<&str>, default: &str) -> String {
    let mut out = String::new();
    let mut count = 0;
    let mut space = false;
    for c in name.unwrap_or("").chars() {
        if matches!(
            c.general_category(),
            GeneralCategory::Control | GeneralCategory::Format
        ) {
            continue;
        }
        if c.is_whitespace() {
            space = !out.is_empty();
            continue;
        }
        // At most MAX_NAME characters, the separating space included.
        if space {
            if count + 1 >= MAX_NAME {
                break;
            }
            out.push(' ');
            count += 1;
            space = false;
        }
        if count >= MAX_NAME {
            break;
        }
        out.push(c);
        count += 1;
    }
    if out.is_empty() {
        default.to_string()
    } else {
        out
    }
}

/// The text a player gave, as stored: control and format characters removed (NUL,
/// zero-width and bidi controls), spaces within a line made one, trimmed; with `lines`,
/// line breaks kept (at most one empty line in a row), else made spaces.
pub fn clean_text(text: &str, lines: bool) -> String {
    let mut out: Vec<String> = Vec::new();
    for line in text.split('\n') {
        let mut l = String::new();
        let mut space = false;
        for c in line.chars() {
            if c.is_whitespace() {
                space = !l.is_empty();
                continue;
            }
            if matches!(
                c.general_category(),
                GeneralCategory::Control | GeneralCategory::Format
            ) {
                continue;
            }
            if space {
                l.push(' ');
                space = false;
            }
            l.push(c);
        }
        out.push(l);
    }
    if !lines {
        return out
            .into_iter()
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ");
    }
    let mut kept: Vec<String> = Vec::new();
    for l in out {
        if l.is_empty() && kept.last().is_none_or(|p: &String| p.is_empty()) {
            continue;
        }
        kept.push(l);
    }
    while kept.last().is_some_and(|l| l.is_empty()) {
        kept.pop();
    }
    kept.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_and_format_characters_go() {
        // NUL, BEL (Cc), zero-width space U+200B, right-to-left override U+202E, BOM (Cf).
        assert_eq!(
            clean_name(Some("A\u{0}s\u{7}h\u{200B}a\u{202E}\u{FEFF}"), "P"),
            "Asha"
        );
    }

    #[test]
    fn trimmed_spaces_collapsed() {
        assert_eq!(clean_name(Some("  Asha \t\n  Juma  "), "P"), "Asha Juma");
        // A space made of a NUL and a tab is still one space.
        assert_eq!(clean_name(Some("Asha\u{0}\t Juma"), "P"), "Asha Juma");
    }

    #[test]
    fn at_most_forty_characters() {
        let long = "ñ".repeat(200_000);
        let n = clean_name(Some(&long), "P");
        assert_eq!(n.chars().count(), 40);
        // No trailing space when the cut falls on one.
        let s = format!("{} {}", "a".repeat(39), "b".repeat(10));
        assert_eq!(clean_name(Some(&s), "P"), "a".repeat(39));
    }

    #[test]
    fn empty_gives_the_default() {
        assert_eq!(clean_name(None, "Guest"), "Guest");
        assert_eq!(clean_name(Some(" \u{0}\u{200D} "), "Guest"), "Guest");
    }
}
