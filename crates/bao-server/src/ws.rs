//! Live games over WebSocket (docs/api.md): the full state on connect and on request, then
//! small versioned messages (a move, a player connecting or leaving), and moves from the
//! players. Bad messages get an error frame and never touch the game; messages over 16 KiB
//! close the socket with code 1009. The server pings; a socket silent for longer than the
//! idle timeout is closed (code 1001).

use crate::app::{state_message, App, Slot};
use crate::error::ApiError;
use crate::http::token_from;
use crate::model::{BySide, GameState, MoveFrame};
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use serde::Serialize;
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;
use tokio::time::Instant;

/// Largest client message handled (bytes).
pub const MAX_MESSAGE: usize = 16 * 1024;
/// Largest message the socket reads at all; between the two, the client is told and closed.
const HARD_LIMIT: usize = 256 * 1024;
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
pub(crate) struct KeepAlive {
    cfg: WsConfig,
    heard: Instant,
    pinged: bool,
}

impl KeepAlive {
    pub(crate) fn new(cfg: WsConfig) -> Self {
        KeepAlive {
            cfg,
            heard: Instant::now(),
            pinged: false,
        }
    }

    /// Something (a pong included) came from the client: it is there.
    pub(crate) fn heard(&mut self) {
        self.heard = Instant::now();
        self.pinged = false;
    }

    /// When [`KeepAlive::tick`] is next due: the ping, or after it the idle close.
    pub(crate) fn deadline(&self) -> Instant {
        if self.pinged {
            self.heard + self.cfg.idle_timeout
        } else {
            self.heard + self.cfg.ping_every.min(self.cfg.idle_timeout)
        }
    }

    /// At [`KeepAlive::deadline`]: sends the ping, or closes a socket silent past the idle
    /// timeout. False when the socket is done (closed, or the send failed).
    pub(crate) async fn tick<S>(&mut self, tx: &mut S) -> bool
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

/// A message from the server (docs/api.md, WebSocket). Every one but `pong` and `error`
/// carries the version `v`: one more than the message before it on the same socket, so a
/// client that sees a gap knows it missed something and asks for the state (`sync`).
#[derive(Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum ServerMsg<'a> {
    /// The full state: on connect, on `sync`, and after a change that is not a move.
    State {
        /// Version.
        v: u64,
        /// The GameState for this viewer.
        state: &'a GameState,
    },
    /// A committed move, with only what it changed.
    Move(&'a MoveFrame),
    /// A player's browser connected or left.
    Presence {
        /// Version.
        v: u64,
        /// Per side, whether its player is connected.
        connected: BySide<bool>,
    },
    /// The answer to `ping`.
    Pong,
    /// A bad message from this client.
    Error {
        /// Error category.
        error: &'a str,
        /// For people.
        message: &'a str,
    },
}

impl ServerMsg<'_> {
    /// The message as a text frame.
    pub fn frame(&self) -> Message {
        Message::Text(serde_json::to_string(self).unwrap_or_default().into())
    }
}

/// `GET /api/games/{id}/ws`.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
    Extension(guard): Extension<crate::edge::Guard>,
) -> Response {
    let slot = match app.slot(&id).await {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    let token = q
        .get("token")
        .cloned()
        .or_else(|| token_from(&headers, &id));
    let viewer = {
        let m = slot.m.lock().await;
        App::auth(&m, token.as_deref())
    };
    ws.max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .on_upgrade(move |socket| run(app, slot, id, viewer, socket, guard))
}

fn error_frame(e: &ApiError) -> Message {
    ServerMsg::Error {
        error: e.category,
        message: &e.message,
    }
    .frame()
}

/// The full state for `viewer` with the current version, under the match lock.
async fn full_state(slot: &Slot, viewer: Option<usize>) -> String {
    let m = slot.m.lock().await;
    let v = slot.version.load(Ordering::Relaxed);
    state_message(&m, viewer, slot.connected(), v)
}

async fn run(
    app: Arc<App>,
    slot: Arc<Slot>,
    id: String,
    viewer: Option<usize>,
    socket: WebSocket,
    guard: crate::edge::Guard,
) {
    let (mut tx, mut rx) = socket.split();
    let mut updates = slot.tx.subscribe();
    if let Some(p) = viewer {
        slot.conns[p].fetch_add(1, Ordering::Relaxed);
    }
    // The full state first (also after a reconnect); the others learn that a player is here.
    let first = {
        let m = slot.m.lock().await;
        if viewer.is_some() {
            app.broadcast_presence(&slot, &m);
        }
        // Everything sent so far (our own presence broadcast included) is in the first
        // state; every change is broadcast under this lock, so nothing is lost in between.
        while let Ok(_) | Err(tokio::sync::broadcast::error::TryRecvError::Lagged(_)) =
            updates.try_recv()
        {}
        let v = slot.version.load(Ordering::Relaxed);
        state_message(&m, viewer, slot.connected(), v)
    };
    if tx.send(Message::Text(first.into())).await.is_err() {
        return leave(&app, &slot, viewer).await;
    }
    let mut alive = KeepAlive::new(app.ws);
    loop {
        tokio::select! {
            _ = guard.stopping() => {
                let _ = tx.send(crate::edge::going_away()).await;
                break;
            }
            _ = tokio::time::sleep_until(alive.deadline()) => {
                if !alive.tick(&mut tx).await {
                    break;
                }
            }
            msg = rx.next() => {
                let msg = match msg {
                    None => break,
                    Some(Ok(m)) => m,
                    Some(Err(e)) => {
                        // The only read errors that leave the socket usable to say why.
                        let s = e.to_string();
                        if s.contains("too long") || s.contains("Space limit") {
                            let _ = tx.send(close_too_big()).await;
                        }
                        break;
                    }
                };
                alive.heard();
                match msg {
                    Message::Text(t) => {
                        if t.len() > MAX_MESSAGE {
                            let e = ApiError::too_large(format!("a message is at most {} KiB", MAX_MESSAGE / 1024));
                            let _ = tx.send(error_frame(&e)).await;
                            let _ = tx.send(close_too_big()).await;
                            break;
                        }
                        if let Some(reply) = handle(&app, &slot, &id, viewer, t.as_str(), &guard).await {
                            if tx.send(reply).await.is_err() {
                                break;
                            }
                        }
                    }
                    Message::Binary(_) => {
                        let e = ApiError::bad_request("messages are JSON text frames");
                        if tx.send(error_frame(&e)).await.is_err() {
                            break;
                        }
                    }
                    Message::Close(_) => break,
                    Message::Ping(_) | Message::Pong(_) => {}
                }
            }
            u = updates.recv() => {
                let text = match u {
                    Ok(u) => u.view(viewer),
                    // Too slow to follow every move: catch up with the full state.
                    Err(RecvError::Lagged(_)) => full_state(&slot, viewer).await.into(),
                    Err(RecvError::Closed) => break,
                };
                if tx.send(Message::Text(text)).await.is_err() {
                    break;
                }
            }
        }
    }
    leave(&app, &slot, viewer).await;
}

fn close_too_big() -> Message {
    Message::Close(Some(CloseFrame {
        code: 1009,
        reason: "message too big".into(),
    }))
}

async fn leave(app: &Arc<App>, slot: &Arc<Slot>, viewer: Option<usize>) {
    if let Some(p) = viewer {
        slot.conns[p].fetch_sub(1, Ordering::Relaxed);
        let m = slot.m.lock().await;
        app.broadcast_presence(slot, &m);
    }
}

#[derive(serde::Deserialize)]
struct ClientMsg {
    #[serde(rename = "type")]
    kind: String,
    #[serde(rename = "move")]
    mv: Option<String>,
    ply: Option<u32>,
}

/// Handles one client message; returns the reply for this client only, if any.
async fn handle(
    app: &Arc<App>,
    slot: &Slot,
    id: &str,
    viewer: Option<usize>,
    text: &str,
    guard: &crate::edge::Guard,
) -> Option<Message> {
    let msg: ClientMsg = match serde_json::from_str(text) {
        Ok(m) => m,
        Err(e) => {
            return Some(error_frame(&ApiError::bad_request(format!(
                "a message is JSON such as {{\"type\":\"move\",\"move\":\"A7L*\",\"ply\":0}}: {e}"
            ))))
        }
    };
    match msg.kind.as_str() {
        "ping" => Some(ServerMsg::Pong.frame()),
        // A client that saw a gap in the versions asks for the whole state again.
        "sync" => Some(Message::Text(full_state(slot, viewer).await.into())),
        "move" => {
            let Some(mv) = msg.mv else {
                return Some(error_frame(&ApiError::bad_request(
                    "a move message needs \"move\"",
                )));
            };
            if let Err(e) = guard.check_move() {
                return Some(error_frame(&e));
            }
            match app.play(id, viewer, &mv, msg.ply).await {
                // Everyone, the sender included, gets the move from the broadcast.
                Ok(_) => None,
                Err(e) => Some(error_frame(&e)),
            }
        }
        other => Some(error_frame(&ApiError::bad_request(format!(
            "unknown message type '{}' (move, sync, ping)",
            bao_rules::printable(other)
        )))),
    }
}
