//! Finding an opponent (docs/api.md, "Finding an opponent") over real HTTP and WebSockets,
//! on SQLite (tests/seeks_sqlite.rs) and PostgreSQL (tests/seeks_postgres.rs) with the same
//! code: seeks, the accept race (one instance and two), quick pairing, challenges, blocks,
//! the player socket and the hostile cases.

use super::accounts::{base, call, delete, fresh_name, get, post, session_of, signup};
use super::*;
use bao_server::features::seeks::SeeksConfig;
use reqwest::Method;
use serde_json::json;
use std::time::Instant;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;

/// Short timings, so that the tests wait for states in well under a second.
pub fn quick() -> SeeksConfig {
    SeeksConfig {
        // Long enough that a busy machine (the whole suite at once) still keeps a seek
        // alive through its socket (kept every second).
        liveness: Duration::from_millis(3_000),
        pair_every: Duration::from_millis(200),
        ..SeeksConfig::default()
    }
}

/// A new account: (name, session cookie).
pub async fn account(b: &str, tag: &str) -> (String, String) {
    let name = fresh_name(tag);
    let a = signup(b, &name, "finding-games-1", None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    (name, session_of(&a).unwrap())
}

/// A call with a bearer token (a guest's seek token).
pub async fn call_bearer(
    b: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
    token: &str,
) -> Answer {
    let auth = format!("Bearer {token}");
    // Every call that changes something says its body is JSON, a body or not (the edge's
    // rule against cross-site forms).
    let mut h = vec![("authorization", auth.as_str())];
    if method != Method::GET && body.is_none() {
        h.push(("content-type", "application/json"));
    }
    call(b, method, path, body, None, &h).await
}

/// The seat cookie `bao_{game}=...` an answer sets, if any.
pub fn seat_cookie(a: &Answer, game: &str) -> Option<String> {
    let prefix = format!("bao_{game}=");
    a.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with(&prefix))
        .map(|v| v.split(';').next().unwrap()[prefix.len()..].to_string())
}

/// `POST /api/seeks` by a guest (no cookie) or an account, from an address of its own.
pub async fn post_seek(b: &str, body: Value, cookie: Option<&str>) -> Answer {
    post_seek_from(b, body, cookie, &random_ip()).await
}

/// `POST /api/seeks` from address `ip`.
pub async fn post_seek_from(b: &str, body: Value, cookie: Option<&str>, ip: &str) -> Answer {
    call(
        b,
        Method::POST,
        "/api/seeks",
        Some(body),
        cookie,
        &[("x-forwarded-for", ip)],
    )
    .await
}

/// `POST /api/seeks/{id}/accept` with an empty body, as a guest (no cookie) or an account.
pub async fn accept(b: &str, id: &str, cookie: Option<&str>) -> Answer {
    post(b, &format!("/api/seeks/{id}/accept"), json!({}), cookie).await
}

/// `GET /api/seeks/{id}` with a seek token: only the owner's token reads it.
pub async fn seek_as(b: &str, id: &str, token: &str) -> Answer {
    call_bearer(b, Method::GET, &format!("/api/seeks/{id}"), None, token).await
}

/// `DELETE /api/seeks/{id}` with a seek token: only the owner's token deletes it.
pub async fn delete_seek(b: &str, id: &str, token: &str) -> Answer {
    call_bearer(b, Method::DELETE, &format!("/api/seeks/{id}"), None, token).await
}

/// The id and the owner's token a `POST /api/seeks` answer gives.
pub fn id_and_token(a: &Answer) -> (String, String) {
    (
        a.json["id"].as_str().unwrap().to_string(),
        a.json["token"].as_str().unwrap().to_string(),
    )
}

/// Seek `id`'s row in a seek list answer (fails, with the list, when it is not there).
fn seek_row(list: &Answer, id: &str) -> Value {
    list.json["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|x| x["id"] == id)
        .unwrap_or_else(|| panic!("{}", list.text))
        .clone()
}

/// `POST /api/pool` with `req`: a ticket in the pool for the account of `cookie`.
pub async fn join_pool(b: &str, req: &Value, cookie: Option<&str>) -> Answer {
    post(b, "/api/pool", req.clone(), cookie).await
}

/// `GET /api/pool/{ticket}` as the account of `cookie`.
pub async fn pool_ticket(b: &str, ticket: &str, cookie: Option<&str>) -> Answer {
    get(b, &format!("/api/pool/{ticket}"), cookie).await
}

/// `POST /api/challenges/{id}/accept` with an empty body, as the account of `cookie`.
pub async fn accept_challenge(b: &str, id: &str, cookie: Option<&str>) -> Answer {
    post(
        b,
        &format!("/api/challenges/{id}/accept"),
        json!({}),
        cookie,
    )
    .await
}

/// The account of `cookie` blocks `username` (`POST /api/blocks`).
pub async fn block(b: &str, username: &str, cookie: Option<&str>) -> Answer {
    post(b, "/api/blocks", json!({"username": username}), cookie).await
}

/// A random address in 10.0.0.0/8.
pub fn random_ip() -> String {
    let n = rand_ms() as u32
        ^ bao_server::util::random_code(6)
            .bytes()
            .fold(0u32, |a, b| a.wrapping_mul(31).wrapping_add(u32::from(b)));
    format!("10.{}.{}.{}", (n >> 16) & 255, (n >> 8) & 255, n & 255)
}

pub fn casual(name: &str) -> Value {
    json!({"variant": "kete", "rules": "-", "clock": {"initial_ms": 300000, "increment_ms": 3000},
           "match": "single_game", "rated": false, "name": name})
}

/// The player socket, with a session cookie and seek tokens.
pub async fn play_ws(addr: &str, cookie: Option<&str>, seeks: &[&str]) -> Ws {
    let q: Vec<String> = seeks.iter().map(|t| format!("seek={t}")).collect();
    let mut req = format!("ws://{addr}/api/play/ws?{}", q.join("&"))
        .into_client_request()
        .unwrap();
    if let Some(c) = cookie {
        req.headers_mut().insert("cookie", c.parse().unwrap());
    }
    tokio_tungstenite::connect_async(req)
        .await
        .expect("ws connects")
        .0
}

/// Whether the open seek list has `id`.
pub async fn listed(b: &str, id: &str) -> bool {
    let l = get(b, "/api/seeks", None).await;
    assert_eq!(l.status, 200, "{}", l.text);
    l.json["seeks"]
        .as_array()
        .unwrap()
        .iter()
        .any(|s| s["id"] == id)
}

/// A count from the database itself.
pub async fn count(url: &str, sql: &str, binds: &[&str]) -> i64 {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let mut q = sqlx::query(sql);
    for b in binds {
        q = q.bind(*b);
    }
    let n: i64 = q.fetch_one(&pool).await.unwrap().try_get(0).unwrap();
    pool.close().await;
    n
}

/// Post, list, accept, delete; a guest's seek accepted by a guest puts both in one game with
/// their seats (the owner's through `GET /api/seeks/{id}` and the player socket); a rated
/// seek needs accounts on both sides; only the owner reads or deletes a seek.
pub async fn seeks_flow(url: &str) {
    let s = server(url).behind_proxy().seeks(quick()).start().await;
    let b = &base(&s);
    let c = Client::new(&s);
    let a = post_seek(b, casual("Asha"), None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let (id, token) = id_and_token(&a);
    // The list: mine only with the token.
    let l = get(b, "/api/seeks", None).await;
    let mine = seek_row(&l, &id);
    assert_eq!(mine["by"], "Asha");
    assert_eq!(mine["rating"], Value::Null);
    assert_eq!(mine["mine"], false);
    assert_eq!(mine["variant"], "kete");
    assert_eq!(mine["rules"], "-");
    assert_eq!(mine["match"], "single_game");
    assert_eq!(
        mine["clock"],
        json!({"initial_ms": 300000, "increment_ms": 3000})
    );
    assert!(mine["created"].as_i64().unwrap() > 0);
    let l = call_bearer(b, Method::GET, "/api/seeks", None, &token).await;
    let me = seek_row(&l, &id);
    assert_eq!(me["mine"], true);
    // Only the owner reads it.
    let st = seek_as(b, &id, &token).await;
    assert_eq!(st.status, 200, "{}", st.text);
    assert_eq!(st.json, json!({"status": "open"}));
    assert_eq!(get(b, &format!("/api/seeks/{id}"), None).await.status, 404);
    let other = "0123456789abcdef0123456789abcdef";
    assert_eq!(seek_as(b, &id, other).await.status, 404);
    // The owner cannot take their own seek.
    let own = call_bearer(
        b,
        Method::POST,
        &format!("/api/seeks/{id}/accept"),
        Some(json!({})),
        &token,
    )
    .await;
    assert_eq!(own.status, 403, "{}", own.text);
    assert_eq!(own.json["error"], "own_seek");

    // The owner's page has its socket open; a guest accepts.
    let mut sock = play_ws(&s.addr.to_string(), None, &[&token]).await;
    let acc = post(
        b,
        &format!("/api/seeks/{id}/accept"),
        json!({"name": "Baraka"}),
        None,
    )
    .await;
    assert_eq!(acc.status, 201, "{}", acc.text);
    let game = acc.json["game"].as_str().unwrap().to_string();
    assert_eq!(acc.json["url"], format!("/g/{game}"));
    let seat = acc.json["seat"].as_str().unwrap().to_string();
    let t1 = acc.json["token"].as_str().unwrap().to_string();
    assert_eq!(seat_cookie(&acc, &game).as_deref(), Some(t1.as_str()));
    let m = next_of(&mut sock, "seek_accepted", None).await;
    assert_eq!(m["seek"], id.as_str());
    assert_eq!(m["game"], game.as_str());
    assert_eq!(m["url"], format!("/g/{game}"));
    // The owner's GET gives the game and the seat cookie holding the seek token.
    let st = seek_as(b, &id, &token).await;
    assert_eq!(
        st.json,
        json!({"status": "accepted", "game": game, "url": format!("/g/{game}")})
    );
    assert_eq!(seat_cookie(&st, &game).as_deref(), Some(token.as_str()));
    // Nobody else learns the seat: no cookie, no game.
    for t in [other, t1.as_str()] {
        let st = seek_as(b, &id, t).await;
        assert_eq!(st.status, 404, "{}", st.text);
        assert!(seat_cookie(&st, &game).is_none());
    }
    let st = get(b, &format!("/api/seeks/{id}"), None).await;
    assert_eq!(st.status, 404);
    // Both seats: the owner's with the seek token, the acceptor's with theirs.
    let owner_view = c.state(&game, Some(&token)).await;
    let acceptor_view = c.state(&game, Some(&t1)).await;
    assert_eq!(acceptor_view["you"], seat.as_str(), "{acceptor_view}");
    assert_eq!(
        owner_view["you"],
        if seat == "S" { "N" } else { "S" },
        "{owner_view}"
    );
    assert_eq!(owner_view["rated"], false);
    let names = [
        owner_view["players"]["S"]["name"].clone(),
        owner_view["players"]["N"]["name"].clone(),
    ];
    assert!(names.contains(&json!("Asha")) && names.contains(&json!("Baraka")));
    // Taken: a second accept is refused, the list no longer has it.
    let again = accept(b, &id, None).await;
    assert_eq!(again.status, 409, "{}", again.text);
    assert_eq!(again.json["error"], "seek_taken");
    assert!(!listed(b, &id).await);
    let del = delete_seek(b, &id, &token).await;
    assert_eq!(del.status, 409, "{}", del.text);

    // A page that posts after opening its socket hands the token over on the socket, and
    // hears of the accept there.
    let mut page = play_ws(&s.addr.to_string(), None, &[]).await;
    let a = post_seek(b, casual("Asha"), None).await;
    let id5 = a.json["id"].as_str().unwrap().to_string();
    send(
        &mut page,
        json!({"type": "seek", "token": a.json["token"].as_str().unwrap()}),
    )
    .await;
    send(&mut page, json!({"type": "ping"})).await;
    next_of(&mut page, "pong", None).await;
    let acc5 = accept(b, &id5, None).await;
    assert_eq!(acc5.status, 201, "{}", acc5.text);
    let m = next_of(&mut page, "seek_accepted", None).await;
    assert_eq!(m["seek"], id5.as_str());
    assert_eq!(m["game"], acc5.json["game"]);

    // Delete: a stranger cannot, the owner can.
    let a = post_seek(b, casual("Asha"), None).await;
    let (id2, token2) = id_and_token(&a);
    let d = delete_seek(b, &id2, other).await;
    assert_eq!(d.status, 404, "{}", d.text);
    assert!(listed(b, &id2).await);
    let d = delete_seek(b, &id2, &token2).await;
    assert_eq!(d.status, 204, "{}", d.text);
    assert!(!listed(b, &id2).await);
    let gone = accept(b, &id2, None).await;
    assert_eq!(gone.status, 404, "{}", gone.text);

    // Rated: a guest cannot post or accept one; two accounts play it, rated.
    let mut rated = casual("x");
    rated["rated"] = json!(true);
    let r = post_seek(b, rated.clone(), None).await;
    assert_eq!(r.status, 401, "{}", r.text);
    assert_eq!(r.json["error"], "not_signed_in");
    let (cname, cc) = account(b, "Chausiku").await;
    let (dname, cd) = account(b, "Dalila").await;
    let r = post_seek(b, rated, Some(&cc)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let rid = r.json["id"].as_str().unwrap().to_string();
    let l = get(b, "/api/seeks", Some(&cc)).await;
    let row = seek_row(&l, &rid);
    assert_eq!(row["by"], cname.as_str());
    assert_eq!(row["rating"], "1500?");
    assert_eq!(row["rated"], true);
    assert_eq!(row["mine"], true);
    let g = accept(b, &rid, None).await;
    assert_eq!(g.status, 401, "{}", g.text);
    assert_eq!(g.json["error"], "not_signed_in");
    // The owner's own account cannot accept it either.
    let own = accept(b, &rid, Some(&cc)).await;
    assert_eq!(own.json["error"], "own_seek", "{}", own.text);
    let mut csock = play_ws(&s.addr.to_string(), Some(&cc), &[]).await;
    let g = accept(b, &rid, Some(&cd)).await;
    assert_eq!(g.status, 201, "{}", g.text);
    assert_eq!(g.json["token"], Value::Null);
    let rgame = g.json["game"].as_str().unwrap().to_string();
    assert!(seat_cookie(&g, &rgame).is_none());
    let m = next_of(&mut csock, "seek_accepted", None).await;
    assert_eq!(m["game"], rgame.as_str());
    let st = get(b, &format!("/api/games/{rgame}"), Some(&cd)).await;
    assert_eq!(st.json["rated"], true, "{}", st.text);
    assert_eq!(st.json["you"], g.json["seat"]);
    let names = [
        st.json["players"]["S"]["name"].clone(),
        st.json["players"]["N"]["name"].clone(),
    ];
    assert!(names.contains(&json!(cname)) && names.contains(&json!(dname)));
    let st = get(b, &format!("/api/seeks/{rid}"), Some(&cc)).await;
    assert_eq!(st.json["status"], "accepted");
    assert!(
        seat_cookie(&st, &rgame).is_none(),
        "an account needs no cookie"
    );

    // Blocked: Dalila blocks Chausiku; neither takes the other's seek.
    let bl = block(b, &cname, Some(&cd)).await;
    assert_eq!(bl.status, 204, "{}", bl.text);
    let r = post_seek(b, casual("x"), Some(&cc)).await;
    let bid = r.json["id"].as_str().unwrap().to_string();
    let g = accept(b, &bid, Some(&cd)).await;
    assert_eq!(g.status, 403, "{}", g.text);
    assert_eq!(g.json["error"], "blocked");
    s.stop().await;
}

/// Many accepts of one seek at once: exactly one 201 and one game. With `two`, half go to a
/// second instance on the same database.
pub async fn accept_race(url: &str, two: bool) {
    let a = server(url).behind_proxy().seeks(quick()).start().await;
    let b2 = if two {
        Some(server(url).behind_proxy().seeks(quick()).start().await)
    } else {
        None
    };
    let ba = base(&a);
    let bb = b2.as_ref().map_or(ba.clone(), base);
    for round in 0..3 {
        let owner = fresh_name("Own");
        let p = post_seek(&ba, casual(&owner), None).await;
        assert_eq!(p.status, 201, "{}", p.text);
        let id = p.json["id"].as_str().unwrap().to_string();
        let n = 16;
        let mut tasks = Vec::new();
        for i in 0..n {
            let base = if i % 2 == 0 { ba.clone() } else { bb.clone() };
            let id = id.clone();
            tasks.push(tokio::spawn(async move {
                post(
                    &base,
                    &format!("/api/seeks/{id}/accept"),
                    json!({"name": format!("Racer {i}")}),
                    None,
                )
                .await
            }));
        }
        let mut won = Vec::new();
        let mut lost = 0;
        for t in tasks {
            let r = t.await.unwrap();
            match r.status {
                201 => won.push(r.json["game"].as_str().unwrap().to_string()),
                409 => {
                    assert_eq!(r.json["error"], "seek_taken");
                    lost += 1
                }
                s => panic!("round {round}: {s} {}", r.text),
            }
        }
        assert_eq!(won.len(), 1, "round {round}: {won:?}");
        assert_eq!(lost, n - 1);
        let made = count(
            url,
            "SELECT COUNT(*) FROM games WHERE p0_name = $1",
            &[&owner],
        )
        .await;
        assert_eq!(made, 1, "round {round}: one game for the seek");
        let seek_game = count(
            url,
            "SELECT COUNT(*) FROM seeks WHERE id = $1 AND game = $2 AND status = 'accepted'",
            &[&id, &won[0]],
        )
        .await;
        assert_eq!(seek_game, 1);
    }
    if let Some(b2) = b2 {
        b2.stop().await;
    }
    a.stop().await;
}

/// Two accounts in one pool are paired into one rated single game with default rules; the
/// same account asking twice gets the same ticket and is never paired with itself; a blocked
/// pair is never paired while a third player is.
pub async fn pool_pairs(url: &str) {
    let s = server(url).behind_proxy().seeks(quick()).start().await;
    let b = &base(&s);
    let addr = s.addr.to_string();
    let clock = json!({"initial_ms": 60000, "increment_ms": 1000});
    let req = json!({"variant": "kete", "clock": clock});
    let g = join_pool(b, &req, None).await;
    assert_eq!(g.status, 401, "{}", g.text);
    assert_eq!(g.json["error"], "not_signed_in");
    let (_, ca) = account(b, "Asha").await;
    let t1 = join_pool(b, &req, Some(&ca)).await;
    assert_eq!(t1.status, 202, "{}", t1.text);
    let ticket = t1.json["ticket"].as_str().unwrap().to_string();
    let t2 = join_pool(b, &req, Some(&ca)).await;
    assert_eq!(t2.json["ticket"], ticket.as_str(), "the same ticket");
    // Alone (twice over), nobody to play: still waiting after several passes.
    let mut asock = play_ws(&addr, Some(&ca), &[]).await;
    for _ in 0..5 {
        s.app.seeks.pair_now().await;
    }
    let st = pool_ticket(b, &ticket, Some(&ca)).await;
    assert_eq!(st.json["status"], "waiting", "{}", st.text);
    assert!(st.json["since"].as_i64().unwrap() > 0);
    assert!(st.json["range"].as_i64().unwrap() >= 100);
    // Another account cannot see it.
    let (_, cb) = account(b, "Baraka").await;
    let other = pool_ticket(b, &ticket, Some(&cb)).await;
    assert_eq!(other.status, 404, "{}", other.text);
    // Baraka comes: one rated game.
    let tb = join_pool(b, &req, Some(&cb)).await;
    let tbid = tb.json["ticket"].as_str().unwrap().to_string();
    let m = next_of(&mut asock, "paired", None).await;
    assert_eq!(m["ticket"], ticket.as_str());
    let game = m["game"].as_str().unwrap().to_string();
    let st = pool_ticket(b, &tbid, Some(&cb)).await;
    assert_eq!(
        st.json,
        json!({"status": "paired", "game": game, "url": format!("/g/{game}")})
    );
    let gs = get(b, &format!("/api/games/{game}"), Some(&ca)).await;
    assert_eq!(gs.json["rated"], true, "{}", gs.text);
    assert_eq!(gs.json["match"]["format"], "single_game", "{}", gs.text);
    assert!(gs.json["you"].is_string());
    let gs2 = get(b, &format!("/api/games/{game}"), Some(&cb)).await;
    assert_ne!(gs2.json["you"], gs.json["you"]);

    // Blocks: Chausiku blocked Dalila; Dalila and Chausiku wait, then Emmanuel comes.
    let (cname, cc) = account(b, "Chausiku").await;
    let (dname, cd) = account(b, "Dalila").await;
    let (_, ce) = account(b, "Emmanuel").await;
    let r = block(b, &dname, Some(&cc)).await;
    assert_eq!(r.status, 204);
    let tc = join_pool(b, &req, Some(&cc)).await;
    let td = join_pool(b, &req, Some(&cd)).await;
    let (tc, td) = (
        tc.json["ticket"].as_str().unwrap().to_string(),
        td.json["ticket"].as_str().unwrap().to_string(),
    );
    let mut csock = play_ws(&addr, Some(&cc), &[]).await;
    let mut dsock = play_ws(&addr, Some(&cd), &[]).await;
    for _ in 0..5 {
        s.app.seeks.pair_now().await;
    }
    for (t, c) in [(&tc, &cc), (&td, &cd)] {
        let st = pool_ticket(b, t, Some(c)).await;
        assert_eq!(st.json["status"], "waiting", "{}", st.text);
    }
    let te = join_pool(b, &req, Some(&ce)).await;
    assert_eq!(te.status, 202);
    // One of the two gets Emmanuel; the other still waits.
    let (paired, waiting, wt, wc) = tokio::select! {
        m = next_of(&mut csock, "paired", None) => (m, "D", td.clone(), cd.clone()),
        m = next_of(&mut dsock, "paired", None) => (m, "C", tc.clone(), cc.clone()),
    };
    assert!(paired["game"].is_string());
    for _ in 0..3 {
        s.app.seeks.pair_now().await;
    }
    let st = pool_ticket(b, &wt, Some(&wc)).await;
    assert_eq!(st.json["status"], "waiting", "{waiting}: {}", st.text);
    // Leaving the pool.
    let d = delete(b, &format!("/api/pool/{wt}"), Some(&wc)).await;
    assert_eq!(d.status, 204, "{}", d.text);
    let st = pool_ticket(b, &wt, Some(&wc)).await;
    assert_eq!(st.status, 404, "{}", st.text);
    let _ = cname;
    s.stop().await;
}

pub fn rand_ms() -> i64 {
    (bao_server::util::now_ms() ^ i64::from(std::process::id())).rem_euclid(1_000_003)
}

/// Two instances both pairing over many tickets: every ticket is in at most one game, and
/// every game made from the pool has exactly two tickets (counted in the database).
pub async fn pool_across_instances(url: &str) {
    let (a, b) = server(url).behind_proxy().seeks(quick()).start_two().await;
    let (ba, bb) = (base(&a), base(&b));
    let clock = json!({"initial_ms": 120000, "increment_ms": 2000});
    let req = json!({"variant": "kiswahili", "clock": clock});
    let n = 24;
    let mut tickets = Vec::new();
    let mut sessions = Vec::new();
    for i in 0..n {
        let base = if i % 2 == 0 { &ba } else { &bb };
        let (_, c) = account(base, "Many").await;
        sessions.push(c);
    }
    // All join at once, on both instances, while both pair every 200 ms.
    let mut tasks = Vec::new();
    for (i, c) in sessions.iter().enumerate() {
        let base = if i % 2 == 0 { ba.clone() } else { bb.clone() };
        let (c, req) = (c.clone(), req.clone());
        tasks.push(tokio::spawn(async move {
            join_pool(&base, &req, Some(&c)).await
        }));
    }
    for t in tasks {
        let r = t.await.unwrap();
        assert_eq!(r.status, 202, "{}", r.text);
        tickets.push(r.json["ticket"].as_str().unwrap().to_string());
    }
    // And both run extra passes at the same moment.
    for _ in 0..5 {
        tokio::join!(a.app.seeks.pair_now(), b.app.seeks.pair_now());
    }
    let list = tickets
        .iter()
        .map(|t| format!("'{t}'"))
        .collect::<Vec<_>>()
        .join(",");
    eventually("every ticket paired", || async {
        count(
            url,
            &format!("SELECT COUNT(*) FROM pool WHERE status = 'paired' AND id IN ({list})"),
            &[],
        )
        .await
            == n
    })
    .await;
    let games = count(
        url,
        &format!("SELECT COUNT(DISTINCT game) FROM pool WHERE id IN ({list})"),
        &[],
    )
    .await;
    assert_eq!(games, n / 2, "each game from two tickets");
    let odd = count(
        url,
        &format!(
            "SELECT COUNT(*) FROM (SELECT game FROM pool WHERE id IN ({list})
             GROUP BY game HAVING COUNT(*) <> 2) x"
        ),
        &[],
    )
    .await;
    assert_eq!(odd, 0);
    // Every game exists (each is made a moment after its claim), rated, between the two
    // tickets' accounts.
    let made_sql = format!(
        "SELECT COUNT(*) FROM games g WHERE g.rated = 1 AND g.id IN
           (SELECT game FROM pool WHERE id IN ({list}))
         AND g.p0_account IN (SELECT account_id FROM pool WHERE game = g.id)
         AND g.p1_account IN (SELECT account_id FROM pool WHERE game = g.id)
         AND g.p0_account <> g.p1_account"
    );
    eventually("every pairing's game made", || async {
        count(url, &made_sql, &[]).await == n / 2
    })
    .await;
    a.stop().await;
    b.stop().await;
}

/// Challenges: sent, seen on the socket and by GET, accepted (a game for the two accounts),
/// declined, cancelled; refusals: unknown name, yourself, blocked either way, guests.
pub async fn challenges_flow(url: &str) {
    let s = server(url).behind_proxy().seeks(quick()).start().await;
    let b = &base(&s);
    let addr = s.addr.to_string();
    let (aname, ca) = account(b, "Asha").await;
    let (bname, cb) = account(b, "Baraka").await;
    let mut bsock = play_ws(&addr, Some(&cb), &[]).await;
    let mut asock = play_ws(&addr, Some(&ca), &[]).await;
    let body = |to: &str| {
        json!({"to": to, "variant": "kiswahili", "rules": "-", "clock": {"days_per_move": 1},
               "match": "best_of_three", "rated": false})
    };
    let challenge = |body: Value, c: Option<String>| async move {
        post(b, "/api/challenges", body, c.as_deref()).await
    };
    let r = challenge(body(&bname), None).await;
    assert_eq!(r.status, 401, "{}", r.text);
    let r = challenge(body("nobody_here_at_all"), Some(ca.clone())).await;
    assert_eq!(r.status, 404, "{}", r.text);
    let r = challenge(body(&aname), Some(ca.clone())).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = challenge(body(&bname.to_uppercase()), Some(ca.clone())).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    let m = next_of(&mut bsock, "challenge", None).await;
    let ch = &m["challenge"];
    assert_eq!(ch["id"], id.as_str());
    assert_eq!(ch["from"], aname.as_str());
    assert_eq!(ch["to"], bname.as_str());
    assert_eq!(ch["variant"], "kiswahili");
    assert_eq!(ch["match"], "best_of_three");
    assert_eq!(ch["clock"], json!({"days_per_move": 1}));
    assert_eq!(ch["rated"], false);
    let l = get(b, "/api/challenges", Some(&cb)).await;
    assert_eq!(l.json["incoming"][0]["id"], id.as_str(), "{}", l.text);
    assert_eq!(l.json["outgoing"], json!([]));
    let l = get(b, "/api/challenges", Some(&ca)).await;
    assert_eq!(l.json["outgoing"][0]["id"], id.as_str(), "{}", l.text);
    // Only the challenged accepts.
    let r = accept_challenge(b, &id, Some(&ca)).await;
    assert_eq!(r.status, 403, "{}", r.text);
    let r = accept_challenge(b, &id, Some(&cb)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let game = r.json["game"].as_str().unwrap().to_string();
    assert_eq!(r.json["url"], format!("/g/{game}"));
    let m = next_of(&mut asock, "challenge_gone", None).await;
    assert_eq!(
        m,
        json!({"type": "challenge_gone", "id": id, "why": "accepted", "game": game,
               "url": format!("/g/{game}")})
    );
    for c in [&ca, &cb] {
        let st = get(b, &format!("/api/games/{game}"), Some(c)).await;
        assert!(st.json["you"].is_string(), "{}", st.text);
        assert_eq!(st.json["match"]["format"], "best_of_three");
    }
    let again = accept_challenge(b, &id, Some(&cb)).await;
    assert_eq!(again.status, 409, "{}", again.text);

    // Declined, and cancelled.
    let id2 = challenge(body(&bname), Some(ca.clone())).await.json["id"]
        .as_str()
        .unwrap()
        .to_string();
    let d = post(
        b,
        &format!("/api/challenges/{id2}/decline"),
        json!({}),
        Some(&cb),
    )
    .await;
    assert_eq!(d.status, 204, "{}", d.text);
    let m = next_of(&mut asock, "challenge_gone", None).await;
    assert_eq!(m["id"], id2.as_str());
    assert_eq!(m["why"], "declined");
    let id3 = challenge(body(&bname), Some(ca.clone())).await.json["id"]
        .as_str()
        .unwrap()
        .to_string();
    let x = delete(b, &format!("/api/challenges/{id3}"), Some(&cb)).await;
    assert_eq!(x.status, 403, "only the challenger cancels: {}", x.text);
    let x = delete(b, &format!("/api/challenges/{id3}"), Some(&ca)).await;
    assert_eq!(x.status, 204, "{}", x.text);
    loop {
        let m = next_json(&mut bsock).await;
        if m["type"] == "challenge_gone" && m["id"] == id3.as_str() {
            assert_eq!(m["why"], "cancelled");
            break;
        }
    }
    let l = get(b, "/api/challenges", Some(&cb)).await;
    assert_eq!(l.json["incoming"], json!([]), "{}", l.text);

    // Blocking removes open challenges, and then neither may challenge the other.
    let id4 = challenge(body(&aname), Some(cb.clone())).await.json["id"]
        .as_str()
        .unwrap()
        .to_string();
    let r = block(b, &bname, Some(&ca)).await;
    assert_eq!(r.status, 204);
    let l = get(b, "/api/blocks", Some(&ca)).await;
    assert_eq!(l.json, json!({"blocked": [bname]}));
    let l = get(b, "/api/challenges", Some(&cb)).await;
    assert_eq!(l.json["outgoing"], json!([]), "{}", l.text);
    let c4 = s.app.store.challenge(&id4).await.unwrap().unwrap();
    assert_eq!(c4.status, "cancelled");
    for (to, c) in [(&bname, &ca), (&aname, &cb)] {
        let r = challenge(body(to), Some(c.clone())).await;
        assert_eq!(r.status, 403, "{}", r.text);
        assert_eq!(r.json["error"], "blocked");
    }
    let r = delete(b, &format!("/api/blocks/{bname}"), Some(&ca)).await;
    assert_eq!(r.status, 204, "{}", r.text);
    assert_eq!(challenge(body(&aname), Some(cb.clone())).await.status, 201);
    // At most 10 open.
    let mut last = 0;
    for _ in 0..10 {
        last = challenge(body(&aname), Some(cb.clone())).await.status;
    }
    assert_eq!(last, 429);
    s.stop().await;
}

/// Hostile clients: a seek flood from one address stops at 3 open (the 4th is 429); a seek
/// whose page went away leaves the list and cannot be accepted; ids are checked; bodies are
/// bounded; the socket takes at most 3 seek tokens.
pub async fn hostile(url: &str) {
    let s = server(url).behind_proxy().seeks(quick()).start().await;
    let b = &base(&s);
    let ip = random_ip();
    let mut ids = Vec::new();
    for i in 0..4 {
        let r = post_seek_from(b, casual("Flood"), None, &ip).await;
        if i < 3 {
            assert_eq!(r.status, 201, "{}", r.text);
            ids.push(id_and_token(&r));
        } else {
            assert_eq!(r.status, 429, "{}", r.text);
            assert_eq!(r.json["error"], "too_many_seeks");
        }
    }
    // An account behind the same address is held to the address's cap too.
    let (_, ca) = account(b, "Asha").await;
    assert_eq!(
        post_seek_from(b, casual("x"), Some(&ca), &ip).await.status,
        429
    );
    // One page keeps the first seek alive; the others' pages are gone.
    let mut sock = play_ws(&s.addr.to_string(), None, &[&ids[0].1]).await;
    eventually("the seeks without a page leave the list", || async {
        !listed(b, &ids[1].0).await && !listed(b, &ids[2].0).await
    })
    .await;
    assert!(
        listed(b, &ids[0].0).await,
        "the page with a socket keeps it"
    );
    let r = accept(b, &ids[1].0, None).await;
    assert_eq!(r.status, 404, "{}", r.text);
    let r = seek_as(b, &ids[1].0, &ids[1].1).await;
    assert_eq!(r.status, 404, "{}", r.text);
    // With only one alive, the address may post again.
    assert_eq!(post_seek_from(b, casual("x"), None, &ip).await.status, 201);
    send(&mut sock, json!({"type": "ping"})).await;
    assert_eq!(next_of(&mut sock, "pong", None).await["type"], "pong");
    drop(sock);
    eventually("the last page's seek goes too", || async {
        !listed(b, &ids[0].0).await
    })
    .await;

    // Ids and bodies.
    for path in [
        "/api/seeks/x",
        "/api/seeks/..%2F..",
        "/api/seeks/AAAAAAAAAAAA",
        "/api/seeks/aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
    ] {
        let r = call_bearer(b, Method::GET, path, None, &ids[0].1).await;
        assert_eq!(r.status, 404, "{path}: {}", r.text);
        let r = post(b, &format!("{path}/accept"), json!({}), None).await;
        assert_eq!(r.status, 404, "{path}: {}", r.text);
    }
    for path in ["/api/pool/x", "/api/challenges/zz/accept"] {
        let m = if path.ends_with("accept") {
            Method::POST
        } else {
            Method::GET
        };
        let r = call(b, m, path, Some(json!({})), Some(&ca), &[]).await;
        assert_eq!(r.status, 404, "{path}: {}", r.text);
    }
    let huge = "x".repeat(100 * 1024);
    let r = post_seek(
        b,
        json!({"variant": "kete", "rules": huge, "rated": false}),
        None,
    )
    .await;
    assert_eq!(r.status, 413, "{}", r.text);
    let r = post_seek(
        b,
        json!({"variant": "kete", "rules": "x".repeat(2000), "rated": false}),
        None,
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);
    for bad in [
        json!({"variant": "chess", "rated": false}),
        json!({"variant": "kete", "clock": {"initial_ms": -1, "increment_ms": 0}}),
        json!({"variant": "kete", "match": "best_of_seven"}),
        json!({"variant": "kete", "rules": "no_such_option=1"}),
        json!({"variant": "kete", "rated": "yes"}),
    ] {
        let r = post_seek(b, bad.clone(), Some(&ca)).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.text);
    }
    let r = block(b, &"y".repeat(5000), Some(&ca)).await;
    assert_eq!(r.status, 404, "{}", r.text);
    // The socket: at most 3 seek tokens, each well formed.
    let q = ["seek=0123456789abcdef0123456789abcdef"; 4].join("&");
    let r = reqwest::get(format!("{b}/api/play/ws?{q}")).await.unwrap();
    assert_eq!(r.status().as_u16(), 400);
    let r = reqwest::get(format!("{b}/api/play/ws?seek=nothex"))
        .await
        .unwrap();
    assert_eq!(r.status().as_u16(), 400);
    s.stop().await;
}

/// The time from a seek accepted to both players having the game (docs/api.md, "Finding an
/// opponent", measured): the acceptor's answer and the owner's socket message. Prints the
/// median and 95th percentile over `n` accepts.
pub async fn measure_accept(url: &str, n: usize) {
    let s = server(url)
        .behind_proxy()
        .seeks(SeeksConfig::default())
        .start()
        .await;
    println!(
        "seek accept to both players having the game, {n} accepts: {}",
        time_accepts(&s, n).await
    );
    s.stop().await;
}

/// Times `n` seek accepts on `s` (each: a guest's seek posted, its owner's socket open, then
/// the accept and the owner's `seek_accepted` awaited together) and says the median, the
/// 95th percentile and the slowest.
pub async fn time_accepts(s: &Running, n: usize) -> String {
    let b = &base(s);
    let mut times = Vec::new();
    for _ in 0..n {
        let p = post_seek(b, casual("Timer"), None).await;
        let (id, token) = id_and_token(&p);
        let mut sock = play_ws(&s.addr.to_string(), None, &[&token]).await;
        let path = format!("/api/seeks/{id}/accept");
        let t0 = Instant::now();
        let (acc, m) = tokio::join!(
            post(b, &path, json!({}), None),
            next_of(&mut sock, "seek_accepted", None)
        );
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        assert_eq!(acc.status, 201, "{}", acc.text);
        assert_eq!(m["game"], acc.json["game"]);
    }
    times.sort_by(f64::total_cmp);
    format!(
        "median {:.1} ms, p95 {:.1} ms, max {:.1} ms",
        times[n / 2],
        times[(n * 95 / 100).min(n - 1)],
        times[n - 1]
    )
}

/// A claim whose game never came (its instance died between the claim and the game) is
/// undone by the upkeep after a minute: the seek is open again, the tickets wait again, the
/// challenge is open again, each with a fresh lease (alive until the time given). A ticket
/// whose account asked again in the same pool meanwhile leaves the pool instead (one waiting
/// ticket per account and pool). A claim whose game exists is left alone.
pub async fn orphan_claims_are_undone(url: &str) {
    let s = server(url).behind_proxy().seeks(quick()).start().await;
    let b = &base(&s);
    let store = &s.app.store;
    let now = bao_server::util::now_ms();
    // A seek claimed for a game that does not exist.
    let p = post_seek(b, casual("Orphan"), None).await;
    let (id, token) = id_and_token(&p);
    let mut sock = play_ws(&s.addr.to_string(), None, &[&token]).await;
    assert!(store
        .claim_seek(&id, "nosuchgame", "guest", now)
        .await
        .unwrap());
    // A claim of a moment ago is left to its instance.
    store
        .repair_claims(now, now - 60_000, now + 30_000)
        .await
        .unwrap();
    assert_eq!(store.seek(&id).await.unwrap().unwrap().status, "accepted");
    // A minute later (the time passed in), it is undone, alive for a lease from then, and
    // the seek list's event goes with it (every instance's lobby lists it again).
    let mut rx = store.subscribe();
    let later = now + 61_000;
    let undone = store
        .repair_claims(later, later - 60_000, later + 30_000)
        .await
        .unwrap();
    assert!(undone >= 1);
    assert!(
        pending_event(&mut rx, |e| matches!(
            e,
            bao_server::domain::events::Event::Seeks
        ))
        .is_some(),
        "the seek back in the list is news"
    );
    let row = store.seek(&id).await.unwrap().unwrap();
    assert_eq!(row.status, "open");
    assert_eq!(row.game, None);
    assert_eq!(row.alive_until, later + 30_000);
    // The page never heard of the game that never was; the seek can be accepted again.
    let acc = accept(b, &id, None).await;
    assert_eq!(acc.status, 201, "{}", acc.text);
    let m = next_of(&mut sock, "seek_accepted", None).await;
    assert_eq!(m["game"], acc.json["game"]);
    // A claim whose game exists stays, however old.
    let later = bao_server::util::now_ms() + 120_000;
    store
        .repair_claims(later, later - 60_000, later + 30_000)
        .await
        .unwrap();
    assert_eq!(store.seek(&id).await.unwrap().unwrap().status, "accepted");

    // Two tickets claimed for a game that never came; Asha then asked again in the same pool
    // (her page had forgotten the first ticket). Alive only until `now`, so that no pairing
    // pass of a test running beside this one on the same database takes them.
    let pool = format!("kete orphan-{}", bao_server::util::random_code(8));
    let (asha, baraka) = (fresh_name("acc-a"), fresh_name("acc-b"));
    let (t1, t2, t3) = (
        bao_server::util::random_code(12),
        bao_server::util::random_code(12),
        bao_server::util::random_code(12),
    );
    for (t, who) in [(&t1, &asha), (&t2, &baraka)] {
        store
            .insert_ticket(t, who, &pool, "kete", None, 1500, now - 1, now)
            .await
            .unwrap();
    }
    assert!(store
        .claim_pair(&t1, &t2, "nosuchgame2", now)
        .await
        .unwrap());
    store
        .insert_ticket(&t3, &asha, &pool, "kete", None, 1500, now, now)
        .await
        .unwrap();
    let later = now + 61_000;
    let mut rx = store.subscribe();
    store
        .repair_claims(later, later - 60_000, later + 30_000)
        .await
        .unwrap();
    // The ticket waiting again is the pool's news (a pairing pass on every instance).
    let waits_again = |e: &bao_server::domain::events::Event| matches!(e, bao_server::domain::events::Event::Waiting { account } if *account == baraka);
    assert!(
        pending_event(&mut rx, waits_again).is_some(),
        "Baraka waits again: news"
    );
    let t = |id: String| async move { store.ticket(&id).await.unwrap().unwrap() };
    let (r1, r2, r3) = (t(t1).await, t(t2).await, t(t3).await);
    assert_eq!(r1.status, "gone", "the later ask stands");
    assert_eq!((r2.status.as_str(), r2.game), ("waiting", None));
    assert_eq!(r2.alive_until, later + 30_000);
    assert_eq!((r3.status.as_str(), r3.alive_until), ("waiting", now));
    s.stop().await;
}

/// The challenged player's accept sent many times at once through two instances on one
/// database: exactly one game is made, every other answer is 409 `challenge_gone`.
pub async fn challenge_accept_race(url: &str) {
    let (a, b2) = server(url).behind_proxy().seeks(quick()).start_two().await;
    let (ba, bb) = (base(&a), base(&b2));
    let (aname, ca) = account(&ba, "Asha").await;
    let (bname, cb) = account(&bb, "Baraka").await;
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
    let mut tasks = Vec::new();
    for i in 0..12 {
        let base = if i % 2 == 0 { ba.clone() } else { bb.clone() };
        let (id, cb) = (id.clone(), cb.clone());
        tasks.push(tokio::spawn(async move {
            accept_challenge(&base, &id, Some(&cb)).await
        }));
    }
    let mut won = 0;
    for t in tasks {
        let r = t.await.unwrap();
        match r.status {
            201 => won += 1,
            409 => assert_eq!(r.json["error"], "challenge_gone", "{}", r.text),
            s => panic!("{s} {}", r.text),
        }
    }
    assert_eq!(won, 1, "exactly one accept wins");
    let made = count(
        url,
        "SELECT COUNT(*) FROM games WHERE p0_name = $1 OR p1_name = $1",
        &[&aname],
    )
    .await;
    assert_eq!(made, 1, "one game for the challenge");
    b2.stop().await;
    a.stop().await;
}

/// The next event on `rx` that `want` accepts, or `None` when nothing more is pending: the
/// store delivers an event before its write returns (docs/architecture.md, "The event bus"),
/// so what a write published is already there.
fn pending_event(
    rx: &mut tokio::sync::broadcast::Receiver<
        std::sync::Arc<bao_server::domain::events::Delivered>,
    >,
    want: impl Fn(&bao_server::domain::events::Event) -> bool,
) -> Option<bao_server::domain::events::Event> {
    while let Ok(d) = rx.try_recv() {
        if want(&d.event) {
            return Some(d.event.clone());
        }
    }
    None
}

/// A seek or pool ticket whose lease ended and that its owner's keep-alive brings back is
/// news in the keep-alive's own transaction: the seek list's event (so lobby sockets list it
/// again at once) and the pool's `Waiting` (so a pairing pass looks at it at once), not at the
/// next safety sweep. A keep-alive that revives nothing publishes nothing.
pub async fn revived_leases_are_news(url: &str) {
    use bao_server::domain::events::Event;
    use bao_server::store::NewSeek;
    let store = bao_server::Store::open(url, bao_server::Durability::Full)
        .await
        .expect("store");
    let mut rx = store.subscribe();
    let t0 = 1_000_000;
    let lease = 30_000;
    let seek = NewSeek {
        id: "revive-seek".into(),
        token_hash: "revive-hash".into(),
        account: Some("revive-acct".into()),
        ip: "192.0.2.7".into(),
        name: "reviver".into(),
        rating: None,
        variant: "kiswahili".into(),
        rules: "-".into(),
        match_format: "single_game".into(),
        clock: None,
        rated: false,
    };
    assert!(store.insert_seek(&seek, 5, t0, t0 + lease).await.unwrap());
    let is_seeks = |e: &Event| matches!(e, Event::Seeks);
    assert!(
        pending_event(&mut rx, is_seeks).is_some(),
        "posting a seek is news"
    );
    let hashes = vec!["revive-hash".to_string()];
    // Renewed while alive: still open, nothing new for the list.
    let kept = store
        .keep_seeks_alive(&hashes, None, t0 + 10_000, t0 + 10_000 + lease)
        .await
        .unwrap();
    assert_eq!(kept, 1);
    assert!(
        pending_event(&mut rx, is_seeks).is_none(),
        "a renewal is no news"
    );
    // The lease ended (at t0 + 40 s): the keep-alive after it lists the seek again.
    let late = t0 + 10_000 + lease + 5_000;
    let kept = store
        .keep_seeks_alive(&[], Some("revive-acct"), late, late + lease)
        .await
        .unwrap();
    assert_eq!(kept, 1);
    assert!(
        pending_event(&mut rx, is_seeks).is_some(),
        "a lapsed seek kept alive again is listed again: the list's event"
    );
    let row = store.seek("revive-seek").await.unwrap().expect("the seek");
    assert_eq!(row.alive_until, late + lease);

    store
        .insert_ticket(
            "revive-ticket",
            "revive-acct",
            "kiswahili 5+3",
            "kiswahili",
            None,
            1500,
            t0,
            t0 + lease,
        )
        .await
        .unwrap();
    let is_waiting =
        |e: &Event| matches!(e, Event::Waiting { account } if account == "revive-acct");
    assert!(
        pending_event(&mut rx, is_waiting).is_some(),
        "a new ticket waits"
    );
    let kept = store
        .keep_tickets_alive("revive-acct", None, t0 + 1_000, t0 + 1_000 + lease)
        .await
        .unwrap();
    assert_eq!(kept, 1);
    assert!(
        pending_event(&mut rx, is_waiting).is_none(),
        "a renewal is no news"
    );
    let late = t0 + 1_000 + lease + 1;
    let kept = store
        .keep_tickets_alive("revive-acct", Some("revive-ticket"), late, late + lease)
        .await
        .unwrap();
    assert_eq!(kept, 1);
    assert!(
        pending_event(&mut rx, is_waiting).is_some(),
        "a lapsed ticket kept alive again waits again: the pool's event"
    );
    let t = store
        .ticket("revive-ticket")
        .await
        .unwrap()
        .expect("the ticket");
    assert_eq!(t.alive_until, late + lease);
}
