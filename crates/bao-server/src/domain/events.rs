//! The events of the bus (docs/architecture.md, "The event bus"): what one instance tells
//! every instance when it changes something others must hear of. Small and typed: ids and a
//! kind, never a picture of the state; whoever cares reads the state it needs (or already
//! holds it). The store writes an event in the transaction of the change it announces, so
//! an event is never heard of a change that did not commit, and a change never commits
//! without its event.

use serde::{Deserialize, Serialize};

/// What a challenge became (docs/api.md, "Direct challenges").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ChallengeStatus {
    /// Sent, waiting for an answer.
    Open,
    /// Accepted: its game exists.
    Accepted,
    /// Declined by the challenged player.
    Declined,
    /// Withdrawn by the challenger (or ended by a block).
    Cancelled,
    /// Not answered in time.
    Expired,
}

impl ChallengeStatus {
    /// The word of the contract (`challenge_gone`'s `why`, the stored status).
    pub fn as_str(self) -> &'static str {
        match self {
            ChallengeStatus::Open => "open",
            ChallengeStatus::Accepted => "accepted",
            ChallengeStatus::Declined => "declined",
            ChallengeStatus::Cancelled => "cancelled",
            ChallengeStatus::Expired => "expired",
        }
    }

    /// The status of a stored word, if it is one.
    pub fn parse(s: &str) -> Option<ChallengeStatus> {
        [
            ChallengeStatus::Open,
            ChallengeStatus::Accepted,
            ChallengeStatus::Declined,
            ChallengeStatus::Cancelled,
            ChallengeStatus::Expired,
        ]
        .into_iter()
        .find(|c| c.as_str() == s)
    }
}

/// Where a review is, as its progress is told (docs/api.md, "Review").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum ReviewProgress {
    /// Waiting behind `ahead` other reviews.
    Queued {
        /// Reviews before it.
        ahead: usize,
    },
    /// `done` of `total` plies judged.
    Running {
        /// Plies done.
        done: usize,
        /// Plies in all.
        total: usize,
    },
    /// Made: `POST` (or `GET`) the review to read it.
    Done,
    /// The engine failed: asking again tries again.
    Failed,
}

/// One event. Adding a kind: a variant here, a publisher (a store write that carries it, or
/// [`crate::store::Store::publish`]) and a listener (the core's, a feature's socket).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Event {
    /// Game `id` changed and is at `version` now: a move, an end, a seat taken, a takeback,
    /// a rating, a rematch. Other instances read it again for their sockets.
    Game {
        /// The game id.
        id: String,
        /// The match's version after the change.
        version: i64,
    },
    /// A game was made, or a seat in one taken, for these accounts (a seek accepted, a
    /// pairing, a challenge accepted, a tournament round, a rematch, a game of one's own).
    GameMade {
        /// The game id.
        game: String,
        /// The accounts seated in it.
        accounts: Vec<String>,
    },
    /// The list of open seeks changed: one posted, accepted, deleted or lapsed.
    Seeks,
    /// A seek or pool ticket of `account` waits now: its player sockets keep it alive.
    Waiting {
        /// The account.
        account: String,
    },
    /// Seek `seek` was accepted and its game `game` made, for its owner: `account`, or the
    /// page holding the seek token whose SHA-256 is `hash`.
    SeekAccepted {
        /// The seek id.
        seek: String,
        /// The game made.
        game: String,
        /// The owner's account, if signed in.
        account: Option<String>,
        /// SHA-256 of the seek token.
        hash: String,
    },
    /// Pool ticket `ticket` of `account` was paired and its game `game` made.
    Paired {
        /// The ticket id.
        ticket: String,
        /// The account that waited.
        account: String,
        /// The game made.
        game: String,
    },
    /// Challenge `id` from account `from` to account `to` is now `status` (sent, answered,
    /// withdrawn, expired); `game` once accepted (and made).
    Challenge {
        /// The challenge id.
        id: String,
        /// The challenger's account.
        from: String,
        /// The challenged account.
        to: String,
        /// What it is now.
        status: ChallengeStatus,
        /// The game, once accepted.
        game: Option<String>,
    },
    /// A seek, a pool pair or a challenge was claimed at `at` (ms since the epoch) for a
    /// game about to be made. Its deadline is news for every instance: if no game exists
    /// the stale-claim delay after `at` (the claiming instance stopped in between), any
    /// instance undoes the claim then, without waiting for a sweep.
    Claimed {
        /// When the claim was made.
        at: i64,
    },
    /// Who has game `game` open changed on the publishing instance (a player's first socket
    /// opened there, or their last one closed).
    Presence {
        /// The game id.
        game: String,
    },
    /// Tournament `id` changed: a player joined or left, it started, paused, resumed or
    /// finished, a round was paired, a result recorded.
    Tournament {
        /// The tournament id.
        id: String,
    },
    /// Arena `id` changed: made, started or ended, a player joined or paused, a game
    /// paired, a result recorded, a player went berserk.
    Arena {
        /// The arena id.
        id: String,
    },
    /// Team match `id` changed (docs/api.md, "Team matches"): proposed, answered, a
    /// lineup, its start, a board's result, its finish.
    TeamMatch {
        /// The team match id.
        id: String,
    },
    /// Club `id` changed what its page shows (docs/api.md, "Clubs"): a member joined, left
    /// or was removed, a request was made or answered, a role changed, an announcement, one
    /// of its team matches proposed or moved on.
    Club {
        /// The club id.
        id: String,
    },
    /// Game `game_no` of match `game` was rated: these accounts have new ratings.
    Rating {
        /// The match's id.
        game: String,
        /// The game of the match.
        game_no: u32,
        /// The two accounts.
        accounts: Vec<String>,
    },
    /// Player `from` of finished game `game` offers account `to` a rematch until `until`
    /// (ms since the epoch).
    Rematch {
        /// The finished game, where the offer is answered.
        game: String,
        /// The account asked.
        to: String,
        /// The asker's name.
        from: String,
        /// When the offer lapses.
        until: i64,
    },
    /// The review of game `game_no` of match `game` moved on.
    Review {
        /// The match's id.
        game: String,
        /// The game of the match.
        game_no: u32,
        /// Where it is.
        progress: ReviewProgress,
    },
    /// Puzzle `id`, mined from a finished game of the site, was stored: every instance's
    /// catalogue reads it (docs/api.md, "Puzzles").
    Puzzle {
        /// The puzzle's id.
        id: String,
    },
}

impl Event {
    /// The accounts this event is news for on their player sockets (the seek-token holder
    /// of [`Event::SeekAccepted`] aside).
    pub fn accounts(&self) -> Vec<&str> {
        match self {
            Event::GameMade { accounts, .. } | Event::Rating { accounts, .. } => {
                accounts.iter().map(String::as_str).collect()
            }
            Event::Waiting { account } | Event::Paired { account, .. } => vec![account],
            Event::SeekAccepted { account, .. } => account.iter().map(String::as_str).collect(),
            Event::Challenge { from, to, .. } => vec![from, to],
            Event::Rematch { to, .. } => vec![to],
            Event::Game { .. }
            | Event::Seeks
            | Event::Claimed { .. }
            | Event::Presence { .. }
            | Event::Tournament { .. }
            | Event::Arena { .. }
            | Event::TeamMatch { .. }
            | Event::Club { .. }
            | Event::Review { .. }
            | Event::Puzzle { .. } => Vec::new(),
        }
    }
}

/// An event as the bus delivers it: numbered, with the instance that published it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Delivered {
    /// Its number: on PostgreSQL from one counter shared by every instance, in the order
    /// the changes committed; on SQLite counted by the one instance.
    pub id: i64,
    /// The instance that published it.
    pub origin: String,
    /// The event.
    pub event: Event,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_small_tagged_json_and_read_back() {
        let e = Event::SeekAccepted {
            seek: "s".into(),
            game: "g".into(),
            account: None,
            hash: "h".into(),
        };
        let text = serde_json::to_string(&e).unwrap();
        assert_eq!(
            text,
            r#"{"kind":"seek_accepted","seek":"s","game":"g","account":null,"hash":"h"}"#
        );
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), e);
        let r = Event::Review {
            game: "g".into(),
            game_no: 1,
            progress: ReviewProgress::Running { done: 3, total: 9 },
        };
        let text = serde_json::to_string(&r).unwrap();
        assert!(text.contains(r#""progress":{"state":"running","done":3,"total":9}"#));
        assert_eq!(serde_json::from_str::<Event>(&text).unwrap(), r);
        assert_eq!(
            serde_json::to_string(&Event::Seeks).unwrap(),
            r#"{"kind":"seeks"}"#
        );
        for s in ["open", "accepted", "declined", "cancelled", "expired"] {
            assert_eq!(ChallengeStatus::parse(s).unwrap().as_str(), s);
        }
        assert_eq!(ChallengeStatus::parse("x"), None);
    }
}
