//! bao deployed as docs/deploy.md describes, with real processes: two `bao serve`
//! instances on one PostgreSQL database of their own, behind Debian's nginx (run in the
//! foreground on a free loopback port with a configuration written here). The two players
//! reach different instances through the proxy (nginx picks the upstream by a header the
//! test sets; the other instance is the backup), a spectator watches on each, one instance
//! is killed with SIGKILL mid-game, its clients reconnect through the proxy to the other,
//! and the game is finished with every acknowledged move in the final record.
//!
//! Needs BAO_TEST_POSTGRES_URL (scripts/start-postgres.sh), `psql` and `nginx`; a missing
//! one is a failure, never a skip (scripts/test.sh installs them).

mod common;
use common::{bearer, free_port, try_http};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

type Ws =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

/// Kills its process when dropped (also when the test fails half-way).
struct Proc(Child);

impl Drop for Proc {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// One HTTP/1.1 request through `port`, routed to instance `via` ("a" or "b"); status 0
/// when nothing answered.
fn http(
    port: u16,
    via: &str,
    method: &str,
    path: &str,
    token: Option<&str>,
    body: Option<&Value>,
) -> (u16, Value) {
    let body = body.map(|b| b.to_string()).unwrap_or_default();
    let headers = format!("X-Bao-Instance: {via}\r\n{}", bearer(token));
    try_http(port, method, path, &headers, &body).unwrap_or((0, Value::Null))
}

fn wait_health(port: u16, via: &str, what: &str) {
    let t0 = Instant::now();
    while http(port, via, "GET", "/api/health", None, None).0 != 200 {
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "{what} did not come up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn tool(name: &str) -> PathBuf {
    for dir in ["/usr/sbin", "/usr/bin", "/usr/local/sbin", "/usr/local/bin"] {
        let p = Path::new(dir).join(name);
        if p.exists() {
            return p;
        }
    }
    panic!("{name} is not installed (apt-get install -y {name}; scripts/test.sh does it)");
}

fn psql(url: &str, sql: &str) {
    let out = Command::new(tool("psql"))
        .args([url, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql])
        .output()
        .expect("psql runs");
    assert!(
        out.status.success(),
        "psql {sql}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The cluster's superuser on its maintenance database (the test cluster trusts loopback):
/// the test's user may not create databases.
fn admin_url(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |x| x.1);
    let host = rest.rsplit_once('@').map_or(rest, |x| x.1);
    let host = host.split('/').next().unwrap_or(host);
    format!("postgres://postgres@{host}/postgres")
}

/// The user of a database URL.
fn user_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |x| x.1);
    let userinfo = rest.rsplit_once('@').map_or("", |x| x.0);
    userinfo.split(':').next().unwrap_or("").to_string()
}

/// The URL with another database name.
fn with_database(url: &str, db: &str) -> String {
    let (base, _) = url.rsplit_once('/').expect("a database URL");
    let query = url
        .split_once('?')
        .map(|q| format!("?{}", q.1))
        .unwrap_or_default();
    format!("{base}/{db}{query}")
}

fn serve(port: u16, db: &str, public: &str, log: &Path) -> Proc {
    let child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args([
            "serve",
            "--addr",
            &format!("127.0.0.1:{port}"),
            "--database",
            db,
            "--public-url",
            public,
            "--trust-proxy",
            "127.0.0.1",
        ])
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(log).unwrap())
        .spawn()
        .expect("bao serve starts");
    Proc(child)
}

fn nginx_conf(dir: &Path, port: u16, a: u16, b: u16) -> String {
    let d = dir.display();
    format!(
        r#"daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/nginx-error.log info;
events {{ worker_connections 512; }}
http {{
    access_log {d}/nginx-access.log;
    client_body_temp_path {d}/body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
    # Sticky by a header the test sets; each group falls back to the other instance.
    upstream bao_a {{ server 127.0.0.1:{a}; server 127.0.0.1:{b} backup max_fails=0; }}
    upstream bao_b {{ server 127.0.0.1:{b}; server 127.0.0.1:{a} backup max_fails=0; }}
    map $http_x_bao_instance $bao_upstream {{ default bao_a; b bao_b; }}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://$bao_upstream;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
            proxy_set_header X-Forwarded-Proto $scheme;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $connection_upgrade;
            proxy_read_timeout 1h;
        }}
    }}
}}
"#
    )
}

async fn ws(port: u16, via: &str, id: &str, token: Option<&str>) -> Ws {
    let url = match token {
        Some(t) => format!("ws://127.0.0.1:{port}/api/games/{id}/ws?token={t}"),
        None => format!("ws://127.0.0.1:{port}/api/games/{id}/ws"),
    };
    let mut req = url.into_client_request().unwrap();
    req.headers_mut()
        .insert("x-bao-instance", via.parse().unwrap());
    // A browser on the public origin.
    req.headers_mut().insert(
        "origin",
        format!("http://127.0.0.1:{port}").parse().unwrap(),
    );
    let (mut w, _) = tokio_tungstenite::connect_async(req)
        .await
        .expect("the socket opens through the proxy");
    let first = next_json(&mut w).await.expect("a first message");
    assert_eq!(first["type"], "state", "{first}");
    w
}

/// The next JSON text message; None when the socket closed.
async fn next_json(w: &mut Ws) -> Option<Value> {
    loop {
        let m = tokio::time::timeout(Duration::from_secs(30), w.next())
            .await
            .expect("a message within 30 s");
        match m {
            Some(Ok(Message::Text(t))) => return Some(serde_json::from_str(t.as_str()).unwrap()),
            Some(Ok(Message::Close(_))) | None | Some(Err(_)) => return None,
            Some(Ok(_)) => continue,
        }
    }
}

/// Whether a message tells that the game is over (a move or a state; only `type` and the
/// result fields are relied on).
fn shows_end(v: &Value) -> bool {
    match v["type"].as_str() {
        Some("state") => v["state"]["result"].as_str().is_some_and(|r| r != "-"),
        Some("move") => v["move"]["result"].as_str().is_some_and(|r| r != "-"),
        _ => false,
    }
}

fn state(port: u16, via: &str, id: &str) -> Value {
    let (st, v) = http(port, via, "GET", &format!("/api/games/{id}"), None, None);
    assert_eq!(st, 200, "{v}");
    v
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_behind_nginx_survive_kill_9() {
    let pg = std::env::var("BAO_TEST_POSTGRES_URL").unwrap_or_default();
    assert!(
        !pg.is_empty(),
        "BAO_TEST_POSTGRES_URL is not set: export BAO_TEST_POSTGRES_URL=$(scripts/start-postgres.sh | tail -1)"
    );
    let nginx = tool("nginx");
    let dir = std::env::temp_dir().join(format!("bao-deploy-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    // A database of our own in the shared cluster.
    let dbname = format!("bao_deploy_{}", std::process::id());
    let admin = admin_url(&pg);
    psql(
        &admin,
        &format!("DROP DATABASE IF EXISTS {dbname} WITH (FORCE)"),
    );
    psql(
        &admin,
        &format!("CREATE DATABASE {dbname} OWNER \"{}\"", user_of(&pg)),
    );
    let db = with_database(&pg, &dbname);

    let (pa, pb, pn) = (free_port(), free_port(), free_port());
    let public = format!("http://127.0.0.1:{pn}");
    let mut a = Some(serve(pa, &db, &public, &dir.join("a.log")));
    let _b = serve(pb, &db, &public, &dir.join("b.log"));
    // Both up before the proxy sees them (nginx would mark a server not yet listening down).
    wait_health(pa, "a", "instance a");
    wait_health(pb, "b", "instance b");
    std::fs::write(dir.join("nginx.conf"), nginx_conf(&dir, pn, pa, pb)).unwrap();
    let _nginx = Proc(
        Command::new(&nginx)
            .arg("-p")
            .arg(&dir)
            .arg("-e")
            .arg(dir.join("nginx-error.log"))
            .arg("-c")
            .arg(dir.join("nginx.conf"))
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nginx starts"),
    );
    wait_health(pn, "a", "nginx -> a");
    wait_health(pn, "b", "nginx -> b");

    // South on instance A, North on instance B, both through the proxy.
    let (st, g) = http(
        pn,
        "a",
        "POST",
        "/api/games",
        None,
        Some(
            &json!({"variant": "kiswahili", "rules": "max_plies=40", "opponent": {"kind": "human"},
                     "side": "S", "match": "single_game", "name": "Asha"}),
        ),
    );
    assert_eq!(st, 201, "{g}");
    let id = g["id"].as_str().unwrap().to_string();
    let south = g["token"].as_str().unwrap().to_string();
    let (st, j) = http(
        pn,
        "b",
        "POST",
        &format!("/api/games/{id}/join"),
        None,
        Some(&json!({"invite": g["invite"], "name": "Baraka"})),
    );
    assert_eq!(st, 200, "{j}");
    let north = j["token"].as_str().unwrap().to_string();
    let tokens = [south.clone(), north.clone()];
    let via = ["a", "b"];

    let mut players = [
        ws(pn, "a", &id, Some(&south)).await,
        ws(pn, "b", &id, Some(&north)).await,
    ];
    let mut spectators = [ws(pn, "a", &id, None).await, ws(pn, "b", &id, None).await];

    let mut acknowledged: Vec<String> = Vec::new();
    let mut killed = false;
    loop {
        // The player to move reads the game on his own instance, which learns of moves
        // made on the other one through the database (as his page learns from its socket).
        let p = acknowledged.len() % 2;
        let t0 = Instant::now();
        let s = loop {
            let s = state(pn, via[p], &id);
            if s["ply"].as_u64().unwrap() as usize == acknowledged.len() {
                break s;
            }
            assert!(
                t0.elapsed() < Duration::from_secs(30),
                "instance {} lags: {s}",
                via[p]
            );
            tokio::time::sleep(Duration::from_millis(20)).await;
        };
        if s["result"] != "-" {
            break;
        }
        let ply = s["ply"].as_u64().unwrap();
        assert_eq!(s["side_to_move"], ["S", "N"][p]);
        let mv = s["legal"][0]["move"].as_str().unwrap().to_string();
        if ply == 10 && !killed {
            // SIGKILL instance A mid-game: South and the first spectator were on it.
            let mut gone = a.take().unwrap();
            gone.0.kill().unwrap();
            gone.0.wait().unwrap();
            killed = true;
            // Their sockets end; they reconnect through the proxy, which now sends them to B.
            for w in [&mut players[0], &mut spectators[0]] {
                while next_json(w).await.is_some() {}
            }
            players[0] = ws(pn, "a", &id, Some(&south)).await;
            spectators[0] = ws(pn, "a", &id, None).await;
            continue;
        }
        if ply % 2 == 0 {
            // Over the player's WebSocket: acknowledged when its `move` message arrives.
            let w = &mut players[p];
            w.send(Message::Text(
                json!({"type": "move", "move": mv, "ply": ply})
                    .to_string()
                    .into(),
            ))
            .await
            .unwrap();
            loop {
                let m = next_json(w).await.expect("the socket stays open");
                assert_ne!(m["type"], "error", "{m}");
                if m["type"] == "move" && m["move"]["ply"] == ply + 1 {
                    break;
                }
            }
        } else {
            // Over HTTP: acknowledged by 200.
            let (st, ev) = http(
                pn,
                via[p],
                "POST",
                &format!("/api/games/{id}/moves"),
                Some(&tokens[p]),
                Some(&json!({"move": mv, "ply": ply})),
            );
            assert_eq!(st, 200, "{ev}");
        }
        acknowledged.push(mv);
    }
    assert!(killed, "the game lasted past the kill");

    // Every client, the reconnected ones included, sees the end.
    for w in players.iter_mut().chain(spectators.iter_mut()) {
        loop {
            let m = next_json(w).await.expect("open until the end is seen");
            if shows_end(&m) {
                break;
            }
        }
    }
    // Nothing lost: the final record holds every acknowledged move, in order.
    let fin = state(pn, "a", &id);
    assert_eq!(fin["ply"].as_u64().unwrap() as usize, acknowledged.len());
    let stored: Vec<&str> = fin["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap())
        .collect();
    assert_eq!(stored, acknowledged);
    let (st, _) = http(
        pn,
        "a",
        "GET",
        &format!("/api/games/{id}/record"),
        None,
        None,
    );
    assert_eq!(st, 200);
    drop(players);
    drop(spectators);
    drop(_nginx);
    drop(_b);
    psql(
        &pg,
        &format!("DROP DATABASE IF EXISTS {dbname} WITH (FORCE)"),
    );
    let _ = std::fs::remove_dir_all(&dir);
}
