//! The terms of a game to be made (docs/api.md, "Game terms"): the variant, its rule
//! options, the match format and the clock, parsed by one function with one set of limits for
//! every call that makes a game or promises one: `POST /api/games`, seeks, the pool,
//! challenges and tournaments (and their stored copies, read back the same way).
//!
//! What each call adds is its own policy, not parsing: a tournament requires a clock and
//! takes its match format from its format; a rated game needs an account.

use crate::domain::clock::TimeControl;
use crate::error::{ApiError, ApiResult, Category};
use bao_rules::{MatchFormat, Rules, Variant};

/// Longest rule option text taken (bytes). Every canonical option string fits (all options
/// of OPT-2 changed at once are about 400 characters); longer text is refused before it is
/// parsed.
pub const MAX_RULES: usize = 512;

/// The fields of a request that name a game's terms, as it wrote them.
#[derive(Clone, Copy, Debug, Default)]
pub struct TermsIn<'a> {
    /// `kiswahili`, `kete` or `kimasai`.
    pub variant: &'a str,
    /// `-` or OPT-1 options; `None`: the variant's defaults.
    pub rules: Option<&'a str>,
    /// `single_game` or `best_of_three`; `None`: the rules' `match=` option if they have one,
    /// else the call's default.
    pub match_format: Option<&'a str>,
    /// A CLOCK: `{"initial_ms", "increment_ms"}`, `{"days_per_move"}` or null.
    pub clock: Option<&'a serde_json::Value>,
}

/// The terms of a game, checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// The variant's rules with the match format.
    pub rules: Rules,
    /// The clock, if the game has one.
    pub clock: Option<TimeControl>,
}

impl Terms {
    /// Parses the terms of a request (400 `bad_request`, or `bad_rules` for the rule options,
    /// with a sentence naming the field); `default_match` is the call's match format when the
    /// request names none.
    pub fn parse(t: TermsIn<'_>, default_match: MatchFormat) -> ApiResult<Terms> {
        let variant = parse_variant(t.variant)?;
        let text = t.rules.map(str::trim).unwrap_or("-");
        let mut rules = parse_rules(variant, text)?;
        rules.match_format = match t.match_format {
            Some(m) => parse_match(m)?,
            None if names_match(text) => rules.match_format,
            None => default_match,
        };
        Ok(Terms {
            rules,
            clock: parse_clock(t.clock)?,
        })
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.rules.variant
    }

    /// The rule options without the match format, canonical (`-` or OPTS), as lists and the
    /// store keep them.
    pub fn rules_text(&self) -> String {
        let mut bare = self.rules;
        bare.match_format = Rules::new(bare.variant).match_format;
        bare.to_string()
    }

    /// `single_game` or `best_of_three`.
    pub fn match_text(&self) -> &'static str {
        self.rules.match_format.as_str()
    }

    /// The clock as the store keeps it (its JSON), if any.
    pub fn clock_text(&self) -> Option<String> {
        self.clock
            .as_ref()
            .map(|c| serde_json::to_string(c).unwrap_or_default())
    }
}

/// Whether an option text sets `match=` itself.
fn names_match(text: &str) -> bool {
    text.split(',')
        .any(|o| o.trim_start().starts_with("match="))
}

/// A variant id: `kiswahili`, `kete` or `kimasai`.
pub fn parse_variant(s: &str) -> ApiResult<Variant> {
    Variant::from_id(s).ok_or_else(|| {
        ApiError::bad_request(format!(
            "unknown variant '{}' (kiswahili, kete or kimasai)",
            bao_rules::printable(s)
        ))
    })
}

/// The rule options of `variant` (OPT-1; `-` or empty: the defaults), at most [`MAX_RULES`]
/// bytes.
pub fn parse_rules(variant: Variant, text: &str) -> ApiResult<Rules> {
    if text.len() > MAX_RULES {
        return Err(ApiError::of(
            Category::BadRules,
            format!("the rules options are at most {MAX_RULES} characters"),
        ));
    }
    Rules::parse(variant, text).map_err(|e| {
        ApiError::of(
            Category::BadRules,
            format!("the rules options are wrong: {e}"),
        )
    })
}

/// `single_game` or `best_of_three`.
pub fn parse_match(s: &str) -> ApiResult<MatchFormat> {
    MatchFormat::parse(s)
        .ok_or_else(|| ApiError::bad_request("match must be \"single_game\" or \"best_of_three\""))
}

/// A CLOCK of the contract, within the bounds of docs/api.md "Clocks"; null or absent: no
/// clock.
pub fn parse_clock(v: Option<&serde_json::Value>) -> ApiResult<Option<TimeControl>> {
    match v {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(v) => {
            let c = TimeControl::deserialize(v).map_err(|_| {
                ApiError::bad_request(
                    "clock is {\"initial_ms\": N, \"increment_ms\": M} (real time, milliseconds), {\"days_per_move\": D} (correspondence) or null",
                )
            })?;
            c.check().map_err(ApiError::bad_request)?;
            Ok(Some(c))
        }
    }
}

use serde::Deserialize as _;

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse(
        variant: &str,
        rules: Option<&str>,
        m: Option<&str>,
        clock: Option<serde_json::Value>,
    ) -> ApiResult<Terms> {
        Terms::parse(
            TermsIn {
                variant,
                rules,
                match_format: m,
                clock: clock.as_ref(),
            },
            MatchFormat::SingleGame,
        )
    }

    fn refused(r: ApiResult<Terms>, category: Category, words: &str) {
        let e = r.expect_err("refused");
        assert_eq!(
            (e.status.as_u16(), e.category),
            (400, category),
            "{}",
            e.message
        );
        assert!(e.message.contains(words), "'{words}' in: {}", e.message);
    }

    #[test]
    fn refusals_name_the_field() {
        refused(
            parse("chess", None, None, None),
            Category::BadRequest,
            "variant",
        );
        refused(
            parse("kete", Some("no_such_option=1"), None, None),
            Category::BadRules,
            "rules",
        );
        refused(
            parse("kete", Some(&"r".repeat(300)), None, None),
            Category::BadRules,
            "rules",
        );
        refused(
            parse("kete", Some(&"x".repeat(MAX_RULES + 1)), None, None),
            Category::BadRules,
            &format!("at most {MAX_RULES}"),
        );
        refused(
            parse("kete", Some("takasia=maybe"), None, None),
            Category::BadRules,
            "takasia",
        );
        refused(
            parse("kimasai", Some("takasia=false"), None, None),
            Category::BadRules,
            "rules",
        );
        refused(
            parse("kete", None, Some("best_of_seven"), None),
            Category::BadRequest,
            "match",
        );
        for bad in [
            json!({"initial_ms": -1, "increment_ms": 0}),
            json!({"initial_ms": 50, "increment_ms": 0}),
            json!({"initial_ms": 60000, "increment_ms": 700000}),
            json!({"days_per_move": 0}),
            json!({"days_per_move": 15}),
            json!("5+3"),
            json!({"minutes": 5}),
        ] {
            refused(
                parse("kete", None, None, Some(bad)),
                Category::BadRequest,
                "clock",
            );
        }
    }

    #[test]
    fn every_canonical_option_string_fits() {
        for v in [Variant::Kiswahili, Variant::Kete, Variant::Kimasai] {
            // Every option changed at once, each to its longest value other than the default.
            let def = Rules::new(v);
            let mut r = def;
            for name in Rules::option_names(v) {
                let longest = bao_rules::option_values(name)
                    .split(", ")
                    .map(|x| match x {
                        "2..64" => "64",
                        "1.." => "4294967295",
                        x => x,
                    })
                    .filter(|x| def.get(name).as_deref() != Some(*x))
                    .max_by_key(|x| x.len())
                    .unwrap()
                    .to_string();
                r.set_option(name, &longest).unwrap();
            }
            let text = r.to_string();
            // Every option is written (none left at its default).
            for name in Rules::option_names(v) {
                assert!(text.contains(&format!("{name}=")), "{name} in {text}");
            }
            assert!(text.len() <= MAX_RULES, "{} bytes: {text}", text.len());
            let t = parse(v.id(), Some(&text), None, None).unwrap();
            assert_eq!(t.rules, r);
        }
    }

    #[test]
    fn the_match_comes_from_the_field_then_the_rules_then_the_call() {
        let m = |rules: Option<&str>, field: Option<&str>| {
            parse("kiswahili", rules, field, None).unwrap().match_text()
        };
        assert_eq!(m(None, None), "single_game");
        assert_eq!(m(Some("match=best_of_three"), None), "best_of_three");
        assert_eq!(
            m(Some("match=best_of_three"), Some("single_game")),
            "single_game"
        );
        assert_eq!(m(None, Some("best_of_three")), "best_of_three");
        let t = parse(
            "kiswahili",
            Some("takasia=false,match=single_game"),
            None,
            None,
        )
        .unwrap();
        // The options as kept: without the match, which is its own field.
        assert_eq!(t.rules_text(), "takasia=false");
        assert_eq!(
            parse("kete", Some(" - "), None, None).unwrap().rules_text(),
            "-"
        );
        let c = parse(
            "kete",
            None,
            None,
            Some(json!({"initial_ms": 300000, "increment_ms": 3000})),
        )
        .unwrap();
        assert_eq!(
            c.clock,
            Some(TimeControl::Real {
                initial_ms: 300_000,
                increment_ms: 3_000
            })
        );
        assert_eq!(
            parse("kete", None, None, Some(serde_json::Value::Null))
                .unwrap()
                .clock,
            None
        );
    }
}
