//! The lessons cannot teach a wrong rule: every step of every course is replayed against the
//! rules crate. Its position is valid; every solution is legal and reaches the goal (scripted
//! replies included); some legal move misses it; the par is reachable; one-move steps list
//! exactly the moves that reach the goal; every text key is in both catalogs; every cited rule
//! ID is defined in docs/spec.

mod common;

use bao_learn::{
    check_step, course, goal_moves, lesson_text, parse_course, stars, Goal, Replies, Step,
};
use bao_rules::{find_move, legal_moves, status, Variant};
use common::spec;
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// One language's learn catalog: key → text (comments, keys starting with `_`, left out).
fn catalog(lang: &str) -> BTreeMap<String, String> {
    let p = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../bao-server/web/i18n")
        .join(lang)
        .join("learn.json");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let v: BTreeMap<String, serde_json::Value> =
        serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    v.into_iter()
        .filter(|(k, _)| !k.starts_with('_'))
        .map(|(k, v)| {
            let s = v
                .as_str()
                .unwrap_or_else(|| panic!("{lang} {k}: not a string"));
            (k, s.to_string())
        })
        .collect()
}

/// Every step of every course, with a name for messages.
fn all_steps() -> Vec<(String, Variant, Step)> {
    let mut out = Vec::new();
    for v in Variant::ALL {
        for l in course(v).lessons {
            for (i, s) in l.steps.into_iter().enumerate() {
                out.push((format!("{}/{}/{}", v.id(), l.id, i + 1), v, s));
            }
        }
    }
    out
}

fn fail(problems: Vec<String>) {
    assert!(problems.is_empty(), "\n{}", problems.join("\n"));
}

#[test]
fn each_course_parses_and_is_shaped_for_beginners() {
    let mut problems = Vec::new();
    for v in Variant::ALL {
        let c = parse_course(lesson_text(v)).unwrap_or_else(|e| panic!("{}: {e}", v.id()));
        if c.variant != v {
            problems.push(format!(
                "lessons/{}.json says variant {:?}",
                v.id(),
                c.variant
            ));
        }
        if c.lessons.len() < 8 {
            problems.push(format!(
                "{}: {} lessons, at least 8 wanted",
                v.id(),
                c.lessons.len()
            ));
        }
        let mut ids = BTreeSet::new();
        for l in &c.lessons {
            if !ids.insert(&l.id) {
                problems.push(format!("{}: lesson id {} twice", v.id(), l.id));
            }
            if !(2..=5).contains(&l.steps.len()) {
                problems.push(format!(
                    "{}/{}: {} steps, 2 to 5 wanted",
                    v.id(),
                    l.id,
                    l.steps.len()
                ));
            }
        }
    }
    fail(problems);
}

#[test]
fn every_position_is_valid_and_of_its_course() {
    let mut problems = Vec::new();
    for (name, v, s) in all_steps() {
        match s.start() {
            Err(e) => problems.push(format!("{name}: {e}")),
            Ok((pos, rules)) => {
                if pos.variant() != v {
                    problems.push(format!("{name}: a {} position", pos.variant().id()));
                }
                if status(&pos, &rules).is_over() {
                    problems.push(format!("{name}: the game is already over"));
                }
                // House, tax, safari and block goals exist only where there are houses.
                if v == Variant::Kimasai && uses_house_rules(&s.goal) {
                    problems.push(format!("{name}: a Bao-only goal in kimasai"));
                }
            }
        }
    }
    fail(problems);
}

fn uses_house_rules(g: &Goal) -> bool {
    match g {
        Goal::KeepHouse | Goal::Safari | Goal::Tax | Goal::Block { .. } => true,
        Goal::All { goals } => goals.iter().any(uses_house_rules),
        _ => false,
    }
}

#[test]
fn every_solution_is_legal_and_reaches_the_goal_with_the_scripted_replies() {
    let mut problems = Vec::new();
    for (name, _, s) in all_steps() {
        if s.solutions.is_empty() {
            problems.push(format!("{name}: no solution"));
        }
        for sol in &s.solutions {
            let plies = s.solution_plies(sol);
            let plies: Vec<&str> = plies.iter().map(String::as_str).collect();
            match check_step(&s, &plies) {
                Err(e) => problems.push(format!("{name}: solution {sol:?}: {e}")),
                Ok(r) if !r.done => {
                    problems.push(format!("{name}: solution {sol:?} misses the goal"))
                }
                Ok(r) => {
                    let len = sol.split_whitespace().count() as u32;
                    if r.moves != len {
                        problems.push(format!(
                            "{name}: solution {sol:?} is done after {} of its {len} moves",
                            r.moves
                        ));
                    }
                }
            }
            // Canonical notation (NOT-1) for every ply, so that front-ends can compare strings.
            if let Ok((mut pos, rules)) = s.start() {
                for ply in s.solution_plies(sol) {
                    match find_move(&pos, &rules, &ply) {
                        Ok(m) => {
                            if m.mv.to_string() != ply {
                                problems.push(format!(
                                    "{name}: {ply:?} is written {} in canonical notation",
                                    m.mv
                                ));
                            }
                            pos = m.next;
                        }
                        Err(_) => break, // reported by check_step above
                    }
                }
            }
        }
        if let Replies::Scripted(script) = &s.replies {
            let longest = s
                .solutions
                .iter()
                .map(|x| x.split_whitespace().count())
                .max();
            if longest.is_some_and(|n| script.len() + 1 < n) {
                problems.push(format!(
                    "{name}: fewer scripted replies than the solutions need"
                ));
            }
        } else if s.solutions.iter().any(|x| x.split_whitespace().count() > 1) {
            problems.push(format!(
                "{name}: engine replies cannot be checked: one-move solutions only"
            ));
        }
    }
    fail(problems);
}

#[test]
fn every_step_has_a_hint_and_no_lesson_repeats_a_step() {
    let mut problems = Vec::new();
    for v in Variant::ALL {
        for l in course(v).lessons {
            let mut seen = BTreeSet::new();
            for (i, s) in l.steps.iter().enumerate() {
                let name = format!("{}/{}/{}", v.id(), l.id, i + 1);
                if s.hints.is_empty() {
                    problems.push(format!("{name}: no hint"));
                }
                if !seen.insert((s.position.clone(), format!("{:?}", s.goal))) {
                    problems.push(format!(
                        "{name}: the same position and goal as an earlier step"
                    ));
                }
            }
        }
    }
    fail(problems);
}

#[test]
fn no_step_is_won_by_every_move() {
    let mut problems = Vec::new();
    for (name, _, s) in all_steps() {
        let Ok((pos, rules)) = s.start() else {
            continue;
        };
        let moves = legal_moves(&pos, &rules);
        let missing = moves
            .iter()
            .filter(|m| !s.goal.reached_by(&pos, &rules, &m.mv))
            .count();
        if missing == 0 {
            problems.push(format!(
                "{name}: all {} legal moves reach the goal {:?}",
                moves.len(),
                s.goal
            ));
        }
    }
    fail(problems);
}

#[test]
fn one_move_steps_list_exactly_the_moves_that_reach_the_goal() {
    let mut problems = Vec::new();
    for (name, _, s) in all_steps() {
        if s.par != 1 {
            continue;
        }
        let Ok(hits) = goal_moves(&s) else { continue };
        let mut listed: Vec<String> = s.solutions.clone();
        listed.sort();
        if listed != hits {
            problems.push(format!(
                "{name}: solutions {listed:?}, but the moves that reach the goal are {hits:?}"
            ));
        }
    }
    fail(problems);
}

#[test]
fn the_par_is_reachable() {
    let mut problems = Vec::new();
    for (name, _, s) in all_steps() {
        let shortest = s
            .solutions
            .iter()
            .map(|x| x.split_whitespace().count() as u32)
            .min();
        if s.par == 0 || shortest.is_none_or(|n| n > s.par) {
            problems.push(format!(
                "{name}: par {} but the shortest solution is {shortest:?}",
                s.par
            ));
        }
        // Three stars for a solution at par, as the data promises.
        if let Some(sol) = s
            .solutions
            .iter()
            .find(|x| x.split_whitespace().count() as u32 <= s.par)
        {
            let plies = s.solution_plies(sol);
            let plies: Vec<&str> = plies.iter().map(String::as_str).collect();
            if let Ok(r) = check_step(&s, &plies) {
                if r.stars != 3 {
                    problems.push(format!("{name}: {sol:?} gets {} stars", r.stars));
                }
            }
        }
    }
    fail(problems);
}

#[test]
fn every_text_key_is_in_both_catalogs_and_every_catalog_key_is_used() {
    let en = catalog("en");
    let sw = catalog("sw");
    let mut problems = Vec::new();
    let mut used = BTreeSet::new();
    for v in Variant::ALL {
        for l in course(v).lessons {
            used.insert(l.title_key.clone());
            for s in &l.steps {
                used.insert(s.text_key.clone());
                used.extend(s.hints.iter().cloned());
            }
        }
    }
    for k in &used {
        if !k.starts_with("learn.") {
            problems.push(format!("{k}: keys of learn.json start with \"learn.\""));
        }
        for (lang, cat) in [("en", &en), ("sw", &sw)] {
            match cat.get(k) {
                None => problems.push(format!("{k} is not in {lang}/learn.json")),
                Some(t) if t.trim().is_empty() => problems.push(format!("{lang} {k}: empty")),
                _ => {}
            }
        }
    }
    for (lang, cat) in [("en", &en), ("sw", &sw)] {
        for k in cat.keys().filter(|k| !used.contains(*k)) {
            problems.push(format!("{lang}/learn.json: {k} is used by no lesson"));
        }
    }
    fail(problems);
}

#[test]
fn texts_are_words_not_notation() {
    // A beginner reads words: no pit names (A5, b3) and no move notation in the texts.
    let mut problems = Vec::new();
    for lang in ["en", "sw"] {
        for (k, text) in catalog(lang) {
            let plain: String = text.split(['<', '>']).step_by(2).collect();
            for w in plain.split(|c: char| !c.is_ascii_alphanumeric()) {
                let b = w.as_bytes();
                if b.len() == 2 && b"ABab".contains(&b[0]) && (b'1'..=b'8').contains(&b[1]) {
                    problems.push(format!("{lang} {k}: pit name {w}"));
                }
            }
        }
    }
    fail(problems);
}

#[test]
fn every_cited_rule_id_is_defined_in_docs_spec() {
    let defined = spec::all_ids();
    assert!(
        defined.contains("KIS-7.5") && defined.contains("KIM-7.2"),
        "the ID scan works"
    );
    let mut problems = Vec::new();
    for (name, v, s) in all_steps() {
        if s.rules.is_empty() {
            problems.push(format!("{name}: teaches no rule ID"));
        }
        for id in &s.rules {
            if !defined.contains(id) {
                problems.push(format!("{name}: {id} is not defined in docs/spec"));
            }
            // A course cites the rules of its game (kete builds on kiswahili) and the common ones.
            let ok = match v {
                Variant::Kiswahili => ["KIS-", "BRD-"].iter().any(|p| id.starts_with(p)),
                Variant::Kete => ["KET-", "KIS-", "BRD-"].iter().any(|p| id.starts_with(p)),
                Variant::Kimasai => ["KIM-", "BRD-"].iter().any(|p| id.starts_with(p)),
            };
            if !ok {
                problems.push(format!("{name}: {id} is not a rule of {}", v.id()));
            }
        }
    }
    fail(problems);
}

#[test]
fn the_spec_id_scan_reads_ids_as_bao_cli_does() {
    assert_eq!(
        spec::leading_id("KIS-5.2 Capture moves."),
        Some("KIS-5.2".into())
    );
    assert_eq!(spec::leading_id("BRD-6 Never-ending"), Some("BRD-6".into()));
    assert_eq!(spec::leading_id("KIS-5. x"), Some("KIS-5".into()));
    assert_eq!(spec::leading_id("K-1"), None);
    assert_eq!(spec::leading_id("Kis-1"), None);
}

#[test]
fn stars_follow_lichess_learn() {
    // lila: late = moves - par; 3 stars at or under par, 2 when late <= max(1, par / 8).
    assert_eq!(stars(1, 1), 3);
    assert_eq!(stars(0, 1), 3);
    assert_eq!(stars(2, 1), 2);
    assert_eq!(stars(3, 1), 1);
    assert_eq!(stars(9, 8), 2);
    assert_eq!(stars(10, 8), 1);
    assert_eq!(stars(18, 16), 2);
    assert_eq!(stars(19, 16), 1);
    assert_eq!(stars(19, 17), 2); // 2 <= 17 / 8 = 2.125
    assert_eq!(stars(20, 17), 1); // 3 > 2.125
}

#[test]
fn a_wrong_move_is_not_done_and_an_illegal_one_is_an_error() {
    let c = course(Variant::Kiswahili);
    let s = &c.lessons[0].steps[0];
    let (pos, rules) = s.start().unwrap();
    let wrong = legal_moves(&pos, &rules)
        .iter()
        .find(|m| !s.goal.reached_by(&pos, &rules, &m.mv))
        .map(|m| m.mv.to_string())
        .expect("a wrong move");
    let r = check_step(s, &[&wrong]).unwrap();
    assert!(!r.done);
    assert_eq!((r.stars, r.moves), (0, 1));
    assert!(check_step(s, &["B8L"]).is_err());
}

#[test]
fn scripted_replies_are_enforced() {
    let c = course(Variant::Kete);
    let s = c
        .lessons
        .iter()
        .flat_map(|l| &l.steps)
        .find(|s| s.par > 1)
        .expect("a step of two moves");
    let Replies::Scripted(script) = &s.replies else {
        panic!("scripted")
    };
    let first = s.solutions[0].split_whitespace().next().unwrap();
    let (pos, rules) = s.start().unwrap();
    let after = find_move(&pos, &rules, first).unwrap().next;
    let other = legal_moves(&after, &rules)
        .iter()
        .map(|m| m.mv.to_string())
        .find(|m| *m != script[0])
        .expect("another reply");
    assert!(check_step(s, &[first, &other]).is_err());
}
