//! Arenas (docs/api.md, "Arenas"; migration 0016): the arena, its players and its games.
//! Every step that must happen once across instances is one transaction whose conditions
//! let only the first through: a pairing claims both players (`game_id IS NULL AND paused =
//! 0`, each UPDATE changing its one row, in account order so that two instances never wait
//! on each other), a result is recorded once (`result IS NULL`), the start and the end are
//! conditional UPDATEs of `status`. Each change publishes [`Event::Arena`] in its transaction.

use super::{conflict_or, Store, StoreError};
use crate::domain::events::Event;
use sqlx::any::AnyRow;
use sqlx::Row;

/// An arena as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct ArenaRow {
    /// Id (random, `[a-z0-9]`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Rules string (`-` for the variant's usual rules).
    pub rules: String,
    /// The clock, as the API's JSON.
    pub clock: String,
    /// Rated games.
    pub rated: bool,
    /// Players may go berserk.
    pub berserk: bool,
    /// `upcoming`, `running` or `finished`.
    pub status: String,
    /// The maker's account id.
    pub organiser_id: String,
    /// The maker's name.
    pub organiser_name: String,
    /// When it starts (ms).
    pub starts_at: i64,
    /// When it ends (ms).
    pub ends_at: i64,
    /// Created (ms).
    pub created: i64,
    /// Last change (ms).
    pub updated: i64,
    /// Only this club's members join it.
    pub club: Option<String>,
    /// Not listed: joined by its link.
    pub private: bool,
    /// The series it belongs to (a recurring arena).
    pub series: Option<String>,
    /// How often its series comes: `daily` or `weekly`.
    pub repeats: Option<String>,
}

/// A player of an arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaPlayerRow {
    /// Account id.
    pub account_id: String,
    /// Account name.
    pub username: String,
    /// Rating in the variant when they joined (rounded).
    pub rating: Option<i64>,
    /// When they joined (ms).
    pub joined: i64,
    /// Paused: not paired until they join again.
    pub paused: bool,
    /// The arena game they are in now.
    pub game_id: Option<String>,
    /// Their last game's opponent (account id).
    pub last_opponent: Option<String>,
}

/// A game of an arena.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArenaGameRow {
    /// The server game.
    pub game_id: String,
    /// South's account id.
    pub south: String,
    /// North's account id.
    pub north: String,
    /// When it was paired (ms).
    pub started: i64,
    /// `S`, `N` or `draw` once known.
    pub result: Option<String>,
    /// How it ended (NOT-6.2's words).
    pub termination: Option<String>,
    /// South went berserk.
    pub berserk_s: bool,
    /// North went berserk.
    pub berserk_n: bool,
}

const COLUMNS: &str = "id, name, variant, rules, clock, rated, berserk, status, organiser_id,
    organiser_name, starts_at, ends_at, created, updated, club_id, private, series_id, repeats";

fn arena_of(r: &AnyRow) -> Result<ArenaRow, StoreError> {
    Ok(ArenaRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        clock: r.try_get("clock")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        berserk: r.try_get::<i64, _>("berserk")? != 0,
        status: r.try_get("status")?,
        organiser_id: r.try_get("organiser_id")?,
        organiser_name: r.try_get("organiser_name")?,
        starts_at: r.try_get("starts_at")?,
        ends_at: r.try_get("ends_at")?,
        created: r.try_get("created")?,
        updated: r.try_get("updated")?,
        club: r.try_get("club_id")?,
        private: r.try_get::<i64, _>("private")? != 0,
        series: r.try_get("series_id")?,
        repeats: r.try_get("repeats")?,
    })
}

/// Inserts arena `a` in `tx`.
async fn insert_arena(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    a: &ArenaRow,
) -> Result<(), StoreError> {
    sqlx::query(&format!(
        "INSERT INTO arenas ({COLUMNS}) VALUES
         ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)"
    ))
    .bind(&a.id)
    .bind(&a.name)
    .bind(&a.variant)
    .bind(&a.rules)
    .bind(&a.clock)
    .bind(a.rated as i64)
    .bind(a.berserk as i64)
    .bind(&a.status)
    .bind(&a.organiser_id)
    .bind(&a.organiser_name)
    .bind(a.starts_at)
    .bind(a.ends_at)
    .bind(a.created)
    .bind(a.updated)
    .bind(a.club.clone())
    .bind(a.private as i64)
    .bind(a.series.clone())
    .bind(a.repeats.clone())
    .execute(&mut **tx)
    .await
    .map_err(|e| conflict_or(e, "the arena id is taken"))?;
    Ok(())
}

fn game_of(r: &AnyRow) -> Result<ArenaGameRow, StoreError> {
    Ok(ArenaGameRow {
        game_id: r.try_get("game_id")?,
        south: r.try_get("south")?,
        north: r.try_get("north")?,
        started: r.try_get("started")?,
        result: r.try_get("result")?,
        termination: r.try_get("termination")?,
        berserk_s: r.try_get::<i64, _>("berserk_s")? != 0,
        berserk_n: r.try_get::<i64, _>("berserk_n")? != 0,
    })
}

/// The news of a change to arena `id`, committed with it: its pages and every instance's
/// pairing and timers hear of it.
fn news(id: &str) -> Vec<Event> {
    vec![Event::Arena { id: id.to_string() }]
}

/// What a pairing claim did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Claim {
    /// Both players claimed and the game's row written: make the game.
    Paired,
    /// One of them was taken (another instance paired them first), paused, or the arena
    /// is not running: nothing written.
    Taken,
}

/// Claims both players of `g` (free and not paused) and writes its row as game `seq` of
/// arena `id`, in `tx`: [`Claim::Taken`] when a claim changed no row (the caller rolls back).
async fn claim_pair(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    g: &ArenaGameRow,
    seq: i64,
) -> Result<Claim, StoreError> {
    // In account order, as every claim takes them.
    let mut seats = [(&g.south, &g.north), (&g.north, &g.south)];
    seats.sort();
    for (who, against) in seats {
        let n = sqlx::query(
            "UPDATE arena_players SET game_id = $3, last_opponent = $4
             WHERE arena_id = $1 AND account_id = $2 AND game_id IS NULL AND paused = 0",
        )
        .bind(id)
        .bind(who)
        .bind(&g.game_id)
        .bind(against)
        .execute(&mut **tx)
        .await?
        .rows_affected();
        if n != 1 {
            return Ok(Claim::Taken);
        }
    }
    sqlx::query(
        "INSERT INTO arena_games
           (game_id, arena_id, seq, south, north, started, result, termination,
            berserk_s, berserk_n, ended)
         VALUES ($1, $2, $3, $4, $5, $6, NULL, NULL, 0, 0, NULL)",
    )
    .bind(&g.game_id)
    .bind(id)
    .bind(seq)
    .bind(&g.south)
    .bind(&g.north)
    .bind(g.started)
    .execute(&mut **tx)
    .await
    .map_err(|e| conflict_or(e, "the game id is taken"))?;
    Ok(Claim::Paired)
}

impl Store {
    /// Stores a new arena; with `a.series` and `a.repeats`, its series too (the arena is
    /// the series' first).
    pub async fn create_arena(&self, a: &ArenaRow) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        insert_arena(&mut tx, a).await?;
        if let (Some(series), Some(repeats)) = (&a.series, &a.repeats) {
            sqlx::query(
                "INSERT INTO arena_series (id, repeats, last_start, stopped, created)
                 VALUES ($1, $2, $3, 0, $4)",
            )
            .bind(series)
            .bind(repeats)
            .bind(a.starts_at)
            .bind(a.created)
            .execute(&mut *tx)
            .await
            .map_err(|e| conflict_or(e, "the series id is taken"))?;
        }
        self.commit_events(tx, news(&a.id)).await
    }

    /// The arena `id`.
    pub async fn arena(&self, id: &str) -> Result<Option<ArenaRow>, StoreError> {
        let r = sqlx::query(&format!("SELECT {COLUMNS} FROM arenas WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        r.as_ref().map(arena_of).transpose()
    }

    /// Arenas in `status`: upcoming and running ones by start time, finished ones the latest
    /// first; at most `limit`.
    pub async fn list_arenas(&self, status: &str, limit: i64) -> Result<Vec<ArenaRow>, StoreError> {
        let order = if status == "finished" {
            "ends_at DESC, id"
        } else {
            "starts_at, id"
        };
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM arenas WHERE status = $1 AND private = 0
             ORDER BY {order} LIMIT $2"
        ))
        .bind(status)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(arena_of).collect()
    }

    /// The players of arena `id`, in joining order.
    pub async fn arena_players(&self, id: &str) -> Result<Vec<ArenaPlayerRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT account_id, username, rating, joined, paused, game_id, last_opponent
             FROM arena_players WHERE arena_id = $1 ORDER BY joined, account_id",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(ArenaPlayerRow {
                    account_id: r.try_get("account_id")?,
                    username: r.try_get("username")?,
                    rating: r.try_get("rating")?,
                    joined: r.try_get("joined")?,
                    paused: r.try_get::<i64, _>("paused")? != 0,
                    game_id: r.try_get("game_id")?,
                    last_opponent: r.try_get("last_opponent")?,
                })
            })
            .collect()
    }

    /// The games of arena `id`, in pairing order (each player's in the order played).
    pub async fn arena_games(&self, id: &str) -> Result<Vec<ArenaGameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, south, north, started, result, termination, berserk_s, berserk_n
             FROM arena_games WHERE arena_id = $1 ORDER BY seq, game_id",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(game_of).collect()
    }

    /// The arena game `game_id` and its arena, if it is one.
    pub async fn arena_game(
        &self,
        game_id: &str,
    ) -> Result<Option<(String, ArenaGameRow)>, StoreError> {
        let r = sqlx::query(
            "SELECT arena_id, game_id, south, north, started, result, termination, berserk_s,
               berserk_n
             FROM arena_games WHERE game_id = $1",
        )
        .bind(game_id)
        .fetch_optional(&self.read)
        .await?;
        match r {
            Some(r) => Ok(Some((r.try_get("arena_id")?, game_of(&r)?))),
            None => Ok(None),
        }
    }

    /// Joins `p` to arena `id` while it is not finished, or takes a paused player back:
    /// `false` when the arena is finished or does not exist.
    pub async fn join_arena(&self, id: &str, p: &ArenaPlayerRow) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let open = sqlx::query(
            "UPDATE arenas SET updated = $2 WHERE id = $1 AND status <> 'finished' RETURNING id",
        )
        .bind(id)
        .bind(p.joined)
        .fetch_optional(&mut *tx)
        .await?;
        if open.is_none() {
            tx.rollback().await?;
            return Ok(false);
        }
        let back = sqlx::query(
            "UPDATE arena_players SET paused = 0 WHERE arena_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(&p.account_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if back == 0 {
            sqlx::query(
                "INSERT INTO arena_players
                   (arena_id, account_id, username, rating, joined, paused, game_id,
                    last_opponent)
                 VALUES ($1, $2, $3, $4, $5, 0, NULL, NULL)",
            )
            .bind(id)
            .bind(&p.account_id)
            .bind(&p.username)
            .bind(p.rating)
            .bind(p.joined)
            .execute(&mut *tx)
            .await
            .map_err(|e| conflict_or(e, "joined already"))?;
        }
        self.commit_events(tx, news(id)).await?;
        Ok(true)
    }

    /// Pauses `account` in arena `id` (a game in progress goes on); `false` when not a
    /// player of it.
    pub async fn pause_arena(&self, id: &str, account: &str, now: i64) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        // The arena's row before its players', as a pairing takes them.
        sqlx::query("UPDATE arenas SET updated = $2 WHERE id = $1")
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        let n = sqlx::query(
            "UPDATE arena_players SET paused = 1 WHERE arena_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(account)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.commit_events(tx, news(id)).await?;
        Ok(true)
    }

    /// Moves arena `id` from `from` to `to`; `false` when it was not in `from`. Exactly once
    /// across instances.
    pub async fn set_arena_status(
        &self,
        id: &str,
        from: &str,
        to: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.move_status("arenas", (id, from, to), now, news(id))
            .await
    }

    /// Pairs `g` in running arena `id`: claims both players (free and not paused) and writes
    /// the game's row, in one transaction, or writes nothing ([`Claim::Taken`]).
    pub async fn pair_arena(&self, id: &str, g: &ArenaGameRow) -> Result<Claim, StoreError> {
        let claims = self.pair_arena_wave(id, std::slice::from_ref(g)).await?;
        Ok(claims.first().copied().unwrap_or(Claim::Taken))
    }

    /// Pairs a whole wave `gs` in running arena `id` in one transaction (one disk sync and
    /// one event however many pairs, docs/api.md "Arenas", "Measured"): each pair claims
    /// both players and writes its game's row in a savepoint of its own, rolled back alone
    /// when one of them was taken. The arena's row is locked first (its `updated`), so two
    /// instances pairing one arena take their turns instead of waiting on each other.
    /// Answers each pair's [`Claim`], in order; all [`Claim::Taken`] when it is not running.
    pub async fn pair_arena_wave(
        &self,
        id: &str,
        gs: &[ArenaGameRow],
    ) -> Result<Vec<Claim>, StoreError> {
        let Some(first) = gs.first() else {
            return Ok(Vec::new());
        };
        let mut tx = self.write.begin().await?;
        let running = sqlx::query(
            "UPDATE arenas SET updated = $2 WHERE id = $1 AND status = 'running' RETURNING id",
        )
        .bind(id)
        .bind(first.started)
        .fetch_optional(&mut *tx)
        .await?;
        if running.is_none() {
            tx.rollback().await?;
            return Ok(vec![Claim::Taken; gs.len()]);
        }
        let seq: i64 =
            sqlx::query("SELECT COALESCE(MAX(seq), 0) AS seq FROM arena_games WHERE arena_id = $1")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?
                .try_get("seq")?;
        let mut claims = Vec::with_capacity(gs.len());
        let mut next = seq + 1;
        for g in gs {
            let mut sp = sqlx::Acquire::begin(&mut tx).await?;
            let claim = claim_pair(&mut sp, id, g, next).await?;
            if claim == Claim::Paired {
                sp.commit().await?;
                next += 1;
            } else {
                sp.rollback().await?;
            }
            claims.push(claim);
        }
        if next == seq + 1 {
            tx.rollback().await?;
        } else {
            self.commit_events(tx, news(id)).await?;
        }
        Ok(claims)
    }

    /// Records the result of arena game `game_id` and frees its players to be paired again;
    /// `false` when it has one already (exactly once).
    pub async fn record_arena_result(
        &self,
        game_id: &str,
        result: &str,
        termination: Option<&str>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let r = sqlx::query(
            "UPDATE arena_games SET result = $2, termination = $3, ended = $4
             WHERE game_id = $1 AND result IS NULL RETURNING arena_id",
        )
        .bind(game_id)
        .bind(result)
        .bind(termination.map(str::to_string))
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(r) = r else {
            tx.rollback().await?;
            return Ok(false);
        };
        let id: String = r.try_get("arena_id")?;
        // The arena's row before its players', as a pairing takes them.
        sqlx::query("UPDATE arenas SET updated = $2 WHERE id = $1")
            .bind(&id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE arena_players SET game_id = NULL WHERE arena_id = $1 AND game_id = $2")
            .bind(&id)
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        self.commit_events(tx, news(&id)).await?;
        Ok(true)
    }

    /// Marks the South (`side` 0) or North (1) player of arena game `game_id` berserk; `false`
    /// when marked already.
    pub async fn arena_berserk(
        &self,
        arena: &str,
        game_id: &str,
        side: usize,
    ) -> Result<bool, StoreError> {
        let col = if side == 0 { "berserk_s" } else { "berserk_n" };
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(&format!(
            "UPDATE arena_games SET {col} = 1 WHERE game_id = $1 AND {col} = 0 AND result IS NULL"
        ))
        .bind(game_id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.commit_events(tx, news(arena)).await?;
        Ok(true)
    }

    /// Arena games without a result whose server game is over.
    pub async fn arena_games_ended(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT ag.game_id FROM arena_games ag JOIN games g ON g.id = ag.game_id
             WHERE ag.arena_id = $1 AND ag.result IS NULL AND g.status <> 'live'",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Arena games paired whose server game does not exist (an instance stopped between
    /// pairing and making them).
    pub async fn arena_games_missing(&self, id: &str) -> Result<Vec<ArenaGameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT ag.game_id, ag.south, ag.north, ag.started, ag.result, ag.termination,
               ag.berserk_s, ag.berserk_n
             FROM arena_games ag LEFT JOIN games g ON g.id = ag.game_id
             WHERE ag.arena_id = $1 AND ag.result IS NULL AND g.id IS NULL",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(game_of).collect()
    }

    /// The next deadline of arenas (all, or only `id`): an upcoming one's reminder
    /// (`remind_ms` before its start, until sent), then its start; a running one's end.
    pub async fn arena_deadlines(
        &self,
        id: Option<&str>,
        remind_ms: i64,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, status, starts_at, ends_at, reminded FROM arenas
             WHERE status <> 'finished' AND ($1 = '' OR id = $1)",
        )
        .bind(id.unwrap_or(""))
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                let status: String = r.try_get("status")?;
                let at: i64 = if status == "upcoming" {
                    let start: i64 = r.try_get("starts_at")?;
                    if r.try_get::<i64, _>("reminded")? == 0 {
                        start - remind_ms
                    } else {
                        start
                    }
                } else {
                    r.try_get("ends_at")?
                };
                Ok((r.try_get("id")?, at))
            })
            .collect()
    }

    /// The coming and running arenas that are listed (not private), by start time; at most
    /// `limit` (docs/api.md, "Calendar").
    pub async fn arena_calendar(&self, limit: i64) -> Result<Vec<ArenaRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM arenas
             WHERE status IN ('upcoming', 'running') AND private = 0
             ORDER BY starts_at, id LIMIT $1"
        ))
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(arena_of).collect()
    }

    /// Marks upcoming arena `id` reminded and answers the players to tell (not paused);
    /// `None` when it was reminded already or has started: exactly once across instances.
    pub async fn remind_arena(&self, id: &str) -> Result<Option<Vec<String>>, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE arenas SET reminded = 1
             WHERE id = $1 AND reminded = 0 AND status = 'upcoming'",
        )
        .bind(id)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(None);
        }
        let rows = sqlx::query(
            "SELECT account_id FROM arena_players WHERE arena_id = $1 AND paused = 0
             ORDER BY joined, account_id",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        let to = rows
            .iter()
            .map(|r| r.try_get("account_id"))
            .collect::<Result<Vec<String>, sqlx::Error>>()?;
        tx.commit().await?;
        Ok(Some(to))
    }

    /// The series whose newest arena has started by `now` (the next is due):
    /// (series id, newest arena's start).
    pub async fn arena_series_due(&self, now: i64) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, last_start FROM arena_series WHERE stopped = 0 AND last_start <= $1",
        )
        .bind(now)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("last_start")?)))
            .collect()
    }

    /// The newest arena of series `series`.
    pub async fn arena_series_newest(&self, series: &str) -> Result<Option<ArenaRow>, StoreError> {
        let r = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM arenas WHERE series_id = $1 ORDER BY starts_at DESC, id LIMIT 1"
        ))
        .bind(series)
        .fetch_optional(&self.read)
        .await?;
        r.as_ref().map(arena_of).transpose()
    }

    /// Makes `next`, the arena after the one of series `a.series` that started at
    /// `last_start`: `false`, and nothing written, when another instance made it first (the
    /// series' `last_start` moved on) or the series was stopped.
    pub async fn next_in_series(
        &self,
        last_start: i64,
        next: &ArenaRow,
    ) -> Result<bool, StoreError> {
        let Some(series) = &next.series else {
            return Ok(false);
        };
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE arena_series SET last_start = $3
             WHERE id = $1 AND last_start = $2 AND stopped = 0",
        )
        .bind(series)
        .bind(last_start)
        .bind(next.starts_at)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        insert_arena(&mut tx, next).await?;
        self.commit_events(tx, news(&next.id)).await?;
        Ok(true)
    }

    /// Every series: (id, repeats, newest arena's start, stopped), the newest first.
    pub async fn arena_series_list(&self) -> Result<Vec<(String, String, i64, bool)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, repeats, last_start, stopped FROM arena_series ORDER BY created DESC, id",
        )
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok((
                    r.try_get("id")?,
                    r.try_get("repeats")?,
                    r.try_get("last_start")?,
                    r.try_get::<i64, _>("stopped")? != 0,
                ))
            })
            .collect()
    }

    /// Stops series `id`: no more arenas are made (those made stay, no longer said to
    /// repeat, and their pages hear it); `false` when there is no such series running.
    pub async fn stop_arena_series(&self, id: &str) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query("UPDATE arena_series SET stopped = 1 WHERE id = $1 AND stopped = 0")
            .bind(id)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        if n != 1 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("UPDATE arenas SET repeats = NULL WHERE series_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        // Pages of the arenas still to come or running hear it; finished ones are history.
        let open: Vec<String> = sqlx::query_scalar(
            "SELECT id FROM arenas WHERE series_id = $1 AND status <> 'finished'",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?;
        self.commit_events(tx, open.iter().flat_map(|a| news(a)).collect())
            .await?;
        Ok(true)
    }
}
