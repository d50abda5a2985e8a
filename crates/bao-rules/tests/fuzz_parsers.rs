//! Parser fuzzing with proptest (cargo-fuzz needs nightly, which this machine lacks):
//! arbitrary strings and bytes, and structure-aware mutations of valid positions, moves and
//! option strings, fed to `Position::variant_of`, `Position::parse`, `Rules::parse`,
//! `MovePattern::parse` and `find_move`. Nothing may panic; errors must be well formed (one
//! line, the right kind); whatever is accepted must be valid and print canonically.

use bao_rules::{find_move, legal_moves, MovePattern, Position, PositionErrorKind, Rules, Variant};
use proptest::prelude::*;

const VALID: &[&str] = &[
    "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0",
    "kete 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N,duty:S,duty:N 0",
    "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24/24 nointro 0",
    "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,1,1,0,0/0,0,2,2,0,2,6,4 N 0/0 block:a4 1",
    "kete 20,25,0,0,0,0,0,0/0,4,0,2,0,0,0,1/0,1,0,1,0,0,0,1/4,3,0,0,0,0,2,0 S 0/0 must:a5 9",
    "kimasai 4,4,6,1,0,1,8,8/2,1,1,8,0,1,0,7/0,0,0,0,0,0,0,1/1,1,4,0,0,2,3,0 S 0/0 - 114",
    "kiswahili",
    "kete",
    "kimasai",
];

const MOVES: &[&str] = &[
    "A6L*", "a5R", "A8R+", "B2L", "7l", "3", "A3>", "A3R>", "5R>", "A1L**", "b7", "A3",
];

const OPTIONS: &[&str] = &[
    "takasia=false,max_plies=200",
    "house_lost_at=end_of_namua",
    "never_ending=draw,repetition=none",
    "house_functional_min=5",
    "capture_compulsory=true,no_intro=never",
    "first_takasa_from_kuu=false",
    "-",
    "",
];

/// Characters that matter to the parsers, plus a few that must be refused.
const ALPHABET: &[char] = &[
    '0', '1', '2', '6', '9', ',', '/', ' ', '\t', ':', '-', '=', 'S', 'N', 'A', 'a', 'B', 'b', 'L',
    'R', '+', '*', '<', '>', 'h', 'o', 'u', 's', 'e', '\n', '\r', '\0', 'é', '٣', '９',
];

/// A mutation of `s`: delete, insert, replace, duplicate or swap, at random places.
fn mutate(base: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        proptest::sample::select(base),
        prop::collection::vec(
            (
                0u8..6,
                any::<prop::sample::Index>(),
                proptest::sample::select(ALPHABET),
                1usize..40,
            ),
            1..5,
        ),
    )
        .prop_map(|(s, ops)| {
            let mut v: Vec<char> = s.chars().collect();
            for (op, at, c, n) in ops {
                let i = if v.is_empty() { 0 } else { at.index(v.len()) };
                match op {
                    0 if !v.is_empty() => {
                        v.remove(i);
                    }
                    1 => v.insert(i, c),
                    2 if !v.is_empty() => v[i] = c,
                    3 => {
                        // A run of digits: huge numbers, leading zeros.
                        for _ in 0..n {
                            v.insert(i, '9');
                        }
                    }
                    4 if !v.is_empty() => {
                        // Duplicate a slice (repeated flags, fields, rows).
                        let j = (i + n).min(v.len());
                        let part: Vec<char> = v[i..j].to_vec();
                        for (k, ch) in part.into_iter().enumerate() {
                            v.insert(j + k, ch);
                        }
                    }
                    _ => {
                        if v.len() > 1 {
                            let j = (i + n) % v.len();
                            v.swap(i, j);
                        }
                    }
                }
            }
            v.into_iter().collect()
        })
}

/// Checks one position text under every variant's default rules and a few options.
fn check_position(text: &str) {
    let variant = Position::variant_of(text);
    if let Err(e) = &variant {
        assert!(
            matches!(
                e.kind,
                PositionErrorKind::Syntax | PositionErrorKind::Variant
            ),
            "{e:?}"
        );
        assert_one_line(&e.to_string());
    }
    for v in Variant::ALL {
        for opts in ["-", "takasia=false", "never_ending=draw"] {
            let Ok(rules) = Rules::parse(v, opts) else {
                continue;
            };
            match Position::parse(text, &rules) {
                Ok(p) => {
                    assert_eq!(Ok(v), variant.clone(), "parsed {text:?} as {v}");
                    let printed = p.to_string();
                    assert!(printed.is_ascii() && !printed.contains("  "));
                    assert_eq!(Position::parse(&printed, &rules), Ok(p), "{printed}");
                    let total: u32 = [bao_rules::Side::South, bao_rules::Side::North]
                        .iter()
                        .map(|&s| {
                            p.ring(s).iter().map(|&c| c as u32).sum::<u32>() + p.hand(s) as u32
                        })
                        .sum();
                    assert_eq!(total, 64);
                    // Whatever parses can be played on: listing moves must not panic.
                    let _ = legal_moves(&p, &rules);
                }
                Err(e) => {
                    let msg = e.to_string();
                    assert!(msg.starts_with(e.kind.as_str()), "{msg}");
                    assert!(msg.starts_with(&format!("{}: ", e.kind.as_str())), "{msg}");
                    assert_one_line(&msg);
                }
            }
        }
    }
}

fn assert_one_line(msg: &str) {
    assert!(!msg.is_empty());
    assert!(
        !msg.chars().any(|c| c.is_control()),
        "control character in {msg:?}"
    );
    assert!(msg.chars().count() < 400, "message too long: {msg:?}");
}

fn check_rules(text: &str) {
    for v in Variant::ALL {
        match Rules::parse(v, text) {
            Ok(r) => {
                let canon = r.to_string();
                assert_eq!(Rules::parse(v, &canon), Ok(r), "{text:?} -> {canon}");
            }
            Err(e) => assert_one_line(&e.to_string()),
        }
    }
}

fn check_move(text: &str) {
    for v in Variant::ALL {
        for namua in [false, true] {
            match MovePattern::parse(text, v, namua) {
                Ok(_) => {
                    // NOT-2.1: at most row, digit, dir, house and a two-character mark.
                    assert!(text.is_ascii() && (1..=6).contains(&text.len()), "{text:?}");
                }
                Err(e) => {
                    assert_eq!(e.category(), "bad_move");
                    assert_one_line(&e.to_string());
                }
            }
        }
    }
    for p in VALID {
        let v = Position::variant_of(p).unwrap();
        let rules = Rules::new(v);
        let pos = Position::parse(p, &rules).unwrap();
        match find_move(&pos, &rules, text) {
            Ok(m) => assert!(legal_moves(&pos, &rules).as_slice().contains(&m)),
            Err(e) => {
                assert!(
                    ["bad_move", "illegal_move", "ambiguous_move"].contains(&e.category()),
                    "{e:?}"
                );
                assert_one_line(&e.to_string());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2500, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn fuzz_position_arbitrary_strings(s in any::<String>()) {
        check_position(&s);
    }

    #[test]
    fn fuzz_position_arbitrary_bytes(b in prop::collection::vec(any::<u8>(), 0..200)) {
        check_position(&String::from_utf8_lossy(&b));
    }

    #[test]
    fn fuzz_position_mutations(s in mutate(VALID)) {
        check_position(&s);
    }

    #[test]
    fn fuzz_position_shaped(s in "(kiswahili|kete|kimasai)[ \t]{1,2}([0-9]{1,3}[,/]){0,40}[0-9]{0,3}[ \t][SNX][ \t][0-9]{1,3}/[0-9]{1,3}[ \t](-|house:[SN]|duty:[SN]|block:[aAbB][0-9]|must:[aA][1-9]|nointro|,){1,4}[ \t][0-9]{1,12}") {
        check_position(&s);
    }

    #[test]
    fn fuzz_rules_arbitrary_and_mutated(s in prop_oneof![any::<String>(), mutate(OPTIONS), "([a-z_]{1,30}=[a-z0-9_]{0,12},?){0,5}"]) {
        check_rules(&s);
    }

    #[test]
    fn fuzz_moves_arbitrary_and_mutated(s in prop_oneof![any::<String>(), mutate(MOVES), "[aAbB]?[0-9][LRlr<>]?[+>]?[*]{0,3}"]) {
        check_move(&s);
    }
}

#[test]
fn huge_and_odd_numbers_are_refused_cleanly() {
    let rules = Rules::new(Variant::Kiswahili);
    let big = "9".repeat(5000);
    for t in [
        format!("kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N {big}"),
        format!("kiswahili 0,0,0,0,0,0,0,{big}/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0"),
        format!("kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S {big}/22 house:S,house:N 0"),
        format!("kiswahili 0,0,0,0,0,0,0,{}/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 0", "9".repeat(16)),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N 4294967296".to_string(),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,-0 S 22/22 house:S,house:N 0".to_string(),
        "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/22 house:S,house:N -1".to_string(),
    ] {
        let e = Position::parse(&t, &rules).unwrap_err();
        assert_one_line(&e.to_string());
    }
    // Leading zeros are accepted on input and printed without (NOT-3.2, NOT-3.6).
    let t = "kiswahili 00,0,0,0,0,0,0,0/0,02,2,6,0,0,0,0/0,0,0,0,006,2,2,0/0,0,0,0,0,0,0,0 S 022/22 house:S,house:N 000";
    assert_eq!(Position::parse(t, &rules).unwrap(), Position::start(&rules));
    for opts in [
        format!("house_functional_min={big}"),
        format!("max_plies={big}"),
        "max_plies=0".into(),
        "house_functional_min=1".into(),
        "house_functional_min=65".into(),
    ] {
        assert!(Rules::parse(Variant::Kiswahili, &opts).is_err(), "{opts}");
    }
}

/// Regression (found by this fuzzer, fixed in 4f2ad70): NOT-4.1 step 7 with counts that
/// overflow a u64 sum. u64::MAX + 20 (the other counts) + 45 (hands) would wrap to exactly 64,
/// and a debug build panicked.
#[test]
fn not_4_1_huge_count_is_a_total_error_not_an_overflow() {
    let rules = Rules::new(Variant::Kiswahili);
    let t = "kiswahili 99999999999999999999,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 22/23 house:S,house:N 0";
    let e = Position::parse(t, &rules).unwrap_err();
    assert_eq!(e.kind, PositionErrorKind::Total);
    // Hands are summed the same way.
    let t = "kiswahili 0,0,0,0,0,0,0,0/0,2,2,6,0,0,0,0/0,0,0,0,6,2,2,0/0,0,0,0,0,0,0,0 S 99999999999999999999/45 house:S,house:N 0";
    assert_eq!(
        Position::parse(t, &rules).unwrap_err().kind,
        PositionErrorKind::Total
    );
}

/// Regression (found by this fuzzer, fixed in 4f2ad70): CLI-8.1, option errors echoed control
/// characters of the input, so a newline in `--rules` gave a two-line error.
#[test]
fn opt_1_1_rules_error_is_one_line() {
    for bad in [
        "\ntakasia=false",
        "takasia=\nfalse",
        "take\tsia=false",
        "takasia",
        "takasia=false,takasia=\u{7f}",
    ] {
        let e = Rules::parse(Variant::Kiswahili, bad)
            .unwrap_err()
            .to_string();
        assert!(!e.chars().any(|c| c.is_control()), "{e:?}");
    }
}
