//! Self-play probe for threefold repetition (BRD-7.5): games between two engines
//! that know the game's history (so a side that is behind may steer into a repetition,
//! which the search scores as a draw), reporting any position a game reaches twice. A
//! position seen twice is a cycle: played once more, it draws. The bounded search over the
//! game graph is src/bin/repetition_search.rs; docs/spec-notes.md has both.
//!
//! Run (one core, about a minute):
//!
//! ```text
//! cargo run --release -p bao-research --bin selfplay_repetition -- kimasai - 20 2
//! ```
//!
//! Arguments: VARIANT RULES GAMES LEVEL. The first 4 plies of each game are random, so
//! that the games differ; a game is cut off at 1,000 plies.

use bao_engine::Level;
use bao_rules::{Game, Outcome, Position, Rng, Rules, Variant};
use std::collections::HashMap;

fn main() {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let usage = || -> ! {
        eprintln!("usage: selfplay_repetition VARIANT RULES GAMES LEVEL");
        std::process::exit(2)
    };
    if argv.len() != 4 {
        usage();
    }
    let variant = Variant::from_id(&argv[0]).unwrap_or_else(|| usage());
    let rules = Rules::parse(variant, &argv[1]).unwrap_or_else(|e| {
        eprintln!("{e}");
        std::process::exit(2)
    });
    let games: u64 = argv[2].parse().unwrap_or_else(|_| usage());
    let level: u8 = argv[3].parse().unwrap_or_else(|_| usage());
    let l = Level::get(level);
    let mut rng = Rng::new(14);
    let (mut plies, mut twice, mut unfinished) = (0usize, 0usize, 0usize);
    let mut results: HashMap<&'static str, usize> = HashMap::new();
    for g in 0..games {
        let mut searcher = l.searcher(&rules);
        let mut game = Game::new(Position::start(&rules), rules);
        let mut seen: HashMap<Position, usize> = HashMap::new();
        let mut found = None;
        while !game.outcome().is_over() && game.moves().len() < 1000 {
            let p = *game.position();
            if let Some(&at) = seen.get(&p.with_ply(0)) {
                found.get_or_insert((at, game.moves().len()));
            }
            seen.entry(p.with_ply(0)).or_insert(game.moves().len());
            let m = if game.moves().len() < 4 {
                let moves = game.legal_moves();
                moves.as_slice()[rng.below(moves.len())]
            } else {
                let history = &game.positions()[..game.positions().len() - 1];
                match l.choose(&mut searcher, &p, history, g ^ rng.next_u64()) {
                    Some(m) => m,
                    None => break,
                }
            };
            game.play(&m);
        }
        plies += game.moves().len();
        if game.outcome() == Outcome::Ongoing {
            unfinished += 1;
        }
        *results.entry(game.outcome().token()).or_default() += 1;
        if let Some((a, b)) = found {
            twice += 1;
            println!(
                "game {g}: position of ply {a} again at ply {b}; cycle: {}",
                game.moves()[a..b]
                    .iter()
                    .map(|m| m.to_string())
                    .collect::<Vec<_>>()
                    .join(" ")
            );
        }
    }
    let mut r: Vec<_> = results.into_iter().collect();
    r.sort();
    println!(
        "{variant} {} level {level}: games {games} plies {plies} results {r:?} unfinished {unfinished} \
         with-a-position-twice {twice}",
        argv[1]
    );
}
