//! A game id's live state in memory: the match (BRD-8), its players and the current game.
//!
//! Everything here is decided by the rules crate; this module only keeps the history and
//! turns it into the contract's JSON (docs/api.md).

pub use super::clock::{
    ClockState, ClockView, TimeControl, DAY_MS, MAX_DAYS, MAX_INCREMENT_MS, MAX_INITIAL_MS,
    MIN_INITIAL_MS,
};
use super::ending::Ending;
use super::rating::Shown;
use bao_rules::{
    legal_moves, trace, Game, LegalMove, MatchFormat, Position, RecordResult, Rules, Side,
    Termination, Variant,
};
use serde::{Deserialize, Serialize, Serializer};
use std::sync::Arc;

/// Who plays a seat.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum PlayerKind {
    /// A person with a seat token.
    Human,
    /// The engine, played by the server.
    Computer,
}

impl PlayerKind {
    /// `human` or `computer`.
    pub fn as_str(self) -> &'static str {
        match self {
            PlayerKind::Human => "human",
            PlayerKind::Computer => "computer",
        }
    }
    /// Inverse of [`PlayerKind::as_str`].
    pub fn parse(s: &str) -> Option<PlayerKind> {
        match s {
            "human" => Some(PlayerKind::Human),
            "computer" => Some(PlayerKind::Computer),
            _ => None,
        }
    }
}

/// One of the two players of a match. Player 0 created the game.
#[derive(Clone, Debug)]
pub struct Player {
    /// Person or computer.
    pub kind: PlayerKind,
    /// Display name.
    pub name: String,
    /// The computer's level.
    pub level: Option<u8>,
    /// SHA-256 of the seat token; `None` while a human seat is open (or for the computer).
    pub token_hash: Option<String>,
}

/// The account that holds a seat of a match (docs/api.md, "Ratings").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatAccount {
    /// The account's id (never shown).
    pub id: String,
    /// Its name.
    pub username: String,
    /// Its rating in the match's variant as last read or updated.
    pub rating: Shown,
}

/// A seat's account as GameState shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct AccountView {
    /// The account's name.
    pub username: String,
    /// Its rating in the variant, rounded.
    pub rating: i32,
    /// The rating is provisional (deviation above 110).
    pub provisional: bool,
}

/// A rematch asked for by one player of a finished match, which the other accepts or
/// declines (docs/api.md, "Play: rematch"). Only an accepted offer makes a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RematchOffer {
    /// The player who asked.
    pub by: usize,
    /// When it lapses (ms since the epoch).
    pub until: i64,
    /// The asker had the game open when asking: the offer lapses when they leave it.
    pub watching: bool,
    /// The other player declined it.
    pub declined: bool,
}

impl RematchOffer {
    /// Whether the offer still stands at `now`, given per player whether a browser of
    /// theirs has the game open.
    pub fn stands(&self, now: i64, connected: [bool; 2]) -> bool {
        !self.declined && now < self.until && (!self.watching || connected[self.by])
    }
}

/// Where a rematch stands, as GameState shows it.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum RematchStatus {
    /// Asked for, waiting for the other player's answer.
    Offered,
    /// The other player said no.
    Declined,
    /// Accepted: the new game exists.
    Made,
}

/// A rematch offered, declined or made (docs/api.md, "Play: rematch").
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct RematchView {
    /// Where it stands.
    pub status: RematchStatus,
    /// The side (in this game) of the player who asked for it.
    pub by: &'static str,
    /// The new game's id, once made.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub id: Option<String>,
    /// While offered: how long the offer still stands (ms).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub expires_in_ms: Option<i64>,
}

/// What kind of event a game belongs to (docs/api.md, GameState `event`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EventKind {
    /// A game of a tournament's round (docs/api.md, "Tournaments").
    Tournament,
    /// A game of an arena (docs/api.md, "Arenas").
    Arena,
    /// A board of a team match (docs/api.md, "Team matches"): its `round` is the board.
    TeamMatch,
}

impl EventKind {
    /// The kind as GameState and the database write it: `tournament`, `arena`.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Tournament => "tournament",
            EventKind::Arena => "arena",
            EventKind::TeamMatch => "team_match",
        }
    }

    /// Inverse of [`EventKind::as_str`].
    pub fn parse(s: &str) -> Option<EventKind> {
        match s {
            "tournament" => Some(EventKind::Tournament),
            "arena" => Some(EventKind::Arena),
            "team_match" => Some(EventKind::TeamMatch),
            _ => None,
        }
    }

    /// The event's page.
    pub fn url(self, id: &str) -> String {
        match self {
            EventKind::Tournament => format!("/t/{id}"),
            EventKind::Arena => format!("/a/{id}"),
            EventKind::TeamMatch => format!("/m/{id}"),
        }
    }
}

/// The event a game was made for (a tournament's round), as the feature that made it named
/// it: kept with the game from its creation, so that its page can name the event and link
/// back to it without the game core knowing the feature.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEvent {
    /// Which kind of event.
    pub kind: EventKind,
    /// The event's id (a tournament id).
    pub id: String,
    /// Its name when the game was made.
    pub name: String,
    /// The round of the event the game belongs to, if the event has rounds.
    pub round: Option<u32>,
}

/// A game's event as GameState shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct EventView {
    /// `tournament`, `arena`, `team_match`.
    pub kind: &'static str,
    /// The event's id.
    pub id: String,
    /// Its name.
    pub name: String,
    /// The round, if any.
    pub round: Option<u32>,
    /// The event's page.
    pub url: String,
}

impl GameEvent {
    /// The GameState view.
    pub fn view(&self) -> EventView {
        EventView {
            kind: self.kind.as_str(),
            id: self.id.clone(),
            name: self.name.clone(),
            round: self.round,
            url: self.kind.url(&self.id),
        }
    }
}

/// One move as the clients see it (docs/api.md, MoveEvent).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct MoveEvent {
    /// Ply of the position after the move.
    pub ply: u32,
    /// Canonical move (NOT-1).
    #[serde(rename = "move")]
    pub mv: String,
    /// `S` or `N`.
    pub by: String,
    /// The CLI-5 event lines.
    pub events: Vec<String>,
    /// The position after the move (NOT-3).
    pub position: String,
    /// The game's result after the move, with repetition: `-`, `S`, `N`, `draw`.
    pub result: String,
}

/// A pair keyed by the sides of the current game: `{"S": .., "N": ..}`.
#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq)]
pub struct BySide<T> {
    /// South's.
    #[serde(rename = "S")]
    pub south: T,
    /// North's.
    #[serde(rename = "N")]
    pub north: T,
}

/// A player as the GameState shows it.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct PlayerView {
    /// `human` or `computer`.
    pub kind: &'static str,
    /// Display name.
    pub name: String,
    /// The computer's level.
    pub level: Option<u8>,
    /// A browser of this player is connected (always true for the computer).
    pub connected: bool,
}

/// A finished game of the match.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameSummary {
    /// 1-based number in the match.
    pub game_no: u32,
    /// `S`, `N`, `draw` (or `-` for an unfinished uploaded record).
    #[serde(serialize_with = "token")]
    pub result: RecordResult,
    /// How it ended, in English for API clients (pages use `ending`).
    pub result_text: Option<String>,
    /// How it ended, typed (docs/api.md, "Endings").
    pub ending: Option<Ending>,
    /// South's name in that game.
    pub south: String,
    /// North's name in that game.
    pub north: String,
    /// A rated game once rated: each side's rating change (sides of that game).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rating_change: Option<BySide<i32>>,
}

/// The match part of a GameState (BRD-8).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MatchView {
    /// `single_game` or `best_of_three`.
    pub format: &'static str,
    /// The current game's number.
    pub game_no: u32,
    /// Wins per side of the current game.
    pub wins: BySide<u32>,
    /// The match is decided.
    pub over: bool,
    /// `S`, `N` or `draw` once the match is over.
    pub winner: Option<&'static str>,
    /// The finished games (with the current one once it is over).
    pub games: Vec<GameSummary>,
}

/// One legal move of the side to move, with the parts the page's chooser needs.
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct LegalView {
    /// Canonical move (NOT-1).
    #[serde(rename = "move")]
    pub mv: String,
    /// Start pit in the mover's case.
    pub pit: String,
    /// `L`, `R`, or `None` (kimasai).
    pub letter: Option<String>,
    /// Plays the house (NOT-1.3).
    pub safari: bool,
    /// A takasa move.
    pub takasa: bool,
}

/// The contract's GameState (docs/api.md).
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct GameState {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: &'static str,
    /// Option string (OPT-1).
    pub rules: String,
    /// Start position of the current game.
    pub start: String,
    /// Current position (NOT-3).
    pub position: String,
    /// Its ply.
    pub ply: u32,
    /// `S` or `N`.
    pub side_to_move: &'static str,
    /// `-`, `S`, `N`, `draw`.
    #[serde(serialize_with = "token")]
    pub result: RecordResult,
    /// How the game ended, in English for API clients (pages use `ending`).
    pub result_text: Option<String>,
    /// How the game ended, typed (docs/api.md, "Endings"); `None` while it goes on.
    pub ending: Option<Ending>,
    /// `resignation`, ...; `None` when the rules ended the game.
    #[serde(serialize_with = "termination_text")]
    pub termination: Option<Termination>,
    /// Nobody moves (uploaded records, earlier games).
    pub read_only: bool,
    /// The players, by their side in the current game.
    pub players: BySide<PlayerView>,
    /// The viewer's side.
    pub you: Option<&'static str>,
    /// Invite code, only to the creator while the seat is open.
    pub invite: Option<String>,
    /// The match.
    #[serde(rename = "match")]
    pub match_: MatchView,
    /// `namua`, `mtaji`, `nemo`, `phase1`, `phase2`.
    pub stage: &'static str,
    /// The blocked pit (takasia), if any.
    pub block: Option<String>,
    /// The pit the first capture must take, if any.
    pub must: Option<String>,
    /// The current game's moves.
    pub moves: Vec<MoveEvent>,
    /// Legal moves of the side to move.
    pub legal: Vec<LegalView>,
    /// The clocks (docs/api.md, "Clocks"), `None` for a game without a clock.
    pub clock: Option<ClockView>,
    /// Pass and play: one person plays both sides on one device.
    pub local: bool,
    /// The rematch, once a player asked for it.
    pub rematch: Option<RematchView>,
    /// The match is rated (docs/api.md, "Ratings").
    pub rated: bool,
    /// A rated match: each side's account with its current rating.
    pub accounts: Option<BySide<Option<AccountView>>>,
    /// A rated game once rated: each side's rating change (rounded after minus before).
    pub rating_change: Option<BySide<i32>>,
    /// The event the game belongs to (a tournament's round), `None` for a game on its own.
    pub event: Option<EventView>,
    /// The board picture (bao-render), last move marked; `None` on the WebSocket, where the
    /// page keeps its board from positions (a big first message would also stay allocated
    /// in the socket's write buffer for as long as the socket lives).
    pub svg: Option<String>,
    /// Last change (ms since the epoch).
    pub updated: i64,
}

/// What a committed move changes, as every viewer gets it over the WebSocket: no picture,
/// no move list (docs/api.md, "WebSocket").
#[derive(Clone, Debug, Serialize, PartialEq, Eq)]
pub struct MoveFrame {
    /// Version: one more than the message before it.
    pub v: u64,
    /// The move.
    #[serde(rename = "move")]
    pub mv: MoveEvent,
    /// `S` or `N` after the move.
    pub side_to_move: &'static str,
    /// Stage after the move.
    pub stage: &'static str,
    /// Blocked pit after the move.
    pub block: Option<String>,
    /// Pit the next first capture must take.
    pub must: Option<String>,
    /// The next legal moves in canonical notation, only to the player now to move (empty
    /// for everyone else): pit, letter, safari and takasa follow from NOT-1.
    pub legal: Vec<String>,
    /// Last change (ms).
    pub updated: i64,
    /// Only when the move ended the game: how, in English for API clients.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result_text: Option<String>,
    /// Only when the move ended the game: how, typed (docs/api.md, "Endings").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ending: Option<Ending>,
    /// Only in a game with a clock: the clocks after the move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub clock: Option<ClockView>,
    /// Only when the move ended the game: the match with its new score.
    #[serde(rename = "match", skip_serializing_if = "Option::is_none")]
    pub match_: Option<MatchView>,
}

/// A game of the match.
#[derive(Clone, Debug)]
pub struct Round {
    /// 1-based number in the match.
    pub game_no: u32,
    /// Start position.
    pub start: Position,
    /// South's name in this game.
    pub south: String,
    /// North's name in this game.
    pub north: String,
    /// Unfinished while going on.
    pub result: RecordResult,
    /// How it ended, in English for API clients.
    pub result_text: Option<String>,
    /// `rules` (or `None`), `resignation`, ...
    pub termination: Option<Termination>,
    /// How it ended, typed.
    pub ending: Option<Ending>,
    /// A rated game once rated: each player's rating change (0 = the creator).
    pub rating_change: Option<[i32; 2]>,
}

impl Round {
    /// Game `game_no` of a match, not yet played, from `start`.
    pub fn new(game_no: u32, start: Position, (south, north): (String, String)) -> Round {
        Round {
            game_no,
            start,
            south,
            north,
            result: RecordResult::Unfinished,
            result_text: None,
            termination: None,
            ending: None,
            rating_change: None,
        }
    }
}

/// What ending the current game changes in the match.
#[derive(Clone, Debug)]
pub struct Transition {
    /// The finished game's result.
    pub result: RecordResult,
    /// How it ended.
    pub ending: Ending,
    /// Its sentence in English (the API's `result_text`).
    pub result_text: String,
    /// `None` for `rules`.
    pub termination: Option<Termination>,
    /// Wins per player after the game.
    pub wins: [u32; 2],
    /// The match is decided.
    pub match_over: bool,
    /// The next game, when the match goes on.
    pub next: Option<Round>,
}

/// The moves of the current game with their events, shared between copies of a match: a
/// change is built on a copy (see the game core's `Change`), and copying must not copy every
/// event line of the game.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Moves(Arc<Vec<MoveEvent>>);

impl Moves {
    /// Appends a move (copies the list only if another copy of the match still shares it).
    pub fn push(&mut self, ev: MoveEvent) {
        Arc::make_mut(&mut self.0).push(ev);
    }
}

impl From<Vec<MoveEvent>> for Moves {
    fn from(v: Vec<MoveEvent>) -> Moves {
        Moves(Arc::new(v))
    }
}

impl std::ops::Deref for Moves {
    type Target = [MoveEvent];
    fn deref(&self) -> &[MoveEvent] {
        &self.0
    }
}

/// What a new match is made of; everything else starts empty ([`Match::new`]).
#[derive(Clone, Debug)]
pub struct NewMatch {
    /// Game id.
    pub id: String,
    /// Rules, including the match format.
    pub rules: Rules,
    /// Start position of each game.
    pub start: Position,
    /// The side player 0 plays in game 1.
    pub first_side: Side,
    /// Players 0 (creator) and 1.
    pub players: [Player; 2],
    /// Invite code while player 1's seat is open.
    pub invite: Option<String>,
    /// The time control, if any.
    pub clock: Option<TimeControl>,
    /// Creation time (ms since the epoch).
    pub now: i64,
    /// The match is rated (docs/api.md, "Ratings").
    pub rated: bool,
    /// The account holding each seat, if any.
    pub accounts: [Option<SeatAccount>; 2],
}

/// A game id's state.
#[derive(Clone, Debug)]
pub struct Match {
    /// Game id.
    pub id: String,
    /// Rules, including the match format.
    pub rules: Rules,
    /// Start position of each game.
    pub start: Position,
    /// Single game or best of three.
    pub format: MatchFormat,
    /// An uploaded record: nobody moves.
    pub read_only: bool,
    /// The side player 0 plays in game 1.
    pub first_side: Side,
    /// Players 0 (creator) and 1.
    pub players: [Player; 2],
    /// Invite code while player 1's seat is open.
    pub invite: Option<String>,
    /// Current game number (1-based).
    pub game_no: u32,
    /// Wins per player.
    pub wins: [u32; 2],
    /// The match is decided.
    pub finished: bool,
    /// Finished games before the current one.
    pub past: Vec<Round>,
    /// The current game's round data.
    pub current: Round,
    /// The current game.
    pub game: Game,
    /// Its moves with their events.
    pub moves: Moves,
    /// Set when the current game ended other than by the rules: (result, termination).
    pub forced: Option<(RecordResult, Termination)>,
    /// Creation time (ms since the epoch).
    pub created: i64,
    /// Last change (ms).
    pub updated: i64,
    /// The clocks, if the match has a time control.
    pub clock: Option<ClockState>,
    /// The rematch's id and the player who asked for it first.
    pub rematch: Option<(String, usize)>,
    /// The rematch asked for and not (yet) made.
    pub rematch_offer: Option<RematchOffer>,
    /// The stored version: one more with every change the database commits. A copy read
    /// from the database is newer than the one in memory only if its version is higher
    /// (docs/architecture.md, "One write path").
    pub version: i64,
    /// The match is rated (docs/api.md, "Ratings").
    pub rated: bool,
    /// The account holding each seat (0 = the creator), if any.
    pub accounts: [Option<SeatAccount>; 2],
    /// The event the match was made for (set by its maker after [`Match::new`]).
    pub event: Option<GameEvent>,
}

/// The stage names of the contract, from the variant and the position (KIS-2, KET names, KIM-4).
pub fn stage(pos: &Position) -> &'static str {
    match pos.variant() {
        Variant::Kiswahili if pos.is_namua() => "namua",
        Variant::Kete if pos.is_namua() => "nemo",
        Variant::Kiswahili | Variant::Kete => "mtaji",
        Variant::Kimasai => {
            if pos.hand(Side::South) == 0 && pos.hand(Side::North) == 0 {
                "phase2"
            } else {
                "phase1"
            }
        }
    }
}

/// The MoveEvent of `m` played in `before`, given the game's result after it.
pub fn move_event(before: &Position, rules: &Rules, m: &LegalMove, result: &str) -> MoveEvent {
    let (events, next, _) = trace(before, rules, &m.mv);
    MoveEvent {
        ply: next.ply(),
        mv: m.mv.to_string(),
        by: m.mv.side().letter().to_string(),
        events: events.iter().map(|e| e.to_string()).collect(),
        position: next.to_string(),
        result: result.to_string(),
    }
}

/// `S` or `N`.
pub fn side_json(s: Side) -> &'static str {
    match s {
        Side::South => "S",
        Side::North => "N",
    }
}

/// Serialises a result as its token (`-`, `S`, `N`, `draw`).
fn token<S: Serializer>(r: &RecordResult, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(r.token())
}

/// Serialises a termination as NOT-6.2 writes it.
fn termination_text<S: Serializer>(t: &Option<Termination>, s: S) -> Result<S::Ok, S::Error> {
    match t {
        Some(t) => s.serialize_str(t.as_str()),
        None => s.serialize_none(),
    }
}

impl Match {
    /// A new match at its first game, nobody having moved: the one place a match is made
    /// (the store's reader and the record upload start from it too).
    pub fn new(n: NewMatch) -> Match {
        let names = |first: Side| {
            let (a, b) = (n.players[0].name.clone(), n.players[1].name.clone());
            if first == Side::South {
                (a, b)
            } else {
                (b, a)
            }
        };
        let current = Round::new(1, n.start, names(n.first_side));
        let mut m = Match {
            id: n.id,
            rules: n.rules,
            start: n.start,
            format: n.rules.match_format,
            read_only: false,
            first_side: n.first_side,
            players: n.players,
            invite: n.invite,
            game_no: 1,
            wins: [0, 0],
            finished: false,
            past: Vec::new(),
            current,
            game: Game::new(n.start, n.rules),
            moves: Moves::default(),
            forced: None,
            created: n.now,
            updated: n.now,
            clock: n.clock.map(ClockState::new),
            rematch: None,
            rematch_offer: None,
            version: 1,
            rated: n.rated,
            accounts: n.accounts,
            event: None,
        };
        m.clock_settle(n.now);
        m
    }

    /// The side player `p` plays in game `game_no` (sides change after every game, BRD-8.2).
    pub fn side_in(&self, p: usize, game_no: u32) -> Side {
        let s = if p == 0 {
            self.first_side
        } else {
            self.first_side.other()
        };
        if game_no % 2 == 1 {
            s
        } else {
            s.other()
        }
    }

    /// The side player `p` plays now.
    pub fn side_of(&self, p: usize) -> Side {
        self.side_in(p, self.game_no)
    }

    /// The player on `side` now.
    pub fn player_on(&self, side: Side) -> usize {
        if self.side_of(0) == side {
            0
        } else {
            1
        }
    }

    /// The current game's result and its English sentence.
    pub fn result(&self) -> (RecordResult, Option<String>) {
        let r = match self.forced {
            Some((r, _)) => r,
            None => self.game.outcome().into(),
        };
        (r, self.ending().map(Ending::text))
    }

    /// How the current game ended; `None` while it goes on. An ending other than by the
    /// rules is the one recorded with the game (a forfeit and an abandoned game share their
    /// Result and Termination).
    pub fn ending(&self) -> Option<Ending> {
        match self.forced {
            Some((r, t)) => self
                .current
                .ending
                .filter(|e| e.result() == r && e.termination() == Some(t))
                .or_else(|| Ending::forced(r, t)),
            None => Ending::of_outcome(self.game.outcome()),
        }
    }

    /// Pass and play: both seats belong to one token.
    pub fn local(&self) -> bool {
        self.players[0].token_hash.is_some()
            && self.players[0].token_hash == self.players[1].token_hash
    }

    /// Both seats are taken (the computer's always is): the clock may run.
    pub fn seats_taken(&self) -> bool {
        self.players[1].kind == PlayerKind::Computer || self.players[1].token_hash.is_some()
    }

    /// The player whose clock runs.
    pub fn clock_running(&self) -> Option<usize> {
        self.clock.as_ref()?.since?;
        self.to_move()
    }

    /// Player `p`'s time left at `now` (ms; negative once it has run out).
    pub fn time_left(&self, p: usize, now: i64) -> Option<i64> {
        Some(self.clock?.left_at(p, self.clock_running(), now))
    }

    /// When the running clock runs out (ms since the epoch).
    pub fn clock_deadline(&self) -> Option<i64> {
        self.clock?.deadline(self.clock_running()?)
    }

    /// The clocks after `mover` plays at `now` in the match as it stands *before* the move
    /// ([`ClockState::step`]): the mover is charged only if their clock is the one running.
    /// Every move (HTTP, socket, the computer's, pass and play, any game of a match) takes
    /// this one path, in [`crate::game::Games`]' move function.
    pub fn clock_after_move(&self, mover: usize, now: i64) -> Option<ClockState> {
        let c = self.clock?;
        Some(if self.clock_running() == Some(mover) {
            c.step(mover, now)
        } else {
            c
        })
    }

    /// After a change at `now`: the clock of the player to move runs from `now`, or no clock
    /// runs (seat open, game or match over).
    pub fn clock_settle(&mut self, now: i64) {
        let runs = self.seats_taken() && self.to_move().is_some();
        self.clock = self
            .clock
            .map(|c| if runs { c.run_from(now) } else { c.stopped() });
    }

    /// The clocks at `now`, by side of the current game.
    pub fn clock_view(&self, now: i64) -> Option<ClockView> {
        let c = self.clock.as_ref()?;
        let ps = self.player_on(Side::South);
        let left = |p: usize| self.time_left(p, now).unwrap_or(0).max(0);
        Some(ClockView {
            south: left(ps),
            north: left(1 - ps),
            running: self.clock_running().map(|p| side_json(self.side_of(p))),
            control: c.control,
        })
    }

    /// The side GameState calls the viewer's (`you`): in pass and play, the side to move,
    /// since the one person plays both.
    pub fn you(&self, p: usize) -> &'static str {
        if self.local() {
            side_json(self.game.position().side())
        } else {
            side_json(self.side_of(p))
        }
    }

    /// The rematch as GameState shows it at `now`, given who has the game open: made,
    /// declined, offered while the offer stands, else nothing.
    pub fn rematch_view(&self, now: i64, connected: [bool; 2]) -> Option<RematchView> {
        let view = |status, by: usize, id, expires_in_ms| RematchView {
            status,
            by: side_json(self.side_of(by)),
            id,
            expires_in_ms,
        };
        if let Some((id, p)) = &self.rematch {
            return Some(view(RematchStatus::Made, *p, Some(id.clone()), None));
        }
        let o = self.rematch_offer?;
        if o.declined {
            Some(view(RematchStatus::Declined, o.by, None, None))
        } else if o.stands(now, connected) {
            Some(view(
                RematchStatus::Offered,
                o.by,
                None,
                Some(o.until - now),
            ))
        } else {
            None
        }
    }

    /// The current game is over.
    pub fn game_over(&self) -> bool {
        self.forced.is_some() || self.game.outcome().is_over()
    }

    /// The player whose turn it is, if the game goes on and the match is live.
    pub fn to_move(&self) -> Option<usize> {
        if self.read_only || self.game_over() {
            return None;
        }
        Some(self.player_on(self.game.position().side()))
    }

    /// Whether the computer should move now.
    pub fn computer_to_move(&self) -> Option<u8> {
        let p = self.to_move()?;
        let pl = &self.players[p];
        (pl.kind == PlayerKind::Computer).then(|| pl.level.unwrap_or(bao_engine::MIN_LEVEL))
    }

    /// Names for a new round in `game_no`: (south, north).
    pub fn names_in(&self, game_no: u32) -> (String, String) {
        let s = if self.side_in(0, game_no) == Side::South {
            0
        } else {
            1
        };
        (
            self.players[s].name.clone(),
            self.players[1 - s].name.clone(),
        )
    }

    /// What ending the current game by `ending` changes (BRD-8.1, BRD-8.3).
    pub fn transition(&self, ending: Ending) -> Transition {
        let result = ending.result();
        let mut wins = self.wins;
        if let RecordResult::Win(side) = result {
            wins[self.player_on(side)] += 1;
        }
        let match_over = match self.format {
            MatchFormat::SingleGame => true,
            MatchFormat::BestOfThree => wins.iter().any(|&w| w >= 2) || self.game_no >= 5,
        };
        let next = (!match_over).then(|| {
            let n = self.game_no + 1;
            Round::new(n, self.start, self.names_in(n))
        });
        Transition {
            result,
            ending,
            result_text: ending.text(),
            termination: ending.termination(),
            wins,
            match_over,
            next,
        }
    }

    /// Applies a transition after it has been stored.
    pub fn apply_transition(&mut self, t: Transition) {
        let next = self.record_end(t);
        if let Some(next) = next {
            self.start_next(next);
        }
    }

    /// The first half of a transition: the finished game's result and the match score.
    /// Returns the next game to start, if the match goes on.
    pub fn record_end(&mut self, t: Transition) -> Option<Round> {
        self.current.result = t.result;
        self.current.result_text = Some(t.result_text);
        self.current.termination = t.termination;
        self.current.ending = Some(t.ending);
        self.wins = t.wins;
        self.finished = t.match_over;
        t.next
    }

    /// The second half: the next game of the match begins (sides changed, BRD-8.2).
    pub fn start_next(&mut self, next: Round) {
        let done = std::mem::replace(&mut self.current, next);
        self.past.push(done);
        self.game_no = self.current.game_no;
        self.game = Game::new(self.start, self.rules);
        self.moves = Moves::default();
        self.forced = None;
        // Every game of a match starts with full clocks.
        self.clock = self.clock.map(|c| ClockState::new(c.control));
    }

    /// The match's result, keyed by the sides of the current game: `S`, `N`, `draw`, or `None`.
    fn match_winner(&self) -> Option<&'static str> {
        // A match closed before any move (abandoned, Result `-`) has no winner.
        if !self.finished || matches!(self.forced, Some((RecordResult::Unfinished, _))) {
            return None;
        }
        Some(match self.wins[0].cmp(&self.wins[1]) {
            std::cmp::Ordering::Greater => side_json(self.side_of(0)),
            std::cmp::Ordering::Less => side_json(self.side_of(1)),
            std::cmp::Ordering::Equal => "draw",
        })
    }

    /// Per side of the current game, whether its player is connected (the computer always is).
    pub fn presence(&self, connected: [bool; 2]) -> BySide<bool> {
        // In pass and play one person holds both seats: either seat's socket is theirs.
        let local = self.local() && (connected[0] || connected[1]);
        let on = |p: usize| self.players[p].kind == PlayerKind::Computer || connected[p] || local;
        let ps = self.player_on(Side::South);
        BySide {
            south: on(ps),
            north: on(1 - ps),
        }
    }

    /// The match part of the GameState (score keyed by the current game's sides).
    pub fn match_view(&self) -> MatchView {
        let ps = self.player_on(Side::South);
        MatchView {
            format: self.format.as_str(),
            game_no: self.game_no,
            wins: BySide {
                south: self.wins[ps],
                north: self.wins[1 - ps],
            },
            over: self.finished,
            winner: self.match_winner(),
            games: self
                .past
                .iter()
                .chain(self.game_over().then_some(&self.current))
                .map(|r| GameSummary {
                    game_no: r.game_no,
                    result: r.result,
                    result_text: r.result_text.clone(),
                    ending: r.ending,
                    south: r.south.clone(),
                    north: r.north.clone(),
                    rating_change: self.rating_change_in(r),
                })
                .collect(),
        }
    }

    /// Round `r`'s rating change keyed by the sides of that game.
    pub fn rating_change_in(&self, r: &Round) -> Option<BySide<i32>> {
        let c = r.rating_change?;
        let ps = if self.side_in(0, r.game_no) == Side::South {
            0
        } else {
            1
        };
        Some(BySide {
            south: c[ps],
            north: c[1 - ps],
        })
    }

    /// A rated match's accounts by the sides of the current game (`None` for an unrated one).
    pub fn accounts_view(&self) -> Option<BySide<Option<AccountView>>> {
        if !self.rated {
            return None;
        }
        let view = |p: usize| {
            self.accounts[p].as_ref().map(|a| AccountView {
                username: a.username.clone(),
                rating: a.rating.rating,
                provisional: a.rating.provisional,
            })
        };
        let ps = self.player_on(Side::South);
        Some(BySide {
            south: view(ps),
            north: view(1 - ps),
        })
    }

    /// Whether a finished game of this rated match may still wait for its rating: the
    /// current one once over, or the one before while the next has no move yet. (A game
    /// without a move is never rated; the store's list of what is due says which had one.)
    pub fn rating_due(&self) -> bool {
        if !self.rated || self.accounts.iter().any(Option::is_none) {
            return false;
        }
        let unrated = |r: &Round| r.rating_change.is_none() && r.result != RecordResult::Unfinished;
        (self.game_over() && unrated(&self.current))
            || self
                .past
                .last()
                .is_some_and(|r| unrated(r) && self.moves.is_empty())
    }

    /// The legal moves of the side to move as the GameState lists them; empty when nobody
    /// may move (over, read-only).
    pub fn legal_views(&self) -> Vec<LegalView> {
        if self.to_move().is_none() {
            return Vec::new();
        }
        self.game
            .legal_moves()
            .iter()
            .map(|m| LegalView {
                mv: m.mv.to_string(),
                pit: m.mv.pit().name(m.mv.side()).to_string(),
                letter: m.mv.letter().map(|l| l.as_char().to_string()),
                safari: m.mv.is_safari(),
                takasa: m.mv.is_takasa(),
            })
            .collect()
    }

    /// The contract's GameState for `viewer` (player index, or `None` for a spectator).
    /// `connected` tells, per player, whether a browser of theirs is connected.
    /// `now` (ms) is the time the clocks are shown at.
    pub fn state(
        &self,
        viewer: Option<usize>,
        connected: [bool; 2],
        svg: Option<String>,
        now: i64,
    ) -> GameState {
        let pos = self.game.position();
        let (result, result_text) = self.result();
        let player = |p: usize| {
            let pl = &self.players[p];
            PlayerView {
                kind: pl.kind.as_str(),
                name: pl.name.clone(),
                level: pl.level,
                connected: pl.kind == PlayerKind::Computer
                    || connected[p]
                    || (self.local() && (connected[0] || connected[1])),
            }
        };
        let ps = self.player_on(Side::South);
        GameState {
            id: self.id.clone(),
            variant: self.rules.variant.id(),
            rules: self.rules.to_string(),
            start: self.game.start().to_string(),
            position: pos.to_string(),
            ply: pos.ply(),
            side_to_move: side_json(pos.side()),
            result,
            result_text,
            ending: self.ending(),
            termination: self.forced.map(|f| f.1),
            read_only: self.read_only,
            players: BySide {
                south: player(ps),
                north: player(1 - ps),
            },
            you: viewer.map(|p| self.you(p)),
            invite: if viewer == Some(0) {
                self.invite.clone()
            } else {
                None
            },
            match_: self.match_view(),
            stage: stage(pos),
            block: pos.block().map(|s| s.to_string()),
            must: pos.must().map(|s| s.to_string()),
            moves: self.moves.to_vec(),
            legal: self.legal_views(),
            clock: self.clock_view(now),
            local: self.local(),
            rematch: self.rematch_view(now, connected),
            rated: self.rated,
            accounts: self.accounts_view(),
            rating_change: if self.game_over() {
                self.rating_change_in(&self.current)
            } else {
                None
            },
            event: self.event.as_ref().map(GameEvent::view),
            svg,
            updated: self.updated,
        }
    }

    /// The move frame of `ev`, the last move played, as the match stands now (a game it
    /// ended is recorded, the next game of a match not yet started). `legal` is left empty:
    /// only the player to move gets it ([`Match::legal_moves_text`]).
    pub fn move_frame(&self, ev: &MoveEvent, v: u64, now: i64) -> MoveFrame {
        let pos = self.game.position();
        let over = self.game_over();
        MoveFrame {
            v,
            mv: ev.clone(),
            side_to_move: side_json(pos.side()),
            stage: stage(pos),
            block: pos.block().map(|s| s.to_string()),
            must: pos.must().map(|s| s.to_string()),
            legal: Vec::new(),
            updated: self.updated,
            result_text: if over { self.result().1 } else { None },
            ending: if over { self.ending() } else { None },
            match_: over.then(|| self.match_view()),
            clock: self.clock_view(now),
        }
    }

    /// The legal moves of the side to move in canonical notation (empty when nobody moves).
    pub fn legal_moves_text(&self) -> Vec<String> {
        if self.to_move().is_none() {
            return Vec::new();
        }
        self.game
            .legal_moves()
            .iter()
            .map(|m| m.mv.to_string())
            .collect()
    }

    /// Rebuilds the current game from stored canonical moves (start-up, other instances).
    /// Returns an error naming the first move the rules refuse (a corrupt database).
    pub fn replay(
        start: Position,
        rules: Rules,
        moves: &[(String, Option<String>)],
    ) -> Result<(Game, Vec<MoveEvent>), String> {
        let mut game = Game::new(start, rules);
        let mut events = Vec::with_capacity(moves.len());
        for (i, (mv, _)) in moves.iter().enumerate() {
            let before = *game.position();
            let list = legal_moves(&before, &rules);
            let m = *list
                .find(mv)
                .ok_or_else(|| format!("stored move {} '{mv}' is not legal", i + 1))?;
            game.play(&m);
            let r = game.outcome().token();
            events.push(move_event(&before, &rules, &m, r));
        }
        Ok((game, events))
    }
}
