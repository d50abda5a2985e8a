//! Finds tactical positions for the test suite (crates/bao-engine/tests/tactics.txt) in
//! random games, classifying them with the rules crate alone:
//! * `hamna`: exactly one move wins at once by emptying the opponent's front row;
//! * `nomoves`: exactly one move wins at once by leaving the opponent without a move;
//! * `only`: every move but one loses at once (its result is a loss, or the opponent
//!   then has a move that wins at once);
//! * `never`: under never_ending=mover_loses, a never-ending move is legal and loses.
//!
//! Run: cargo run --release -p bao-engine --example mine_tactics > crates/bao-engine/tests/tactics.txt
use bao_rules::*;

fn wins_at_once(m: &LegalMove, rules: &Rules) -> Option<WinReason> {
    match m.outcome(rules) {
        Outcome::Win(s, r) if s == m.mv.side() => Some(r),
        _ => None,
    }
}

fn loses_at_once(m: &LegalMove, rules: &Rules) -> bool {
    match m.outcome(rules) {
        Outcome::Win(s, _) => s != m.mv.side(),
        Outcome::Draw(_) => false,
        Outcome::Ongoing => legal_moves(&m.next, rules)
            .iter()
            .any(|r| wins_at_once(r, rules).is_some()),
    }
}

fn main() {
    let per_kind = 6;
    for v in Variant::ALL {
        for (rules_text, kinds) in [
            ("-", &["hamna", "nomoves", "only"][..]),
            ("never_ending=mover_loses", &["never"][..]),
        ] {
            let rules = Rules::parse(v, rules_text).unwrap();
            let mut found: Vec<(String, String, String)> = Vec::new();
            let mut rng = Rng::new(7 + v as u64);
            for _game in 0..3000 {
                let mut pos = Position::start(&rules);
                for _ply in 0..400 {
                    if status(&pos, &rules).is_over() {
                        break;
                    }
                    let moves = legal_moves(&pos, &rules);
                    let ms = moves.as_slice();
                    if ms.len() >= 3 {
                        let wins: Vec<_> = ms
                            .iter()
                            .filter_map(|m| wins_at_once(m, &rules).map(|r| (m, r)))
                            .collect();
                        let mut kind = None;
                        let mut best = None;
                        if wins.len() == 1 {
                            kind = Some(if wins[0].1 == WinReason::FrontRow {
                                "hamna"
                            } else {
                                "nomoves"
                            });
                            best = Some(wins[0].0);
                        } else if wins.is_empty() {
                            let ok: Vec<_> =
                                ms.iter().filter(|m| !loses_at_once(m, &rules)).collect();
                            if ok.len() == 1 {
                                kind = Some("only");
                                best = Some(ok[0]);
                            }
                        }
                        if rules.never_ending == NeverEnding::MoverLoses {
                            kind = None;
                            if ms.iter().any(|m| m.is_never_ending()) && wins.is_empty() {
                                let ok: Vec<_> =
                                    ms.iter().filter(|m| !loses_at_once(m, &rules)).collect();
                                if !ok.is_empty() {
                                    kind = Some("never");
                                    best = None;
                                }
                            }
                        }
                        if let Some(k) = kind {
                            if kinds.contains(&k)
                                && found.iter().filter(|f| f.0 == k).count() < per_kind
                            {
                                let mv = best.map(|m| m.mv.to_string()).unwrap_or_else(|| {
                                    let bad: Vec<String> = ms
                                        .iter()
                                        .filter(|m| m.is_never_ending())
                                        .map(|m| m.mv.to_string())
                                        .collect();
                                    format!("!{}", bad.join(","))
                                });
                                found.push((k.to_string(), pos.to_string(), mv));
                            }
                        }
                    }
                    pos = ms[rng.below(ms.len())].next;
                }
                if kinds
                    .iter()
                    .all(|k| found.iter().filter(|f| f.0 == *k).count() >= per_kind)
                {
                    break;
                }
            }
            for (k, p, m) in found {
                println!("{k}\t{rules_text}\t{p}\t{m}");
            }
        }
    }
}
