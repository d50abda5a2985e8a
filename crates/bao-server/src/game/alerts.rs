//! Alerts for a player who may not be looking: "your move", a game made for them, a
//! challenge, an accepted seek, a rematch offer, a tournament round, a club's announcement
//! (docs/api.md, "Alerts"). The core and the features publish them here; whoever delivers them (the live sockets of a player's pages,
//! Web Push) subscribes. Publishing never waits: an alert nobody listens to is dropped.
//!
//! Alerts are local to the instance that publishes them: the instance that made the change
//! publishes, once. A deliverer that needs the player's sockets on other instances reaches
//! them through the store (LISTEN/NOTIFY or a read), not through this channel.

use std::sync::Arc;
use tokio::sync::broadcast;

/// Alerts kept for a slow subscriber before it starts losing the oldest.
const BUFFER: usize = 1024;

/// Who an alert is for: a signed-in player's account, or a guest's seat in a game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recipient {
    /// The account (its id, never shown).
    Account(String),
    /// Several accounts told the same thing (a club's members).
    Accounts(Vec<String>),
    /// A seat (0 or 1) of a game, for a player without an account.
    Seat {
        /// The game id.
        game: String,
        /// The player (0 = the creator).
        player: usize,
    },
}

/// What happened, in a form every deliverer can put into the player's own language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AlertKind {
    /// It is the player's turn in `game` and no page of theirs has the game open.
    YourMove {
        /// The game id.
        game: String,
        /// The opponent's name.
        opponent: String,
    },
    /// A game was made for the player (a seek accepted, a pairing, a challenge accepted, a
    /// tournament round).
    GameStart {
        /// The game id.
        game: String,
        /// The opponent's name.
        opponent: String,
    },
    /// Someone challenged the player.
    Challenge {
        /// The challenge id.
        challenge: String,
        /// The challenger's name.
        from: String,
    },
    /// The opponent of a finished game offers a rematch, and no page of the player's has
    /// that game open.
    RematchOffer {
        /// The finished game's id (where the offer is answered).
        game: String,
        /// The asker's name.
        from: String,
    },
    /// A new round of a tournament the player plays in was paired.
    TournamentRound {
        /// The tournament id.
        tournament: String,
        /// The tournament's name.
        name: String,
        /// The round number.
        round: u32,
        /// The player's game in this round, or `None` for a bye.
        game: Option<String>,
    },
    /// An arena the player joined starts in five minutes.
    ArenaSoon {
        /// The arena id.
        arena: String,
        /// The arena's name.
        name: String,
    },
    /// A leader or admin of a club the player belongs to announced something.
    ClubAnnouncement {
        /// The club id.
        club: String,
        /// The club's name.
        name: String,
        /// What was announced.
        text: String,
    },
}

/// One alert for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Alert {
    /// Who it is for.
    pub to: Recipient,
    /// What happened.
    pub kind: AlertKind,
}

/// The alert channel of one instance.
pub struct Alerts {
    tx: broadcast::Sender<Arc<Alert>>,
}

impl Default for Alerts {
    fn default() -> Self {
        Alerts {
            tx: broadcast::channel(BUFFER).0,
        }
    }
}

impl Alerts {
    /// Publishes `a` to every subscriber; never waits.
    pub fn publish(&self, a: Alert) {
        let _ = self.tx.send(Arc::new(a));
    }

    /// Every alert published from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<Alert>> {
        self.tx.subscribe()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_subscriber_gets_what_is_published_after_it_subscribed() {
        let alerts = Alerts::default();
        alerts.publish(Alert {
            to: Recipient::Account("a".into()),
            kind: AlertKind::Challenge {
                challenge: "c0".into(),
                from: "x".into(),
            },
        });
        let mut rx = alerts.subscribe();
        let a = Alert {
            to: Recipient::Seat {
                game: "g".into(),
                player: 1,
            },
            kind: AlertKind::YourMove {
                game: "g".into(),
                opponent: "Asha".into(),
            },
        };
        alerts.publish(a.clone());
        assert_eq!(*rx.recv().await.unwrap(), a);
        assert!(rx.try_recv().is_err());
    }
}
