//! A lesson writer's tool: the legal moves of a position, which of them reach a goal, and what
//! each one does.
//!
//! `cargo run -p bao-learn --example probe -- POSITION [GOAL_JSON]`, e.g.
//! `... -- "kiswahili 0,0,0,0,0,0,0,0/..." '{"kind":"capture"}'`.

use bao_learn::{Goal, MoveFacts};
use bao_rules::{legal_moves, Position, Rules};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let text = args.first().expect("usage: probe POSITION [GOAL_JSON]");
    let variant = Position::variant_of(text).expect("variant");
    let rules = Rules::new(variant);
    let pos = Position::parse(text, &rules).unwrap_or_else(|e| panic!("{e}"));
    let goal: Option<Goal> = args
        .get(1)
        .map(|g| serde_json::from_str(g).unwrap_or_else(|e| panic!("goal: {e}")));
    let moves = legal_moves(&pos, &rules);
    println!("{} legal moves", moves.len());
    for m in &moves {
        let f = MoveFacts::play(&pos, &rules, &m.mv);
        let hit = goal.as_ref().map(|g| g.reached(&f, &rules));
        let ev: Vec<String> = f
            .events
            .iter()
            .map(|e| e.to_string())
            .filter(|e| !e.starts_with("sow "))
            .collect();
        let mark = match hit {
            Some(true) => "GOAL",
            Some(false) => "    ",
            None => "",
        };
        println!(
            "{mark} {:6} {}  => {}  [{}]",
            m.mv,
            ev.join("; "),
            f.after,
            f.outcome
        );
    }
}
