//! Game review: every ply of a game searched, the played move compared with the best one.
//!
//! For each ply the position before the move is searched for its best move and score. When
//! the played move differs, the position after it is searched too, with the same budget
//! (one ply less under a depth limit, so that both scores look equally far ahead), and its
//! score seen from the mover. The difference is the *loss* in centi-seeds (100 = one seed),
//! never below zero, and the ply gets a mark from [`THRESHOLDS`]:
//!
//! | mark | meaning    | loss (centi-seeds)                                  |
//! |------|------------|-----------------------------------------------------|
//! | `-`  | good       | below 150                                           |
//! | `?!` | inaccuracy | 150 to 399                                          |
//! | `?`  | mistake    | 400 to 899                                          |
//! | `??` | blunder    | 900 or more, or a proven result thrown away         |
//!
//! Proven results are not counted in seeds: the loss is `win` when the best move won by
//! force and the played move does not, and `loss` when the played move loses by force and
//! the best move did not. Both are blunders. A move that keeps a forced win (perhaps a
//! slower one), or any move in a position lost by force, loses nothing.
//!
//! With one thread and a depth or node limit the review is deterministic: the plies are
//! searched in order by one [`Searcher`] whose table carries over from ply to ply.

use crate::search::{Limits, Score, Searcher, WIN, WIN_BOUND};
use crate::Weights;
use bao_rules::{find_move, Game, Move, Outcome, Side};
use std::fmt;

/// The least loss (centi-seeds) of an inaccuracy, a mistake and a blunder.
pub const THRESHOLDS: [u32; 3] = [150, 400, 900];

/// In a player's average loss, a ply counts at most this much (a proven result thrown away
/// counts this much): one huge loss must not hide the rest of the game.
pub const AVERAGE_CAP: u32 = 2000;

/// What a move cost against the best move.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Loss {
    /// Centi-seeds lost (0 when the move was as good as the best).
    Cp(u32),
    /// The best move won by force and the played move does not.
    Win,
    /// The played move loses by force and the best move did not.
    Loss,
}

impl Loss {
    /// The loss counted in a player's average ([`AVERAGE_CAP`] at most).
    pub fn capped(self) -> u32 {
        match self {
            Loss::Cp(c) => c.min(AVERAGE_CAP),
            Loss::Win | Loss::Loss => AVERAGE_CAP,
        }
    }
}

impl fmt::Display for Loss {
    /// `120`, `win` or `loss` (the `loss` column of `bao review`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Loss::Cp(c) => write!(f, "{c}"),
            Loss::Win => f.write_str("win"),
            Loss::Loss => f.write_str("loss"),
        }
    }
}

/// The judgement of a move, by [`THRESHOLDS`].
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug, Hash)]
pub enum Mark {
    /// `-`: no real loss.
    Good,
    /// `?!`
    Inaccuracy,
    /// `?`
    Mistake,
    /// `??`
    Blunder,
}

impl Mark {
    /// The mark for a loss.
    pub fn of(loss: Loss) -> Mark {
        match loss {
            Loss::Win | Loss::Loss => Mark::Blunder,
            Loss::Cp(c) if c >= THRESHOLDS[2] => Mark::Blunder,
            Loss::Cp(c) if c >= THRESHOLDS[1] => Mark::Mistake,
            Loss::Cp(c) if c >= THRESHOLDS[0] => Mark::Inaccuracy,
            Loss::Cp(_) => Mark::Good,
        }
    }

    /// `-`, `?!`, `?` or `??`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mark::Good => "-",
            Mark::Inaccuracy => "?!",
            Mark::Mistake => "?",
            Mark::Blunder => "??",
        }
    }
}

impl fmt::Display for Mark {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The review of one ply.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlyReview {
    /// 1-based number of the move in the game.
    pub number: usize,
    /// Who moved.
    pub side: Side,
    /// The move played.
    pub played: Move,
    /// The best move found (the played move when it was as good as the search's best).
    pub best: Move,
    /// Score of the best move, for the mover.
    pub best_score: Score,
    /// Score of the played move, for the mover.
    pub played_score: Score,
    /// What the played move cost.
    pub loss: Loss,
    /// The judgement.
    pub mark: Mark,
    /// The best line from the position before the move, starting with `best`.
    pub pv: Vec<Move>,
}

impl PlyReview {
    /// The evaluation after the played move from South's side, in centi-seeds, with forced
    /// results as ±[`AVERAGE_CAP`] (a point of an evaluation graph).
    pub fn south_after(&self) -> i32 {
        let v = match self.played_score {
            Score::Cp(c) => c.clamp(-(AVERAGE_CAP as i32), AVERAGE_CAP as i32),
            Score::Win(_) => AVERAGE_CAP as i32,
            Score::Loss(_) => -(AVERAGE_CAP as i32),
        };
        if self.side == Side::South {
            v
        } else {
            -v
        }
    }
}

/// One player's totals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlayerSummary {
    /// Moves made.
    pub moves: usize,
    /// Average loss per move in centi-seeds, rounded (each move counted at most
    /// [`AVERAGE_CAP`]); 0 without moves.
    pub average_loss: u32,
    /// Moves marked `?!`.
    pub inaccuracies: usize,
    /// Moves marked `?`.
    pub mistakes: usize,
    /// Moves marked `??`.
    pub blunders: usize,
}

/// A whole game's review.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Review {
    /// Every ply in order.
    pub plies: Vec<PlyReview>,
    /// South's totals.
    pub south: PlayerSummary,
    /// North's totals.
    pub north: PlayerSummary,
}

impl Review {
    /// The totals of `side`.
    pub fn summary(&self, side: Side) -> &PlayerSummary {
        match side {
            Side::South => &self.south,
            Side::North => &self.north,
        }
    }
}

/// How hard to look at each ply.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReviewOptions {
    /// The budget of each search (a ply takes one search, or two when the played move is
    /// not the best one).
    pub limits: Limits,
    /// Search threads (1 is deterministic with a depth or node limit).
    pub threads: usize,
    /// Transposition table size, as a power of two of entries (16 bytes each).
    pub tt_bits: u32,
}

impl Default for ReviewOptions {
    /// 300 ms per search, one thread, a 16 MiB table.
    fn default() -> Self {
        ReviewOptions {
            limits: Limits::time(300),
            threads: 1,
            tt_bits: 20,
        }
    }
}

/// Reviews every move of `game` (a game replayed by the rules, e.g. by
/// `bao_rules::Record::validate`). `progress(done, total)` is called before the first ply
/// and after each one; when it answers `false` the review stops there and `None` is
/// returned. Repetitions count from the game's start (BRD-7.5).
pub fn review_game(
    game: &Game,
    opts: &ReviewOptions,
    progress: &mut dyn FnMut(usize, usize) -> bool,
) -> Option<Review> {
    let rules = *game.rules();
    let mut s = Searcher::new(rules, Weights::for_variant(rules.variant), opts.tt_bits);
    s.set_threads(opts.threads);
    // The position after a move is searched one ply shallower under a depth limit: the
    // root search of the position before looked at that move to the same horizon.
    let mut child_limits = opts.limits;
    child_limits.depth = opts.limits.depth.map(|d| d.saturating_sub(1).max(1));

    let total = game.moves().len();
    if !progress(0, total) {
        return None;
    }
    // Replaying from the start gives the outcome after each move with repetition counted.
    let mut replay = Game::new(*game.start(), rules);
    let mut plies = Vec::with_capacity(total);
    for (i, played) in game.moves().iter().enumerate() {
        let legal = find_move(replay.position(), &rules, &played.to_string())
            .expect("the moves of a replayed game are legal");
        plies.push(judge(
            &mut s,
            game,
            &replay,
            i,
            &legal,
            opts.limits,
            child_limits,
        ));
        replay.play(&legal);
        if !progress(i + 1, total) {
            return None;
        }
    }
    let summary = |side: Side| summarise(plies.iter().filter(|p| p.side == side));
    Some(Review {
        south: summary(Side::South),
        north: summary(Side::North),
        plies,
    })
}

/// Judges `candidate`, a legal move of the position reached by `replay` (the first `i`
/// moves of `game`), against the best move found there: the position before is searched,
/// and, when the best move differs, the position after `candidate` with `child_limits`.
fn judge(
    s: &mut Searcher,
    game: &Game,
    replay: &Game,
    i: usize,
    candidate: &bao_rules::LegalMove,
    limits: Limits,
    child_limits: Limits,
) -> PlyReview {
    let before = *replay.position();
    let played = &candidate.mv;
    s.set_history(&game.positions()[..i]);
    let r = s.search_root(&before, limits, &mut |_| {});
    let mut after = replay.clone();
    after.play(candidate);
    let (mut best, mut best_raw, mut pv) = match r.best {
        Some(b) => (b.mv, r.raw_score, r.pv),
        // No legal move cannot happen before a move that was played; stay sound anyway.
        None => (*played, 0, vec![*played]),
    };
    let played_raw = if best == *played {
        best_raw
    } else {
        match after.outcome() {
            Outcome::Win(w, _) if w == played.side() => WIN - 1,
            Outcome::Win(..) => -(WIN - 1),
            Outcome::Draw(_) => 0,
            Outcome::Ongoing => {
                // Repetitions count from the game's start, the position before included.
                s.set_history(&game.positions()[..=i]);
                let c = s.search_root(after.position(), child_limits, &mut |_| {});
                // The child's score is the opponent's, one ply further from the root.
                let v = -c.raw_score;
                if v >= WIN_BOUND {
                    v - 1
                } else if v <= -WIN_BOUND {
                    v + 1
                } else {
                    v
                }
            }
        }
    };
    if played_raw > best_raw {
        // The closer look found the played move better than the root search's best.
        best = *played;
        best_raw = played_raw;
        pv = vec![*played];
    }
    let loss = loss_of(best_raw, played_raw);
    PlyReview {
        number: i + 1,
        side: played.side(),
        played: *played,
        best,
        best_score: Score::from_internal(best_raw),
        played_score: Score::from_internal(played_raw),
        loss,
        mark: Mark::of(loss),
        pv,
    }
}

/// Why [`judge_move`] could not judge a move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum JudgeError {
    /// The game has no move with this number.
    NoSuchPly {
        /// The number asked for (1-based).
        number: usize,
        /// The game's number of moves.
        total: usize,
    },
    /// The move is not legal (or not one move) in the position before that ply.
    Move(bao_rules::MoveError),
}

impl fmt::Display for JudgeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            JudgeError::NoSuchPly { number, total } => {
                write!(f, "this game has no move {number} (moves 1 to {total})")
            }
            JudgeError::Move(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for JudgeError {}

impl From<bao_rules::MoveError> for JudgeError {
    fn from(e: bao_rules::MoveError) -> Self {
        JudgeError::Move(e)
    }
}

/// Judges `candidate` as if it had been played instead of move `number` (1-based) of
/// `game`, as [`review_game`] judges the moves that were played: the same searches, the
/// same loss and mark. A player practising a mistake of theirs tries another move here.
///
/// ```
/// use bao_engine::review::{judge_move, Mark, ReviewOptions};
/// use bao_engine::Limits;
/// use bao_rules::{Game, Position, Rules, Variant};
///
/// let rules = Rules::new(Variant::Kiswahili);
/// let mut game = Game::new(Position::start(&rules), rules);
/// game.play_text("A6R*").unwrap();
/// let opts = ReviewOptions { limits: Limits::nodes(2_000), ..ReviewOptions::default() };
/// let best = judge_move(&game, 1, "A6R*", &opts).unwrap().best.to_string();
/// let again = judge_move(&game, 1, &best, &opts).unwrap();
/// assert_eq!(again.mark, Mark::Good);
/// assert!(judge_move(&game, 2, "A6R*", &opts).is_err());
/// ```
pub fn judge_move(
    game: &Game,
    number: usize,
    candidate: &str,
    opts: &ReviewOptions,
) -> Result<PlyReview, JudgeError> {
    let total = game.moves().len();
    if number == 0 || number > total {
        return Err(JudgeError::NoSuchPly { number, total });
    }
    let rules = *game.rules();
    let i = number - 1;
    let mut replay = Game::new(*game.start(), rules);
    for played in &game.moves()[..i] {
        let legal = find_move(replay.position(), &rules, &played.to_string())
            .expect("the moves of a replayed game are legal");
        replay.play(&legal);
    }
    let legal = find_move(replay.position(), &rules, candidate)?;
    let mut s = Searcher::new(rules, Weights::for_variant(rules.variant), opts.tt_bits);
    s.set_threads(opts.threads);
    let mut child_limits = opts.limits;
    child_limits.depth = opts.limits.depth.map(|d| d.saturating_sub(1).max(1));
    Ok(judge(
        &mut s,
        game,
        &replay,
        i,
        &legal,
        opts.limits,
        child_limits,
    ))
}

/// The loss from two internal scores of the mover.
fn loss_of(best: i32, played: i32) -> Loss {
    let best_wins = best >= WIN_BOUND;
    let played_wins = played >= WIN_BOUND;
    let best_loses = best <= -WIN_BOUND;
    let played_loses = played <= -WIN_BOUND;
    if best_wins && !played_wins {
        Loss::Win
    } else if played_loses && !best_loses {
        Loss::Loss
    } else if best_wins || best_loses {
        // Both win, or both lose: the result is the same.
        Loss::Cp(0)
    } else {
        Loss::Cp((best - played).max(0) as u32)
    }
}

fn summarise<'a>(plies: impl Iterator<Item = &'a PlyReview>) -> PlayerSummary {
    let mut s = PlayerSummary::default();
    let mut sum: u64 = 0;
    for p in plies {
        s.moves += 1;
        sum += p.loss.capped() as u64;
        match p.mark {
            Mark::Good => {}
            Mark::Inaccuracy => s.inaccuracies += 1,
            Mark::Mistake => s.mistakes += 1,
            Mark::Blunder => s.blunders += 1,
        }
    }
    if s.moves > 0 {
        s.average_loss = ((sum + s.moves as u64 / 2) / s.moves as u64) as u32;
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use bao_rules::{Position, Rules, Variant};

    #[test]
    fn losses_from_scores() {
        assert_eq!(loss_of(300, 100), Loss::Cp(200));
        assert_eq!(loss_of(100, 300), Loss::Cp(0));
        assert_eq!(loss_of(WIN - 3, 500), Loss::Win);
        assert_eq!(loss_of(WIN - 3, -(WIN - 2)), Loss::Win);
        assert_eq!(loss_of(WIN - 3, WIN - 7), Loss::Cp(0));
        assert_eq!(loss_of(-200, -(WIN - 2)), Loss::Loss);
        assert_eq!(loss_of(-(WIN - 9), -(WIN - 2)), Loss::Cp(0));
    }

    #[test]
    fn marks_follow_the_thresholds() {
        assert_eq!(Mark::of(Loss::Cp(0)), Mark::Good);
        assert_eq!(Mark::of(Loss::Cp(149)), Mark::Good);
        assert_eq!(Mark::of(Loss::Cp(150)), Mark::Inaccuracy);
        assert_eq!(Mark::of(Loss::Cp(399)), Mark::Inaccuracy);
        assert_eq!(Mark::of(Loss::Cp(400)), Mark::Mistake);
        assert_eq!(Mark::of(Loss::Cp(900)), Mark::Blunder);
        assert_eq!(Mark::of(Loss::Win), Mark::Blunder);
        assert_eq!(Mark::of(Loss::Loss), Mark::Blunder);
        assert_eq!(Loss::Win.to_string(), "win");
        assert_eq!(Loss::Cp(42).to_string(), "42");
    }

    /// A short game of the greedy player against the random one.
    fn some_game(plies: usize) -> Game {
        let rules = Rules::new(Variant::Kiswahili);
        let mut game = Game::new(Position::start(&rules), rules);
        let mut rng = bao_rules::Rng::new(5);
        while game.moves().len() < plies && !game.outcome().is_over() {
            let moves = game.legal_moves();
            let m = *moves.iter().nth(rng.below(moves.len())).unwrap();
            game.play(&m);
        }
        game
    }

    #[test]
    fn review_is_deterministic_and_consistent() {
        let game = some_game(16);
        let opts = ReviewOptions {
            limits: Limits::depth(4),
            threads: 1,
            tt_bits: 16,
        };
        let mut calls = Vec::new();
        let a = review_game(&game, &opts, &mut |d, t| {
            calls.push((d, t));
            true
        })
        .unwrap();
        let b = review_game(&game, &opts, &mut |_, _| true).unwrap();
        assert_eq!(a, b, "one thread and a depth limit give the same review");
        assert_eq!(a.plies.len(), game.moves().len());
        assert_eq!(calls.first(), Some(&(0, game.moves().len())));
        assert_eq!(calls.len(), game.moves().len() + 1);
        for (p, m) in a.plies.iter().zip(game.moves()) {
            assert_eq!(p.played, *m);
            assert_eq!(p.side, m.side());
            assert_eq!(p.mark, Mark::of(p.loss));
            // A move that is the best one costs nothing; a costly move is not the best one.
            if p.best == p.played {
                assert_eq!(p.loss, Loss::Cp(0), "ply {}", p.number);
            }
            if p.loss != Loss::Cp(0) {
                assert_ne!(p.best, p.played, "ply {}", p.number);
            }
            assert_eq!(p.pv.first(), Some(&p.best));
        }
        let s = a.summary(Side::South);
        assert_eq!(s.moves + a.north.moves, a.plies.len());
        let marked = a.plies.iter().filter(|p| p.mark != Mark::Good).count();
        assert_eq!(
            marked,
            [a.south, a.north]
                .iter()
                .map(|s| s.inaccuracies + s.mistakes + s.blunders)
                .sum::<usize>()
        );
    }

    #[test]
    fn a_review_stops_when_asked() {
        let game = some_game(10);
        let opts = ReviewOptions {
            limits: Limits::depth(2),
            threads: 1,
            tt_bits: 12,
        };
        let mut seen = 0;
        let r = review_game(&game, &opts, &mut |done, _| {
            seen = done;
            done < 3
        });
        assert!(r.is_none());
        assert_eq!(seen, 3);
    }

    #[test]
    fn random_moves_lose_more_than_the_engine_s_own() {
        // Random moves against a depth-4 judge lose seeds; the engine's own choices at the
        // same depth lose nothing by construction of the best move.
        let game = some_game(20);
        let opts = ReviewOptions {
            limits: Limits::depth(3),
            threads: 1,
            tt_bits: 16,
        };
        let r = review_game(&game, &opts, &mut |_, _| true).unwrap();
        let total: u32 = r.south.average_loss + r.north.average_loss;
        assert!(total > 0, "random play is never perfect: {r:?}");
    }

    #[test]
    fn judging_a_move_agrees_with_the_review() {
        let game = some_game(12);
        let opts = ReviewOptions {
            limits: Limits::depth(3),
            threads: 1,
            tt_bits: 16,
        };
        let r = review_game(&game, &opts, &mut |_, _| true).unwrap();
        // The first ply starts from an empty table in both: the same judgement.
        let first = judge_move(&game, 1, &game.moves()[0].to_string(), &opts).unwrap();
        assert_eq!(first, r.plies[0]);
        for n in 1..=game.moves().len() {
            let played = judge_move(&game, n, &game.moves()[n - 1].to_string(), &opts).unwrap();
            assert_eq!(played.number, n);
            assert_eq!(played.played, game.moves()[n - 1]);
            assert_eq!(played.mark, Mark::of(played.loss));
            // The best move, tried in its place, costs nothing.
            let best = judge_move(&game, n, &played.best.to_string(), &opts).unwrap();
            assert_eq!(best.loss, Loss::Cp(0), "move {n}: {best:?}");
            assert_eq!(best.mark, Mark::Good);
        }
        assert_eq!(
            judge_move(&game, 0, "A6R*", &opts),
            Err(JudgeError::NoSuchPly {
                number: 0,
                total: 12
            })
        );
        assert!(matches!(
            judge_move(&game, 13, "A6R*", &opts),
            Err(JudgeError::NoSuchPly { number: 13, .. })
        ));
        assert!(matches!(
            judge_move(&game, 1, "Z9", &opts),
            Err(JudgeError::Move(_))
        ));
    }
}
