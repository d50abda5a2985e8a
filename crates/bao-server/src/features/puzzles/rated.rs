//! Rated puzzles (docs/api.md, "Puzzles"): each puzzle and each account has a Glicko-2
//! puzzle rating per variant, and an account's first attempt of a puzzle is a rated game
//! between them (bao-rating's arithmetic through [`crate::domain::rating::rate`]); the next
//! puzzle is chosen near the account's rating among those it has not attempted; a streak
//! runs from easy to hard until the first miss.
//!
//! The server decides the verdict: it replays the solver's moves against the puzzle's line
//! with the rules crate (NOT-2 forms accepted), whatever the client's `solved` flag says.
//! The store writes an attempt in one transaction, exactly once per account and puzzle
//! across instances (`Store::write_puzzle_attempt`).

use super::{Catalogue, Live, Puzzle, Shown};
use crate::domain::rating::{config, rate, Stored};
use crate::edge::account::{Account, MaybeAccount};
use crate::edge::body::Json as JsonBody;
use crate::error::{ApiError, ApiResult, Category};
use crate::game::Games;
use crate::store::{AttemptWritten, NewAttempt, PuzzlePlayer};
use axum::extract::{Path, Query, State};
use axum::routing::{get, post};
use axum::{Extension, Json, Router};
use bao_engine::puzzle::Goal;
use bao_rating::Outcome;
use bao_rules::{find_move, Variant};
use rand::Rng;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// A puzzle's deviation at its first attempt: lower than a new player's 500, since its
/// difficulty gives its start rating (docs/api.md, "Puzzles").
pub const PUZZLE_START_RD: f64 = 350.0;
/// `/next` looks for a puzzle within this many points of the player's rating, the window
/// doubled until one is found.
pub const WINDOW: f64 = 100.0;
/// When every puzzle of the choice was attempted, `/next` still avoids the account's
/// latest attempts, this many.
pub const RECENT: usize = 100;
/// Moves an attempt may list beyond the solver's moves of the line.
pub const EXTRA_MOVES: usize = 4;
/// The longest move text accepted (no move is that long).
pub const MAX_MOVE_CHARS: usize = 32;
/// A streak's puzzle may be rated this much below the streak's last one (puzzles' ratings
/// move while a streak runs).
pub const STREAK_SLACK: f64 = 100.0;
/// Times an attempt is tried when a rating changed between its read and its write.
const TRIES: usize = 6;

/// The routes (the catalogue comes as the puzzles' `Extension`).
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/puzzles/next", get(next))
        .route("/api/puzzles/streak", get(streak))
        .route("/api/puzzles/{id}", get(one))
        .route("/api/puzzles/{id}/attempt", post(attempt))
        .with_state(games)
}

type Cat = Extension<Arc<Live>>;

/// A puzzle's start rating, from its difficulty (docs/api.md, "Puzzles"): by goal, a seeds
/// puzzle 1200, a save_house one 1350, a win 1300 and 200 more for each solver move after
/// the first; 25 more for each theme after the first (more happens in the line).
pub fn start_rating(p: &Puzzle) -> f64 {
    let solver_moves = p.entry.moves.len().div_ceil(2) as f64;
    let base = match p.entry.goal {
        Goal::Seeds { .. } => 1200.0,
        Goal::SaveHouse => 1350.0,
        Goal::Win => 1300.0 + 200.0 * (solver_moves - 1.0),
    };
    base + 25.0 * p.entry.themes.len().saturating_sub(1) as f64
}

/// A puzzle's rating before its first attempt.
pub fn start_stored(p: &Puzzle) -> Stored {
    Stored {
        rating: start_rating(p),
        rd: PUZZLE_START_RD,
        volatility: config().start().volatility(),
        games: 0,
        // A puzzle's difficulty does not fade with time: its deviation never grows idle.
        last_played: None,
    }
}

/// The verdict on an attempt: solved (every solver move of the line right), or failed at
/// the first wrong one (`wrong`: its index among the solver's moves) or short of the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// Every solver move right.
    pub solved: bool,
    /// The first wrong move's index, if one was wrong.
    pub wrong: Option<usize>,
}

/// Replays `moves`, the solver's moves in order, against the puzzle's line: each is matched
/// by the rules at the line's position of that turn. Refuses a list too long, a move too
/// long, or a move the rules refuse (named by its number).
pub fn judge(p: &Puzzle, moves: &[String]) -> ApiResult<Verdict> {
    let line = &p.entry.moves;
    let turns = line.len().div_ceil(2);
    if moves.len() > turns + EXTRA_MOVES {
        return Err(ApiError::bad_request(format!(
            "{} moves for a puzzle of {turns} solver moves: list the solver's moves only",
            moves.len()
        )));
    }
    if let Some((i, _)) = moves
        .iter()
        .enumerate()
        .find(|(_, m)| m.chars().count() > MAX_MOVE_CHARS)
    {
        return Err(ApiError::bad_request(format!(
            "move {} is longer than {MAX_MOVE_CHARS} characters: no move is that long",
            i + 1
        )));
    }
    for (i, m) in moves.iter().enumerate().take(turns) {
        let here = p.after(2 * i);
        let lm = find_move(&here, &p.rules, m).map_err(|e| {
            let mut a = ApiError::from(e);
            a.message = format!(
                "move {} ({:?}): {}",
                i + 1,
                bao_rules::printable(m),
                a.message
            );
            a
        })?;
        if lm.mv.to_string() != line[2 * i] {
            return Ok(Verdict {
                solved: false,
                wrong: Some(i),
            });
        }
    }
    Ok(Verdict {
        solved: moves.len() >= turns,
        wrong: None,
    })
}

/// The account's puzzle rating and streak as the pages show them.
#[derive(Serialize, Debug)]
struct PlayerShown {
    rating: i32,
    provisional: bool,
    streak: i64,
    best_streak: i64,
}

fn player_shown(p: &PuzzlePlayer, now: i64) -> PlayerShown {
    let s = p.rating.shown(now);
    PlayerShown {
        rating: s.rating,
        provisional: s.provisional,
        streak: p.streak,
        best_streak: p.best_streak,
    }
}

/// A puzzle with its rating, and for a signed-in player their rating and whether they
/// attempted it.
#[derive(Serialize)]
struct RatedShown {
    #[serde(flatten)]
    puzzle: Shown,
    rating: i32,
    #[serde(skip_serializing_if = "Option::is_none")]
    player: Option<PlayerShown>,
    #[serde(skip_serializing_if = "Option::is_none")]
    attempted: Option<bool>,
}

async fn rating_of(games: &Games, p: &Puzzle) -> ApiResult<f64> {
    Ok(games
        .store
        .puzzle_rating(&p.entry.id)
        .await?
        .map_or_else(|| start_rating(p), |s| s.rating))
}

async fn shown(
    games: &Games,
    who: &MaybeAccount,
    p: &Puzzle,
    puzzle: Shown,
) -> ApiResult<RatedShown> {
    let rating = rating_of(games, p).await?.round() as i32;
    let (player, attempted) = match &who.0 {
        None => (None, None),
        Some(a) => {
            let v = p.rules.variant.id();
            let me = games.store.puzzle_player(&a.id.0, v).await?;
            let seen = games.store.puzzle_attempt(&a.id.0, &p.entry.id).await?;
            (
                Some(player_shown(
                    &me.unwrap_or_else(PuzzlePlayer::start),
                    games.clock.now_ms(),
                )),
                Some(seen.is_some()),
            )
        }
    };
    Ok(RatedShown {
        puzzle,
        rating,
        player,
        attempted,
    })
}

async fn one(
    State(games): State<Arc<Games>>,
    Extension(live): Cat,
    who: MaybeAccount,
    Path(id): Path<String>,
) -> ApiResult<Json<RatedShown>> {
    let cat = live.now();
    let Json(view) = super::one(Extension(live.clone()), Path(id)).await?;
    let p = super::find(&cat, &view.id)?;
    Ok(Json(shown(&games, &who, p, view).await?))
}

/// Every puzzle of a variant (of a theme if named) with its current rating.
fn rated_of<'a>(
    cat: &'a Catalogue,
    v: Variant,
    theme: Option<bao_engine::theme::Theme>,
    stored: &HashMap<String, f64>,
) -> Vec<(&'a Puzzle, f64)> {
    cat.of(v)
        .iter()
        .filter(|p| theme.is_none_or(|t| p.entry.themes.contains(&t)))
        .map(|p| {
            let r = stored
                .get(&p.entry.id)
                .copied()
                .unwrap_or_else(|| start_rating(p));
            (p, r)
        })
        .collect()
}

/// `GET /api/puzzles/next`: a guest's is the data file's order after `after`; a signed-in
/// account's is near its rating among the puzzles it has not attempted (docs/api.md).
async fn next(
    State(games): State<Arc<Games>>,
    Extension(live): Cat,
    who: MaybeAccount,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<RatedShown>> {
    let cat = live.now();
    let Some(a) = &who.0 else {
        let Json(guest) = super::next(Extension(live.clone()), Query(q)).await?;
        let p = super::find(&cat, &guest.id)?;
        return Ok(Json(shown(&games, &who, p, guest).await?));
    };
    let (v, theme) = super::variant_and_theme(&q)?;
    let stored: HashMap<String, f64> = games
        .store
        .puzzle_ratings(v.id())
        .await?
        .into_iter()
        .collect();
    let all = rated_of(&cat, v, theme, &stored);
    if all.is_empty() {
        return Err(no_puzzle(v, theme));
    }
    let attempts = games.store.puzzle_attempts(&a.id.0, v.id()).await?;
    let me = games
        .store
        .puzzle_player(&a.id.0, v.id())
        .await?
        .unwrap_or_else(PuzzlePlayer::start);
    let skip = q.get("after").map(String::as_str);
    let pick = |avoid: &HashSet<&str>| -> Vec<(&Puzzle, f64)> {
        all.iter()
            .filter(|(p, _)| {
                !avoid.contains(p.entry.id.as_str()) && Some(p.entry.id.as_str()) != skip
            })
            .copied()
            .collect()
    };
    // Never attempted first; when all were, not among the latest; else any but `after`.
    let mut open = pick(&attempts.iter().map(|x| x.puzzle_id.as_str()).collect());
    if open.is_empty() {
        open = pick(
            &attempts
                .iter()
                .take(RECENT)
                .map(|x| x.puzzle_id.as_str())
                .collect(),
        );
    }
    if open.is_empty() {
        open = pick(&HashSet::new());
    }
    if open.is_empty() {
        open = all.clone();
    }
    let target = me.rating.rating;
    let mut window = WINDOW;
    let chosen = loop {
        let near: Vec<_> = open
            .iter()
            .filter(|(_, r)| (r - target).abs() <= window)
            .collect();
        if !near.is_empty() {
            break near[rand::rng().random_range(0..near.len())].0;
        }
        window *= 2.0;
    };
    Ok(Json(
        shown(&games, &who, chosen, super::view(chosen, true)).await?,
    ))
}

fn no_puzzle(v: Variant, theme: Option<bao_engine::theme::Theme>) -> ApiError {
    ApiError::not_found(format!(
        "no {} puzzle has the theme {}",
        v.id(),
        theme.map(|t| t.name()).unwrap_or_default()
    ))
}

#[derive(Serialize)]
struct StreakShown {
    streak: i64,
    best_streak: i64,
    /// The streak's next puzzle; `null` when every puzzle of the choice was attempted.
    next: Option<RatedShown>,
}

/// `GET /api/puzzles/streak?variant=V[&theme=T]`: the account's streak and its next
/// puzzle, the lowest rated it has not attempted at or above the streak's last one.
async fn streak(
    State(games): State<Arc<Games>>,
    Extension(live): Cat,
    who: Account,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<StreakShown>> {
    let cat = live.now();
    let (v, theme) = super::variant_and_theme(&q)?;
    let me = games
        .store
        .puzzle_player(&who.id.0, v.id())
        .await?
        .unwrap_or_else(PuzzlePlayer::start);
    let stored: HashMap<String, f64> = games
        .store
        .puzzle_ratings(v.id())
        .await?
        .into_iter()
        .collect();
    let attempts = games.store.puzzle_attempts(&who.id.0, v.id()).await?;
    let seen: HashSet<&str> = attempts.iter().map(|x| x.puzzle_id.as_str()).collect();
    let next = rated_of(&cat, v, theme, &stored)
        .into_iter()
        .filter(|(p, r)| !seen.contains(p.entry.id.as_str()) && *r >= me.streak_floor)
        // The first of the lowest rating: the data file's order breaks ties.
        .fold(None::<(&Puzzle, f64)>, |best, (p, r)| match best {
            Some((_, b)) if b <= r => best,
            _ => Some((p, r)),
        });
    let who = MaybeAccount(Some(who));
    let next = match next {
        Some((p, _)) => Some(shown(&games, &who, p, super::view(p, true)).await?),
        None => None,
    };
    Ok(Json(StreakShown {
        streak: me.streak,
        best_streak: me.best_streak,
        next,
    }))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AttemptReq {
    /// The solver's moves in order (NOT-2).
    moves: Vec<String>,
    /// What the client thinks; the server decides.
    #[serde(default)]
    #[allow(dead_code)]
    solved: Option<bool>,
    /// The attempt is the streak's.
    #[serde(default)]
    streak: bool,
}

#[derive(Serialize, Debug)]
struct Change {
    before: i32,
    after: i32,
}

#[derive(Serialize, Debug)]
struct AttemptResp {
    solved: bool,
    /// The first wrong move's index among the solver's moves (0 is the first).
    wrong: Option<usize>,
    /// The first attempt of this puzzle by this account: rated.
    rated: bool,
    rating: Change,
    provisional: bool,
    puzzle_rating: i32,
    streak: i64,
    best_streak: i64,
}

async fn attempt(
    State(games): State<Arc<Games>>,
    Extension(live): Cat,
    who: Account,
    Path(id): Path<String>,
    JsonBody(req): JsonBody<AttemptReq>,
) -> ApiResult<Json<AttemptResp>> {
    let cat = live.now();
    let p = super::find(&cat, &id)?;
    let verdict = judge(p, &req.moves)?;
    let v = p.rules.variant.id();
    let account = who.id.0.as_str();
    let store = &games.store;
    for _ in 0..TRIES {
        let now = games.clock.now_ms();
        // Whether it was attempted is read before the ratings: the attempt and the ratings it
        // moved are committed together, so a later attempt reads the ratings after it.
        let attempted = store.puzzle_attempt(account, &id).await?.is_some();
        let me_row = store.puzzle_player(account, v).await?;
        let me = me_row.unwrap_or_else(PuzzlePlayer::start);
        let puzzle_row = store.puzzle_rating(&id).await?;
        let puzzle = puzzle_row.unwrap_or_else(|| start_stored(p));
        let unrated = |me: PuzzlePlayer, puzzle: Stored| {
            let r = me.rating.rating().rounded();
            AttemptResp {
                solved: verdict.solved,
                wrong: verdict.wrong,
                rated: false,
                rating: Change {
                    before: r,
                    after: r,
                },
                provisional: me.rating.shown(now).provisional,
                puzzle_rating: puzzle.rating.round() as i32,
                streak: me.streak,
                best_streak: me.best_streak,
            }
        };
        if attempted {
            return Ok(Json(unrated(me, puzzle)));
        }
        if req.streak && puzzle.rating < me.streak_floor - STREAK_SLACK {
            return Err(ApiError::bad_request(
                "this puzzle is easier than the streak's last one: ask /api/puzzles/streak \
                 for the streak's next puzzle",
            ));
        }
        let outcome = if verdict.solved {
            Outcome::Win
        } else {
            Outcome::Loss
        };
        let u = rate([me.rating, puzzle], outcome, now);
        let mut after = PuzzlePlayer {
            rating: u.after[0],
            ..me
        };
        if req.streak {
            if verdict.solved {
                after.streak += 1;
                after.best_streak = after.best_streak.max(after.streak);
                after.streak_floor = puzzle.rating;
            } else {
                after.streak = 0;
                after.streak_floor = 0.0;
            }
        }
        let puzzle_after = Stored {
            last_played: None,
            ..u.after[1]
        };
        let written = store
            .write_puzzle_attempt(&NewAttempt {
                account,
                puzzle: &id,
                variant: v,
                solved: verdict.solved,
                player_before: me_row,
                player_after: after,
                puzzle_before: puzzle_row,
                puzzle_after,
                at: now,
            })
            .await?;
        match written {
            AttemptWritten::Rated => {
                return Ok(Json(AttemptResp {
                    solved: verdict.solved,
                    wrong: verdict.wrong,
                    rated: true,
                    rating: Change {
                        before: me.rating.rating().rounded(),
                        after: after.rating.rating().rounded(),
                    },
                    provisional: after.rating.shown(now).provisional,
                    puzzle_rating: puzzle_after.rating.round() as i32,
                    streak: after.streak,
                    best_streak: after.best_streak,
                }))
            }
            // Another request of this account rated it first: this one reads it as a later
            // attempt.
            AttemptWritten::AlreadyAttempted | AttemptWritten::Changed => continue,
        }
    }
    Err(ApiError::of(
        Category::Conflict,
        "the ratings kept changing while this attempt was rated: try again",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(v: Variant, goal: &str, len: usize) -> Puzzle {
        let c = Catalogue::embedded().unwrap();
        c.of(v)
            .iter()
            .find(|p| p.entry.goal.kind() == goal && p.entry.moves.len() == len)
            .unwrap()
            .clone()
    }

    #[test]
    fn the_solution_solves_and_a_wrong_move_fails_at_its_turn() {
        let p = first(Variant::Kiswahili, "win", 5);
        let line: Vec<String> = p.entry.moves.iter().step_by(2).cloned().collect();
        assert_eq!(
            judge(&p, &line).unwrap(),
            Verdict {
                solved: true,
                wrong: None
            }
        );
        let here = p.after(2);
        let other = bao_rules::legal_moves(&here, &p.rules)
            .iter()
            .map(|m| m.mv.to_string())
            .find(|m| *m != line[1]);
        if let Some(other) = other {
            let v = judge(&p, &[line[0].clone(), other, line[2].clone()]).unwrap();
            assert_eq!(
                v,
                Verdict {
                    solved: false,
                    wrong: Some(1)
                }
            );
        }
        assert!(!judge(&p, &line[..2]).unwrap().solved);
        let e = judge(&p, &[line[0].clone(), "zz9".into()]).unwrap_err();
        assert!(e.message.starts_with("move 2 (\"zz9\")"), "{}", e.message);
        assert!(judge(&p, &vec![line[0].clone(); 8]).is_err());
    }

    #[test]
    fn start_ratings_grow_with_the_line() {
        let seeds = first(Variant::Kiswahili, "seeds", 2);
        let win3 = first(Variant::Kiswahili, "win", 3);
        let win7 = first(Variant::Kiswahili, "win", 7);
        assert!(start_rating(&seeds) < start_rating(&win3));
        assert!(start_rating(&win3) + 400.0 <= start_rating(&win7));
    }
}
