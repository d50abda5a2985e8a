//! The tactical suite (tests/tactics.txt): for each variant, positions where one move wins
//! at once (bao hamna, or the opponent left without moves, BRD-7.2, BRD-7.3), positions
//! where every move but one loses at once, and never-ending-move traps (BRD-6.3 under
//! never_ending=mover_loses). Each position is first checked with the rules crate alone,
//! then the engine must solve it at modest limits.

use bao_engine::search::{Limits, Score, Searcher};
use bao_engine::{choose_move, Weights};
use bao_rules::{legal_moves, LegalMove, Outcome, Position, Rules, Variant};

struct Case {
    kind: String,
    rules: Rules,
    pos: Position,
    answer: String,
}

fn cases() -> Vec<Case> {
    let text = include_str!("tactics.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "bad line: {l}");
            let v = Position::variant_of(f[2]).unwrap();
            let rules = Rules::parse(v, f[1]).unwrap();
            let pos = Position::parse(f[2], &rules).unwrap();
            Case {
                kind: f[0].into(),
                rules,
                pos,
                answer: f[3].into(),
            }
        })
        .collect()
}

fn wins_at_once(m: &LegalMove, rules: &Rules) -> bool {
    matches!(m.outcome(rules), Outcome::Win(s, _) if s == m.mv.side())
}

fn loses_at_once(m: &LegalMove, rules: &Rules) -> bool {
    match m.outcome(rules) {
        Outcome::Win(s, _) => s != m.mv.side(),
        Outcome::Draw(_) => false,
        Outcome::Ongoing => legal_moves(&m.next, rules)
            .iter()
            .any(|r| wins_at_once(r, rules)),
    }
}

#[test]
fn the_suite_covers_every_variant_and_kind() {
    let cs = cases();
    for v in Variant::ALL {
        let kinds: Vec<&str> = cs
            .iter()
            .filter(|c| c.rules.variant == v)
            .map(|c| c.kind.as_str())
            .collect();
        assert!(kinds.contains(&"hamna"), "{v}: no bao hamna case");
        assert!(kinds.contains(&"only"), "{v}: no only-move case");
    }
    assert!(
        cs.iter().any(|c| c.kind == "nomoves"),
        "no case where the opponent is left without moves"
    );
    assert!(cs.iter().any(|c| c.kind == "never"), "no never-ending trap");
}

/// The rules crate alone confirms what each case claims.
#[test]
fn each_case_holds_by_the_rules() {
    for c in cases() {
        let moves = legal_moves(&c.pos, &c.rules);
        let ms = moves.as_slice();
        assert!(ms.len() >= 2, "{}: too few moves", c.pos);
        match c.kind.as_str() {
            "hamna" | "nomoves" => {
                let wins: Vec<String> = ms
                    .iter()
                    .filter(|m| wins_at_once(m, &c.rules))
                    .map(|m| m.mv.to_string())
                    .collect();
                assert_eq!(wins, vec![c.answer.clone()], "{}", c.pos);
                let m = moves.find(&c.answer).unwrap();
                let empty_front = m.next.front_row_empty(m.next.side());
                assert_eq!(empty_front, c.kind == "hamna", "{}", c.pos);
            }
            "only" => {
                let ok: Vec<String> = ms
                    .iter()
                    .filter(|m| !loses_at_once(m, &c.rules))
                    .map(|m| m.mv.to_string())
                    .collect();
                assert_eq!(ok, vec![c.answer.clone()], "{}", c.pos);
            }
            "never" => {
                let bad: Vec<&str> = c.answer.trim_start_matches('!').split(',').collect();
                for b in &bad {
                    let m = moves
                        .find(b)
                        .unwrap_or_else(|| panic!("{b} not legal in {}", c.pos));
                    assert!(m.is_never_ending());
                    assert_eq!(m.outcome(&c.rules).winner(), Some(m.mv.side().other()));
                }
                assert!(ms.iter().any(|m| !loses_at_once(m, &c.rules)));
            }
            k => panic!("unknown kind {k}"),
        }
    }
}

fn solved(c: &Case, played: &str) -> bool {
    if c.kind == "never" {
        let moves = legal_moves(&c.pos, &c.rules);
        let m = moves.find(played).unwrap();
        !c.answer
            .trim_start_matches('!')
            .split(',')
            .any(|b| b == played)
            && !loses_at_once(m, &c.rules)
    } else {
        played == c.answer
    }
}

/// The search solves every case at depth 3 within 20,000 nodes, with the right kind of score.
#[test]
fn the_engine_solves_every_case_at_modest_limits() {
    for c in cases() {
        let mut s = Searcher::new(c.rules, Weights::for_variant(c.rules.variant), 16);
        let r = s.search_root(
            &c.pos,
            Limits {
                depth: Some(3),
                nodes: Some(20_000),
                time: None,
                soft_time: None,
            },
            &mut |_| {},
        );
        let played = r.best.unwrap().mv.to_string();
        assert!(
            solved(&c, &played),
            "{} {}: played {played}, expected {}",
            c.kind,
            c.pos,
            c.answer
        );
        if c.kind == "hamna" || c.kind == "nomoves" {
            assert_eq!(r.score, Score::Win(1), "{}", c.pos);
        }
    }
}

/// Every level from 2 up solves them too (level 1 is weak by design).
#[test]
fn levels_two_and_up_solve_the_winning_cases() {
    for c in cases()
        .iter()
        .filter(|c| c.kind == "hamna" || c.kind == "nomoves")
    {
        for level in 2..=5 {
            let m = choose_move(&c.pos, &c.rules, level, 1).unwrap();
            assert_eq!(m.mv.to_string(), c.answer, "level {level}: {}", c.pos);
        }
    }
}
