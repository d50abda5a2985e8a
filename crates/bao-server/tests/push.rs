//! Web Push (docs/api.md, "Web Push") end to end, with no outside push service: each test runs
//! its own push endpoint on 127.0.0.1, makes a real P-256 subscription key pair and auth
//! secret, subscribes through the API, makes something happen, receives the push, verifies
//! the VAPID header (the JWT's ES256 signature with the server's public key, `aud` the
//! endpoint's origin) and decrypts the aes128gcm body with the subscription's private key.

mod common;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use bao_server::features::push::PushConfig;
use bao_server::game::{Alert, AlertKind, Recipient};
use bao_server::Running;
use base64::engine::general_purpose::URL_SAFE_NO_PAD as B64;
use base64::Engine as _;
use common::accounts::{account_id, base, delete_json, fresh_name, post, session_of, signup};
use common::*;
use p256::ecdsa::signature::Verifier as _;
use p256::elliptic_curve::sec1::ToEncodedPoint as _;
use serde_json::{json, Value};
use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::mpsc;

/// One push as the endpoint received it.
struct Received {
    /// The subscription's number (the last path segment).
    sub: String,
    headers: HeaderMap,
    body: Vec<u8>,
}

/// A local push service: `POST /push/{n}` is recorded and answered with the status set for
/// `n` (201 by default).
struct PushService {
    base: String,
    rx: mpsc::UnboundedReceiver<Received>,
    status: Arc<Mutex<HashMap<String, u16>>>,
}

type Shared = (
    mpsc::UnboundedSender<Received>,
    Arc<Mutex<HashMap<String, u16>>>,
);

async fn receive(
    State((tx, status)): State<Shared>,
    Path(n): Path<String>,
    headers: HeaderMap,
    body: axum::body::Bytes,
) -> StatusCode {
    let code = status.lock().unwrap().get(&n).copied().unwrap_or(201);
    let _ = tx.send(Received {
        sub: n,
        headers,
        body: body.to_vec(),
    });
    StatusCode::from_u16(code).unwrap()
}

impl PushService {
    async fn start() -> PushService {
        let (tx, rx) = mpsc::unbounded_channel();
        let status = Arc::new(Mutex::new(HashMap::new()));
        let app = axum::Router::new()
            .route("/push/{n}", axum::routing::post(receive))
            .with_state((tx, status.clone()));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        PushService {
            base: format!("http://{addr}"),
            rx,
            status,
        }
    }

    /// The next push (at most 10 s).
    async fn next(&mut self) -> Received {
        tokio::time::timeout(Duration::from_secs(10), self.rx.recv())
            .await
            .expect("a push arrives within 10 s")
            .expect("the push service runs")
    }

    /// Pushes received so far and not yet taken.
    fn drain(&mut self) -> Vec<Received> {
        let mut out = Vec::new();
        while let Ok(r) = self.rx.try_recv() {
            out.push(r);
        }
        out
    }
}

/// A browser's subscription: its key pair and auth secret, as `pushManager.subscribe` makes.
struct Browser {
    endpoint: String,
    secret: p256::SecretKey,
    auth: [u8; 16],
}

impl Browser {
    fn new(service: &PushService, n: &str) -> Browser {
        let mut auth = [0u8; 16];
        rand::fill(&mut auth);
        Browser {
            endpoint: format!("{}/push/{n}", service.base),
            secret: p256::SecretKey::random(&mut p256::elliptic_curve::rand_core::OsRng),
            auth,
        }
    }

    /// `PushSubscription.toJSON()`.
    fn json(&self) -> Value {
        let public = self.secret.public_key().to_encoded_point(false);
        json!({"endpoint": self.endpoint, "keys": {
            "p256dh": B64.encode(public.as_bytes()),
            "auth": B64.encode(self.auth),
        }})
    }

    /// Checks the push's headers and VAPID signature against `server_key`, decrypts it and
    /// returns the payload.
    fn open(&self, r: &Received, server_key: &str) -> Value {
        let h = |k: &str| r.headers.get(k).map(|v| v.to_str().unwrap().to_string());
        assert_eq!(h("content-encoding").as_deref(), Some("aes128gcm"));
        let ttl: u64 = h("ttl").expect("a TTL header").parse().unwrap();
        assert!(ttl > 0);
        assert!(matches!(
            h("urgency").as_deref(),
            Some("very-low" | "low" | "normal" | "high")
        ));
        let auth = h("authorization").expect("an Authorization header");
        let (jwt, k) = auth
            .strip_prefix("vapid t=")
            .and_then(|a| a.split_once(", k="))
            .expect("vapid t=JWT, k=KEY");
        assert_eq!(k, server_key, "k is the key pages subscribe with");
        let parts: Vec<&str> = jwt.split('.').collect();
        assert_eq!(parts.len(), 3);
        let header: Value = serde_json::from_slice(&B64.decode(parts[0]).unwrap()).unwrap();
        assert_eq!(header["alg"], "ES256");
        let claims: Value = serde_json::from_slice(&B64.decode(parts[1]).unwrap()).unwrap();
        let origin = self.endpoint.split("/push/").next().unwrap();
        assert_eq!(claims["aud"], origin, "aud is the endpoint's origin");
        let now = bao_server::util::now_ms() / 1000;
        let exp = claims["exp"].as_i64().unwrap();
        assert!(exp > now && exp <= now + 24 * 3600, "exp {exp} now {now}");
        assert!(claims["sub"].as_str().unwrap().starts_with("mailto:"));
        let public = p256::ecdsa::VerifyingKey::from_sec1_bytes(&B64.decode(k).unwrap()).unwrap();
        let sig = p256::ecdsa::Signature::from_slice(&B64.decode(parts[2]).unwrap()).unwrap();
        public
            .verify(format!("{}.{}", parts[0], parts[1]).as_bytes(), &sig)
            .expect("the VAPID JWT is signed with the server's key");
        let plain = web_push_native::decrypt(
            r.body.clone(),
            &self.secret,
            &web_push_native::Auth::clone_from_slice(&self.auth),
        )
        .expect("the body decrypts with the subscription's keys");
        serde_json::from_slice(&plain).unwrap()
    }
}

fn push_server(database: &str, service: &PushService) -> Server {
    let allow = vec![format!("{}/push/", service.base)];
    server(database).with(|c| {
        c.push = PushConfig {
            allow,
            your_move_delay: Duration::ZERO,
            contact: "mailto:ops@bao.test".into(),
            ..Default::default()
        }
    })
}

async fn start_push(database: &str, service: &PushService) -> Running {
    push_server(database, service).start().await
}

async fn server_key(s: &Running) -> String {
    let c = Client::new(s);
    let a = c.get("/api/push/key", None).await;
    assert_eq!(a.status, 200, "{}", a.text);
    let key = a.json["key"].as_str().unwrap().to_string();
    assert_eq!(
        B64.decode(&key).unwrap().len(),
        65,
        "an uncompressed P-256 point"
    );
    key
}

async fn subscribe(s: &Running, body: Value, cookie: Option<&str>) -> Answer {
    post(&base(s), "/api/push/subscribe", body, cookie).await
}

/// Subscribes `browser` for the guest seat `token` of game `id`, without a session: the
/// start of most tests here. The server takes it (201).
async fn subscribe_seat(
    s: &Running,
    browser: &Browser,
    lang: &str,
    id: &str,
    token: &str,
) -> Answer {
    let a = subscribe(
        s,
        json!({"subscription": browser.json(), "lang": lang,
               "seats": [{"game": id, "token": token}]}),
        None,
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    a
}

/// How many push subscriptions the store holds for North's seat (player 1, the joiner's)
/// of game `id`.
async fn north_subscriptions(s: &Running, id: &str) -> usize {
    s.app.store.push_targets_of_seat(id, 1).await.unwrap().len()
}

/// The player of `token` makes the first legal move of game `id` through `c`: the move
/// that makes it the other's turn, so that a "your move" alert follows.
async fn play_first_move(c: &Client, id: &str, token: &str) {
    let mv = first_legal(&c.state(id, Some(token)).await);
    assert_eq!(c.play(id, token, &mv, 0).await.status, 200);
}

/// Seat `player` of game `id`, as alerts name it.
fn seat(id: &str, player: usize) -> Recipient {
    Recipient::Seat {
        game: id.to_string(),
        player,
    }
}

/// "Your move" against `opponent` to seat `player` of game `id`, as the core publishes it
/// when it finds no socket of the player's.
fn your_move(id: &str, player: usize, opponent: &str) -> Alert {
    Alert {
        to: seat(id, player),
        kind: AlertKind::YourMove {
            game: id.to_string(),
            opponent: opponent.into(),
        },
    }
}

/// "Your game has begun" against `opponent` to seat `player` of game `id`.
fn game_start(id: &str, player: usize, opponent: &str) -> Alert {
    Alert {
        to: seat(id, player),
        kind: AlertKind::GameStart {
            game: id.to_string(),
            opponent: opponent.into(),
        },
    }
}

/// A guest's move in Swahili: Baraka subscribes for his seat, has no page open; Asha
/// moves; he is told, in Swahili, with a link to the game.
async fn guest_told_of_their_move(url: &str) {
    let mut service = PushService::start().await;
    let s = start_push(url, &service).await;
    let key = server_key(&s).await;
    let c = Client::new(&s);
    let (id, asha, baraka) = c.two_player_game("kiswahili", "S", "single_game").await;
    let phone = Browser::new(&service, "1");
    let a = subscribe_seat(&s, &phone, "sw", &id, &baraka).await;
    assert_eq!(a.json["seats"], 1);
    play_first_move(&c, &id, &asha).await;
    let r = service.next().await;
    assert_eq!(r.sub, "1");
    let p = phone.open(&r, &key);
    assert_eq!(p["title"], "Ni zamu yako dhidi ya Asha");
    assert_eq!(p["body"], "Asha amecheza. Fungua mchezo ujibu.");
    assert_eq!(p["url"], format!("/g/{id}"));
    assert_eq!(p["tag"], format!("move-{id}"));
    assert_eq!(r.headers["urgency"], "high");
    s.stop().await;
}

/// A signed-in player's subscription is the account's: a game made for the account
/// (`create_pair`) is told in English.
async fn account_told_of_a_game_made_for_it(url: &str) {
    let mut service = PushService::start().await;
    let s = start_push(url, &service).await;
    let key = server_key(&s).await;
    let b = base(&s);
    let name = fresh_name("baraka");
    let up = signup(&b, &name, "a long enough password", None).await;
    assert_eq!(up.status, 201, "{}", up.text);
    let cookie = session_of(&up).unwrap();
    let laptop = Browser::new(&service, "7");
    let a = subscribe(
        &s,
        json!({"subscription": laptop.json(), "lang": "en"}),
        Some(&cookie),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    assert_eq!(a.json["account"], true);
    let account = account_id(&s, &name).await;
    let players = [
        pair_seat("Asha", None, None),
        pair_seat("ignored", Some(&account), None),
    ];
    let made = s
        .app
        .games
        .create_pair(new_pair(players, bao_rules::Side::South, false))
        .await
        .expect("the game is made");
    let r = service.next().await;
    let p = laptop.open(&r, &key);
    assert_eq!(p["title"], "Your game against Asha has begun");
    assert_eq!(p["url"], format!("/g/{}", made.id));
    // A challenge goes to the account too, as published by the challenges feature.
    s.app.games.alerts.publish(Alert {
        to: Recipient::Account(account),
        kind: AlertKind::Challenge {
            challenge: "c1".into(),
            from: "Chausiku".into(),
        },
    });
    let p = laptop.open(&service.next().await, &key);
    assert_eq!(p["title"], "Chausiku challenges you");
    assert_eq!(p["tag"], "challenge-c1");
    s.stop().await;
}

#[tokio::test]
async fn a_guest_is_told_of_their_move_in_swahili_sqlite() {
    guest_told_of_their_move(&sqlite_url("push-guest")).await;
}

#[tokio::test]
async fn a_guest_is_told_of_their_move_in_swahili_postgres() {
    guest_told_of_their_move(&postgres_url()).await;
}

#[tokio::test]
async fn an_account_is_told_of_a_game_made_for_it_sqlite() {
    account_told_of_a_game_made_for_it(&sqlite_url("push-account")).await;
}

#[tokio::test]
async fn an_account_is_told_of_a_game_made_for_it_postgres() {
    account_told_of_a_game_made_for_it(&postgres_url()).await;
}

/// The server POSTs to whatever endpoint it is given, so only the known push services (and
/// the operator's prefixes) are accepted; everything about a subscription is bounded.
#[tokio::test]
async fn subscriptions_are_checked_and_other_endpoints_refused() {
    let service = PushService::start().await;
    let other = PushService::start().await;
    let s = start_push(&sqlite_url("push-refused"), &service).await;
    let c = Client::new(&s);
    let (id, _asha, baraka) = c.two_player_game("kiswahili", "S", "single_game").await;
    let seat = json!([{"game": id, "token": baraka}]);
    let good = Browser::new(&service, "1").json();
    let with = |sub: Value| json!({"subscription": sub, "lang": "en", "seats": seat});
    let mut cases = Vec::new();
    for endpoint in [
        // Another local server, a cloud metadata address, plain HTTP to a push service, a
        // look-alike host, a non-default port.
        format!("{}/push/1", other.base),
        "http://169.254.169.254/latest/meta-data".to_string(),
        "http://fcm.googleapis.com/fcm/send/x".to_string(),
        "https://fcm.googleapis.com.attacker.example/x".to_string(),
        "https://fcm.googleapis.com:8443/x".to_string(),
        format!("{}/push/{}", service.base, "a".repeat(1100)),
    ] {
        let mut sub = good.clone();
        sub["endpoint"] = json!(endpoint);
        cases.push((with(sub), 400));
    }
    let mut bad_key = good.clone();
    bad_key["keys"]["p256dh"] = json!(B64.encode([4u8; 65]));
    cases.push((with(bad_key), 400));
    let mut bad_auth = good.clone();
    bad_auth["keys"]["auth"] = json!("not base64url!");
    cases.push((with(bad_auth), 400));
    cases.push((
        json!({"subscription": good, "lang": "fr", "seats": seat}),
        400,
    ));
    // A wrong seat token, no seat and no session, too many seats.
    cases.push((
        json!({"subscription": good, "lang": "en", "seats": [{"game": id, "token": "x"}]}),
        403,
    ));
    cases.push((json!({"subscription": good, "lang": "en"}), 403));
    let many: Vec<Value> = (0..21)
        .map(|_| json!({"game": id, "token": baraka}))
        .collect();
    cases.push((
        json!({"subscription": good, "lang": "en", "seats": many}),
        400,
    ));
    for (body, status) in cases {
        let a = subscribe(&s, body.clone(), None).await;
        assert_eq!(a.status, status, "{body}: {}", a.text);
    }
    assert_eq!(
        north_subscriptions(&s, &id).await,
        0,
        "nothing refused was stored"
    );
    // The good one, then turned off.
    let a = subscribe(&s, with(good.clone()), None).await;
    assert_eq!(a.status, 201, "{}", a.text);
    assert_eq!(north_subscriptions(&s, &id).await, 1);
    let d = delete_json(
        &base(&s),
        "/api/push/subscribe",
        json!({"endpoint": good["endpoint"]}),
        None,
    )
    .await;
    assert_eq!(d.status, 204, "{}", d.text);
    assert_eq!(north_subscriptions(&s, &id).await, 0);
    s.stop().await;
}

/// Subscriptions per seat are bounded: the oldest go.
#[tokio::test]
async fn a_seat_keeps_at_most_ten_subscriptions() {
    let service = PushService::start().await;
    let s = start_push(&sqlite_url("push-bounds"), &service).await;
    let c = Client::new(&s);
    let (id, _asha, baraka) = c.two_player_game("kiswahili", "S", "single_game").await;
    for n in 0..12 {
        let b = Browser::new(&service, &n.to_string());
        subscribe_seat(&s, &b, "en", &id, &baraka).await;
    }
    assert_eq!(north_subscriptions(&s, &id).await, 10);
    s.stop().await;
}

/// A 410 from the push service: the browser unsubscribed, so the subscription is forgotten.
#[tokio::test]
async fn a_gone_subscription_is_forgotten() {
    let mut service = PushService::start().await;
    let s = start_push(&sqlite_url("push-gone"), &service).await;
    let c = Client::new(&s);
    let (id, _asha, baraka) = c.two_player_game("kiswahili", "S", "single_game").await;
    let b = Browser::new(&service, "9");
    service.status.lock().unwrap().insert("9".into(), 410);
    subscribe_seat(&s, &b, "en", &id, &baraka).await;
    s.app.games.alerts.publish(game_start(&id, 1, "Asha"));
    assert_eq!(service.next().await.sub, "9");
    eventually("the push service to handle one alert", || async {
        s.app.push.stats().handled == 1
    })
    .await;
    assert_eq!(s.app.push.stats().gone, 1);
    assert_eq!(north_subscriptions(&s, &id).await, 0);
    s.stop().await;
}

/// "Your move" is not pushed to a player who has the game open; other alerts are.
#[tokio::test]
async fn no_push_of_your_move_while_the_player_has_a_socket_open() {
    let mut service = PushService::start().await;
    let s = start_push(&sqlite_url("push-online"), &service).await;
    let key = server_key(&s).await;
    let c = Client::new(&s);
    let (id, _asha, baraka) = c.two_player_game("kiswahili", "S", "single_game").await;
    let b = Browser::new(&service, "3");
    subscribe_seat(&s, &b, "en", &id, &baraka).await;
    let _ws = ws(&s.addr.to_string(), &id, Some(&baraka)).await;
    let slot = s.app.games.cached(&id).unwrap();
    eventually("North's socket to be connected", || async {
        slot.connected()[1]
    })
    .await;
    // Asha has the first move: it is not Baraka's turn either. Published as the core would
    // when it misses a socket (another instance's, or one that opened meanwhile).
    s.app.games.alerts.publish(your_move(&id, 1, "Asha"));
    s.app.games.alerts.publish(game_start(&id, 1, "Asha"));
    eventually("the push service to handle two alerts", || async {
        s.app.push.stats().handled == 2
    })
    .await;
    let got = service.drain();
    assert_eq!(got.len(), 1, "only the game start is pushed");
    assert_eq!(b.open(&got[0], &key)["tag"], format!("game-{id}"));
    assert_eq!(s.app.push.stats().skipped, 1);
    s.stop().await;
}

/// "Your move" to an account whose player is to move and has no socket open goes; the
/// same alert when the player has moved meanwhile does not.
#[tokio::test]
async fn your_move_is_checked_again_before_it_is_pushed() {
    let mut service = PushService::start().await;
    let s = start_push(&sqlite_url("push-recheck"), &service).await;
    let c = Client::new(&s);
    let (id, asha, baraka) = c.two_player_game("kiswahili", "S", "single_game").await;
    let b = Browser::new(&service, "4");
    subscribe_seat(&s, &b, "en", &id, &asha).await;
    // Asha (player 0) is to move: pushed.
    s.app.games.alerts.publish(your_move(&id, 0, "Baraka"));
    assert_eq!(service.next().await.sub, "4");
    // She moves; an old "your move" for her is no longer true.
    play_first_move(&c, &id, &asha).await;
    let _ = baraka;
    s.app.games.alerts.publish(your_move(&id, 0, "Baraka"));
    // Three alerts: the first, the core's "your move" to Baraka (no subscription), the stale
    // one.
    eventually("the push service to handle three alerts", || async {
        s.app.push.stats().handled == 3
    })
    .await;
    assert!(service.drain().is_empty());
    assert_eq!(s.app.push.stats().skipped, 1);
    s.stop().await;
}

/// At most `per_minute` pushes a minute to one subscription.
#[tokio::test]
async fn pushes_to_one_subscription_are_rate_limited() {
    let mut service = PushService::start().await;
    let s = push_server(&sqlite_url("push-rate"), &service)
        .with(|c| c.push.per_minute = 2)
        .start()
        .await;
    let c = Client::new(&s);
    let (id, _asha, baraka) = c.two_player_game("kiswahili", "S", "single_game").await;
    let b = Browser::new(&service, "5");
    subscribe_seat(&s, &b, "en", &id, &baraka).await;
    for n in 0..3 {
        s.app.games.alerts.publish(Alert {
            to: seat(&id, 1),
            kind: AlertKind::Challenge {
                challenge: format!("c{n}"),
                from: "Asha".into(),
            },
        });
    }
    eventually("the push service to handle three alerts", || async {
        s.app.push.stats().handled == 3
    })
    .await;
    // Every alert is over; the minute may have turned between two of them, hence "at most".
    let got = service.drain();
    assert!(got.len() == 2 || got.len() == 3 && s.app.push.stats().limited == 0);
    if got.len() == 2 {
        assert_eq!(s.app.push.stats().limited, 1);
    }
    s.stop().await;
}

/// Two instances on one PostgreSQL agree on one VAPID key, and one alert (a move made on
/// one of them) is one push.
#[tokio::test]
async fn two_instances_share_one_key_and_push_once() {
    let url = postgres_url();
    let mut service = PushService::start().await;
    let (a, b) = tokio::join!(start_push(&url, &service), start_push(&url, &service));
    let key = server_key(&a).await;
    assert_eq!(
        server_key(&b).await,
        key,
        "one VAPID key for every instance"
    );
    let ca = Client::new(&a);
    let cb = Client::new(&b);
    let (id, asha, baraka) = ca.two_player_game("kiswahili", "S", "single_game").await;
    let phone = Browser::new(&service, "2");
    subscribe_seat(&a, &phone, "en", &id, &baraka).await;
    // Instance b has the game in memory too (its notification path runs), then Asha moves
    // on b.
    let _ = ca.state(&id, None).await;
    play_first_move(&cb, &id, &asha).await;
    let p = phone.open(&service.next().await, &key);
    assert_eq!(p["title"], "Your move against Asha");
    // Instance a hears of the move (its copy moves on) and pushes nothing.
    eventually("the first move on instance A", || async {
        ca.state(&id, None).await["ply"] == 1
    })
    .await;
    eventually("instance B to handle the alert", || async {
        b.app.push.stats().handled == 1
    })
    .await;
    assert_eq!(a.app.push.stats().handled, 0);
    assert!(service.drain().is_empty(), "one alert, one push");
    a.stop().await;
    b.stop().await;
}

/// "Your move" is not pushed to a player whose socket is on another instance: instance a
/// holds Baraka's socket, Asha moves on instance b, b pushes nothing; once the socket is
/// closed, the same alert on b is pushed.
#[tokio::test]
async fn no_push_of_your_move_while_the_player_is_on_another_instance() {
    let url = postgres_url();
    let mut service = PushService::start().await;
    let (a, b) = tokio::join!(start_push(&url, &service), start_push(&url, &service));
    let key = server_key(&a).await;
    let (ca, cb) = (Client::new(&a), Client::new(&b));
    let (id, asha, baraka) = ca.two_player_game("kiswahili", "S", "single_game").await;
    let phone = Browser::new(&service, "6");
    subscribe_seat(&b, &phone, "en", &id, &baraka).await;
    let socket = ws(&a.addr.to_string(), &id, Some(&baraka)).await;
    // Instance b learns from the store that Baraka has the game open on a.
    let on_a = || async {
        b.app
            .store
            .present_elsewhere(&id, 1, &b.app.games.instance, bao_server::util::now_ms())
            .await
            .unwrap()
    };
    eventually("the seat's socket on instance A", || async { on_a().await }).await;
    play_first_move(&cb, &id, &asha).await;
    eventually("instance B to handle the alert", || async {
        b.app.push.stats().handled == 1
    })
    .await;
    assert_eq!(b.app.push.stats().skipped, 1, "{:?}", b.app.push.stats());
    assert!(
        service.drain().is_empty(),
        "no push while the game is open on a"
    );
    // Baraka closes the page: a writes its set again without him, and the alert goes.
    drop(socket);
    eventually("the seat's socket gone from instance A", || async {
        !on_a().await
    })
    .await;
    b.app.games.alerts.publish(your_move(&id, 1, "Asha"));
    let p = phone.open(&service.next().await, &key);
    assert_eq!(p["title"], "Your move against Asha");
    // A stopping instance forgets its players at once (not only when the rows expire).
    let again = ws(&a.addr.to_string(), &id, Some(&baraka)).await;
    eventually("the seat's socket on instance A", || async { on_a().await }).await;
    a.stop().await;
    assert!(!on_a().await, "a's rows are gone when it has stopped");
    drop(again);
    b.stop().await;
}
