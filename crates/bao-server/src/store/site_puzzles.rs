//! Puzzles mined from the site's finished games (docs/api.md, "Puzzles"; migration 0024).
//!
//! Exactly once across instances: a game is claimed by a conditional insert of its row in
//! `site_puzzle_games` before it is mined, and a puzzle's board is unique in its variant, so
//! a position found in two games (or by two instances) is stored once. A claim is a lease
//! ([`CLAIM_LEASE_MS`]): one never finished (its instance stopped mid-game) may be taken
//! again once it is older, and only the latest claim may finish the game (its claim time,
//! the row's `at`, is the claim's token), so a finished game is never mined twice. A puzzle added
//! publishes [`Event::Puzzle`] in its insert's transaction: every instance's catalogue
//! reads it.

use super::{Store, StoreError};
use crate::domain::events::Event;
use sqlx::Row;

/// How long a claim holds a game against other instances (ms). Mining a game takes seconds
/// (docs/api.md, "Puzzles", the measured figures: a long kete game under a minute on a
/// busy 2-core machine), so a claim this old is an instance that stopped mid-game, not one
/// still at work; the game is then free to the next that asks. A claimer slower than this
/// only loses its work: its finish is refused ([`Store::add_site_puzzles`]).
pub const CLAIM_LEASE_MS: i64 = 10 * 60 * 1000;

/// One stored puzzle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SitePuzzleRow {
    /// `VARIANT-gGAME-N-PLY`.
    pub id: String,
    /// The variant's id.
    pub variant: String,
    /// The position without its ply counter.
    pub board: String,
    /// The puzzle as the data files hold it (JSON).
    pub entry: String,
    /// The match it came from.
    pub game_id: String,
    /// The game of the match.
    pub game_no: u32,
    /// The ply of its position in that game.
    pub ply: u32,
    /// When it was found (ms).
    pub at: i64,
}

fn row_of(r: &sqlx::any::AnyRow) -> Result<SitePuzzleRow, StoreError> {
    Ok(SitePuzzleRow {
        id: r.try_get("id")?,
        variant: r.try_get("variant")?,
        board: r.try_get("board")?,
        entry: r.try_get("entry")?,
        game_id: r.try_get("game_id")?,
        game_no: r.try_get::<i64, _>("game_no")?.max(0) as u32,
        ply: r.try_get::<i64, _>("ply")?.max(0) as u32,
        at: r.try_get("at")?,
    })
}

impl Store {
    /// Claims game `game_no` of match `game_id` for mining at `now` (ms): `true` for the one
    /// caller, on any instance, that claimed it first, or that took over a claim older than
    /// [`CLAIM_LEASE_MS`] never finished. The claim's token is `now`, for
    /// [`Store::add_site_puzzles`].
    pub async fn claim_site_game(
        &self,
        game_id: &str,
        game_no: u32,
        now: i64,
    ) -> Result<bool, StoreError> {
        let n = sqlx::query(
            "INSERT INTO site_puzzle_games (game_id, game_no, at) VALUES ($1, $2, $3)
             ON CONFLICT (game_id, game_no) DO NOTHING",
        )
        .bind(game_id)
        .bind(i64::from(game_no))
        .bind(now)
        .execute(&self.write)
        .await?
        .rows_affected();
        if n == 1 {
            return Ok(true);
        }
        // Conditional on the stale claim it read: of two instances taking it over at once,
        // the second's update finds `at` changed (PostgreSQL re-reads the row it waited
        // for; SQLite has one writer) and changes nothing.
        let n = sqlx::query(
            "UPDATE site_puzzle_games SET at = $3
             WHERE game_id = $1 AND game_no = $2 AND puzzles IS NULL AND at <= $4",
        )
        .bind(game_id)
        .bind(i64::from(game_no))
        .bind(now)
        .bind(now - CLAIM_LEASE_MS)
        .execute(&self.write)
        .await?
        .rows_affected();
        Ok(n == 1)
    }

    /// Stores the puzzles of the game claimed at `claimed` (the `now` of its
    /// [`Store::claim_site_game`]) and marks it mined; a board stored already (from another
    /// game) is skipped. Returns the ids stored, each published as [`Event::Puzzle`] with
    /// them, or `None`, storing nothing, when the claim is no longer the game's (another
    /// instance took it over after the lease, or finished it).
    pub async fn add_site_puzzles(
        &self,
        game_id: &str,
        game_no: u32,
        claimed: i64,
        rows: &[SitePuzzleRow],
    ) -> Result<Option<Vec<String>>, StoreError> {
        let mut tx = self.write.begin().await?;
        // The claim first: it locks the row, so a takeover waits for this transaction (and
        // then finds the game mined), and a claim lost stores nothing.
        let held = sqlx::query(
            "UPDATE site_puzzle_games SET puzzles = 0
             WHERE game_id = $1 AND game_no = $2 AND at = $3 AND puzzles IS NULL",
        )
        .bind(game_id)
        .bind(i64::from(game_no))
        .bind(claimed)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if held != 1 {
            tx.rollback().await?;
            return Ok(None);
        }
        let mut added = Vec::new();
        for r in rows {
            let n = sqlx::query(
                "INSERT INTO site_puzzles (id, variant, board, entry, game_id, game_no, ply, at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT DO NOTHING",
            )
            .bind(&r.id)
            .bind(&r.variant)
            .bind(&r.board)
            .bind(&r.entry)
            .bind(&r.game_id)
            .bind(i64::from(r.game_no))
            .bind(i64::from(r.ply))
            .bind(r.at)
            .execute(&mut *tx)
            .await?
            .rows_affected();
            if n == 1 {
                added.push(r.id.clone());
            }
        }
        sqlx::query(
            "UPDATE site_puzzle_games SET puzzles = $3 WHERE game_id = $1 AND game_no = $2",
        )
        .bind(game_id)
        .bind(i64::from(game_no))
        .bind(added.len() as i64)
        .execute(&mut *tx)
        .await?;
        let events = added
            .iter()
            .map(|id| Event::Puzzle { id: id.clone() })
            .collect();
        self.commit_events(tx, events).await?;
        Ok(Some(added))
    }

    /// How many new puzzles game `game_no` of match `game_id` gave, once it is mined.
    pub async fn site_game_mined(
        &self,
        game_id: &str,
        game_no: u32,
    ) -> Result<Option<u32>, StoreError> {
        let n: Option<Option<i64>> = sqlx::query_scalar(
            "SELECT puzzles FROM site_puzzle_games WHERE game_id = $1 AND game_no = $2",
        )
        .bind(game_id)
        .bind(i64::from(game_no))
        .fetch_optional(&self.read)
        .await?;
        Ok(n.flatten().map(|n| n.max(0) as u32))
    }

    /// Every stored puzzle, in the order found.
    pub async fn site_puzzles(&self) -> Result<Vec<SitePuzzleRow>, StoreError> {
        let rows = sqlx::query("SELECT * FROM site_puzzles ORDER BY at, id")
            .fetch_all(&self.read)
            .await?;
        rows.iter().map(row_of).collect()
    }

    /// The stored puzzle `id`.
    pub async fn site_puzzle(&self, id: &str) -> Result<Option<SitePuzzleRow>, StoreError> {
        let row = sqlx::query("SELECT * FROM site_puzzles WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        row.as_ref().map(row_of).transpose()
    }

    /// Finished games of matches changed since `since` (ms) that no instance claimed yet,
    /// or whose claim is older than [`CLAIM_LEASE_MS`] at `now` and never finished, the
    /// oldest first: what an instance stopped before mining left.
    pub async fn unmined_games(
        &self,
        since: i64,
        now: i64,
        limit: i64,
    ) -> Result<Vec<(String, u32)>, StoreError> {
        let rows = sqlx::query(
            "SELECT r.game_id, r.game_no FROM rounds r JOIN games g ON g.id = r.game_id
             WHERE g.updated >= $1 AND r.result <> '-' AND NOT EXISTS (
                 SELECT 1 FROM site_puzzle_games c
                 WHERE c.game_id = r.game_id AND c.game_no = r.game_no
                   AND (c.puzzles IS NOT NULL OR c.at > $3))
             ORDER BY g.updated, r.game_id, r.game_no LIMIT $2",
        )
        .bind(since)
        .bind(limit)
        .bind(now - CLAIM_LEASE_MS)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("game_id")?,
                    r.try_get::<i64, _>("game_no")?.max(1) as u32,
                ))
            })
            .collect()
    }
}
