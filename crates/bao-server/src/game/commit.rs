//! The one write path (docs/architecture.md, "One write path"): every change to a game (a
//! move, a resignation, a seat taken, a loss on time, a takeback, a rematch, an abandoned
//! match, a rating) is built as a [`Change`] and committed by [`Games::commit`], with one conflict
//! policy; and every copy of a game read back from the database goes through
//! [`Games::adopt`], which never replaces newer state with older.

use super::{Alert, AlertKind, Games, Recipient, Slot, Update};
use crate::domain::model::{Match, MoveEvent, PlayerKind, Round};
use crate::domain::wire::{json_text, ServerMsg};
use crate::error::ApiError;
use crate::store::{StoreError, Write};
use axum::extract::ws::Utf8Bytes;
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// A change to a game, as a value: what the match becomes, what the store writes, and (from
/// these) what viewers are told.
#[derive(Debug)]
pub struct Change {
    /// The match as the change leaves it. A game the change ended is recorded in it; the
    /// next game of a match is not started yet (see `next`).
    pub after: Match,
    /// The move the change plays: appended to the game's move list once committed, and
    /// told as a move frame (the game as the move left it) instead of the full state.
    pub played: Option<MoveEvent>,
    /// The next game of the match, when the change ended a game and the match goes on:
    /// started once the end has been told, and told as the full state.
    pub next: Option<Round>,
    /// What the store writes, with the condition that makes it apply once.
    pub write: Write,
    /// When the change was made (ms since the epoch): the clock of the next game starts then.
    pub at: i64,
}

impl Change {
    /// The match as the store keeps it: with the next game of the match started.
    fn stored(&self) -> Option<Match> {
        let next = self.next.clone()?;
        let mut m = self.after.clone();
        m.start_next(next);
        m.clock_settle(self.at);
        Some(m)
    }
}

/// Why a commit did not happen.
#[derive(Debug)]
pub enum CommitError {
    /// The database refused the change's condition (another instance, a clock or the
    /// abandonment sweep came first). Memory has been brought up to date and viewers told.
    Conflict(String),
    /// The database failed; nothing changed.
    Failed(StoreError),
}

impl From<CommitError> for ApiError {
    fn from(e: CommitError) -> Self {
        match e {
            CommitError::Conflict(m) => ApiError::conflict(m),
            CommitError::Failed(e) => e.into(),
        }
    }
}

impl Games {
    /// Commits `c` to game `slot`, whose locked match is `m`: stores it, then makes memory
    /// the match it describes, tells every viewer and observer, and re-arms the clock. On a
    /// conflict the game is read again ([`Games::reload_locked`]) and nothing of `c` is kept.
    pub async fn commit(
        &self,
        slot: &Arc<Slot>,
        m: &mut Match,
        c: Change,
    ) -> Result<(), CommitError> {
        let stored = c.stored();
        let turn_before = (m.to_move(), m.game_no);
        let version = match self
            .store
            .commit(c.write, stored.as_ref().unwrap_or(&c.after), &self.instance)
            .await
        {
            Ok(v) => v,
            Err(StoreError::Conflict(msg)) => {
                self.reload_locked(slot, m).await;
                return Err(CommitError::Conflict(msg));
            }
            Err(e) => return Err(CommitError::Failed(e)),
        };
        // The old match goes first, so that the move list is no longer shared and the push
        // below does not copy it.
        *m = c.after;
        m.version = version;
        if let Some(s) = &stored {
            // The clocks as the next game starts them.
            m.clock = s.clock;
        }
        match &c.played {
            Some(ev) => {
                m.moves.push(ev.clone());
                self.broadcast_move(slot, m, ev);
            }
            None => self.broadcast_state(slot, m),
        }
        if let (Some(next), Some(s)) = (c.next, stored) {
            m.start_next(next);
            m.clock = s.clock;
            self.broadcast_state(slot, m);
        }
        self.arm_clock(slot, m);
        self.alert_turn(slot, m, turn_before);
        Ok(())
    }

    /// Publishes "your move" when a change gave the turn to a person online (not pass and
    /// play) who has no socket open on this game here ([`super::alerts`]).
    fn alert_turn(&self, slot: &Slot, m: &Match, before: (Option<usize>, u32)) {
        let Some(p) = m.to_move() else { return };
        if before == (Some(p), m.game_no)
            || m.local()
            || m.players[p].kind != PlayerKind::Human
            || m.players[p].token_hash.is_none() && m.accounts[p].is_none()
            || slot.conns[p].load(Ordering::Relaxed) > 0
        {
            return;
        }
        let to = match &m.accounts[p] {
            Some(a) => Recipient::Account(a.id.clone()),
            None => Recipient::Seat {
                game: m.id.clone(),
                player: p,
            },
        };
        self.alerts.publish(Alert {
            to,
            kind: AlertKind::YourMove {
                game: m.id.clone(),
                opponent: m.players[1 - p].name.clone(),
            },
        });
    }

    /// Reads game `m` again after a conflict (another instance changed it), keeps the newer
    /// copy, tells the viewers the state and re-arms the clock.
    pub(crate) async fn reload_locked(&self, slot: &Arc<Slot>, m: &mut Match) {
        match self.store.load(&m.id).await {
            Ok(Some(fresh)) => {
                self.adopt(m, fresh);
            }
            Ok(None) => {}
            Err(e) => tracing::warn!("reloading game {}: {e}", m.id),
        }
        self.broadcast_state(slot, m);
        self.arm_clock(slot, m);
    }

    /// Takes `fresh`, a copy of the game read from the database, into memory if it is not
    /// older than what memory holds (by the stored version: a read that raced a later commit
    /// must not take the game back). Returns the moves `fresh` adds to the current game when
    /// that is all that changed, `None` when memory was kept, and `Some(vec![])` when the
    /// game changed otherwise.
    fn adopt(&self, m: &mut Match, fresh: Match) -> Option<Vec<MoveEvent>> {
        if fresh.version < m.version {
            return None;
        }
        let same_game = fresh.game_no == m.game_no;
        let old_len = m.moves.len();
        let changed = fresh.version != m.version
            || fresh.updated != m.updated
            || fresh.moves.len() != old_len
            || fresh.game_no != m.game_no
            || fresh.players[1].token_hash != m.players[1].token_hash
            || fresh.rematch != m.rematch
            || fresh.rematch_offer != m.rematch_offer;
        let added =
            (same_game && fresh.moves.len() > old_len && fresh.moves[..old_len] == m.moves[..])
                .then(|| fresh.moves[old_len..].to_vec());
        *m = fresh;
        if !changed {
            return None;
        }
        Some(added.unwrap_or_default())
    }

    /// Another instance changed game `id` (PostgreSQL NOTIFY): reads it again and, if the
    /// copy read is newer than memory's, takes it and tells the viewers: the new moves as
    /// move frames, then the full state unless the moves are all that changed (one version
    /// per change: a copy read late may also hold a resignation or a rating after them).
    pub async fn refresh(&self, id: &str) {
        let Some(slot) = self.cached(id) else {
            return;
        };
        let fresh = match self.store.load(id).await {
            Ok(Some(f)) => f,
            Ok(None) => return,
            Err(e) => {
                tracing::warn!("reloading game {id}: {e}");
                return;
            }
        };
        let mut m = slot.m.lock().await;
        let before = m.version;
        let Some(added) = self.adopt(&mut m, fresh) else {
            return;
        };
        self.arm_clock(&slot, &m);
        for ev in &added {
            self.broadcast_move(&slot, &m, ev);
        }
        if added.is_empty() || m.version - before != added.len() as i64 {
            self.broadcast_state(&slot, &m);
        }
    }

    /// Tells every client of the game about a committed move: only what changed
    /// (docs/api.md, "WebSocket"); the next legal moves go to the player to move only.
    /// Called under the match lock.
    pub(crate) fn broadcast_move(&self, slot: &Slot, m: &Match, ev: &MoveEvent) {
        self.tell_observers(m);
        if slot.tx.receiver_count() == 0 {
            return;
        }
        let v = slot.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let mut frame = m.move_frame(ev, v, self.clock.now_ms());
        let plain = Utf8Bytes::from(json_text(&ServerMsg::Move(&frame)));
        let mut views = [plain.clone(), plain.clone(), plain];
        if let Some(p) = m.to_move() {
            frame.legal = m.legal_moves_text();
            let with_legal = Utf8Bytes::from(json_text(&ServerMsg::Move(&frame)));
            // In pass and play the one person's sockets may be counted as either player.
            if m.local() {
                views[1] = with_legal.clone();
                views[2] = with_legal;
            } else {
                views[p + 1] = with_legal;
            }
        }
        let _ = slot.tx.send(Arc::new(Update { views }));
    }

    /// Sends the full state to every client of the game (a seat taken, a resignation, the
    /// next game of a match, another instance's change). Called under the match lock.
    pub(crate) fn broadcast_state(&self, slot: &Slot, m: &Match) {
        self.tell_observers(m);
        if slot.tx.receiver_count() == 0 {
            return;
        }
        let v = slot.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let mut state = m.state(None, slot.connected(), None, self.clock.now_ms());
        let mut view = |p: Option<usize>| {
            state.you = p.map(|p| m.you(p));
            state.invite = if p == Some(0) { m.invite.clone() } else { None };
            Utf8Bytes::from(json_text(&ServerMsg::State { v, state: &state }))
        };
        let views = [view(None), view(Some(0)), view(Some(1))];
        let _ = slot.tx.send(Arc::new(Update { views }));
    }

    /// Tells every client that a player's browser connected or left. Called under the
    /// match lock.
    pub(crate) fn broadcast_presence(&self, slot: &Slot, m: &Match) {
        if slot.tx.receiver_count() == 0 {
            return;
        }
        // A rematch offer lapses when its player leaves the game (docs/api.md, "Play:
        // rematch"): while one waits, viewers get the whole state, which says whether it
        // still stands.
        if m.rematch.is_none() && m.rematch_offer.is_some_and(|o| o.watching && !o.declined) {
            return self.broadcast_state(slot, m);
        }
        let v = slot.seq.fetch_add(1, Ordering::Relaxed) + 1;
        let text = Utf8Bytes::from(json_text(&ServerMsg::Presence {
            v,
            connected: m.presence(slot.connected()),
        }));
        let _ = slot.tx.send(Arc::new(Update {
            views: [text.clone(), text.clone(), text],
        }));
    }
}
