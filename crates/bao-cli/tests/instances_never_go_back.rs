//! Two `bao serve` instances on one PostgreSQL, on a busy machine: many quick moves on
//! instance A, a spectator on instance B that must never see a ply go backwards, then A is
//! killed with SIGKILL and B serves every move A acknowledged, with nothing further from A
//! (docs/architecture.md, "One write path": a copy of a game read back from the database
//! never replaces a newer one in memory).
//!
//! Needs BAO_TEST_POSTGRES_URL (scripts/start-postgres.sh); without it the test fails and
//! says how to start one.

mod common;
use common::{bearer, free_port, try_http, wait_up};
use futures_util::StreamExt;
use serde_json::{json, Value};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::{Duration, Instant};

fn postgres_url() -> String {
    std::env::var("BAO_TEST_POSTGRES_URL").unwrap_or_else(|_| {
        panic!(
            "BAO_TEST_POSTGRES_URL is not set: export BAO_TEST_POSTGRES_URL=$(scripts/start-postgres.sh | tail -1)"
        )
    })
}

struct Server {
    child: Child,
    port: u16,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
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
        // One address drives every move of the test.
        .args([
            "--limit-create",
            "0",
            "--limit-join",
            "0",
            "--limit-moves",
            "0",
        ])
        .env("RUST_LOG", "warn")
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("bao serve starts");
    wait_up(port, &mut child);
    Server { child, port }
}

fn http(port: u16, method: &str, path: &str, token: Option<&str>, body: &Value) -> (u16, Value) {
    try_http(port, method, path, &bearer(token), &body.to_string()).expect("an HTTP answer")
}

/// The ply of every message with one (state and move frames), in the order they came.
fn spectate(port: u16, id: &str, plies: mpsc::Sender<u64>, opened: mpsc::Sender<()>) {
    let url = format!("ws://127.0.0.1:{port}/api/games/{id}/ws");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async move {
        let (mut ws, _) = tokio_tungstenite::connect_async(url)
            .await
            .expect("ws connects");
        let _ = opened.send(());
        while let Some(Ok(m)) = ws.next().await {
            let tokio_tungstenite::tungstenite::Message::Text(t) = m else {
                continue;
            };
            let v: Value = serde_json::from_str(t.as_str()).unwrap();
            let ply = match v["type"].as_str() {
                Some("state") => v["state"]["ply"].as_u64(),
                Some("move") => v["move"]["ply"].as_u64(),
                _ => None,
            };
            if let Some(p) = ply {
                if plies.send(p).is_err() {
                    return;
                }
            }
        }
    });
}

#[test]
fn a_spectator_on_another_instance_never_sees_a_game_go_back() {
    let db = postgres_url();
    // Two CPU-bound threads for the whole test: the races need a busy machine to show.
    let busy = Arc::new(AtomicBool::new(true));
    let spinners: Vec<_> = (0..2)
        .map(|_| {
            let busy = busy.clone();
            std::thread::spawn(move || {
                let mut x = 0u64;
                while busy.load(Ordering::Relaxed) {
                    x = x.wrapping_mul(6364136223846793005).wrapping_add(1);
                }
                x
            })
        })
        .collect();

    let a = serve(&db);
    let b = serve(&db);
    let (st, created) = http(
        a.port,
        "POST",
        "/api/games",
        None,
        &json!({"variant": "kiswahili", "opponent": {"kind": "human"}, "side": "S", "match": "single_game"}),
    );
    assert_eq!(st, 201, "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    let south = created["token"].as_str().unwrap().to_string();
    let (st, joined) = http(
        a.port,
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        &json!({"invite": created["invite"]}),
    );
    assert_eq!(st, 200, "{joined}");
    let north = joined["token"].as_str().unwrap().to_string();

    let (tx, plies) = mpsc::channel();
    let (open_tx, opened) = mpsc::channel();
    let (bport, bid) = (b.port, id.clone());
    std::thread::spawn(move || spectate(bport, &bid, tx, open_tx));
    opened
        .recv_timeout(Duration::from_secs(60))
        .expect("the spectator's socket opens");

    // Quick moves on A, each the first legal move of the position the last one left.
    let rules = bao_rules::Rules::new(bao_rules::Variant::Kiswahili);
    let mut pos = bao_rules::Position::start(&rules);
    let mut played = 0u64;
    for ply in 0..60u64 {
        if bao_rules::status(&pos, &rules).is_over() {
            break;
        }
        let mv = bao_rules::legal_moves(&pos, &rules).as_slice()[0]
            .mv
            .to_string();
        let token = if ply % 2 == 0 { &south } else { &north };
        let (st, ev) = http(
            a.port,
            "POST",
            &format!("/api/games/{id}/moves"),
            Some(token),
            &json!({"move": mv, "ply": ply}),
        );
        assert_eq!(st, 200, "ply {ply}: {ev}");
        pos = bao_rules::Position::parse(ev["position"].as_str().unwrap(), &rules).unwrap();
        played = ply + 1;
    }
    assert!(played >= 10, "only {played} plies were played");

    // A dies at once after its last acknowledged move: nothing more comes from it.
    let mut a = a;
    a.child.kill().unwrap();
    a.child.wait().unwrap();

    // B serves every acknowledged move (a state, not a time: the spectator's frames and
    // B's answers are read until they reach the last ply).
    let t0 = Instant::now();
    let mut seen = Vec::new();
    while seen.last() != Some(&played) {
        match plies.recv_timeout(Duration::from_secs(1)) {
            Ok(p) => seen.push(p),
            Err(_) => assert!(
                t0.elapsed() < Duration::from_secs(90),
                "B's spectator never reached ply {played}: {seen:?}"
            ),
        }
    }
    let mut last_get = 0;
    loop {
        let (st, s) = http(
            b.port,
            "GET",
            &format!("/api/games/{id}"),
            None,
            &Value::Null,
        );
        assert_eq!(st, 200, "{s}");
        let p = s["ply"].as_u64().unwrap();
        assert!(p >= last_get, "B answered ply {p} after ply {last_get}");
        last_get = p;
        if p == played {
            assert_eq!(s["moves"].as_array().unwrap().len() as u64, played);
            break;
        }
        assert!(
            t0.elapsed() < Duration::from_secs(90),
            "B serves ply {p}; A acknowledged {played}"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    busy.store(false, Ordering::Relaxed);
    for s in spinners {
        s.join().unwrap();
    }
    // Never backwards, at any frame.
    for w in seen.windows(2) {
        assert!(w[1] >= w[0], "the spectator on B went back: {seen:?}");
    }
    assert_eq!(*seen.last().unwrap(), played);
    drop(b);
}
