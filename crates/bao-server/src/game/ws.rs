//! Live games over WebSocket (docs/api.md): the full state on connect and on request, then
//! small versioned messages (a move, a player connecting or leaving), and moves from the
//! players. Bad messages get an error frame and never touch the game; messages over 16 KiB
//! close the socket with code 1009. The server pings; a socket silent for longer than the
//! idle timeout is closed (code 1001).

use super::ops::state_message;
use super::seat::token_from;
use super::{Games, Slot};
use crate::domain::wire::ServerMsg;
use crate::edge::socket::{pong, KeepAlive, BUFFER, HARD_LIMIT, MAX_MESSAGE};
use crate::edge::{going_away, Guard};
use crate::error::ApiError;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// `GET /api/games/{id}/ws`.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<Arc<Games>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
    Extension(guard): Extension<Guard>,
) -> Response {
    let slot = match app.slot(&id).await {
        Ok(s) => s,
        Err(e) => return e.into_response(),
    };
    let token = q
        .get("token")
        .cloned()
        .or_else(|| token_from(&headers, &id));
    let viewer = match app.auth_request(&slot, token.as_deref(), &headers).await {
        Ok(v) => v,
        Err(e) => return e.into_response(),
    };
    ws.max_message_size(HARD_LIMIT)
        .max_frame_size(HARD_LIMIT)
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .on_upgrade(move |socket| run(app, slot, viewer, socket, guard))
}

fn error_frame(e: &ApiError) -> Message {
    Message::Text(
        ServerMsg::Error {
            error: e.category.as_str(),
            message: &e.message,
        }
        .text()
        .into(),
    )
}

/// The full state for `viewer` with the current version, under the match lock.
async fn full_state(slot: &Slot, viewer: Option<usize>) -> String {
    let m = slot.m.lock().await;
    let v = slot.seq.load(Ordering::Relaxed);
    state_message(&m, viewer, slot.connected(), v, slot.now_ms())
}

async fn run(
    app: Arc<Games>,
    slot: Arc<Slot>,
    viewer: Option<usize>,
    socket: WebSocket,
    guard: Guard,
) {
    let (mut tx, mut rx) = socket.split();
    let mut updates = slot.tx.subscribe();
    if let Some(p) = viewer {
        if slot.conns[p].fetch_add(1, Ordering::Relaxed) == 0 {
            app.presence_changed();
        }
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
        let v = slot.seq.load(Ordering::Relaxed);
        state_message(&m, viewer, slot.connected(), v, slot.now_ms())
    };
    if tx.send(Message::Text(first.into())).await.is_err() {
        return leave(&app, &slot, viewer).await;
    }
    let mut alive = KeepAlive::new(app.ws);
    loop {
        tokio::select! {
            _ = guard.stopping() => {
                let _ = tx.send(going_away()).await;
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
                        if let Some(reply) = handle(&app, &slot, viewer, t.as_str(), &guard).await {
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

async fn leave(app: &Games, slot: &Arc<Slot>, viewer: Option<usize>) {
    if let Some(p) = viewer {
        if slot.conns[p].fetch_sub(1, Ordering::Relaxed) == 1 {
            app.presence_changed();
        }
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
    app: &Games,
    slot: &Arc<Slot>,
    viewer: Option<usize>,
    text: &str,
    guard: &Guard,
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
        "ping" => Some(pong()),
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
            match app.play(slot, viewer, &mv, msg.ply).await {
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
