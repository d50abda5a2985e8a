//! Rated puzzles (docs/api.md, "Puzzles"; migration 0023): each puzzle's rating, each
//! account's puzzle rating and streak per variant, and the attempts. An attempt's write is
//! one transaction: the attempt's row first (its primary key makes the first attempt of a
//! puzzle by an account the only rated one, on every instance), then both ratings, each only
//! if it is still the one the update was computed from.

use super::{Store, StoreError};
use crate::domain::rating::Stored;
use sqlx::any::AnyRow;
use sqlx::Row;

/// An account's puzzle rating and streak in one variant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PuzzlePlayer {
    /// The rating (`games` counts rated attempts, the row's version).
    pub rating: Stored,
    /// Puzzles solved in a row in the current streak.
    pub streak: i64,
    /// The best streak.
    pub best_streak: i64,
    /// The rating of the current streak's last puzzle (0 before its first).
    pub streak_floor: f64,
}

impl PuzzlePlayer {
    /// An account's values before its first rated attempt in a variant.
    pub fn start() -> PuzzlePlayer {
        PuzzlePlayer {
            rating: Stored::start(),
            streak: 0,
            best_streak: 0,
            streak_floor: 0.0,
        }
    }
}

/// An account's attempt of a puzzle (the first, the rated one).
#[derive(Clone, Debug, PartialEq)]
pub struct AttemptRow {
    /// The puzzle.
    pub puzzle_id: String,
    /// Solved or failed.
    pub solved: bool,
    /// The account's rating before and after it.
    pub before: f64,
    /// After.
    pub after: f64,
    /// The puzzle's rating after it.
    pub puzzle_after: f64,
    /// When (ms since the epoch).
    pub at: i64,
}

/// One rated attempt to write.
#[derive(Clone, Debug)]
pub struct NewAttempt<'a> {
    /// The account.
    pub account: &'a str,
    /// The puzzle and its variant.
    pub puzzle: &'a str,
    /// Its variant id.
    pub variant: &'a str,
    /// The verdict.
    pub solved: bool,
    /// The account's values as read (`None`: no row yet) and after.
    pub player_before: Option<PuzzlePlayer>,
    /// After.
    pub player_after: PuzzlePlayer,
    /// The puzzle's rating as read (`None`: no row yet) and after.
    pub puzzle_before: Option<Stored>,
    /// After.
    pub puzzle_after: Stored,
    /// When.
    pub at: i64,
}

/// What an attempt's write did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttemptWritten {
    /// Written: the attempt is rated.
    Rated,
    /// The account had attempted the puzzle already (another request got there first).
    AlreadyAttempted,
    /// A rating changed after it was read: read again and retry.
    Changed,
}

fn stored_of(r: &AnyRow, count: &str, last_played: bool) -> Result<Stored, sqlx::Error> {
    Ok(Stored {
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get(count)?,
        last_played: if last_played {
            Some(r.try_get("last_played")?)
        } else {
            None
        },
    })
}

fn attempt_of(r: &AnyRow) -> Result<AttemptRow, sqlx::Error> {
    Ok(AttemptRow {
        puzzle_id: r.try_get("puzzle_id")?,
        solved: r.try_get::<i64, _>("solved")? != 0,
        before: r.try_get("before")?,
        after: r.try_get("after")?,
        puzzle_after: r.try_get("puzzle_after")?,
        at: r.try_get("at")?,
    })
}

impl Store {
    /// The puzzle rating and streak of `account` in `variant`; `None` before its first rated
    /// attempt there.
    pub async fn puzzle_player(
        &self,
        account: &str,
        variant: &str,
    ) -> Result<Option<PuzzlePlayer>, StoreError> {
        let r = sqlx::query(
            "SELECT rating, rd, volatility, attempts, last_played, streak, best_streak,
               streak_floor
             FROM puzzle_players WHERE account_id = $1 AND variant = $2",
        )
        .bind(account)
        .bind(variant)
        .fetch_optional(&self.write)
        .await?;
        r.map(|r| {
            Ok(PuzzlePlayer {
                rating: stored_of(&r, "attempts", true)?,
                streak: r.try_get("streak")?,
                best_streak: r.try_get("best_streak")?,
                streak_floor: r.try_get("streak_floor")?,
            })
        })
        .transpose()
    }

    /// The stored rating of puzzle `id`; `None` before its first rated attempt.
    pub async fn puzzle_rating(&self, id: &str) -> Result<Option<Stored>, StoreError> {
        let r = sqlx::query(
            "SELECT rating, rd, volatility, attempts FROM puzzle_ratings WHERE puzzle_id = $1",
        )
        .bind(id)
        .fetch_optional(&self.write)
        .await?;
        Ok(r.map(|r| stored_of(&r, "attempts", false)).transpose()?)
    }

    /// Every stored puzzle rating of `variant`, as (puzzle id, rating).
    pub async fn puzzle_ratings(&self, variant: &str) -> Result<Vec<(String, f64)>, StoreError> {
        let rows = sqlx::query("SELECT puzzle_id, rating FROM puzzle_ratings WHERE variant = $1")
            .bind(variant)
            .fetch_all(&self.read)
            .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("puzzle_id")?, r.try_get("rating")?)))
            .collect()
    }

    /// The attempt of puzzle `puzzle` by `account`, if it made one.
    pub async fn puzzle_attempt(
        &self,
        account: &str,
        puzzle: &str,
    ) -> Result<Option<AttemptRow>, StoreError> {
        let r = sqlx::query(
            "SELECT puzzle_id, solved, before, after, puzzle_after, at FROM puzzle_attempts
             WHERE account_id = $1 AND puzzle_id = $2",
        )
        .bind(account)
        .bind(puzzle)
        .fetch_optional(&self.write)
        .await?;
        Ok(r.map(|r| attempt_of(&r)).transpose()?)
    }

    /// The puzzles of `variant` that `account` attempted, the latest first.
    pub async fn puzzle_attempts(
        &self,
        account: &str,
        variant: &str,
    ) -> Result<Vec<AttemptRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT puzzle_id, solved, before, after, puzzle_after, at FROM puzzle_attempts
             WHERE account_id = $1 AND variant = $2 ORDER BY at DESC, puzzle_id",
        )
        .bind(account)
        .bind(variant)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok(attempt_of(r)?))
            .collect::<Result<Vec<_>, StoreError>>()
    }

    /// Writes one rated attempt: see the module's comment. Nothing is written unless
    /// [`AttemptWritten::Rated`].
    pub async fn write_puzzle_attempt(
        &self,
        a: &NewAttempt<'_>,
    ) -> Result<AttemptWritten, StoreError> {
        let mut tx = self.write.begin().await?;
        let inserted = sqlx::query(
            "INSERT INTO puzzle_attempts (account_id, puzzle_id, variant, solved, before, after,
               puzzle_after, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
             ON CONFLICT DO NOTHING",
        )
        .bind(a.account)
        .bind(a.puzzle)
        .bind(a.variant)
        .bind(i64::from(a.solved))
        .bind(
            a.player_before
                .unwrap_or_else(PuzzlePlayer::start)
                .rating
                .rating,
        )
        .bind(a.player_after.rating.rating)
        .bind(a.puzzle_after.rating)
        .bind(a.at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if inserted != 1 {
            return Ok(AttemptWritten::AlreadyAttempted);
        }
        let p = &a.player_after;
        let n = match &a.player_before {
            None => sqlx::query(
                "INSERT INTO puzzle_players (account_id, variant, rating, rd, volatility,
                   attempts, last_played, streak, best_streak, streak_floor)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING",
            )
            .bind(a.account)
            .bind(a.variant)
            .bind(p.rating.rating)
            .bind(p.rating.rd)
            .bind(p.rating.volatility)
            .bind(p.rating.games)
            .bind(a.at)
            .bind(p.streak)
            .bind(p.best_streak)
            .bind(p.streak_floor)
            .execute(&mut *tx)
            .await?
            .rows_affected(),
            Some(b) => sqlx::query(
                "UPDATE puzzle_players SET rating = $1, rd = $2, volatility = $3, attempts = $4,
                   last_played = $5, streak = $6, best_streak = $7, streak_floor = $8
                 WHERE account_id = $9 AND variant = $10 AND attempts = $11 AND rating = $12
                   AND streak = $13",
            )
            .bind(p.rating.rating)
            .bind(p.rating.rd)
            .bind(p.rating.volatility)
            .bind(p.rating.games)
            .bind(a.at)
            .bind(p.streak)
            .bind(p.best_streak)
            .bind(p.streak_floor)
            .bind(a.account)
            .bind(a.variant)
            .bind(b.rating.games)
            .bind(b.rating.rating)
            .bind(b.streak)
            .execute(&mut *tx)
            .await?
            .rows_affected(),
        };
        if n != 1 {
            return Ok(AttemptWritten::Changed);
        }
        let q = &a.puzzle_after;
        let n = match &a.puzzle_before {
            None => sqlx::query(
                "INSERT INTO puzzle_ratings (puzzle_id, variant, rating, rd, volatility, attempts)
                 VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING",
            )
            .bind(a.puzzle)
            .bind(a.variant)
            .bind(q.rating)
            .bind(q.rd)
            .bind(q.volatility)
            .bind(q.games)
            .execute(&mut *tx)
            .await?
            .rows_affected(),
            Some(b) => sqlx::query(
                "UPDATE puzzle_ratings SET rating = $1, rd = $2, volatility = $3, attempts = $4
                 WHERE puzzle_id = $5 AND attempts = $6 AND rating = $7",
            )
            .bind(q.rating)
            .bind(q.rd)
            .bind(q.volatility)
            .bind(q.games)
            .bind(a.puzzle)
            .bind(b.games)
            .bind(b.rating)
            .execute(&mut *tx)
            .await?
            .rows_affected(),
        };
        if n != 1 {
            return Ok(AttemptWritten::Changed);
        }
        tx.commit().await?;
        Ok(AttemptWritten::Rated)
    }
}
