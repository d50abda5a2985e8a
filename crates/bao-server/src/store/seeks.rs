//! Finding an opponent (docs/api.md, "Finding an opponent"; migration 0007): seeks, the
//! quick-pairing pool, direct challenges and blocks. Whatever must happen once across
//! instances (a seek accepted, two tickets paired, a challenge accepted) is one conditional
//! UPDATE here, decided by the rows it changed; the game is made afterwards under the id the
//! claim recorded, and [`Store::repair_claims`] undoes a claim whose game never came.

use super::{conflict_or, Store, StoreError};
use crate::domain::events::{ChallengeStatus, Event};
use crate::domain::pairing::Waiting;
use sqlx::any::AnyRow;
use sqlx::Row;

/// A seek as stored.
#[derive(Clone, Debug)]
pub struct SeekRow {
    /// Its id.
    pub id: String,
    /// SHA-256 of the owner's seek token.
    pub token_hash: String,
    /// The owner's account, if signed in.
    pub account: Option<String>,
    /// The name it is shown under.
    pub name: String,
    /// The owner's rating as shown (`1523?`), for an account.
    pub rating: Option<String>,
    /// Variant id.
    pub variant: String,
    /// Rules options (`-` or OPTS), without the match format.
    pub rules: String,
    /// `single_game` or `best_of_three`.
    pub match_format: String,
    /// The clock as JSON text, if any.
    pub clock: Option<String>,
    /// Rated.
    pub rated: bool,
    /// When posted.
    pub created: i64,
    /// Alive (listed, acceptable) until then.
    pub alive_until: i64,
    /// `open`, `accepted` or `closed`.
    pub status: String,
    /// The game made for it, once accepted.
    pub game: Option<String>,
}

/// A new seek.
pub struct NewSeek {
    /// Its id.
    pub id: String,
    /// SHA-256 of the owner's seek token.
    pub token_hash: String,
    /// The owner's account, if signed in.
    pub account: Option<String>,
    /// The client's address (the cap per address).
    pub ip: String,
    /// The name it is shown under.
    pub name: String,
    /// The owner's rating as shown.
    pub rating: Option<String>,
    /// Variant id.
    pub variant: String,
    /// Rules options without the match format.
    pub rules: String,
    /// Match format.
    pub match_format: String,
    /// The clock as JSON text.
    pub clock: Option<String>,
    /// Rated.
    pub rated: bool,
}

const SEEK_COLS: &str = "id, token_hash, account_id, name, rating, variant, rules, match_format, \
     clock, rated, created, alive_until, status, game";

fn seek_of(r: &AnyRow) -> Result<SeekRow, sqlx::Error> {
    Ok(SeekRow {
        id: r.try_get("id")?,
        token_hash: r.try_get("token_hash")?,
        account: r.try_get("account_id")?,
        name: r.try_get("name")?,
        rating: r.try_get("rating")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        match_format: r.try_get("match_format")?,
        clock: r.try_get("clock")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        created: r.try_get("created")?,
        alive_until: r.try_get("alive_until")?,
        status: r.try_get("status")?,
        game: r.try_get("game")?,
    })
}

/// A pool ticket as stored.
#[derive(Clone, Debug)]
pub struct TicketRow {
    /// The ticket id.
    pub id: String,
    /// The account that waits.
    pub account: String,
    /// When it started waiting.
    pub since: i64,
    /// `waiting`, `paired` or `gone`.
    pub status: String,
    /// The game, once paired.
    pub game: Option<String>,
    /// Kept until then.
    pub alive_until: i64,
}

/// A challenge as stored, with both names.
#[derive(Clone, Debug)]
pub struct ChallengeRow {
    /// Its id.
    pub id: String,
    /// The challenger's account.
    pub from_account: String,
    /// The challenger's name.
    pub from: String,
    /// The challenged account.
    pub to_account: String,
    /// The challenged name.
    pub to: String,
    /// Variant id.
    pub variant: String,
    /// Rules options without the match format.
    pub rules: String,
    /// Match format.
    pub match_format: String,
    /// The clock as JSON text.
    pub clock: Option<String>,
    /// Rated.
    pub rated: bool,
    /// When sent.
    pub created: i64,
    /// Open until then.
    pub expires: i64,
    /// `open`, `accepted`, `declined`, `cancelled` or `expired`.
    pub status: String,
    /// The game, once accepted (and made: see [`Store::challenges_changed`]).
    pub game: Option<String>,
    /// When the status last changed.
    pub changed: i64,
}

const CHALLENGE_SELECT: &str = "SELECT c.id, c.from_account, fa.username AS from_name, \
     c.to_account, ta.username AS to_name, c.variant, c.rules, c.match_format, c.clock, c.rated, \
     c.created, c.expires, c.status, c.game, c.changed \
     FROM challenges c JOIN accounts fa ON fa.id = c.from_account \
     JOIN accounts ta ON ta.id = c.to_account";

fn challenge_of(r: &AnyRow) -> Result<ChallengeRow, sqlx::Error> {
    Ok(ChallengeRow {
        id: r.try_get("id")?,
        from_account: r.try_get("from_account")?,
        from: r.try_get("from_name")?,
        to_account: r.try_get("to_account")?,
        to: r.try_get("to_name")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        match_format: r.try_get("match_format")?,
        clock: r.try_get("clock")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        created: r.try_get("created")?,
        expires: r.try_get("expires")?,
        status: r.try_get("status")?,
        game: r.try_get("game")?,
        changed: r.try_get("changed")?,
    })
}

/// A new challenge.
pub struct NewChallenge {
    /// Its id.
    pub id: String,
    /// The challenger.
    pub from_account: String,
    /// The challenged.
    pub to_account: String,
    /// Variant id.
    pub variant: String,
    /// Rules options without the match format.
    pub rules: String,
    /// Match format.
    pub match_format: String,
    /// The clock as JSON text.
    pub clock: Option<String>,
    /// Rated.
    pub rated: bool,
    /// Open until then.
    pub expires: i64,
}

/// `$first, $first+1, ...` for `n` values.
fn placeholders(first: usize, n: usize) -> String {
    (first..first + n)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ")
}

impl Store {
    // ---- seeks ----

    /// Stores a new open seek alive until `alive_until`, unless its owner's account or
    /// address already has `cap` live open seeks: false then, and nothing is stored.
    pub async fn insert_seek(
        &self,
        s: &NewSeek,
        cap: i64,
        now: i64,
        alive_until: i64,
    ) -> Result<bool, StoreError> {
        // One statement: the count and the insert together (SQLite's single writer makes it
        // exact; on PostgreSQL two posts racing at the same instant may pass one over).
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "INSERT INTO seeks (id, token_hash, account_id, ip, name, rating, variant, rules,
                 match_format, clock, rated, created, alive_until, status)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'open'
             WHERE (SELECT COUNT(*) FROM seeks WHERE ip = $4 AND status = 'open'
                        AND alive_until >= $12) < $14
               AND (SELECT COUNT(*) FROM seeks WHERE account_id = $3 AND status = 'open'
                        AND alive_until >= $12) < $14",
        )
        .bind(&s.id)
        .bind(&s.token_hash)
        .bind(&s.account)
        .bind(&s.ip)
        .bind(&s.name)
        .bind(&s.rating)
        .bind(&s.variant)
        .bind(&s.rules)
        .bind(&s.match_format)
        .bind(&s.clock)
        .bind(i64::from(s.rated))
        .bind(now)
        .bind(alive_until)
        .bind(cap)
        .execute(&mut *tx)
        .await
        .map_err(|e| conflict_or(e, "this seek id is taken"))?;
        if n.rows_affected() != 1 {
            return Ok(false);
        }
        let mut events = vec![Event::Seeks];
        if let Some(a) = &s.account {
            events.push(Event::Waiting { account: a.clone() });
        }
        self.commit_events(tx, events).await?;
        Ok(true)
    }

    /// One seek.
    pub async fn seek(&self, id: &str) -> Result<Option<SeekRow>, StoreError> {
        let r = sqlx::query(&format!("SELECT {SEEK_COLS} FROM seeks WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        Ok(r.as_ref().map(seek_of).transpose()?)
    }

    /// The open seeks alive at `now`, newest first, at most `limit`.
    pub async fn open_seeks(&self, now: i64, limit: i64) -> Result<Vec<SeekRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {SEEK_COLS} FROM seeks WHERE status = 'open' AND alive_until >= $1
             ORDER BY created DESC, id LIMIT $2"
        ))
        .bind(now)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        Ok(rows.iter().map(seek_of).collect::<Result<_, _>>()?)
    }

    /// What changes when the list of open seeks changes (a seek posted, accepted, deleted or
    /// gone): their number, the newest, and a sum of their times.
    pub async fn open_seeks_mark(&self, now: i64) -> Result<(i64, i64, i64), StoreError> {
        let r = sqlx::query(
            "SELECT COUNT(*) AS n, COALESCE(MAX(created), 0) AS newest,
                    CAST(COALESCE(SUM(created % 1000003), 0) AS BIGINT) AS total
             FROM seeks WHERE status = 'open' AND alive_until >= $1",
        )
        .bind(now)
        .fetch_one(&self.read)
        .await?;
        Ok((r.try_get("n")?, r.try_get("newest")?, r.try_get("total")?))
    }

    /// When the first open seek alive at `now` stops being alive (its lease ends), if any.
    pub async fn next_lapse(&self, now: i64) -> Result<Option<i64>, StoreError> {
        let r = sqlx::query(
            "SELECT MIN(alive_until) AS t FROM seeks WHERE status = 'open' AND alive_until >= $1",
        )
        .bind(now)
        .fetch_one(&self.read)
        .await?;
        Ok(r.try_get("t")?)
    }

    /// Claims open seek `id` for game `game` (chosen beforehand) and `acceptor`: true for the
    /// one claim that changed the row, false when it was taken, closed or dead.
    pub async fn claim_seek(
        &self,
        id: &str,
        game: &str,
        acceptor: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE seeks SET status = 'accepted', game = $2, acceptor = $3, accepted_at = $4
             WHERE id = $1 AND status = 'open' AND alive_until >= $4",
        )
        .bind(id)
        .bind(game)
        .bind(acceptor)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if n.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.commit_events(tx, vec![Event::Claimed { at: now }])
            .await?;
        Ok(true)
    }

    /// Opens seek `id` again after its game `game` could not be made.
    pub async fn unclaim_seek(&self, id: &str, game: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE seeks SET status = 'open', game = NULL, acceptor = NULL, accepted_at = NULL
             WHERE id = $1 AND status = 'accepted' AND game = $2",
        )
        .bind(id)
        .bind(game)
        .execute(&self.write)
        .await?;
        Ok(())
    }

    /// Closes open seek `id` (its owner deleted it): whether it was open.
    pub async fn close_seek(&self, id: &str) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query("UPDATE seeks SET status = 'closed' WHERE id = $1 AND status = 'open'")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        if n.rows_affected() != 1 {
            return Ok(false);
        }
        self.commit_events(tx, vec![Event::Seeks]).await?;
        Ok(true)
    }

    /// Keeps alive until `until` the open seeks of these token hashes or of `account`:
    /// answers how many are open. A seek whose lease had ended before `now` is listed again,
    /// so the seek list's event goes with it (docs/architecture.md, "The event bus").
    pub async fn keep_seeks_alive(
        &self,
        hashes: &[String],
        account: Option<&str>,
        now: i64,
        until: i64,
    ) -> Result<u64, StoreError> {
        if hashes.is_empty() && account.is_none() {
            return Ok(0);
        }
        let whose = |first: usize| {
            format!(
                "status = 'open' AND (account_id = $2 OR token_hash IN ({}))",
                if hashes.is_empty() {
                    "''".to_string()
                } else {
                    placeholders(first, hashes.len())
                }
            )
        };
        let mut tx = self.write.begin().await?;
        // First the lapsed ones, to know whether the list changes; then every open one
        // counts (the caller learns whether anything still waits), none is moved back.
        let revive = format!(
            "UPDATE seeks SET alive_until = $1 WHERE {} AND alive_until < $3",
            whose(4)
        );
        let keep = format!(
            "UPDATE seeks
             SET alive_until = CASE WHEN alive_until < $1 THEN $1 ELSE alive_until END
             WHERE {}",
            whose(3)
        );
        let mut counts = [0u64; 2];
        for (i, sql) in [revive, keep].iter().enumerate() {
            let mut q = sqlx::query(sql).bind(until).bind(account);
            if i == 0 {
                q = q.bind(now);
            }
            for h in hashes {
                q = q.bind(h);
            }
            counts[i] = q.execute(&mut *tx).await?.rows_affected();
        }
        let events = if counts[0] > 0 {
            vec![Event::Seeks]
        } else {
            vec![]
        };
        self.commit_events(tx, events).await?;
        Ok(counts[1])
    }

    /// Seeks of these token hashes or of `account` accepted at or after `since` whose game
    /// exists: (seek, game).
    pub async fn seeks_accepted(
        &self,
        hashes: &[String],
        account: Option<&str>,
        since: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        if hashes.is_empty() && account.is_none() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT s.id, s.game FROM seeks s JOIN games g ON g.id = s.game
             WHERE s.status = 'accepted' AND s.accepted_at >= $1
               AND (s.account_id = $2 OR s.token_hash IN ({}))",
            if hashes.is_empty() {
                "''".to_string()
            } else {
                placeholders(3, hashes.len())
            }
        );
        let mut q = sqlx::query(&sql).bind(since).bind(account);
        for h in hashes {
            q = q.bind(h);
        }
        let rows = q.fetch_all(&self.read).await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("game")?)))
            .collect()
    }

    // ---- the pool ----

    /// The waiting ticket of `account` in `pool`, if any.
    pub async fn waiting_ticket(
        &self,
        account: &str,
        pool: &str,
    ) -> Result<Option<String>, StoreError> {
        let r = sqlx::query(
            "SELECT id FROM pool WHERE account_id = $1 AND pool = $2 AND status = 'waiting'",
        )
        .bind(account)
        .bind(pool)
        .fetch_optional(&self.read)
        .await?;
        Ok(r.map(|r| r.try_get("id")).transpose()?)
    }

    /// Puts a new waiting ticket in the pool; a conflict when the account already waits in
    /// this pool (one waiting ticket per account and pool).
    #[allow(clippy::too_many_arguments)]
    pub async fn insert_ticket(
        &self,
        id: &str,
        account: &str,
        pool: &str,
        variant: &str,
        clock: Option<&str>,
        rating: i64,
        now: i64,
        alive_until: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        sqlx::query(
            "INSERT INTO pool (id, account_id, pool, variant, clock, rating, since, alive_until,
                 status)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'waiting')",
        )
        .bind(id)
        .bind(account)
        .bind(pool)
        .bind(variant)
        .bind(clock)
        .bind(rating)
        .bind(now)
        .bind(alive_until)
        .execute(&mut *tx)
        .await
        .map_err(|e| conflict_or(e, "already waiting in this pool"))?;
        // The account's player sockets keep the ticket alive from now on.
        let waiting = Event::Waiting {
            account: account.to_string(),
        };
        self.commit_events(tx, vec![waiting]).await
    }

    /// One ticket.
    pub async fn ticket(&self, id: &str) -> Result<Option<TicketRow>, StoreError> {
        let r = sqlx::query(
            "SELECT id, account_id, since, status, game, alive_until FROM pool WHERE id = $1",
        )
        .bind(id)
        .fetch_optional(&self.read)
        .await?;
        let Some(r) = r else { return Ok(None) };
        Ok(Some(TicketRow {
            id: r.try_get("id")?,
            account: r.try_get("account_id")?,
            since: r.try_get("since")?,
            status: r.try_get("status")?,
            game: r.try_get("game")?,
            alive_until: r.try_get("alive_until")?,
        }))
    }

    /// Keeps `account`'s waiting tickets (or only ticket `id`) alive until `until`: answers
    /// how many wait. A ticket whose lease had ended before `now` waits again, so the pool's
    /// event goes with it and a pairing pass looks at it at once.
    pub async fn keep_tickets_alive(
        &self,
        account: &str,
        id: Option<&str>,
        now: i64,
        until: i64,
    ) -> Result<u64, StoreError> {
        let whose = "account_id = $1 AND status = 'waiting' AND ($3 = '' OR id = $3)";
        let mut tx = self.write.begin().await?;
        // First the lapsed ones, to know whether the pool changes; then every waiting one
        // counts (the caller learns whether anything still waits), none is moved back.
        let revived = sqlx::query(&format!(
            "UPDATE pool SET alive_until = $2 WHERE {whose} AND alive_until < $4"
        ))
        .bind(account)
        .bind(until)
        .bind(id.unwrap_or(""))
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let waiting = sqlx::query(&format!(
            "UPDATE pool
             SET alive_until = CASE WHEN alive_until < $2 THEN $2 ELSE alive_until END
             WHERE {whose}"
        ))
        .bind(account)
        .bind(until)
        .bind(id.unwrap_or(""))
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let events = if revived > 0 {
            vec![Event::Waiting {
                account: account.to_string(),
            }]
        } else {
            vec![]
        };
        self.commit_events(tx, events).await?;
        Ok(waiting)
    }

    /// Takes `account`'s ticket `id` out of the pool (if it still waits).
    pub async fn leave_pool(&self, id: &str, account: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE pool SET status = 'gone'
             WHERE id = $1 AND account_id = $2 AND status = 'waiting'",
        )
        .bind(id)
        .bind(account)
        .execute(&self.write)
        .await?;
        Ok(())
    }

    /// Every ticket waiting and alive at `now`, and the blocks between their accounts
    /// (`(blocker, blocked)`).
    pub async fn waiting_tickets(
        &self,
        now: i64,
    ) -> Result<(Vec<Waiting>, Vec<(String, String)>), StoreError> {
        let rows = sqlx::query(
            "SELECT id, account_id, pool, rating, since FROM pool
             WHERE status = 'waiting' AND alive_until >= $1",
        )
        .bind(now)
        .fetch_all(&self.read)
        .await?;
        let tickets = rows
            .iter()
            .map(|r| {
                Ok(Waiting {
                    ticket: r.try_get("id")?,
                    account: r.try_get("account_id")?,
                    pool: r.try_get("pool")?,
                    rating: r.try_get("rating")?,
                    since: r.try_get("since")?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        if tickets.len() < 2 {
            return Ok((tickets, Vec::new()));
        }
        let rows = sqlx::query(
            "SELECT b.account_id, b.blocked_id FROM blocks b
             WHERE b.account_id IN (SELECT account_id FROM pool
                                    WHERE status = 'waiting' AND alive_until >= $1)
               AND b.blocked_id IN (SELECT account_id FROM pool
                                    WHERE status = 'waiting' AND alive_until >= $1)",
        )
        .bind(now)
        .fetch_all(&self.read)
        .await?;
        let blocks = rows
            .iter()
            .map(|r| Ok((r.try_get("account_id")?, r.try_get("blocked_id")?)))
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        Ok((tickets, blocks))
    }

    /// Claims tickets `a` and `b` for game `game` in one transaction: both must still wait
    /// (one conditional UPDATE that must change both rows, else nothing is written). The two
    /// accounts' other waiting tickets leave the pool with it. True for the claim that won.
    pub async fn claim_pair(
        &self,
        a: &str,
        b: &str,
        game: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE pool SET status = 'paired', game = $3, paired_at = $4
             WHERE id IN ($1, $2) AND status = 'waiting' AND alive_until >= $4",
        )
        .bind(a)
        .bind(b)
        .bind(game)
        .bind(now)
        .execute(&mut *tx)
        .await;
        let n = match n {
            Ok(n) => n.rows_affected(),
            // Two instances claiming crossing pairs at once: PostgreSQL may end one as a
            // deadlock. Not paired this time; the next pass tries again.
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("40P01") => 0,
            Err(e) => return Err(e.into()),
        };
        if n != 2 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query(
            "UPDATE pool SET status = 'gone'
             WHERE status = 'waiting'
               AND account_id IN (SELECT account_id FROM pool WHERE game = $1)",
        )
        .bind(game)
        .execute(&mut *tx)
        .await?;
        self.commit_events(tx, vec![Event::Claimed { at: now }])
            .await?;
        Ok(true)
    }

    /// Puts back in the pool the tickets claimed for game `game` that could not be made.
    pub async fn unclaim_pair(&self, game: &str) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE pool SET status = 'waiting', game = NULL, paired_at = NULL
             WHERE status = 'paired' AND game = $1",
        )
        .bind(game)
        .execute(&self.write)
        .await?;
        Ok(())
    }

    /// `account`'s tickets paired at or after `since` whose game exists: (ticket, game).
    pub async fn tickets_paired(
        &self,
        account: &str,
        since: i64,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT p.id, p.game FROM pool p JOIN games g ON g.id = p.game
             WHERE p.account_id = $1 AND p.status = 'paired' AND p.paired_at >= $2",
        )
        .bind(account)
        .bind(since)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("game")?)))
            .collect()
    }

    /// Whether game `id` exists.
    pub async fn game_exists(&self, id: &str) -> Result<bool, StoreError> {
        let r = sqlx::query("SELECT 1 AS one FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        Ok(r.is_some())
    }

    /// The games whose seat `account` got at `since` or later (ms since the epoch), oldest
    /// first, at most 20: games made for it anywhere (a tournament round, a pairing, an
    /// accepted challenge) and seats it took.
    pub async fn games_seated_since(
        &self,
        account: &str,
        since: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT c.game_id FROM account_seats c JOIN games g ON g.id = c.game_id
             WHERE c.account_id = $1 AND c.created >= $2
             ORDER BY c.created, c.game_id LIMIT 20",
        )
        .bind(account)
        .bind(since)
        .fetch_all(&self.read)
        .await?;
        Ok(rows
            .iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, _>>()?)
    }

    // ---- challenges ----

    /// Stores a new open challenge unless the challenger already has `cap` open ones: false
    /// then.
    pub async fn insert_challenge(
        &self,
        c: &NewChallenge,
        cap: i64,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "INSERT INTO challenges (id, from_account, to_account, variant, rules, match_format,
                 clock, rated, created, expires, status, changed)
             SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'open', $9
             WHERE (SELECT COUNT(*) FROM challenges WHERE from_account = $2
                        AND status = 'open' AND expires >= $9) < $11",
        )
        .bind(&c.id)
        .bind(&c.from_account)
        .bind(&c.to_account)
        .bind(&c.variant)
        .bind(&c.rules)
        .bind(&c.match_format)
        .bind(&c.clock)
        .bind(i64::from(c.rated))
        .bind(now)
        .bind(c.expires)
        .bind(cap)
        .execute(&mut *tx)
        .await
        .map_err(|e| conflict_or(e, "this challenge id is taken"))?;
        if n.rows_affected() != 1 {
            return Ok(false);
        }
        let staged = self
            .stage(
                &mut tx,
                vec![Event::Challenge {
                    id: c.id.clone(),
                    from: c.from_account.clone(),
                    to: c.to_account.clone(),
                    status: ChallengeStatus::Open,
                    game: None,
                }],
            )
            .await?;
        tx.commit().await?;
        self.deliver(staged);
        Ok(true)
    }

    /// One challenge.
    pub async fn challenge(&self, id: &str) -> Result<Option<ChallengeRow>, StoreError> {
        let r = sqlx::query(&format!("{CHALLENGE_SELECT} WHERE c.id = $1"))
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        Ok(r.as_ref().map(challenge_of).transpose()?)
    }

    /// `account`'s open challenges at `now`: (incoming, outgoing), newest first, at most
    /// `limit` each.
    pub async fn open_challenges(
        &self,
        account: &str,
        now: i64,
        limit: i64,
    ) -> Result<(Vec<ChallengeRow>, Vec<ChallengeRow>), StoreError> {
        let mut out = (Vec::new(), Vec::new());
        for (col, v) in [("to_account", &mut out.0), ("from_account", &mut out.1)] {
            let rows = sqlx::query(&format!(
                "{CHALLENGE_SELECT} WHERE c.{col} = $1 AND c.status = 'open' AND c.expires >= $2
                 ORDER BY c.created DESC, c.id LIMIT $3"
            ))
            .bind(account)
            .bind(now)
            .bind(limit)
            .fetch_all(&self.read)
            .await?;
            *v = rows.iter().map(challenge_of).collect::<Result<_, _>>()?;
        }
        Ok(out)
    }

    /// Challenges to or from `account` that changed at or after `since`: the latest 100, the
    /// oldest of them first.
    pub async fn challenges_changed(
        &self,
        account: &str,
        since: i64,
    ) -> Result<Vec<ChallengeRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "{CHALLENGE_SELECT} WHERE (c.to_account = $1 OR c.from_account = $1)
               AND c.changed >= $2 ORDER BY c.changed DESC, c.id LIMIT 100"
        ))
        .bind(account)
        .bind(since)
        .fetch_all(&self.read)
        .await?;
        Ok(rows
            .iter()
            .rev()
            .map(challenge_of)
            .collect::<Result<_, _>>()?)
    }

    /// Claims open challenge `id` sent to `to` for game `game`: true for the one claim that
    /// changed the row.
    pub async fn claim_challenge(
        &self,
        id: &str,
        to: &str,
        game: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE challenges SET status = 'accepted', game = $3, changed = $4
             WHERE id = $1 AND to_account = $2 AND status = 'open' AND expires >= $4",
        )
        .bind(id)
        .bind(to)
        .bind(game)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        if n.rows_affected() != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.commit_events(tx, vec![Event::Claimed { at: now }])
            .await?;
        Ok(true)
    }

    /// Opens challenge `id` again after its game `game` could not be made.
    pub async fn unclaim_challenge(
        &self,
        id: &str,
        game: &str,
        now: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "UPDATE challenges SET status = 'open', game = NULL, changed = $3
             WHERE id = $1 AND status = 'accepted' AND game = $2",
        )
        .bind(id)
        .bind(game)
        .bind(now)
        .execute(&self.write)
        .await?;
        Ok(())
    }

    /// Ends open challenge `id` as `status` (`declined` by the challenged `by`, `cancelled`
    /// by the challenger `by`): whether it was open.
    pub async fn end_challenge(
        &self,
        id: &str,
        by: &str,
        status: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let col = if status == "declined" {
            "to_account"
        } else {
            "from_account"
        };
        let mut tx = self.write.begin().await?;
        let row = sqlx::query(&format!(
            "UPDATE challenges SET status = $3, changed = $4
             WHERE id = $1 AND {col} = $2 AND status = 'open'
             RETURNING from_account, to_account"
        ))
        .bind(id)
        .bind(by)
        .bind(status)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else {
            return Ok(false);
        };
        let event = Event::Challenge {
            id: id.to_string(),
            from: row.try_get("from_account")?,
            to: row.try_get("to_account")?,
            status: ChallengeStatus::parse(status).unwrap_or(ChallengeStatus::Cancelled),
            game: None,
        };
        let staged = self.stage(&mut tx, vec![event]).await?;
        tx.commit().await?;
        self.deliver(staged);
        Ok(true)
    }

    // ---- blocks ----

    /// `account` blocks `other`, and their open challenges (either way) are cancelled, in one
    /// transaction. Blocking twice is blocking once.
    pub async fn block(&self, account: &str, other: &str, now: i64) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        sqlx::query(
            "INSERT INTO blocks (account_id, blocked_id, created) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
        )
        .bind(account)
        .bind(other)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        let rows = sqlx::query(
            "UPDATE challenges SET status = 'cancelled', changed = $3
             WHERE status = 'open' AND ((from_account = $1 AND to_account = $2)
                                        OR (from_account = $2 AND to_account = $1))
             RETURNING id, from_account, to_account",
        )
        .bind(account)
        .bind(other)
        .bind(now)
        .fetch_all(&mut *tx)
        .await?;
        let events = challenge_events(&rows, ChallengeStatus::Cancelled)?;
        let staged = self.stage(&mut tx, events).await?;
        tx.commit().await?;
        self.deliver(staged);
        Ok(())
    }

    /// `account` no longer blocks `other`.
    pub async fn unblock(&self, account: &str, other: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM blocks WHERE account_id = $1 AND blocked_id = $2")
            .bind(account)
            .bind(other)
            .execute(&self.write)
            .await?;
        Ok(())
    }

    /// The names `account` blocked, in alphabetical order (at most `limit`).
    pub async fn blocked_names(
        &self,
        account: &str,
        limit: i64,
    ) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT a.username FROM blocks b JOIN accounts a ON a.id = b.blocked_id
             WHERE b.account_id = $1 ORDER BY a.name_key LIMIT $2",
        )
        .bind(account)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(|r| Ok(r.try_get("username")?)).collect()
    }

    /// How many accounts `account` blocked.
    pub async fn count_blocks(&self, account: &str) -> Result<i64, StoreError> {
        let r = sqlx::query("SELECT COUNT(*) AS n FROM blocks WHERE account_id = $1")
            .bind(account)
            .fetch_one(&self.read)
            .await?;
        Ok(r.try_get("n")?)
    }

    /// Whether either of `a` and `b` blocked the other.
    pub async fn blocked_either(&self, a: &str, b: &str) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "SELECT 1 AS one FROM blocks
             WHERE (account_id = $1 AND blocked_id = $2) OR (account_id = $2 AND blocked_id = $1)",
        )
        .bind(a)
        .bind(b)
        .fetch_optional(&self.read)
        .await?;
        Ok(r.is_some())
    }

    // ---- upkeep ----

    /// Undoes the claims made before `stale` whose game does not exist (their instance died
    /// between the claim and the game; every instance may run it, and running it twice changes
    /// nothing): the seek is open again, the tickets wait again, the challenge is open again,
    /// each alive (a challenge: not expiring) until at least `lease`, so that a player who
    /// only polls, or whose socket has not yet renewed it, finds it there (docs/api.md,
    /// "Finding an opponent"). A ticket whose account has asked again in the same pool since
    /// leaves the pool instead: the later ask stands. One transaction with the news of what
    /// came back (the seek list, the pool, the challenge's players). Answers the claims undone.
    pub async fn repair_claims(&self, now: i64, stale: i64, lease: i64) -> Result<u64, StoreError> {
        let mut tx = self.write.begin().await?;
        let mut events = Vec::new();
        let seeks = sqlx::query(
            "UPDATE seeks SET status = 'open', game = NULL, acceptor = NULL, accepted_at = NULL,
                    alive_until = $2
             WHERE status = 'accepted' AND accepted_at < $1
               AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = seeks.game)",
        )
        .bind(stale)
        .bind(lease)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if seeks > 0 {
            events.push(Event::Seeks);
        }
        // Before the reopening: at most one waiting ticket per account and pool (the unique
        // index), so an orphan with a later ticket beside it must not wait again.
        let gone = sqlx::query(
            "UPDATE pool SET status = 'gone'
             WHERE status = 'paired' AND paired_at < $1
               AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = pool.game)
               AND EXISTS (SELECT 1 FROM pool w
                           WHERE w.account_id = pool.account_id AND w.pool = pool.pool
                             AND (w.since > pool.since OR (w.since = pool.since AND w.id > pool.id)))",
        )
        .bind(stale)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let waiting = sqlx::query(
            "UPDATE pool SET status = 'waiting', game = NULL, paired_at = NULL, alive_until = $2
             WHERE status = 'paired' AND paired_at < $1
               AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = pool.game)
             RETURNING account_id",
        )
        .bind(stale)
        .bind(lease)
        .fetch_all(&mut *tx)
        .await?;
        for r in &waiting {
            events.push(Event::Waiting {
                account: r.try_get("account_id")?,
            });
        }
        let reopened = sqlx::query(
            "UPDATE challenges SET status = 'open', game = NULL, changed = $2,
                    expires = CASE WHEN expires < $3 THEN $3 ELSE expires END
             WHERE status = 'accepted' AND changed < $1
               AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = challenges.game)
             RETURNING id, from_account, to_account",
        )
        .bind(stale)
        .bind(now)
        .bind(lease)
        .fetch_all(&mut *tx)
        .await?;
        events.extend(challenge_events(&reopened, ChallengeStatus::Open)?);
        self.commit_events(tx, events).await?;
        Ok(seeks + gone + waiting.len() as u64 + reopened.len() as u64)
    }

    /// When the oldest claim whose game does not exist was made, if any: an instance that
    /// starts learns there the deadline it did not hear of ([`Event::Claimed`] went by
    /// before it listened). Claims in progress count too; their repair finds them made.
    pub async fn first_open_claim(&self) -> Result<Option<i64>, StoreError> {
        let row = sqlx::query(
            "SELECT MIN(t) AS first FROM (
               SELECT accepted_at AS t FROM seeks WHERE status = 'accepted'
                 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = seeks.game)
               UNION ALL
               SELECT paired_at AS t FROM pool WHERE status = 'paired'
                 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = pool.game)
               UNION ALL
               SELECT changed AS t FROM challenges WHERE status = 'accepted'
                 AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = challenges.game)
             ) AS claims",
        )
        .fetch_one(&self.read)
        .await?;
        Ok(row.try_get::<Option<i64>, _>("first")?)
    }

    /// Expires the open challenges whose time has come by `now`, with their event in the same
    /// transaction (both players' sockets hear of it); answers when the next open one expires,
    /// the deadline of the next call.
    pub async fn expire_challenges(&self, now: i64) -> Result<Option<i64>, StoreError> {
        let mut tx = self.write.begin().await?;
        let rows = sqlx::query(
            "UPDATE challenges SET status = 'expired', changed = $1
             WHERE status = 'open' AND expires < $1
             RETURNING id, from_account, to_account",
        )
        .bind(now)
        .fetch_all(&mut *tx)
        .await?;
        let expired = challenge_events(&rows, ChallengeStatus::Expired)?;
        self.commit_events(tx, expired).await?;
        let next = sqlx::query("SELECT MIN(expires) AS next FROM challenges WHERE status = 'open'")
            .fetch_one(&self.read)
            .await?;
        // Expiry is `expires < now`: the first moment it holds.
        Ok(next.try_get::<Option<i64>, _>("next")?.map(|t| t + 1))
    }

    /// Deletes the seeks and pool tickets closed or lapsed before `old`.
    pub async fn prune_seeks(&self, old: i64) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM seeks WHERE status <> 'accepted' AND alive_until < $1")
            .bind(old)
            .execute(&self.write)
            .await?;
        sqlx::query("DELETE FROM pool WHERE status <> 'paired' AND alive_until < $1")
            .bind(old)
            .execute(&self.write)
            .await?;
        Ok(())
    }
}

/// The challenge events of `RETURNING id, from_account, to_account` rows now `status`.
fn challenge_events(rows: &[AnyRow], status: ChallengeStatus) -> Result<Vec<Event>, StoreError> {
    rows.iter()
        .map(|r| {
            Ok(Event::Challenge {
                id: r.try_get("id")?,
                from: r.try_get("from_account")?,
                to: r.try_get("to_account")?,
                status,
                game: None,
            })
        })
        .collect()
}
