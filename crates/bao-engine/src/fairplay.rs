//! Fair play: how closely a player's moves followed the engine, and whether an account's
//! recent games stand out from those of players of its strength (docs/api.md, "Fair play").
//!
//! Two figures per player and game, from a [`Review`] of the game:
//!
//! * the **top share**: of the moves that were a real choice, how many were as good as the
//!   engine's first choice (a loss of 0);
//! * the **average loss** of those moves, in centi-seeds (each capped, [`AVERAGE_CAP`]).
//!
//! A move is a real choice when the position had more than one legal move and was not
//! already decided by force (in a won or lost position every move can look "as good").
//!
//! An account's recent games are then set against the same figures of other players'
//! games near its rating ([`Norm`]): [`judge`] turns the difference into standard scores
//! (how many standard errors the account's mean lies above the others' mean) and an
//! account **stands out** when both point the same way and their mean reaches
//! [`STANDS_OUT`]. Nothing is decided by this: a moderator looks at the figures and the
//! games (the statistics only sort the queue).
//!
//! ```
//! use bao_engine::fairplay::{judge, Following, Norm};
//! // Players of this strength match the engine on 45 % of their moves (sd 10 %) and lose
//! // 300 centi-seeds a move on average (sd 100).
//! let others: Vec<Following> = (0..40)
//!     .map(|i: u32| Following { moves: 40, top: 14 + i % 9, loss_sum: 40 * u64::from(200 + 5 * i) })
//!     .collect();
//! let norm = Norm::of(&others).unwrap();
//! // Ten games where 38 of 40 moves were the engine's and the average loss was 20.
//! let mine = vec![Following { moves: 40, top: 38, loss_sum: 800 }; 10];
//! let v = judge(&mine, &norm).unwrap();
//! assert!(v.stands_out);
//! // Ten games like everyone else's do not.
//! assert!(!judge(&others[..10], &norm).unwrap().stands_out);
//! ```

use crate::review::{Loss, Review, AVERAGE_CAP};
use crate::search::Score;
use bao_rules::{find_move, legal_moves, Game, Side};

/// Games an account needs before it is judged.
pub const MIN_GAMES: usize = 5;
/// Games of other players a [`Norm`] needs.
pub const MIN_POPULATION: usize = 20;
/// A game counts only with at least this many real choices (shorter games say little).
pub const MIN_MOVES: u32 = 8;
/// The mean standard score from which an account stands out.
pub const STANDS_OUT: f64 = 3.0;
/// Floors of the spread (a population of near-identical games must not make every small
/// difference look huge).
const MIN_SD_SHARE: f64 = 0.03;
const MIN_SD_LOSS: f64 = 15.0;

/// One player's figures in one game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Following {
    /// Moves that were a real choice.
    pub moves: u32,
    /// Of those, the ones as good as the engine's first choice.
    pub top: u32,
    /// The sum of their capped losses, in centi-seeds.
    pub loss_sum: u64,
}

impl Following {
    /// `top / moves` (0 without moves).
    pub fn top_share(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            f64::from(self.top) / f64::from(self.moves)
        }
    }

    /// `loss_sum / moves` (0 without moves).
    pub fn average_loss(&self) -> f64 {
        if self.moves == 0 {
            0.0
        } else {
            self.loss_sum as f64 / f64::from(self.moves)
        }
    }
}

/// `side`'s figures in `game`, from `review`, a review of that game
/// ([`crate::review::review_game`]).
pub fn following(game: &Game, review: &Review, side: Side) -> Following {
    let rules = *game.rules();
    let mut replay = Game::new(*game.start(), rules);
    let mut f = Following::default();
    for (played, ply) in game.moves().iter().zip(&review.plies) {
        let choice = legal_moves(replay.position(), &rules).len() > 1;
        let decided = matches!(ply.best_score, Score::Win(_) | Score::Loss(_));
        if ply.side == side && choice && !decided {
            f.moves += 1;
            if ply.loss == Loss::Cp(0) {
                f.top += 1;
            }
            f.loss_sum += u64::from(ply.loss.capped().min(AVERAGE_CAP));
        }
        match find_move(replay.position(), &rules, &played.to_string()) {
            Ok(legal) => replay.play(&legal),
            Err(_) => break,
        }
    }
    f
}

/// The figures of other players' games: the mean and spread of a game's top share and
/// average loss.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Norm {
    /// Games counted.
    pub games: usize,
    /// Mean top share.
    pub mean_share: f64,
    /// Its standard deviation (at least a floor).
    pub sd_share: f64,
    /// Mean average loss.
    pub mean_loss: f64,
    /// Its standard deviation (at least a floor).
    pub sd_loss: f64,
}

impl Norm {
    /// The norm of `games` (those with fewer than [`MIN_MOVES`] choices left out), or
    /// `None` below [`MIN_POPULATION`] games.
    pub fn of(games: &[Following]) -> Option<Norm> {
        let g: Vec<&Following> = games.iter().filter(|f| f.moves >= MIN_MOVES).collect();
        if g.len() < MIN_POPULATION {
            return None;
        }
        let (ms, ss) = mean_sd(g.iter().map(|f| f.top_share()));
        let (ml, sl) = mean_sd(g.iter().map(|f| f.average_loss()));
        Some(Norm {
            games: g.len(),
            mean_share: ms,
            sd_share: ss.max(MIN_SD_SHARE),
            mean_loss: ml,
            sd_loss: sl.max(MIN_SD_LOSS),
        })
    }
}

fn mean_sd(xs: impl Iterator<Item = f64> + Clone) -> (f64, f64) {
    let n = xs.clone().count() as f64;
    let mean = xs.clone().sum::<f64>() / n;
    let var = xs.map(|x| (x - mean) * (x - mean)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, var.sqrt())
}

/// An account's figures against a [`Norm`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Verdict {
    /// Games counted.
    pub games: usize,
    /// Moves counted.
    pub moves: u32,
    /// Its mean top share per game.
    pub top_share: f64,
    /// Its mean average loss per game.
    pub average_loss: f64,
    /// How many standard errors its top share lies above the norm's.
    pub z_share: f64,
    /// How many standard errors its average loss lies below the norm's.
    pub z_loss: f64,
    /// The mean of both (negative when the account plays worse than the norm).
    pub score: f64,
    /// Both scores positive and their mean at least [`STANDS_OUT`].
    pub stands_out: bool,
}

/// Judges an account's games (those with fewer than [`MIN_MOVES`] choices left out)
/// against `norm`; `None` below [`MIN_GAMES`] games.
pub fn judge(games: &[Following], norm: &Norm) -> Option<Verdict> {
    let g: Vec<&Following> = games.iter().filter(|f| f.moves >= MIN_MOVES).collect();
    if g.len() < MIN_GAMES {
        return None;
    }
    let n = g.len() as f64;
    let share = g.iter().map(|f| f.top_share()).sum::<f64>() / n;
    let loss = g.iter().map(|f| f.average_loss()).sum::<f64>() / n;
    let z_share = (share - norm.mean_share) / (norm.sd_share / n.sqrt());
    let z_loss = (norm.mean_loss - loss) / (norm.sd_loss / n.sqrt());
    let score = (z_share + z_loss) / 2.0;
    Some(Verdict {
        games: g.len(),
        moves: g.iter().map(|f| f.moves).sum(),
        top_share: share,
        average_loss: loss,
        z_share,
        z_loss,
        score,
        stands_out: z_share > 0.0 && z_loss > 0.0 && score >= STANDS_OUT,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::level::Level;
    use crate::review::{review_game, ReviewOptions};
    use crate::search::{Limits, Searcher};
    use bao_rules::{Position, Rules, Variant};

    fn f(moves: u32, top: u32, avg: u64) -> Following {
        Following {
            moves,
            top,
            loss_sum: avg * u64::from(moves),
        }
    }

    #[test]
    fn too_few_games_are_not_judged() {
        let others: Vec<_> = (0..30)
            .map(|i| f(30, 10 + i % 7, 250 + u64::from(i)))
            .collect();
        let norm = Norm::of(&others).expect("30 games make a norm");
        assert!(Norm::of(&others[..MIN_POPULATION - 1]).is_none());
        assert!(judge(&[f(30, 30, 0); MIN_GAMES - 1], &norm).is_none());
        // Short games do not count towards either.
        assert!(judge(&[f(MIN_MOVES - 1, 7, 0); 10], &norm).is_none());
        assert!(judge(&[f(30, 30, 0); MIN_GAMES], &norm).is_some());
    }

    #[test]
    fn a_weaker_account_never_stands_out() {
        let others: Vec<_> = (0..30).map(|i| f(30, 12 + i % 5, 250)).collect();
        let norm = Norm::of(&others).unwrap();
        let v = judge(&[f(30, 5, 600); 20], &norm).unwrap();
        assert!(v.score < 0.0 && !v.stands_out, "{v:?}");
        // Matching more often but losing more is not both signs.
        let v = judge(&[f(30, 29, 900); 20], &norm).unwrap();
        assert!(!v.stands_out, "{v:?}");
    }

    #[test]
    fn figures_of_a_game() {
        // A game between the reviewer's own search (South) and level 3, reviewed: the
        // figures count each side's real choices once, and the engine's side follows the
        // engine more often.
        let rules = Rules::new(Variant::Kiswahili);
        let opts = ReviewOptions {
            limits: Limits::nodes(3_000),
            threads: 1,
            tt_bits: 16,
        };
        let mut game = Game::new(Position::start(&rules), rules);
        let weak = Level::get(3);
        let mut ws = weak.searcher(&rules);
        let mut s = Searcher::new(rules, crate::Weights::for_variant(rules.variant), 16);
        for ply in 0..400 {
            if game.outcome() != bao_rules::Outcome::Ongoing {
                break;
            }
            let mv = if ply % 2 == 0 {
                s.set_history(game.positions());
                s.search_root(game.position(), opts.limits, &mut |_| {})
                    .best
                    .unwrap()
            } else {
                weak.choose(&mut ws, game.position(), game.positions(), ply as u64)
                    .unwrap()
            };
            game.play(&mv);
        }
        let review = review_game(&game, &opts, &mut |_, _| true).unwrap();
        let south = following(&game, &review, Side::South);
        let north = following(&game, &review, Side::North);
        assert!(south.moves > 0 && north.moves > 0);
        assert!(south.moves + north.moves <= game.moves().len() as u32);
        assert!(south.top_share() > north.top_share(), "{south:?} {north:?}");
        assert!(south.top_share() >= 0.7, "{south:?}");
    }
}
