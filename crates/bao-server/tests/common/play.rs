//! Tests of play (docs/api.md, "Play": clocks, rematch, pass and play, takeback and hint), run on
//! SQLite and PostgreSQL with the same code (tests/clock.rs, rematch.rs, local.rs, takeback.rs).

use super::*;
use bao_server::game::Lifecycle;
use serde_json::json;
use std::sync::atomic::Ordering;
use std::time::Duration;

/// A safety sweep that never runs by itself, not even at start: only the clock's own timer
/// can end a game on time (the tests count the losses on time each instance records).
pub fn no_sweep() -> Lifecycle {
    Lifecycle {
        sweep_every: Duration::from_secs(3600),
        safety_sweep: Duration::from_secs(3600),
        sweep_at_start: false,
        ..Default::default()
    }
}

/// A safety sweep every 50 ms (after a restart, nothing but the sweep knows the game).
pub fn fast_sweep() -> Lifecycle {
    Lifecycle {
        sweep_every: Duration::from_millis(50),
        safety_sweep: Duration::from_millis(50),
        ..Default::default()
    }
}

/// Creates a game with `body` merged into a kiswahili game against a person on South.
pub async fn create(c: &Client, extra: Value) -> Answer {
    let mut body = json!({"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "S",
                          "name": "Asha"});
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    c.post("/api/games", None, body).await
}

/// A game between two people with `clock`: (id, South's token, North's token).
pub async fn clocked_pair(c: &Client, clock: Value, format: &str) -> (String, String, String) {
    let a = create(c, json!({"clock": clock, "match": format})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let t0 = a.json["token"].as_str().unwrap().to_string();
    let t1 = c.join(&id, a.json["invite"].as_str().unwrap()).await;
    (id, t0, t1)
}

/// Polls the database (not the game in memory, and no request to the server) until the
/// first game of match `id` has ended; returns its termination.
async fn wait_stored_end(s: &Running, id: &str) -> Option<String> {
    eventually_some(&format!("game {id} ended in the database"), || async {
        let m = s.app.store.load(id).await.unwrap().unwrap();
        let r = m.past.first().unwrap_or(&m.current);
        (r.result != bao_rules::RecordResult::Unfinished)
            .then(|| r.termination.map(|t| t.as_str().to_string()))
    })
    .await
}

/// Bad time controls get a 400 naming what is wrong; no clock gives `"clock": null`.
pub async fn clock_requests_are_checked(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    for (clock, word) in [
        (json!({"initial_ms": 50, "increment_ms": 0}), "initial_ms"),
        (
            json!({"initial_ms": 20_000_000, "increment_ms": 0}),
            "initial_ms",
        ),
        (
            json!({"initial_ms": 60_000, "increment_ms": -1}),
            "increment_ms",
        ),
        (json!({"days_per_move": 0}), "days_per_move"),
        (json!({"days_per_move": 15}), "days_per_move"),
        (json!({"minutes": 5}), "initial_ms"),
        (json!("5+3"), "initial_ms"),
    ] {
        let a = create(&c, json!({ "clock": clock })).await;
        assert_eq!(a.status, 400, "{clock}: {}", a.text);
        assert_eq!(a.json["error"], "bad_request", "{}", a.text);
        assert!(
            a.json["message"].as_str().unwrap().contains(word),
            "{clock}: {}",
            a.text
        );
    }
    let a = create(&c, json!({})).await;
    let st = c.state(a.json["id"].as_str().unwrap(), None).await;
    assert!(st["clock"].is_null(), "{st}");
    // A correspondence clock: one day each, not running while the seat is open.
    let a = create(&c, json!({"clock": {"days_per_move": 1}})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let st = c.state(a.json["id"].as_str().unwrap(), None).await;
    assert_eq!(st["clock"]["S"], 86_400_000, "{st}");
    assert_eq!(st["clock"]["N"], 86_400_000, "{st}");
    assert!(st["clock"]["running"].is_null(), "{st}");
    assert_eq!(st["clock"]["control"]["days_per_move"], 1);
    s.stop().await;
}

/// The clock starts when both seats are taken; a move adds the increment and starts the
/// other clock; the frames of the WebSocket carry the clocks.
pub async fn clock_runs_for_the_side_to_move(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    // 60 s and a 10 s increment: a clock that was charged and given its increment is above
    // 60 s after a quick move; one that was neither stays at exactly 60 s.
    let a = create(
        &c,
        json!({"clock": {"initial_ms": 60_000, "increment_ms": 10_000}}),
    )
    .await;
    let id = a.json["id"].as_str().unwrap().to_string();
    let south = a.json["token"].as_str().unwrap().to_string();
    let st = c.state(&id, None).await;
    assert!(st["clock"]["running"].is_null(), "seat open: {st}");
    assert_eq!(st["clock"]["S"], 60_000);
    let joined = std::time::Instant::now();
    let north = c.join(&id, a.json["invite"].as_str().unwrap()).await;
    let st = c.state(&id, None).await;
    assert_eq!(st["clock"]["running"], "S", "{st}");
    assert!(st["clock"]["S"].as_i64().unwrap() <= 60_000);
    let mut ws_n = ws(&s.addr.to_string(), &id, Some(&north)).await;
    next_of(&mut ws_n, "state", None).await;
    // North's clock starts when South's move arrives: not before this.
    let north_starts = std::time::Instant::now();
    assert_eq!(c.play(&id, &south, &first_legal(&st), 0).await.status, 200);
    // South's clock started at the join and stopped when the move arrived: both inside this.
    let window = joined.elapsed().as_millis() as i64 + 2;
    let frame = next_of(&mut ws_n, "move", Some(1)).await;
    let st = c.state(&id, None).await;
    let mut south_left = None;
    for clock in [&frame["clock"], &st["clock"]] {
        assert_eq!(clock["running"], "N", "{clock}");
        let s_left = clock["S"].as_i64().unwrap();
        assert!(
            (70_000 - window..=70_000).contains(&s_left),
            "South: 60 s - the time spent (at most {window} ms) + the 10 s increment: {clock}"
        );
        // South's clock is stopped: the frame and the later state show the same figure.
        assert_eq!(*south_left.get_or_insert(s_left), s_left, "{clock}");
        assert!(clock["N"].as_i64().unwrap() <= 60_000, "{clock}");
    }
    // North thinks a second: charged at least that, then South's clock runs again.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(c.play(&id, &north, &first_legal(&st), 1).await.status, 200);
    let spent = north_starts.elapsed().as_millis() as i64 + 2;
    let st = c.state(&id, None).await;
    assert_eq!(st["clock"]["running"], "S", "{st}");
    let n_left = st["clock"]["N"].as_i64().unwrap();
    assert!(
        (70_000 - spent..=69_000).contains(&n_left),
        "North: 60 s - a second or a little more (at most {spent} ms) + 10 s: {}",
        st["clock"]
    );
    s.stop().await;
}

/// The clocks of a whole 4 s game through `south_c` (South's moves) and `north_c` (North's),
/// one instance or two: South thinks 700 ms a move, North answers at once, and South loses
/// on time. After every move both clocks are read: the mover's has been charged the time the
/// server saw (inside the window the test measured around the two requests) plus
/// `increment`, the other's runs; at the end South's shows 0 and North's what it had.
pub async fn clock_charges_every_move(south_c: &Client, north_c: &Client, increment: i64) {
    const INITIAL: i64 = 4_000;
    const THINK: u64 = 700;
    let a = create(
        south_c,
        json!({"clock": {"initial_ms": INITIAL, "increment_ms": increment},
               "match": "single_game"}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let south = a.json["token"].as_str().unwrap().to_string();
    let t0 = std::time::Instant::now();
    let ms = |t: std::time::Instant| t.duration_since(t0).as_millis() as i64;
    // When the running clock started, as a window of test time: [earliest, latest].
    let mut started = (ms(std::time::Instant::now()), 0);
    let north = north_c.join(&id, a.json["invite"].as_str().unwrap()).await;
    started.1 = ms(std::time::Instant::now());
    let mut left = [INITIAL, INITIAL]; // South, North
    let mut ply = 0u64;
    let mut south_moves = 0;
    loop {
        let mover = (ply % 2) as usize; // South moves at even plies
        let (c, token) = if mover == 0 {
            (south_c, &south)
        } else {
            (north_c, &north)
        };
        let st = wait_state(c, &id, None, |st| st["ply"] == ply || st["result"] != "-").await;
        if st["result"] != "-" {
            break;
        }
        if mover == 0 {
            tokio::time::sleep(Duration::from_millis(THINK)).await;
        }
        let sent = ms(std::time::Instant::now());
        let r = c.play(&id, token, &first_legal(&st), ply).await;
        let answered = ms(std::time::Instant::now());
        if r.status == 409 && r.json["error"] == "game_over" {
            assert_eq!(mover, 0, "only South runs out of time here: {}", r.text);
            break;
        }
        assert_eq!(r.status, 200, "{}", r.text);
        ply += 1;
        if mover == 0 {
            south_moves += 1;
        }
        // The server charged the time from the clock's start to the move's arrival.
        let (least, most) = ((sent - started.1).max(0), answered - started.0 + 2);
        let before = left[mover];
        // Both players read the clocks, each through their own instance, and see one figure
        // for the stopped clock.
        let mut seen = None;
        for reader in [south_c, north_c] {
            let st = wait_state(reader, &id, None, |st| st["ply"] == ply).await;
            let read = ms(std::time::Instant::now());
            let clock = &st["clock"];
            let (mine, theirs) = if mover == 0 { ("S", "N") } else { ("N", "S") };
            let now_left = clock[mine].as_i64().unwrap();
            if st["result"] == "-" {
                assert_eq!(clock["running"], theirs, "ply {ply}: {clock}");
            }
            assert!(
                (before - most + increment..=before - least + increment).contains(&now_left),
                "ply {ply}: {mine} had {before} ms, spent {least} to {most} ms, gets {increment}: {clock}"
            );
            // The other clock runs from the move on: at most the time since it started.
            let other = clock[theirs].as_i64().unwrap();
            let prev = left[1 - mover];
            assert!(
                (prev - (read - sent) - 2..=prev).contains(&other),
                "ply {ply}: {theirs} had {prev} ms: {clock}"
            );
            assert_eq!(
                *seen.get_or_insert(now_left),
                now_left,
                "ply {ply}: {clock}"
            );
        }
        left[mover] = seen.unwrap();
        started = (sent, answered);
    }
    let st = wait_state(north_c, &id, None, |st| st["result"] != "-").await;
    assert_eq!(st["result"], "N", "South loses on time: {st}");
    assert_eq!(st["termination"], "time", "{st}");
    assert_eq!(st["clock"]["S"], 0, "{st}");
    assert_eq!(
        st["clock"]["N"], left[1],
        "North's clock stopped where it was: {st}"
    );
    assert!(st["clock"]["running"].is_null(), "{st}");
    // South made moves and lost on time after using its 4 s (and its increments).
    assert!(
        (1..=12).contains(&south_moves),
        "South made {south_moves} moves of {THINK} ms with 4 s"
    );
}

/// A clock runs out while nobody is connected and nobody asks: the server's own timer ends
/// the game (Termination "time", in the state and the record), and a late move is refused.
pub async fn clock_runs_out_unattended(url: &str) {
    let clock = manual_clock();
    let s = server(url)
        .clock(&clock)
        .lifecycle(no_sweep())
        .start()
        .await;
    let c = Client::new(&s);
    let (id, south, north) = clocked_pair(
        &c,
        json!({"initial_ms": 300, "increment_ms": 0}),
        "single_game",
    )
    .await;
    // South is to move and does nothing: nothing happens until the time has run out.
    clock.advance(Duration::from_millis(299));
    let st = c.state(&id, None).await;
    assert_eq!(
        (st["clock"]["S"].as_i64(), st["result"].as_str()),
        (Some(1), Some("-")),
        "{st}"
    );
    clock.advance(Duration::from_millis(2));
    assert_eq!(wait_stored_end(&s, &id).await.as_deref(), Some("time"));
    let st = c.state(&id, Some(&north)).await;
    assert_eq!(st["result"], "N", "{st}");
    assert_eq!(st["termination"], "time", "{st}");
    assert!(st["clock"]["running"].is_null(), "{st}");
    assert_eq!(st["clock"]["S"], 0, "{st}");
    assert_eq!(
        st["result_text"], "South ran out of time: North has won",
        "{st}"
    );
    let late = c.play(&id, &south, "A5L", 0).await;
    assert_eq!(late.status, 409, "{}", late.text);
    assert_eq!(late.json["error"], "game_over", "{}", late.text);
    let rec = c.get(&format!("/api/games/{id}/record"), None).await;
    assert!(rec.text.contains("[Termination \"time\"]"), "{}", rec.text);
    assert!(rec.text.contains("[Result \"N\"]"), "{}", rec.text);
    // (Exactly-once over two instances is tested in clock_instances.rs.)
    s.stop().await;
}

/// The clock survives a restart: the time spent while the server was down counts, and the
/// game still ends on time, decided after the restart (by the sweep: nothing is in memory).
pub async fn clock_resumes_after_restart(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    let (id, south, _north) = clocked_pair(
        &c,
        json!({"initial_ms": 4_000, "increment_ms": 0}),
        "single_game",
    )
    .await;
    let st = c.state(&id, None).await;
    assert_eq!(c.play(&id, &south, &first_legal(&st), 0).await.status, 200);
    let moved = std::time::Instant::now();
    s.stop().await;
    let s = server(url).lifecycle(fast_sweep()).start().await;
    let c = Client::new(&s);
    let st = c.state(&id, None).await;
    let down = moved.elapsed().as_millis() as i64;
    assert_eq!(st["clock"]["running"], "N", "{st}");
    // North's clock ran from the move on, through the restart.
    let n_left = st["clock"]["N"].as_i64().unwrap();
    assert!(
        n_left <= 4_000 - down + 50,
        "{n_left} left after {down} ms: {st}"
    );
    assert!(st["clock"]["S"].as_i64().unwrap() <= 4_000, "{st}");
    s.app.games.forget_all();
    assert_eq!(wait_stored_end(&s, &id).await.as_deref(), Some("time"));
    let st = wait_state(&c, &id, None, |st| st["termination"] == "time").await;
    assert_eq!(st["result"], "S", "{st}");
    s.stop().await;
}

/// Two instances on one database both have the game in memory with their timers running:
/// exactly one records the loss on time, and the other shows it.
pub async fn clock_loss_recorded_once(url: &str) {
    let (a, b) = server(url).lifecycle(no_sweep()).start_two().await;
    let (ca, cb) = (Client::new(&a), Client::new(&b));
    for format in ["single_game", "best_of_three"] {
        let (id, _south, _north) =
            clocked_pair(&ca, json!({"initial_ms": 300, "increment_ms": 0}), format).await;
        cb.state(&id, None).await;
        wait_stored_end(&a, &id).await;
        for c in [&ca, &cb] {
            wait_state(c, &id, None, |st| st["match"]["games"][0]["result"] == "N").await;
        }
        if format == "best_of_three" {
            // Game 2 starts with full clocks; let it (and the rest) run out too, then count.
            for c in [&ca, &cb] {
                wait_state(c, &id, None, |st| st["match"]["over"] == true).await;
            }
        }
        let m = a.app.store.load(&id).await.unwrap().unwrap();
        let games = m.past.len() as u64 + 1;
        // The counters grow just after the commit the database shows: wait for them.
        let count = || {
            a.app.games.time_losses.load(Ordering::SeqCst)
                + b.app.games.time_losses.load(Ordering::SeqCst)
        };
        let what = format!("{format}: {games} losses on time counted");
        eventually(&what, || async { count() >= games }).await;
        let (ra, rb) = (
            a.app.games.time_losses.swap(0, Ordering::SeqCst),
            b.app.games.time_losses.swap(0, Ordering::SeqCst),
        );
        assert_eq!(
            ra + rb,
            games,
            "{format}: one record per game lost on time (instance a {ra}, b {rb}; stored: {:?})",
            m.past
                .iter()
                .chain([&m.current])
                .map(|r| (r.result, r.termination))
                .collect::<Vec<_>>()
        );
        let st = cb.state(&id, None).await;
        let wins =
            st["match"]["wins"]["S"].as_u64().unwrap() + st["match"]["wins"]["N"].as_u64().unwrap();
        assert_eq!(wins, games, "{format}: {st}");
    }
    a.stop().await;
    b.stop().await;
}

/// A finished clocked game between Asha (South) and Baraka: (id, South's token, North's).
async fn finished_pair(c: &Client) -> (String, String, String) {
    let (id, south, north) = clocked_pair(
        c,
        json!({"initial_ms": 60_000, "increment_ms": 1_000}),
        "single_game",
    )
    .await;
    let r = c.resign(&id, &north, 1, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    (id, south, north)
}

/// `POST /api/games/{id}/rematch[/what]` for `token` with `body`.
async fn rematch_call(c: &Client, id: &str, what: &str, token: &str, body: Value) -> Answer {
    c.post(&format!("/api/games/{id}/rematch{what}"), Some(token), body)
        .await
}

/// A rematch against a person is an offer: asking makes no game; the other player sees the
/// offer live and declines it (no game, the asker cannot ask again), or accepts it (one
/// game, sides swapped, same rules and clock, the clock running); asking again once made
/// answers the same game.
pub async fn rematch_is_an_offer(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    // Declined.
    let (id, south, north) = finished_pair(&c).await;
    let mut ws_n = ws(&s.addr.to_string(), &id, Some(&north)).await;
    next_of(&mut ws_n, "state", None).await;
    let stranger = rematch_call(&c, &id, "", "nobody", json!({})).await;
    assert_eq!(stranger.status, 403, "{}", stranger.text);
    let asked = rematch_call(&c, &id, "", &south, json!({})).await;
    assert_eq!(asked.status, 202, "an offer, not a game: {}", asked.text);
    assert_eq!(asked.json["offered"], true, "{}", asked.text);
    let ms = asked.json["expires_in_ms"].as_i64().unwrap();
    assert!((1..=60_000).contains(&ms), "{}", asked.text);
    // Asking again while it waits changes nothing.
    let again = rematch_call(&c, &id, "", &south, json!({})).await;
    assert_eq!(again.status, 202, "{}", again.text);
    let offer = next_of(&mut ws_n, "state", None).await;
    let r = &offer["state"]["rematch"];
    assert_eq!(r["status"], "offered", "{offer}");
    assert_eq!(r["by"], "S", "{offer}");
    assert!(r["id"].is_null(), "no game yet: {offer}");
    // South cannot decline its own offer; North declines.
    let own = rematch_call(&c, &id, "/decline", &south, json!({})).await;
    assert_eq!(own.status, 409, "{}", own.text);
    let no = rematch_call(&c, &id, "/decline", &north, json!({})).await;
    assert_eq!(no.status, 200, "{}", no.text);
    let st = c.state(&id, Some(&south)).await;
    assert_eq!(st["rematch"]["status"], "declined", "{st}");
    assert_eq!(st["rematch"]["by"], "S", "{st}");
    let refused = rematch_call(&c, &id, "", &south, json!({})).await;
    assert_eq!(refused.status, 409, "{}", refused.text);
    assert_eq!(
        refused.json["error"], "rematch_declined",
        "{}",
        refused.text
    );
    // No game was made: the match names none, in memory and in the database (the new game
    // and the match's `rematch` are written in one transaction).
    assert!(st["rematch"]["id"].is_null(), "{st}");
    let stored = s.app.store.load(&id).await.unwrap().unwrap();
    assert!(stored.rematch.is_none(), "a declined rematch makes no game");

    // Accepted, through the other player's socket view.
    let (id, south, north) = finished_pair(&c).await;
    let mut ws_s = ws(&s.addr.to_string(), &id, Some(&south)).await;
    next_of(&mut ws_s, "state", None).await;
    let asked = rematch_call(&c, &id, "", &north, json!({})).await;
    assert_eq!(asked.status, 202, "{}", asked.text);
    let yes = rematch_call(&c, &id, "", &south, json!({"accept": true})).await;
    assert_eq!(yes.status, 200, "{}", yes.text);
    let new = yes.json["id"].as_str().unwrap().to_string();
    assert_ne!(new, id);
    assert!(
        yes.headers.get("set-cookie").is_some(),
        "the seat cookie of the new game"
    );
    // The asker's page learns that the game is made, and where.
    let made = wait_state(&c, &id, Some(&north), |st| {
        st["rematch"]["status"] == "made"
    })
    .await;
    assert_eq!(made["rematch"]["id"], new, "{made}");
    assert_eq!(made["rematch"]["by"], "N", "{made}");
    let late = rematch_call(&c, &id, "", &north, json!({})).await;
    assert_eq!(late.status, 200, "{}", late.text);
    assert_eq!(late.json["id"], new);
    let old = c.state(&id, None).await;
    let ns = c.state(&new, Some(&south)).await;
    assert_eq!(ns["you"], "N", "sides swapped: {ns}");
    assert_eq!(c.state(&new, Some(&north)).await["you"], "S");
    assert_eq!(ns["variant"], old["variant"]);
    assert_eq!(ns["rules"], old["rules"]);
    assert_eq!(ns["rated"], old["rated"]);
    assert_eq!(ns["clock"]["control"], old["clock"]["control"]);
    assert_eq!(ns["clock"]["running"], "S", "both seats are taken: {ns}");
    assert_eq!(ns["players"]["S"]["name"], "Baraka");
    assert_eq!(c.play(&new, &north, &first_legal(&ns), 0).await.status, 200);
    s.stop().await;
}

/// Offers lapse: after the offer's time, and when the asker (who had the game open) leaves
/// it. A lapsed offer cannot be accepted (409 `rematch_lapsed`); asking then makes one's own
/// offer. Two offers crossing make one game. Against the computer, asking makes the game.
pub async fn rematch_offers_lapse_and_cross(url: &str) {
    let clock = manual_clock();
    let s = server(url)
        .clock(&clock)
        .lifecycle(Lifecycle {
            rematch_offer_for: Duration::from_millis(1_500),
            ..no_sweep()
        })
        .start()
        .await;
    let c = Client::new(&s);
    // By time.
    let (id, south, north) = finished_pair(&c).await;
    assert_eq!(
        rematch_call(&c, &id, "", &south, json!({})).await.status,
        202
    );
    clock.advance(Duration::from_millis(1_499));
    let st = c.state(&id, None).await;
    assert_eq!(
        st["rematch"]["status"], "offered",
        "standing until it lapses: {st}"
    );
    clock.advance(Duration::from_millis(1));
    wait_state(&c, &id, None, |st| st["rematch"].is_null()).await;
    let lapsed = rematch_call(&c, &id, "", &north, json!({"accept": true})).await;
    assert_eq!(lapsed.status, 409, "{}", lapsed.text);
    assert_eq!(lapsed.json["error"], "rematch_lapsed", "{}", lapsed.text);
    // Asking without "accept" is now North's own offer, which South accepts.
    assert_eq!(
        rematch_call(&c, &id, "", &north, json!({})).await.status,
        202
    );
    let yes = rematch_call(&c, &id, "", &south, json!({})).await;
    assert_eq!(yes.status, 200, "{}", yes.text);

    // When the asker leaves the game.
    let s2 = server(url).lifecycle(no_sweep()).start().await;
    let c2 = Client::new(&s2);
    let (id, south, north) = finished_pair(&c2).await;
    let mut ws_n = ws(&s2.addr.to_string(), &id, Some(&north)).await;
    next_of(&mut ws_n, "state", None).await;
    let mut ws_s = ws(&s2.addr.to_string(), &id, Some(&south)).await;
    next_of(&mut ws_s, "state", None).await;
    assert_eq!(
        rematch_call(&c2, &id, "", &south, json!({})).await.status,
        202
    );
    loop {
        let st = next_of(&mut ws_n, "state", None).await;
        if st["state"]["rematch"]["status"] == "offered" {
            break;
        }
    }
    drop(ws_s);
    loop {
        let st = next_of(&mut ws_n, "state", None).await;
        if st["state"]["rematch"].is_null() {
            break;
        }
    }
    let gone = rematch_call(&c2, &id, "", &north, json!({"accept": true})).await;
    assert_eq!(gone.status, 409, "{}", gone.text);
    assert_eq!(gone.json["error"], "rematch_lapsed", "{}", gone.text);

    // Crossing: both ask at once; one game for both.
    let (id, south, north) = finished_pair(&c2).await;
    let (x, y) = tokio::join!(
        rematch_call(&c2, &id, "", &south, json!({})),
        rematch_call(&c2, &id, "", &north, json!({}))
    );
    let made: Vec<&Answer> = [&x, &y].into_iter().filter(|a| a.status == 200).collect();
    assert_eq!(
        made.len(),
        1,
        "one of the two accepts the other's offer: {} / {}",
        x.text,
        y.text
    );
    let other = if x.status == 200 { &y } else { &x };
    assert_eq!(other.status, 202, "{}", other.text);
    let new = made[0].json["id"].clone();
    let st = c2.state(&id, None).await;
    assert_eq!(st["rematch"]["id"], new, "{st}");

    // Against the computer nobody has to agree.
    let a = c2
        .post(
            "/api/games",
            None,
            json!({"variant": "kiswahili", "opponent": {"kind": "computer", "level": 1},
                   "side": "S", "name": "Asha", "match": "single_game"}),
        )
        .await;
    let (id, token) = (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["token"].as_str().unwrap().to_string(),
    );
    assert_eq!(c2.resign(&id, &token, 1, 0).await.status, 200);
    let r = rematch_call(&c2, &id, "", &token, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert!(r.json["id"].is_string(), "{}", r.text);
    s.stop().await;
    s2.stop().await;
}

/// Two instances: both players ask at once, each through its own instance: one game.
pub async fn rematch_across_instances(url: &str) {
    let (a, b) = server(url).lifecycle(no_sweep()).start_two().await;
    let (ca, cb) = (Client::new(&a), Client::new(&b));
    for _ in 0..3 {
        let (id, south, north) = ca.two_player_game("kete", "S", "single_game").await;
        let r = ca.resign(&id, &south, 1, 0).await;
        assert_eq!(r.status, 200, "{}", r.text);
        wait_state(&cb, &id, None, |st| st["match"]["over"] == true).await;
        let (x, y) = tokio::join!(
            rematch_call(&ca, &id, "", &south, json!({})),
            rematch_call(&cb, &id, "", &north, json!({}))
        );
        // One made the game (it found the other's offer), or both offered at the same
        // version and the loser of that race accepted the winner's: either way one game.
        let ids: Vec<&Value> = [&x, &y]
            .into_iter()
            .filter(|r| r.status == 200)
            .map(|r| &r.json["id"])
            .collect();
        assert_eq!(ids.len(), 1, "{} / {}", x.text, y.text);
        for c in [&ca, &cb] {
            let st = wait_state(c, &id, None, |st| st["rematch"]["status"] == "made").await;
            assert_eq!(&st["rematch"]["id"], ids[0], "{st}");
        }
    }
    a.stop().await;
    b.stop().await;
}

/// Pass and play: one token plays both sides; the state says so and names the side to move.
pub async fn pass_and_play(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    let a = create(&c, json!({"opponent": {"kind": "local", "name": "Baraka"}})).await;
    assert_eq!(a.status, 201, "{}", a.text);
    assert!(a.json["invite"].is_null(), "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let t = a.json["token"].as_str().unwrap().to_string();
    let mut ws = ws(&s.addr.to_string(), &id, Some(&t)).await;
    next_of(&mut ws, "state", None).await;
    for ply in 0..5u64 {
        let st = c.state(&id, Some(&t)).await;
        assert_eq!(st["local"], true);
        assert_eq!(st["you"], st["side_to_move"], "{st}");
        assert_eq!(st["players"]["S"]["name"], "Asha");
        assert_eq!(st["players"]["N"]["name"], "Baraka");
        assert_eq!(
            st["players"]["N"]["connected"], true,
            "one socket connects both: {st}"
        );
        assert_eq!(st["players"]["S"]["connected"], true);
        let other = c.play(&id, "nobody", &first_legal(&st), ply).await;
        assert_eq!(other.status, 403, "{}", other.text);
        let r = c.play(&id, &t, &first_legal(&st), ply).await;
        assert_eq!(r.status, 200, "ply {ply}: {}", r.text);
        // The one socket gets the next legal moves whichever side is to move.
        let f = next_of(&mut ws, "move", Some(ply + 1)).await;
        assert!(!f["legal"].as_array().unwrap().is_empty(), "{f}");
    }
    // The socket connected while South was to move; it moves for North too.
    let st = c.state(&id, Some(&t)).await;
    assert_eq!(st["side_to_move"], "N");
    send(
        &mut ws,
        json!({"type": "move", "move": first_legal(&st), "ply": 5}),
    )
    .await;
    next_of(&mut ws, "move", Some(6)).await;
    let h = c.get(&format!("/api/games/{id}/hint"), Some(&t)).await;
    assert_eq!(h.status, 200, "{}", h.text);
    s.stop().await;
}

/// Takeback against the computer returns to the position before the player's
/// last move (the reply undone too), is stored (a restart agrees), and a stale or
/// misplaced one is refused; the hint is a legal move for the player to move.
pub async fn takeback_and_hint(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    let a = create(&c, json!({"opponent": {"kind": "computer", "level": 1}})).await;
    let id = a.json["id"].as_str().unwrap().to_string();
    let t = a.json["token"].as_str().unwrap().to_string();
    let path = format!("/api/games/{id}/takeback");
    let tb =
        |game_no: u32, ply: u64| c.post(&path, Some(&t), json!({"game_no": game_no, "ply": ply}));
    let none = tb(1, 0).await;
    assert_eq!(none.status, 409, "nothing to take back: {}", none.text);
    let st0 = c.state(&id, Some(&t)).await;
    // The hint: a legal move of the player, with a score in the protocol's words.
    let h = c.get(&format!("/api/games/{id}/hint"), Some(&t)).await;
    assert_eq!(h.status, 200, "{}", h.text);
    let legal: Vec<&str> = st0["legal"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["move"].as_str().unwrap())
        .collect();
    assert!(
        legal.contains(&h.json["move"].as_str().unwrap()),
        "{}",
        h.text
    );
    let score = h.json["score"].as_str().unwrap();
    let (kind, n) = score.split_once(' ').unwrap();
    assert!(
        ["cp", "win", "loss"].contains(&kind) && n.parse::<i64>().is_ok(),
        "{score}"
    );
    let stranger = c
        .get(&format!("/api/games/{id}/hint"), Some("nobody"))
        .await;
    assert_eq!(stranger.status, 403, "{}", stranger.text);
    // Move, let the computer answer, take both back.
    assert_eq!(c.play(&id, &t, legal[0], 0).await.status, 200);
    let st2 = wait_state(&c, &id, Some(&t), |st| st["ply"] == 2).await;
    assert_eq!(st2["side_to_move"], "S");
    let r = tb(1, 2).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["ply"], 0, "{}", r.text);
    assert_eq!(r.json["position"], st0["position"]);
    assert!(r.json["moves"].as_array().unwrap().is_empty());
    let stale = tb(1, 2).await;
    assert_eq!(stale.status, 409, "{}", stale.text);
    assert_eq!(stale.json["error"], "conflict");
    // Stored: a restart agrees, and the game goes on from there.
    s.stop().await;
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    let st = c.state(&id, Some(&t)).await;
    assert_eq!(st["ply"], 0, "{st}");
    assert_eq!(c.play(&id, &t, legal[1], 0).await.status, 200);
    wait_state(&c, &id, Some(&t), |st| st["ply"] == 2).await;
    // Not against a person.
    let (hid, south, _) = c.two_player_game("kete", "S", "single_game").await;
    let hs = c.state(&hid, None).await;
    assert_eq!(c.play(&hid, &south, &first_legal(&hs), 0).await.status, 200);
    let r = c
        .post(
            &format!("/api/games/{hid}/takeback"),
            Some(&south),
            json!({"game_no": 1, "ply": 1}),
        )
        .await;
    assert_eq!(r.status, 409, "{}", r.text);
    let h = c.get(&format!("/api/games/{hid}/hint"), Some(&south)).await;
    assert_eq!(h.status, 409, "{}", h.text);
    s.stop().await;
}

/// The computer plays with its clock: at level 8 on a 2 s clock it answers
/// within its budget (at most half of what is left) instead of its level's full search.
pub async fn computer_uses_its_clock(url: &str) {
    let s = server(url).lifecycle(no_sweep()).start().await;
    let c = Client::new(&s);
    let a = create(
        &c,
        json!({"side": "N", "opponent": {"kind": "computer", "level": 8},
               "clock": {"initial_ms": 2_000, "increment_ms": 0}}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let st = wait_state(&c, &id, None, |st| st["ply"] == 1 || st["result"] != "-").await;
    assert_eq!(
        st["result"], "-",
        "the computer did not lose on time: {}",
        st["result_text"]
    );
    let used = 2_000 - st["clock"]["S"].as_i64().unwrap();
    assert!(used <= 1_000, "the computer used {used} ms of 2000");
    assert_eq!(st["clock"]["running"], "N");
    s.stop().await;
}

/// A rated game's rematch offer reaches the other player's home page (the player socket) and
/// their Accept there makes one rated game, seated for both accounts.
pub async fn rematch_reaches_the_home_page(url: &str) {
    use super::ratings::{account, join_seat, rated_game};
    use super::seeks::{play_ws, quick};
    let s = server(url).behind_proxy().seeks(quick()).start().await;
    let (b, c) = (super::accounts::base(&s), Client::new(&s));
    let (asha, asha_cookie) = account(&b, "rm-a").await;
    let (_, baraka_cookie) = account(&b, "rm-b").await;
    let (id, south, invite) = rated_game(&b, &asha_cookie).await;
    let north = join_seat(&b, &id, &invite, Some(&baraka_cookie)).await;
    assert_eq!(c.resign(&id, &north, 1, 0).await.status, 200);
    // Baraka is on the home page, not on the game.
    let mut home = play_ws(&s.addr.to_string(), Some(&baraka_cookie), &[]).await;
    let asked = super::accounts::post(
        &b,
        &format!("/api/games/{id}/rematch"),
        json!({}),
        Some(&asha_cookie),
    )
    .await;
    assert_eq!(
        asked.status, 202,
        "Asha's session holds her seat: {}",
        asked.text
    );
    let msg = loop {
        let m = next_json(&mut home).await;
        if m["type"] == "rematch" {
            break m;
        }
    };
    assert_eq!(msg["game"], id.as_str(), "{msg}");
    assert_eq!(msg["from"], asha.as_str(), "{msg}");
    assert_eq!(msg["url"], format!("/g/{id}"), "{msg}");
    assert!(msg["expires_in_ms"].as_i64().unwrap() > 0, "{msg}");
    let yes = super::accounts::post(
        &b,
        &format!("/api/games/{id}/rematch"),
        json!({"accept": true}),
        Some(&baraka_cookie),
    )
    .await;
    assert_eq!(yes.status, 200, "{}", yes.text);
    let new = yes.json["id"].as_str().unwrap().to_string();
    let ns = c.state(&new, Some(&south)).await;
    assert_eq!(ns["rated"], true, "a rated match's rematch is rated: {ns}");
    assert!(ns["accounts"]["S"]["username"].is_string(), "{ns}");
    s.stop().await;
}
