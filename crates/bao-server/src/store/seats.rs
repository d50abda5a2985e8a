//! The rows "My games" reads (docs/api.md, "My games"): one query for every seat a browser
//! names, straight from the database (the truth, also with several instances on one
//! PostgreSQL); nothing is loaded into memory, no game is replayed.

use super::{Store, StoreError};
use sqlx::Row;

/// A player as a seat row holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SeatPlayer {
    /// `human` or `computer` (or any kind the store holds).
    pub kind: String,
    /// Display name.
    pub name: String,
    /// The computer's level.
    pub level: Option<i64>,
    /// SHA-256 of the seat token, if the seat is taken by a person.
    pub token_hash: Option<String>,
}

/// What one row of `games` says about the seats of a match.
#[derive(Clone, Debug)]
pub struct SeatRow {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// Option string.
    pub rules: String,
    /// The side player 0 plays in game 1.
    pub first_side: String,
    /// Current game number.
    pub game_no: i64,
    /// Players 0 and 1.
    pub players: [SeatPlayer; 2],
    /// Invite code while the seat is open.
    pub invite: Option<String>,
    /// `live` or `finished`.
    pub status: String,
    /// Ply of the current position.
    pub ply: i64,
    /// Current position (NOT-3).
    pub position: String,
    /// Current game's result token.
    pub result: String,
    /// Last change, ms since the epoch.
    pub updated: i64,
    /// A rated match (docs/api.md, "Ratings").
    pub rated: bool,
}

impl Store {
    /// The seat rows of the games `ids` (unknown ids are simply absent).
    pub async fn seat_rows(&self, ids: &[&str]) -> Result<Vec<SeatRow>, StoreError> {
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        // One placeholder per id ($1, $2, ...); the ids themselves are bound, never spliced.
        let marks: Vec<String> = (1..=ids.len()).map(|i| format!("${i}")).collect();
        let sql = format!(
            "SELECT id, variant, rules, first_side, game_no, p0_kind, p0_name, p0_level, p0_token,
               p1_kind, p1_name, p1_level, p1_token, invite, status, ply, position, result, updated,
               rated
             FROM games WHERE id IN ({})",
            marks.join(", ")
        );
        let mut q = sqlx::query(&sql);
        for id in ids {
            q = q.bind(id.to_string());
        }
        let rows = q.fetch_all(&self.read).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in rows {
            let player = |p: &str| -> Result<SeatPlayer, sqlx::Error> {
                Ok(SeatPlayer {
                    kind: r.try_get(format!("{p}_kind").as_str())?,
                    name: r.try_get(format!("{p}_name").as_str())?,
                    level: r.try_get(format!("{p}_level").as_str())?,
                    token_hash: r.try_get(format!("{p}_token").as_str())?,
                })
            };
            out.push(SeatRow {
                id: r.try_get("id")?,
                variant: r.try_get("variant")?,
                rules: r.try_get("rules")?,
                first_side: r.try_get("first_side")?,
                game_no: r.try_get("game_no")?,
                players: [player("p0")?, player("p1")?],
                invite: r.try_get("invite")?,
                status: r.try_get("status")?,
                ply: r.try_get("ply")?,
                position: r.try_get("position")?,
                result: r.try_get("result")?,
                updated: r.try_get("updated")?,
                rated: r.try_get::<i64, _>("rated")? != 0,
            });
        }
        Ok(out)
    }
}
