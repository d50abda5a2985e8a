//! The messages of a game's WebSocket as the server sends them (docs/api.md, "WebSocket").

use super::events::ReviewProgress;
use super::model::{BySide, GameState, MoveFrame};
use serde::Serialize;

/// A message from the server. Every one but `review`, `pong` and `error` carries the version
/// `v`: one more than the message before it on the same socket, so a client that sees a gap
/// knows it missed something and asks for the state (`sync`).
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
    /// A review of one of the match's games moved on (docs/api.md, "Review"): no version,
    /// as it is no change of the game.
    Review {
        /// The game of the match.
        game_no: u32,
        /// Where the review is.
        progress: &'a ReviewProgress,
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
    /// The message as JSON text.
    pub fn text(&self) -> String {
        json_text(self)
    }
}

/// Serialises a message type of ours; they hold only strings, numbers and lists, so this
/// cannot fail, but a failure would still give valid JSON (an empty object).
pub fn json_text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).unwrap_or_else(|_| "{}".into())
}
