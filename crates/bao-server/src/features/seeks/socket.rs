//! The player socket `GET /api/play/ws[?seek=TOKEN...]` (docs/api.md, "The player socket"):
//! one per open page. While open it keeps the caller's seeks and pool tickets alive, and it
//! tells the page when a game was made for it (a seek accepted, a pairing, a challenge
//! accepted, a tournament round), of challenges coming and going, and when the list of open
//! seeks changed.
//!
//! The socket listens on the event bus (docs/architecture.md, "The event bus"): it
//! subscribes before its first read, reads what concerns it once when it opens and again
//! only when an event for its account or seek tokens arrives (from any instance), so an
//! idle socket costs the store nothing. Each read looks back [`LOOK_BACK_MS`] (never before
//! the socket opened, for challenges), so a change committed a moment before the socket
//! opened is not missed; what was sent is remembered so that nothing is sent twice. It
//! keeps seeks and tickets alive (a lease: a timer) only while it knows that some wait.

use super::challenges::Shown;
use super::{valid_token, Seeks};
use crate::domain::events::{Delivered, Event};
use crate::edge::account::MaybeAccount;
use crate::edge::socket::{is_ping, pong, KeepAlive, BUFFER, MAX_MESSAGE};
use crate::edge::{going_away, Guard};
use crate::error::{ApiError, ApiResult};
use crate::util;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{RawQuery, State};
use axum::response::Response;
use axum::Extension;
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::broadcast::error::RecvError;

/// Seek tokens one socket carries at most.
pub const MAX_SEEK_TOKENS: usize = 3;
/// Each read looks back this far (60 s): a page that opens its socket also learns of a seek
/// accepted or a pairing made this long before (it may have been reloading at that moment).
const LOOK_BACK_MS: i64 = 60_000;
/// Challenges sent a moment before the socket opened are announced too (5 s).
const SLACK_MS: i64 = 5_000;

/// The `seek=` values of a query: at most [`MAX_SEEK_TOKENS`], each a token as made here;
/// `None` when there are more or one is malformed.
pub(super) fn seek_tokens(query: Option<&str>) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for part in query.unwrap_or("").split('&') {
        let Some((k, v)) = part.split_once('=') else {
            continue;
        };
        if k != "seek" {
            continue;
        }
        if !valid_token(v) || out.len() == MAX_SEEK_TOKENS {
            return None;
        }
        out.push(v.to_string());
    }
    Some(out)
}

/// `GET /api/play/ws`.
pub(super) async fn upgrade(
    ws: WebSocketUpgrade,
    State(s): State<Arc<Seeks>>,
    guard: Option<Extension<Guard>>,
    RawQuery(query): RawQuery,
    account: MaybeAccount,
) -> ApiResult<Response> {
    let tokens = seek_tokens(query.as_deref()).ok_or_else(|| {
        ApiError::bad_request(format!(
            "seek= takes a seek token, at most {MAX_SEEK_TOKENS} of them"
        ))
    })?;
    let account = account.0.map(|a| a.id.0);
    let hashes = tokens.iter().map(|t| util::hash_token(t)).collect();
    Ok(ws
        .max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(BUFFER)
        .write_buffer_size(BUFFER)
        .on_upgrade(move |socket| async move {
            Player {
                s,
                account,
                hashes,
                sent: HashMap::new(),
                waiting: true,
            }
            .run(socket, guard.map(|g| g.0))
            .await
        }))
}

/// One page's socket.
struct Player {
    s: Arc<Seeks>,
    account: Option<String>,
    /// SHA-256 of the seek tokens the page holds.
    hashes: Vec<String>,
    /// What was sent (`s:ID`, `p:ID`, `c:ID:STATUS`, `g:GAME`), and when, so that nothing
    /// goes twice.
    sent: HashMap<String, i64>,
    /// Whether a seek or ticket of the page's may wait: kept alive while so (it is until
    /// the first keep-alive finds none; an event of a new one sets it again).
    waiting: bool,
}

impl Player {
    async fn run(mut self, socket: WebSocket, guard: Option<Guard>) {
        let (mut tx, mut rx) = socket.split();
        let mut alive = KeepAlive::new(self.s.games.ws);
        // Subscribe, then read: no event falls between the first read and the listening.
        let mut events = self.s.games.store.subscribe();
        let mut list = self.s.list.subscribe();
        let opened = self.s.now_ms();
        // Seeks and tickets stay alive at three times the liveness rate.
        let keep_every = (self.s.cfg.liveness / 3).max(Duration::from_millis(100));
        let mut keep = tokio::time::interval(keep_every);
        keep.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let stopping = async {
            match &guard {
                Some(g) => g.stopping().await,
                None => std::future::pending().await,
            }
        };
        tokio::pin!(stopping);
        // The first read, at once.
        let mut read_now = true;
        loop {
            if read_now {
                let now = self.s.now_ms();
                match self.read(opened).await {
                    Ok(msgs) => {
                        for m in msgs {
                            if tx.send(text(m)).await.is_err() {
                                return;
                            }
                        }
                    }
                    Err(e) => tracing::warn!("player socket: {e}"),
                }
                self.sent.retain(|_, t| *t >= now - 2 * LOOK_BACK_MS);
            }
            read_now = false;
            tokio::select! {
                _ = &mut stopping => {
                    let _ = tx.send(going_away()).await;
                    return;
                }
                _ = tokio::time::sleep_until(alive.deadline()) => {
                    if !alive.tick(&mut tx).await {
                        return;
                    }
                }
                msg = rx.next() => {
                    match msg {
                        None | Some(Err(_)) | Some(Ok(Message::Close(_))) => return,
                        Some(Ok(Message::Text(t))) => {
                            if is_ping(t.as_str()) {
                                if tx.send(pong()).await.is_err() {
                                    return;
                                }
                            } else if self.add_seek(t.as_str()) {
                                self.keep_alive().await;
                            }
                        }
                        Some(Ok(_)) => {}
                    }
                    alive.heard();
                }
                _ = keep.tick() => {
                    if self.waiting {
                        self.keep_alive().await;
                    }
                }
                e = events.recv() => {
                    let e = match e {
                        Ok(e) => e,
                        // Fell behind: read again whatever concerns the page.
                        Err(RecvError::Lagged(_)) => {
                            read_now = true;
                            continue;
                        }
                        Err(RecvError::Closed) => return,
                    };
                    match &e.event {
                        Event::Seeks => {
                            if tx.send(text(json!({"type": "seeks"}))).await.is_err() {
                                return;
                            }
                        }
                        Event::Waiting { account } if self.account.as_ref() == Some(account) => {
                            if !self.waiting {
                                self.waiting = true;
                                self.keep_alive().await;
                            }
                        }
                        _ => read_now = self.concerns(&e),
                    }
                }
                l = list.recv() => {
                    if matches!(l, Err(RecvError::Closed)) {
                        return;
                    }
                    if tx.send(text(json!({"type": "seeks"}))).await.is_err() {
                        return;
                    }
                }
            }
        }
    }

    /// `{"type":"seek","token":T}`: the page posted a seek after opening its socket.
    fn add_seek(&mut self, t: &str) -> bool {
        #[derive(serde::Deserialize)]
        struct AddSeek {
            #[serde(rename = "type")]
            kind: String,
            token: String,
        }
        let Ok(m) = serde_json::from_str::<AddSeek>(t) else {
            return false;
        };
        if m.kind != "seek" || !valid_token(&m.token) || self.hashes.len() >= MAX_SEEK_TOKENS {
            return false;
        }
        let h = util::hash_token(&m.token);
        if !self.hashes.contains(&h) {
            self.hashes.push(h);
        }
        self.waiting = true;
        true
    }

    /// Whether event `d` is news for this page: for its account, or its seek tokens.
    fn concerns(&self, d: &Delivered) -> bool {
        if let Event::SeekAccepted { hash, .. } = &d.event {
            if self.hashes.contains(hash) {
                return true;
            }
        }
        self.account
            .as_deref()
            .is_some_and(|a| d.event.accounts().contains(&a))
    }

    /// Keeps the page's seeks and tickets alive; remembers whether any still wait.
    async fn keep_alive(&mut self) {
        let store = &self.s.games.store;
        let until = self.s.now_ms() + self.s.liveness_ms();
        let mut kept = 0;
        match store
            .keep_seeks_alive(&self.hashes, self.account.as_deref(), until)
            .await
        {
            Ok(n) => kept += n,
            Err(e) => {
                tracing::warn!("player socket: {e}");
                return;
            }
        }
        if let Some(a) = &self.account {
            match store.keep_tickets_alive(a, None, until).await {
                Ok(n) => kept += n,
                Err(e) => {
                    tracing::warn!("player socket: {e}");
                    return;
                }
            }
        }
        self.waiting = kept > 0;
    }

    /// What happened in the last [`LOOK_BACK_MS`] (challenges: since the socket `opened`)
    /// that was not sent yet.
    async fn read(
        &mut self,
        opened: i64,
    ) -> Result<Vec<serde_json::Value>, crate::store::StoreError> {
        let s = self.s.clone();
        let store = &s.games.store;
        let now = self.s.now_ms();
        let mut out = Vec::new();
        let from = now - LOOK_BACK_MS;
        for (seek, game) in store
            .seeks_accepted(&self.hashes, self.account.as_deref(), from)
            .await?
        {
            if self.first(format!("s:{seek}"), now) {
                self.first(format!("g:{game}"), now);
                out.push(json!({"type": "seek_accepted", "seek": seek, "game": game,
                                "url": format!("/g/{game}")}));
            }
        }
        let Some(me) = self.account.clone() else {
            return Ok(out);
        };
        for (ticket, game) in store.tickets_paired(&me, from).await? {
            if self.first(format!("p:{ticket}"), now) {
                self.first(format!("g:{game}"), now);
                out.push(json!({"type": "paired", "ticket": ticket, "game": game,
                                "url": format!("/g/{game}")}));
            }
        }
        for c in store
            .challenges_changed(&me, from.max(opened - SLACK_MS))
            .await?
        {
            let key = format!("c:{}:{}", c.id, c.status);
            if self.sent.contains_key(&key) {
                continue;
            }
            let msg = match c.status.as_str() {
                "open" if c.to_account == me => {
                    json!({"type": "challenge", "challenge": Shown::of(&c)})
                }
                "open" => continue,
                "accepted" => match &c.game {
                    Some(g) if store.game_exists(g).await? => {
                        self.first(format!("g:{g}"), now);
                        json!({"type": "challenge_gone", "id": c.id, "why": "accepted",
                               "game": g, "url": format!("/g/{g}")})
                    }
                    // Its game is being made: told at a later read.
                    _ => continue,
                },
                why => json!({"type": "challenge_gone", "id": c.id, "why": why}),
            };
            self.sent.insert(key, now);
            out.push(msg);
        }
        // A rematch offered to this account in a finished game it has no page of open
        // (docs/api.md, "Play: rematch"): told once per offer.
        for (game, from, until) in store.rematch_offers_to(&me, now).await? {
            if self.first(format!("r:{game}:{until}"), now) {
                out.push(json!({"type": "rematch", "game": game, "from": from,
                                "url": format!("/g/{game}"), "expires_in_ms": until - now}));
            }
        }
        // Any other game seated for this account since the socket opened (a tournament
        // round, a game made on another page): told once, after the events above.
        for game in store
            .games_seated_since(&me, from.max(opened - SLACK_MS))
            .await?
        {
            if self.first(format!("g:{game}"), now) {
                out.push(json!({"type": "game", "game": game, "url": format!("/g/{game}")}));
            }
        }
        Ok(out)
    }

    /// Marks `key` sent: true the first time.
    fn first(&mut self, key: String, now: i64) -> bool {
        self.sent.insert(key, now).is_none()
    }
}

fn text(v: serde_json::Value) -> Message {
    Message::Text(v.to_string().into())
}
