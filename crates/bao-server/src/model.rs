//! A game id's live state in memory: the match (BRD-8), its players and the current game.
//!
//! Everything here is decided by the rules crate; this module only keeps the history and
//! turns it into the contract's JSON (docs/api.md).

use crate::record::forced_text;
use bao_rules::{legal_moves, trace, Game, LegalMove, MatchFormat, Position, Rules, Side, Variant};
use serde::Serialize;
use serde_json::{json, Value};

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

/// One move as the clients see it (docs/api.md, MoveEvent).
#[derive(Clone, Debug, Serialize)]
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
    /// `-` while going on.
    pub result: String,
    /// How it ended, for people.
    pub result_text: Option<String>,
    /// `rules` (or `None`), `resignation`, ...
    pub termination: Option<String>,
}

/// What ending the current game changes in the match.
#[derive(Clone, Debug)]
pub struct Transition {
    /// The finished game's result token, sentence and termination.
    pub result: String,
    /// Sentence.
    pub result_text: String,
    /// `None` for `rules`.
    pub termination: Option<String>,
    /// Wins per player after the game.
    pub wins: [u32; 2],
    /// The match is decided.
    pub match_over: bool,
    /// The next game, when the match goes on.
    pub next: Option<Round>,
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
    pub moves: Vec<MoveEvent>,
    /// Set when the current game ended other than by the rules: (result, termination).
    pub forced: Option<(String, String)>,
    /// Creation time (ms since the epoch).
    pub created: i64,
    /// Last change (ms).
    pub updated: i64,
    /// The computer is thinking about the current position (not stored).
    pub thinking: bool,
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

fn side_json(s: Side) -> &'static str {
    match s {
        Side::South => "S",
        Side::North => "N",
    }
}

impl Match {
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

    /// The current game's result token and sentence.
    pub fn result(&self) -> (String, Option<String>) {
        if let Some((r, t)) = &self.forced {
            return (r.clone(), Some(forced_text(r, t)));
        }
        let o = self.game.outcome();
        if o.is_over() {
            (o.token().to_string(), Some(o.describe()))
        } else {
            ("-".to_string(), None)
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

    /// What ending the current game with `result` changes (BRD-8.1, BRD-8.3).
    pub fn transition(
        &self,
        result: &str,
        result_text: String,
        termination: Option<String>,
    ) -> Transition {
        let mut wins = self.wins;
        if let Some(side) = Side::from_letter(result) {
            wins[self.player_on(side)] += 1;
        }
        let match_over = match self.format {
            MatchFormat::SingleGame => true,
            MatchFormat::BestOfThree => wins.iter().any(|&w| w >= 2) || self.game_no >= 5,
        };
        let next = (!match_over).then(|| {
            let n = self.game_no + 1;
            let (south, north) = self.names_in(n);
            Round {
                game_no: n,
                start: self.start,
                south,
                north,
                result: "-".into(),
                result_text: None,
                termination: None,
            }
        });
        Transition {
            result: result.to_string(),
            result_text,
            termination,
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
        self.moves.clear();
        self.forced = None;
    }

    /// The match's result, keyed by the sides of the current game: `S`, `N`, `draw`, or null.
    fn match_winner(&self) -> Value {
        // A match closed before any move (abandoned, Result `-`) has no winner.
        if !self.finished || self.forced.as_ref().is_some_and(|(r, _)| r == "-") {
            return Value::Null;
        }
        match self.wins[0].cmp(&self.wins[1]) {
            std::cmp::Ordering::Greater => json!(side_json(self.side_of(0))),
            std::cmp::Ordering::Less => json!(side_json(self.side_of(1))),
            std::cmp::Ordering::Equal => json!("draw"),
        }
    }

    /// The contract's GameState for `viewer` (player index, or `None` for a spectator).
    /// `connected` tells, per player, whether a browser of theirs is connected.
    pub fn state(&self, viewer: Option<usize>, connected: [bool; 2], svg: &str) -> Value {
        let pos = self.game.position();
        let (result, result_text) = self.result();
        let player = |p: usize| {
            let pl = &self.players[p];
            json!({
                "kind": pl.kind.as_str(),
                "name": pl.name,
                "level": pl.level,
                "connected": pl.kind == PlayerKind::Computer || connected[p],
            })
        };
        let ps = self.player_on(Side::South);
        let legal: Vec<Value> = if self.to_move().is_some() {
            self.game
                .legal_moves()
                .iter()
                .map(|m| {
                    json!({
                        "move": m.mv.to_string(),
                        "pit": m.mv.pit().name(m.mv.side()).to_string(),
                        "letter": m.mv.letter().map(|l| l.as_char().to_string()),
                        "safari": m.mv.is_safari(),
                        "takasa": m.mv.is_takasa(),
                    })
                })
                .collect()
        } else {
            Vec::new()
        };
        let games: Vec<Value> = self
            .past
            .iter()
            .chain(self.game_over().then_some(&self.current))
            .map(|r| {
                json!({"game_no": r.game_no, "result": r.result, "result_text": r.result_text,
                       "south": r.south, "north": r.north})
            })
            .collect();
        json!({
            "id": self.id,
            "variant": self.rules.variant.id(),
            "rules": self.rules.to_string(),
            "start": self.game.start().to_string(),
            "position": pos.to_string(),
            "ply": pos.ply(),
            "side_to_move": side_json(pos.side()),
            "result": result,
            "result_text": result_text,
            "termination": self.forced.as_ref().map(|f| f.1.clone()),
            "read_only": self.read_only,
            "players": {"S": player(ps), "N": player(1 - ps)},
            "you": viewer.map(|p| side_json(self.side_of(p))),
            "invite": if viewer == Some(0) { self.invite.clone() } else { None },
            "match": {
                "format": self.format.as_str(),
                "game_no": self.game_no,
                "wins": {"S": self.wins[ps], "N": self.wins[1 - ps]},
                "over": self.finished,
                "winner": self.match_winner(),
                "games": games,
            },
            "stage": stage(pos),
            "block": pos.block().map(|s| s.to_string()),
            "must": pos.must().map(|s| s.to_string()),
            "moves": self.moves,
            "legal": legal,
            "svg": svg,
            "updated": self.updated,
        })
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
