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
        tc: None,
        threads: 1,
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
        // Built-in players never forfeit: only the ply cap adjudicates.
        assert_eq!(termination.as_deref(), Some("adjudication"));
        assert!(g.forfeit.is_none(), "{:?}", g.forfeit);
    }
}

#[test]
fn players_parse_and_print() {
    for s in [
        "random",
        "greedy",
        "level:3",
        "depth:4",
        "nodes:500",
        "time:100",
        "time:100:2",
    ] {
        assert_eq!(s.parse::<PlayerSpec>().unwrap().to_string(), s);
    }
    assert_eq!(
        "cmd:bao engine".parse::<PlayerSpec>().unwrap(),
        PlayerSpec::Cmd(vec!["bao".into(), "engine".into()])
    );
    for bad in [
        "level:0", "level:9", "depth:x", "cmd:", "strong", "time:0", "time:5:0", "time:x",
    ] {
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

/// A protocol engine written in sh: it answers the handshake and `isready`, and on `go`
/// does what `on_go` says (shell code).
fn sh_engine(on_go: &str) -> PlayerSpec {
    // `sh -c`: no script file is left behind in the temporary folder.
    let script = format!(
        "while read -r cmd rest; do\n  case \"$cmd\" in\n    bao) echo baook ;;\n    isready) echo readyok ;;\n    go) {on_go} ;;\n    quit) exit 0 ;;\n  esac\ndone\n"
    );
    PlayerSpec::Cmd(vec!["sh".into(), "-c".into(), script])
}

/// Every forfeit is reported with its reason, ends the game "abandoned" (NOT-6.2) with the
/// other side winning, and the match goes on to the end (the engine is resynchronised or
/// restarted before its next game).
#[test]
fn faulty_engines_forfeit_with_their_reason_and_the_match_goes_on() {
    use bao_engine::arena::ForfeitReason;
    let cases = [
        ("illegal", "echo 'bestmove Z9'", ForfeitReason::IllegalMove),
        ("crash", "exit 3", ForfeitReason::Crash),
        (
            "error",
            "echo 'error internal: broken'",
            ForfeitReason::Protocol,
        ),
        ("hang", "sleep 5", ForfeitReason::Timeout),
    ];
    for (name, on_go, reason) in cases {
        let mut c = cfg(Variant::Kiswahili, "level:1", "random", 4);
        c.b = sh_engine(on_go);
        c.timeout = Duration::from_secs(1);
        c.concurrency = 1;
        let mut results = Vec::new();
        let wdl = run_match(&c, |g, _| results.push(g.clone()))
            .unwrap_or_else(|e| panic!("{name}: the match must go on: {e}"));
        assert_eq!(wdl.games(), 4, "{name}");
        assert_eq!(
            wdl.wins, 4,
            "{name}: every game is lost by the faulty engine"
        );
        for g in &results {
            let (side, f) = g.forfeit.as_ref().expect("a forfeit");
            assert_eq!(f.reason, reason, "{name}: {f}");
            assert_eq!((*side == bao_rules::Side::South), !g.a_south, "{name}");
            let text = g.record.to_string();
            assert!(text.contains("[Termination \"abandoned\"]"), "{text}");
            assert!(g.why.contains(reason.as_str()), "{}", g.why);
        }
    }
}

/// With a time control, a player that is too slow for it loses on time ("time", NOT-6.2).
#[test]
fn a_slow_engine_loses_on_time() {
    use bao_engine::arena::{ForfeitReason, TimeControl};
    let mut c = cfg(Variant::Kete, "level:1", "random", 2);
    // It answers with a legal first move, after 0.3 s, on a 0.2 s clock.
    c.b = sh_engine("sleep 0.3; echo 'bestmove A6L*'");
    c.tc = Some("0.2+0".parse::<TimeControl>().unwrap());
    c.concurrency = 1;
    let mut results = Vec::new();
    run_match(&c, |g, _| results.push(g.clone())).unwrap();
    assert_eq!(results.len(), 2);
    for g in &results {
        let (_, f) = g.forfeit.as_ref().expect("a loss on time");
        assert_eq!(f.reason, ForfeitReason::Time, "{f}");
        assert!(g.record.to_string().contains("[Termination \"time\"]"));
    }
    assert!("10".parse::<TimeControl>().is_ok());
    for bad in ["", "x+1", "0+1", "-1+0", "10+y"] {
        assert!(bad.parse::<TimeControl>().is_err(), "{bad}");
    }
}
