//! Ratings, profiles and the leaderboard (docs/api.md, "Ratings", "Profiles and
//! leaderboard") over real HTTP, on SQLite (tests/ratings_sqlite.rs) and PostgreSQL
//! (tests/ratings_postgres.rs) with the same code.

use super::accounts::{account_id, base, delete_json, fresh_name, get, post, session_of, signup};
use super::*;
use bao_rating::Outcome;
use bao_rules::{RecordResult, Side, Termination, Variant};
use bao_server::domain::ending::Ending;
use bao_server::domain::rating::{rate, Stored};
use bao_server::features::ratings::{leaderboard, rate_due};
use bao_server::store::Write;
use serde_json::json;

/// A new account: (name, session cookie).
pub async fn account(b: &str, tag: &str) -> (String, String) {
    let name = fresh_name(tag);
    let a = signup(b, &name, "rated-games-1", None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    (name, session_of(&a).unwrap())
}

/// `POST /api/games` with an optional session cookie.
pub async fn create(b: &str, body: Value, cookie: Option<&str>) -> Answer {
    post(b, "/api/games", body, cookie).await
}

/// A rated kete game created by `cookie`'s account, South, single game: (id, token, invite).
pub async fn rated_game(b: &str, cookie: &str) -> (String, String, String) {
    let a = create(
        b,
        json!({"variant": "kete", "opponent": {"kind": "human"}, "side": "S",
               "match": "single_game", "rated": true, "name": "Not my name"}),
        Some(cookie),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["token"].as_str().unwrap().to_string(),
        a.json["invite"].as_str().unwrap().to_string(),
    )
}

/// Joins game `id` with `cookie`'s session (or none).
pub async fn join_as(b: &str, id: &str, invite: &str, cookie: Option<&str>) -> Answer {
    post(
        b,
        &format!("/api/games/{id}/join"),
        json!({"invite": invite, "name": "Someone"}),
        cookie,
    )
    .await
}

/// Joins game `id` with `cookie`'s session, which must be accepted (200): the joiner's seat
/// token.
pub async fn join_seat(b: &str, id: &str, invite: &str, cookie: Option<&str>) -> String {
    let j = join_as(b, id, invite, cookie).await;
    assert_eq!(j.status, 200, "{}", j.text);
    j.json["token"].as_str().unwrap().to_string()
}

/// South plays a move, then North resigns at ply 1: South wins game 1.
pub async fn one_move_then_north_resigns(c: &Client, id: &str, south: &str, north: &str) {
    let st = c.state(id, Some(south)).await;
    let r = c.play(id, south, &first_legal(&st), 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = c.resign(id, north, 1, 1).await;
    assert_eq!(r.status, 200, "{}", r.text);
}

/// The change both new players get when the first wins: bao-rating's own numbers.
pub fn first_game_change() -> [i32; 2] {
    // From bao-rating itself (checked against Glickman's worked example and the skillratings
    // crate), not from the server's wrapper: two newcomers, the first one wins.
    let c = bao_rating::Config::default();
    let start = c.start();
    let idle = std::time::Duration::ZERO;
    let (a, b) = c.rate_game(start, idle, start, idle, Outcome::Win);
    let change = [a.rounded() - start.rounded(), b.rounded() - start.rounded()];
    // By hand (Glickman's steps 3-7, volatility left aside): phi = 500/173.7178 = 2.878,
    // g = 0.533, v = 14.07, phi' = 2.284, mu' = phi'^2 * g / 2 = 1.39, about 241 points.
    assert!((236..=247).contains(&change[0]), "{change:?}");
    change
}

/// A user's profile.
pub async fn profile(b: &str, name: &str) -> Answer {
    get(b, &format!("/api/users/{name}"), None).await
}

/// Waits until game `id` as `c` serves it carries its rating change.
pub async fn wait_rated(c: &Client, id: &str) -> Value {
    wait_state(c, id, None, |s| !s["rating_change"].is_null()).await
}

/// A rated game played to a resignation after one move: both ratings move by what
/// bao-rating computes, in opposite directions; history rows; GameState (HTTP and the live
/// socket) carries the change; the profiles and the games list show it; deleting one account
/// takes its rating away and leaves the neutral label in the game.
pub async fn rated_game_moves_both_ratings(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let b = &base(&s);
    let (asha, ca) = account(b, "Asha").await;
    let (baraka, cb) = account(b, "Baraka").await;
    let (id, south, invite) = rated_game(b, &ca).await;
    let st = c.state(&id, Some(&south)).await;
    assert_eq!(st["rated"], true, "{st}");
    // A rated game is played under the account's name.
    assert_eq!(st["players"]["S"]["name"], asha.as_str());
    assert_eq!(st["accounts"]["S"]["username"], asha.as_str());
    assert_eq!(st["accounts"]["S"]["rating"], 1500);
    assert_eq!(st["accounts"]["S"]["provisional"], true);
    assert!(st["accounts"]["N"].is_null(), "{st}");
    assert!(st["rating_change"].is_null());
    let north = join_seat(b, &id, &invite, Some(&cb)).await;
    let st = c.state(&id, None).await;
    assert_eq!(st["players"]["N"]["name"], baraka.as_str());
    assert_eq!(st["accounts"]["N"]["username"], baraka.as_str());

    let mut sock = ws(&s.addr.to_string(), &id, Some(&south)).await;
    next_of(&mut sock, "state", None).await;
    one_move_then_north_resigns(&c, &id, &south, &north).await;
    let want = first_game_change();
    assert!(want[0] > 0 && want[1] == -want[0], "{want:?}");
    let st = wait_rated(&c, &id).await;
    assert_eq!(st["result"], "S");
    assert_eq!(
        st["rating_change"],
        json!({"S": want[0], "N": want[1]}),
        "{st}"
    );
    assert_eq!(
        st["match"]["games"][0]["rating_change"],
        json!({"S": want[0], "N": want[1]})
    );
    assert_eq!(st["accounts"]["S"]["rating"], 1500 + want[0]);
    assert_eq!(st["accounts"]["N"]["rating"], 1500 + want[1]);
    // The live socket of a player gets the rated state too.
    loop {
        let m = next_of(&mut sock, "state", None).await;
        if !m["state"]["rating_change"].is_null() {
            assert_eq!(m["state"]["rating_change"]["S"], want[0]);
            assert_eq!(m["state"]["you"], "S");
            break;
        }
    }
    let h = s.app.store.history_of_game(&id).await.unwrap();
    assert_eq!(h.len(), 2, "{h:?}");
    assert!(h.iter().all(|r| r.0 == 1 && r.2 == 1500.0));
    let mut after: Vec<i64> = h.iter().map(|r| r.3.round() as i64).collect();
    after.sort();
    assert_eq!(
        after,
        [i64::from(1500 + want[1]), i64::from(1500 + want[0])]
    );
    // The seat was claimed for the account when the game was made: "My games" of the
    // account lists it, rated.
    let mine = post(b, "/api/games/mine", json!({"games": []}), Some(&ca)).await;
    let listed = mine.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id.as_str())
        .unwrap_or_else(|| panic!("{}", mine.text))
        .clone();
    assert_eq!(listed["rated"], true);
    assert_eq!(listed["your_side"], "S");
    // Nothing is left to rate: a second pass does nothing.
    assert_eq!(rate_due(&s.app.games, Some(&id)).await.unwrap(), 0);

    // The profiles, by any case of the name.
    let p = profile(b, &asha.to_uppercase()).await;
    assert_eq!(p.status, 200, "{}", p.text);
    assert_eq!(p.json["username"], asha.as_str());
    assert!(p.json["created"].as_i64().unwrap() > 0);
    assert_eq!(p.json["ratings"]["kete"]["games"], 1);
    assert_eq!(p.json["ratings"]["kete"]["rating"], 1500 + want[0]);
    assert_eq!(p.json["ratings"]["kete"]["provisional"], true);
    assert_eq!(
        p.json["ratings"]["kiswahili"],
        json!({"rating": 1500, "rd": 500, "provisional": true, "games": 0})
    );
    assert_eq!(p.json["ratings"]["kimasai"]["games"], 0);
    assert_eq!(p.json["results"], json!({"won": 1, "drawn": 0, "lost": 0}));
    assert_eq!(p.json["history"]["kete"].as_array().unwrap().len(), 1);
    assert_eq!(p.json["history"]["kete"][0]["rating"], 1500 + want[0]);
    assert_eq!(p.json["history"]["kiswahili"], json!([]));
    let p = profile(b, &baraka).await;
    assert_eq!(p.json["ratings"]["kete"]["rating"], 1500 + want[1]);
    assert_eq!(p.json["results"], json!({"won": 0, "drawn": 0, "lost": 1}));
    let g = get(b, &format!("/api/users/{asha}/games"), None).await;
    assert_eq!(g.status, 200, "{}", g.text);
    assert_eq!(g.json["next"], Value::Null);
    let item = &g.json["games"][0];
    assert_eq!(item["id"], id.as_str());
    assert_eq!(item["variant"], "kete");
    assert_eq!(item["opponent"], baraka.as_str());
    assert_eq!(item["side"], "S");
    assert_eq!(item["result"], "won");
    assert_eq!(item["rated"], true);
    assert_eq!(item["rating_change"], want[0]);
    assert!(item["ended"].as_i64().unwrap() > 0);
    let g = get(b, &format!("/api/users/{baraka}/games?limit=1"), None).await;
    assert_eq!(g.json["games"][0]["result"], "lost");
    assert_eq!(g.json["games"][0]["rating_change"], want[1]);
    for bad in ["nobody_here_xyz", "x", "has%20space"] {
        let p = profile(b, bad).await;
        assert_eq!(p.status, 404, "{bad}: {}", p.text);
        assert_eq!(p.json["error"], "no_such_user");
    }
    let bad_limit = get(b, &format!("/api/users/{asha}/games?limit=0"), None).await;
    assert_eq!(bad_limit.status, 400);

    // Baraka deletes his account: his rating goes, Asha's stays, and the game shows the
    // neutral label in his place.
    let d = delete_json(
        b,
        "/api/account",
        json!({"password": "rated-games-1"}),
        Some(&cb),
    )
    .await;
    assert_eq!(d.status, 204, "{}", d.text);
    assert_eq!(profile(b, &baraka).await.status, 404);
    let h = s.app.store.history_of_game(&id).await.unwrap();
    assert_eq!(h.len(), 1, "{h:?}");
    let p = profile(b, &asha).await;
    assert_eq!(p.json["ratings"]["kete"]["rating"], 1500 + want[0]);
    let fresh = server(url).start().await;
    let cf = Client::new(&fresh);
    let st = cf.state(&id, None).await;
    assert_eq!(st["players"]["N"]["name"], "deleted player", "{st}");
    assert!(st["accounts"]["N"].is_null(), "{st}");
    assert_eq!(st["rating_change"]["S"], want[0]);
    let g = get(b, &format!("/api/users/{asha}/games"), None).await;
    assert_eq!(g.json["games"][0]["opponent"], "deleted player");
    fresh.stop().await;
    s.stop().await;
}

/// What is refused and what is not rated: `"rated": true` without a session, against the
/// computer, pass and play, from a set-up position; joining without an account or with the
/// creator's; a rated game ended without a move; an unrated game between two accounts.
pub async fn refusals_and_unrated_games(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let b = &base(&s);
    let (_, ca) = account(b, "Asha").await;
    let (baraka, cb) = account(b, "Baraka").await;
    let human = json!({"variant": "kete", "opponent": {"kind": "human"}, "rated": true});
    let r = create(b, human.clone(), None).await;
    assert_eq!(r.status, 401, "{}", r.text);
    assert_eq!(r.json["error"], "not_signed_in");
    let r = create(b, human, Some("bao_session=0123")).await;
    assert_eq!(r.json["error"], "not_signed_in", "{}", r.text);
    for body in [
        json!({"variant": "kete", "opponent": {"kind": "computer", "level": 2}, "rated": true}),
        json!({"variant": "kete", "opponent": {"kind": "local"}, "rated": true}),
        json!({"variant": "kimasai", "opponent": {"kind": "human"}, "rated": true,
               "start": "kimasai 0,0,0,0,0,0,0,0/1,1,1,1,1,1,1,1/1,1,1,1,1,1,1,1/0,0,0,0,0,0,0,0 S 24/24 nointro 0"}),
    ] {
        let r = create(b, body.clone(), Some(&ca)).await;
        assert_eq!(r.status, 400, "{body}: {}", r.text);
        assert_eq!(r.json["error"], "rated_not_allowed");
    }
    let r = create(
        b,
        json!({"variant": "kete", "opponent": {"kind": "human"}, "rated": "yes"}),
        Some(&ca),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);

    // Joining a rated game: an account is needed, and not the creator's.
    let (id, south, invite) = rated_game(b, &ca).await;
    let j = join_as(b, &id, &invite, None).await;
    assert_eq!(j.status, 401, "{}", j.text);
    assert_eq!(j.json["error"], "not_signed_in");
    let j = join_as(b, &id, &invite, Some(&ca)).await;
    assert_eq!(j.status, 403, "{}", j.text);
    assert_eq!(j.json["error"], "rated_same_account");
    // The seat is still open for an account of its own.
    let north = join_seat(b, &id, &invite, Some(&cb)).await;
    // Ended without a move: not rated.
    let r = c.resign(&id, &north, 1, 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(rate_due(&s.app.games, Some(&id)).await.unwrap(), 0);
    assert!(s.app.store.history_of_game(&id).await.unwrap().is_empty());
    let st = c.state(&id, Some(&south)).await;
    assert_eq!(st["result"], "S");
    assert!(st["rating_change"].is_null(), "{st}");

    // Not rated (the default) between the same accounts, played to the end.
    let a = create(
        b,
        json!({"variant": "kete", "opponent": {"kind": "human"}, "side": "S",
               "match": "single_game", "name": "Asha"}),
        Some(&ca),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id2 = a.json["id"].as_str().unwrap().to_string();
    let t0 = a.json["token"].as_str().unwrap().to_string();
    let j = join_as(b, &id2, a.json["invite"].as_str().unwrap(), Some(&cb)).await;
    let t1 = j.json["token"].as_str().unwrap().to_string();
    one_move_then_north_resigns(&c, &id2, &t0, &t1).await;
    let st = c.state(&id2, None).await;
    assert_eq!(st["rated"], false);
    assert!(
        st["accounts"].is_null() && st["rating_change"].is_null(),
        "{st}"
    );
    assert_eq!(rate_due(&s.app.games, Some(&id2)).await.unwrap(), 0);
    assert!(s.app.store.history_of_game(&id2).await.unwrap().is_empty());
    // A game of the account all the same: its results and list count it, its rating not.
    let p = profile(b, &baraka).await;
    assert_eq!(p.json["ratings"]["kete"]["games"], 0);
    assert_eq!(p.json["results"], json!({"won": 0, "drawn": 0, "lost": 2}));
    let g = get(b, &format!("/api/users/{baraka}/games"), None).await;
    let games = g.json["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{}", g.text);
    assert_eq!(games[0]["id"], id2.as_str());
    assert_eq!(games[0]["rated"], false);
    assert!(games[0]["rating_change"].is_null());
    assert_eq!(games[1]["rated"], true);
    assert!(games[1]["rating_change"].is_null());
    // Against the computer, signed in: allowed unrated.
    let r = create(
        b,
        json!({"variant": "kete", "opponent": {"kind": "computer", "level": 1}}),
        Some(&ca),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    s.stop().await;
}

/// A finished rated game with no rating (its instance stopped between the end and the
/// rating: here the end is written by the store alone, with no server running) is rated by
/// the catch-up of the next instance to start.
pub async fn catch_up_rates_what_was_left(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let b = &base(&s);
    let (asha, ca) = account(b, "Asha").await;
    let (_, cb) = account(b, "Baraka").await;
    let (id, south, invite) = rated_game(b, &ca).await;
    join_seat(b, &id, &invite, Some(&cb)).await;
    let st = c.state(&id, Some(&south)).await;
    let r = c.play(&id, &south, &first_legal(&st), 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    s.stop().await;

    // The end, as the instance that died committed it.
    let store = bao_server::Store::open(url, bao_server::Durability::Full)
        .await
        .unwrap();
    let m = store.load(&id).await.unwrap().unwrap();
    let now = bao_server::util::now_ms();
    let result = RecordResult::Win(Side::South);
    let t = m.transition(Ending::forced(result, Termination::Resignation).unwrap());
    let mut after = m.clone();
    after.forced = Some((result, Termination::Resignation));
    after.updated = now;
    after.record_end(t.clone());
    after.clock_settle(now);
    store
        .commit(Write::End { game_no: 1, t }, &after, "stopped")
        .await
        .unwrap();
    assert!(store.history_of_game(&id).await.unwrap().is_empty());
    store.close().await;

    let s2 = server(url).start().await;
    let c2 = Client::new(&s2);
    let want = first_game_change();
    let st = wait_rated(&c2, &id).await;
    assert_eq!(st["rating_change"], json!({"S": want[0], "N": want[1]}));
    let h = s2.app.store.history_of_game(&id).await.unwrap();
    assert_eq!(h.len(), 2, "{h:?}");
    let p = profile(&base(&s2), &asha).await;
    assert_eq!(p.json["ratings"]["kete"]["games"], 1);
    assert_eq!(p.json["ratings"]["kete"]["rating"], 1500 + want[0]);
    s2.stop().await;
}

/// The leaderboard at a given time: provisional ratings (by their deviation now) and players
/// without a rated game in 90 days are left out, the rest by rating; one variant at a time.
pub async fn leaderboard_filters_and_orders(url: &str) {
    let s = server(url).start().await;
    let b = &base(&s);
    let store = &s.app.store;
    let day = 24 * 3600 * 1000i64;
    // A time of the test's own: nothing but what it sets is within its 90 days.
    let now = 4_000_000_000_000;
    let mut ids = Vec::new();
    let mut names = Vec::new();
    for tag in ["One", "Two", "Three", "Prov", "Gone", "Grown", "Kete"] {
        let (name, _) = account(b, tag).await;
        ids.push(account_id(&s, &name).await);
        names.push(name);
    }
    let set = |i: usize, variant: &'static str, rating: f64, rd: f64, vol: f64, ago: i64| {
        let id = ids[i].clone();
        async move {
            store
                .set_rating(
                    &id,
                    variant,
                    &Stored {
                        rating,
                        rd,
                        volatility: vol,
                        games: 30,
                        last_played: Some(now - ago),
                    },
                )
                .await
                .unwrap();
        }
    };
    set(0, "kimasai", 1900.0, 60.0, 0.06, day).await;
    set(1, "kimasai", 1700.0, 80.0, 0.06, 10 * day).await;
    set(2, "kimasai", 1800.0, 100.0, 0.06, day).await;
    // Provisional as stored.
    set(3, "kimasai", 2000.0, 200.0, 0.06, day).await;
    // No rated game in the last 90 days.
    set(4, "kimasai", 2100.0, 60.0, 0.06, 91 * day).await;
    // Settled as stored (105), provisional now: 80 days away grew its deviation past 110.
    set(5, "kimasai", 1750.0, 105.0, 0.09, 80 * day).await;
    // Another variant.
    set(6, "kete", 2200.0, 50.0, 0.06, day).await;

    let board = leaderboard(store, Variant::Kimasai, now).await.unwrap();
    let got: Vec<(usize, &str, i32)> = board
        .iter()
        .map(|e| (e.rank, e.username.as_str(), e.rating))
        .collect();
    assert_eq!(
        got,
        [
            (1, names[0].as_str(), 1900),
            (2, names[2].as_str(), 1800),
            (3, names[1].as_str(), 1700)
        ]
    );
    assert_eq!(board[0].rd, 60);
    assert_eq!(board[0].games, 30);
    assert!(board[2].rd > 80 && board[2].rd <= 110, "{board:?}");
    let kete = leaderboard(store, Variant::Kete, now).await.unwrap();
    assert_eq!(kete.len(), 1);
    assert_eq!(kete[0].username, names[6]);
    // 100 days later nobody has played for 90 days.
    assert!(leaderboard(store, Variant::Kimasai, now + 100 * day)
        .await
        .unwrap()
        .is_empty());

    let a = get(b, "/api/leaderboard?variant=kimasai", None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    assert_eq!(a.json["variant"], "kimasai");
    assert!(a.json["players"].is_array());
    let a = get(b, "/api/leaderboard?variant=chess", None).await;
    assert_eq!(a.status, 400, "{}", a.text);
    s.stop().await;
}

/// Two instances on one database see a rated game end (one commits it, the other adopts it
/// through its notification): the game is rated exactly once, and the other instance shows
/// the rating and the change (its profile answer, its GameState, its socket).
pub async fn rated_once_across_instances(url: &str) {
    let (a, b) = server(url).start_two().await;
    let (ba, bb) = (base(&a), base(&b));
    let ca = Client::new(&a);
    let cb = Client::new(&b);
    let (asha, sa) = account(&ba, "Asha").await;
    let (baraka, sb) = account(&bb, "Baraka").await;
    let (id, south, invite) = rated_game(&ba, &sa).await;
    let north = join_seat(&bb, &id, &invite, Some(&sb)).await;
    // North watches on B.
    let mut sock = ws(&b.addr.to_string(), &id, Some(&north)).await;
    next_of(&mut sock, "state", None).await;
    // A learns of the join through the database (the invite is shown to the creator only).
    wait_state(&ca, &id, Some(&south), |s| s["invite"].is_null()).await;
    one_move_then_north_resigns(&ca, &id, &south, &north).await;
    // Both instances try at once as well, besides their tasks.
    let (ra, rb) = tokio::join!(
        rate_due(&a.app.games, Some(&id)),
        rate_due(&b.app.games, Some(&id))
    );
    assert!(ra.unwrap() + rb.unwrap() <= 1);
    let want = first_game_change();
    let st = wait_rated(&cb, &id).await;
    assert_eq!(st["rating_change"], json!({"S": want[0], "N": want[1]}));
    loop {
        let m = next_of(&mut sock, "state", None).await;
        if !m["state"]["rating_change"].is_null() {
            assert_eq!(m["state"]["rating_change"]["N"], want[1]);
            assert_eq!(m["state"]["accounts"]["N"]["rating"], 1500 + want[1]);
            break;
        }
    }
    let h = b.app.store.history_of_game(&id).await.unwrap();
    assert_eq!(h.len(), 2, "{h:?}");
    for (name, d) in [(&asha, want[0]), (&baraka, want[1])] {
        let p = profile(&bb, name).await;
        assert_eq!(p.json["ratings"]["kete"]["games"], 1, "{}", p.text);
        assert_eq!(p.json["ratings"]["kete"]["rating"], 1500 + d);
    }
    // Later passes on either instance find nothing to do.
    assert_eq!(rate_due(&a.app.games, Some(&id)).await.unwrap(), 0);
    assert_eq!(rate_due(&b.app.games, Some(&id)).await.unwrap(), 0);
    assert_eq!(b.app.store.history_of_game(&id).await.unwrap().len(), 2);
    a.stop().await;
    b.stop().await;
}

/// The cost of rating one game (docs/api.md, "Ratings", measured): the arithmetic alone,
/// and the whole rating of a finished game by the server: both ratings read, the update
/// computed, the store's transaction (history, both ratings, the game's change and version)
/// committed, memory and viewers updated. Prints the figures; run with `--ignored
/// --nocapture`. `BAO_RATING_GAMES=N` changes the number of games (default 200).
pub async fn measure_rating(url: &str) {
    use bao_server::game::{NewGame, Seat};
    use bao_server::store::NewAccount;
    use std::time::Instant;

    // The arithmetic: one game, both players.
    let a = Stored {
        rating: 1720.0,
        rd: 62.0,
        volatility: 0.058,
        games: 40,
        last_played: Some(0),
    };
    let b2 = Stored {
        rating: 1480.0,
        rd: 180.0,
        volatility: 0.09,
        games: 3,
        last_played: Some(0),
    };
    let n = 200_000;
    let t = Instant::now();
    let mut sink = 0i64;
    for i in 0..n {
        let u = rate(
            std::hint::black_box([a, b2]),
            Outcome::Loss,
            std::hint::black_box(3 * 86_400_000 + i),
        );
        sink += i64::from(u.change[0]);
    }
    let arith = t.elapsed().as_secs_f64() / n as f64 * 1e6;
    assert!(sink != 0);

    let s = server(url).start().await;
    let games = &s.app.games;
    let store = &s.app.store;
    let count: usize = std::env::var("BAO_RATING_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let mut accounts = Vec::new();
    for i in 0..10 {
        let name = fresh_name(&format!("M{i}"));
        let id = store
            .create_account(
                &NewAccount {
                    username: name.clone(),
                    name_key: name.to_ascii_lowercase(),
                    password_hash: "unused".into(),
                    recovery_hash: "unused".into(),
                },
                &bao_server::util::random_code(32),
                bao_server::util::now_ms(),
            )
            .await
            .unwrap();
        accounts.push(id.0);
    }
    let mut ids = Vec::new();
    for i in 0..count {
        let mut rules = bao_rules::Rules::new(Variant::Kete);
        rules.match_format = bao_rules::MatchFormat::SingleGame;
        let created = games
            .create(NewGame {
                rules,
                start: bao_rules::Position::start(&rules),
                computer: None,
                side: Side::South,
                name: "x".into(),
                clock: None,
                local: None,
                rated: true,
                account: Some(accounts[i % 10].clone()),
            })
            .await
            .unwrap();
        let slot = games.slot(&created.id).await.unwrap();
        let seat = Seat {
            id: created.id.clone(),
            slot: slot.clone(),
            token: None,
            player: None,
        };
        games
            .join(
                &seat,
                created.invite.as_deref().unwrap(),
                "y".into(),
                // Another account than the creator's: an offset of 1 to 9.
                Some(accounts[(i % 10 + 1 + (i / 10) % 9) % 10].clone()),
            )
            .await
            .unwrap();
        let mv = {
            let m = slot.m.lock().await;
            m.game.legal_moves().as_slice()[0].mv.to_string()
        };
        games.play(&slot, Some(0), &mv, Some(0)).await.unwrap();
        // Ended by the store alone, as this instance (whose listener ignores its own
        // notifications): no observer hands it to the rating task.
        let m = store.load(&created.id).await.unwrap().unwrap();
        let now = bao_server::util::now_ms();
        let result = RecordResult::Win(Side::South);
        let t = m.transition(Ending::forced(result, Termination::Resignation).unwrap());
        let mut after = m.clone();
        after.forced = Some((result, Termination::Resignation));
        after.updated = now;
        after.record_end(t.clone());
        after.clock_settle(now);
        store
            .commit(Write::End { game_no: 1, t }, &after, &games.instance)
            .await
            .unwrap();
        ids.push(created.id);
    }
    games.forget_all();
    let mut times = Vec::new();
    for id in &ids {
        // In memory first, so that the time is the rating's, not the game's load.
        games.slot(id).await.unwrap();
        let t = Instant::now();
        let n = rate_due(games, Some(id)).await.unwrap();
        let e = t.elapsed().as_secs_f64() * 1e3;
        if n == 1 {
            times.push(e);
        }
    }
    times.sort_by(f64::total_cmp);
    let q = |p: f64| times[((times.len() - 1) as f64 * p).round() as usize];
    println!(
        "{url}: arithmetic {arith:.2} µs per game (both players); whole rating of a game over {} games: median {:.2} ms, p90 {:.2} ms, max {:.2} ms",
        times.len(),
        q(0.5),
        q(0.9),
        q(1.0)
    );
    assert!(
        times.len() * 10 >= ids.len() * 9,
        "{} of {}",
        times.len(),
        ids.len()
    );
    s.stop().await;
}

/// Each game of a rated best of three is rated on its own, as it ends, whatever ended it:
/// game 1 by a resignation, game 2 by a loss on time (the players have changed sides).
pub async fn best_of_three_games_rated_each(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let b = &base(&s);
    let (asha, ca) = account(b, "Asha").await;
    let (baraka, cb) = account(b, "Baraka").await;
    let a = create(
        b,
        json!({"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "S",
               "match": "best_of_three", "rated": true,
               "clock": {"initial_ms": 2000, "increment_ms": 0}}),
        Some(&ca),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let t_asha = a.json["token"].as_str().unwrap().to_string();
    let t_baraka = join_seat(b, &id, a.json["invite"].as_str().unwrap(), Some(&cb)).await;
    // Game 1: Asha (South) moves, Baraka resigns.
    one_move_then_north_resigns(&c, &id, &t_asha, &t_baraka).await;
    let want = first_game_change();
    let st = wait_state(&c, &id, None, |s| {
        !s["match"]["games"][0]["rating_change"].is_null()
    })
    .await;
    assert_eq!(st["match"]["game_no"], 2);
    assert_eq!(
        st["match"]["games"][0]["rating_change"],
        json!({"S": want[0], "N": want[1]})
    );
    // The current game is not over: no change at the top level; Asha is North now.
    assert!(st["rating_change"].is_null(), "{st}");
    assert_eq!(st["accounts"]["N"]["username"], asha.as_str());
    assert_eq!(st["accounts"]["N"]["rating"], 1500 + want[0]);
    // Game 2: Baraka (South) moves; Asha lets her clock run out.
    let r = c.play(&id, &t_baraka, &first_legal(&st), 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let st = wait_state(&c, &id, None, |s| {
        !s["match"]["games"][1]["rating_change"].is_null()
    })
    .await;
    let g2 = &st["match"]["games"][1];
    assert_eq!(g2["result"], "S", "{st}");
    let (up, down) = (
        g2["rating_change"]["S"].as_i64().unwrap(),
        g2["rating_change"]["N"].as_i64().unwrap(),
    );
    assert!(up > 0 && down < 0, "{g2}");
    let h = s.app.store.history_of_game(&id).await.unwrap();
    assert_eq!(h.len(), 4, "{h:?}");
    let pa = profile(b, &asha).await;
    assert_eq!(pa.json["ratings"]["kiswahili"]["games"], 2);
    assert_eq!(
        pa.json["ratings"]["kiswahili"]["rating"],
        i64::from(1500 + want[0]) + down
    );
    assert_eq!(pa.json["results"], json!({"won": 1, "drawn": 0, "lost": 1}));
    assert_eq!(pa.json["history"]["kiswahili"].as_array().unwrap().len(), 2);
    let pb = profile(b, &baraka).await;
    assert_eq!(
        pb.json["ratings"]["kiswahili"]["rating"],
        i64::from(1500 + want[1]) + up
    );
    // The match goes on: game 3, both ratings as they stand.
    assert_eq!(st["match"]["game_no"], 3);
    let g = get(b, &format!("/api/users/{asha}/games"), None).await;
    assert_eq!(g.json["games"][0]["result"], "playing");
    assert_eq!(
        g.json["games"][0]["rating_change"],
        i64::from(want[0]) + down
    );
    s.stop().await;
}
