//! Which players have a game open, on which instance (migration 0011). An instance knows
//! only its own sockets; these rows let another instance know them too (a "your move"
//! push is not sent to a player who is looking at the game elsewhere).

use super::{Store, StoreError};
use crate::domain::events::Event;
use sqlx::Row;
use std::collections::BTreeSet;

/// Rows written by one statement.
const CHUNK: usize = 200;

impl Store {
    /// Replaces the rows of `instance` with `seats` (game id, player), each valid until
    /// `until` (ms since the epoch). One transaction: a reader sees the old set or the new.
    /// It publishes [`Event::Presence`] for each game whose seats changed (docs/architecture.md,
    /// "The event bus"): the instances watching it read its marks again.
    pub async fn presence_sync(
        &self,
        instance: &str,
        seats: &[(String, usize)],
        until: i64,
    ) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        let before: BTreeSet<(String, usize)> =
            sqlx::query("SELECT game_id, player FROM seat_presence WHERE instance = $1")
                .bind(instance)
                .fetch_all(&mut *tx)
                .await?
                .iter()
                .map(|r| {
                    Ok((
                        r.try_get::<String, _>("game_id")?,
                        r.try_get::<i64, _>("player")?.clamp(0, 1) as usize,
                    ))
                })
                .collect::<Result<_, StoreError>>()?;
        let after: BTreeSet<(String, usize)> = seats.iter().cloned().collect();
        let changed: BTreeSet<&String> = before
            .symmetric_difference(&after)
            .map(|(g, _)| g)
            .collect();
        let events: Vec<Event> = changed
            .into_iter()
            .map(|g| Event::Presence { game: g.clone() })
            .collect();
        sqlx::query("DELETE FROM seat_presence WHERE instance = $1")
            .bind(instance)
            .execute(&mut *tx)
            .await?;
        for chunk in seats.chunks(CHUNK) {
            // Numbered placeholders, as both backends read them (sqlx's QueryBuilder writes
            // `?` for the Any driver, which PostgreSQL refuses).
            let rows: Vec<String> = (0..chunk.len())
                .map(|i| format!("(${}, ${}, $1, $2)", 2 * i + 3, 2 * i + 4))
                .collect();
            let sql = format!(
                "INSERT INTO seat_presence (game_id, player, instance, until_ms) VALUES {}",
                rows.join(", ")
            );
            let mut q = sqlx::query(&sql).bind(instance).bind(until);
            for (game, player) in chunk {
                q = q.bind(game.as_str()).bind(*player as i64);
            }
            q.execute(&mut *tx).await?;
        }
        self.commit_events(tx, events).await
    }

    /// Whether `player` of `game` has a socket open on an instance other than `instance`
    /// (a row still valid at `now`).
    pub async fn present_elsewhere(
        &self,
        game: &str,
        player: usize,
        instance: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let r = sqlx::query(
            "SELECT COUNT(*) AS n FROM seat_presence
             WHERE game_id = $1 AND player = $2 AND instance <> $3 AND until_ms > $4",
        )
        .bind(game)
        .bind(player as i64)
        .bind(instance)
        .bind(now)
        .fetch_one(&self.read)
        .await?;
        Ok(r.try_get::<i64, _>("n")? > 0)
    }
}

impl Store {
    /// Of `games`, the seats (game id, player) with a socket open on an instance other than
    /// `instance` (rows still valid at `now`).
    pub async fn present_in(
        &self,
        games: &[String],
        instance: &str,
        now: i64,
    ) -> Result<Vec<(String, usize)>, StoreError> {
        let mut out = Vec::new();
        for chunk in games.chunks(CHUNK) {
            let marks: Vec<String> = (0..chunk.len()).map(|i| format!("${}", i + 3)).collect();
            let sql = format!(
                "SELECT DISTINCT game_id, player FROM seat_presence
                 WHERE instance <> $1 AND until_ms > $2 AND game_id IN ({})",
                marks.join(", ")
            );
            let mut q = sqlx::query(&sql).bind(instance).bind(now);
            for g in chunk {
                q = q.bind(g.as_str());
            }
            for r in q.fetch_all(&self.read).await? {
                let player: i64 = r.try_get("player")?;
                out.push((r.try_get("game_id")?, player as usize));
            }
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Durability, Store};

    #[tokio::test]
    async fn an_instance_replaces_its_rows_and_rows_expire() {
        let dir = std::env::temp_dir().join(format!("bao-presence-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("bao.db");
        let _ = std::fs::remove_file(&path);
        let store = Store::open(&format!("sqlite://{}", path.display()), Durability::Normal)
            .await
            .unwrap();
        let seats: Vec<(String, usize)> = (0..450).map(|i| (format!("g{i}"), i % 2)).collect();
        store.presence_sync("a", &seats, 1_000).await.unwrap();
        // Seen from another instance, not from its own; only the seats written; until 1000.
        assert!(store.present_elsewhere("g7", 1, "b", 999).await.unwrap());
        assert!(!store.present_elsewhere("g7", 1, "a", 999).await.unwrap());
        assert!(!store.present_elsewhere("g7", 0, "b", 999).await.unwrap());
        assert!(!store.present_elsewhere("g7", 1, "b", 1_000).await.unwrap());
        // The next write replaces the whole set of that instance, and no other.
        store
            .presence_sync("b", &[("g7".into(), 1)], 5_000)
            .await
            .unwrap();
        store
            .presence_sync("a", &[("g8".into(), 0)], 5_000)
            .await
            .unwrap();
        assert!(store.present_elsewhere("g8", 0, "c", 10).await.unwrap());
        assert!(!store.present_elsewhere("g9", 1, "c", 10).await.unwrap());
        assert!(store.present_elsewhere("g7", 1, "a", 10).await.unwrap());
        let games: Vec<String> = ["g7", "g8", "g9"].map(String::from).to_vec();
        let mut seen = store.present_in(&games, "c", 10).await.unwrap();
        seen.sort();
        assert_eq!(seen, vec![("g7".to_string(), 1), ("g8".to_string(), 0)]);
        assert_eq!(
            store.present_in(&games, "b", 10).await.unwrap(),
            vec![("g8".to_string(), 0)]
        );
        store.presence_sync("b", &[], 5_000).await.unwrap();
        assert!(!store.present_elsewhere("g7", 1, "a", 10).await.unwrap());
        let _ = std::fs::remove_dir_all(&dir);
    }
}
