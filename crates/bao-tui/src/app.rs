//! The game as a pure state machine: [`App::handle_key`] takes a key press and changes the
//! state; [`crate::ui::render`] draws it. No terminal, clock or thread in here, so tests
//! drive a whole game with key presses.

use bao_rules::{
    trace, Event, Game, LegalMove, Letter, Move, Outcome, Pit, Position, Record, RecordResult,
    Rules, Side, Square, Termination, Variant,
};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// Who plays a side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Player {
    /// A person at this keyboard.
    Human(String),
    /// The computer at this level (bao_engine::MIN_LEVEL..=MAX_LEVEL).
    Computer(u8),
}

impl Player {
    /// The name written in records and on screen.
    pub fn name(&self) -> String {
        match self {
            Player::Human(n) => n.clone(),
            Player::Computer(l) => format!("bao engine level {l}"),
        }
    }
    fn is_computer(&self) -> bool {
        matches!(self, Player::Computer(_))
    }
}

/// How a session is set up.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// The variant and its options.
    pub rules: Rules,
    /// The start position of every game (`None`: the variant's start).
    pub start: Option<Position>,
    /// The first player: plays `first_side` in game 1.
    pub player1: Player,
    /// The second player.
    pub player2: Player,
    /// The side of player 1 in game 1 (sides change after every game, BRD-8.2).
    pub first_side: Side,
    /// Play a match (the `match` option's format, BRD-8) instead of one game.
    pub is_match: bool,
    /// Animate sowings from the event stream.
    pub animate: bool,
    /// The engine level used for hints.
    pub hint_level: u8,
    /// Seed for the computer's choices.
    pub seed: u64,
}

impl PlayConfig {
    /// One game, South against the computer at `level`.
    pub fn vs_computer(rules: Rules, level: u8) -> PlayConfig {
        PlayConfig {
            rules,
            start: None,
            player1: Player::Human(default_name()),
            player2: Player::Computer(level),
            first_side: Side::South,
            is_match: false,
            animate: true,
            hint_level: bao_engine::MAX_LEVEL
                .saturating_sub(2)
                .max(bao_engine::MIN_LEVEL),
            seed: 1,
        }
    }
}

/// The user's login name, or "Player".
pub fn default_name() -> String {
    std::env::var("USER")
        .ok()
        .filter(|u| !u.is_empty() && u.len() < 40 && u.chars().all(|c| !c.is_control()))
        .unwrap_or_else(|| "Player".into())
}

/// What the key press asks of the program around the state machine.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Nothing beyond redrawing.
    None,
    /// Leave the program (the caller saves the record).
    Quit,
}

/// What the user is doing now.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Choosing a start pit with the arrow keys.
    Select,
    /// Choosing among the moves of the selected pit (direction, kichwa, stop or safari).
    Choose {
        /// The question being asked.
        question: Question,
        /// The moves still possible.
        options: Vec<Move>,
        /// The highlighted answer.
        selected: usize,
    },
    /// Typing a move in notation.
    Typing(String),
    /// Asked to confirm quitting.
    ConfirmQuit,
}

/// The question of a [`Mode::Choose`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Question {
    /// Which letter: a direction, or in a namua capture the entry kichwa.
    Letter,
    /// Stop in the house or continue (safari).
    Safari,
}

/// One finished or running game of the session.
#[derive(Clone, Debug)]
pub struct GameSlot {
    /// The game.
    pub game: Game,
    /// Player 1's side in this game.
    pub player1_side: Side,
    /// How it ended when not by the rules.
    pub termination: Option<Termination>,
}

/// An animation of one move: the board as the events change it.
#[derive(Clone, Debug)]
pub struct Animation {
    /// The move's events.
    pub events: Vec<Event>,
    /// How many have been shown.
    pub shown: usize,
    /// Counts per side and ring index, and hands, as of the events shown.
    pub rings: [[u8; 16]; 2],
    /// Hands as of the events shown.
    pub hands: [u8; 2],
    /// The seeds in the sowing hand.
    pub in_hand: u32,
    /// The pit the last event touched.
    pub at: Option<Square>,
    /// The mover.
    pub mover: Side,
}

impl Animation {
    pub(crate) fn new(before: &Position, events: Vec<Event>) -> Animation {
        let rings = [*before.ring(Side::South), *before.ring(Side::North)];
        Animation {
            events,
            shown: 0,
            rings,
            hands: [before.hand(Side::South), before.hand(Side::North)],
            in_hand: 0,
            at: None,
            mover: before.side(),
        }
    }

    /// Shows the next event; false when all have been shown.
    pub fn step(&mut self) -> bool {
        let Some(e) = self.events.get(self.shown).copied() else {
            return false;
        };
        self.shown += 1;
        // Counts are updated with saturating arithmetic: the events come from the rules,
        // but a display must never panic.
        match e {
            Event::Place(sq) => {
                let h = &mut self.hands[sq.side.index()];
                *h = h.saturating_sub(1);
                let v = &mut self.rings[sq.side.index()][sq.pit.index()];
                *v = v.saturating_add(1);
                self.at = Some(sq);
            }
            Event::Lift(sq, n) => {
                self.rings[sq.side.index()][sq.pit.index()] = 0;
                self.in_hand = u32::from(n);
                self.at = Some(sq);
            }
            Event::Tax(sq) => {
                let v = &mut self.rings[sq.side.index()][sq.pit.index()];
                *v = v.saturating_sub(2);
                self.in_hand = 2;
                self.at = Some(sq);
            }
            Event::Capture(sq, n) => {
                self.rings[sq.side.index()][sq.pit.index()] = 0;
                self.in_hand = u32::from(n);
                self.at = Some(sq);
            }
            Event::Sow(sq) => {
                let v = &mut self.rings[sq.side.index()][sq.pit.index()];
                *v = v.saturating_add(1);
                self.in_hand = self.in_hand.saturating_sub(1);
                self.at = Some(sq);
            }
            Event::Enter(sq) => self.at = Some(sq),
            _ => {}
        }
        self.shown < self.events.len()
    }

    /// The text of the last event shown.
    pub fn caption(&self) -> String {
        match self.shown.checked_sub(1).and_then(|i| self.events.get(i)) {
            Some(e) => e.to_string(),
            None => String::new(),
        }
    }
}

/// The whole state of a session.
#[derive(Clone, Debug)]
pub struct App {
    /// The set-up.
    pub config: PlayConfig,
    /// The games so far; the last is the current one.
    pub games: Vec<GameSlot>,
    /// What the user is doing.
    pub mode: Mode,
    /// The cursor: row 0 = the mover's front row, 1 = back row; column 0..8 on screen.
    pub cursor: (u8, u8),
    /// A message for the user (errors in red, see `message_is_error`).
    pub message: String,
    /// Whether `message` reports an error.
    pub message_is_error: bool,
    /// The move being animated, if any.
    pub animation: Option<Animation>,
    /// The last move played in the current game, for marking.
    pub last_move: Option<Move>,
    /// A hint computed for the current position.
    pub hint: Option<(Position, Move)>,
    /// A hint has been asked for and the caller should compute it.
    pub hint_requested: bool,
    seed: u64,
}

/// Games needed to win a best-of-three match, and the most that are played (BRD-8.1).
const MATCH_WINS: u32 = 2;
const MATCH_MAX_GAMES: usize = 5;

impl App {
    /// A new session; the first game starts at once.
    pub fn new(config: PlayConfig) -> App {
        let seed = config.seed;
        let mut app = App {
            games: Vec::new(),
            mode: Mode::Select,
            cursor: (0, 0),
            message: String::new(),
            message_is_error: false,
            animation: None,
            last_move: None,
            hint: None,
            hint_requested: false,
            seed,
            config,
        };
        app.new_game();
        app
    }

    fn new_game(&mut self) {
        let rules = self.config.rules;
        let start = self.config.start.unwrap_or_else(|| Position::start(&rules));
        let player1_side = if self.games.len() & 1 == 0 {
            self.config.first_side
        } else {
            self.config.first_side.other()
        };
        self.games.push(GameSlot {
            game: Game::new(start, rules),
            player1_side,
            termination: None,
        });
        self.last_move = None;
        self.hint = None;
        self.mode = Mode::Select;
        self.reset_cursor();
        self.message = format!(
            "Game {}: {} plays South, {} plays North.",
            self.games.len(),
            self.player(Side::South).name(),
            self.player(Side::North).name()
        );
        self.message_is_error = false;
    }

    /// The current game.
    pub fn game(&self) -> &Game {
        &self.slot().game
    }

    fn slot(&self) -> &GameSlot {
        self.games.last().expect("a session has a game")
    }

    fn slot_mut(&mut self) -> &mut GameSlot {
        self.games.last_mut().expect("a session has a game")
    }

    /// Who plays `side` in the current game.
    pub fn player(&self, side: Side) -> &Player {
        if side == self.slot().player1_side {
            &self.config.player1
        } else {
            &self.config.player2
        }
    }

    /// True when the side to move is played by a person and the game goes on.
    pub fn human_to_move(&self) -> bool {
        !self.game().outcome().is_over() && !self.player(self.game().side()).is_computer()
    }

    /// True when the computer should move now (no animation is running).
    pub fn needs_engine(&self) -> bool {
        self.animation.is_none()
            && !self.game().outcome().is_over()
            && self.player(self.game().side()).is_computer()
            && self.mode != Mode::ConfirmQuit
    }

    /// The computer's level for the side to move, if the computer plays it.
    pub fn engine_level(&self) -> Option<u8> {
        match self.player(self.game().side()) {
            Player::Computer(l) => Some(*l),
            Player::Human(_) => None,
        }
    }

    /// A seed for the next engine call; changes every call so games differ.
    pub fn next_seed(&mut self) -> u64 {
        self.seed = self
            .seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.seed
    }

    /// The board orientation: flipped (South at the top) when the only person plays North.
    pub fn flipped(&self) -> bool {
        let s = self.player(Side::South).is_computer();
        let n = self.player(Side::North).is_computer();
        s && !n
    }

    /// True when one side is played by the computer (hints and undo are offered then).
    pub fn vs_computer(&self) -> bool {
        self.config.player1.is_computer() != self.config.player2.is_computer()
    }

    /// The square under the cursor, for the side to move.
    pub fn cursor_square(&self) -> Square {
        let side = self.game().side();
        let (row, col) = self.cursor;
        let front = row == 0;
        // On screen, South's rows run A1..A8 left to right and North's a8..a1, unless
        // flipped (BRD-2.2).
        let left_to_right = (side == Side::South) != self.flipped();
        let k = if left_to_right { col + 1 } else { 8 - col };
        let pit = Pit::from_row(front, k).expect("cursor column is 0..8");
        Square { side, pit }
    }

    /// Puts the cursor on the square `sq` of the side to move (used by tests and hints).
    pub fn set_cursor_to(&mut self, sq: Square) {
        let left_to_right = (sq.side == Side::South) != self.flipped();
        let k = sq.pit.number();
        let col = if left_to_right { k - 1 } else { 8 - k };
        self.cursor = (if sq.pit.is_front() { 0 } else { 1 }, col);
    }

    fn reset_cursor(&mut self) {
        // Start on the first legal move's pit, so Enter alone plays something sensible.
        let moves = self.game().legal_moves();
        if let Some(m) = moves.iter().next() {
            let sq = m.mv.pit().name(m.mv.side());
            self.set_cursor_to(sq);
        } else {
            self.cursor = (0, 0);
        }
    }

    /// The result of the match so far: wins of player 1 and player 2, and whether it is over.
    pub fn match_score(&self) -> (u32, u32, bool) {
        let mut w = (0, 0);
        for g in &self.games {
            match self.slot_result(g) {
                RecordResult::Win(s) if s == g.player1_side => w.0 += 1,
                RecordResult::Win(_) => w.1 += 1,
                _ => {}
            }
        }
        let current_over = self.game().outcome().is_over() || self.slot().termination.is_some();
        let over = if self.is_best_of_three() {
            current_over
                && (w.0 >= MATCH_WINS || w.1 >= MATCH_WINS || self.games.len() >= MATCH_MAX_GAMES)
        } else {
            current_over
        };
        (w.0, w.1, over)
    }

    fn is_best_of_three(&self) -> bool {
        self.config.is_match
            && self.config.rules.match_format == bao_rules::MatchFormat::BestOfThree
    }

    fn slot_result(&self, g: &GameSlot) -> RecordResult {
        g.game.outcome().into()
    }

    fn set_error(&mut self, msg: impl Into<String>) {
        self.message = msg.into();
        self.message_is_error = true;
    }

    fn set_info(&mut self, msg: impl Into<String>) {
        self.message = msg.into();
        self.message_is_error = false;
    }

    /// Handles one key press.
    pub fn handle_key(&mut self, key: KeyEvent) -> Effect {
        if key.kind == KeyEventKind::Release {
            return Effect::None;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL)
            && matches!(key.code, KeyCode::Char('c') | KeyCode::Char('q'))
        {
            return Effect::Quit;
        }
        // Any key finishes a running animation and does nothing else.
        if let Some(a) = &mut self.animation {
            while a.step() {}
            self.animation = None;
            return Effect::None;
        }
        match self.mode.clone() {
            Mode::ConfirmQuit => match key.code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => Effect::Quit,
                _ => {
                    self.mode = Mode::Select;
                    self.set_info("Back to the game.");
                    Effect::None
                }
            },
            Mode::Typing(text) => {
                self.typing_key(text, key);
                Effect::None
            }
            Mode::Choose {
                question,
                options,
                selected,
            } => {
                self.choose_key(question, options, selected, key);
                Effect::None
            }
            Mode::Select => self.select_key(key),
        }
    }

    fn select_key(&mut self, key: KeyEvent) -> Effect {
        let over = self.game().outcome().is_over() || self.slot().termination.is_some();
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => {
                if over || self.game().moves().is_empty() {
                    return Effect::Quit;
                }
                self.mode = Mode::ConfirmQuit;
                self.set_info(
                    "Quit? The game so far is saved. Press y to quit, any other key to go on.",
                );
            }
            KeyCode::Char('n') if over => {
                if self.match_score().2 {
                    self.set_info("The match is over. Press q to quit.");
                } else {
                    self.new_game();
                }
            }
            KeyCode::Char('u') => self.undo(),
            KeyCode::Char('h') | KeyCode::Char('?') => {
                if !self.vs_computer() {
                    self.set_error("Hints are given only when playing the computer.");
                } else if !self.human_to_move() {
                    self.set_error("It is not your move.");
                } else {
                    self.hint_requested = true;
                    self.set_info("Thinking about a hint...");
                }
            }
            _ if over || !self.human_to_move() => {}
            KeyCode::Left => self.cursor.1 = self.cursor.1.saturating_sub(1),
            KeyCode::Right => self.cursor.1 = (self.cursor.1 + 1).min(7),
            KeyCode::Up | KeyCode::Down => {
                // The front row is the one nearer the middle of the board.
                let own_at_bottom = (self.game().side() == Side::South) != self.flipped();
                let toward_middle = if own_at_bottom {
                    key.code == KeyCode::Up
                } else {
                    key.code == KeyCode::Down
                };
                self.cursor.0 = if toward_middle { 0 } else { 1 };
            }
            KeyCode::Enter | KeyCode::Char(' ') => self.pick_pit(),
            KeyCode::Char(':') | KeyCode::Char('m') => {
                self.mode = Mode::Typing(String::new());
                self.set_info("Type a move (e.g. A7L*, 7L, b3R) and press Enter; Esc cancels.");
            }
            KeyCode::Char(c) if c.is_ascii_digit() || matches!(c, 'A' | 'B' | 'a' | 'b') => {
                self.mode = Mode::Typing(c.to_string());
                self.set_info("Type a move and press Enter; Esc cancels.");
            }
            _ => {}
        }
        Effect::None
    }

    fn typing_key(&mut self, mut text: String, key: KeyEvent) {
        match key.code {
            KeyCode::Esc => {
                self.mode = Mode::Select;
                self.set_info("");
            }
            KeyCode::Backspace => {
                text.pop();
                self.mode = Mode::Typing(text);
            }
            KeyCode::Enter => {
                self.mode = Mode::Select;
                let pos = *self.game().position();
                match bao_rules::find_move(&pos, self.game().rules(), &text) {
                    Ok(_) if self.game().outcome().is_over() => {
                        self.set_error("The game is over.");
                    }
                    Ok(m) => self.play(m),
                    Err(e) => {
                        // The game is untouched: the text was matched against the legal
                        // moves and refused. The message names the refused text; the input
                        // starts empty, so the next typing is a new move, not appended to it.
                        self.set_error(format!("{}: {e}", e.category().replace('_', " ")));
                        self.mode = Mode::Typing(String::new());
                    }
                }
            }
            KeyCode::Char(c) if c.is_ascii_graphic() && text.len() < 12 => {
                text.push(c);
                self.mode = Mode::Typing(text);
            }
            _ => self.mode = Mode::Typing(text),
        }
    }

    /// The legal moves from the pit under the cursor.
    fn moves_from_cursor(&self) -> Vec<LegalMove> {
        let sq = self.cursor_square();
        self.game()
            .legal_moves()
            .iter()
            .filter(|m| m.mv.pit() == sq.pit && m.mv.side() == sq.side)
            .copied()
            .collect()
    }

    fn pick_pit(&mut self) {
        let sq = self.cursor_square();
        let moves = self.moves_from_cursor();
        match moves.len() {
            0 => {
                let all: Vec<String> = self
                    .game()
                    .legal_moves()
                    .iter()
                    .map(|m| m.mv.to_string())
                    .collect();
                self.set_error(format!(
                    "No legal move starts at {sq}. Legal moves: {}",
                    all.join(" ")
                ));
            }
            1 => self.play(moves[0]),
            _ => self.ask(moves.iter().map(|m| m.mv).collect()),
        }
    }

    /// Asks the next question that separates `options`, or plays the one left.
    fn ask(&mut self, options: Vec<Move>) {
        if options.len() == 1 {
            let text = options[0].to_string();
            if let Some(m) = self.game().legal_moves().find(&text).copied() {
                self.play(m);
            }
            return;
        }
        let letters_differ = options.iter().any(|m| m.letter() != options[0].letter());
        let question = if letters_differ {
            Question::Letter
        } else {
            Question::Safari
        };
        self.mode = Mode::Choose {
            question,
            options,
            selected: 0,
        };
        self.set_info(match question {
            Question::Letter => "Which way? Left/Right or L/R, Enter to confirm, Esc to cancel.",
            Question::Safari => {
                "The move reaches your house: s to stop there, c to continue (safari); Esc cancels."
            }
        });
    }

    /// The answers to a question: one entry per distinct answer, with its label.
    pub fn choice_list(&self, question: Question, options: &[Move]) -> Vec<(String, Vec<Move>)> {
        let mut out: Vec<(String, Vec<Move>)> = Vec::new();
        for m in options {
            let label = match question {
                Question::Letter => letter_label(m),
                Question::Safari => {
                    if m.is_safari() {
                        "continue: play the house (safari)".to_string()
                    } else {
                        "stop in the house".to_string()
                    }
                }
            };
            match out.iter_mut().find(|(l, _)| *l == label) {
                Some((_, v)) => v.push(*m),
                None => out.push((label, vec![*m])),
            }
        }
        out
    }

    fn choose_key(
        &mut self,
        question: Question,
        options: Vec<Move>,
        selected: usize,
        key: KeyEvent,
    ) {
        let list = self.choice_list(question, &options);
        let pick = |app: &mut App, i: usize| {
            let chosen = list[i].1.clone();
            app.mode = Mode::Select;
            app.ask(chosen);
        };
        match key.code {
            KeyCode::Esc => {
                self.mode = Mode::Select;
                self.set_info("Cancelled.");
            }
            KeyCode::Left | KeyCode::Up => {
                self.mode = Mode::Choose {
                    question,
                    options,
                    selected: selected.saturating_sub(1),
                }
            }
            KeyCode::Right | KeyCode::Down | KeyCode::Tab => {
                self.mode = Mode::Choose {
                    question,
                    options,
                    selected: (selected + 1).min(list.len() - 1),
                }
            }
            KeyCode::Enter | KeyCode::Char(' ') => pick(self, selected.min(list.len() - 1)),
            KeyCode::Char(c) => {
                let c = c.to_ascii_lowercase();
                let idx = list.iter().position(|(_, ms)| match question {
                    Question::Letter => ms[0]
                        .letter()
                        .is_some_and(|l| l.as_char().to_ascii_lowercase() == c),
                    Question::Safari => {
                        (c == 'c' || c == '+') == ms[0].is_safari() && matches!(c, 'c' | '+' | 's')
                    }
                });
                if let Some(i) = idx {
                    pick(self, i);
                } else {
                    self.mode = Mode::Choose {
                        question,
                        options,
                        selected,
                    };
                }
            }
            _ => {
                self.mode = Mode::Choose {
                    question,
                    options,
                    selected,
                }
            }
        }
    }

    /// Plays a legal move of the current position and starts its animation.
    pub fn play(&mut self, m: LegalMove) {
        let before = *self.game().position();
        let rules = *self.game().rules();
        let mover = before.side();
        self.slot_mut().game.play(&m);
        self.last_move = Some(m.mv);
        self.hint = None;
        self.hint_requested = false;
        if self.config.animate {
            let (events, _, _) = trace(&before, &rules, &m.mv);
            self.animation = Some(Animation::new(&before, events));
        }
        let outcome = self.game().outcome();
        let mut msg = format!("{} played {}.", self.player(mover).name(), m.mv);
        if outcome.is_over() {
            msg.push_str(&format!(" Game over: {}.", outcome.describe()));
            msg.push_str(&self.after_game_text());
        }
        self.set_info(msg);
        if !outcome.is_over() {
            self.reset_cursor();
        }
    }

    fn after_game_text(&self) -> String {
        let (w1, w2, over) = self.match_score();
        if !self.config.is_match {
            return " Press q to quit.".into();
        }
        let score = format!(
            " Match: {} {}, {} {}.",
            self.config.player1.name(),
            w1,
            self.config.player2.name(),
            w2
        );
        if over {
            let verdict = match w1.cmp(&w2) {
                std::cmp::Ordering::Greater => {
                    format!(" {} wins the match.", self.config.player1.name())
                }
                std::cmp::Ordering::Less => {
                    format!(" {} wins the match.", self.config.player2.name())
                }
                std::cmp::Ordering::Equal => " The match is drawn.".into(),
            };
            format!("{score}{verdict} Press q to quit.")
        } else {
            format!("{score} Press n for the next game (sides change), q to quit.")
        }
    }

    /// Advances the animation by one event (the caller's clock calls this).
    pub fn tick(&mut self) {
        if let Some(a) = &mut self.animation {
            if !a.step() {
                self.animation = None;
            }
        }
    }

    /// Plays the computer's move now (synchronously).
    pub fn engine_move_sync(&mut self) {
        if !self.needs_engine() {
            return;
        }
        let level = self.engine_level().unwrap_or(bao_engine::MIN_LEVEL);
        let seed = self.next_seed();
        let pos = *self.game().position();
        let history = self.history();
        if let Some(m) =
            bao_engine::choose_move_in_game(&pos, self.game().rules(), level, seed, &history)
        {
            self.engine_moved(&pos, m);
        }
    }

    /// The game's positions before the current one (oldest first): the engine needs them
    /// to see repetitions (BRD-7.5).
    pub fn history(&self) -> Vec<Position> {
        let ps = self.game().positions();
        ps[..ps.len().saturating_sub(1)].to_vec()
    }

    /// Takes a move the engine chose for `pos`; ignored if the game has moved on since.
    pub fn engine_moved(&mut self, pos: &Position, m: LegalMove) {
        if self.needs_engine() && self.game().position() == pos {
            self.play(m);
        }
    }

    /// Computes the requested hint now (synchronously).
    pub fn hint_sync(&mut self) {
        if !self.hint_requested {
            return;
        }
        let pos = *self.game().position();
        let seed = self.next_seed();
        let history = self.history();
        let level = self.config.hint_level;
        let m = bao_engine::choose_move_in_game(&pos, self.game().rules(), level, seed, &history);
        self.hint_ready(&pos, m.map(|m| m.mv));
    }

    /// Takes a hint computed for `pos`.
    pub fn hint_ready(&mut self, pos: &Position, m: Option<Move>) {
        self.hint_requested = false;
        if self.game().position() != pos {
            return;
        }
        match m {
            Some(m) => {
                self.hint = Some((*pos, m));
                self.set_cursor_to(m.pit().name(m.side()));
                self.set_info(format!("Hint: the engine would play {m}."));
            }
            None => self.set_error("No hint: the game is over."),
        }
    }

    /// Finishes animations and lets the computer move until a person is to move or the
    /// game ends. Tests and the non-animated mode use it.
    pub fn settle(&mut self) {
        loop {
            if let Some(a) = &mut self.animation {
                while a.step() {}
                self.animation = None;
            }
            if self.hint_requested {
                self.hint_sync();
            }
            if !self.needs_engine() {
                break;
            }
            self.engine_move_sync();
        }
    }

    fn undo(&mut self) {
        if !self.vs_computer() {
            self.set_error("Undo is offered only when playing the computer.");
            return;
        }
        if self.slot().termination.is_some() {
            self.set_error("This game has ended.");
            return;
        }
        // Take back to the last position where the person was to move.
        let mut undone = Vec::new();
        let start_len = self.game().moves().len();
        while let Some(m) = self.slot_mut().game.undo() {
            undone.push(m);
            if self.human_to_move() {
                break;
            }
        }
        if undone.is_empty() {
            self.set_error("Nothing to undo.");
            return;
        }
        if !self.human_to_move() {
            // Nothing the person played could be taken back: restore.
            let pos_moves: Vec<Move> = undone.into_iter().rev().collect();
            for m in pos_moves {
                let lm = self.game().legal_moves().find(&m.to_string()).copied();
                if let Some(lm) = lm {
                    self.slot_mut().game.play(&lm);
                }
            }
            self.set_error("Nothing to undo.");
            return;
        }
        self.animation = None;
        self.hint = None;
        self.last_move = self.game().moves().last().copied();
        self.reset_cursor();
        let n = start_len - self.game().moves().len();
        self.set_info(format!(
            "Took back {n} move{}: {}.",
            if n == 1 { "" } else { "s" },
            undone
                .iter()
                .rev()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        ));
    }

    /// The records of every game of the session (one per game), ready to save.
    pub fn records(&self, date: &str) -> Vec<Record> {
        let mut out = Vec::new();
        for (i, g) in self.games.iter().enumerate() {
            if g.game.moves().is_empty() && self.games.len() > 1 {
                continue;
            }
            let mut r = Record::from_game(&g.game);
            let (s, n) = if g.player1_side == Side::South {
                (&self.config.player1, &self.config.player2)
            } else {
                (&self.config.player2, &self.config.player1)
            };
            r.south = s.name();
            r.north = n.name();
            r.date = date.to_string();
            if !g.game.outcome().is_over() {
                r.termination = Some(g.termination.unwrap_or(Termination::Abandoned));
            }
            r.set_tag("Event", "bao play");
            if self.config.is_match {
                r.set_tag("Round", &(i + 1).to_string());
            }
            out.push(r);
        }
        out
    }

    /// Whether the session has anything worth saving.
    pub fn has_moves(&self) -> bool {
        self.games.iter().any(|g| !g.game.moves().is_empty())
    }

    /// The stage name of the current position, for the status line.
    pub fn stage(&self) -> &'static str {
        stage_name(self.game().position())
    }

    /// The outcome of the current game.
    pub fn outcome(&self) -> Outcome {
        self.game().outcome()
    }
}

/// The name of a position's stage: namua/mtaji (kiswahili), nemo/mtaji (kete), and for
/// kimasai whether cows are still brought in.
pub fn stage_name(pos: &Position) -> &'static str {
    match (pos.variant(), pos.is_namua()) {
        (Variant::Kiswahili, true) => "namua",
        (Variant::Kiswahili, false) => "mtaji",
        (Variant::Kete, true) => "nemo",
        (Variant::Kete, false) => "mtaji",
        (Variant::Kimasai, true) => "phase 1 (cows in reserve)",
        (Variant::Kimasai, false) => "phase 2",
    }
}

/// What a move's letter means, for the question asked (NOT-1.2).
fn letter_label(m: &Move) -> String {
    let Some(letter) = m.letter() else {
        return m.to_string();
    };
    let side_word = match letter {
        Letter::L => "left",
        Letter::R => "right",
    };
    if m.is_namua() && m.is_capture() {
        let kichwa = Pit::front(if letter == Letter::L { 1 } else { 8 }).name(m.side());
        format!(
            "{}: capture, sow from your {side_word} kichwa {kichwa}",
            letter.as_char()
        )
    } else {
        format!("{}: sow towards your {side_word}", letter.as_char())
    }
}

/// A key press with no modifiers (tests and the replay viewer build keys with it).
pub fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}
