//! The engine pool: computer moves, hints and reviews share one bounded engine pool
//! (src/engine_pool.rs), live work first. Every wait here is for a state (the pool's
//! counters, a game's ply, a review's state); the long timeouts only turn a hang into a
//! failure.

mod common;

use bao_engine::search::Limits;
use bao_server::engine_pool::{EngineConfig, EnginePool};
use bao_server::features::puzzles::site::SitePuzzlesConfig;
use bao_server::Running;
use common::review::upload;
use common::{eventually_within, first_legal, server, sqlite_url, Client};
use serde_json::{json, Value};
use std::time::Duration;

/// A server whose engine pool has `threads` permits.
async fn start_pool(tag: &str, engine: EngineConfig) -> Running {
    // The site's puzzle mining takes review permits too: its catch-up at a safety sweep would
    // mine the records these tests upload, and the waiting reviews counted here would be two.
    server(&sqlite_url(tag))
        .with(|c| {
            c.engine = engine;
            c.site_puzzles = SitePuzzlesConfig { mine: false };
        })
        .start()
        .await
}

fn pool_of(threads: usize) -> EngineConfig {
    EngineConfig {
        threads,
        ..Default::default()
    }
}

/// A finished random kiswahili game of at least `min_plies` plies, as record text, and its
/// length (the first seed from 1 that gives one; printed).
fn long_record(min_plies: usize) -> (String, usize) {
    let rules = bao_rules::Rules::new(bao_rules::Variant::Kiswahili);
    for seed in 1..1000u64 {
        let mut rng = bao_rules::Rng::new(seed);
        let mut g = bao_rules::Game::new(bao_rules::Position::start(&rules), rules);
        while !g.outcome().is_over() && g.moves().len() < 600 {
            let moves: Vec<_> = g.legal_moves().into_iter().collect();
            let m = moves[rng.below(moves.len())];
            g.play(&m);
        }
        if g.outcome().is_over() && g.moves().len() >= min_plies {
            eprintln!("long game: seed {seed}, {} plies", g.moves().len());
            return (
                bao_rules::Record::from_game(&g).to_string(),
                g.moves().len(),
            );
        }
    }
    panic!("no random game of {min_plies} plies that ends");
}

async fn review_state(c: &Client, id: &str) -> Value {
    let a = c.get(&format!("/api/games/{id}/review"), None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json
}

/// Asks for the review of `id` and waits until its first ply is done (so it has searched
/// under a permit and goes on asking for more).
async fn start_review(c: &Client, id: &str) {
    let a = c
        .post(&format!("/api/games/{id}/review"), None, json!({}))
        .await;
    assert_eq!(a.status, 202, "{}", a.text);
    eventually_within(
        "the review's first ply",
        Duration::from_secs(300),
        || async {
            let st = review_state(c, id).await;
            assert_ne!(st["state"], "done", "the review ended too soon: {st}");
            st["state"] == "running" && st["done"].as_u64().unwrap() >= 1
        },
    )
    .await;
}

/// A kiswahili game against the computer at `level`, the computer on South (it moves
/// first): (id, the person's token).
async fn computer_first(c: &Client, variant: &str, level: u8) -> (String, String) {
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": variant, "rules": "-", "side": "N", "name": "Asha",
                   "opponent": {"kind": "computer", "level": level}}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["token"].as_str().unwrap().to_string(),
    )
}

#[tokio::test]
async fn a_computer_move_waits_for_one_review_ply_not_the_whole_review() {
    let s = start_pool("pool-first", pool_of(1)).await;
    let c = Client::new(&s);
    let id = upload(&c, &long_record(120).0).await;
    start_review(&c, &id).await;
    // The review holds the only permit ply after ply; a computer move asked for now gets
    // the permit at the end of the current ply.
    let (g, t) = computer_first(&c, "kiswahili", 1).await;
    eventually_within("the computer's move", Duration::from_secs(300), || async {
        c.state(&g, Some(&t)).await["ply"].as_u64().unwrap() >= 1
    })
    .await;
    let st = review_state(&c, &id).await;
    assert_eq!(st["state"], "running", "the review ended before the move");
    let done = st["done"].as_u64().unwrap();
    let total = st["total"].as_u64().unwrap();
    eprintln!("the computer moved while the review was at ply {done} of {total}");
    assert!(done < total, "{st}");
    let e = s.app.engine.stats();
    assert_eq!(e.max_searching, 1, "{e:?}");
    s.stop().await;
}

#[tokio::test]
async fn searches_never_outnumber_the_bound() {
    let s = start_pool("pool-bound", pool_of(2)).await;
    let c = Client::new(&s);
    let id = upload(&c, &long_record(120).0).await;
    start_review(&c, &id).await;
    // The test takes the whole pool (the second permit after the review's current ply), so
    // that six level-8 searches (kimasai: the longest budget) and the review all queue up
    // behind it.
    let hold = (
        s.app.engine.live(1).await.unwrap(),
        s.app.engine.live(1).await.unwrap(),
    );
    let mut games = Vec::new();
    for _ in 0..6 {
        games.push(computer_first(&c, "kimasai", 8).await);
    }
    eventually_within(
        "six live searches and the review waiting",
        Duration::from_secs(300),
        || async {
            let e = s.app.engine.stats();
            (e.live_waiting, e.review_waiting) == (6, 1)
        },
    )
    .await;
    // What waits shows on the health check.
    let h = c.get("/api/health", None).await;
    assert_eq!(h.json["engine"]["threads"], 2, "{}", h.text);
    assert_eq!(h.json["engine"]["busy"], 2, "{}", h.text);
    assert_eq!(h.json["engine"]["live_running"], 2, "{}", h.text);
    assert_eq!(h.json["engine"]["live_waiting"], 6, "{}", h.text);
    assert_eq!(h.json["engine"]["review_waiting"], 1, "{}", h.text);
    assert_eq!(
        h.json["reviews"],
        json!({"queued": 0, "running": 1}),
        "{}",
        h.text
    );
    drop(hold);
    for (g, t) in &games {
        eventually_within("every computer move", Duration::from_secs(600), || async {
            let e = s.app.engine.stats();
            assert!(e.searching <= 2 && e.busy <= 2, "{e:?}");
            c.state(g, Some(t)).await["ply"].as_u64().unwrap() >= 1
        })
        .await;
    }
    let e = s.app.engine.stats();
    assert_eq!(e.max_searching, 2, "{e:?}");
    assert!(e.granted >= 8, "{e:?}");
    s.stop().await;
}

#[tokio::test]
async fn a_review_completes_while_live_games_play() {
    let s = start_pool("pool-share", pool_of(1)).await;
    s.app.review.configure(|c| c.limits = Limits::nodes(5_000));
    let c = Client::new(&s);
    let (record, plies) = long_record(60);
    let id = upload(&c, &record).await;
    let a = c
        .post(&format!("/api/games/{id}/review"), None, json!({}))
        .await;
    assert_eq!(a.status, 202, "{}", a.text);
    // A person plays the computer (level 5) without pause, game after game, until the
    // review is done.
    let mut live_moves = 0;
    let mut game: Option<(String, String)> = None;
    let wait = async {
        loop {
            let st = review_state(&c, &id).await;
            if st["state"] == "done" {
                return st;
            }
            assert_ne!(st["state"], "failed", "{st}");
            let (g, t) = match &game {
                Some(x) => x.clone(),
                None => {
                    let a = c
                        .post(
                            "/api/games",
                            None,
                            json!({"variant": "kiswahili", "rules": "-", "side": "S",
                                   "name": "Asha", "match": "single_game",
                                   "opponent": {"kind": "computer", "level": 5}}),
                        )
                        .await;
                    assert_eq!(a.status, 201, "{}", a.text);
                    let x = (
                        a.json["id"].as_str().unwrap().to_string(),
                        a.json["token"].as_str().unwrap().to_string(),
                    );
                    game = Some(x.clone());
                    x
                }
            };
            let gs = c.state(&g, Some(&t)).await;
            if gs["result"] != "-" {
                game = None;
                continue;
            }
            if gs["side_to_move"] == "S" && gs["legal"].as_array().is_some_and(|l| !l.is_empty()) {
                let ply = gs["ply"].as_u64().unwrap();
                let r = c.play(&g, &t, &first_legal(&gs), ply).await;
                if r.status == 200 {
                    live_moves += 1;
                }
            } else {
                tokio::time::sleep(Duration::from_millis(5)).await;
            }
        }
    };
    let done = tokio::time::timeout(Duration::from_secs(600), wait)
        .await
        .expect("the review ends while games are played");
    assert_eq!(done["plies"].as_array().unwrap().len(), plies, "{done}");
    assert!(live_moves >= 1, "no live move was played beside the review");
    let e = s.app.engine.stats();
    assert_eq!(e.max_searching, 1, "{e:?}");
    s.stop().await;
}

#[tokio::test]
async fn a_client_gone_mid_hint_gives_its_permit_back() {
    // Hints that would search for ten minutes unless stopped.
    let s = start_pool(
        "pool-cancel",
        EngineConfig {
            threads: 1,
            hint: Some(Limits::time(600_000)),
            ..Default::default()
        },
    )
    .await;
    let c = Client::new(&s);
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kiswahili", "rules": "-", "side": "S", "name": "Asha",
                   "opponent": {"kind": "computer", "level": 1}}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let (g, t) = (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["token"].as_str().unwrap().to_string(),
    );
    // The hint asked on a connection of our own, closed once the search runs.
    let mut tcp = tokio::net::TcpStream::connect(s.addr).await.unwrap();
    let req =
        format!("GET /api/games/{g}/hint HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {t}\r\n\r\n");
    tokio::io::AsyncWriteExt::write_all(&mut tcp, req.as_bytes())
        .await
        .unwrap();
    eventually_within("the hint's search", Duration::from_secs(120), || async {
        let e = s.app.engine.stats();
        e.live_running == 1 && e.searching == 1
    })
    .await;
    drop(tcp);
    eventually_within(
        "the permit back after the client left",
        Duration::from_secs(120),
        || async { s.app.engine.stats().busy == 0 },
    )
    .await;
    // Its search stopped (it had ten minutes): the permit lives as long as the search.
    let e = s.app.engine.stats();
    assert_eq!((e.searching, e.live_running, e.live_waiting), (0, 0, 0));
    // The only permit serves the computer's answer to a move.
    let st = c.state(&g, Some(&t)).await;
    assert_eq!(c.play(&g, &t, &first_legal(&st), 0).await.status, 200);
    eventually_within(
        "the computer's answer",
        Duration::from_secs(120),
        || async { c.state(&g, Some(&t)).await["ply"].as_u64().unwrap() >= 2 },
    )
    .await;
    assert_eq!(s.app.engine.stats().max_searching, 1);
    s.stop().await;
}

/// A live search asks for up to its threads but waits for one only: a game is not held up
/// until a second permit is free.
#[tokio::test]
async fn a_live_search_takes_the_threads_that_are_free() {
    let pool = EnginePool::new(&pool_of(2));
    let both = pool.live(2).await.unwrap();
    assert_eq!(both.threads(), 2);
    assert_eq!(pool.stats().busy, 2);
    drop(both);
    let one = pool.live(1).await.unwrap();
    // One permit is taken: a search of two threads gets the other at once.
    let other = tokio::time::timeout(Duration::from_secs(60), pool.live(2))
        .await
        .expect("a free permit is given without waiting for a second one")
        .unwrap();
    assert_eq!((one.threads(), other.threads()), (1, 1));
    assert_eq!(pool.stats().busy, 2);
    drop((one, other));
    assert_eq!(pool.stats().busy, 0);
    // Never more than the bound, whatever is asked.
    assert_eq!(pool.live(64).await.unwrap().threads(), 2);
}

#[tokio::test]
async fn permits_come_back_after_a_panicking_search() {
    let pool = EnginePool::new(&pool_of(1));
    let p = pool.live(1).await.unwrap();
    let r = tokio::task::spawn_blocking(move || {
        p.run(|_| -> usize { panic!("a search that fails (test)") })
    })
    .await;
    assert!(r.is_err());
    let e = pool.stats();
    assert_eq!((e.busy, e.searching, e.live_running), (0, 0, 0), "{e:?}");
    assert_eq!(e.max_searching, 1);
    // A review ply that panics on its own thread.
    let p2 = pool.clone();
    let j = std::thread::spawn(move || {
        let stop = std::sync::atomic::AtomicBool::new(false);
        let mut permit = p2.review(&stop).expect("a free permit");
        permit.start();
        panic!("a review ply that fails (test)");
    });
    assert!(j.join().is_err());
    let e = pool.stats();
    assert_eq!((e.busy, e.searching, e.review_running), (0, 0, 0), "{e:?}");
    // The permit is free again.
    let again = tokio::time::timeout(Duration::from_secs(60), pool.live(1)).await;
    assert!(again.is_ok(), "the permit did not come back");
}

#[tokio::test]
async fn live_searches_go_before_a_waiting_review() {
    let pool = EnginePool::new(&pool_of(1));
    let first = pool.live(1).await.unwrap();
    // A review waits for the only permit (and keeps it until told)...
    let p2 = pool.clone();
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop2 = stop.clone();
    let (release, released) = std::sync::mpsc::channel::<()>();
    let review = std::thread::spawn(move || {
        let p = p2.review(&stop2);
        let got = p.is_some();
        let _ = released.recv();
        got
    });
    eventually_within("the review waiting", Duration::from_secs(60), || async {
        pool.stats().review_waiting == 1
    })
    .await;
    // ...and so does a computer move, asked for after it.
    let p3 = pool.clone();
    let second = tokio::spawn(async move { p3.live(1).await.map(|p| p.threads()) });
    eventually_within(
        "the live search waiting",
        Duration::from_secs(60),
        || async { pool.stats().live_waiting == 1 },
    )
    .await;
    drop(first);
    // The live search gets the permit, though the review asked first (had the review
    // taken it, it would keep it and this would never end).
    let got = tokio::time::timeout(Duration::from_secs(60), second).await;
    assert_eq!(got.expect("the live search got the permit").unwrap(), Ok(1));
    eventually_within("the review's turn", Duration::from_secs(60), || async {
        pool.stats().review_running == 1
    })
    .await;
    release.send(()).unwrap();
    assert!(review.join().unwrap());
    assert_eq!(pool.stats().busy, 0);
    // A review waiting when the server stops gives up.
    let hold = pool.live(1).await.unwrap();
    let p4 = pool.clone();
    let stop4 = stop.clone();
    let waiting = std::thread::spawn(move || p4.review(&stop4).is_some());
    eventually_within(
        "the review waiting again",
        Duration::from_secs(60),
        || async { pool.stats().review_waiting == 1 },
    )
    .await;
    stop.store(true, std::sync::atomic::Ordering::SeqCst);
    pool.wake_reviews();
    assert!(!waiting.join().unwrap());
    drop(hold);
    assert_eq!(pool.stats().review_waiting, 0);
}

#[tokio::test]
async fn timed_searches_use_the_search_threads() {
    let two = EngineConfig {
        threads: 2,
        search_threads: 2,
        ..Default::default()
    };
    // A move on a level's node budget searches on one thread; a hint on two.
    let s = start_pool("pool-threads", two).await;
    let c = Client::new(&s);
    let (g, t) = computer_first(&c, "kiswahili", 8).await;
    eventually_within("the computer's move", Duration::from_secs(300), || async {
        c.state(&g, Some(&t)).await["ply"].as_u64().unwrap() >= 1
    })
    .await;
    assert_eq!(s.app.engine.stats().max_searching, 1);
    let h = c.get(&format!("/api/games/{g}/hint"), Some(&t)).await;
    assert_eq!(h.status, 200, "{}", h.text);
    let e = s.app.engine.stats();
    assert_eq!((e.max_searching, e.busy), (2, 0), "{e:?}");
    s.stop().await;
    // A move on a clock searches on two.
    let s = start_pool("pool-threads-clock", two).await;
    let c = Client::new(&s);
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": "kiswahili", "rules": "-", "side": "N", "name": "Asha",
                   "opponent": {"kind": "computer", "level": 8},
                   "clock": {"initial_ms": 60_000, "increment_ms": 0}}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let g = a.json["id"].as_str().unwrap().to_string();
    eventually_within(
        "the computer's move on its clock",
        Duration::from_secs(300),
        || async { c.state(&g, None).await["ply"].as_u64().unwrap() >= 1 },
    )
    .await;
    let e = s.app.engine.stats();
    assert_eq!((e.max_searching, e.granted), (2, 1), "{e:?}");
    s.stop().await;
}

/// The figure of docs/api.md, "Operations": how long a live search waits for the only permit
/// while a review of a long game runs (default budget, 20,000 nodes per search), against
/// the review's own time per ply. Wall-clock times: run by hand on a quiet machine.
#[tokio::test]
#[ignore = "a measurement; run by hand: cargo test -p bao-server --test engine_pool -- --ignored --nocapture"]
async fn measure_live_wait_beside_a_review() {
    let s = start_pool("pool-measure", pool_of(1)).await;
    let c = Client::new(&s);
    let (record, plies) = long_record(120);
    let id = upload(&c, &record).await;
    let t0 = std::time::Instant::now();
    start_review(&c, &id).await;
    let mut waits = Vec::new();
    for _ in 0..40 {
        let asked = std::time::Instant::now();
        let p = s.app.engine.live(1).await.unwrap();
        waits.push(asked.elapsed().as_secs_f64() * 1000.0);
        drop(p);
        // Let the review take the permit again before the next sample.
        let g = s.app.engine.stats().granted;
        eventually_within("the review's next ply", Duration::from_secs(60), || async {
            s.app.engine.stats().granted > g || review_state(&c, &id).await["state"] == "done"
        })
        .await;
    }
    let done = common::review::wait_done(&c, &id, 1).await;
    let total_ms = t0.elapsed().as_secs_f64() * 1000.0;
    assert_eq!(done["plies"].as_array().unwrap().len(), plies);
    waits.sort_by(|a, b| a.total_cmp(b));
    let mean = waits.iter().sum::<f64>() / waits.len() as f64;
    eprintln!(
        "live wait beside a review: {} samples, median {:.1} ms, mean {:.1} ms, max {:.1} ms; \
         the review: {plies} plies in {total_ms:.0} ms ({:.1} ms per ply)",
        waits.len(),
        waits[waits.len() / 2],
        mean,
        waits[waits.len() - 1],
        total_ms / plies as f64
    );
    s.stop().await;
}
