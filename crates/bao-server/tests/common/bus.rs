//! The event bus (docs/architecture.md, "The event bus") across two instances on one
//! PostgreSQL (tests/bus_postgres.rs): each kind of event reaches the other instance, and
//! a listener connection killed mid-stream misses nothing.

use super::*;
use bao_server::domain::events::Event;
use std::collections::HashSet;
use std::time::Instant;

/// Kills the listener connection of instance `instance` (by its application_name); answers
/// how many connections were ended.
pub async fn kill_listener(url: &str, instance: &str) -> i64 {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let n = sqlx::query(
        "SELECT COUNT(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = $1) x",
    )
    .bind(format!(
        "{}{instance}",
        bao_server::store::bus::LISTENER_NAME
    ))
    .fetch_one(&pool)
    .await
    .unwrap()
    .try_get::<i64, _>("n")
    .unwrap();
    pool.close().await;
    n
}

/// Instance A publishes 300 events while instance B's listener connection is killed three
/// times: B gets every one of them, once, in order.
pub async fn killed_listener_misses_nothing(url: &str) {
    let (a, b) = server(url).start_two().await;
    let mut rx = b.app.store.subscribe();
    let tag = bao_server::util::random_code(8);
    let n = 300;
    let store = a.app.store.clone();
    let t = tag.clone();
    let publisher = tokio::spawn(async move {
        for i in 0..n {
            store
                .publish(vec![Event::Tournament {
                    id: format!("{t}{i:04}"),
                }])
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(3)).await;
        }
    });
    let binst = b.app.store.instance().to_string();
    let killer = {
        let url = url.to_string();
        tokio::spawn(async move {
            let mut killed = 0;
            for _ in 0..3 {
                tokio::time::sleep(Duration::from_millis(250)).await;
                killed += kill_listener(&url, &binst).await;
            }
            killed
        })
    };
    let mut got = Vec::new();
    let mut seen = HashSet::new();
    let t0 = Instant::now();
    while got.len() < n && t0.elapsed() < Duration::from_secs(30) {
        let d = match tokio::time::timeout(Duration::from_secs(30), rx.recv()).await {
            Ok(Ok(d)) => d,
            Ok(Err(e)) => panic!("{e}"),
            Err(_) => break,
        };
        if let Event::Tournament { id } = &d.event {
            if let Some(i) = id.strip_prefix(&tag) {
                assert!(seen.insert(i.to_string()), "event {i} twice");
                got.push(i.parse::<usize>().unwrap());
            }
        }
    }
    publisher.await.unwrap();
    let killed = killer.await.unwrap();
    assert!(killed >= 3, "the listener was killed {killed} times");
    let replayed = b.app.store.events_replayed();
    println!("{replayed} events read back from the table after the listener was killed");
    assert!(
        replayed > 0,
        "some events were published while the listener was down"
    );
    assert_eq!(
        got,
        (0..n).collect::<Vec<_>>(),
        "every event, once, in order"
    );
    a.stop().await;
    b.stop().await;
}

/// A server whose safety sweeps (the core's, the tournaments', the seeks' upkeep) run an hour
/// apart (and not at start), as does a pairing pass's retry: only the event bus brings news.
/// With `pool` off it runs no pairing pass at all.
fn quiet(url: &str, pool: bool) -> Server {
    quiet_with(url, pool, Duration::from_secs(3600))
}

/// [`quiet`] with the seeks' upkeep every `upkeep`.
fn quiet_with(url: &str, pool: bool, upkeep: Duration) -> Server {
    let hour = Duration::from_secs(3600);
    server(url).behind_proxy().with(|c| {
        c.lifecycle.safety_sweep = hour;
        c.lifecycle.sweep_at_start = false;
        c.seeks = bao_server::features::seeks::SeeksConfig {
            liveness: Duration::from_secs(30),
            // A pass runs when a ticket joins (an event) and at a widening step (a deadline).
            pair_every: hour,
            background_passes: pool,
            // Repairing claims after a crash is a safety sweep too.
            upkeep,
            ..Default::default()
        };
    })
}

/// The next message of `kind` on `ws` within 10 s: with every sweep and poll set to an hour,
/// only an event on the bus can bring it.
async fn heard(ws: &mut Ws, kind: &str, what: &str) -> Value {
    tokio::time::timeout(Duration::from_secs(10), next_of(ws, kind, None))
        .await
        .unwrap_or_else(|_| panic!("not heard within 10 s: {what}"))
}

/// Two instances on one PostgreSQL, every safety sweep, the seek-list watcher and the
/// player sockets' reads left to the bus (an hour apart): a change made through instance A
/// reaches a socket on instance B (the seek list, a seek accepted, a pairing, a challenge
/// sent, answered and accepted, a game made, presence, a rating, a rematch offer).
pub async fn events_reach_the_other_instance(url: &str) {
    use super::ratings::{join_seat, rated_game};
    use super::seeks::{accept, account, casual, join_pool, play_ws, post_seek};
    let (a, b) = quiet(url, true).start_two().await;
    let ba = super::accounts::base(&a);
    let (asha, ca) = account(&ba, "bus-a").await;
    let (_, cb) = account(&ba, "bus-b").await;
    // Asha's page is on B; everything below is done through A.
    let mut home = play_ws(&b.addr.to_string(), Some(&ca), &[]).await;
    let mut bhome = play_ws(&b.addr.to_string(), Some(&cb), &[]).await;

    // The seek list, then a seek accepted: Asha's seek, posted through A, taken by Baraka.
    let posted = post_seek(&ba, casual("Asha"), Some(&ca)).await;
    assert_eq!(posted.status, 201, "{}", posted.text);
    heard(&mut home, "seeks", "a seek posted on the other instance").await;
    let seek = posted.json["id"].as_str().unwrap().to_string();
    let taken = accept(&ba, &seek, Some(&cb)).await;
    assert_eq!(taken.status, 201, "{}", taken.text);
    let m = heard(&mut home, "seek_accepted", "a seek accepted").await;
    assert_eq!(m["seek"], seek.as_str(), "{m}");
    assert_eq!(m["game"], taken.json["game"], "{m}");

    // A challenge sent, then accepted, through A.
    let body = json!({"to": asha, "variant": "kete", "rules": "-", "clock": null,
                      "match": "single_game", "rated": false});
    let sent = super::accounts::post(&ba, "/api/challenges", body, Some(&cb)).await;
    assert_eq!(sent.status, 201, "{}", sent.text);
    let m = heard(&mut home, "challenge", "a challenge sent").await;
    assert_eq!(m["challenge"]["id"], sent.json["id"], "{m}");
    let ch = sent.json["id"].as_str().unwrap();
    let yes = super::seeks::accept_challenge(&ba, ch, Some(&ca)).await;
    assert_eq!(yes.status, 201, "{}", yes.text);
    let m = heard(&mut bhome, "challenge_gone", "a challenge accepted").await;
    assert_eq!(m["why"], "accepted", "{m}");
    assert_eq!(m["game"], yes.json["game"], "{m}");

    // A pairing: both wait in the pool through A.
    let req = json!({"variant": "kimasai", "clock": null});
    for c in [&ca, &cb] {
        let t = join_pool(&ba, &req, Some(c)).await;
        assert_eq!(t.status, 202, "{}", t.text);
    }
    let m = heard(&mut home, "paired", "a pairing").await;
    assert!(m["game"].is_string(), "{m}");

    // A game made for an account: Baraka takes the seat of Asha's game through A.
    let (id, south, invite) = rated_game(&ba, &ca).await;
    let north = join_seat(&ba, &id, &invite, Some(&cb)).await;
    let m = heard(&mut bhome, "game", "a seat taken in a game").await;
    assert_eq!(m["game"], id.as_str(), "{m}");

    // Presence: South watches on A, North opens the game on B.
    let mut sws = ws(&a.addr.to_string(), &id, Some(&south)).await;
    let mut nws = ws(&b.addr.to_string(), &id, Some(&north)).await;
    let t0 = Instant::now();
    loop {
        let m = heard(
            &mut sws,
            "presence",
            "North's presence from the other instance",
        )
        .await;
        if m["connected"]["N"] == true {
            break;
        }
        assert!(t0.elapsed() < EVENTUALLY, "{m}");
    }

    // A rating: North resigns through A; the rating, written on A, reaches North's socket on B.
    // (A game without a move is not rated.)
    super::ratings::one_move_then_north_resigns(&Client::new(&a), &id, &south, &north).await;
    let t0 = Instant::now();
    loop {
        let m = tokio::time::timeout(Duration::from_secs(10), next_json(&mut nws))
            .await
            .expect("the rating within 10 s");
        if m["type"] == "state" && !m["state"]["rating_change"].is_null() {
            break;
        }
        assert!(t0.elapsed() < EVENTUALLY, "no rating: {m}");
    }
    drop(nws);
    // ... and North's home page on B hears of the rating on the player socket.
    let m = heard(&mut bhome, "rating", "a rating on the player socket").await;
    assert_eq!(m["game"], id.as_str(), "{m}");
    assert_eq!(m["game_no"], 1, "{m}");

    // A review made on A: its progress reaches a viewer of the game on B, up to made.
    let mut rws = ws(&b.addr.to_string(), &id, None).await;
    next_of(&mut rws, "state", None).await;
    let asked = super::accounts::post(
        &ba,
        &format!("/api/games/{id}/review"),
        json!({"game_no": 1}),
        None,
    )
    .await;
    assert!([200, 202].contains(&asked.status), "{}", asked.text);
    let t0 = Instant::now();
    loop {
        let m = heard(
            &mut rws,
            "review",
            "a review's progress from the other instance",
        )
        .await;
        assert_eq!(m["game_no"], 1, "{m}");
        if m["progress"]["state"] == "done" {
            break;
        }
        assert!(t0.elapsed() < EVENTUALLY, "not made: {m}");
    }
    drop(rws);

    // A rematch offer: Asha asks through A, Baraka's home page on B hears it.
    let asked = super::accounts::post(
        &ba,
        &format!("/api/games/{id}/rematch"),
        json!({}),
        Some(&ca),
    )
    .await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    let m = heard(&mut bhome, "rematch", "a rematch offer").await;
    assert_eq!(m["game"], id.as_str(), "{m}");
    drop(sws);
    a.stop().await;
    b.stop().await;
}

/// Signed-in player sockets that nothing happens to cost the store nothing: once open (a
/// first read and a look for seeks and tickets to keep alive), they take no connection.
/// `Store::queries` counts the connections taken.
pub async fn idle_sockets_take_no_connection(url: &str) {
    use super::seeks::{account, play_ws};
    let s = quiet(url, false).start().await;
    let b = super::accounts::base(&s);
    let mut cookies = Vec::new();
    for i in 0..20 {
        cookies.push(account(&b, &format!("idle{i}")).await.1);
    }
    // The instance's own work with no socket open (its leases and upkeep: the pending
    // claims every 10 s, presence every 30 s), over the same window.
    let window = Duration::from_secs(12);
    let before = s.app.store.queries();
    tokio::time::sleep(window).await;
    let alone = s.app.store.queries() - before;
    let mut socks = Vec::new();
    for c in &cookies {
        socks.push(play_ws(&s.addr.to_string(), Some(c), &[]).await);
    }
    // Each socket's first read and keep-alive, then quiet.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let before = s.app.store.queries();
    // Longer than the old 2 s poll and the keep-alive's 10 s.
    tokio::time::sleep(window).await;
    let with = s.app.store.queries() - before;
    println!(
        "store connections taken in 12 s: {alone} with no socket, {with} with 20 idle \
         player sockets"
    );
    // The upkeep's timer falls once or twice in a window (6 statements a time); nothing per
    // socket may (before the bus: four reads per socket every 2 s, about 480).
    assert!(
        with <= alone + 6,
        "20 idle player sockets: {with} store connections in 12 s, {alone} with none"
    );
    drop(socks);
    s.stop().await;
}

/// Two instances on one PostgreSQL, every safety sweep an hour apart: a tournament run
/// through instance A reaches the sockets on instance B. A page following it
/// (`/api/play/ws?tournament=ID`) hears of each change (players joining, the start with
/// round 1 paired, the result and the finish); a player's page hears of their round's game.
pub async fn tournament_news_reach_the_other_instance(url: &str) {
    use super::tournaments::{act, create_t, decide, players};
    let (a, b) = (
        quiet(url, false).start().await,
        quiet(url, false).start().await,
    );
    let ba = super::accounts::base(&a);
    let p = players(&ba, 2).await;
    let org = &p.cookie[&p.names[0]];
    let made = create_t(&ba, Some(org), json!({"format": {"kind": "round_robin"}})).await;
    assert_eq!(made.status, 201, "{}", made.text);
    let id = made.json["id"].as_str().unwrap().to_string();
    // A guest follows the tournament on B; the second player's page is on B too.
    let follow = |cookie: Option<String>| {
        let addr = b.addr.to_string();
        let id = id.clone();
        async move {
            use tokio_tungstenite::tungstenite::client::IntoClientRequest;
            let mut req = format!("ws://{addr}/api/play/ws?tournament={id}")
                .into_client_request()
                .unwrap();
            if let Some(c) = cookie {
                req.headers_mut().insert("cookie", c.parse().unwrap());
            }
            tokio_tungstenite::connect_async(req).await.unwrap().0
        }
    };
    let mut guest = follow(None).await;
    let mut player = follow(Some(p.cookie[&p.names[1]].clone())).await;
    // Told once as it opens: the page reads the tournament now that it listens.
    let m = heard(&mut guest, "tournament", "the first read").await;
    assert_eq!(m["id"], id.as_str(), "{m}");
    heard(&mut player, "tournament", "the first read").await;

    for n in &p.names {
        let j = act(&ba, &id, "join", Some(&p.cookie[n])).await;
        assert_eq!(j.status, 200, "{}", j.text);
        let m = heard(
            &mut guest,
            "tournament",
            "a player joined on the other instance",
        )
        .await;
        assert_eq!(m["id"], id.as_str(), "{m}");
    }
    let started = act(&ba, &id, "start", Some(org)).await;
    assert_eq!(started.status, 200, "{}", started.text);
    // Round 1 paired on A: B's follower hears of it, and reads it there.
    heard(&mut guest, "tournament", "the start on the other instance").await;
    let bb = super::accounts::base(&b);
    let t = super::tournaments::tournament_json(&bb, &id, None).await;
    assert_eq!(t["status"], "running", "{t}");
    let game = t["rounds"][0]["pairings"][0]["game"]
        .as_str()
        .unwrap_or_else(|| panic!("round 1 paired: {t}"))
        .to_string();
    // The second player's page on B is told of their round-1 game.
    let m = heard(&mut player, "game", "a tournament round's game").await;
    assert_eq!(m["game"], game.as_str(), "{m}");

    // The game decided through A: its result and the finish reach B's follower.
    let g = &t["rounds"][0]["pairings"][0];
    let (sn, nn) = (g["S"].as_str().unwrap(), g["N"].as_str().unwrap());
    decide(std::slice::from_ref(&ba), &game, &p, nn, sn, 1).await;
    let t0 = Instant::now();
    loop {
        heard(&mut guest, "tournament", "a result on the other instance").await;
        let t = super::tournaments::tournament_json(&bb, &id, None).await;
        if t["status"] == "finished" {
            break;
        }
        assert!(t0.elapsed() < EVENTUALLY, "not finished: {t}");
    }
    a.stop().await;
    b.stop().await;
}

/// A page following a tournament hears nothing of another tournament, and a socket of no
/// tournament nothing of any: the news is targeted.
pub async fn tournament_news_only_to_followers(url: &str) {
    use super::tournaments::{act, create_t, players};
    let s = quiet(url, false).start().await;
    let b = super::accounts::base(&s);
    let p = players(&b, 1).await;
    let org = &p.cookie[&p.names[0]];
    let one = create_t(&b, Some(org), json!({})).await.json["id"]
        .as_str()
        .unwrap()
        .to_string();
    let other = create_t(&b, Some(org), json!({})).await.json["id"]
        .as_str()
        .unwrap()
        .to_string();
    let mut ws = {
        let (addr, id) = (s.addr.to_string(), one.clone());
        tokio_tungstenite::connect_async(format!("ws://{addr}/api/play/ws?tournament={id}"))
            .await
            .unwrap()
            .0
    };
    heard(&mut ws, "tournament", "the first read").await;
    let j = act(&b, &other, "join", Some(org)).await;
    assert_eq!(j.status, 200, "{}", j.text);
    let j = act(&b, &one, "join", Some(org)).await;
    assert_eq!(j.status, 200, "{}", j.text);
    let m = heard(&mut ws, "tournament", "a join in the followed tournament").await;
    assert_eq!(m["id"], one.as_str(), "only the followed one: {m}");
    s.stop().await;
}

/// A challenge that expires reaches both players' sockets on instance B: the expiry is a
/// deadline with its own timer (set by the challenge's event), so with every safety sweep an
/// hour apart, moving the clock past its 24 h is enough: `challenge_gone` with `expired`.
pub async fn challenge_expiry_reaches_the_other_instance(url: &str) {
    use super::seeks::{account, play_ws};
    let clock = super::manual_clock();
    let a = quiet(url, false).clock(&clock).start().await;
    let b = quiet(url, false).clock(&clock).start().await;
    let ba = super::accounts::base(&a);
    let (asha, ca) = account(&ba, "exp-a").await;
    let (_, cb) = account(&ba, "exp-b").await;
    let mut to = play_ws(&b.addr.to_string(), Some(&ca), &[]).await;
    let mut from = play_ws(&b.addr.to_string(), Some(&cb), &[]).await;
    let body = json!({"to": asha, "variant": "kete", "rules": "-", "clock": null,
                      "match": "single_game", "rated": false});
    let sent = super::accounts::post(&ba, "/api/challenges", body, Some(&cb)).await;
    assert_eq!(sent.status, 201, "{}", sent.text);
    let id = sent.json["id"].as_str().unwrap().to_string();
    heard(&mut to, "challenge", "the challenge sent").await;
    // Its 24 h pass: the instances' expiry timers come due.
    clock.advance(Duration::from_millis(
        bao_server::features::seeks::CHALLENGE_MS as u64 + 1_000,
    ));
    for ws in [&mut to, &mut from] {
        let m = heard(
            ws,
            "challenge_gone",
            "a challenge expired on the other instance",
        )
        .await;
        assert_eq!(m["id"], id.as_str(), "{m}");
        assert_eq!(m["why"], "expired", "{m}");
    }
    a.stop().await;
    b.stop().await;
}
