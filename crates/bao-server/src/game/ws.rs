//! Live games over WebSocket (docs/api.md): the full state on connect and on request, then
//! small versioned messages (a move, a player connecting or leaving), and moves from the
//! players. Bad messages get an error frame and never touch the game; messages over 16 KiB
//! close the socket with code 1009. The server pings; a socket silent for longer than the
//! idle timeout is closed (code 1001).

use super::ops::state_message;
use super::seat::token_from;
use super::{Games, Slot, Update};
use crate::domain::messages::{parse, GameIn, Refused};
use crate::edge::socket::{self, drive, Flow, Handler, Outbox};
use crate::edge::Guard;
use crate::error::ApiError;
use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::{Extension, Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use tokio::sync::broadcast;
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
    socket::upgrade(ws).on_upgrade(move |socket| run(app, slot, viewer, socket, guard))
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
    let cfg = app.ws;
    // Subscribed before the first state is taken: nothing falls between the two.
    let updates = slot.tx.subscribe();
    let h = GameSocket {
        app,
        slot,
        viewer,
        updates,
        guard: guard.clone(),
    };
    drive(socket, h, cfg, Some(guard)).await;
}

/// One game socket: a player's seat or a spectator.
struct GameSocket {
    app: Arc<Games>,
    slot: Arc<Slot>,
    viewer: Option<usize>,
    updates: broadcast::Receiver<Arc<Update>>,
    guard: Guard,
}

impl Handler for GameSocket {
    type Event = Result<Arc<Update>, RecvError>;

    /// The full state first (also after a reconnect); the others learn that a player is here.
    async fn open(&mut self, out: &mut Outbox) -> Flow {
        let (app, slot, viewer) = (&self.app, &self.slot, self.viewer);
        if let Some(p) = viewer {
            if slot.conns[p].fetch_add(1, Ordering::Relaxed) == 0 {
                app.presence_changed();
            }
        }
        let first = {
            let m = slot.m.lock().await;
            if viewer.is_some() {
                app.broadcast_presence(slot, &m);
            }
            // Everything sent so far (our own presence broadcast included) is in the first
            // state; every change is broadcast under this lock, so nothing is lost in between.
            while let Ok(_) | Err(broadcast::error::TryRecvError::Lagged(_)) =
                self.updates.try_recv()
            {}
            let v = slot.seq.load(Ordering::Relaxed);
            state_message(&m, viewer, slot.connected(), v, slot.now_ms())
        };
        out.text(first);
        Flow::Go
    }

    async fn next_event(&mut self) -> Option<Self::Event> {
        match self.updates.recv().await {
            Err(RecvError::Closed) => None,
            u => Some(u),
        }
    }

    async fn on_event(&mut self, u: Self::Event, out: &mut Outbox) -> Flow {
        match u {
            Ok(u) => out.text(u.view(self.viewer)),
            // Too slow to follow every move: catch up with the full state.
            Err(_) => out.text(full_state(&self.slot, self.viewer).await),
        }
        Flow::Go
    }

    /// One client message; a reply goes to this client only.
    async fn on_text(&mut self, text: &str, out: &mut Outbox) -> Flow {
        match parse::<GameIn>(text) {
            Err(Refused::Malformed(e)) => out.error(&ApiError::bad_request(format!(
                "a message is JSON such as {{\"type\":\"move\",\"move\":\"A7L*\",\"ply\":0}}: {e}"
            ))),
            Err(Refused::Unknown(other)) => out.error(&ApiError::bad_request(format!(
                "unknown message type '{}' (move, sync, ping)",
                bao_rules::printable(&other)
            ))),
            Ok(GameIn::Ping) => out.json(&crate::domain::wire::ServerMsg::Pong),
            // A client that saw a gap in the versions asks for the whole state again.
            Ok(GameIn::Sync) => out.text(full_state(&self.slot, self.viewer).await),
            Ok(GameIn::Move { mv: None, .. }) => {
                out.error(&ApiError::bad_request("a move message needs \"move\""))
            }
            Ok(GameIn::Move { mv: Some(mv), ply }) => {
                if let Err(e) = self.guard.check_move() {
                    out.error(&e);
                } else if let Err(e) = self.app.play(&self.slot, self.viewer, &mv, ply).await {
                    out.error(&e);
                }
                // Played: everyone, the sender included, gets the move from the broadcast.
            }
        }
        Flow::Go
    }

    async fn close(self) {
        let (app, slot) = (&self.app, &self.slot);
        if let Some(p) = self.viewer {
            if slot.conns[p].fetch_sub(1, Ordering::Relaxed) == 1 {
                app.presence_changed();
            }
            let m = slot.m.lock().await;
            app.broadcast_presence(slot, &m);
        }
    }
}
