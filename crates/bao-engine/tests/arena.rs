//! The match arena with built-in players: paired openings, results, and records (NOT-6)
//! that replay legally to the result they state.

use bao_engine::arena::{opening, run_match, GameResult, MatchConfig, PlayerSpec};
use bao_rules::{Game, Position, Rules, Variant};
use std::time::Duration;

fn cfg(v: Variant, a: &str, b: &str, games: usize) -> MatchConfig {
    MatchConfig {
        rules: Rules::new(v),
        a: a.parse().unwrap(),
        b: b.parse().unwrap(),
        games,
        opening_plies: 4,
        concurrency: 2,
        seed: 11,
        max_plies: 400,
        go: "level 2".into(),
        timeout: Duration::from_secs(30),
    }
}

/// Replays a record's movetext with the rules crate; returns the game and the result token.
pub fn replay(text: &str) -> (Game, String, Vec<(String, String)>) {
    let (tags, moves) = text.split_once("\n\n").expect("tags, blank line, movetext");
    let tags: Vec<(String, String)> = tags
        .lines()
        .map(|l| {
            let l = l.trim_start_matches('[').trim_end_matches(']');
            let (k, v) = l.split_once(' ').unwrap();
            (k.to_string(), v.trim_matches('"').to_string())
        })
        .collect();
    let get = |k: &str| tags.iter().find(|t| t.0 == k).map(|t| t.1.clone()).unwrap();
    let v = Variant::from_id(&get("Variant")).unwrap();
    let rules = Rules::parse(v, &get("Rules")).unwrap();
    let mut g = Game::new(Position::start(&rules), rules);
    let toks: Vec<&str> = moves.split_whitespace().collect();
    let (result, body) = toks.split_last().unwrap();
    for t in body {
        if t.ends_with('.') {
            continue;
        }
        g.play_text(t).unwrap_or_else(|e| panic!("{t}: {e}"));
    }
    (g, result.to_string(), tags)
}

fn check_record(g: &GameResult) {
    let text = g.record.to_string();
    let (game, result, tags) = replay(&text);
    assert_eq!(tags[0].0, "Variant");
    assert_eq!(tags.iter().find(|t| t.0 == "Result").unwrap().1, result);
    let termination = tags
        .iter()
        .find(|t| t.0 == "Termination")
        .map(|t| t.1.clone());
    if termination.is_none() {
        // Termination "rules" (NOT-6.4): the result is the outcome reached.
        assert_eq!(game.outcome().token(), result, "{text}");
    } else {
        assert_eq!(termination.as_deref(), Some("adjudication"));
    }
}

#[test]
fn players_parse_and_print() {
    for s in ["random", "greedy", "level:3", "depth:4", "nodes:500"] {
        assert_eq!(s.parse::<PlayerSpec>().unwrap().to_string(), s);
    }
    assert_eq!(
        "cmd:bao engine".parse::<PlayerSpec>().unwrap(),
        PlayerSpec::Cmd(vec!["bao".into(), "engine".into()])
    );
    for bad in ["level:0", "level:9", "depth:x", "cmd:", "strong"] {
        assert!(bad.parse::<PlayerSpec>().is_err(), "{bad}");
    }
}

#[test]
fn paired_openings_are_shared_and_seeded() {
    let rules = Rules::new(Variant::Kiswahili);
    let a = opening(&rules, 3, 0, 4);
    assert_eq!(a.len(), 4);
    assert_eq!(a, opening(&rules, 3, 0, 4));
    assert_ne!(opening(&rules, 3, 1, 6), opening(&rules, 3, 0, 6));
}

#[test]
fn a_small_match_plays_pairs_and_writes_legal_records() {
    for v in Variant::ALL {
        let c = cfg(v, "level:3", "random", 4);
        let mut results = Vec::new();
        let wdl = run_match(&c, |g, _| results.push(g.clone())).unwrap();
        assert_eq!(wdl.games(), 4);
        results.sort_by_key(|g| g.index);
        // Games 2k and 2k+1 share the opening and swap sides.
        for pair in results.chunks(2) {
            assert!(pair[0].a_south && !pair[1].a_south);
            let n = opening(&c.rules, c.seed, pair[0].index / 2, c.opening_plies).len();
            assert_eq!(pair[0].record.moves[..n], pair[1].record.moves[..n]);
            assert_eq!(pair[0].record.south, "level:3");
            assert_eq!(pair[1].record.north, "level:3");
        }
        for g in &results {
            check_record(g);
        }
        // Level 3 against a random mover: it should not lose a single game.
        assert_eq!(wdl.losses, 0, "{v}: {wdl:?}");
    }
}
