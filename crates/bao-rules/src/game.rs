//! Games with history: move input matched against legal moves (NOT-2.3, NOT-2.4), and the
//! threefold repetition rule (BRD-7.5), which needs the positions played so far.

use crate::error::MoveError;
use crate::event::DrawReason;
use crate::legal::{legal_moves, status, LegalMove, MoveList, Outcome};
use crate::options::Repetition;
use crate::{Move, MovePattern, Position, Rules, Side};

/// Matches typed move text against the legal moves of `pos` (NOT-2). Does not check whether
/// the game is over; [`Game::play_text`] does.
///
/// ```
/// use bao_rules::{find_move, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kiswahili);
/// let start = Position::start(&rules);
/// assert_eq!(find_move(&start, &rules, "7l").unwrap().mv.to_string(), "A7L*");
/// let err = find_move(&start, &rules, "A5L*").unwrap_err();
/// assert_eq!(err.category(), "illegal_move");
/// ```
pub fn find_move(pos: &Position, rules: &Rules, text: &str) -> Result<LegalMove, MoveError> {
    let pattern = MovePattern::parse(text, pos.variant(), pos.is_namua())?;
    let moves = legal_moves(pos, rules);
    let found: Vec<&LegalMove> = moves.iter().filter(|m| pattern.matches(&m.mv)).collect();
    match found.len() {
        1 => Ok(*found[0]),
        0 => Err(MoveError::Illegal {
            input: text.to_string(),
            reason: explain(pos, rules, &pattern, &moves),
        }),
        _ => Err(MoveError::Ambiguous {
            input: text.to_string(),
            choices: found.iter().map(|m| m.mv.to_string()).collect(),
        }),
    }
}

fn list(moves: &[&LegalMove]) -> String {
    let v: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
    v.join(", ")
}

/// Why no legal move matches `pattern`, in a player's words.
fn explain(pos: &Position, rules: &Rules, pattern: &MovePattern, moves: &MoveList) -> String {
    let side = pos.side();
    let sq = pattern.pit.name(side);
    let all: Vec<&LegalMove> = moves.iter().collect();
    if all.is_empty() {
        return "there is no legal move in this position".into();
    }
    let bao = pos.variant().is_bao();
    let from: Vec<&LegalMove> = all
        .iter()
        .copied()
        .filter(|m| m.mv.pit() == pattern.pit)
        .collect();
    if !from.is_empty() {
        let mut why = format!("the legal moves from {sq} are {}", list(&from));
        if pattern.takasa && from.iter().all(|m| !m.mv.is_takasa()) {
            why = format!("{sq} captures, so it is not a takasa (*) move; {why}");
        } else if pattern.safari && from.iter().all(|m| !m.mv.is_safari()) {
            why = format!("this move reaches no house choice, so '+' does not apply; {why}");
        }
        return why;
    }
    if bao && pos.is_namua() && !pattern.pit.is_front() {
        return format!(
            "in namua the hand seed goes into an occupied front pit; {sq} is a back pit"
        );
    }
    if pos.seeds(side, pattern.pit) == 0 {
        return format!("{sq} is empty");
    }
    if pos.flags().block == Some(pattern.pit) {
        return format!("{sq} is blocked by takasia this move");
    }
    if let Some(t) = pos.must() {
        if all.iter().all(|m| m.first_capture() == Some(t.pit)) {
            return format!("the follow-up capture of {t} is compulsory: {}", list(&all));
        }
    }
    if bao && all.iter().all(|m| m.mv.is_capture()) {
        return format!("a capture is compulsory: {}", list(&all));
    }
    if rules.capture_compulsory && !bao {
        return format!("a capture is compulsory: {}", list(&all));
    }
    if bao && !pos.is_namua() {
        if pos.flags().duty[side.index()] && all.iter().all(|m| m.mv.pit().is_house()) {
            return format!("the first takata must start from the kuu: {}", list(&all));
        }
        if !pattern.pit.is_front() && all.iter().all(|m| m.mv.pit().is_front()) {
            return format!(
                "a front-row pit with two or more seeds must be played first: {}",
                list(&all)
            );
        }
        if pos.seeds(side, pattern.pit) == 1 {
            return format!("{sq} holds a single seed; in mtaji a pit needs two or more");
        }
    }
    if bao && pos.is_namua() && pos.seeds(side, pattern.pit) == 1 {
        return format!(
            "{sq} holds a single seed, which may not be chosen here; legal moves: {}",
            list(&all)
        );
    }
    format!(
        "no legal move starts from {sq}; legal moves: {}",
        list(&all)
    )
}

/// A game in progress: a start position, the moves played, and the result with history.
///
/// ```
/// use bao_rules::{Game, Position, Rules, Variant};
/// let rules = Rules::new(Variant::Kiswahili);
/// let mut game = Game::new(Position::start(&rules), rules);
/// game.play_text("A7L*").unwrap();
/// game.play_text("a5R").unwrap();
/// assert_eq!(game.moves().len(), 2);
/// assert_eq!(game.outcome().token(), "-");
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Rules,
    positions: Vec<Position>,
    moves: Vec<Move>,
    outcomes: Vec<Outcome>,
}

impl Game {
    /// A game from `start` under `rules`.
    pub fn new(start: Position, rules: Rules) -> Game {
        let outcome = status(&start, &rules);
        Game {
            rules,
            positions: vec![start],
            moves: Vec::new(),
            outcomes: vec![outcome],
        }
    }

    /// The rules.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    /// The first position.
    pub fn start(&self) -> &Position {
        &self.positions[0]
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        self.positions.last().expect("a game has a start position")
    }
    /// Every position so far, the start first.
    pub fn positions(&self) -> &[Position] {
        &self.positions
    }
    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }
    /// The result so far, with repetition (BRD-7.5).
    pub fn outcome(&self) -> Outcome {
        *self.outcomes.last().expect("a game has an outcome")
    }
    /// The side to move.
    pub fn side(&self) -> Side {
        self.position().side()
    }
    /// The legal moves now (empty when the game is over).
    pub fn legal_moves(&self) -> MoveList {
        if self.outcome().is_over() {
            return MoveList::empty();
        }
        legal_moves(self.position(), &self.rules)
    }

    /// Plays typed move text (NOT-2); refuses it with `game_over` if the game has ended.
    pub fn play_text(&mut self, text: &str) -> Result<LegalMove, MoveError> {
        if self.outcome().is_over() {
            return Err(MoveError::GameOver {
                input: text.to_string(),
                reason: format!("the game is over ({})", self.outcome().describe()),
            });
        }
        let m = find_move(self.position(), &self.rules, text)?;
        self.push(&m);
        Ok(m)
    }

    /// Plays a legal move of the current position (from [`Game::legal_moves`]).
    pub fn play(&mut self, m: &LegalMove) {
        self.push(m);
    }

    fn push(&mut self, m: &LegalMove) {
        let mut outcome = m.outcome(&self.rules);
        if outcome == Outcome::Ongoing && self.rules.repetition == Repetition::ThreefoldDraw {
            let seen = self.positions.iter().filter(|p| p.same_as(&m.next)).count();
            if seen + 1 >= 3 {
                outcome = Outcome::Draw(DrawReason::Repetition);
            }
        }
        self.positions.push(m.next);
        self.moves.push(m.mv);
        self.outcomes.push(outcome);
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let m = self.moves.pop()?;
        self.positions.pop();
        self.outcomes.pop();
        Some(m)
    }
}
