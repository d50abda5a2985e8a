//! Ratings, profiles and the leaderboard (docs/api.md, "Ratings", "Profiles and
//! leaderboard"; migration 0006): the rating write of one rated game (exactly once: the
//! history's primary key), and the reads of the profile and leaderboard pages.

use super::{conflict_or, ListKey, Store, StoreError};
use crate::domain::model::SeatAccount;
use crate::domain::rating::{Stored, Update};
use sqlx::any::AnyRow;
use sqlx::Row;

/// Rows read per page of the leaderboard's candidates.
pub const RATING_PAGE: i64 = 200;

/// A finished game of a rated match that has no rating yet (and had a move).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueRound {
    /// Game id.
    pub game_id: String,
    /// The game of the match.
    pub game_no: u32,
}

/// One point of a rating's history.
#[derive(Clone, Copy, Debug, PartialEq, serde::Serialize)]
pub struct HistoryPoint {
    /// When it was rated (ms since the epoch).
    pub at: i64,
    /// The rating after that game, rounded.
    pub rating: i32,
}

/// An account's finished games by result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Results {
    /// Games won.
    pub won: i64,
    /// Games drawn.
    pub drawn: i64,
    /// Games lost.
    pub lost: i64,
}

/// A candidate of the leaderboard.
#[derive(Clone, Debug, PartialEq)]
pub struct BoardRow {
    /// The account's name.
    pub username: String,
    /// Its rating in the variant.
    pub stored: Stored,
}

/// One match of an account, as its profile lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameRow {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The account's player (0 = the creator).
    pub player: usize,
    /// The side player 0 plays in game 1.
    pub first_side: String,
    /// Current game number.
    pub game_no: i64,
    /// The players' names (0, 1).
    pub names: [String; 2],
    /// The players' kinds (`human`, `computer`).
    pub kinds: [String; 2],
    /// `live` or `finished`.
    pub status: String,
    /// The current game's result token.
    pub result: String,
    /// Wins per player.
    pub wins: [i64; 2],
    /// Rated match.
    pub rated: bool,
    /// The sum of the account's rating changes over the match's rated games, if any.
    pub rating_change: Option<i64>,
    /// Last change (ms).
    pub updated: i64,
}

fn stored_of(r: &AnyRow) -> Result<Stored, sqlx::Error> {
    Ok(Stored {
        rating: r.try_get("rating")?,
        rd: r.try_get("rd")?,
        volatility: r.try_get("volatility")?,
        games: r.try_get("games")?,
        last_played: Some(r.try_get("last_played")?),
    })
}

impl Store {
    /// The account `id` with its rating in `variant` as shown at `now`; `None` for an
    /// account that no longer exists.
    pub async fn seat_account(
        &self,
        id: &str,
        variant: &str,
        now: i64,
    ) -> Result<Option<SeatAccount>, StoreError> {
        let r = sqlx::query(
            "SELECT a.username, r.rating, r.rd, r.volatility, r.games, r.last_played
             FROM accounts a LEFT JOIN ratings r ON r.account_id = a.id AND r.variant = $2
             WHERE a.id = $1",
        )
        .bind(id)
        .bind(variant)
        .fetch_optional(&self.read)
        .await?;
        let Some(r) = r else { return Ok(None) };
        let stored = match r.try_get::<Option<i64>, _>("games")? {
            Some(_) => stored_of(&r)?,
            None => Stored::start(),
        };
        Ok(Some(SeatAccount {
            id: id.to_string(),
            username: r.try_get("username")?,
            rating: stored.shown(now),
        }))
    }

    /// [`Store::seat_account`] of each seat that has an account.
    pub async fn seat_accounts(
        &self,
        ids: &[Option<String>; 2],
        variant: &str,
        now: i64,
    ) -> Result<[Option<SeatAccount>; 2], StoreError> {
        let mut out = [None, None];
        for (o, id) in out.iter_mut().zip(ids) {
            if let Some(id) = id {
                *o = self.seat_account(id, variant, now).await?;
            }
        }
        Ok(out)
    }

    /// The stored rating of `account` in `variant` (a new player's when none).
    pub async fn rating_of(&self, account: &str, variant: &str) -> Result<Stored, StoreError> {
        let r = sqlx::query(
            "SELECT rating, rd, volatility, games, last_played FROM ratings
             WHERE account_id = $1 AND variant = $2",
        )
        .bind(account)
        .bind(variant)
        .fetch_optional(&self.read)
        .await?;
        Ok(match r {
            Some(r) => stored_of(&r)?,
            None => Stored::start(),
        })
    }

    /// Every rating of `account`, by variant id.
    pub async fn ratings_of(&self, account: &str) -> Result<Vec<(String, Stored)>, StoreError> {
        let rows = sqlx::query(
            "SELECT variant, rating, rd, volatility, games, last_played FROM ratings
             WHERE account_id = $1",
        )
        .bind(account)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("variant")?, stored_of(r)?)))
            .collect()
    }

    /// The last `limit` ratings of `account` in `variant`, oldest first.
    pub async fn rating_history(
        &self,
        account: &str,
        variant: &str,
        limit: i64,
    ) -> Result<Vec<HistoryPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT at, after FROM rating_history WHERE account_id = $1 AND variant = $2
             ORDER BY at DESC, game_id DESC, game_no DESC LIMIT $3",
        )
        .bind(account)
        .bind(variant)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        let mut out = rows
            .iter()
            .map(|r| {
                Ok(HistoryPoint {
                    at: r.try_get("at")?,
                    rating: r.try_get::<f64, _>("after")?.round() as i32,
                })
            })
            .collect::<Result<Vec<_>, StoreError>>()?;
        out.reverse();
        Ok(out)
    }

    /// The rows of `rating_history` of game `game_id`, as (game_no, account, before, after),
    /// for tests and checks.
    pub async fn history_of_game(
        &self,
        game_id: &str,
    ) -> Result<Vec<(i64, String, f64, f64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_no, account_id, before, after FROM rating_history WHERE game_id = $1
             ORDER BY game_no, account_id",
        )
        .bind(game_id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("game_no")?,
                    r.try_get("account_id")?,
                    r.try_get("before")?,
                    r.try_get("after")?,
                ))
            })
            .collect()
    }

    /// The finished games of rated matches changed since `since` (ms) that had a move and
    /// have no rating yet, oldest first, at most `limit`; only of match `game_id` if given.
    pub async fn due_rounds(
        &self,
        game_id: Option<&str>,
        since: i64,
        limit: i64,
    ) -> Result<Vec<DueRound>, StoreError> {
        let which = if game_id.is_some() {
            "g.id = $3"
        } else {
            "$3 = $3"
        };
        let sql = format!(
            "SELECT r.game_id, r.game_no FROM games g JOIN rounds r ON r.game_id = g.id
             WHERE g.rated = 1 AND g.updated >= $1 AND {which}
               AND g.p0_account IS NOT NULL AND g.p1_account IS NOT NULL
               AND r.result IN ('S', 'N', 'draw') AND r.rating0 IS NULL
               AND EXISTS (SELECT 1 FROM moves m WHERE m.game_id = r.game_id
                           AND m.game_no = r.game_no)
             ORDER BY g.updated, r.game_id, r.game_no LIMIT $2"
        );
        let rows = sqlx::query(&sql)
            .bind(since)
            .bind(limit)
            .bind(game_id.unwrap_or("").to_string())
            .fetch_all(&self.read)
            .await?;
        rows.iter()
            .map(|r| {
                Ok(DueRound {
                    game_id: r.try_get("game_id")?,
                    game_no: r.try_get::<i64, _>("game_no")?.max(1) as u32,
                })
            })
            .collect()
    }

    /// The finished games of `account` by result: every game of its matches (rated or not,
    /// against a person or the computer; pass and play left out) that ended with a result.
    pub async fn account_results(&self, account: &str) -> Result<Results, StoreError> {
        let rows = sqlx::query(
            "SELECT r.result, r.game_no, g.first_side,
               CASE WHEN g.p0_account = $1 THEN 0 ELSE 1 END AS p
             FROM games g JOIN rounds r ON r.game_id = g.id
             WHERE (g.p0_account = $1 OR g.p1_account = $1) AND r.result <> '-'
               AND (g.p0_token IS NULL OR g.p1_token IS NULL OR g.p0_token <> g.p1_token)",
        )
        .bind(account)
        .fetch_all(&self.read)
        .await?;
        let mut out = Results::default();
        for r in rows {
            let result: String = r.try_get("result")?;
            let game_no: i64 = r.try_get("game_no")?;
            let first: String = r.try_get("first_side")?;
            let p: i32 = r
                .try_get::<i32, _>("p")
                .or_else(|_| r.try_get::<i64, _>("p").map(|x| x as i32))?;
            // Player 0 plays the first side in odd games of a match (BRD-8.2).
            let first_is_mine = (p == 0) == (game_no % 2 == 1);
            let mine = match (first.as_str(), first_is_mine) {
                ("S", true) | ("N", false) => "S",
                _ => "N",
            };
            match result.as_str() {
                "draw" => out.drawn += 1,
                r if r == mine => out.won += 1,
                _ => out.lost += 1,
            }
        }
        Ok(out)
    }

    /// One page of `account`'s matches, the most recently changed first, keyset-paginated as
    /// [`Store::list`] is (pass and play and matches closed without a move left out).
    pub async fn account_games(
        &self,
        account: &str,
        after: Option<&ListKey>,
        limit: i64,
    ) -> Result<(Vec<GameRow>, Option<ListKey>), StoreError> {
        let page = if after.is_some() {
            "AND (g.updated < $2 OR (g.updated = $2 AND g.id < $3))"
        } else {
            "AND $2 = $2 AND $3 = $3"
        };
        let sql = format!(
            "SELECT g.id, g.variant, g.first_side, g.game_no, g.p0_name, g.p1_name, g.p0_kind,
               g.p1_kind, g.status, g.result, g.wins0, g.wins1, g.rated, g.updated,
               CASE WHEN g.p0_account = $1 THEN 0 ELSE 1 END AS p,
               CAST((SELECT SUM(r.rating0) FROM rounds r WHERE r.game_id = g.id) AS BIGINT) AS c0,
               CAST((SELECT SUM(r.rating1) FROM rounds r WHERE r.game_id = g.id) AS BIGINT) AS c1
             FROM games g
             WHERE (g.p0_account = $1 OR g.p1_account = $1)
               AND (g.p0_token IS NULL OR g.p1_token IS NULL OR g.p0_token <> g.p1_token)
               AND NOT (g.status = 'finished' AND g.result = '-' AND g.wins0 = 0
                        AND g.wins1 = 0 AND g.game_no = 1 AND g.ply = 0)
               {page}
             ORDER BY g.updated DESC, g.id DESC LIMIT $4"
        );
        let (k, id) = after.map_or((0, ""), |a| (a.time, a.id.as_str()));
        let rows = sqlx::query(&sql)
            .bind(account)
            .bind(k)
            .bind(id.to_string())
            .bind(limit + 1)
            .fetch_all(&self.read)
            .await?;
        let more = rows.len() as i64 > limit;
        let mut out = Vec::new();
        let mut last = None;
        for r in rows.iter().take(limit.max(0) as usize) {
            let p = r
                .try_get::<i32, _>("p")
                .or_else(|_| r.try_get::<i64, _>("p").map(|x| x as i32))?
                .clamp(0, 1) as usize;
            let change: [Option<i64>; 2] = [r.try_get("c0")?, r.try_get("c1")?];
            let row = GameRow {
                id: r.try_get("id")?,
                variant: r.try_get("variant")?,
                player: p,
                first_side: r.try_get("first_side")?,
                game_no: r.try_get("game_no")?,
                names: [r.try_get("p0_name")?, r.try_get("p1_name")?],
                kinds: [r.try_get("p0_kind")?, r.try_get("p1_kind")?],
                status: r.try_get("status")?,
                result: r.try_get("result")?,
                wins: [r.try_get("wins0")?, r.try_get("wins1")?],
                rated: r.try_get::<i64, _>("rated")? != 0,
                rating_change: change[p],
                updated: r.try_get("updated")?,
            };
            last = Some(ListKey {
                time: row.updated,
                id: row.id.clone(),
            });
            out.push(row);
        }
        Ok((out, if more { last } else { None }))
    }

    /// Candidates of the leaderboard of `variant`: accounts whose stored deviation is at
    /// most `max_rd` and whose last rated game is within `active` (ms, both ends included),
    /// by rating, the best first; `limit` rows from `offset`.
    pub async fn board_rows(
        &self,
        variant: &str,
        max_rd: f64,
        active: std::ops::RangeInclusive<i64>,
        offset: i64,
        limit: i64,
    ) -> Result<Vec<BoardRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.username, r.rating, r.rd, r.volatility, r.games, r.last_played
             FROM ratings r JOIN accounts a ON a.id = r.account_id
             WHERE r.variant = $1 AND r.rd <= $2 AND r.last_played >= $3
               AND r.last_played <= $6 AND a.engine_marked = 0
             ORDER BY r.rating DESC, a.name_key LIMIT $4 OFFSET $5",
        )
        .bind(variant)
        .bind(max_rd)
        .bind(*active.start())
        .bind(limit)
        .bind(offset)
        .bind(*active.end())
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(BoardRow {
                    username: r.try_get("username")?,
                    stored: stored_of(r)?,
                })
            })
            .collect()
    }

    /// Writes a rating as a test or a tool sets it (`games` rated games, the last at
    /// `last_played`), replacing the account's rating in `variant`.
    pub async fn set_rating(
        &self,
        account: &str,
        variant: &str,
        s: &Stored,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        sqlx::query("DELETE FROM ratings WHERE account_id = $1 AND variant = $2")
            .bind(account)
            .bind(variant)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "INSERT INTO ratings (account_id, variant, rating, rd, volatility, games, last_played)
             VALUES ($1, $2, $3, $4, $5, $6, $7)",
        )
        .bind(account)
        .bind(variant)
        .bind(s.rating)
        .bind(s.rd)
        .bind(s.volatility)
        .bind(s.games)
        .bind(s.last_played.unwrap_or(0))
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(())
    }
}

/// Records that `account` holds the seat of game `game` whose token's SHA-256 is `hash` (a
/// signed-in player's new seat: "My games" and the account's deletion know it).
pub(super) async fn claim_seat(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    account: &str,
    game: &str,
    hash: &str,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO account_seats (account_id, game_id, token_hash, created)
         VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
    )
    .bind(account)
    .bind(game)
    .bind(hash)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The rating write of game `game_no` of match `id` (`Write::Rate`): the history rows first
/// (their primary key decides, on every instance, which one rates the game; a second waits
/// for the first to commit and then fails), then each rating, only if it is still the one
/// the update was computed from, then the change on the game and its version.
#[allow(clippy::too_many_arguments)]
pub(super) async fn rate(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    game_no: u32,
    version: i64,
    variant: &str,
    accounts: &[String; 2],
    u: &Update,
    at: i64,
) -> Result<i64, StoreError> {
    for (p, account) in accounts.iter().enumerate() {
        sqlx::query(
            "INSERT INTO rating_history (game_id, game_no, account_id, variant, before, after,
               rd, volatility, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        )
        .bind(id)
        .bind(game_no as i64)
        .bind(account)
        .bind(variant)
        .bind(u.before[p].rating)
        .bind(u.after[p].rating)
        .bind(u.after[p].rd)
        .bind(u.after[p].volatility)
        .bind(at)
        .execute(&mut **tx)
        .await
        .map_err(|e| conflict_or(e, "this game has already been rated"))?;
    }
    for ((account, b), a) in accounts.iter().zip(&u.before).zip(&u.after) {
        let changed = if b.games == 0 {
            // A first rated game: the row is new (a second first game of this player being
            // rated at the same moment makes this insert fail, and it is read again).
            sqlx::query(
                "INSERT INTO ratings (account_id, variant, rating, rd, volatility, games,
                   last_played) VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(account)
            .bind(variant)
            .bind(a.rating)
            .bind(a.rd)
            .bind(a.volatility)
            .bind(a.games)
            .bind(a.last_played.unwrap_or(at))
            .execute(&mut **tx)
            .await
            .map_err(|e| conflict_or(e, "a rating changed meanwhile"))?
            .rows_affected()
        } else {
            sqlx::query(
                "UPDATE ratings SET rating = $1, rd = $2, volatility = $3, games = $4,
                   last_played = $5
                 WHERE account_id = $6 AND variant = $7 AND games = $8 AND rating = $9",
            )
            .bind(a.rating)
            .bind(a.rd)
            .bind(a.volatility)
            .bind(a.games)
            .bind(a.last_played.unwrap_or(at))
            .bind(account)
            .bind(variant)
            .bind(b.games)
            // The rating too: a refund (fair play) changes it without a game.
            .bind(b.rating)
            .execute(&mut **tx)
            .await?
            .rows_affected()
        };
        if changed != 1 {
            return Err(StoreError::Conflict("a rating changed meanwhile".into()));
        }
    }
    let r = sqlx::query(
        "UPDATE rounds SET rating0 = $1, rating1 = $2
         WHERE game_id = $3 AND game_no = $4 AND rating0 IS NULL",
    )
    .bind(i64::from(u.change[0]))
    .bind(i64::from(u.change[1]))
    .bind(id)
    .bind(game_no as i64)
    .execute(&mut **tx)
    .await?;
    if r.rows_affected() != 1 {
        return Err(StoreError::Conflict(
            "this game has already been rated".into(),
        ));
    }
    // The seats' accounts as the update was computed for them: an account deleted meanwhile
    // (its seat's account is gone) is not rated.
    let r = sqlx::query(
        "UPDATE games SET version = version + 1
         WHERE id = $1 AND version = $2 AND p0_account = $3 AND p1_account = $4
         RETURNING version",
    )
    .bind(id)
    .bind(version)
    .bind(&accounts[0])
    .bind(&accounts[1])
    .fetch_optional(&mut **tx)
    .await?;
    match r {
        Some(r) => Ok(r.try_get("version")?),
        None => Err(StoreError::Conflict(
            "the game changed before it could be rated".into(),
        )),
    }
}
