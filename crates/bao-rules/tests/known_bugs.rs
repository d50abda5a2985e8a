//! Failing tests for rules bugs found by these tests and not yet fixed. They only run with
//! `cargo test -p bao-rules --features known-bugs`, so that the default run stays green; each
//! one names the file and the fix. Move a test out of here when its bug is fixed.
#![cfg(feature = "known-bugs")]

use bao_rules::{Position, PositionErrorKind, Rules, Variant};

/// NOT-4.1 step 7, position.rs `Position::parse`: counts are parsed saturating at u64::MAX and
/// then summed with plain `+`/`sum()`. Twenty digits overflow the sum: a panic in debug
/// builds ("attempt to add with overflow"; `bao moves` exits 101), and in release builds the
/// sum wraps. Here u64::MAX + 20 (the other counts) + 45 (hands) wraps to exactly 64, so a
/// release build ACCEPTS the position and stores 255 (`as u8`) in b8: 320 seeds in play.
/// Fix: saturating/checked addition (or reject any count above 64 as it is read).
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

/// CLI-8.1 (one error line), options.rs `RulesError`: the messages echo the option text raw,
/// unlike position and move errors, which go through `printable`. A newline or other control
/// character in `--rules` gives a two-line error. Fix: `printable(...)` in the Display of
/// `RulesError` (Syntax, UnknownName, BadValue, Duplicate).
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
