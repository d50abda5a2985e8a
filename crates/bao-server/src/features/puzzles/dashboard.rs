//! A player's puzzle dashboard (docs/api.md, "Puzzles"): in one variant, the puzzle rating
//! and its history, the puzzles tried and solved, the streaks, and the success by theme with
//! the weakest themes first, so that a player sees what to drill. Read from the rated
//! attempts (one per account and puzzle, `store/puzzles.rs`) and the catalogue's themes.

use super::Live;
use crate::edge::account::Account;
use crate::error::ApiResult;
use crate::game::Games;
use crate::store::PuzzlePlayer;
use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Extension, Json, Router};
use bao_engine::theme::Theme;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

/// Points of the rating history shown, the latest.
pub const HISTORY: usize = 200;

/// The routes (the catalogue comes as the puzzles' `Extension`).
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/puzzles/dashboard", get(dashboard))
        .with_state(games)
}

/// One theme's record.
#[derive(Serialize, Debug, PartialEq)]
struct ThemeRecord {
    theme: Theme,
    attempts: u32,
    solved: u32,
    /// Solved of attempted, in whole percent (rounded down).
    percent: u32,
}

#[derive(Serialize)]
struct Point {
    at: i64,
    rating: i32,
}

#[derive(Serialize)]
struct Rating {
    rating: i32,
    provisional: bool,
}

#[derive(Serialize)]
struct Dashboard {
    variant: &'static str,
    /// `null` before the first rated attempt in the variant.
    rating: Option<Rating>,
    attempts: usize,
    solved: usize,
    streak: i64,
    best_streak: i64,
    themes: Vec<ThemeRecord>,
    history: Vec<Point>,
}

/// The themes' records from (themes, solved) of each attempt: the weakest first (the lowest
/// share solved, then the most tried, then the theme's order).
fn by_theme<'a>(attempts: impl Iterator<Item = (&'a [Theme], bool)>) -> Vec<ThemeRecord> {
    let mut counts: BTreeMap<Theme, (u32, u32)> = BTreeMap::new();
    for (themes, solved) in attempts {
        for t in themes {
            let c = counts.entry(*t).or_default();
            c.0 += 1;
            c.1 += u32::from(solved);
        }
    }
    let mut out: Vec<ThemeRecord> = counts
        .into_iter()
        .map(|(theme, (attempts, solved))| ThemeRecord {
            theme,
            attempts,
            solved,
            percent: solved * 100 / attempts,
        })
        .collect();
    // Compare shares exactly: a/b < c/d as a*d < c*b.
    out.sort_by(|x, y| {
        (u64::from(x.solved) * u64::from(y.attempts))
            .cmp(&(u64::from(y.solved) * u64::from(x.attempts)))
            .then(y.attempts.cmp(&x.attempts))
    });
    out
}

/// `GET /api/puzzles/dashboard?variant=V` (signed in).
async fn dashboard(
    State(games): State<Arc<Games>>,
    Extension(live): Extension<Arc<Live>>,
    who: Account,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Json<Dashboard>> {
    let (v, _) = super::variant_and_theme(&q)?;
    let cat = live.now();
    let me = games.store.puzzle_player(&who.id.0, v.id()).await?;
    // The latest first.
    let attempts = games.store.puzzle_attempts(&who.id.0, v.id()).await?;
    let solved = attempts.iter().filter(|a| a.solved).count();
    let themes = by_theme(attempts.iter().filter_map(|a| {
        cat.get(&a.puzzle_id)
            .map(|p| (p.entry.themes.as_slice(), a.solved))
    }));
    let mut history: Vec<Point> = attempts
        .iter()
        .take(HISTORY)
        .map(|a| Point {
            at: a.at,
            rating: a.after.round() as i32,
        })
        .collect();
    history.reverse();
    let now = games.clock.now_ms();
    let p = me.unwrap_or_else(PuzzlePlayer::start);
    Ok(Json(Dashboard {
        variant: v.id(),
        rating: me.map(|m| {
            let s = m.rating.shown(now);
            Rating {
                rating: s.rating,
                provisional: s.provisional,
            }
        }),
        attempts: attempts.len(),
        solved,
        streak: p.streak,
        best_streak: p.best_streak,
        themes,
        history,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_weakest_theme_comes_first_and_ties_go_to_the_most_tried() {
        use Theme::*;
        let a = [CaptureChain, Takasa];
        let b = [CaptureChain];
        let c = [Endgame];
        let tries: Vec<(&[Theme], bool)> = vec![
            (&a, true),
            (&a, false),
            (&b, true),
            (&c, false),
            (&c, true),
            (&c, false),
            (&c, true),
        ];
        let got = by_theme(tries.into_iter());
        let row = |t, n, s, p| ThemeRecord {
            theme: t,
            attempts: n,
            solved: s,
            percent: p,
        };
        assert_eq!(
            got,
            vec![
                // 1 of 2 and 2 of 4 are both a half: the one tried more first.
                row(Endgame, 4, 2, 50),
                row(Takasa, 2, 1, 50),
                row(CaptureChain, 3, 2, 66),
            ]
        );
    }
}
