//! `bao serve` as an operator runs it (docs/deploy.md): configuration from the environment,
//! a usage error for an unsupported database, SIGTERM and Ctrl-C (SIGINT) end it cleanly
//! (WebSockets closed with a reason, exit status 0), and the request log has no colour codes
//! when standard error is a file.

mod common;
use common::{free_port, try_http, wait_up};
use futures_util::StreamExt;
use serde_json::Value;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-ops-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// One HTTP/1.1 request with a JSON body; (status, body as JSON or Null).
fn http(port: u16, method: &str, path: &str, body: Option<&str>) -> (u16, Value) {
    try_http(port, method, path, "", body.unwrap_or("")).expect("an HTTP answer")
}

/// Waits for the process to end (at most `limit`); its exit status.
fn wait_exit(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let t0 = Instant::now();
    loop {
        if let Some(st) = child.try_wait().unwrap() {
            return st;
        }
        if t0.elapsed() > limit {
            let _ = child.kill();
            panic!("bao serve still running {limit:?} after the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn an_unsupported_database_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(["serve", "--addr", "127.0.0.1:0", "--database", "mysql://x"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("sqlite://") && err.contains("postgres://"),
        "{err}"
    );
    // The same from DATABASE_URL.
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(["serve", "--addr", "127.0.0.1:0"])
        .env("DATABASE_URL", "mysql://x")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

async fn shutdown_on(signal: &str) {
    let dir = temp_dir(signal);
    let port = free_port();
    let log = dir.join("stderr.log");
    // Address and database from the environment only.
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .arg("serve")
        .env("BAO_ADDR", format!("127.0.0.1:{port}"))
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.join("env.db").display()),
        )
        .env_remove("RUST_LOG")
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    wait_up(port, &mut child);
    assert!(dir.join("env.db").exists(), "DATABASE_URL was used");
    let (st, game) = http(
        port,
        "POST",
        "/api/games",
        Some(r#"{"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "S"}"#),
    );
    assert_eq!(st, 201, "{game}");
    let id = game["id"].as_str().unwrap();
    let url = format!("ws://127.0.0.1:{port}/api/games/{id}/ws");
    let (mut ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let first = ws.next().await.unwrap().unwrap();
    assert!(matches!(first, Message::Text(_)));

    // A move in flight when the signal comes: its headers are read and the server waits for
    // its body (it said "100 Continue"), so the request is being handled.
    let south = game["token"].as_str().unwrap();
    let (st, _) = http(
        port,
        "POST",
        &format!("/api/games/{id}/join"),
        Some(&format!(
            r#"{{"invite": "{}"}}"#,
            game["invite"].as_str().unwrap()
        )),
    );
    assert_eq!(st, 200);
    let (_, state) = http(port, "GET", &format!("/api/games/{id}"), None);
    let mv = state["legal"][0]["move"].as_str().unwrap().to_string();
    let body = format!(r#"{{"move": "{mv}", "ply": 0}}"#);
    let mut inflight = TcpStream::connect(("127.0.0.1", port)).unwrap();
    inflight
        .set_read_timeout(Some(Duration::from_secs(30)))
        .unwrap();
    write!(
        inflight,
        "POST /api/games/{id}/moves HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {south}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n",
        body.len()
    )
    .unwrap();
    let mut got = Vec::new();
    let mut byte = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        inflight.read_exact(&mut byte).expect("100 Continue");
        got.push(byte[0]);
    }
    assert!(
        String::from_utf8_lossy(&got).starts_with("HTTP/1.1 100"),
        "{}",
        String::from_utf8_lossy(&got)
    );

    let t0 = Instant::now();
    let kill = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .unwrap();
    assert!(kill.success());
    // The socket is closed by the server with a reason (not just dropped).
    let close = loop {
        match tokio::time::timeout(Duration::from_secs(20), ws.next())
            .await
            .expect("a close frame in time")
        {
            Some(Ok(Message::Close(f))) => break f.expect("a close frame with a reason"),
            Some(Ok(_)) => continue,
            other => panic!("expected a close frame, got {other:?}"),
        }
    };
    assert_eq!(u16::from(close.code), 1001);
    // The move in flight is finished, committed and answered.
    inflight.write_all(body.as_bytes()).unwrap();
    let mut answer = String::new();
    inflight.read_to_string(&mut answer).unwrap();
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    let status = wait_exit(&mut child, Duration::from_secs(15));
    assert_eq!(status.code(), Some(0), "exit status after {signal}");
    assert!(t0.elapsed() < Duration::from_secs(15));

    // And it is in the database: a new server on the same file has it.
    let mut again = Command::new(env!("CARGO_BIN_EXE_bao"))
        .arg("serve")
        .env("BAO_ADDR", format!("127.0.0.1:{port}"))
        .env(
            "DATABASE_URL",
            format!("sqlite://{}", dir.join("env.db").display()),
        )
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_up(port, &mut again);
    let (_, after) = http(port, "GET", &format!("/api/games/{id}"), None);
    let _ = again.kill();
    let _ = again.wait();
    assert_eq!(after["ply"], 1, "{after}");
    assert_eq!(after["moves"][0]["move"], mv.as_str());

    let text = std::fs::read_to_string(&log).unwrap();
    assert!(
        !text.contains('\x1b'),
        "colour codes in a log file:\n{text}"
    );
    assert!(
        text.contains("GET /api/health 200") && text.contains("POST /api/games 201"),
        "request log:\n{text}"
    );
    assert!(text.contains("stopped"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test]
async fn sigterm_shuts_down_cleanly() {
    shutdown_on("-TERM").await;
}

#[tokio::test]
async fn ctrl_c_shuts_down_cleanly() {
    shutdown_on("-INT").await;
}

/// `--engine-threads` bounds the server's engine pool (docs/api.md, "Operations"; shown on
/// the health check); 0 threads is a usage error.
#[test]
fn engine_threads_set_the_pool() {
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(["serve", "--addr", "127.0.0.1:0", "--engine-threads", "0"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--engine-threads"), "{err}");
    let dir = temp_dir("threads");
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(["serve", "--engine-threads", "3", "--search-threads", "2"])
        .arg("--addr")
        .arg(format!("127.0.0.1:{port}"))
        .arg("--database")
        .arg(format!("sqlite://{}", dir.join("t.db").display()))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_up(port, &mut child);
    let (st, health) = http(port, "GET", "/api/health", None);
    let _ = child.kill();
    let _ = child.wait();
    assert_eq!(st, 200, "{health}");
    assert_eq!(health["engine"]["threads"], 3, "{health}");
    assert_eq!(health["engine"]["busy"], 0, "{health}");
}
