//! `bao serve` killed with SIGKILL loses no acknowledged move, and the games go on after a
//! restart on the same SQLite file. Uses the real binary and plain HTTP.

mod common;
use common::{bearer, free_port, try_http, wait_up};
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// One HTTP/1.1 request; returns (status, body as JSON or Null).
fn http(
    port: u16,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    try_http(port, method, path, &bearer(token), &body).expect("an HTTP answer")
}

struct Server {
    child: Child,
    port: u16,
}

fn serve(db: &str) -> Server {
    let port = free_port();
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--database",
            db,
        ])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("bao serve starts");
    wait_up(port, &mut child);
    Server { child, port }
}

fn state(port: u16, id: &str, token: Option<&str>) -> Value {
    let (st, v) = http(port, "GET", &format!("/api/games/{id}"), token, None);
    assert_eq!(st, 200, "{v}");
    v
}

#[test]
fn kill_9_loses_no_acknowledged_move() {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("bao-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let db = format!("sqlite://{}", dir.join("bao.db").display());

    let mut srv = serve(&db);
    let p = srv.port;
    let (st, created) = http(
        p,
        "POST",
        "/api/games",
        None,
        Some(
            &json!({"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "S", "match": "single_game"}),
        ),
    );
    assert_eq!(st, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let south = created["token"].as_str().unwrap().to_string();
    let (st, joined) = http(
        p,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({"invite": created["invite"]})),
    );
    assert_eq!(st, 200, "{joined}");
    let north = joined["token"].as_str().unwrap().to_string();
    // A game against the computer too, with the person to move.
    let (st, comp) = http(
        p,
        "POST",
        "/api/games",
        None,
        Some(
            &json!({"variant": "kete", "opponent": {"kind": "computer", "level": 1}, "side": "S", "match": "single_game"}),
        ),
    );
    assert_eq!(st, 201);
    let cid = comp["id"].as_str().unwrap().to_string();
    let ctok = comp["token"].as_str().unwrap().to_string();

    // Play moves; remember every acknowledged one; kill the server right after the last.
    let mut acked = Vec::new();
    for ply in 0..12u64 {
        let s = state(p, &id, None);
        let tok = if s["side_to_move"] == "S" {
            &south
        } else {
            &north
        };
        let mv = s["legal"][0]["move"].as_str().unwrap().to_string();
        let (st, ev) = http(
            p,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(tok),
            Some(&json!({"move": mv, "ply": ply})),
        );
        assert_eq!(st, 200, "{ev}");
        acked.push(ev);
    }
    let cs = state(p, &cid, Some(&ctok));
    let (st, _) = http(
        p,
        "POST",
        &format!("/api/games/{cid}/moves"),
        Some(&ctok),
        Some(&json!({"move": cs["legal"][0]["move"], "ply": 0})),
    );
    assert_eq!(st, 200);
    srv.child.kill().unwrap(); // SIGKILL
    srv.child.wait().unwrap();

    // Restart on the same file: every acknowledged move is there, and the game goes on.
    let mut srv = serve(&db);
    let p = srv.port;
    let s = state(p, &id, Some(&north));
    assert_eq!(s["ply"], 12);
    assert_eq!(s["moves"], Value::Array(acked.clone()));
    let tok = if s["side_to_move"] == "S" {
        &south
    } else {
        &north
    };
    let (st, ev) = http(
        p,
        "POST",
        &format!("/api/games/{id}/moves"),
        Some(tok),
        Some(&json!({"move": s["legal"][0]["move"], "ply": 12})),
    );
    assert_eq!(st, 200, "{ev}");
    // The computer game: the person's move is there and the computer has answered (it
    // either answered before the kill or is made to on start-up).
    let t0 = Instant::now();
    loop {
        let cs = state(p, &cid, Some(&ctok));
        assert!(cs["ply"].as_u64().unwrap() >= 1);
        if cs["ply"] == 2 {
            assert_eq!(cs["moves"][1]["by"], "N");
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(30),
            "the computer did not move after the restart"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    srv.child.kill().unwrap();
    srv.child.wait().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
}
