//! Live games over WebSocket (docs/api.md): the full state on connect, every move as it is
//! committed, and moves from the players. Bad messages get an error frame and never touch
//! the game; messages over 16 KiB close the socket with code 1009.

use crate::app::{state_message, App, Slot};
use crate::error::ApiError;
use crate::http::token_from;
use axum::extract::ws::{CloseFrame, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use futures_util::{SinkExt, StreamExt};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::broadcast::error::RecvError;

/// Largest client message handled (bytes).
pub const MAX_MESSAGE: usize = 16 * 1024;
/// Largest message the socket reads at all; between the two, the client is told and closed.
const HARD_LIMIT: usize = 256 * 1024;

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
        .on_upgrade(move |socket| run(app, slot, id, viewer, socket, guard))
}

fn error_frame(e: &ApiError) -> Message {
    Message::Text(
        serde_json::json!({"type": "error", "error": e.category, "message": e.message})
            .to_string()
            .into(),
    )
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
            app.broadcast_state(&slot, &m);
        }
        // Everything sent so far (our own presence broadcast included) is in the first
        // state; every change is broadcast under this lock, so nothing is lost in between.
        while let Ok(_) | Err(tokio::sync::broadcast::error::TryRecvError::Lagged(_)) =
            updates.try_recv()
        {}
        let c = [
            slot.conns[0].load(Ordering::Relaxed) > 0,
            slot.conns[1].load(Ordering::Relaxed) > 0,
        ];
        state_message(&m, viewer, c, &crate::app::board_svg(&m))
    };
    if tx.send(Message::Text(first.into())).await.is_err() {
        return leave(&app, &slot, viewer).await;
    }
    loop {
        tokio::select! {
            _ = guard.stopping() => {
                let _ = tx.send(crate::edge::going_away()).await;
                break;
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
                match msg {
                    Message::Text(t) => {
                        if t.len() > MAX_MESSAGE {
                            let e = ApiError::too_large(format!("a message is at most {} KiB", MAX_MESSAGE / 1024));
                            let _ = tx.send(error_frame(&e)).await;
                            let _ = tx.send(close_too_big()).await;
                            break;
                        }
                        if let Some(reply) = handle(&app, &id, viewer, t.as_str(), &guard).await {
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
                    Err(RecvError::Lagged(_)) => {
                        // Too slow to follow every move: catch up with the full state.
                        let m = slot.m.lock().await;
                        let c = [
                            slot.conns[0].load(Ordering::Relaxed) > 0,
                            slot.conns[1].load(Ordering::Relaxed) > 0,
                        ];
                        state_message(&m, viewer, c, &crate::app::board_svg(&m)).into()
                    }
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
        app.broadcast_state(slot, &m);
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
        "ping" => Some(Message::Text("{\"type\":\"pong\"}".into())),
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
            "unknown message type '{}' (move, ping)",
            bao_rules::printable(other)
        )))),
    }
}
