//! The operations on a game that every game has: create one (or store an uploaded record),
//! take the open seat, move, resign; and the game's views (its state, an earlier game of the
//! match, its record file). Each change is built as a [`Change`] and committed through
//! [`Games::commit`].

use super::{Change, Games, Slot};
use crate::domain::ending::{EndReason, Ending};
use crate::domain::model::{
    move_event, GameEvent, Match, MoveEvent, NewMatch, Player, PlayerKind, Round, TimeControl,
};
use crate::domain::record::{forced_of, write_record, ParsedRecord, RecordOut};
use crate::domain::wire::{json_text, ServerMsg};
use crate::error::{ApiError, ApiResult, Category};
use crate::store::{StoreError, Write};
use crate::util;
use bao_rules::{find_move, MatchFormat, Position, RecordResult, Rules, Side, Termination};
use std::sync::Arc;

/// What creating a game answers.
#[derive(Debug, serde::Serialize)]
pub struct Created {
    /// Game id.
    pub id: String,
    /// The creator's side in game 1.
    pub seat: String,
    /// The creator's seat token.
    pub token: String,
    /// Invite code for the other seat, for a game against a person.
    pub invite: Option<String>,
    /// The game page.
    pub url: String,
}

/// A create request, already checked.
pub struct NewGame {
    /// Rules, including the match format.
    pub rules: Rules,
    /// Start position.
    pub start: Position,
    /// Computer level, or `None` for a person.
    pub computer: Option<u8>,
    /// The creator's side in game 1.
    pub side: Side,
    /// The creator's name.
    pub name: String,
    /// The time control, if the game has a clock.
    pub clock: Option<TimeControl>,
    /// Pass and play: the creator plays both sides, the other side named this.
    pub local: Option<String>,
    /// The game is rated (docs/api.md, "Ratings"): checked by the route (signed in, a
    /// person online, the start position).
    pub rated: bool,
    /// The signed-in creator's account id, if any.
    pub account: Option<String>,
}

/// One seat of a game the server makes between two players ([`NewPair`]).
pub struct PairSeat {
    /// The name the player plays under (a signed-in player's account name).
    pub name: String,
    /// The player's account id, if signed in.
    pub account: Option<String>,
    /// The hash ([`util::hash_token`]) of a token the player already holds (a guest's seek
    /// token), to be their seat token; `None`: a new token is made and returned.
    pub token_hash: Option<String>,
}

/// A game the server makes between two people who both asked for it (a seek accepted, a
/// pairing from the pool, a challenge accepted, a tournament round): both seats are taken
/// from the start, each with its own token, and a signed-in player's seat is also theirs
/// through their session (see [`super::seat`]).
pub struct NewPair {
    /// Rules, including the match format.
    pub rules: Rules,
    /// Start position (the variant's usual one for a rated game).
    pub start: Position,
    /// The two players; `players[0]` plays `first_side` in game 1.
    pub players: [PairSeat; 2],
    /// `players[0]`'s side in game 1.
    pub first_side: Side,
    /// The time control, if the game has a clock (it starts at once).
    pub clock: Option<TimeControl>,
    /// Rated (docs/api.md, "Ratings"): both players need accounts, two different ones.
    pub rated: bool,
    /// The game's id, when the caller chose it beforehand (to claim a pairing under it
    /// first); `None`: a new one. A chosen id that is taken is an error, not redrawn.
    pub id: Option<String>,
    /// The event the game is made for (a tournament's round), shown on its page; `None` for
    /// a game on its own.
    pub event: Option<GameEvent>,
    /// Events of the making (docs/architecture.md, "The event bus"): a seek accepted, a
    /// pairing, a challenge accepted; published in the transaction that makes the game,
    /// after which [`Event::GameMade`](crate::domain::events::Event::GameMade) follows.
    pub news: Vec<crate::domain::events::Event>,
}

/// What making a game between two players answers: the game and each player's seat token,
/// to be handed to that player only.
#[derive(Debug)]
pub struct PairCreated {
    /// Game id.
    pub id: String,
    /// Seat token of `players[0]` and of `players[1]` (`None` for a seat whose
    /// [`PairSeat::token_hash`] was given).
    pub tokens: [Option<String>; 2],
    /// The game page.
    pub url: String,
}

/// `S` or `N`.
pub(crate) fn side_str(s: Side) -> String {
    s.letter().to_string()
}

/// The board picture of the current position, with the last move marked.
pub fn board_svg(m: &Match) -> String {
    let mut opts = bao_render::SvgOptions {
        size: None,
        ..Default::default()
    };
    opts.last_move = m.game.moves().last().map(bao_render::LastMove::from);
    opts.over = Some(m.game.outcome().is_over());
    bao_render::svg(m.game.position(), &opts)
}

/// The GameState for `viewer` as JSON text, with the picture (HTTP answers).
pub(crate) fn state_string(
    m: &Match,
    viewer: Option<usize>,
    connected: [bool; 2],
    now: i64,
) -> String {
    let svg = board_svg(m);
    json_text(&m.state(viewer, connected, Some(svg), now))
}

/// `{"type":"state","v":V,"state":...}` for `viewer`, without the picture.
pub fn state_message(
    m: &Match,
    viewer: Option<usize>,
    connected: [bool; 2],
    v: u64,
    now: i64,
) -> String {
    ServerMsg::State {
        v,
        state: &m.state(viewer, connected, None, now),
    }
    .text()
}

/// A person's seat, with a token's hash or open.
fn person(name: &str, token_hash: Option<String>) -> Player {
    Player {
        kind: PlayerKind::Human,
        name: name.to_string(),
        level: None,
        token_hash,
    }
}

impl Games {
    /// Creates a game and its first round.
    pub async fn create(&self, mut g: NewGame) -> ApiResult<Created> {
        let token = util::new_token();
        let hash = util::hash_token(&token);
        let account = match &g.account {
            Some(id) => {
                self.store
                    .seat_account(id, g.rules.variant.id(), self.clock.now_ms())
                    .await?
            }
            None => None,
        };
        if g.rated {
            // A rated game is played under the account's own name.
            let a = account
                .as_ref()
                .ok_or_else(|| ApiError::needs_account("a rated game"))?;
            g.name = a.username.clone();
        }
        let (p1, invite) = match (g.computer, &g.local) {
            (_, Some(name)) => (person(name, Some(hash.clone())), None),
            (Some(level), None) => (
                Player {
                    kind: PlayerKind::Computer,
                    name: format!("Computer (level {level})"),
                    level: Some(level),
                    token_hash: None,
                },
                None,
            ),
            (None, None) => (person("Guest", None), Some(util::random_code(16))),
        };
        let mut m = Match::new(NewMatch {
            id: util::new_game_id(),
            rules: g.rules,
            start: g.start,
            first_side: g.side,
            players: [person(&g.name, Some(hash)), p1],
            invite: invite.clone(),
            clock: g.clock,
            now: self.clock.now_ms(),
            rated: g.rated,
            accounts: [account, None],
        });
        // A start position that is already over ends its game at once.
        if m.game.outcome().is_over() {
            return Err(ApiError::of(
                Category::BadPosition,
                format!(
                    "the game is already over in this position ({})",
                    m.game.outcome().describe()
                ),
            ));
        }
        // Ids are random; a clash only makes us draw again.
        for _ in 0..4 {
            match self
                .store
                .create(&m, &[(m.current.clone(), Vec::new())], Vec::new())
                .await
            {
                Ok(()) => break,
                Err(StoreError::Conflict(_)) => m.id = util::new_game_id(),
                Err(e) => return Err(e.into()),
            }
        }
        let id = m.id.clone();
        self.open(m);
        Ok(Created {
            url: format!("/g/{id}"),
            id,
            seat: side_str(g.side),
            token,
            invite,
        })
    }

    /// Makes a game between two people who both asked for it ([`NewPair`]), and tells
    /// each of them ([`super::alerts`], `GameStart`).
    pub async fn create_pair(&self, p: NewPair) -> ApiResult<PairCreated> {
        let variant = p.rules.variant.id();
        let now = self.clock.now_ms();
        let mut accounts = [None, None];
        for (slot, seat) in accounts.iter_mut().zip(&p.players) {
            if let Some(id) = &seat.account {
                *slot = self.store.seat_account(id, variant, now).await?;
            }
        }
        if p.rated {
            match &accounts {
                [Some(a), Some(b)] if a.id != b.id => {}
                [Some(_), Some(_)] => {
                    return Err(ApiError::of(
                        Category::RatedSameAccount,
                        "a rated game needs two different accounts",
                    ))
                }
                _ => return Err(ApiError::needs_account("a rated game")),
            }
        }
        let tokens: [Option<String>; 2] =
            [0, 1].map(|i| p.players[i].token_hash.is_none().then(util::new_token));
        let hashes: [String; 2] = [0, 1].map(|i| match (&p.players[i].token_hash, &tokens[i]) {
            (Some(h), _) => h.clone(),
            (None, Some(t)) => util::hash_token(t),
            (None, None) => String::new(),
        });
        let chosen = p.id.is_some();
        let names: Vec<String> = p
            .players
            .iter()
            .zip(&accounts)
            .map(|(seat, a)| match a {
                Some(a) => a.username.clone(),
                None => seat.name.clone(),
            })
            .collect();
        let mut m = Match::new(NewMatch {
            id: p.id.unwrap_or_else(util::new_game_id),
            rules: p.rules,
            start: p.start,
            first_side: p.first_side,
            players: [
                person(&names[0], Some(hashes[0].clone())),
                person(&names[1], Some(hashes[1].clone())),
            ],
            invite: None,
            clock: p.clock,
            now,
            rated: p.rated,
            accounts: accounts.clone(),
        });
        m.event = p.event;
        if m.game.outcome().is_over() {
            return Err(ApiError::of(
                Category::BadPosition,
                format!(
                    "the game is already over in this position ({})",
                    m.game.outcome().describe()
                ),
            ));
        }
        // Both seats are taken: the clock runs from now.
        m.clock_settle(now);
        for _ in 0..4 {
            match self
                .store
                .create(&m, &[(m.current.clone(), Vec::new())], p.news.clone())
                .await
            {
                Ok(()) => break,
                Err(StoreError::Conflict(_)) if !chosen => m.id = util::new_game_id(),
                Err(e) => return Err(e.into()),
            }
        }
        let id = m.id.clone();
        self.open(m);
        for p in 0..2 {
            let to = match &accounts[p] {
                Some(a) => super::Recipient::Account(a.id.clone()),
                None => super::Recipient::Seat {
                    game: id.clone(),
                    player: p,
                },
            };
            self.alerts.publish(super::Alert {
                to,
                kind: super::AlertKind::GameStart {
                    game: id.clone(),
                    opponent: names[1 - p].clone(),
                },
            });
        }
        Ok(PairCreated {
            url: format!("/g/{id}"),
            id,
            tokens,
        })
    }

    /// Stores an uploaded record file as a finished, read-only game.
    pub async fn create_from_records(&self, recs: Vec<ParsedRecord>) -> ApiResult<String> {
        let (Some(first), Some(last)) = (recs.first(), recs.last()) else {
            return Err(ApiError::bad_request("the file holds no record"));
        };
        let mut rounds: Vec<(Round, Vec<MoveEvent>)> = Vec::new();
        let mut last_game = None;
        for (i, r) in recs.iter().enumerate() {
            let mut game = bao_rules::Game::new(r.start, r.rules);
            let mut events = Vec::new();
            for mv in &r.moves {
                let before = *game.position();
                let lm = bao_rules::legal_moves(&before, &r.rules)
                    .find(&mv.to_string())
                    .copied()
                    .ok_or_else(|| ApiError::internal("a checked record move is not legal"))?;
                game.play(&lm);
                events.push(move_event(&before, &r.rules, &lm, game.outcome().token()));
            }
            // The record's Result and Termination tags say how it ended (NOT-6.2); under
            // `rules`, the replayed moves say which rule ended it.
            let ending = match r.termination {
                Some(t) if t != Termination::Rules && r.result != RecordResult::Unfinished => {
                    Ending::forced(r.result, t)
                }
                _ => Ending::of_outcome(game.outcome()),
            };
            let mut round = Round::new(i as u32 + 1, r.start, (r.south.clone(), r.north.clone()));
            round.result = r.result;
            round.result_text = ending.map(Ending::text);
            round.ending = ending;
            round.termination = r.termination;
            rounds.push((round, events));
            last_game = Some(game);
        }
        let game = last_game.ok_or_else(|| ApiError::bad_request("the file holds no record"))?;
        let (current, moves) = rounds
            .last()
            .cloned()
            .ok_or_else(|| ApiError::bad_request("the file holds no record"))?;
        let n = recs.len() as u32;
        let now = self.clock.now_ms();
        let mut m = Match::new(NewMatch {
            id: util::new_game_id(),
            rules: last.rules,
            start: last.start,
            first_side: Side::South,
            players: [person(&first.south, None), person(&first.north, None)],
            invite: None,
            clock: None,
            now,
            rated: false,
            accounts: [None, None],
        });
        m.format = if n == 1 {
            MatchFormat::SingleGame
        } else {
            MatchFormat::BestOfThree
        };
        m.read_only = true;
        m.game_no = n;
        m.finished = true;
        m.past = rounds[..rounds.len() - 1]
            .iter()
            .map(|r| r.0.clone())
            .collect();
        m.forced = match (last.termination, last.result) {
            (Some(t), r) if t != Termination::Rules && r != RecordResult::Unfinished => {
                Some((r, t))
            }
            _ => None,
        };
        m.current = current;
        m.game = game;
        m.moves = moves.into();
        // A record is finished: it is read from the database when someone opens it.
        self.store.create(&m, &rounds, Vec::new()).await?;
        Ok(m.id)
    }

    /// Gives the open seat to the holder of the invite code; `account` is the signed-in
    /// joiner's account id, if any (a rated game needs one, not the creator's).
    pub async fn join(
        &self,
        seat: &super::Seat,
        invite: &str,
        mut name: String,
        account: Option<String>,
    ) -> ApiResult<(String, String)> {
        let slot = &seat.slot;
        let variant = slot.m.lock().await.rules.variant.id();
        let account = match &account {
            Some(id) => {
                self.store
                    .seat_account(id, variant, self.clock.now_ms())
                    .await?
            }
            None => None,
        };
        let mut m = slot.m.lock().await;
        if let Some(p) = Games::auth(&m, seat.token.as_deref()) {
            return Err(ApiError::conflict(format!(
                "you already play {} in this game; open the invite link in another browser",
                m.side_of(p).name()
            )));
        }
        if m.players[1].kind != PlayerKind::Human || m.read_only {
            return Err(ApiError::conflict(
                "this game has no seat for a person to join",
            ));
        }
        if m.players[1].token_hash.is_some() || m.invite.is_none() {
            return Err(ApiError::conflict("the seat has already been taken"));
        }
        if !m
            .invite
            .as_deref()
            .is_some_and(|c| util::same_secret(c, invite))
        {
            return Err(ApiError::forbidden(
                "the invite code is not valid for this game",
            ));
        }
        if m.rated {
            let Some(a) = &account else {
                return Err(ApiError::needs_account("joining a rated game"));
            };
            if m.accounts[0].as_ref().is_some_and(|c| c.id == a.id) {
                return Err(ApiError::of(
                    Category::RatedSameAccount,
                    "you created this rated game: the other seat is for another account",
                ));
            }
            name = a.username.clone();
        }
        let token = util::new_token();
        let now = self.clock.now_ms();
        let mut after = m.clone();
        after.players[1].name = name.clone();
        after.players[1].token_hash = Some(util::hash_token(&token));
        after.accounts[1] = account;
        after.invite = None;
        (after.current.south, after.current.north) = after.names_in(after.game_no);
        // Memory and database hold the same time (the abandonment sweep compares them).
        after.updated = now;
        // The clock starts once both seats are taken.
        after.clock_settle(now);
        let game_no = m.game_no;
        self.commit(
            slot,
            &mut m,
            Change {
                after,
                played: None,
                next: None,
                write: Write::Join { game_no },
                at: now,
            },
        )
        .await?;
        Ok((side_str(m.side_of(1)), token))
    }

    /// Plays `text` for the seat's player in the game whose current position has ply `ply`
    /// (if given).
    pub async fn play(
        &self,
        slot: &Arc<Slot>,
        player: Option<usize>,
        text: &str,
        ply: Option<u32>,
    ) -> ApiResult<MoveEvent> {
        // The clock is read at the time the move arrived, not when its turn on the lock comes.
        let received = self.clock.now_ms();
        let ev = {
            let mut m = slot.m.lock().await;
            let Some(p) = player else {
                return Err(ApiError::forbidden(
                    "only the players of this game may move: your seat token is missing or wrong",
                ));
            };
            // Pass and play: the one person moves for the side to move, whichever seat their
            // socket was counted as when it connected.
            let p = if m.local() {
                m.to_move().unwrap_or(p)
            } else {
                p
            };
            if m.read_only {
                return Err(ApiError::game_over(
                    "this game is a stored record; nobody moves in it",
                ));
            }
            // A move names the ply it was made in: a retried request whose ply was already
            // played is refused as stale before anything else is judged (docs/api.md, "JSON API", the moves).
            let now_ply = m.game.position().ply();
            if let Some(q) = ply {
                if q != now_ply {
                    return Err(ApiError::conflict(format!(
                        "the move was made for ply {q}, but the game is at ply {now_ply}"
                    )));
                }
            }
            if m.game_over() {
                let why = m.result().1.unwrap_or_default();
                return Err(ApiError::game_over(format!("the game is over: {why}")));
            }
            let side = m.game.position().side();
            if m.side_of(p) != side {
                return Err(ApiError::not_your_turn(format!(
                    "it is {}'s turn, and you play {}",
                    side.name(),
                    m.side_of(p).name()
                )));
            }
            if text.len() > 32 {
                return Err(ApiError::of(
                    Category::BadMove,
                    "a move is a few characters, such as A7L*",
                ));
            }
            let lm = find_move(m.game.position(), &m.rules, text)?;
            // A move is accepted only while the mover's clock has time left.
            if m.clock_running() == Some(p) && m.time_left(p, received).is_some_and(|l| l <= 0) {
                let flagged = self.flag_locked(slot, &mut m).await;
                drop(m);
                if flagged {
                    self.schedule_computer(slot.clone());
                }
                return Err(ApiError::game_over(
                    "your time ran out before the move arrived; the game is lost on time",
                ));
            }
            self.apply_locked(slot, &mut m, lm, received).await?
        };
        self.schedule_computer(slot.clone());
        Ok(ev)
    }

    /// Plays a legal move of the current position, made at `at` (ms; the mover's clock is
    /// charged up to then).
    pub(crate) async fn apply_locked(
        &self,
        slot: &Arc<Slot>,
        m: &mut Match,
        lm: bao_rules::LegalMove,
        at: i64,
    ) -> ApiResult<MoveEvent> {
        let before = *m.game.position();
        let mover = m.player_on(before.side());
        let mut after = m.clone();
        // The mover's clock is charged before the turn passes (docs/api.md, "Clocks").
        after.clock = m.clock_after_move(mover, at);
        after.game.play(&lm);
        let outcome = after.game.outcome();
        let ev = move_event(&before, &m.rules, &lm, outcome.token());
        let ended = Ending::of_outcome(outcome).map(|e| m.transition(e));
        after.updated = self.clock.now_ms();
        let next = ended.clone().and_then(|t| after.record_end(t));
        after.clock_settle(at);
        let game_no = m.game_no;
        self.commit(
            slot,
            m,
            Change {
                after,
                played: Some(ev.clone()),
                next,
                write: Write::Move {
                    game_no,
                    mv: ev.clone(),
                    ended,
                },
                at,
            },
        )
        .await?;
        Ok(ev)
    }

    /// Resigns game `game_no` of the match for `player`, at ply `ply`: a resignation names
    /// the game and position it was made in, so one sent while the opponent's move ended that
    /// game is refused (409 `conflict`) instead of landing on the next game of the match.
    pub async fn resign(
        &self,
        slot: &Arc<Slot>,
        player: Option<usize>,
        game_no: u32,
        ply: u32,
    ) -> ApiResult<String> {
        let out = {
            let mut m = slot.m.lock().await;
            let Some(p) = player else {
                return Err(ApiError::forbidden(
                    "only a player of this game may resign: your seat token is missing or wrong",
                ));
            };
            let p = if m.local() {
                m.to_move().unwrap_or(p)
            } else {
                p
            };
            if m.read_only {
                return Err(ApiError::game_over("the game is already over"));
            }
            if game_no != m.game_no {
                return Err(ApiError::conflict(format!(
                    "the resignation was for game {game_no} of the match, but game {} is being played; nothing was changed",
                    m.game_no
                )));
            }
            if m.game_over() {
                return Err(ApiError::game_over("the game is already over"));
            }
            let now_ply = m.game.position().ply();
            if ply != now_ply {
                return Err(ApiError::conflict(format!(
                    "the resignation was made at ply {ply}, but the game is at ply {now_ply}; nothing was changed"
                )));
            }
            let result = RecordResult::Win(m.side_of(p).other());
            let change = forced_end(
                &m,
                result,
                Termination::Resignation,
                self.clock.now_ms(),
                false,
                |t| Write::End { game_no, t },
            );
            self.commit(slot, &mut m, change).await?;
            state_string(&m, Some(p), slot.connected(), slot.now_ms())
        };
        self.schedule_computer(slot.clone());
        Ok(out)
    }

    /// Ends the match in `slot` by forfeit of `player`, who has not made their first move
    /// (a tournament round's forfeit time, docs/api.md "Tournaments"): the opponent wins the
    /// game and the match ends there. NOT-6.2 has no "forfeit": the record says
    /// `Termination "abandoned"` (the nearest: the player did not play), and the GameState's
    /// ending says `forfeit`. Only while `player` is to move in game 1 without a move of
    /// theirs, and only if the match is unchanged since `seen` (its `updated`): the store's
    /// condition makes it exactly once across instances, and a move that came first wins.
    /// Returns whether this call ended it.
    pub async fn forfeit(&self, slot: &Arc<Slot>, player: usize) -> ApiResult<bool> {
        let mut m = slot.m.lock().await;
        if m.read_only || m.finished || m.game_over() || m.game_no != 1 || m.local() {
            return Ok(false);
        }
        let ply = m.game.position().ply();
        let side = m.game.position().side();
        // The player to move has not moved yet: South at ply 0, North at ply 1 (a Bao move
        // is one ply).
        let first = match side {
            Side::South => ply == 0,
            Side::North => ply <= 1,
        };
        if m.to_move() != Some(player) || m.side_of(player) != side || !first {
            return Ok(false);
        }
        let result = RecordResult::Win(side.other());
        let now = self.clock.now_ms();
        let seen = m.updated;
        let game_no = m.game_no;
        let mut t = m.transition(Ending::forfeit(side.other()));
        t.match_over = true;
        t.next = None;
        let mut after = m.clone();
        after.forced = Some((result, Termination::Abandoned));
        after.updated = now;
        let next = after.record_end(t.clone());
        after.clock_settle(now);
        let change = Change {
            after,
            played: None,
            next,
            write: Write::Abandon { game_no, seen, t },
            at: now,
        };
        match self.commit(slot, &mut m, change).await {
            Ok(()) => Ok(true),
            // A move, another instance or the clock came first: memory is up to date.
            Err(super::commit::CommitError::Conflict(_)) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// `player` of the match in `slot` goes berserk (docs/api.md, "Arenas"; the arena
    /// feature decides who may): their time is halved and they get no increment
    /// ([`crate::domain::clock::ClockState::go_berserk`]). Only in game 1 of a live real-time
    /// match before the player's first move, once; through the one write path, so that its
    /// viewers see the new clock and the store's condition (the ply unchanged) lets a move
    /// that came first win. Returns whether this call did it.
    pub async fn berserk(&self, slot: &Arc<Slot>, player: usize) -> ApiResult<bool> {
        let mut m = slot.m.lock().await;
        let Some(clock) = m.clock else {
            return Ok(false);
        };
        let live = !(m.read_only || m.finished || m.game_over() || m.local());
        let real = matches!(clock.control, TimeControl::Real { .. });
        if !live || !real || m.game_no != 1 || player > 1 || clock.berserk[player] {
            return Ok(false);
        }
        let ply = m.game.position().ply();
        // Before the player's first move: South moves at ply 0, North at ply 1.
        let first = match m.side_of(player) {
            Side::South => ply == 0,
            Side::North => ply <= 1,
        };
        if !first {
            return Ok(false);
        }
        let now = self.clock.now_ms();
        let mut after = m.clone();
        after.clock = Some(clock.go_berserk(player));
        after.updated = now;
        let change = Change {
            after,
            played: None,
            next: None,
            write: Write::Berserk {
                game_no: m.game_no,
                ply,
                player,
            },
            at: now,
        };
        match self.commit(slot, &mut m, change).await {
            Ok(()) => Ok(true),
            // A move or another instance came first: memory is up to date.
            Err(super::commit::CommitError::Conflict(_)) => Ok(false),
            Err(e) => Err(e.into()),
        }
    }

    /// The GameState of the locked match `m` for `viewer`, as JSON text (the answer of an
    /// operation that changed it).
    pub fn state_text(&self, slot: &Slot, m: &Match, viewer: Option<usize>) -> String {
        state_string(m, viewer, slot.connected(), slot.now_ms())
    }

    /// The GameState for `viewer`, as JSON text.
    pub async fn state(&self, seat: &super::Seat) -> ApiResult<String> {
        let m = seat.slot.m.lock().await;
        let viewer = seat.player;
        Ok(state_string(
            &m,
            viewer,
            seat.slot.connected(),
            seat.slot.now_ms(),
        ))
    }

    /// The GameState of an earlier game of the match (`game_no` below the current one).
    pub async fn past_state(&self, seat: &super::Seat, game_no: u32) -> ApiResult<String> {
        let slot = &seat.slot;
        let (mut view, viewer, connected) = {
            let m = slot.m.lock().await;
            let viewer = seat.player;
            if game_no == m.game_no {
                return Ok(state_string(&m, viewer, slot.connected(), slot.now_ms()));
            }
            let Some(r) = m.past.iter().find(|r| r.game_no == game_no).cloned() else {
                return Err(ApiError::not_found(format!(
                    "game {game_no} of this match has not been played"
                )));
            };
            let mut v = m.clone();
            v.current = r;
            (v, viewer, slot.connected())
        };
        let moves = self.store.round_moves(&view.id, game_no).await?;
        let (game, events) =
            Match::replay(view.current.start, view.rules, &moves).map_err(ApiError::internal)?;
        view.game = game;
        view.moves = events.into();
        view.game_no = game_no;
        view.forced = forced_of(view.current.result, view.current.termination);
        // Nobody moves in a finished game.
        view.read_only = true;
        view.past.retain(|r| r.game_no < game_no);
        Ok(state_string(&view, viewer, connected, self.clock.now_ms()))
    }

    /// The record file of every game of the match (NOT-6).
    pub async fn record(&self, slot: &Slot) -> ApiResult<String> {
        let (id, rules, format, created) = {
            let m = slot.m.lock().await;
            (m.id.clone(), m.rules, m.format, m.created)
        };
        let rounds = self.store.rounds_with_moves(&id, &rules).await?;
        let date = util::record_date(created);
        let mut out = String::new();
        for (r, moves) in &rounds {
            let (game, _) = Match::replay(
                r.start,
                rules,
                &moves.iter().map(|m| (m.clone(), None)).collect::<Vec<_>>(),
            )
            .map_err(ApiError::internal)?;
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(&write_record(&RecordOut {
                rules: &rules,
                start: &r.start,
                south: &r.south,
                north: &r.north,
                date: &date,
                result: r.result,
                termination: r.termination,
                round: (format == MatchFormat::BestOfThree).then_some(r.game_no),
                moves: game.moves(),
            }));
        }
        Ok(out)
    }
}

/// The change that ends the current game of `m` with `result` by `termination` at `now`
/// (a resignation, a loss on time, an abandoned match): `write` makes the store's write from
/// the game's transition; `ends_match` ends the match there, whatever its format (nobody is
/// left to play the next game).
pub(crate) fn forced_end(
    m: &Match,
    result: RecordResult,
    termination: Termination,
    now: i64,
    ends_match: bool,
    write: impl FnOnce(crate::domain::model::Transition) -> Write,
) -> Change {
    // Callers end a game by resignation, time or abandonment, which always have an ending.
    let ending = Ending::forced(result, termination).unwrap_or(Ending {
        reason: EndReason::Closed,
        winner: None,
    });
    let mut t = m.transition(ending);
    if ends_match {
        t.match_over = true;
        t.next = None;
    }
    let mut after = m.clone();
    after.forced = Some((result, termination));
    after.updated = now;
    let next = after.record_end(t.clone());
    after.clock_settle(now);
    Change {
        after,
        played: None,
        next,
        write: write(t),
        at: now,
    }
}
