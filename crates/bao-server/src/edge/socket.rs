//! What every WebSocket of the server shares (docs/api.md, "WebSocket"): size limits,
//! buffer sizes and the keep-alive (the server pings a silent client and closes a socket
//! that stays silent past the idle timeout, code 1001).

use axum::extract::ws::{CloseFrame, Message};
use futures_util::SinkExt;
use std::time::Duration;
use tokio::time::Instant;

/// Largest client message handled (bytes).
pub const MAX_MESSAGE: usize = 16 * 1024;
/// Largest message the socket reads at all; between the two, the client is told and closed.
pub const HARD_LIMIT: usize = 256 * 1024;
/// Read and write buffer sizes of a socket. Our messages are small (a move frame is well
/// under 1 KiB, a full state about 20 KiB, written out in pieces): tungstenite's default of
/// 128 KiB each made an idle spectator cost ~156 KiB.
pub const BUFFER: usize = 4 * 1024;

/// Keep-alive of live sockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WsConfig {
    /// The server sends a ping after this long without a message from the client.
    pub ping_every: Duration,
    /// A socket from which nothing (not even a pong) arrived for this long is closed.
    pub idle_timeout: Duration,
}

/// The keep-alive of one socket, shared by game and lobby sockets: silence first earns a
/// ping, then, past the idle timeout, the close (code 1001).
pub struct KeepAlive {
    cfg: WsConfig,
    heard: Instant,
    pinged: bool,
}

impl KeepAlive {
    /// A socket heard from just now.
    pub fn new(cfg: WsConfig) -> Self {
        KeepAlive {
            cfg,
            heard: Instant::now(),
            pinged: false,
        }
    }

    /// Something (a pong included) came from the client: it is there.
    pub fn heard(&mut self) {
        self.heard = Instant::now();
        self.pinged = false;
    }

    /// When [`KeepAlive::tick`] is next due: the ping, or after it the idle close.
    pub fn deadline(&self) -> Instant {
        if self.pinged {
            self.heard + self.cfg.idle_timeout
        } else {
            self.heard + self.cfg.ping_every.min(self.cfg.idle_timeout)
        }
    }

    /// At [`KeepAlive::deadline`]: sends the ping, or closes a socket silent past the idle
    /// timeout. False when the socket is done (closed, or the send failed).
    pub async fn tick<S>(&mut self, tx: &mut S) -> bool
    where
        S: futures_util::Sink<Message> + Unpin,
    {
        if self.heard.elapsed() >= self.cfg.idle_timeout {
            let _ = tx
                .send(Message::Close(Some(CloseFrame {
                    code: 1001,
                    reason: "no answer from the client".into(),
                })))
                .await;
            return false;
        }
        self.pinged = true;
        tx.send(Message::Ping(Default::default())).await.is_ok()
    }
}

impl Default for WsConfig {
    /// Ping after 30 s of silence, close after 75 s: a browser answers pings by itself, and
    /// the page also sends its own `ping` every 25 s.
    fn default() -> Self {
        WsConfig {
            ping_every: Duration::from_secs(30),
            idle_timeout: Duration::from_secs(75),
        }
    }
}

/// Whether a client message is `{"type":"ping"}` (the page's own keep-alive).
pub fn is_ping(text: &str) -> bool {
    #[derive(serde::Deserialize)]
    struct Kind<'a> {
        #[serde(rename = "type", borrow)]
        kind: &'a str,
    }
    serde_json::from_str::<Kind>(text).is_ok_and(|k| k.kind == "ping")
}

/// The answer to a client's `ping`.
pub fn pong() -> Message {
    Message::Text("{\"type\":\"pong\"}".into())
}
