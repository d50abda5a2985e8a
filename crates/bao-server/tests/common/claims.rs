//! A crash between a claim and its game (docs/api.md, "Finding an opponent", "If an instance
//! dies between a claim and its game"): instance A claims a pool pair, a seek or a challenge and stops dead right
//! there (the test-only fault point `SeeksConfig::halt_after_claim`), and is then shut down;
//! instance B on the same database undoes the claim with a fresh lease, so that the players
//! are paired again, or the seek is listed again, within the documented bound, whether a
//! player only polls or holds a player socket. On SQLite (tests/seeks_sqlite.rs) and
//! PostgreSQL (tests/claims_postgres.rs).

use super::accounts::{base, get, post};
use super::seeks::*;
use super::*;
use bao_server::features::seeks::SeeksConfig;
use std::time::Instant;

/// The crash tests' timings: production's 30 s, 2 s, 60 s scaled down, the stale-claim delay
/// still longer than the liveness (so a lease left as the claim found it has run out by the
/// time the claim is undone, as it has in production). The safety sweep (the upkeep) is an
/// hour away: the repair must come from the claim's own deadline.
pub fn crash_timings() -> SeeksConfig {
    SeeksConfig {
        liveness: Duration::from_millis(3_000),
        pair_every: Duration::from_millis(200),
        stale_claim: Duration::from_millis(4_000),
        upkeep: Duration::from_secs(3600),
        halt_after_claim: false,
        background_passes: true,
    }
}

/// The documented bound from a claim to the players paired again (docs/api.md): the stale
/// delay, then the repair at that deadline, and one pairing pass (at most a retry later).
fn pairing_bound(c: &SeeksConfig) -> Duration {
    c.stale_claim + c.pair_every
}

/// From a claim to the seek or challenge open again: the stale delay (the repair runs at
/// that deadline).
fn reopen_bound(c: &SeeksConfig) -> Duration {
    c.stale_claim
}

/// The time since the claim: the instances' clock stood still from the claim until
/// [`past_stale`] moved it on; real time counts from then.
struct SinceClaim {
    advanced: Duration,
    at: Instant,
}

impl SinceClaim {
    fn took(&self) -> Duration {
        self.advanced + self.at.elapsed()
    }
}

/// Moves the instances' clock just past the stale-claim delay after the claim (no test
/// waits for it), for the surviving instance's repair to find the claim stale.
fn past_stale(clock: &Clock, cfg: &SeeksConfig) -> SinceClaim {
    let advanced = cfg.stale_claim + Duration::from_millis(1);
    clock.advance(advanced);
    SinceClaim {
        advanced,
        at: Instant::now(),
    }
}

/// What a busy machine may add to a bound (the whole suite at once on two cores).
const SLACK: Duration = Duration::from_secs(3);

/// Instance A: claims, then halts; it never runs the upkeep (its upkeep would undo its own
/// claim, which a dead instance cannot).
fn halting() -> SeeksConfig {
    SeeksConfig {
        halt_after_claim: true,
        upkeep: Duration::from_secs(3600),
        ..crash_timings()
    }
}

/// A short shutdown grace, since A's halted request never ends.
fn short_grace(c: &mut bao_server::Config) {
    c.edge.shutdown_grace = Duration::from_millis(500);
}

/// Instance A of a crash test: it stops for ever right after its first claim, as if killed
/// there, on `clock`.
async fn doomed(url: &str, clock: &Clock) -> Running {
    server(url)
        .clock(clock)
        .behind_proxy()
        .seeks(halting())
        .with(short_grace)
        .start()
        .await
}

/// The ticket of a `POST /api/pool` answer.
fn ticket_of(a: &Answer) -> String {
    assert_eq!(a.status, 202, "{}", a.text);
    a.json["ticket"].as_str().unwrap().to_string()
}

/// A player who only polls `GET /api/pool/{ticket}` (as a page may) until
/// paired: the game. A 404 means the ticket was lost.
async fn poll_until_paired(b: &str, ticket: &str, cookie: &str) -> String {
    eventually_some_within("the ticket paired", Duration::from_secs(20), || async {
        let st = pool_ticket(b, ticket, Some(cookie)).await;
        assert_eq!(
            st.status, 200,
            "the ticket must survive the repair: {}",
            st.text
        );
        if st.json["status"] == "paired" {
            return Some(st.json["game"].as_str().unwrap().to_string());
        }
        assert_eq!(st.json["status"], "waiting", "{}", st.text);
        None
    })
    .await
}

/// A pool pair claimed by A, which dies before making the game; B's repair at the claim's deadline puts both back
/// in the pool alive, and they are paired again within the bound. Player one only polls its
/// ticket; player two polls too, or (`socket`) holds a player socket on B and never polls.
pub async fn pool_claim_crash(url: &str, socket: bool) {
    let cfg = crash_timings();
    let clock = manual_clock();
    let a = doomed(url, &clock).await;
    let ba = base(&a);
    let req = json!({"variant": "kimasai", "clock": {"initial_ms": 240000, "increment_ms": 2000}});
    let (_, c1) = account(&ba, "Crash").await;
    let (_, c2) = account(&ba, "Crash").await;
    let t1 = ticket_of(&join_pool(&ba, &req, Some(&c1)).await);
    let t2 = ticket_of(&join_pool(&ba, &req, Some(&c2)).await);
    // A's pass claims the pair and stops there.
    let store = a.app.store.clone();
    eventually("A claims the pair", || async {
        let (r1, r2) = (
            store.ticket(&t1).await.unwrap(),
            store.ticket(&t2).await.unwrap(),
        );
        r1.unwrap().status == "paired" && r2.unwrap().status == "paired"
    })
    .await;
    let game = store.ticket(&t1).await.unwrap().unwrap().game.unwrap();
    // A dies: its HTTP, its sockets and its background work end.
    a.stop().await;
    let b = server(url)
        .clock(&clock)
        .behind_proxy()
        .seeks(cfg)
        .with(short_grace)
        .start()
        .await;
    let claimed = past_stale(&clock, &cfg);
    let bb = base(&b);
    assert!(
        !b.app.store.game_exists(&game).await.unwrap(),
        "A never made the game"
    );
    let (g1, g2) = if socket {
        let mut sock = play_ws(&b.addr.to_string(), Some(&c2), &[]).await;
        tokio::join!(poll_until_paired(&bb, &t1, &c1), async {
            let m = next_of(&mut sock, "paired", None).await;
            assert_eq!(m["ticket"], t2.as_str());
            m["game"].as_str().unwrap().to_string()
        })
    } else {
        tokio::join!(
            poll_until_paired(&bb, &t1, &c1),
            poll_until_paired(&bb, &t2, &c2)
        )
    };
    let took = claimed.took();
    assert_eq!(g1, g2, "one game for the pair");
    assert_ne!(g1, game, "a new game, not the one never made");
    assert!(
        took <= pairing_bound(&cfg) + SLACK,
        "paired again {took:?} after the claim; the bound is {:?}",
        pairing_bound(&cfg)
    );
    let gs = get(&bb, &format!("/api/games/{g1}"), Some(&c1)).await;
    assert_eq!(gs.json["rated"], true, "{}", gs.text);
    assert!(gs.json["you"].is_string(), "{}", gs.text);
    b.stop().await;
}

/// A seek accepted through A, which dies before making the game (the acceptor never gets an
/// answer); the moment B's repair at the claim's deadline opens the seek again it is in the list, and another guest
/// can accept it. The owner's page has no socket any more (`socket` false: it only asks
/// `GET /api/seeks/{id}`), or has opened a new one on B.
pub async fn seek_claim_crash(url: &str, socket: bool) {
    let cfg = crash_timings();
    let clock = manual_clock();
    let a = doomed(url, &clock).await;
    let ba = base(&a);
    let p = post_seek(&ba, casual("Owner"), None).await;
    assert_eq!(p.status, 201, "{}", p.text);
    let (id, token) = id_and_token(&p);
    let sock_a = play_ws(&a.addr.to_string(), None, &[&token]).await;
    let acceptor = {
        let (ba, id) = (ba.clone(), id.clone());
        tokio::spawn(async move { accept(&ba, &id, None).await })
    };
    let store = a.app.store.clone();
    eventually("A claims the seek", || async {
        store.seek(&id).await.unwrap().unwrap().status == "accepted"
    })
    .await;
    // A dies: the acceptor's request and the owner's socket with it.
    acceptor.abort();
    drop(sock_a);
    a.stop().await;
    let b = server(url)
        .clock(&clock)
        .behind_proxy()
        .seeks(cfg)
        .with(short_grace)
        .start()
        .await;
    let claimed = past_stale(&clock, &cfg);
    let bb = base(&b);
    let mut sock = if socket {
        Some(play_ws(&b.addr.to_string(), None, &[&token]).await)
    } else {
        None
    };
    // The moment the store has it open again, the list has it.
    let store = b.app.store.clone();
    eventually("the seek is open again", || async {
        let open = store.seek(&id).await.unwrap().unwrap().status == "open";
        if open {
            assert!(listed(&bb, &id).await, "open again but not in the list");
        }
        open
    })
    .await;
    let took = claimed.took();
    assert!(
        took <= reopen_bound(&cfg) + SLACK,
        "open again {took:?} after the claim; the bound is {:?}",
        reopen_bound(&cfg)
    );
    let acc = accept(&bb, &id, None).await;
    assert_eq!(acc.status, 201, "{}", acc.text);
    let game = acc.json["game"].as_str().unwrap();
    match &mut sock {
        Some(sock) => {
            let m = next_of(sock, "seek_accepted", None).await;
            assert_eq!(m["game"], game);
        }
        None => {
            let st = seek_as(&bb, &id, &token).await;
            assert_eq!(st.json["status"], "accepted", "{}", st.text);
            assert_eq!(st.json["game"], game);
        }
    }
    b.stop().await;
}

/// A challenge accepted through A, which dies before making the game; B's repair at the claim's deadline opens it
/// again (the challenged sees it among the incoming ones) and it can be accepted.
pub async fn challenge_claim_crash(url: &str) {
    let cfg = crash_timings();
    let clock = manual_clock();
    let a = doomed(url, &clock).await;
    let ba = base(&a);
    let (_, ca) = account(&ba, "Asha").await;
    let (bname, cb) = account(&ba, "Baraka").await;
    let r = post(
        &ba,
        "/api/challenges",
        json!({"to": bname, "variant": "kete", "rules": "-", "clock": null,
               "match": "single_game", "rated": false}),
        Some(&ca),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let acceptor = {
        let (ba, id, cb) = (ba.clone(), id.clone(), cb.clone());
        tokio::spawn(async move { accept_challenge(&ba, &id, Some(&cb)).await })
    };
    let store = a.app.store.clone();
    eventually("A claims the challenge", || async {
        store.challenge(&id).await.unwrap().unwrap().status == "accepted"
    })
    .await;
    acceptor.abort();
    a.stop().await;
    let b = server(url)
        .clock(&clock)
        .behind_proxy()
        .seeks(cfg)
        .with(short_grace)
        .start()
        .await;
    let claimed = past_stale(&clock, &cfg);
    let bb = base(&b);
    eventually("the challenge is open again", || async {
        let l = get(&bb, "/api/challenges", Some(&cb)).await;
        l.json["incoming"]
            .as_array()
            .unwrap()
            .iter()
            .any(|c| c["id"] == id.as_str())
    })
    .await;
    let took = claimed.took();
    assert!(
        took <= reopen_bound(&cfg) + SLACK,
        "open again {took:?} after the claim"
    );
    let acc = accept_challenge(&bb, &id, Some(&cb)).await;
    assert_eq!(acc.status, 201, "{}", acc.text);
    let game = acc.json["game"].as_str().unwrap();
    assert!(b.app.store.game_exists(game).await.unwrap());
    b.stop().await;
}
