//! Property tests (proptest) over random legal games of each variant, under the defaults and
//! under random rule options. Every position of every game gets the full checks of
//! `common::full_checks` (round trips, re-parsing, determinism, events, `moves` = `apply`) and
//! every move the cheap ones (64 seeds, side, ply, hands, flags, results).

mod common;
use bao_rules::{Position, Rng, Rules, Variant, OPTION_NAMES};
use common::*;
use proptest::prelude::*;

/// The values of OPT-2 for one option, as written in option strings.
fn values(name: &str) -> Vec<String> {
    let fixed: &[&str] = match name {
        "house_lost_at" => &["emptied_or_captured", "first_mtaji_capture", "end_of_namua"],
        "lone_house_tax" => &["functional", "keep_min"],
        "namua_singletons" => &["functional_house", "owned_house"],
        "takasia_house_protection" => &["owned", "functional"],
        "blocker_must_capture" => &["off", "first_capture", "any_capture"],
        "front_row_empty" => &["end_of_move", "illegal"],
        "never_ending" => &["illegal", "draw", "mover_loses"],
        "repetition" => &["threefold_draw", "none"],
        "match" => &["best_of_three", "single_game"],
        "intro_pits" => &["any", "front_only"],
        "no_intro" => &["game_first_move", "each_first_move", "never"],
        // Thresholds from the lowest to beyond any pit (64 disables the house rules).
        "house_functional_min" => &["2", "3", "5", "6", "7", "9", "64"],
        "max_plies" => &["none", "1", "7", "40", "150"],
        _ => &["true", "false"],
    };
    fixed.iter().map(|s| s.to_string()).collect()
}

/// A random option string for `v`: each applicable option is left out or given a random value,
/// in a random order.
fn arb_options(v: Variant) -> impl Strategy<Value = String> {
    let names: Vec<&'static str> = OPTION_NAMES
        .iter()
        .filter(|(_, on)| on[v.index()])
        .map(|(n, _)| *n)
        .collect();
    let items: Vec<BoxedStrategy<Option<String>>> = names
        .into_iter()
        .map(|n| {
            let vals = values(n);
            prop_oneof![
                1 => Just(None),
                1 => proptest::sample::select(vals).prop_map(move |x| Some(format!("{n}={x}"))),
            ]
            .boxed()
        })
        .collect();
    (items, any::<prop::sample::Index>()).prop_map(|(items, rot)| {
        let mut given: Vec<String> = items.into_iter().flatten().collect();
        if !given.is_empty() {
            let k = rot.index(given.len());
            given.rotate_left(k);
        }
        if given.is_empty() {
            "-".to_string()
        } else {
            given.join(",")
        }
    })
}

fn arb_variant() -> impl Strategy<Value = Variant> {
    proptest::sample::select(Variant::ALL.to_vec())
}

/// One full-checked random game from the start position of `rules`.
fn game(rules: &Rules, seed: u64) {
    let start = Position::start(rules);
    let mut rng = Rng::new(seed);
    checked_game(&start, rules, &mut rng, true);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// OPT-1: a valid option string parses; its canonical form (Display) parses back to the
    /// same rules, and every option reads back as given.
    #[test]
    fn opt_1_option_strings_round_trip((v, opts) in arb_variant().prop_flat_map(|v| (Just(v), arb_options(v)))) {
        let r = Rules::parse(v, &opts).unwrap_or_else(|e| panic!("{opts}: {e}"));
        let canon = r.to_string();
        let again = Rules::parse(v, &canon).unwrap_or_else(|e| panic!("{canon}: {e}"));
        prop_assert_eq!(again, r);
        if opts != "-" {
            for item in opts.split(',') {
                let (n, x) = item.split_once('=').unwrap();
                prop_assert_eq!(r.get(n), Some(x.to_string()));
            }
        }
    }

    /// Random games under the default rules of each variant.
    #[test]
    fn random_games_default_rules(v in arb_variant(), seed in any::<u64>()) {
        game(&Rules::new(v), seed);
    }

    /// Random games under random rule options.
    #[test]
    fn random_games_random_options(
        (v, opts) in arb_variant().prop_flat_map(|v| (Just(v), arb_options(v))),
        seed in any::<u64>(),
    ) {
        let r = rules(v, &opts);
        game(&r, seed);
    }
}
