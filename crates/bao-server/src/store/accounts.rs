//! Accounts, their sessions and their claimed seats (docs/api.md, "Accounts"; migration
//! 0005). Only hashes are stored: Argon2id PHC strings of passwords and recovery codes, the
//! SHA-256 of session and seat tokens. Sessions live in the database, so a session made on
//! one instance works on every other, and deleting its row ends it everywhere.

use super::{conflict_or, Store, StoreError};
use sqlx::Row;

/// An account's id: random text, never shown to players. Whatever is kept about an account
/// later (ratings) refers to it, never to the name (names are freed when an account is
/// deleted).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AccountId(pub String);

/// A session that has not been used for this long is dead (30 days).
pub const SESSION_IDLE_MS: i64 = 30 * 24 * 3600 * 1000;

/// A session's `last_seen` is written again only when it is older than this (one hour), so a
/// signed-in player's every request is not a write.
const TOUCH_MS: i64 = 3600 * 1000;

/// The name shown instead of a deleted account's in the games it claimed.
pub const DELETED_NAME: &str = "deleted player";

/// An account as stored.
#[derive(Clone, Debug)]
pub struct AccountRow {
    /// Its id.
    pub id: AccountId,
    /// The name as chosen (case kept).
    pub username: String,
    /// Argon2id PHC string of the password.
    pub password_hash: String,
    /// Argon2id PHC string of the recovery code.
    pub recovery_hash: String,
    /// When it was made, ms since the epoch.
    pub created: i64,
    /// It may moderate (docs/api.md, "Fair play").
    pub moderator: bool,
    /// A moderator marked it as playing with an engine's help.
    pub marked: bool,
}

/// A new account.
#[derive(Clone, Debug)]
pub struct NewAccount {
    /// The name as chosen.
    pub username: String,
    /// The name in lower case (unique).
    pub name_key: String,
    /// Argon2id PHC string of the password.
    pub password_hash: String,
    /// Argon2id PHC string of the recovery code.
    pub recovery_hash: String,
}

fn account_of(r: &sqlx::any::AnyRow) -> Result<AccountRow, sqlx::Error> {
    Ok(AccountRow {
        id: AccountId(r.try_get("id")?),
        username: r.try_get("username")?,
        password_hash: r.try_get("password_hash")?,
        recovery_hash: r.try_get("recovery_hash")?,
        created: r.try_get("created")?,
        moderator: r.try_get::<i64, _>("moderator")? != 0,
        marked: r.try_get::<i64, _>("engine_marked")? != 0,
    })
}

impl Store {
    /// Makes an account and its first session (`session_hash`) in one transaction; a
    /// conflict when the name (without regard to case) is taken.
    pub async fn create_account(
        &self,
        a: &NewAccount,
        session_hash: &str,
        now: i64,
    ) -> Result<AccountId, StoreError> {
        let id = AccountId(crate::util::random_code(16));
        let mut tx = self.write.begin().await?;
        sqlx::query(
            "INSERT INTO accounts (id, username, name_key, password_hash, recovery_hash, created)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(&id.0)
        .bind(&a.username)
        .bind(&a.name_key)
        .bind(&a.password_hash)
        .bind(&a.recovery_hash)
        .bind(now)
        .execute(&mut *tx)
        .await
        .map_err(|e| conflict_or(e, "this name is taken"))?;
        insert_session(&mut tx, session_hash, &id, now).await?;
        tx.commit().await?;
        Ok(id)
    }

    /// The account named `name_key` (lower case).
    pub async fn account_by_name(&self, name_key: &str) -> Result<Option<AccountRow>, StoreError> {
        let r = sqlx::query(
            "SELECT id, username, password_hash, recovery_hash, created, moderator, engine_marked
             FROM accounts
             WHERE name_key = $1",
        )
        .bind(name_key)
        .fetch_optional(&self.read)
        .await?;
        Ok(r.as_ref().map(account_of).transpose()?)
    }

    /// The account of a live session (used within [`SESSION_IDLE_MS`]); marks the session
    /// used. `None` for an unknown, ended or expired session.
    pub async fn session_account(
        &self,
        session_hash: &str,
        now: i64,
    ) -> Result<Option<AccountRow>, StoreError> {
        let r = sqlx::query(
            "SELECT a.id, a.username, a.password_hash, a.recovery_hash, a.created, s.last_seen,
               a.moderator, a.engine_marked
             FROM sessions s JOIN accounts a ON a.id = s.account_id
             WHERE s.token_hash = $1 AND s.last_seen >= $2",
        )
        .bind(session_hash)
        .bind(now - SESSION_IDLE_MS)
        .fetch_optional(&self.read)
        .await?;
        let Some(r) = r else { return Ok(None) };
        let last_seen: i64 = r.try_get("last_seen")?;
        if last_seen < now - TOUCH_MS {
            sqlx::query("UPDATE sessions SET last_seen = $1 WHERE token_hash = $2")
                .bind(now)
                .bind(session_hash)
                .execute(&self.write)
                .await?;
        }
        Ok(Some(account_of(&r)?))
    }

    /// Starts a session for `account`, ending the session `old` (the cookie the browser had,
    /// if any) and, while at it, every expired session.
    pub async fn start_session(
        &self,
        account: &AccountId,
        session_hash: &str,
        old: Option<&str>,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        if let Some(old) = old {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(old)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("DELETE FROM sessions WHERE last_seen < $1")
            .bind(now - SESSION_IDLE_MS)
            .execute(&mut *tx)
            .await?;
        insert_session(&mut tx, session_hash, account, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Ends one session (logout).
    pub async fn end_session(&self, session_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(session_hash)
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// Ends every session of `account` but `keep`.
    pub async fn end_sessions(
        &self,
        account: &AccountId,
        keep: Option<&str>,
    ) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
            .bind(&account.0)
            .bind(keep.unwrap_or(""))
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// Sets a new password hash and ends every other session than `keep`, in one
    /// transaction.
    pub async fn set_password(
        &self,
        account: &AccountId,
        password_hash: &str,
        keep: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        sqlx::query("UPDATE accounts SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(&account.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE account_id = $1 AND token_hash <> $2")
            .bind(&account.0)
            .bind(keep)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Recovery: replaces the password and the recovery code (only if the code is still
    /// `old_recovery`, so a code works once even when two requests race), ends every session
    /// and starts `session_hash`, in one transaction. A conflict when the code changed.
    pub async fn recover(
        &self,
        account: &AccountId,
        old_recovery: &str,
        password_hash: &str,
        recovery_hash: &str,
        session_hash: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        let r = sqlx::query(
            "UPDATE accounts SET password_hash = $1, recovery_hash = $2
             WHERE id = $3 AND recovery_hash = $4",
        )
        .bind(password_hash)
        .bind(recovery_hash)
        .bind(&account.0)
        .bind(old_recovery)
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::Conflict(
                "this recovery code has just been used".into(),
            ));
        }
        sqlx::query("DELETE FROM sessions WHERE account_id = $1")
            .bind(&account.0)
            .execute(&mut *tx)
            .await?;
        insert_session(&mut tx, session_hash, account, now).await?;
        tx.commit().await?;
        Ok(())
    }

    /// Records that `account` holds the seats `(game id, SHA-256 of the seat token)`; only
    /// pairs that are a seat of a stored game are kept, each once.
    pub async fn claim_seats(
        &self,
        account: &AccountId,
        seats: &[(String, String)],
        now: i64,
    ) -> Result<(), StoreError> {
        if seats.is_empty() {
            return Ok(());
        }
        let mut tx = self.write.begin().await?;
        for (game, hash) in seats {
            sqlx::query(
                "INSERT INTO account_seats (account_id, game_id, token_hash, created)
                 SELECT $1, $2, $3, $4 WHERE EXISTS
                   (SELECT 1 FROM games WHERE id = $2 AND (p0_token = $3 OR p1_token = $3))
                 ON CONFLICT DO NOTHING",
            )
            .bind(&account.0)
            .bind(game)
            .bind(hash)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The seats claimed by the account of a live session, `(game id, token hash)`, the most
    /// recently changed games first, at most `limit`. Empty for a dead session.
    pub async fn session_seats(
        &self,
        session_hash: &str,
        now: i64,
        limit: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.game_id, c.token_hash FROM sessions s
             JOIN account_seats c ON c.account_id = s.account_id
             JOIN games g ON g.id = c.game_id
             WHERE s.token_hash = $1 AND s.last_seen >= $2
             ORDER BY g.updated DESC, c.game_id LIMIT $3",
        )
        .bind(session_hash)
        .bind(now - SESSION_IDLE_MS)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get::<String, _>("game_id")?,
                    r.try_get::<String, _>("token_hash")?,
                ))
            })
            .collect()
    }

    /// Deletes an account: its sessions, its claimed seats, its ratings and its credentials
    /// (and its seats' account in every game), and puts
    /// [`DELETED_NAME`] in place of its player's name in the games it claimed (the match
    /// and every game of it), in one transaction.
    pub async fn delete_account(&self, account: &AccountId) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        let claimed = sqlx::query(
            "SELECT g.id, g.first_side, g.p0_token, g.p1_token FROM account_seats c
             JOIN games g ON g.id = c.game_id AND (g.p0_token = c.token_hash OR g.p1_token = c.token_hash)
             WHERE c.account_id = $1",
        )
        .bind(&account.0)
        .fetch_all(&mut *tx)
        .await?;
        let hashes: Vec<String> =
            sqlx::query("SELECT token_hash FROM account_seats WHERE account_id = $1")
                .bind(&account.0)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| r.try_get("token_hash"))
                .collect::<Result<_, _>>()?;
        for r in &claimed {
            let id: String = r.try_get("id")?;
            let first_south = r.try_get::<String, _>("first_side")? == "S";
            for p in 0..2usize {
                let token: Option<String> = r.try_get(format!("p{p}_token").as_str())?;
                if !token.is_some_and(|t| hashes.contains(&t)) {
                    continue;
                }
                sqlx::query(&format!("UPDATE games SET p{p}_name = $1 WHERE id = $2"))
                    .bind(DELETED_NAME)
                    .bind(&id)
                    .execute(&mut *tx)
                    .await?;
                // Player 0 plays the first side in odd games of a match, the other in even
                // ones (BRD-8.2): the parity of the rounds where this player is South.
                let south_parity = i64::from((p == 0) == first_south);
                for (column, parity) in [("south", south_parity), ("north", 1 - south_parity)] {
                    sqlx::query(&format!(
                        "UPDATE rounds SET {column} = $1 WHERE game_id = $2 AND game_no % 2 = $3"
                    ))
                    .bind(DELETED_NAME)
                    .bind(&id)
                    .bind(parity)
                    .execute(&mut *tx)
                    .await?;
                }
            }
        }
        // Its clubs keep a leader (docs/api.md, "Clubs").
        let clubs = super::clubs::forget_account(&mut tx, &account.0).await?;
        // Its ratings go too (docs/api.md, "Ratings"); its opponents keep theirs, and the
        // games keep their rating changes, shown beside the neutral label.
        for sql in [
            "DELETE FROM sessions WHERE account_id = $1",
            "DELETE FROM account_seats WHERE account_id = $1",
            "DELETE FROM ratings WHERE account_id = $1",
            "DELETE FROM rating_history WHERE account_id = $1",
            "DELETE FROM puzzle_players WHERE account_id = $1",
            "DELETE FROM puzzle_attempts WHERE account_id = $1",
            "UPDATE games SET p0_account = NULL WHERE p0_account = $1",
            "UPDATE games SET p1_account = NULL WHERE p1_account = $1",
            "DELETE FROM accounts WHERE id = $1",
        ] {
            sqlx::query(sql).bind(&account.0).execute(&mut *tx).await?;
        }
        self.commit_events(tx, clubs).await?;
        Ok(())
    }
}

async fn insert_session(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    session_hash: &str,
    account: &AccountId,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, account_id, created, last_seen) VALUES ($1, $2, $3, $4)",
    )
    .bind(session_hash)
    .bind(&account.0)
    .bind(now)
    .bind(now)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
