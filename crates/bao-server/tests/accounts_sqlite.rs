//! Accounts on SQLite (docs/api.md, "Accounts"): the flows shared with PostgreSQL, and the
//! defences that do not depend on the database: rate limits, the cross-site rule, the
//! `Secure` cookie, and no secret in the database file.

mod common;
use common::accounts::*;
use common::*;
use reqwest::Method;
use serde_json::json;

#[tokio::test]
async fn sqlite_signup_login_logout() {
    signup_login_logout(&sqlite_url("acc-flow")).await;
}

#[tokio::test]
async fn sqlite_recover_and_change_password() {
    recover_and_change_password(&sqlite_url("acc-recover")).await;
}

#[tokio::test]
async fn sqlite_claimed_seats_and_deletion() {
    claimed_seats_and_deletion(&sqlite_url("acc-delete")).await;
}

#[tokio::test]
async fn sqlite_sessions_across_instances() {
    sessions_across_instances(&sqlite_url("acc-two")).await;
}

/// A burst of logins, 16 at once, is answered in full (well under the queue's bound), and the
/// server holds no more Argon2id memories than it has hashing workers, however many logins
/// ran at once (docs/api.md, "Accounts", "Hashing").
#[tokio::test]
async fn a_burst_of_logins_holds_at_most_one_memory_per_worker() {
    use bao_server::features::accounts::HASHING_AT_ONCE;
    let s = server(&sqlite_url("acc-burst"))
        .edge(account_rates(0, 0))
        .start()
        .await;
    let b = &base(&s);
    let names: Vec<String> = (0..4).map(|_| fresh_name("Burst")).collect();
    for n in &names {
        assert_eq!(signup(b, n, "the-real-one", None).await.status, 201);
    }
    let mut set = tokio::task::JoinSet::new();
    for i in 0..16 {
        let (b, n) = (b.clone(), names[i % names.len()].clone());
        set.spawn(async move { login(&b, &n, "the-real-one", None).await.status });
    }
    while let Some(status) = set.join_next().await {
        assert_eq!(status.unwrap(), 200);
    }
    let memories = s.app.accounts.hashing_memories();
    assert!(
        (1..=HASHING_AT_ONCE).contains(&memories),
        "{memories} Argon2id memories for {HASHING_AT_ONCE} workers"
    );
    s.stop().await;
}

/// Guessing one account's password is stopped per name, whatever the address, and the
/// right password is refused too while the limit holds; the address limit counts signups,
/// logins and recoveries together.
#[tokio::test]
async fn password_guessing_hits_429() {
    let s = server(&sqlite_url("acc-rate"))
        .edge(account_rates(0, 3))
        .start()
        .await;
    let b = &base(&s);
    let name = fresh_name("Target");
    assert_eq!(signup(b, &name, "the-real-one", None).await.status, 201);
    let mut refused = None;
    for i in 0..10 {
        let a = login(b, &name, &format!("guess-{i:04}"), None).await;
        if a.status == 429 {
            refused = Some((i, a));
            break;
        }
        assert_eq!(a.status, 401, "{}", a.text);
    }
    let (i, a) = refused.expect("a 429 within 10 guesses");
    // The signup counted for the name too: 3 in all.
    assert_eq!(i, 2);
    assert_eq!(a.json["error"], "rate_limited");
    let wait: u64 = a.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=20).contains(&wait), "{wait}");
    assert!(a.json["message"].as_str().unwrap().contains("account name"));
    assert_eq!(login(b, &name, "the-real-one", None).await.status, 429);
    // Another name is not held up by it.
    let other = fresh_name("Other");
    assert_eq!(signup(b, &other, "the-real-one", None).await.status, 201);
    s.stop().await;

    let s = server(&sqlite_url("acc-rate-ip"))
        .edge(account_rates(4, 0))
        .start()
        .await;
    let b = &base(&s);
    let mut statuses = Vec::new();
    for _ in 0..5 {
        statuses.push(
            login(b, &fresh_name("Many"), "whatever-1", None)
                .await
                .status,
        );
    }
    assert_eq!(statuses, [401, 401, 401, 401, 429]);
    let r = post(
        b,
        "/api/account/recover",
        json!({"username": "someone", "recovery_code": "x", "new_password": "whatever-1"}),
        None,
    )
    .await;
    assert_eq!(r.status, 429, "{}", r.text);
    assert!(r.headers.contains_key("retry-after"));
    assert!(r.json["message"].as_str().unwrap().contains("your address"));
    s.stop().await;
}

/// A page on another site cannot log a browser in (or out, or sign it up): 403 before
/// anything is read; our own pages can.
#[tokio::test]
async fn foreign_origin_login_is_refused() {
    let s = server(&sqlite_url("acc-origin")).start().await;
    let b = &base(&s);
    let name = fresh_name("Asha");
    assert_eq!(signup(b, &name, "origin-test-1", None).await.status, 201);
    let body = json!({"username": name, "password": "origin-test-1"});
    for path in [
        "/api/account/login",
        "/api/account/signup",
        "/api/account/logout",
    ] {
        for h in [
            ("origin", "http://evil.example"),
            ("sec-fetch-site", "cross-site"),
        ] {
            let a = call(b, Method::POST, path, Some(body.clone()), None, &[h]).await;
            assert_eq!(a.status, 403, "{path} {h:?}: {}", a.text);
            assert_eq!(a.json["error"], "forbidden");
            assert!(session_of(&a).is_none());
        }
    }
    let own = format!("http://{}", s.addr);
    let a = call(
        b,
        Method::POST,
        "/api/account/login",
        Some(body),
        None,
        &[("origin", &own)],
    )
    .await;
    assert_eq!(a.status, 200, "{}", a.text);
    s.stop().await;
}

/// Behind https the session cookie is `Secure`, like the seat cookies.
#[tokio::test]
async fn session_cookie_is_secure_behind_https() {
    let edge = bao_server::edge::EdgeConfig {
        public_url: Some("https://bao.example.org".parse().unwrap()),
        rates: bao_server::edge::Rates::NONE,
        ..Default::default()
    };
    let s = server(&sqlite_url("acc-secure")).edge(edge).start().await;
    let a = signup(&base(&s), &fresh_name("Asha"), "secure-cookie", None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    assert!(
        set_cookie_line(&a).contains("Secure"),
        "{}",
        set_cookie_line(&a)
    );
    s.stop().await;
}

/// Neither a password, nor a recovery code, nor a session token is in the database file
/// (or its write-ahead log): only their hashes.
#[tokio::test]
async fn no_secret_in_the_database_file() {
    let url = sqlite_url("acc-secrets");
    let file = url.strip_prefix("sqlite://").unwrap().to_string();
    let s = server(&url).start().await;
    let b = &base(&s);
    let name = fresh_name("Asha");
    let pw = "Secret-Passw0rd-Zebra";
    let a = signup(b, &name, pw, None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    let code = a.json["recovery_code"].as_str().unwrap().to_string();
    let s1 = session_of(&a).unwrap();
    let s2 = session_of(&login(b, &name, pw, None).await).unwrap();
    let pw2 = "Another-Passw0rd-Yak";
    let r = post(
        b,
        "/api/account/recover",
        json!({"username": name, "recovery_code": code, "new_password": pw2}),
        None,
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let code2 = r.json["recovery_code"].as_str().unwrap().to_string();
    let s3 = session_of(&r).unwrap();
    assert_eq!(whoami(b, &s3).await.status, 200);
    s.stop().await;

    let mut bytes = std::fs::read(&file).unwrap();
    for extra in ["-wal", "-shm"] {
        if let Ok(b) = std::fs::read(format!("{file}{extra}")) {
            bytes.extend(b);
        }
    }
    let text = String::from_utf8_lossy(&bytes);
    assert!(
        text.contains(&name),
        "the name is stored: the file was read"
    );
    assert!(text.contains("$argon2id$"), "hashes are stored");
    let token = |c: &str| c.trim_start_matches("bao_session=").to_string();
    let secrets = [
        pw.to_string(),
        pw2.to_string(),
        code.clone(),
        code.replace('-', ""),
        code2.clone(),
        code2.replace('-', ""),
        token(&s1),
        token(&s2),
        token(&s3),
    ];
    for secret in &secrets {
        assert!(
            !text.contains(secret.as_str()),
            "'{secret}' is in the database file"
        );
    }
}

/// Argon2id time per login on this machine, and the login latency over HTTP for a known and
/// an unknown name (docs/api.md, "Accounts"). Run with
/// `cargo test --release -p bao-server --test accounts_sqlite -- --ignored --nocapture`.
#[tokio::test]
#[ignore]
async fn measure_argon2_and_login_time() {
    use bao_server::features::accounts::{hashing, secrets};
    use std::time::Instant;
    let mut m = vec![argon2::Block::default(); hashing::BLOCKS];
    let h = secrets::hash(&mut m, "a password of some length").unwrap();
    let n = 20;
    let t0 = Instant::now();
    for _ in 0..n {
        assert!(secrets::verify(&mut m, "a password of some length", &h));
    }
    let verify = t0.elapsed().as_secs_f64() * 1000.0 / n as f64;
    let t0 = Instant::now();
    for _ in 0..n {
        secrets::hash(&mut m, "a password of some length").unwrap();
    }
    let hash = t0.elapsed().as_secs_f64() * 1000.0 / n as f64;
    println!("argon2id (m=19456 KiB, t=2, p=1): verify {verify:.1} ms, hash {hash:.1} ms");

    let s = server(&sqlite_url("acc-measure")).start().await;
    let b = &base(&s);
    let name = fresh_name("Timer");
    assert_eq!(signup(b, &name, "timing-password", None).await.status, 201);
    let mut times = [Vec::new(), Vec::new(), Vec::new()];
    for _ in 0..n {
        for (k, (who, pw)) in [
            (name.as_str(), "timing-password"),
            (name.as_str(), "wrong-password"),
            ("nobody_here", "wrong-password"),
        ]
        .into_iter()
        .enumerate()
        {
            let t0 = Instant::now();
            login(b, who, pw, None).await;
            times[k].push(t0.elapsed().as_secs_f64() * 1000.0);
        }
    }
    for (label, t) in ["right password", "wrong password", "unknown name"]
        .iter()
        .zip(&mut times)
    {
        t.sort_by(f64::total_cmp);
        println!("login over HTTP, {label}: median {:.1} ms", t[t.len() / 2]);
    }
    s.stop().await;
}

/// A session unused for SESSION_IDLE_MS is dead, and one in use stays alive: each use within
/// the window moves its end on (docs/api.md, "Accounts"). Driven through the store with the
/// time passed in, so no test waits thirty days.
#[tokio::test]
async fn an_idle_session_expires_and_a_used_one_lives_on() {
    use bao_server::store::{NewAccount, SESSION_IDLE_MS};
    let store =
        bao_server::Store::open(&sqlite_url("session-expiry"), bao_server::Durability::Full)
            .await
            .unwrap();
    let t0 = 1_800_000_000_000_i64;
    let name = fresh_name("idle");
    let account = NewAccount {
        username: name.clone(),
        name_key: name.to_lowercase(),
        password_hash: "not-a-real-hash".into(),
        recovery_hash: "not-a-real-hash".into(),
    };
    let id = store
        .create_account(&account, "session-a", t0)
        .await
        .unwrap();
    store
        .start_session(&id, "session-b", None, t0)
        .await
        .unwrap();

    // Session a is used every 20 days: always alive, even 60 days after it began.
    for days in [20_i64, 40, 60] {
        let now = t0 + days * 24 * 3600 * 1000;
        let who = store.session_account("session-a", now).await.unwrap();
        assert_eq!(who.map(|a| a.username), Some(name.clone()), "day {days}");
    }
    // Sessions b and c were never used again. c, asked at the last moment of its window,
    // is alive; b, asked a millisecond after it, is dead.
    store
        .start_session(&id, "session-c", None, t0)
        .await
        .unwrap();
    let edge = t0 + SESSION_IDLE_MS;
    assert!(store
        .session_account("session-c", edge)
        .await
        .unwrap()
        .is_some());
    assert!(store
        .session_account("session-b", edge + 1)
        .await
        .unwrap()
        .is_none());
}
