//! The live protocol (docs/api.md, "WebSocket"): full state once, then small versioned
//! frames a client can rebuild the game from; `sync`; the server's keep-alive; the lobby.

mod common;

use bao_server::edge::socket::WsConfig;
use common::*;
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// A server whose sockets ping after `ping` ms of silence and close after `idle` ms.
async fn start_with(db: &str, ping: u64, idle: u64) -> bao_server::Running {
    server(db)
        .with(|c| {
            c.ws = WsConfig {
                ping_every: Duration::from_millis(ping),
                idle_timeout: Duration::from_millis(idle),
            }
        })
        .start()
        .await
}

/// A person-against-person game with both seats taken: (id, tokens by side).
async fn two_player_game(c: &Client, variant: &str, rules: &str) -> (String, [String; 2]) {
    let a = c
        .post(
            "/api/games",
            None,
            json!({"variant": variant, "rules": rules, "opponent": {"kind": "human"}, "side": "S", "match": "single_game", "name": "Sam"}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let north = c.join(&id, a.json["invite"].as_str().unwrap()).await;
    let south = a.json["token"].as_str().unwrap().to_string();
    (id, [south, north])
}

/// The next text message and its size in bytes.
async fn next_sized(ws: &mut Ws) -> (Value, usize) {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a message within 20 s")
            .expect("the socket is open")
            .expect("no socket error");
        if let Message::Text(t) = m {
            return (serde_json::from_str(t.as_str()).expect("JSON"), t.len());
        }
    }
}

#[tokio::test]
async fn a_spectator_rebuilds_a_whole_game_from_lean_move_frames() {
    let s = server(&sqlite_url("lean")).start().await;
    let c = Client::new(&s);
    // A ply cap makes random play end (BRD-7.6): by the rules or as a draw at ply 80.
    let (id, tokens) = two_player_game(&c, "kiswahili", "max_plies=80").await;
    let mut ws_v = ws(&s.addr.to_string(), &id, None).await;
    let (first, _) = next_sized(&mut ws_v).await;
    assert_eq!(first["type"], "state");
    // The picture comes over HTTP only; the socket's state has none.
    assert_eq!(first["state"]["svg"], Value::Null);
    assert!(c.state(&id, None).await["svg"]
        .as_str()
        .is_some_and(|t| t.contains("<svg")));
    let mut v = first["v"].as_u64().expect("the state has a version");
    // What the spectator knows, rebuilt from the frames only.
    let mut position = first["state"]["position"].as_str().unwrap().to_string();
    let mut moves: Vec<Value> = Vec::new();
    let mut result = "-".to_string();
    let mut last = Value::Null;
    let (mut frames, mut bytes) = (0usize, 0usize);
    let seed = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64;
    println!("random moves, seed {seed}");
    let mut rng = bao_rules::Rng::new(seed);
    while result == "-" {
        let st = c.state(&id, None).await;
        let mover = if st["side_to_move"] == "S" { 0 } else { 1 };
        let legal = st["legal"].as_array().unwrap();
        let mv = legal[rng.below(legal.len())]["move"].as_str().unwrap();
        let r = c
            .play(&id, &tokens[mover], mv, st["ply"].as_u64().unwrap())
            .await;
        assert_eq!(r.status, 200, "{}", r.text);
        let (f, n) = next_sized(&mut ws_v).await;
        assert_eq!(f["type"], "move", "{f}");
        assert_eq!(f["v"].as_u64(), Some(v + 1), "versions follow each other");
        v += 1;
        assert!(f.get("state").is_none() && f.get("svg").is_none());
        frames += 1;
        bytes += n;
        position = f["move"]["position"].as_str().unwrap().to_string();
        result = f["move"]["result"].as_str().unwrap().to_string();
        moves.push(f["move"].clone());
        last = f;
    }
    let end = c.state(&id, None).await;
    assert_eq!(position, end["position"].as_str().unwrap());
    assert_eq!(result, end["result"].as_str().unwrap());
    assert_eq!(&moves, end["moves"].as_array().unwrap());
    assert_eq!(last["result_text"], end["result_text"]);
    assert_eq!(last["match"], end["match"]);
    assert_eq!(last["legal"], json!([]));
    let mean = bytes as f64 / frames as f64;
    println!("{frames} move frames, {mean:.0} bytes on average");
    assert!(mean <= 1024.0, "a move frame averages {mean:.0} bytes");
    // A client that lost track asks again and gets the whole state at the same version.
    send(&mut ws_v, json!({"type": "sync"})).await;
    let (again, _) = next_sized(&mut ws_v).await;
    assert_eq!(again["type"], "state");
    assert_eq!(again["v"].as_u64(), Some(v));
    assert_eq!(again["state"]["position"], end["position"]);
    s.stop().await;
}

#[tokio::test]
async fn players_connecting_reach_the_others_as_small_presence_messages() {
    let s = server(&sqlite_url("presence")).start().await;
    let c = Client::new(&s);
    let (id, tokens) = two_player_game(&c, "kimasai", "-").await;
    let addr = s.addr.to_string();
    let mut ws_v = ws(&addr, &id, None).await;
    let (first, _) = next_sized(&mut ws_v).await;
    assert_eq!(first["state"]["players"]["S"]["connected"], false);
    let v = first["v"].as_u64().unwrap();
    let ws_s = ws(&addr, &id, Some(&tokens[0])).await;
    let (p, n) = next_sized(&mut ws_v).await;
    assert_eq!(p["type"], "presence", "{p}");
    assert_eq!(p["v"].as_u64(), Some(v + 1));
    assert_eq!(p["connected"], json!({"S": true, "N": false}));
    assert!(n < 100, "{n} bytes");
    drop(ws_s);
    let (p, _) = next_sized(&mut ws_v).await;
    assert_eq!(p["v"].as_u64(), Some(v + 2));
    assert_eq!(p["connected"], json!({"S": false, "N": false}));
    s.stop().await;
}

/// Opens a WebSocket by hand and never answers anything: (stream, bytes after the headers).
async fn raw_socket(addr: &str, path: &str) -> (TcpStream, Vec<u8>) {
    let mut t = TcpStream::connect(addr).await.unwrap();
    let req = format!(
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\
         Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    );
    t.write_all(req.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    loop {
        let n = t.read(&mut buf).await.unwrap();
        assert!(n > 0, "the server closed during the handshake");
        got.extend_from_slice(&buf[..n]);
        if let Some(i) = got.windows(4).position(|w| w == b"\r\n\r\n") {
            assert!(
                got.starts_with(b"HTTP/1.1 101"),
                "{}",
                String::from_utf8_lossy(&got)
            );
            return (t, got[i + 4..].to_vec());
        }
    }
}

/// Reads server frames (never masked) until a close frame; returns its code, or `None` if
/// the connection ended without one.
async fn close_code(mut t: TcpStream, mut buf: Vec<u8>) -> Option<u16> {
    loop {
        // A whole frame in the buffer?
        if buf.len() >= 2 {
            let op = buf[0] & 0x0f;
            let (len, head) = match buf[1] & 0x7f {
                126 if buf.len() >= 4 => (u16::from_be_bytes([buf[2], buf[3]]) as usize, 4),
                127 if buf.len() >= 10 => (
                    u64::from_be_bytes(buf[2..10].try_into().unwrap()) as usize,
                    10,
                ),
                126 | 127 => (usize::MAX, 0),
                n => (n as usize, 2),
            };
            if len != usize::MAX && buf.len() >= head + len {
                if op == 8 {
                    let p = &buf[head..head + len];
                    return (p.len() >= 2).then(|| u16::from_be_bytes([p[0], p[1]]));
                }
                buf.drain(..head + len);
                continue;
            }
        }
        let mut more = [0u8; 4096];
        let n = t.read(&mut more).await.ok()?;
        if n == 0 {
            return None;
        }
        buf.extend_from_slice(&more[..n]);
    }
}

#[tokio::test]
async fn a_silent_socket_is_closed_and_one_that_answers_pings_stays() {
    let s = start_with(&sqlite_url("idle"), 100, 400).await;
    let c = Client::new(&s);
    let (id, _) = two_player_game(&c, "kimasai", "-").await;
    let addr = s.addr.to_string();
    // Never answers the server's pings: closed with "going away" (1001).
    let (t, rest) = raw_socket(&addr, &format!("/api/games/{id}/ws")).await;
    let code = tokio::time::timeout(Duration::from_secs(30), close_code(t, rest))
        .await
        .expect("the silent socket is closed");
    assert_eq!(code, Some(1001));
    // The lobby socket too.
    let (t, rest) = raw_socket(&addr, "/api/lobby/ws").await;
    let code = tokio::time::timeout(Duration::from_secs(30), close_code(t, rest))
        .await
        .expect("the silent lobby socket is closed");
    assert_eq!(code, Some(1001));
    // A client that reads answers pings by itself: without the answers the socket would be
    // closed after the first ping, so five pings show it stays.
    let mut w = ws(&addr, &id, None).await;
    let mut pings = 0;
    while pings < 5 {
        match tokio::time::timeout(Duration::from_secs(20), w.next()).await {
            Ok(Some(Ok(Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(Message::Close(f)))) => panic!("closed although it answered: {f:?}"),
            Ok(Some(Ok(_))) => {}
            other => panic!("socket ended: {other:?}"),
        }
    }
    s.stop().await;
}

#[tokio::test]
async fn the_lobby_tells_the_home_page_about_new_games_and_moves() {
    let s = server(&sqlite_url("lobby")).start().await;
    let c = Client::new(&s);
    let (mut lobby, _) = tokio_tungstenite::connect_async(format!("ws://{}/api/lobby/ws", s.addr))
        .await
        .unwrap();
    let (id, tokens) = two_player_game(&c, "kimasai", "-").await;
    // A match nobody has moved in is not listed as live; its first move brings it.
    let st = c.state(&id, None).await;
    let r = c.play(&id, &tokens[0], &first_legal(&st), 0).await;
    assert_eq!(r.status, 200, "{}", r.text);
    let g = seen(&mut lobby, &id, 1).await;
    assert_eq!(g["status"], "live");
    assert_eq!(g["players"]["S"]["name"], "Sam");
    assert_eq!(g["result"], "-");
    let r = c.resign(&id, &tokens[1], 1, 1).await;
    assert_eq!(r.status, 200, "{}", r.text);
    // The resignation: the game leaves "Watch live" for the finished list.
    loop {
        let g = seen(&mut lobby, &id, 1).await;
        if g["status"] == "finished" {
            assert_eq!(g["result"], "S");
            break;
        }
    }
    s.stop().await;
}

/// The next lobby batch that holds game `id` at `ply`: its summary.
async fn seen(lobby: &mut Ws, id: &str, ply: u64) -> Value {
    loop {
        let (b, n) = next_sized(lobby).await;
        assert_eq!(b["type"], "games", "{b}");
        assert!(n < 24 * 400, "a batch is small: {n} bytes");
        if let Some(g) = b["games"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id && g["ply"] == ply)
        {
            return g.clone();
        }
    }
}

/// Another instance's changes read in one go (its notifications came late): a move and the
/// resignation after it reach a viewer here as the move frame and then the full state with
/// the result, not as the move frame alone. Two instances on one SQLite file, where nothing
/// tells b of a's changes until it reads them (`Games::refresh`, as on a notification).
#[tokio::test]
async fn a_move_and_a_resignation_read_together_reach_the_viewers_whole() {
    let url = sqlite_url("wire-refresh");
    let (a, b) = server(&url).start_two().await;
    let ca = Client::new(&a);
    let (id, south, north) = ca.two_player_game("kete", "S", "single_game").await;
    let mut s = ws(&b.addr.to_string(), &id, Some(&south)).await;
    let first = next_of(&mut s, "state", None).await;
    assert_eq!(first["state"]["ply"], 0);
    let st = ca.state(&id, Some(&south)).await;
    let mv = st["legal"][0]["move"].as_str().unwrap().to_string();
    assert_eq!(ca.play(&id, &south, &mv, 0).await.status, 200);
    assert_eq!(ca.resign(&id, &north, 1, 1).await.status, 200);
    b.app.games.refresh(&id).await;
    let frame = next_json(&mut s).await;
    assert_eq!(frame["type"], "move", "{frame}");
    let full = next_json(&mut s).await;
    assert_eq!(full["type"], "state", "{full}");
    assert_eq!(full["state"]["result"], "S", "{full}");
    assert_eq!(full["state"]["termination"], "resignation", "{full}");
    a.stop().await;
    b.stop().await;
}
