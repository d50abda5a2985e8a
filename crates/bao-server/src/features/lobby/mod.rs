//! The lobby: the home page's live view of the game lists (docs/api.md, "Lobby").
//!
//! Instead of downloading the lists every few seconds, the home page loads one small page of
//! each list once and then listens on `GET /api/lobby/ws`. The lobby observes the game core
//! ([`crate::game::Observer`]): every change of a game (created, a seat taken, a move, its
//! end) marks the game; once a second the marked games go out as one batch of list
//! summaries, the newest first and at most [`MAX_BATCH`] of them. So a lobby socket gets at
//! most one small message a second however busy the server is, and a game with many moves in
//! that second is sent once.

use crate::domain::messages::{parse, LobbyIn, LobbyOut, Refused};
use crate::domain::model::{BySide, Match, PlayerKind};
use crate::domain::wire::json_text;
use crate::edge::socket::{self, drive, Flow, Handler, Outbox, WsConfig};
use crate::edge::Guard;
use crate::error::ApiError;
use crate::game::Observer;
use axum::extract::ws::{Utf8Bytes, WebSocketUpgrade};
use axum::extract::State;
use axum::response::Response;
use axum::routing::get;
use axum::Extension;
use axum::Router;
use serde::Serialize;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;
use tokio::sync::broadcast;
use tokio::sync::broadcast::error::RecvError;

/// Most summaries in one batch; the home page shows a dozen games per list.
pub const MAX_BATCH: usize = 24;
/// How often marked games are sent.
const TICK: Duration = Duration::from_secs(1);

/// A player as the lists show it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct ListedPlayer {
    /// `human` or `computer`.
    pub kind: &'static str,
    /// Display name.
    pub name: String,
    /// The computer's level.
    pub level: Option<u8>,
}

/// A game as the lists show it (the same fields as `GET /api/games`).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct Summary {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: &'static str,
    /// The players by their side in the current game.
    pub players: BySide<ListedPlayer>,
    /// Ply of the current position.
    pub ply: u32,
    /// The current game's result token.
    pub result: String,
    /// `live` or `finished`.
    pub status: &'static str,
    /// Game number in the match.
    pub game_no: u32,
    /// Last change, ms since the epoch.
    pub updated: i64,
}

impl Summary {
    /// The summary of `m` as it stands.
    pub fn of(m: &Match) -> Summary {
        let p = |side| {
            let pl = &m.players[m.player_on(side)];
            ListedPlayer {
                kind: pl.kind.as_str(),
                name: pl.name.clone(),
                level: (pl.kind == PlayerKind::Computer)
                    .then_some(pl.level)
                    .flatten(),
            }
        };
        Summary {
            id: m.id.clone(),
            variant: m.rules.variant.id(),
            players: BySide {
                south: p(bao_rules::Side::South),
                north: p(bao_rules::Side::North),
            },
            ply: m.game.position().ply(),
            result: m.result().0.token().to_string(),
            status: if !m.read_only && !m.finished {
                "live"
            } else {
                "finished"
            },
            game_no: m.game_no,
            updated: m.updated,
        }
    }
}

/// The lobby's state: games changed since the last batch, and the channel to the sockets.
pub struct Lobby {
    marked: Mutex<HashMap<String, Summary>>,
    tx: broadcast::Sender<Utf8Bytes>,
}

impl Default for Lobby {
    fn default() -> Self {
        Lobby {
            marked: Mutex::new(HashMap::new()),
            // A socket more than a few seconds behind reloads the lists.
            tx: broadcast::channel(8).0,
        }
    }
}

impl Observer for Lobby {
    /// Notes a change of `m`; free when no home page is listening.
    fn changed(&self, m: &Match) {
        if self.tx.receiver_count() == 0 {
            return;
        }
        // "Watch live" lists matches with a move (GET /api/games?status=live): one nobody has
        // moved in yet is not news for the home page.
        let unmoved = m.game_no == 1 && m.game.position().ply() == 0;
        if unmoved && !m.read_only && !m.finished {
            return;
        }
        let s = Summary::of(m);
        if let Ok(mut marked) = self.marked.lock() {
            marked.insert(s.id.clone(), s);
        }
    }
}

impl Lobby {
    /// Sends the marked games as one batch, if any.
    fn flush(&self) {
        let mut games: Vec<Summary> = match self.marked.lock() {
            Ok(mut m) if !m.is_empty() => m.drain().map(|(_, s)| s).collect(),
            _ => return,
        };
        games.sort_by(|a, b| b.updated.cmp(&a.updated).then_with(|| a.id.cmp(&b.id)));
        let more = games.len() > MAX_BATCH;
        games.truncate(MAX_BATCH);
        // Written once for every socket.
        let text = json_text(&LobbyOut::Games {
            games: &games,
            more,
        });
        let _ = self.tx.send(text.into());
    }
}

/// Sends the lobby's batches once a second while the lobby lives.
pub fn spawn_ticker(lobby: &Arc<Lobby>) -> tokio::task::JoinHandle<()> {
    let lobby: Weak<Lobby> = Arc::downgrade(lobby);
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(TICK);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let Some(lobby) = lobby.upgrade() else { return };
            lobby.flush();
        }
    })
}

/// The lobby's state as its routes see it.
#[derive(Clone)]
struct Lobbies {
    lobby: Arc<Lobby>,
    ws: WsConfig,
}

/// `GET /api/lobby/ws`.
pub fn routes(lobby: Arc<Lobby>, ws: WsConfig) -> Router {
    Router::new()
        .route("/api/lobby/ws", get(upgrade))
        .with_state(Lobbies { lobby, ws })
}

async fn upgrade(
    ws: WebSocketUpgrade,
    State(l): State<Lobbies>,
    guard: Option<Extension<Guard>>,
) -> Response {
    let guard = guard.map(|g| g.0);
    socket::upgrade(ws).on_upgrade(move |socket| {
        let h = LobbySocket {
            batches: l.lobby.tx.subscribe(),
        };
        // On shutdown the page is told to come back (1001), as game and player sockets are.
        drive(socket, h, l.ws, guard)
    })
}

/// One home page's lobby socket.
struct LobbySocket {
    batches: broadcast::Receiver<Utf8Bytes>,
}

impl Handler for LobbySocket {
    type Event = Result<Utf8Bytes, RecvError>;

    async fn open(&mut self, _out: &mut Outbox) -> Flow {
        // The page loaded the lists over HTTP; only changes come here.
        Flow::Go
    }

    async fn next_event(&mut self) -> Option<Self::Event> {
        match self.batches.recv().await {
            Err(RecvError::Closed) => None,
            b => Some(b),
        }
    }

    async fn on_event(&mut self, b: Self::Event, out: &mut Outbox) -> Flow {
        match b {
            Ok(t) => out.text(t),
            // Too far behind: the page loads the lists again.
            Err(_) => out.json(&LobbyOut::<()>::Reload),
        }
        Flow::Go
    }

    async fn on_text(&mut self, text: &str, out: &mut Outbox) -> Flow {
        match parse::<LobbyIn>(text) {
            Ok(LobbyIn::Ping) => out.json(&LobbyOut::<()>::Pong),
            Err(Refused::Unknown(k)) => out.error(&ApiError::bad_request(format!(
                "unknown message type '{}' (ping)",
                bao_rules::printable(&k)
            ))),
            Err(Refused::Malformed(e)) => out.error(&ApiError::bad_request(format!(
                "a message is JSON such as {{\"type\":\"ping\"}}: {e}"
            ))),
        }
        Flow::Go
    }

    async fn close(self) {}
}
