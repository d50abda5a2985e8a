//! Random playouts (OpenSpiel style): 10,000 complete random games per variant under the
//! default rules, and a smaller series under random rule options, checking after every move
//! the invariants that are cheap (seeds, side, ply, hands, flags, results), and on a sample of
//! moves the expensive ones (round trips, re-parsing, determinism, events replayed onto the
//! board, `moves` = `apply`). Every game must finish: the rules themselves (front row, no
//! move, never-ending moves, repetition, ply cap) end it; a game still going after
//! `PLY_GUARD` plies fails the test.

mod common;
use bao_rules::{legal_moves, playout, random_move, Outcome, Position, Rng, Side, Variant};
use common::*;
use std::collections::HashMap;

/// `games` random games with the cheap checks on every move and the full checks on every
/// position of one game in `sample`; the totals must equal the library's own `playout` with
/// the same seed (both draw with `random_move`, so they play the same games).
fn series(v: Variant, opts: &str, seed: u64, games: u64, sample: u64) {
    let rules = rules(v, opts);
    let start = Position::start(&rules);
    let mut rng = Rng::new(seed);
    let (mut plies, mut south, mut north, mut draws) = (0, 0, 0, 0);
    for g in 0..games {
        let (p, o) = checked_game(&start, &rules, &mut rng, g % sample == 0);
        plies += p;
        match o {
            Outcome::Win(Side::South, _) => south += 1,
            Outcome::Win(Side::North, _) => north += 1,
            _ => draws += 1,
        }
    }
    if rules.max_plies.is_some() {
        // At the cap the library draws one more random move before declaring the draw (the
        // order of BRD-7.3: no legal move is checked before the cap), this loop does not; the
        // random streams then part, so there is nothing to compare.
        return;
    }
    let lib = playout(&start, &rules, seed, games);
    assert_eq!(
        (lib.games, lib.plies, lib.south, lib.north, lib.draws),
        (games, plies, south, north, draws),
        "bao_rules::playout disagrees with the checked loop ({v} {opts})"
    );
}

/// `random_move` is uniform over the legal moves (CLI-9), including the two moves of a house
/// choice point and in positions with never-ending candidates: 60,000 draws, each move's count
/// within 10% of the mean (a binomial standard deviation is about 1%).
#[test]
fn cli_9_random_move_is_uniform() {
    let cases = [
        // kis-06 (chained captures, A8R / A8R+), kis-32 (a never-ending candidate), E30.
        (Variant::Kiswahili, "-", "kiswahili 0,0,0,0,0,0,0,0/0,3,4,8,0,2,5,6/0,2,1,0,8,0,3,4/0,0,0,0,0,0,0,0 S 9/9 house:S,house:N 0"),
        (Variant::Kiswahili, "-", "kiswahili 2,1,2,3,2,4,0,3/0,2,0,0,3,0,0,0/1,0,2,1,0,1,2,1/2,0,1,2,0,1,2,0 S 13/13 - 0"),
        (Variant::Kiswahili, "never_ending=draw", "kiswahili 2,1,2,3,2,4,0,3/0,2,0,0,3,0,0,0/1,0,2,1,0,1,2,1/2,0,1,2,0,1,2,0 S 13/13 - 0"),
        (Variant::Kiswahili, "-", "kiswahili 0,1,2,1,4,8,2,2/10,0,0,10,2,1,0,1/0,2,0,0,0,0,2,0/0,0,2,2,0,2,6,4 S 0/0 - 0"),
        (Variant::Kimasai, "-", "kimasai"),
    ];
    for (v, opts, text) in cases {
        let r = rules(v, opts);
        let p = pos(&r, text);
        let moves = legal_moves(&p, &r);
        let mut counts: HashMap<String, u32> = HashMap::new();
        let mut rng = Rng::new(42);
        let draws = 60_000;
        for _ in 0..draws {
            let m = random_move(&p, &r, &mut rng).expect("a legal move");
            *counts.entry(m.mv.to_string()).or_insert(0) += 1;
        }
        assert_eq!(
            counts.len(),
            moves.len(),
            "moves drawn in {text}: {counts:?}"
        );
        let mean = draws as f64 / moves.len() as f64;
        for (m, c) in &counts {
            assert!(
                (*c as f64 - mean).abs() < 0.1 * mean,
                "{m} drawn {c} times, mean {mean} in {text}"
            );
        }
    }
}

#[test]
fn playout_10000_kiswahili_games_default_rules() {
    series(Variant::Kiswahili, "-", 1, 10_000, 500);
}

#[test]
fn playout_10000_kete_games_default_rules() {
    series(Variant::Kete, "-", 2, 10_000, 500);
}

#[test]
fn playout_10000_kimasai_games_default_rules() {
    series(Variant::Kimasai, "-", 3, 10_000, 500);
}

/// Options that change the course of games the most, a few hundred games each.
#[test]
fn playout_under_non_default_options() {
    let cases: &[(Variant, &str)] = &[
        (Variant::Kiswahili, "never_ending=draw,repetition=none"),
        (Variant::Kiswahili, "never_ending=mover_loses,front_row_empty=illegal"),
        (Variant::Kiswahili, "house_lost_at=first_mtaji_capture,mtaji_house_stop=true,takasia_house_protection=functional"),
        (Variant::Kiswahili, "house_lost_at=end_of_namua,namua_singletons=owned_house,house_functional_min=5"),
        (Variant::Kiswahili, "takasia=false,max_plies=60"),
        (Variant::Kiswahili, "blocker_must_capture=any_capture,takasia_excludes_singletons=true,takasia_house_first_lap_exception=false"),
        (Variant::Kete, "first_takasa_from_kuu=false,lone_house_tax=functional,blocker_must_capture=any_capture"),
        (Variant::Kete, "never_ending=draw,house_functional_min=2"),
        (Variant::Kimasai, "capture_compulsory=true,intro_pits=front_only"),
        (Variant::Kimasai, "no_intro=each_first_move,never_ending=mover_loses,front_row_empty=illegal"),
        (Variant::Kimasai, "no_intro=never,repetition=none,max_plies=150"),
    ];
    for (i, (v, opts)) in cases.iter().enumerate() {
        series(*v, opts, 100 + i as u64, 300, 50);
    }
}
