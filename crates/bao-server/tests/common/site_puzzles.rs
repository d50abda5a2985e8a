//! Puzzles mined from the site's own games (docs/api.md, "Puzzles"), shared by SQLite and
//! PostgreSQL: games the test plays through the API to their end, then read back from
//! `GET /api/puzzles`.
//!
//! The games: the engine plays kete against itself (levels 3 and 4, a seed), the test posts
//! the moves as a pass-and-play game. The test mines the same positions with bao-engine's
//! miner (as `bao puzzles mine --from` would) to know what the server must store, and picks
//! the first seed whose game has a puzzle.

use super::measure::CAP;
use super::play::{create, no_sweep};
use super::*;
use bao_engine::puzzle::{self, MineConfig, SourceGame};
use bao_engine::theme::themes;
use bao_rules::{Game, Position, Rules, Variant};
use bao_server::features::puzzles::site::{board, mine_match, SitePuzzlesConfig, CATCH_UP_MS};
use bao_server::store::CLAIM_LEASE_MS;
use serde_json::{json, Value};
use std::collections::HashSet;

/// The moves of a kete game between levels 3 and 4 from seed `seed`.
fn self_play(seed: u64) -> Vec<String> {
    super::measure::self_play(Variant::Kete, [3, 4], seed)
}

/// What the server must find in a game of `moves`: (ply, position, goal kind, themes) of
/// the first puzzle the miner finds at each position whose board is not one of `known`.
fn expected(moves: &[String], known: &HashSet<String>) -> Vec<(usize, String, Value)> {
    let rules = Rules::new(Variant::Kete);
    let mut game = Game::new(Position::start(&rules), rules);
    for m in moves {
        game.play_text(m).unwrap();
    }
    let mut cfg = MineConfig::for_rules(&rules, 0);
    cfg.games = 0;
    cfg.pool = 1;
    cfg.want = [10_000, 10_000, 0];
    let mut out = Vec::new();
    for (ply, pos) in game.positions().iter().enumerate() {
        if known.contains(&board(pos)) {
            continue;
        }
        let source = SourceGame {
            label: "test".into(),
            positions: vec![*pos],
        };
        if let Some(m) = puzzle::mine(&rules, &cfg, &[source], &mut |_| {})
            .into_iter()
            .next()
        {
            out.push((ply, pos.to_string(), json!(themes(&m.puzzle, &rules))));
        }
    }
    out
}

/// The kete boards the server ships.
async fn shipped(c: &Client) -> (usize, HashSet<String>) {
    let a = c.get("/api/puzzles?variant=kete", None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let list = a.json.as_array().unwrap();
    let rules = Rules::new(Variant::Kete);
    let boards = list
        .iter()
        .map(|p| board(&Position::parse(p["position"].as_str().unwrap(), &rules).unwrap()))
        .collect();
    (list.len(), boards)
}

/// Plays `moves` as a pass-and-play kete game, the side to move resigning at the cap:
/// the match's id.
async fn play(c: &Client, moves: &[String]) -> String {
    let a = create(
        c,
        json!({"variant": "kete", "opponent": {"kind": "local", "name": "Baraka"},
               "match": "single_game"}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let t = a.json["token"].as_str().unwrap().to_string();
    for (ply, m) in moves.iter().enumerate() {
        let r = c.play(&id, &t, m, ply as u64).await;
        assert_eq!(r.status, 200, "ply {ply}: {}", r.text);
    }
    // A game of CAP plies did not end by the rules (`self_play`).
    if moves.is_empty() || moves.len() == CAP {
        let r = c.resign(&id, &t, 1, moves.len() as u64).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    id
}

/// The first seed's game with a puzzle: its moves and what the server must find.
fn game_with_puzzles(known: &HashSet<String>) -> (Vec<String>, Vec<(usize, String, Value)>) {
    for seed in 1..40 {
        let moves = self_play(seed * 1000);
        let found = expected(&moves, known);
        if !found.is_empty() {
            return (moves, found);
        }
    }
    panic!("no game of 40 has a puzzle");
}

/// How many puzzles the site's mining of game 1 of match `id` gave, once it is done.
async fn mined(s: &Running, id: &str) -> u32 {
    eventually_some(&format!("match {id} mined"), || async {
        s.app.store.site_game_mined(id, 1).await.unwrap()
    })
    .await
}

/// A game that ends with puzzles in it has them served, with their themes, after the
/// shipped ones; a game without one adds nothing; the same game again adds no duplicate.
pub async fn finished_games_give_puzzles(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    let (count, known) = shipped(&c).await;
    // Resigned at once: the start position has no puzzle (the miner says so).
    assert!(expected(&[], &known).is_empty());
    let empty = play(&c, &[]).await;
    assert_eq!(mined(&s, &empty).await, 0);
    let (moves, found) = game_with_puzzles(&known);
    let id = play(&c, &moves).await;
    assert_eq!(mined(&s, &id).await as usize, found.len());
    for (ply, position, themes) in &found {
        let pid = format!("kete-g{id}-1-{ply}");
        let p = eventually_some(&format!("puzzle {pid} served"), || async {
            let a = c.get(&format!("/api/puzzles/{pid}"), None).await;
            (a.status == 200).then_some(a.json)
        })
        .await;
        assert_eq!(&p["position"], position, "{p}");
        assert_eq!(&p["themes"], themes, "{p}");
        assert!(!p["legal"].as_array().unwrap().is_empty(), "{p}");
        // Its first move checks as the solution.
        let first = p["moves"][0].as_str().unwrap();
        let r = c
            .post(
                &format!("/api/puzzles/{pid}/check"),
                None,
                json!({"ply": 0, "move": first}),
            )
            .await;
        assert_eq!(r.json["verdict"], "correct", "{}", r.text);
    }
    // Served after the shipped ones, in the order found.
    let list = c.get("/api/puzzles?variant=kete", None).await.json;
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids.len(), count + found.len());
    let site: Vec<String> = found
        .iter()
        .map(|(ply, _, _)| format!("kete-g{id}-1-{ply}"))
        .collect();
    assert_eq!(
        ids[count..],
        site.iter().map(String::as_str).collect::<Vec<_>>()[..]
    );
    // The same game again: every position is a puzzle already.
    let again = play(&c, &moves).await;
    assert_eq!(mined(&s, &again).await, 0);
    let list = c.get("/api/puzzles?variant=kete", None).await.json;
    assert_eq!(list.as_array().unwrap().len(), count + found.len());
    // A restart reads them from the store.
    s.stop().await;
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    eventually("the stored puzzles served after a restart", || async {
        let a = c.get("/api/puzzles?variant=kete", None).await;
        a.json.as_array().unwrap().len() == count + found.len()
    })
    .await;
    s.stop().await;
}

/// Two instances that mine the same game at once store its puzzles once; the one that
/// mined serves them, and the other too when `bus` (PostgreSQL: the events reach every
/// instance). With mining off neither mines a game by itself.
pub async fn two_instances_mine_once(url: &str, bus: bool) {
    let (a, b) = server(url)
        .lifecycle(no_sweep())
        .with(|c| c.site_puzzles = SitePuzzlesConfig { mine: false })
        .start_two()
        .await;
    let ca = Client::new(&a);
    let cb = Client::new(&b);
    let (count, known) = shipped(&ca).await;
    let (moves, found) = game_with_puzzles(&known);
    let id = play(&ca, &moves).await;
    assert_eq!(a.app.store.site_game_mined(&id, 1).await.unwrap(), None);
    let (x, y) = tokio::join!(
        mine_match(&a.app.games, &a.app.engine, &a.app.puzzles, &id),
        mine_match(&b.app.games, &b.app.engine, &b.app.puzzles, &id),
    );
    let (x, y) = (x.unwrap(), y.unwrap());
    assert!(
        x.is_empty() != y.is_empty(),
        "one instance mines the game: {x:?} {y:?}"
    );
    assert_eq!(x.len() + y.len(), found.len());
    let miner = if x.is_empty() { &cb } else { &ca };
    let other = if x.is_empty() { &ca } else { &cb };
    let serving = if bus { vec![miner, other] } else { vec![miner] };
    for c in serving {
        eventually("the instances serve the puzzles", || async {
            let l = c.get("/api/puzzles?variant=kete", None).await;
            l.json.as_array().unwrap().len() == count + found.len()
        })
        .await;
    }
    a.stop().await;
    b.stop().await;
}

/// A claim is a lease: a game claimed by an instance that stopped before finishing it is
/// left alone while the claim is younger than [`CLAIM_LEASE_MS`], then mined by another
/// instance (and offered by the catch-up); the stale claimer's finish is refused, and a
/// finished game is never mined again, however old its claim. Time is the servers' clock.
pub async fn claims_expire(url: &str) {
    let clock = manual_clock();
    let (a, b) = server(url)
        .lifecycle(no_sweep())
        .clock(&clock)
        .with(|c| c.site_puzzles = SitePuzzlesConfig { mine: false })
        .start_two()
        .await;
    let ca = Client::new(&a);
    let (count, known) = shipped(&ca).await;
    let (moves, found) = game_with_puzzles(&known);
    let id = play(&ca, &moves).await;
    let lease = std::time::Duration::from_millis(CLAIM_LEASE_MS as u64);
    let offered = |s: &Running| {
        let (store, clock, id) = (s.app.store.clone(), clock.clone(), id.clone());
        async move {
            let now = clock.now_ms();
            let games = store
                .unmined_games(now - CATCH_UP_MS, now, 100)
                .await
                .unwrap();
            games.contains(&(id, 1))
        }
    };
    assert!(offered(&b).await, "a finished game unclaimed is offered");
    // Instance a claims the game and stops before mining it.
    let claimed = clock.now_ms();
    assert!(a.app.store.claim_site_game(&id, 1, claimed).await.unwrap());
    // Within the lease, b leaves it alone, to its last millisecond.
    for by in [
        std::time::Duration::ZERO,
        lease - std::time::Duration::from_millis(1),
    ] {
        clock.advance(by);
        assert!(
            !offered(&b).await,
            "a claim within its lease is not offered"
        );
        let got = mine_match(&b.app.games, &b.app.engine, &b.app.puzzles, &id)
            .await
            .unwrap();
        assert!(got.is_empty(), "{got:?}");
        assert_eq!(b.app.store.site_game_mined(&id, 1).await.unwrap(), None);
    }
    // The lease over, the catch-up offers it and b mines it.
    clock.advance(std::time::Duration::from_millis(1));
    assert!(offered(&b).await, "a claim past its lease is offered");
    let got = mine_match(&b.app.games, &b.app.engine, &b.app.puzzles, &id)
        .await
        .unwrap();
    assert_eq!(got.len(), found.len(), "{got:?}");
    assert_eq!(
        b.app.store.site_game_mined(&id, 1).await.unwrap(),
        Some(found.len() as u32)
    );
    // Instance a back at its stale claim: its finish is refused, nothing stored twice.
    let late = a.app.store.add_site_puzzles(&id, 1, claimed, &[]).await;
    assert_eq!(late.unwrap(), None);
    assert_eq!(
        b.app.store.site_game_mined(&id, 1).await.unwrap(),
        Some(found.len() as u32)
    );
    // Finished, it is never offered nor mined again, however old its claim.
    clock.advance(lease * 3);
    assert!(!offered(&a).await, "a finished game is not offered");
    for s in [&a, &b] {
        assert!(!s
            .app
            .store
            .claim_site_game(&id, 1, clock.now_ms())
            .await
            .unwrap());
        let got = mine_match(&s.app.games, &s.app.engine, &s.app.puzzles, &id)
            .await
            .unwrap();
        assert!(got.is_empty(), "{got:?}");
    }
    let cb = Client::new(&b);
    let l = cb.get("/api/puzzles?variant=kete", None).await;
    assert_eq!(l.json.as_array().unwrap().len(), count + found.len());
    a.stop().await;
    b.stop().await;
}
