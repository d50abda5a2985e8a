//! Fair play (docs/api.md, "Fair play"; migration 0021): each rated game's figures per
//! account, reports, moderators, their actions and the ratings given back.
//!
//! Exactly once across instances: a game's figures are keyed by game and account (a second
//! analysis of the same game changes nothing); marking an account is a conditional UPDATE
//! (`engine_marked = 0`) in the transaction of its refunds, and each refund is keyed by game
//! and victim, so two moderators marking at once, on two instances, give back each loss once.

use super::{Store, StoreError};
use sqlx::Row;

/// One account's figures in one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct FollowRow {
    /// The match.
    pub game_id: String,
    /// The game of the match.
    pub game_no: u32,
    /// The account.
    pub account_id: String,
    /// The variant.
    pub variant: String,
    /// Its rating when analysed.
    pub rating: f64,
    /// Moves that were a real choice.
    pub moves: u32,
    /// Of those, as good as the engine's first choice.
    pub top: u32,
    /// Their capped losses, summed (centi-seeds).
    pub loss_sum: u64,
    /// When analysed (ms).
    pub at: i64,
}

/// A report as a moderator reads it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReportRow {
    /// Id.
    pub id: String,
    /// Who reported.
    pub reporter: String,
    /// Whom.
    pub username: String,
    /// The game, if one was named.
    pub game: Option<String>,
    /// Why, in the reporter's words.
    pub reason: String,
    /// When (ms).
    pub at: i64,
    /// When a moderator closed it.
    pub closed: Option<i64>,
}

/// A moderator's action as the account concerned and moderators read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionRow {
    /// `warn`, `mark`, `unmark` or `close`.
    pub action: String,
    /// The moderator's reason.
    pub reason: String,
    /// The moderator's name.
    pub moderator: String,
    /// When (ms).
    pub at: i64,
}

/// A rating given back by a mark.
#[derive(Clone, Debug, PartialEq)]
pub struct Refund {
    /// The victim.
    pub account_id: String,
    /// The match and game.
    pub game_id: String,
    /// The game of the match.
    pub game_no: u32,
    /// The variant.
    pub variant: String,
    /// Rating points given back.
    pub points: f64,
}

/// What adding a report came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReportAdded {
    /// Stored under this id.
    Added(String),
    /// The reporter already has an open report of this account (its id).
    Open(String),
    /// The reporter reached the day's limit.
    Limited,
}

/// What a moderator's action changed.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ActionDone {
    /// The account's mark changed (a `mark` or `unmark` that was not already so).
    pub changed: bool,
    /// Reports closed.
    pub closed: u64,
    /// Ratings given back (a first `mark` only).
    pub refunds: Vec<Refund>,
}

impl Store {
    /// Whether game `game_no` of match `game_id` has figures already.
    pub async fn fairplay_done(&self, game_id: &str, game_no: u32) -> Result<bool, StoreError> {
        let r = sqlx::query("SELECT 1 FROM fairplay_games WHERE game_id = $1 AND game_no = $2")
            .bind(game_id)
            .bind(i64::from(game_no))
            .fetch_optional(&self.read)
            .await?;
        Ok(r.is_some())
    }

    /// Stores figures; those of a game and account stored already are kept.
    pub async fn record_following(&self, rows: &[FollowRow]) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        for f in rows {
            sqlx::query(
                "INSERT INTO fairplay_games (game_id, game_no, account_id, variant, rating,
                   moves, top, loss_sum, at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
                 ON CONFLICT (game_id, game_no, account_id) DO NOTHING",
            )
            .bind(&f.game_id)
            .bind(i64::from(f.game_no))
            .bind(&f.account_id)
            .bind(&f.variant)
            .bind(f.rating)
            .bind(i64::from(f.moves))
            .bind(i64::from(f.top))
            .bind(f.loss_sum as i64)
            .bind(f.at)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Rated games rated since `since` (ms) without figures, the oldest first: what an
    /// instance stopped before analysing left.
    pub async fn unanalysed_games(
        &self,
        since: i64,
        limit: i64,
    ) -> Result<Vec<(String, u32)>, StoreError> {
        let rows = sqlx::query(
            "SELECT h.game_id, h.game_no, MIN(h.at) AS at FROM rating_history h
             WHERE h.at >= $1 AND NOT EXISTS (SELECT 1 FROM fairplay_games f
                 WHERE f.game_id = h.game_id AND f.game_no = h.game_no)
             GROUP BY h.game_id, h.game_no ORDER BY at, h.game_id, h.game_no LIMIT $2",
        )
        .bind(since)
        .bind(limit)
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

    /// An account's latest figures in `variant`, at most `limit`, the latest first.
    pub async fn account_following(
        &self,
        account_id: &str,
        variant: &str,
        limit: i64,
    ) -> Result<Vec<FollowRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT * FROM fairplay_games WHERE account_id = $1 AND variant = $2
             ORDER BY at DESC, game_id, game_no LIMIT $3",
        )
        .bind(account_id)
        .bind(variant)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(follow_of).collect()
    }

    /// The latest figures in `variant` of accounts not marked, at most `limit`: the site's
    /// distribution that accounts are set against.
    pub async fn variant_following(
        &self,
        variant: &str,
        limit: i64,
    ) -> Result<Vec<FollowRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT f.* FROM fairplay_games f JOIN accounts a ON a.id = f.account_id
             WHERE f.variant = $1 AND a.engine_marked = 0
             ORDER BY f.at DESC, f.game_id, f.game_no LIMIT $2",
        )
        .bind(variant)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(follow_of).collect()
    }

    /// Accounts (not marked) with at least `min_games` figures in a variant since `since`,
    /// at most `limit`, most games first: the candidates that may stand out.
    pub async fn fairplay_candidates(
        &self,
        since: i64,
        min_games: i64,
        limit: i64,
    ) -> Result<Vec<(String, String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT f.account_id, a.username, f.variant, COUNT(*) AS n
             FROM fairplay_games f JOIN accounts a ON a.id = f.account_id
             WHERE f.at >= $1 AND a.engine_marked = 0
             GROUP BY f.account_id, a.username, f.variant HAVING COUNT(*) >= $2
             ORDER BY n DESC, f.account_id, f.variant LIMIT $3",
        )
        .bind(since)
        .bind(min_games)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("account_id")?,
                    r.try_get("username")?,
                    r.try_get("variant")?,
                ))
            })
            .collect()
    }

    /// Stores a report unless the reporter has an open one of the same account, or made
    /// `per_day` reports in the day before `at`.
    pub async fn add_report(
        &self,
        (id, reporter, account): (&str, &str, &str),
        game: Option<&str>,
        reason: &str,
        at: i64,
        per_day: i64,
    ) -> Result<ReportAdded, StoreError> {
        let mut tx = self.write.begin().await?;
        // The reporter's row orders their reports across instances (the day's count).
        sqlx::query("UPDATE accounts SET moderator = moderator WHERE id = $1")
            .bind(reporter)
            .execute(&mut *tx)
            .await?;
        if let Some(r) = sqlx::query(
            "SELECT id FROM reports WHERE reporter_id = $1 AND account_id = $2
             AND closed IS NULL",
        )
        .bind(reporter)
        .bind(account)
        .fetch_optional(&mut *tx)
        .await?
        {
            return Ok(ReportAdded::Open(r.try_get("id")?));
        }
        let n: i64 =
            sqlx::query("SELECT COUNT(*) AS n FROM reports WHERE reporter_id = $1 AND at > $2")
                .bind(reporter)
                .bind(at - 24 * 3600 * 1000)
                .fetch_one(&mut *tx)
                .await?
                .try_get("n")?;
        if n >= per_day {
            return Ok(ReportAdded::Limited);
        }
        sqlx::query(
            "INSERT INTO reports (id, reporter_id, account_id, game_id, reason, at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(reporter)
        .bind(account)
        .bind(game)
        .bind(reason)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(ReportAdded::Added(id.to_string()))
    }

    /// Reports, the oldest first: the open ones (`account` `None`), or every report of one
    /// account, at most `limit`.
    pub async fn reports(
        &self,
        account: Option<&str>,
        limit: i64,
    ) -> Result<Vec<ReportRow>, StoreError> {
        let which = if account.is_some() {
            "r.account_id = $2"
        } else {
            "r.closed IS NULL AND $2 = $2"
        };
        let rows = sqlx::query(&format!(
            "SELECT r.id, p.username AS reporter, a.username, r.game_id, r.reason, r.at,
               r.closed
             FROM reports r JOIN accounts a ON a.id = r.account_id
               JOIN accounts p ON p.id = r.reporter_id
             WHERE {which} ORDER BY r.at, r.id LIMIT $1"
        ))
        .bind(limit)
        .bind(account.unwrap_or(""))
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ReportRow {
                    id: r.try_get("id")?,
                    reporter: r.try_get("reporter")?,
                    username: r.try_get("username")?,
                    game: r.try_get("game_id")?,
                    reason: r.try_get("reason")?,
                    at: r.try_get("at")?,
                    closed: r.try_get("closed")?,
                })
            })
            .collect()
    }

    /// Grants (or takes back) the moderator role of the account named `name_key` (lower
    /// case); `false` when there is no such account.
    pub async fn set_moderator(&self, name_key: &str, on: bool) -> Result<bool, StoreError> {
        let n = sqlx::query("UPDATE accounts SET moderator = $1 WHERE name_key = $2")
            .bind(i64::from(on))
            .bind(name_key)
            .execute(&self.write)
            .await?
            .rows_affected();
        Ok(n == 1)
    }

    /// A moderator's action on `account`, logged with its reason, in one transaction:
    /// `warn` only logs; `close` closes the account's open reports; `mark` marks it (once)
    /// and gives back every opponent's rating loss in its rated games (each once), and
    /// closes its reports; `unmark` takes the mark away (refunds stay given).
    pub async fn mod_action(
        &self,
        (id, account, moderator): (&str, &str, &str),
        action: &str,
        reason: &str,
        at: i64,
    ) -> Result<ActionDone, StoreError> {
        let mut tx = self.write.begin().await?;
        // The account's row orders the actions on it across instances, and each action's
        // time is after the last one's: two actions in one millisecond still read in order.
        sqlx::query("UPDATE accounts SET moderator = moderator WHERE id = $1")
            .bind(account)
            .execute(&mut *tx)
            .await?;
        let last: Option<i64> =
            sqlx::query("SELECT MAX(at) AS last FROM mod_actions WHERE account_id = $1")
                .bind(account)
                .fetch_one(&mut *tx)
                .await?
                .try_get("last")?;
        let at = last.map_or(at, |l| at.max(l + 1));
        let mut done = ActionDone::default();
        match action {
            "mark" | "unmark" => {
                let (to, from) = if action == "mark" { (1, 0) } else { (0, 1) };
                done.changed = sqlx::query(
                    "UPDATE accounts SET engine_marked = $1 WHERE id = $2 AND engine_marked = $3",
                )
                .bind(to as i64)
                .bind(account)
                .bind(from as i64)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
            }
            _ => {}
        }
        if action == "mark" && done.changed {
            let losses = sqlx::query(
                "SELECT v.game_id, v.game_no, v.account_id, v.variant,
                   v.before - v.after AS points
                 FROM rating_history m JOIN rating_history v ON v.game_id = m.game_id
                   AND v.game_no = m.game_no AND v.account_id <> m.account_id
                 WHERE m.account_id = $1 AND v.after < v.before
                 ORDER BY v.game_id, v.game_no",
            )
            .bind(account)
            .fetch_all(&mut *tx)
            .await?;
            for r in &losses {
                let f = Refund {
                    account_id: r.try_get("account_id")?,
                    game_id: r.try_get("game_id")?,
                    game_no: r.try_get::<i64, _>("game_no")?.max(1) as u32,
                    variant: r.try_get("variant")?,
                    points: r.try_get("points")?,
                };
                let first = sqlx::query(
                    "INSERT INTO rating_refunds (game_id, game_no, account_id, marked_id,
                       variant, points, at) VALUES ($1, $2, $3, $4, $5, $6, $7)
                     ON CONFLICT (game_id, game_no, account_id) DO NOTHING",
                )
                .bind(&f.game_id)
                .bind(i64::from(f.game_no))
                .bind(&f.account_id)
                .bind(account)
                .bind(&f.variant)
                .bind(f.points)
                .bind(at)
                .execute(&mut *tx)
                .await?
                .rows_affected()
                    == 1;
                if first {
                    sqlx::query(
                        "UPDATE ratings SET rating = rating + $1
                         WHERE account_id = $2 AND variant = $3",
                    )
                    .bind(f.points)
                    .bind(&f.account_id)
                    .bind(&f.variant)
                    .execute(&mut *tx)
                    .await?;
                    done.refunds.push(f);
                }
            }
        }
        if matches!(action, "close" | "mark") {
            done.closed = sqlx::query(
                "UPDATE reports SET closed = $1 WHERE account_id = $2 AND closed IS NULL",
            )
            .bind(at)
            .bind(account)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        }
        sqlx::query(
            "INSERT INTO mod_actions (id, account_id, moderator_id, action, reason, at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(id)
        .bind(account)
        .bind(moderator)
        .bind(action)
        .bind(reason)
        .bind(at)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(done)
    }

    /// The actions on an account, the latest first, at most `limit`.
    pub async fn mod_actions(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<ActionRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.action, m.reason, a.username AS moderator, m.at FROM mod_actions m
             JOIN accounts a ON a.id = m.moderator_id
             WHERE m.account_id = $1 ORDER BY m.at DESC, m.id LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ActionRow {
                    action: r.try_get("action")?,
                    reason: r.try_get("reason")?,
                    moderator: r.try_get("moderator")?,
                    at: r.try_get("at")?,
                })
            })
            .collect()
    }
}

fn follow_of(r: &sqlx::any::AnyRow) -> Result<FollowRow, StoreError> {
    Ok(FollowRow {
        game_id: r.try_get("game_id")?,
        game_no: r.try_get::<i64, _>("game_no")?.max(1) as u32,
        account_id: r.try_get("account_id")?,
        variant: r.try_get("variant")?,
        rating: r.try_get("rating")?,
        moves: r.try_get::<i64, _>("moves")?.max(0) as u32,
        top: r.try_get::<i64, _>("top")?.max(0) as u32,
        loss_sum: r.try_get::<i64, _>("loss_sum")?.max(0) as u64,
        at: r.try_get("at")?,
    })
}
