//! A lesson writer's tool: searches small random positions in which a goal is reached by one
//! or two legal moves and missed by at least one, and prints the smallest ones found.
//!
//! `cargo run -p bao-learn --example find -- VARIANT STAGE FLAGS GOAL_JSON [TRIES] [SEED] [EXTRA]`
//! * STAGE: `namua` (South holds most seeds in hand) or `mtaji` (both hands empty; the seeds
//!   not used go into North's back row, where they change nothing for South's next move);
//! * FLAGS: the position's flags (`-`, `house:S,house:N`, ...); a house flag puts at least
//!   six seeds in that house;
//! * EXTRA, words in one argument: `nocap` (South has no capture move), `nowin` (no legal move
//!   ends the game), `one` (exactly one move reaches the goal), `back` (the solutions start in
//!   the back row).
//!
//! The committed lessons are checked by the tests, not by this search.

use bao_learn::Goal;
use bao_rules::{legal_moves, Rng, Rules, Setup, Side, Variant};

fn main() {
    let a: Vec<String> = std::env::args().skip(1).collect();
    let variant = Variant::from_id(&a[0]).expect("variant");
    let namua = a[1] == "namua";
    let flags = a[2].clone();
    let goal: Goal = serde_json::from_str(&a[3]).expect("goal");
    let tries: usize = a.get(4).map_or(200_000, |s| s.parse().unwrap());
    let mut rng = Rng::new(a.get(5).map_or(1, |s| s.parse().unwrap()));
    let extra = a.get(6).cloned().unwrap_or_default();
    let rules = Rules::new(variant);
    let mut found: Vec<(usize, String, Vec<String>)> = Vec::new();
    for _ in 0..tries {
        let mut board = [[0u8; 16]; 2];
        let pick = |rng: &mut Rng, p: usize, max: usize| -> u8 {
            if rng.below(100) < p {
                1 + rng.below(max) as u8
            } else {
                0
            }
        };
        let [south, north] = &mut board;
        for (s, n) in south.iter_mut().zip(north.iter_mut()).take(8) {
            *s = pick(&mut rng, 35, 4);
            *n = pick(&mut rng, 30, 4);
        }
        // South's back row a little; North's stays empty (the padding goes there in mtaji).
        for s in south.iter_mut().skip(8) {
            *s = pick(&mut rng, 12, 3);
        }
        if variant.is_bao() && flags.contains("house:S") {
            board[0][4] = 6 + rng.below(4) as u8;
        }
        if variant.is_bao() && flags.contains("house:N") {
            board[1][4] = 6 + rng.below(4) as u8;
        }
        let on: usize = board.iter().flatten().map(|&n| n as usize).sum();
        if on > 64 {
            continue;
        }
        let small = on;
        let mut hands = [0u8; 2];
        let rest = 64 - on;
        if namua {
            hands[0] = (rest / 2) as u8;
            hands[1] = (rest - rest / 2) as u8;
        } else {
            for k in 0..rest {
                board[1][8 + k % 8] += 1;
            }
        }
        let f = bao_rules::Flags {
            house: [flags.contains("house:S"), flags.contains("house:N")],
            duty: [flags.contains("duty:S"), flags.contains("duty:N")],
            nointro: flags.contains("nointro"),
            ..Default::default()
        };
        let setup = Setup {
            variant,
            board,
            hands,
            side: Side::South,
            flags: f,
            ply: 0,
        };
        let Ok(pos) = setup.validate(&rules) else {
            continue;
        };
        if bao_rules::status(&pos, &rules).is_over() {
            continue;
        }
        let moves = legal_moves(&pos, &rules);
        if moves.len() < 2 {
            continue;
        }
        if extra.contains("nocap") && moves.iter().any(|m| m.mv.is_capture()) {
            continue;
        }
        let hits: Vec<String> = moves
            .iter()
            .filter(|m| goal.reached_by(&pos, &rules, &m.mv))
            .map(|m| m.mv.to_string())
            .collect();
        if hits.is_empty() || hits.len() > 2 || hits.len() == moves.len() {
            continue;
        }
        let wins = |m: &bao_rules::LegalMove| m.outcome(&rules).is_over();
        if extra.contains("nowin") && moves.iter().any(wins) {
            continue;
        }
        if extra.contains("one") && hits.len() != 1 {
            continue;
        }
        if extra.contains("back") && hits.iter().any(|h| !h.starts_with(['B', 'b'])) {
            continue;
        }
        found.push((small, pos.to_string(), hits));
    }
    found.sort();
    found.dedup();
    for (n, p, h) in found.iter().take(8) {
        println!("{n:2} {p}  {}", h.join(" "));
    }
    eprintln!("{} found", found.len());
}
