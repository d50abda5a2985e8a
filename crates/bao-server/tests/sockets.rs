//! The socket driver (docs/architecture.md, "The socket driver"; docs/api.md, "WebSocket"):
//! a client that does not read is closed with code 4000 and its messages dropped, an event
//! for one account wakes only that account's player sockets (and their entries go when they
//! close), and every socket kind refuses a malformed or oversized message with an `error`
//! frame.

mod common;

use common::accounts::{base, post};
use common::seeks::*;
use common::*;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::time::Duration;
use tokio_tungstenite::tungstenite::Message;

/// Reads until the close frame: (text messages read, the close code).
async fn read_to_close(w: &mut Ws) -> (usize, Option<u16>) {
    let mut texts = 0;
    loop {
        let next = tokio::time::timeout(Duration::from_secs(30), w.next()).await;
        let Ok(next) = next else {
            panic!("not closed within 30 s; {texts} messages read");
        };
        match next {
            Some(Ok(Message::Text(_))) => texts += 1,
            Some(Ok(Message::Close(f))) => return (texts, f.map(|f| u16::from(f.code))),
            Some(Ok(_)) => {}
            None | Some(Err(_)) => return (texts, None),
        }
    }
}

#[tokio::test]
async fn a_client_that_does_not_read_is_closed_with_4000_and_its_messages_dropped() {
    let s = server(&sqlite_url("slow")).start().await;
    let c = Client::new(&s);
    let (id, _, _) = c.two_player_game("kiswahili", "S", "single_game").await;
    let mut w = ws(&s.addr.to_string(), &id, None).await;
    // Each `sync` asks for the whole state; the client never reads while it asks. What the
    // socket buffers (the kernel's and ours) fills, then the server gives up on it.
    let asked = 30_000;
    for _ in 0..asked {
        if w.send(Message::Text(r#"{"type":"sync"}"#.into()))
            .await
            .is_err()
        {
            break;
        }
    }
    let (read, code) = read_to_close(&mut w).await;
    assert_eq!(code, Some(4000), "read {read} messages");
    // The answers past the bounded queue were dropped, not kept for the client.
    assert!(read < asked, "{read} of {asked}");
    s.stop().await;
}

#[tokio::test]
async fn an_event_for_one_account_wakes_only_its_sockets_and_closed_sockets_leave_no_entry() {
    let s = server(&sqlite_url("targeted")).seeks(quick()).start().await;
    let b = &base(&s);
    let addr = s.addr.to_string();
    let (aname, ca) = account(b, "Amani").await;
    let (bname, cb) = account(b, "Bahati").await;
    let (_, cc) = account(b, "Chausiku").await;
    let mut asock = play_ws(&addr, Some(&ca), &[]).await;
    let bsock = play_ws(&addr, Some(&cb), &[]).await;
    let sockets = &s.app.seeks.sockets;
    eventually("both sockets registered", || async {
        sockets.registered() == 2
    })
    .await;
    let r = post(
        b,
        "/api/challenges",
        json!({"to": aname, "variant": "kete", "rules": "-", "clock": {"days_per_move": 1},
               "match": "single_game", "rated": false}),
        Some(&cc),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let m = next_of(&mut asock, "challenge", None).await;
    assert_eq!(m["challenge"]["to"], aname.as_str());
    let a_id = common::accounts::account_id(&s, &aname).await;
    let b_id = common::accounts::account_id(&s, &bname).await;
    assert!(sockets.wakes_of(&a_id) >= 1);
    assert_eq!(sockets.wakes_of(&b_id), 0, "B's socket was woken");
    drop(asock);
    drop(bsock);
    eventually("no entry left", || async { sockets.registered() == 0 }).await;
    s.stop().await;
}

/// The next `error` frame.
async fn next_error(w: &mut Ws) -> Value {
    let v = next_of(w, "error", None).await;
    assert!(v["message"].as_str().is_some_and(|m| !m.is_empty()), "{v}");
    v
}

#[tokio::test]
async fn every_socket_kind_refuses_malformed_and_oversized_messages() {
    let s = server(&sqlite_url("typed")).start().await;
    let c = Client::new(&s);
    let addr = s.addr.to_string();
    let (id, _, _) = c.two_player_game("kiswahili", "S", "single_game").await;
    let open = |path: String| async move {
        tokio_tungstenite::connect_async(format!("ws://{path}"))
            .await
            .expect("ws connects")
            .0
    };
    let game = ws(&addr, &id, None).await;
    let lobby = open(format!("{addr}/api/lobby/ws")).await;
    let player = open(format!("{addr}/api/play/ws")).await;
    for (what, mut w) in [("game", game), ("lobby", lobby), ("player", player)] {
        for bad in [
            "not json".to_string(),
            json!({"type": "dance"}).to_string(),
            json!({"kind": "ping"}).to_string(),
        ] {
            w.send(Message::Text(bad.clone().into())).await.unwrap();
            let e = next_error(&mut w).await;
            assert_eq!(e["error"], "bad_request", "{what}: {bad} -> {e}");
        }
        w.send(Message::Binary(vec![1, 2, 3].into())).await.unwrap();
        assert_eq!(next_error(&mut w).await["error"], "bad_request", "{what}");
        // The socket still answers.
        send(&mut w, json!({"type": "ping"})).await;
        assert_eq!(next_json(&mut w).await["type"], "pong", "{what}");
        // Over 16 KiB: told, then closed with 1009.
        let big = format!(r#"{{"type":"ping","pad":"{}"}}"#, "x".repeat(20 * 1024));
        w.send(Message::Text(big.into())).await.unwrap();
        assert_eq!(next_error(&mut w).await["error"], "too_large", "{what}");
        let (_, code) = read_to_close(&mut w).await;
        assert_eq!(code, Some(1009), "{what}");
    }
    s.stop().await;
}
