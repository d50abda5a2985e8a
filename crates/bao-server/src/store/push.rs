//! Web Push subscriptions and the server's VAPID key (docs/api.md, "Web Push"; migration
//! 0008). A subscription is a browser's push endpoint with its keys; it belongs to an
//! account, or to the guest seats it proved with their tokens.

use super::{Store, StoreError};
use sqlx::Row;

/// A browser's push subscription as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushTarget {
    /// The push service's URL for this browser.
    pub endpoint: String,
    /// The browser's P-256 public key (base64url, RFC 8291 `p256dh`).
    pub p256dh: String,
    /// The browser's authentication secret (base64url, RFC 8291 `auth`).
    pub auth: String,
    /// `en` or `sw`: the language of the texts.
    pub lang: String,
}

/// How many rows one owner may hold; past them the oldest go.
#[derive(Clone, Copy, Debug)]
pub struct PushBounds {
    /// Subscriptions of one account.
    pub per_account: usize,
    /// Subscriptions of one guest seat.
    pub per_seat: usize,
    /// Seats one subscription covers.
    pub seats_per_subscription: usize,
}

impl Store {
    /// The VAPID private key every instance uses: `candidate` if no instance stored one
    /// before, else the stored one (a conditional insert, so instances starting together
    /// agree on one).
    pub async fn push_key(&self, candidate: &str, now: i64) -> Result<String, StoreError> {
        sqlx::query(
            "INSERT INTO push_keys (id, private_key, created) VALUES ('vapid', $1, $2)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(candidate)
        .bind(now)
        .execute(&self.write)
        .await?;
        let r = sqlx::query("SELECT private_key FROM push_keys WHERE id = 'vapid'")
            .fetch_one(&self.write)
            .await?;
        Ok(r.try_get("private_key")?)
    }

    /// Stores (or replaces) the subscription `t`, owned by `account` (or no account) and
    /// covering `seats` (game id, player) besides; then drops the oldest rows past `bounds`.
    pub async fn push_subscribe(
        &self,
        t: &PushTarget,
        account: Option<&str>,
        seats: &[(String, usize)],
        bounds: PushBounds,
        now: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        sqlx::query(
            "INSERT INTO push_subscriptions (endpoint, p256dh, auth, lang, account_id, created)
             VALUES ($1, $2, $3, $4, $5, $6)
             ON CONFLICT (endpoint) DO UPDATE SET p256dh = excluded.p256dh,
                 auth = excluded.auth, lang = excluded.lang, account_id = excluded.account_id,
                 created = excluded.created",
        )
        .bind(&t.endpoint)
        .bind(&t.p256dh)
        .bind(&t.auth)
        .bind(&t.lang)
        .bind(account)
        .bind(now)
        .execute(&mut *tx)
        .await?;
        for (game, player) in seats {
            sqlx::query(
                "INSERT INTO push_seats (endpoint, game_id, player, created) VALUES ($1, $2, $3, $4)
                 ON CONFLICT (endpoint, game_id, player) DO UPDATE SET created = excluded.created",
            )
            .bind(&t.endpoint)
            .bind(game)
            .bind(*player as i64)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        }
        let mut gone: Vec<String> = Vec::new();
        if let Some(a) = account {
            let rows = sqlx::query(
                "SELECT endpoint FROM push_subscriptions WHERE account_id = $1
                 ORDER BY created DESC, endpoint",
            )
            .bind(a)
            .fetch_all(&mut *tx)
            .await?;
            for r in rows.iter().skip(bounds.per_account) {
                gone.push(r.try_get("endpoint")?);
            }
        }
        for (game, player) in seats {
            let rows = sqlx::query(
                "SELECT endpoint FROM push_seats WHERE game_id = $1 AND player = $2
                 ORDER BY created DESC, endpoint",
            )
            .bind(game)
            .bind(*player as i64)
            .fetch_all(&mut *tx)
            .await?;
            for r in rows.iter().skip(bounds.per_seat) {
                let e: String = r.try_get("endpoint")?;
                sqlx::query(
                    "DELETE FROM push_seats WHERE endpoint = $1 AND game_id = $2 AND player = $3",
                )
                .bind(&e)
                .bind(game)
                .bind(*player as i64)
                .execute(&mut *tx)
                .await?;
            }
        }
        let rows = sqlx::query(
            "SELECT game_id, player FROM push_seats WHERE endpoint = $1
             ORDER BY created DESC, game_id, player",
        )
        .bind(&t.endpoint)
        .fetch_all(&mut *tx)
        .await?;
        for r in rows.iter().skip(bounds.seats_per_subscription) {
            let game: String = r.try_get("game_id")?;
            let player: i64 = r.try_get("player")?;
            sqlx::query(
                "DELETE FROM push_seats WHERE endpoint = $1 AND game_id = $2 AND player = $3",
            )
            .bind(&t.endpoint)
            .bind(&game)
            .bind(player)
            .execute(&mut *tx)
            .await?;
        }
        for e in &gone {
            delete_subscription(&mut tx, e).await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// Forgets the subscription `endpoint` (the browser turned notifications off, or the
    /// push service said it is gone). Whether there was one.
    pub async fn push_unsubscribe(&self, endpoint: &str) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = delete_subscription(&mut tx, endpoint).await?;
        tx.commit().await?;
        Ok(n > 0)
    }

    /// The subscriptions of an account.
    pub async fn push_targets_of_account(
        &self,
        account: &str,
    ) -> Result<Vec<PushTarget>, StoreError> {
        let rows = sqlx::query(
            "SELECT endpoint, p256dh, auth, lang FROM push_subscriptions WHERE account_id = $1
             ORDER BY endpoint",
        )
        .bind(account)
        .fetch_all(&self.read)
        .await?;
        Ok(rows.iter().map(target_of).collect::<Result<_, _>>()?)
    }

    /// The subscriptions that proved the seat of `player` in `game`.
    pub async fn push_targets_of_seat(
        &self,
        game: &str,
        player: usize,
    ) -> Result<Vec<PushTarget>, StoreError> {
        let rows = sqlx::query(
            "SELECT s.endpoint, s.p256dh, s.auth, s.lang
             FROM push_seats p JOIN push_subscriptions s ON s.endpoint = p.endpoint
             WHERE p.game_id = $1 AND p.player = $2 ORDER BY s.endpoint",
        )
        .bind(game)
        .bind(player as i64)
        .fetch_all(&self.read)
        .await?;
        Ok(rows.iter().map(target_of).collect::<Result<_, _>>()?)
    }
}

async fn delete_subscription(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    endpoint: &str,
) -> Result<u64, StoreError> {
    sqlx::query("DELETE FROM push_seats WHERE endpoint = $1")
        .bind(endpoint)
        .execute(&mut **tx)
        .await?;
    let r = sqlx::query("DELETE FROM push_subscriptions WHERE endpoint = $1")
        .bind(endpoint)
        .execute(&mut **tx)
        .await?;
    Ok(r.rows_affected())
}

fn target_of(r: &sqlx::any::AnyRow) -> Result<PushTarget, sqlx::Error> {
    Ok(PushTarget {
        endpoint: r.try_get("endpoint")?,
        p256dh: r.try_get("p256dh")?,
        auth: r.try_get("auth")?,
        lang: r.try_get("lang")?,
    })
}
