//! Team battles (docs/api.md, "Arenas", "Team battles"; migration 0019): an arena among
//! clubs. The arena is an ordinary one (store/arenas.rs); this part adds its clubs and each
//! player's club. A player's club is chosen once: one row per player and arena, written only
//! while the player is a member of that club, in one statement.

use super::{Store, StoreError};
use sqlx::Row;
use std::collections::HashMap;

/// A battle as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BattleRow {
    /// A club scores the sum of this many of its best players' scores.
    pub leaders: i64,
    /// Its clubs (id, name), in the order the maker named them.
    pub clubs: Vec<(String, String)>,
    /// The club (id) of each player who chose one, by account id.
    pub players: HashMap<String, String>,
}

/// What choosing a club for a battle did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClubChoice {
    /// The player plays for that club (chosen now, or the same choice before).
    Chosen,
    /// The player is not a member of that club.
    Refused,
    /// The player chose another club before (its id): the choice is final.
    Other(String),
}

impl Store {
    /// Writes the battle part of arena `arena_id` (before its arena row: an arena is seen
    /// only once it is complete; a stop between leaves rows that no arena names). `false`
    /// when an arena has that id already.
    pub async fn create_battle(
        &self,
        arena_id: &str,
        leaders: i64,
        clubs: &[(String, String)],
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let taken = sqlx::query("SELECT 1 AS one FROM arenas WHERE id = $1")
            .bind(arena_id)
            .fetch_optional(&mut *tx)
            .await?
            .is_some();
        if taken {
            tx.rollback().await?;
            return Ok(false);
        }
        // Rows an earlier attempt under this id left (it stopped before its arena row).
        for table in [
            "arena_battles",
            "arena_battle_clubs",
            "arena_battle_players",
        ] {
            sqlx::query(&format!("DELETE FROM {table} WHERE arena_id = $1"))
                .bind(arena_id)
                .execute(&mut *tx)
                .await?;
        }
        sqlx::query("INSERT INTO arena_battles (arena_id, leaders) VALUES ($1, $2)")
            .bind(arena_id)
            .bind(leaders)
            .execute(&mut *tx)
            .await?;
        for (seq, (id, name)) in clubs.iter().enumerate() {
            sqlx::query(
                "INSERT INTO arena_battle_clubs (arena_id, club_id, name, seq)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(arena_id)
            .bind(id)
            .bind(name)
            .bind(seq as i64)
            .execute(&mut *tx)
            .await?;
        }
        tx.commit().await?;
        Ok(true)
    }

    /// Removes the battle part of `arena_id` (its arena row could not be written).
    pub async fn drop_battle(&self, arena_id: &str) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        for table in [
            "arena_battles",
            "arena_battle_clubs",
            "arena_battle_players",
        ] {
            sqlx::query(&format!("DELETE FROM {table} WHERE arena_id = $1"))
                .bind(arena_id)
                .execute(&mut *tx)
                .await?;
        }
        tx.commit().await?;
        Ok(())
    }

    /// The battle of arena `arena_id`, `None` for a plain arena.
    pub async fn arena_battle(&self, arena_id: &str) -> Result<Option<BattleRow>, StoreError> {
        let Some(b) = sqlx::query("SELECT leaders FROM arena_battles WHERE arena_id = $1")
            .bind(arena_id)
            .fetch_optional(&self.read)
            .await?
        else {
            return Ok(None);
        };
        let clubs = sqlx::query(
            "SELECT club_id, name FROM arena_battle_clubs WHERE arena_id = $1 ORDER BY seq",
        )
        .bind(arena_id)
        .fetch_all(&self.read)
        .await?
        .iter()
        .map(|r| Ok((r.try_get("club_id")?, r.try_get("name")?)))
        .collect::<Result<Vec<_>, sqlx::Error>>()?;
        let players =
            sqlx::query("SELECT account_id, club_id FROM arena_battle_players WHERE arena_id = $1")
                .bind(arena_id)
                .fetch_all(&self.read)
                .await?
                .iter()
                .map(|r| Ok((r.try_get("account_id")?, r.try_get("club_id")?)))
                .collect::<Result<HashMap<_, _>, sqlx::Error>>()?;
        Ok(Some(BattleRow {
            leaders: b.try_get("leaders")?,
            clubs,
            players,
        }))
    }

    /// `account` plays for club `club` in battle `arena_id` (one of its clubs: the feature
    /// checks): written only if the account is a member of the club, in the same statement
    /// (a removal from the club cannot fall between), and only once (a later different choice
    /// is [`ClubChoice::Other`], also when two joins race).
    pub async fn choose_battle_club(
        &self,
        arena_id: &str,
        account: &str,
        club: &str,
    ) -> Result<ClubChoice, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "INSERT INTO arena_battle_players (arena_id, account_id, club_id)
             SELECT $1, $2, $3
             WHERE EXISTS (SELECT 1 FROM club_members WHERE club_id = $3 AND account_id = $2)
             ON CONFLICT (arena_id, account_id) DO NOTHING",
        )
        .bind(arena_id)
        .bind(account)
        .bind(club)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        let had: Option<String> = sqlx::query(
            "SELECT club_id FROM arena_battle_players WHERE arena_id = $1 AND account_id = $2",
        )
        .bind(arena_id)
        .bind(account)
        .fetch_optional(&mut *tx)
        .await?
        .map(|r| r.try_get("club_id"))
        .transpose()?;
        // No news: the join that follows publishes the arena's.
        tx.commit().await?;
        Ok(match had {
            Some(c) if c == club => ClubChoice::Chosen,
            Some(c) => ClubChoice::Other(c),
            None => {
                debug_assert_eq!(n, 0);
                ClubChoice::Refused
            }
        })
    }
}
