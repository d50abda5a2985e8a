//! Puzzles (docs/api.md, "Puzzles"): every stored puzzle checked again, and the API over real HTTP.
//!
//! The seeds and save-the-house goals are checked here by brute force with the rules crate
//! alone, written independently of the miner. The win goal's uniqueness is the engine's proof
//! at the stored depth, run again for every puzzle.

mod common;

use bao_engine::puzzle::{self, Goal};
use bao_engine::theme::{themes, Theme};
use bao_rules::{find_move, legal_moves, Outcome, Pit, Position, Rules, Side, Variant};
use bao_server::features::puzzles::{data_file, parse_file, Puzzle};
use common::*;
use serde_json::{json, Value};

fn all() -> Vec<Puzzle> {
    Variant::ALL
        .into_iter()
        .flat_map(|v| parse_file(v, data_file(v)).unwrap())
        .collect()
}

fn seeds(p: &Position, side: Side) -> i32 {
    let board: i32 = (0..16)
        .map(|i| p.seeds(side, Pit::new(i).unwrap()) as i32)
        .sum();
    board + p.hand(side) as i32
}

/// The positions along the line, the start first.
fn walk(p: &Puzzle) -> Vec<bao_rules::LegalMove> {
    let mut pos = p.position;
    p.entry
        .moves
        .iter()
        .map(|m| {
            let lm = find_move(&pos, &p.rules, m).unwrap();
            pos = lm.next;
            lm
        })
        .collect()
}

/// The seeds the mover of `pos` is sure to win with `m` whatever the reply (a reply that
/// wins or draws counts as -1000); None when `m` itself ends the game or every reply loses.
fn worst_gain(pos: &Position, rules: &Rules, m: &bao_rules::LegalMove) -> Option<i32> {
    let me = pos.side();
    if m.outcome(rules) != Outcome::Ongoing {
        return None;
    }
    let mut worst: Option<i32> = None;
    for r in &legal_moves(&m.next, rules) {
        let v = match r.outcome(rules) {
            Outcome::Ongoing => seeds(&r.next, me) - seeds(pos, me),
            Outcome::Win(s, _) if s == me => continue,
            _ => -1000,
        };
        worst = Some(worst.map_or(v, |w| w.min(v)));
    }
    worst
}

/// The fewest puzzles shipped per variant (docs/api.md, "Puzzles").
const SHIPPED: usize = 2000;

#[test]
fn thousands_of_puzzles_per_variant_with_unique_ids() {
    let list = all();
    for v in Variant::ALL {
        let n = list.iter().filter(|p| p.rules.variant == v).count();
        assert!(n >= SHIPPED, "{v}: only {n} puzzles");
    }
    let mut ids: Vec<&str> = list.iter().map(|p| p.entry.id.as_str()).collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), list.len(), "ids repeat");
    for p in &list {
        assert!(!legal_moves(&p.position, &p.rules).is_empty());
    }
}

/// Each line is legal (checked when parsed) and reaches its goal, by the rules alone.
#[test]
fn every_line_reaches_its_goal() {
    for p in all() {
        let line = walk(&p);
        let solver = p.position.side();
        let id = &p.entry.id;
        let (last, before_last) = (line.last().unwrap(), &line[..line.len() - 1]);
        for m in before_last {
            assert_eq!(m.outcome(&p.rules), Outcome::Ongoing, "{id}: ends early");
        }
        match p.entry.goal {
            Goal::Win => {
                assert_eq!(
                    last.outcome(&p.rules).winner(),
                    Some(solver),
                    "{id}: the line does not win"
                );
            }
            Goal::Seeds { n } => {
                assert_eq!(line.len(), 2, "{id}");
                let after = seeds(&line[1].next, solver) - seeds(&p.position, solver);
                assert_eq!(after, n as i32, "{id}: the line wins {after} seeds");
            }
            Goal::SaveHouse => {
                assert_eq!(line.len(), 2, "{id}");
                assert!(p.position.owns_house(solver));
                assert!(line[1].next.owns_house(solver), "{id}: the house is lost");
            }
        }
    }
}

/// Seeds puzzles: the solution's move guarantees n seeds against every reply, the line's
/// reply is a worst one, and every other move guarantees at least 3 seeds less.
#[test]
fn seeds_puzzles_have_one_clearly_best_move() {
    for p in all().iter().filter(|p| p.entry.goal.kind() == "seeds") {
        let Goal::Seeds { n } = p.entry.goal else {
            unreachable!()
        };
        let id = &p.entry.id;
        let moves = legal_moves(&p.position, &p.rules);
        let mut best = None;
        let mut others = Vec::new();
        for m in &moves {
            assert!(
                m.outcome(&p.rules).winner() != Some(p.position.side()),
                "{id}: a move wins at once"
            );
            let g = worst_gain(&p.position, &p.rules, m).unwrap_or(-1000);
            if m.mv.to_string() == p.entry.moves[0] {
                best = Some(g);
            } else {
                others.push(g);
            }
        }
        assert_eq!(best, Some(n as i32), "{id}");
        for o in others {
            assert!(o <= n as i32 - 3, "{id}: another move guarantees {o} seeds");
        }
    }
}

/// Save-the-house puzzles: only the solution keeps the nyumba against every reply.
#[test]
fn save_house_puzzles_have_one_saving_move() {
    for p in all().iter().filter(|p| p.entry.goal == Goal::SaveHouse) {
        let id = &p.entry.id;
        let me = p.position.side();
        assert!(p.rules.variant.is_bao(), "{id}");
        assert!(p.position.seeds(me, Pit::front(5)) >= 6, "{id}");
        let keeps = |m: &bao_rules::LegalMove| {
            m.outcome(&p.rules) == Outcome::Ongoing
                && m.next.owns_house(me)
                && legal_moves(&m.next, &p.rules)
                    .iter()
                    .all(|r| match r.outcome(&p.rules) {
                        Outcome::Ongoing => r.next.owns_house(me),
                        o => o.winner() == Some(me),
                    })
        };
        let saving: Vec<String> = legal_moves(&p.position, &p.rules)
            .iter()
            .filter(|m| keeps(m))
            .map(|m| m.mv.to_string())
            .collect();
        assert_eq!(saving, vec![p.entry.moves[0].clone()], "{id}");
    }
}

fn prove(p: &Puzzle) {
    let line = walk(p);
    let engine = puzzle::Puzzle {
        position: p.position,
        goal: p.entry.goal,
        moves: line.iter().map(|m| m.mv).collect(),
        depth: p.entry.depth,
    };
    if let Err(e) = puzzle::verify(&engine, &p.rules) {
        panic!("{}: {e}", p.entry.id);
    }
    assert!(
        !puzzle::is_trivial(&engine, &p.rules),
        "{}: trivial",
        p.entry.id
    );
}

/// The engine proves every puzzle again at its depth: for wins, each solver move is the only
/// one that wins within the depth and each answer the longest defence; no puzzle is trivial
/// (the only move or the obvious capture). All 6,200 take about 3 s in the test profile.
#[test]
fn every_puzzle_is_proven_again() {
    let list = all();
    assert!(list.iter().any(|p| p.entry.goal == Goal::Win));
    let started = std::time::Instant::now();
    for p in &list {
        prove(p);
    }
    eprintln!(
        "{} puzzles proven again in {:.1} s",
        list.len(),
        started.elapsed().as_secs_f64()
    );
}

/// The stored themes are the ones the rules' events of each line give, and the themes a
/// variant can have are found among its puzzles.
#[test]
fn every_puzzle_has_the_themes_of_its_line() {
    let list = all();
    for p in &list {
        let line = walk(p);
        let engine = puzzle::Puzzle {
            position: p.position,
            goal: p.entry.goal,
            moves: line.iter().map(|m| m.mv).collect(),
            depth: p.entry.depth,
        };
        assert_eq!(p.entry.themes, themes(&engine, &p.rules), "{}", p.entry.id);
    }
    let has = |v: Variant, t: Theme| {
        list.iter()
            .any(|p| p.rules.variant == v && p.entry.themes.contains(&t))
    };
    for v in Variant::ALL {
        let mut wanted = vec![Theme::CaptureChain, Theme::RelaySowing, Theme::Endgame];
        if v.is_bao() {
            wanted.extend([
                Theme::Takasa,
                Theme::NyumbaKept,
                Theme::NyumbaLost,
                Theme::KichwaCapture,
                Theme::KimbiCapture,
            ]);
        } else {
            wanted.push(Theme::Raid);
        }
        if v == Variant::Kete {
            wanted.push(Theme::Kuu);
        }
        for t in wanted {
            assert!(has(v, t), "no {v} puzzle has the theme {t}");
        }
        // Kimasai's shipped puzzles are seeds puzzles (docs/api.md, "Puzzles").
        assert!(
            !v.is_bao()
                || list.iter().any(|p| p.rules.variant == v
                    && p.entry.themes.iter().any(|t| matches!(t, Theme::MateIn(_)))),
            "{v}: no mate"
        );
    }
}

#[tokio::test]
async fn the_api_lists_shows_and_checks_puzzles() {
    let s = server(&sqlite_url("puzzles")).start().await;
    let c = Client::new(&s);
    let list = c.get("/api/puzzles?variant=kete", None).await;
    assert_eq!(list.status, 200);
    let arr = list.json.as_array().unwrap();
    assert!(arr.len() >= SHIPPED);
    let first = &arr[0];
    let keys: Vec<&str> = first
        .as_object()
        .unwrap()
        .keys()
        .map(|k| k.as_str())
        .collect();
    assert_eq!(keys.len(), 5, "{first}");
    for k in ["id", "position", "goal", "moves", "themes"] {
        assert!(first.get(k).is_some(), "{k} missing in {first}");
    }
    assert!(arr
        .iter()
        .all(|p| p["position"].as_str().unwrap().starts_with("kete ")));

    // Bad or missing variant: 400 naming it.
    let bad = c.get("/api/puzzles?variant=chess", None).await;
    assert_eq!(bad.status, 400);
    assert_eq!(bad.json["error"], "bad_request");
    assert!(bad.json["message"].as_str().unwrap().contains("chess"));
    assert_eq!(c.get("/api/puzzles", None).await.status, 400);

    // One puzzle, with its legal moves; an unknown id is 404.
    let id = first["id"].as_str().unwrap();
    let one = c.get(&format!("/api/puzzles/{id}"), None).await;
    assert_eq!(one.status, 200);
    assert_eq!(one.json["moves"], first["moves"]);
    let rules = Rules::new(Variant::Kete);
    let pos = Position::parse(first["position"].as_str().unwrap(), &rules).unwrap();
    let legal: Vec<String> = legal_moves(&pos, &rules)
        .iter()
        .map(|m| m.mv.to_string())
        .collect();
    assert_eq!(one.json["legal"], json!(legal));
    assert_eq!(c.get("/api/puzzles/kete-999999", None).await.status, 404);
}

/// A player who chooses a theme gets puzzles of that theme, one after another, and round
/// again after the last.
#[tokio::test]
async fn puzzles_of_a_theme_one_after_another() {
    let s = server(&sqlite_url("puzzles-theme")).start().await;
    let c = Client::new(&s);
    let chains = c
        .get("/api/puzzles?variant=kete&theme=capture_chain", None)
        .await;
    assert_eq!(chains.status, 200);
    let chains = chains.json.as_array().unwrap().clone();
    assert!(chains.len() >= 2);
    assert!(chains.iter().all(|p| p["themes"]
        .as_array()
        .unwrap()
        .contains(&json!("capture_chain"))));
    let all = c.get("/api/puzzles?variant=kete", None).await.json;
    assert!(chains.len() < all.as_array().unwrap().len());

    let first = c
        .get("/api/puzzles/next?variant=kete&theme=capture_chain", None)
        .await;
    assert_eq!(first.status, 200);
    assert_eq!(first.json["id"], chains[0]["id"]);
    assert!(first.json["legal"].is_array());
    let second = c
        .get(
            &format!(
                "/api/puzzles/next?variant=kete&theme=capture_chain&after={}",
                chains[0]["id"].as_str().unwrap()
            ),
            None,
        )
        .await;
    assert_eq!(second.json["id"], chains[1]["id"]);
    let last = chains.last().unwrap()["id"].as_str().unwrap();
    let again = c
        .get(
            &format!("/api/puzzles/next?variant=kete&theme=capture_chain&after={last}"),
            None,
        )
        .await;
    assert_eq!(
        again.json["id"], chains[0]["id"],
        "round again after the last"
    );

    // Kimasai has no kuu; an unknown theme is a bad request.
    let none = c
        .get("/api/puzzles/next?variant=kimasai&theme=kuu", None)
        .await;
    assert_eq!(none.status, 404);
    let bad = c
        .get("/api/puzzles/next?variant=kete&theme=forks", None)
        .await;
    assert_eq!(bad.status, 400);
    assert!(bad.json["message"].as_str().unwrap().contains("forks"));
}

/// Solves a puzzle of each goal through the check endpoint, a wrong move first.
#[tokio::test]
async fn solving_through_the_check_endpoint() {
    let s = server(&sqlite_url("puzzles-check")).start().await;
    let c = Client::new(&s);
    let list = c.get("/api/puzzles?variant=kiswahili", None).await.json;
    let rules = Rules::new(Variant::Kiswahili);
    let longest = list
        .as_array()
        .unwrap()
        .iter()
        .max_by_key(|p| p["moves"].as_array().unwrap().len())
        .unwrap();
    let id = longest["id"].as_str().unwrap();
    let line: Vec<String> = longest["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    let path = format!("/api/puzzles/{id}/check");
    let start_pos = Position::parse(longest["position"].as_str().unwrap(), &rules).unwrap();

    // A legal move that is not the solution.
    let wrong = legal_moves(&start_pos, &rules)
        .iter()
        .map(|m| m.mv.to_string())
        .find(|m| *m != line[0])
        .unwrap();
    let a = c.post(&path, None, json!({"ply": 0, "move": wrong})).await;
    assert_eq!(a.status, 200, "{}", a.json);
    assert_eq!(a.json["verdict"], "wrong");
    assert_eq!(a.json["solved"], false);
    assert!(a.json["reply"].is_null());

    // An illegal move: the rules' refusal.
    let a = c.post(&path, None, json!({"ply": 0, "move": "A9L"})).await;
    assert_eq!(a.status / 100, 4, "{}", a.json);
    // A ply that is not the solver's.
    let a = c
        .post(&path, None, json!({"ply": 1, "move": line[1]}))
        .await;
    assert_eq!(a.status, 400);
    assert_eq!(a.json["error"], "bad_request");

    // The line, move by move: each answer brings the opponent's reply from the line.
    let mut pos = start_pos;
    for k in (0..line.len()).step_by(2) {
        let a = c
            .post(&path, None, json!({"ply": k, "move": line[k]}))
            .await;
        assert_eq!(a.status, 200, "{}", a.json);
        assert_eq!(a.json["verdict"], "correct");
        pos = find_move(&pos, &rules, &line[k]).unwrap().next;
        assert_eq!(a.json["position"], pos.to_string());
        let last = k + 2 >= line.len();
        assert_eq!(a.json["solved"], last);
        if k + 1 == line.len() {
            assert!(a.json["reply"].is_null());
        } else if last {
            assert_eq!(a.json["reply"], Value::from(line[k + 1].clone()));
            assert!(a.json["legal"].is_null());
        } else {
            assert_eq!(a.json["reply"], Value::from(line[k + 1].clone()));
            pos = find_move(&pos, &rules, &line[k + 1]).unwrap().next;
            assert_eq!(a.json["reply_position"], pos.to_string());
            assert!(a.json["legal"]
                .as_array()
                .unwrap()
                .contains(&Value::from(line[k + 2].clone())));
        }
    }
}
