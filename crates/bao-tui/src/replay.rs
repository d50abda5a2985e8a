//! `bao replay FILE`: stepping through recorded games, as a state machine like [`crate::App`].

use crate::app::{Animation, Effect};
use bao_rules::{trace, Game, Position, Record, RecordError};
use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

/// The replay viewer: the records of a file, each replayed (and so checked) in advance.
#[derive(Clone, Debug)]
pub struct Replay {
    records: Vec<Record>,
    games: Vec<Game>,
    /// The record shown (0-based).
    pub index: usize,
    /// Moves shown of the current record.
    pub ply: usize,
    /// The move being animated.
    pub animation: Option<Animation>,
    /// Animate forward steps.
    pub animate: bool,
    /// A line for the user.
    pub message: String,
}

impl Replay {
    /// Checks every record by replaying it (NOT-6.4); the first invalid one is refused
    /// with its number and error.
    pub fn new(records: Vec<Record>) -> Result<Replay, (usize, RecordError)> {
        let mut games = Vec::with_capacity(records.len());
        for (i, r) in records.iter().enumerate() {
            games.push(r.validate().map_err(|e| (i + 1, e))?);
        }
        if games.is_empty() {
            return Err((
                0,
                RecordError {
                    line: 0,
                    kind: bao_rules::RecordErrorKind::Empty,
                },
            ));
        }
        Ok(Replay {
            records,
            games,
            index: 0,
            ply: 0,
            animation: None,
            animate: true,
            message: "Start position.".into(),
        })
    }

    /// How many records.
    pub fn count(&self) -> usize {
        self.records.len()
    }
    /// The record shown.
    pub fn record(&self) -> &Record {
        &self.records[self.index]
    }
    /// Its game, replayed.
    pub fn game(&self) -> &Game {
        &self.games[self.index]
    }
    /// The position after `ply` moves.
    pub fn position(&self) -> &Position {
        &self.game().positions()[self.ply]
    }
    /// The comment of the last move shown (or of the record before its first move).
    pub fn comment(&self) -> Option<&str> {
        if self.ply == 0 {
            self.record().comment.as_deref()
        } else {
            self.record()
                .moves
                .get(self.ply - 1)
                .and_then(|m| m.comment.as_deref())
        }
    }

    fn describe(&mut self) {
        let n = self.game().moves().len();
        self.message = if self.ply == 0 {
            "Start position.".into()
        } else {
            let m = self.game().moves()[self.ply - 1];
            let mut s = format!("Move {}/{n}: {} played {m}.", self.ply, m.side().name());
            if self.ply == n {
                let o = self.game().outcome();
                s.push_str(&format!(" End of the record: {}.", o.describe()));
            }
            s
        };
    }

    fn go(&mut self, ply: usize) {
        self.animation = None;
        self.ply = ply.min(self.game().moves().len());
        self.describe();
    }

    fn forward(&mut self) {
        if self.ply >= self.game().moves().len() {
            self.message = "End of the record.".into();
            return;
        }
        let before = *self.position();
        let m = self.game().moves()[self.ply];
        self.ply += 1;
        self.describe();
        if self.animate {
            let (events, _, _) = trace(&before, self.game().rules(), &m);
            self.animation = Some(Animation::new(&before, events));
        }
    }

    /// One key press.
    pub fn handle_key(&mut self, key: KeyEvent) -> Effect {
        if key.kind == KeyEventKind::Release {
            return Effect::None;
        }
        if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
            return Effect::Quit;
        }
        if let Some(a) = &mut self.animation {
            while a.step() {}
            self.animation = None;
            if matches!(
                key.code,
                KeyCode::Right | KeyCode::Char(' ') | KeyCode::Char('l')
            ) {
                return Effect::None;
            }
        }
        match key.code {
            KeyCode::Char('q') | KeyCode::Esc => return Effect::Quit,
            KeyCode::Right | KeyCode::Char(' ') | KeyCode::Char('l') | KeyCode::Enter => {
                self.forward()
            }
            KeyCode::Left | KeyCode::Backspace | KeyCode::Char('h') => {
                self.go(self.ply.saturating_sub(1))
            }
            KeyCode::Home | KeyCode::Char('g') => self.go(0),
            KeyCode::End | KeyCode::Char('G') => self.go(usize::MAX),
            KeyCode::Char('n') | KeyCode::PageDown if self.index + 1 < self.count() => {
                self.index += 1;
                self.go(0);
            }
            KeyCode::Char('p') | KeyCode::PageUp if self.index > 0 => {
                self.index -= 1;
                self.go(0);
            }
            _ => {}
        }
        Effect::None
    }

    /// Advances the animation by one event.
    pub fn tick(&mut self) {
        if let Some(a) = &mut self.animation {
            if !a.step() {
                self.animation = None;
            }
        }
    }
}
