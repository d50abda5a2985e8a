//! Account tests (docs/api.md, "Accounts") over real HTTP, run on SQLite
//! (tests/accounts_sqlite.rs) and PostgreSQL (tests/accounts_postgres.rs) with the same code.
//! The client sends cookies by hand, so a test can keep, replay or steal one.

use super::*;
use bao_server::edge::{EdgeConfig, Rates};
use reqwest::Method;
use serde_json::json;

/// No limits but those of accounts.
pub fn account_rates(account: u32, account_name: u32) -> EdgeConfig {
    EdgeConfig {
        rates: Rates {
            account,
            account_name,
            ..Rates::NONE
        },
        ..EdgeConfig::default()
    }
}

/// A name no other test (nor an earlier run on the same PostgreSQL) has.
pub fn fresh_name(tag: &str) -> String {
    format!("{tag}_{}", bao_server::util::random_code(8))
}

/// One call with an optional cookie header and extra headers.
pub async fn call(
    base: &str,
    method: Method,
    path: &str,
    body: Option<Value>,
    cookie: Option<&str>,
    extra: &[(&str, &str)],
) -> Answer {
    Client::at(base)
        .call(method, path, body, cookie, extra)
        .await
}

/// `GET` with an optional session cookie and no other header: what most reads send, so a
/// test reads as the request it makes.
pub async fn get(b: &str, path: &str, cookie: Option<&str>) -> Answer {
    call(b, Method::GET, path, None, cookie, &[]).await
}

/// `POST` of a JSON body with an optional session cookie and no other header.
pub async fn post(b: &str, path: &str, body: Value, cookie: Option<&str>) -> Answer {
    call(b, Method::POST, path, Some(body), cookie, &[]).await
}

/// `DELETE` without a body, with an optional session cookie. It still says its body is
/// JSON: the edge asks that of every call that changes something (its rule against
/// cross-site forms).
pub async fn delete(b: &str, path: &str, cookie: Option<&str>) -> Answer {
    let json = [("content-type", "application/json")];
    call(b, Method::DELETE, path, None, cookie, &json).await
}

/// `DELETE` of a JSON body (a password, an endpoint) with an optional session cookie.
pub async fn delete_json(b: &str, path: &str, body: Value, cookie: Option<&str>) -> Answer {
    call(b, Method::DELETE, path, Some(body), cookie, &[]).await
}

/// The id of account `name` (any case), from the store: what alerts and pairs name an
/// account by.
pub async fn account_id(s: &Running, name: &str) -> String {
    s.app
        .store
        .account_by_name(&name.to_lowercase())
        .await
        .unwrap()
        .expect("the account exists")
        .id
        .0
}

pub fn base(s: &Running) -> String {
    format!("http://{}", s.addr)
}

/// The `bao_session` cookie an answer sets, as `bao_session=TOKEN` (None if it sets none or
/// clears it).
pub fn session_of(a: &Answer) -> Option<String> {
    a.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("bao_session="))
        .map(|v| v.split(';').next().unwrap().to_string())
        .filter(|v| v.len() > "bao_session=".len())
}

pub fn set_cookie_line(a: &Answer) -> String {
    a.headers
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find(|v| v.starts_with("bao_session="))
        .expect("a session cookie")
        .to_string()
}

pub async fn signup(b: &str, name: &str, password: &str, cookie: Option<&str>) -> Answer {
    post(
        b,
        "/api/account/signup",
        json!({"username": name, "password": password}),
        cookie,
    )
    .await
}

pub async fn login(b: &str, name: &str, password: &str, cookie: Option<&str>) -> Answer {
    post(
        b,
        "/api/account/login",
        json!({"username": name, "password": password}),
        cookie,
    )
    .await
}

pub async fn whoami(b: &str, cookie: &str) -> Answer {
    get(b, "/api/account", Some(cookie)).await
}

/// Signup, the account call, login and logout, with the refusals of each.
pub async fn signup_login_logout(url: &str) {
    let s = server(url).start().await;
    let b = &base(&s);
    let name = fresh_name("Asha");
    let pw = "mancala-nights-42";

    let a = signup(b, &name, pw, None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    assert_eq!(a.json["username"], name.as_str());
    let code = a.json["recovery_code"].as_str().unwrap();
    assert_eq!(code.len(), 23, "{code}");
    let line = set_cookie_line(&a);
    for attr in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(line.contains(attr), "{line}");
    }
    assert!(!line.contains("Secure"), "plain http: {line}");
    let first = session_of(&a).unwrap();

    let me = whoami(b, &first).await;
    assert_eq!(me.status, 200, "{}", me.text);
    assert_eq!(me.json["username"], name.as_str());
    assert!(me.json["created"].as_i64().unwrap() > 0);
    let none = get(b, "/api/account", None).await;
    assert_eq!(none.status, 401);
    assert_eq!(none.json["error"], "not_signed_in");
    let forged = whoami(b, &format!("bao_session={}", "ab".repeat(32))).await;
    assert_eq!(forged.json["error"], "not_signed_in");

    // Names are unique without regard to case; reserved names and bad shapes are refused.
    let again = signup(b, &name.to_uppercase(), pw, None).await;
    assert_eq!(again.status, 409, "{}", again.text);
    assert_eq!(again.json["error"], "name_taken");
    let long = "x".repeat(21);
    for bad in ["ab", "Admin", "has space", "ümlaut", long.as_str()] {
        let r = signup(b, bad, pw, None).await;
        assert_eq!(r.status, 400, "{bad}: {}", r.text);
        assert_eq!(r.json["error"], "bad_request");
    }
    let short = signup(b, &fresh_name("Neema"), "1234567", None).await;
    assert_eq!(short.status, 400, "{}", short.text);

    // A wrong password and an unknown name answer alike.
    let wrong = login(b, &name, "not-the-password", None).await;
    let unknown = login(b, &fresh_name("Nobody"), pw, None).await;
    assert_eq!(wrong.status, 401);
    assert_eq!(wrong.json, unknown.json);
    assert_eq!(wrong.json["error"], "bad_credentials");

    // A login from the browser that had the signup's session: a new session, the old one
    // dead (a session id fixed by someone else before the login is worth nothing after it).
    let l = login(b, &name.to_lowercase(), pw, Some(&first)).await;
    assert_eq!(l.status, 200, "{}", l.text);
    assert_eq!(l.json["username"], name.as_str());
    let second = session_of(&l).unwrap();
    assert_ne!(first, second);
    assert_eq!(whoami(b, &first).await.status, 401);
    assert_eq!(whoami(b, &second).await.status, 200);

    // Logout: 204, the cookie cleared, and the session dead even for a copy of the cookie.
    let stolen = second.clone();
    let out = post(b, "/api/account/logout", json!({}), Some(&second)).await;
    assert_eq!(out.status, 204, "{}", out.text);
    assert!(set_cookie_line(&out).contains("Max-Age=0"));
    assert_eq!(whoami(b, &stolen).await.status, 401);

    // Logout everywhere.
    let x = session_of(&login(b, &name, pw, None).await).unwrap();
    let y = session_of(&login(b, &name, pw, None).await).unwrap();
    let all = post(b, "/api/account/logout-all", json!({}), Some(&x)).await;
    assert_eq!(all.status, 204, "{}", all.text);
    assert_eq!(whoami(b, &x).await.status, 401);
    assert_eq!(whoami(b, &y).await.status, 401);
    s.stop().await;
}

/// Recovery replaces the password and the code and ends every session; a password change
/// ends the other sessions.
pub async fn recover_and_change_password(url: &str) {
    let s = server(url).start().await;
    let b = &base(&s);
    let name = fresh_name("Baraka");
    let a = signup(b, &name, "first-password", None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let code = a.json["recovery_code"].as_str().unwrap().to_string();
    let s1 = session_of(&a).unwrap();
    let s2 = session_of(&login(b, &name, "first-password", None).await).unwrap();

    let recover = |code: String, pw: &'static str| {
        let name = name.clone();
        async move {
            post(
                b,
                "/api/account/recover",
                json!({"username": name, "recovery_code": code, "new_password": pw}),
                None,
            )
            .await
        }
    };
    let bad = recover("aaaaa-bbbbb-ccccc-ddddd".into(), "second-password").await;
    assert_eq!(bad.status, 401, "{}", bad.text);
    assert_eq!(bad.json["error"], "bad_credentials");
    // As a person may type it: upper case, spaces for dashes.
    let typed = code.to_uppercase().replace('-', " ");
    let r = recover(typed, "second-password").await;
    assert_eq!(r.status, 200, "{}", r.text);
    let new_code = r.json["recovery_code"].as_str().unwrap().to_string();
    assert_ne!(new_code, code);
    let s3 = session_of(&r).unwrap();
    assert_eq!(whoami(b, &s1).await.status, 401);
    assert_eq!(whoami(b, &s2).await.status, 401);
    assert_eq!(whoami(b, &s3).await.status, 200);
    // The old code is spent; the old password too.
    assert_eq!(recover(code, "third-password").await.status, 401);
    assert_eq!(login(b, &name, "first-password", None).await.status, 401);
    let s4 = session_of(&login(b, &name, "second-password", None).await).unwrap();

    // Password change from s3: a wrong old password is refused; then s4 ends, s3 stays.
    let change = |old: &'static str, new: &'static str| {
        let s3 = s3.clone();
        async move {
            post(
                b,
                "/api/account/password",
                json!({"old": old, "new": new}),
                Some(&s3),
            )
            .await
        }
    };
    let w = change("first-password", "fourth-password").await;
    assert_eq!(w.status, 401, "{}", w.text);
    assert_eq!(w.json["error"], "bad_credentials");
    assert_eq!(change("second-password", "short").await.status, 400);
    let ok = change("second-password", "fourth-password").await;
    assert_eq!(ok.status, 204, "{}", ok.text);
    assert_eq!(whoami(b, &s3).await.status, 200);
    assert_eq!(whoami(b, &s4).await.status, 401);
    assert_eq!(login(b, &name, "second-password", None).await.status, 401);
    assert_eq!(login(b, &name, "fourth-password", None).await.status, 200);
    // Recovery still works with the new code.
    assert_eq!(recover(new_code, "fifth-password").await.status, 200);
    s.stop().await;
}

/// Signup and login claim the browser's seats; "My games" of a signed-in browser answers
/// them anywhere; deleting the account leaves "deleted player" in its games.
pub async fn claimed_seats_and_deletion(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let b = &base(&s);
    // Game A: Asha holds the creator's seat (in the body); game B: her seat cookie.
    let (ga, ta, _) = c.two_player_game("kiswahili", "S", "single_game").await;
    let (gb, tb, _) = c.human_game("kete", "N", "single_game").await;
    let name = fresh_name("Asha");
    let cookie = format!("bao_{gb}={tb}");
    let a = post(
        b,
        "/api/account/signup",
        json!({"username": name, "password": "seats-and-more",
                "seats": [{"id": ga, "token": ta}, {"id": ga, "token": "0".repeat(32)},
                          {"id": "nosuchgame", "token": "1".repeat(32)}]}),
        Some(&cookie),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);

    // Another browser, with no seats of its own, logs in and sees both games.
    let other = session_of(&login(b, &name, "seats-and-more", None).await).unwrap();
    let mine = post(b, "/api/games/mine", json!({"games": []}), Some(&other)).await;
    assert_eq!(mine.status, 200, "{}", mine.text);
    let mut ids: Vec<&str> = mine.json["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap())
        .collect();
    ids.sort();
    let mut want = vec![ga.as_str(), gb.as_str()];
    want.sort();
    assert_eq!(ids, want, "{}", mine.text);
    assert_eq!(mine.json["refused"], json!([]));
    // Without the session: nothing (Bearer and seat-token clients are unchanged).
    let anon = c.post("/api/games/mine", None, json!({"games": []})).await;
    assert_eq!(anon.json["games"], json!([]));

    // Deletion needs the password.
    let del = |pw: &'static str| {
        let other = other.clone();
        async move { delete_json(b, "/api/account", json!({"password": pw}), Some(&other)).await }
    };
    let w = del("wrong-password").await;
    assert_eq!(w.status, 401, "{}", w.text);
    let d = del("seats-and-more").await;
    assert_eq!(d.status, 204, "{}", d.text);
    assert_eq!(whoami(b, &other).await.status, 401);
    assert_eq!(login(b, &name, "seats-and-more", None).await.status, 401);
    let mine = post(b, "/api/games/mine", json!({"games": []}), Some(&other)).await;
    assert_eq!(mine.json["games"], json!([]));

    // An instance that reads the games from the database shows the neutral label; the
    // other player keeps their name, and the seat token still plays.
    let fresh = server(url).start().await;
    let cf = Client::new(&fresh);
    let st = cf.state(&ga, None).await;
    let names = [
        st["players"]["S"]["name"].as_str().unwrap(),
        st["players"]["N"]["name"].as_str().unwrap(),
    ];
    assert_eq!(names, ["deleted player", "Baraka"], "{st}");
    let rec = cf.get(&format!("/api/games/{ga}/record"), None).await;
    assert!(
        rec.text.contains("deleted player") && !rec.text.contains("Asha"),
        "{}",
        rec.text
    );
    let st = cf.state(&gb, Some(&tb)).await;
    assert_eq!(st["players"]["N"]["name"], "deleted player", "{st}");
    // The name is free again.
    assert_eq!(signup(b, &name, "a-new-owner-1", None).await.status, 201);
    fresh.stop().await;
    s.stop().await;
}

/// Two instances on one database: a session made on A works on B; logout on A is seen by B.
pub async fn sessions_across_instances(url: &str) {
    let (a, b) = server(url).start_two().await;
    let (ba, bb) = (base(&a), base(&b));
    let name = fresh_name("Zawadi");
    let s = session_of(&signup(&ba, &name, "two-instances", None).await).unwrap();
    assert_eq!(whoami(&bb, &s).await.status, 200);
    let out = post(&ba, "/api/account/logout", json!({}), Some(&s)).await;
    assert_eq!(out.status, 204);
    // Sessions are read from the database on every request: B sees the logout at once.
    eventually("instance B to see the logout", || async {
        whoami(&bb, &s).await.status == 401
    })
    .await;
    let s2 = session_of(&login(&bb, &name, "two-instances", None).await).unwrap();
    assert_eq!(whoami(&ba, &s2).await.status, 200);
    a.stop().await;
    b.stop().await;
}
