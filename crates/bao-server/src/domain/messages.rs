//! The typed messages of the three sockets, both ways (docs/api.md: "WebSocket", "Lobby",
//! "The player socket"): what a client may send each kind of socket, and what the lobby and
//! player sockets send (the game socket's server messages are [`super::wire::ServerMsg`]).
//! A client message that is not one of these is refused with an `error` frame.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Client -> game socket.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum GameIn {
    /// `{"type":"move","move":"A7L*","ply":n}` (`move` is checked by the handler, so that
    /// a move without one gets its own answer).
    Move {
        /// The move in canonical notation.
        #[serde(rename = "move")]
        mv: Option<String>,
        /// The ply the client moves at.
        ply: Option<u32>,
    },
    /// Send the whole state again.
    Sync,
    /// The page's keep-alive.
    Ping,
}

/// Client -> lobby socket.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LobbyIn {
    /// The page's keep-alive.
    Ping,
}

/// Client -> player socket.
#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum PlayerIn {
    /// The page's keep-alive.
    Ping,
    /// The page posted a seek after opening its socket: its token.
    Seek {
        /// The seek token.
        token: String,
    },
}

/// Server -> lobby socket.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "lowercase")]
pub enum LobbyOut<'a, S> {
    /// The games changed in the last second, newest first.
    Games {
        /// Their summaries.
        games: &'a [S],
        /// More games changed than the batch holds (the oldest were left out).
        more: bool,
    },
    /// The socket fell behind: load the lists again.
    Reload,
    /// The answer to `ping`.
    Pong,
}

/// Server -> player socket. `C` is a challenge as `GET /api/challenges` lists it.
#[derive(Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum PlayerOut<C> {
    /// A seek of the page's was accepted: its game.
    SeekAccepted {
        /// The seek id.
        seek: String,
        /// The game made.
        game: String,
        /// Its page.
        url: String,
    },
    /// A pool ticket was paired.
    Paired {
        /// The ticket id.
        ticket: String,
        /// The game made.
        game: String,
        /// Its page.
        url: String,
    },
    /// A challenge to this account.
    Challenge {
        /// The challenge.
        challenge: C,
    },
    /// A challenge from or to this account is no longer open.
    ChallengeGone {
        /// The challenge id.
        id: String,
        /// `accepted`, `declined`, `cancelled` or `expired`.
        why: String,
        /// The game, when accepted.
        #[serde(skip_serializing_if = "Option::is_none")]
        game: Option<String>,
        /// Its page, when accepted.
        #[serde(skip_serializing_if = "Option::is_none")]
        url: Option<String>,
    },
    /// A rematch offered to this account.
    Rematch {
        /// The finished game where it is answered.
        game: String,
        /// The asker's name.
        from: String,
        /// The game's page.
        url: String,
        /// How long the offer stands.
        expires_in_ms: i64,
    },
    /// Another game seated for this account.
    Game {
        /// The game.
        game: String,
        /// Its page.
        url: String,
    },
    /// Game `game_no` of match `game` was rated: the account's ratings changed.
    Rating {
        /// The match.
        game: String,
        /// The game of the match.
        game_no: u32,
        /// The match's page.
        url: String,
    },
    /// A tournament the page follows (`?tournament=ID`) changed, or the socket opened: read
    /// it again.
    Tournament {
        /// The tournament id.
        id: String,
    },
    /// An arena the page follows (`?arena=ID`) changed, or the socket opened: read it again.
    Arena {
        /// The arena id.
        id: String,
    },
    /// A team match the page follows (`?team_match=ID`) changed, or the socket opened: read
    /// it again.
    TeamMatch {
        /// The team match id.
        id: String,
    },
    /// A club the page follows (`?club=ID`) changed, or the socket opened: read it again.
    Club {
        /// The club id.
        id: String,
    },
    /// The open seeks changed.
    Seeks,
    /// The answer to `ping`.
    Pong,
}

/// Why a client message was refused.
#[derive(Debug)]
pub enum Refused {
    /// Not JSON, or not the fields its type needs.
    Malformed(serde_json::Error),
    /// A JSON object of a type this socket does not take (its `type`, or empty).
    Unknown(String),
}

/// Reads a client message of type `T`, telling a malformed message from an unknown type.
pub fn parse<T: DeserializeOwned>(text: &str) -> Result<T, Refused> {
    #[derive(Deserialize)]
    struct Kind {
        #[serde(rename = "type")]
        kind: String,
    }
    match serde_json::from_str::<T>(text) {
        Ok(m) => Ok(m),
        Err(e) => match serde_json::from_str::<Kind>(text) {
            Ok(k) if e.to_string().starts_with("unknown variant") => Err(Refused::Unknown(k.kind)),
            _ => Err(Refused::Malformed(e)),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_are_read_or_refused() {
        assert_eq!(parse::<GameIn>(r#"{"type":"sync"}"#).unwrap(), GameIn::Sync);
        assert_eq!(
            parse::<GameIn>(r#"{"type":"move","move":"A7L*","ply":3}"#).unwrap(),
            GameIn::Move {
                mv: Some("A7L*".into()),
                ply: Some(3)
            }
        );
        assert!(
            matches!(parse::<GameIn>(r#"{"type":"dance"}"#), Err(Refused::Unknown(k)) if k == "dance")
        );
        assert!(matches!(
            parse::<GameIn>("not json"),
            Err(Refused::Malformed(_))
        ));
        assert!(matches!(
            parse::<GameIn>(r#"{"type":"move","ply":"x"}"#),
            Err(Refused::Malformed(_))
        ));
        assert_eq!(
            parse::<LobbyIn>(r#"{"type":"ping"}"#).unwrap(),
            LobbyIn::Ping
        );
        assert!(matches!(
            parse::<LobbyIn>(r#"{"type":"seek","token":"t"}"#),
            Err(Refused::Unknown(_))
        ));
        assert_eq!(
            parse::<PlayerIn>(r#"{"type":"seek","token":"t"}"#).unwrap(),
            PlayerIn::Seek { token: "t".into() }
        );
    }

    #[test]
    fn server_messages_keep_the_contract() {
        let m: PlayerOut<()> = PlayerOut::ChallengeGone {
            id: "c".into(),
            why: "declined".into(),
            game: None,
            url: None,
        };
        assert_eq!(
            serde_json::to_string(&m).unwrap(),
            r#"{"type":"challenge_gone","id":"c","why":"declined"}"#
        );
        assert_eq!(
            serde_json::to_string(&PlayerOut::<()>::Seeks).unwrap(),
            r#"{"type":"seeks"}"#
        );
        let r: PlayerOut<()> = PlayerOut::Rating {
            game: "g".into(),
            game_no: 2,
            url: "/g/g".into(),
        };
        assert_eq!(
            serde_json::to_string(&r).unwrap(),
            r#"{"type":"rating","game":"g","game_no":2,"url":"/g/g"}"#
        );
        assert_eq!(
            serde_json::to_string(&PlayerOut::<()>::Tournament { id: "t".into() }).unwrap(),
            r#"{"type":"tournament","id":"t"}"#
        );
        assert_eq!(
            serde_json::to_string(&LobbyOut::<()>::Reload).unwrap(),
            r#"{"type":"reload"}"#
        );
        let g: LobbyOut<u8> = LobbyOut::Games {
            games: &[1, 2],
            more: false,
        };
        assert_eq!(
            serde_json::to_string(&g).unwrap(),
            r#"{"type":"games","games":[1,2],"more":false}"#
        );
    }
}
