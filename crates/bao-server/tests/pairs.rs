//! Games the server makes between two players (`Games::create_pair`, docs/api.md, "Seats"):
//! both seats taken at once, each player told (alerts), a signed-in player's session holds
//! their seat without a seat token, and "your move" goes to a player with no page open.

mod common;
use bao_rules::Side;
use bao_server::game::{AlertKind, NewPair, Recipient};
use common::accounts::*;
use common::*;
use serde_json::json;

#[tokio::test]
async fn a_pair_game_seats_both_players_and_sessions_hold_their_seats() {
    let s = server(&sqlite_url("pairs")).start().await;
    let b = base(&s);
    let (asha, baraka, chausiku) = (fresh_name("asha"), fresh_name("baraka"), fresh_name("chau"));
    let mut cookies = Vec::new();
    for n in [&asha, &baraka, &chausiku] {
        let a = signup(&b, n, "a long enough password", None).await;
        assert_eq!(a.status, 201, "{}", a.text);
        cookies.push(session_of(&a).unwrap());
    }
    let (ida, idb) = (account_id(&s, &asha).await, account_id(&s, &baraka).await);
    let mut alerts = s.app.games.alerts.subscribe();
    let both = [
        pair_seat("ignored", Some(&ida), None),
        pair_seat("ignored", Some(&idb), None),
    ];
    let made = s
        .app
        .games
        .create_pair(new_pair(both, Side::South, true))
        .await
        .expect("the game is made");
    // Each player is told, under the other's account name.
    let mut told = Vec::new();
    for _ in 0..2 {
        told.push(alerts.recv().await.unwrap());
    }
    for (to, opponent) in [(&ida, &baraka), (&idb, &asha)] {
        assert!(
            told.iter().any(|a| a.to == Recipient::Account(to.clone())
                && a.kind
                    == AlertKind::GameStart {
                        game: made.id.clone(),
                        opponent: opponent.clone()
                    }),
            "{told:?}"
        );
    }
    let path = format!("/api/games/{}", made.id);
    let state = |cookie: String| {
        let (b, path) = (b.clone(), path.clone());
        async move { get(&b, &path, Some(&cookie)).await }
    };
    let st = state(cookies[0].clone()).await;
    assert_eq!(st.status, 200, "{}", st.text);
    assert_eq!(st.json["you"], "S", "Asha's session holds South");
    assert_eq!(st.json["rated"], true);
    assert_eq!(state(cookies[1].clone()).await.json["you"], "N");
    assert!(
        state(cookies[2].clone()).await.json["you"].is_null(),
        "a third account only watches"
    );
    let mv = st.json["legal"][0]["move"].as_str().unwrap().to_string();
    // North's session cannot move for South; South's can, without a seat token.
    let moves = format!("{path}/moves");
    let body = json!({"move": mv, "ply": 0});
    let no = post(&b, &moves, body.clone(), Some(&cookies[1])).await;
    assert_eq!(no.status, 409, "{}", no.text);
    let yes = post(&b, &moves, body.clone(), Some(&cookies[0])).await;
    assert_eq!(yes.status, 200, "{}", yes.text);
    // Baraka has no page open: he is told it is his move.
    let a = alerts.recv().await.unwrap();
    assert_eq!(a.to, Recipient::Account(idb.clone()));
    assert_eq!(
        a.kind,
        AlertKind::YourMove {
            game: made.id.clone(),
            opponent: asha.clone()
        }
    );
    // The seat tokens work too, for the player they were handed to only.
    let c = Client::new(&s);
    assert_eq!(
        c.state(&made.id, made.tokens[1].as_deref()).await["you"],
        "N"
    );
    // A rated pair needs two accounts.
    let err = s
        .app
        .games
        .create_pair(new_pair(
            [
                pair_seat("x", Some(&ida), None),
                pair_seat("Guest", None, None),
            ],
            Side::North,
            true,
        ))
        .await
        .unwrap_err();
    assert_eq!(err.category, "not_signed_in");
    // A guest's own token (a seek token) can be their seat token: nothing new to hand over.
    let guest = bao_server::util::new_token();
    let casual = s
        .app
        .games
        .create_pair(new_pair(
            [
                pair_seat("Zuhura", None, Some(bao_server::util::hash_token(&guest))),
                pair_seat("Guest", Some(&idb), None),
            ],
            Side::North,
            false,
        ))
        .await
        .unwrap();
    assert!(casual.tokens[0].is_none() && casual.tokens[1].is_some());
    let st = c.state(&casual.id, Some(&guest)).await;
    assert_eq!(st["you"], "N");
    assert_eq!(st["players"]["S"]["name"], baraka.as_str(), "{st}");
    s.stop().await;
}

/// A game made for an account on one instance (as a tournament round is) is told on that
/// account's player socket on another instance, once, as `game`; a player with no account
/// in it is not told. On PostgreSQL with two instances.
#[tokio::test]
async fn a_game_made_elsewhere_is_told_on_the_player_socket() {
    let url = postgres_url();
    let (a, b) = tokio::join!(server(&url).start(), server(&url).start());
    let (ba, bb) = (base(&a), base(&b));
    let (asha, baraka, chausiku) = (fresh_name("asha"), fresh_name("baraka"), fresh_name("chau"));
    let mut cookies = Vec::new();
    for n in [&asha, &baraka, &chausiku] {
        let r = signup(&ba, n, "a long enough password", None).await;
        assert_eq!(r.status, 201, "{}", r.text);
        cookies.push(session_of(&r).unwrap());
    }
    let _ = bb;
    let mut sockets = Vec::new();
    for c in &cookies[1..] {
        let mut w = common::seeks::play_ws(&b.addr.to_string(), Some(c), &[]).await;
        // The socket is open (and reading) once it answers a ping.
        send(&mut w, json!({"type": "ping"})).await;
        next_of(&mut w, "pong", None).await;
        sockets.push(w);
    }
    let (ida, idb) = (account_id(&a, &asha).await, account_id(&a, &baraka).await);
    let rules = bao_rules::Rules::new(bao_rules::Variant::Kete);
    let seat = |id: &str| pair_seat("", Some(id), None);
    let make = |x: String, y: String| {
        let games = a.app.games.clone();
        async move {
            games
                .create_pair(NewPair {
                    rules,
                    start: bao_rules::Position::start(&rules),
                    players: [seat(&x), seat(&y)],
                    first_side: bao_rules::Side::South,
                    clock: None,
                    rated: false,
                    id: None,
                    event: None,
                    news: Vec::new(),
                })
                .await
                .unwrap()
                .id
        }
    };
    let first = make(ida.clone(), idb.clone()).await;
    let told = next_of(&mut sockets[0], "game", None).await;
    assert_eq!(told["game"], first.as_str());
    assert_eq!(told["url"], format!("/g/{first}"));
    // A second game, for Baraka and Chausiku: for each, the next `game` is this one. So
    // Baraka was told of the first once, and Chausiku, not in it, never.
    let idc = account_id(&a, &chausiku).await;
    let second = make(idb.clone(), idc).await;
    for w in sockets.iter_mut() {
        assert_eq!(next_of(w, "game", None).await["game"], second.as_str());
    }
    a.stop().await;
    b.stop().await;
}

/// A player's "connected" mark is right whichever instance each side's socket is on:
/// South watches through instance b, North opens and closes the game through instance a.
#[tokio::test]
async fn a_player_connected_through_another_instance_shows_connected() {
    let url = postgres_url();
    let (a, b) = tokio::join!(server(&url).start(), server(&url).start());
    let c = Client::new(&a);
    let (id, south, north) = c.two_player_game("kete", "S", "single_game").await;
    let mut s = ws(&b.addr.to_string(), &id, Some(&south)).await;
    let first = next_of(&mut s, "state", None).await;
    assert_eq!(
        first["state"]["players"]["N"]["connected"], false,
        "{first}"
    );
    let n = ws(&a.addr.to_string(), &id, Some(&north)).await;
    loop {
        let m = next_of(&mut s, "presence", None).await;
        if m["connected"]["N"] == true {
            assert_eq!(m["connected"]["S"], true, "{m}");
            break;
        }
    }
    drop(n);
    loop {
        let m = next_of(&mut s, "presence", None).await;
        if m["connected"]["N"] == false {
            break;
        }
    }
    a.stop().await;
    b.stop().await;
}
