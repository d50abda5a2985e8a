//! Helpers shared by the bao-cli tests: running the `bao` binary, and talking plain HTTP to
//! the `bao serve` processes some tests start. Each test uses only some of them.
#![allow(dead_code)]

use serde_json::Value;
use std::ffi::OsStr;
use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// Runs `bao args`: (exit code or -1, stdout, stderr), both required to be UTF-8.
pub fn bao<S: AsRef<OsStr>>(args: &[S]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .output()
        .expect("run bao");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    )
}

/// Starts `bao args` with all three streams piped.
pub fn spawn_bao<S: AsRef<OsStr>>(args: &[S]) -> Child {
    Command::new(env!("CARGO_BIN_EXE_bao"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run bao")
}

/// A loopback port free at the time of asking.
pub fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One HTTP/1.1 request with a JSON body to 127.0.0.1:`port`; `headers` are extra header
/// lines, each ending in "\r\n". (status, body as JSON or Null), or None when nothing
/// answered (no connection, or no status line).
pub fn try_http(
    port: u16,
    method: &str,
    path: &str,
    headers: &str,
    body: &str,
) -> Option<(u16, Value)> {
    let mut s = TcpStream::connect(("127.0.0.1", port)).ok()?;
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n{headers}Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let text = String::from_utf8_lossy(&out);
    let status = text.split(' ').nth(1).and_then(|c| c.parse().ok())?;
    let body = text.split_once("\r\n\r\n").map(|x| x.1).unwrap_or("");
    Some((status, serde_json::from_str(body).unwrap_or(Value::Null)))
}

/// An `Authorization` header line for `token`, or nothing.
pub fn bearer(token: Option<&str>) -> String {
    token
        .map(|t| format!("Authorization: Bearer {t}\r\n"))
        .unwrap_or_default()
}

/// Waits until the `bao serve` in `child` answers `GET /api/health` on `port`; panics if it
/// ends first or is not up within a minute.
pub fn wait_up(port: u16, child: &mut Child) {
    let t0 = Instant::now();
    loop {
        if TcpStream::connect(("127.0.0.1", port)).is_ok()
            && try_http(port, "GET", "/api/health", "", "").map(|r| r.0) == Some(200)
        {
            return;
        }
        if let Some(st) = child.try_wait().unwrap() {
            panic!("bao serve ended early: {st}");
        }
        assert!(
            t0.elapsed() < Duration::from_secs(60),
            "bao serve did not come up"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
