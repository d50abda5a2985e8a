//! Team matches (docs/api.md, "Team matches"; migration 0017): club against club on N
//! boards. Every step that must happen once across instances is one transaction whose
//! condition lets only the first through: an answer (a conditional UPDATE of `status`), a
//! lineup (the match's row updated first, only before the start: its lock orders the
//! lineups of one match; the lineup's primary key keeps a player on one side), the start
//! (accepted -> running, with its boards), a board's result (`result IS NULL`, the match's
//! row updated first: its lock orders the results of one match) and the finish (running ->
//! finished once no board waits, seen by the last result, or by the safety sweep when an
//! instance stopped before it). Each publishes [`Event::TeamMatch`]
//! in its transaction.

use super::{conflict_or, Store, StoreError};
use crate::domain::events::Event;
use sqlx::any::AnyRow;
use sqlx::{Any, Row, Transaction};

/// A team match as stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TeamMatchRow {
    /// Id (random, `[a-z0-9]`).
    pub id: String,
    /// The home club's id.
    pub home: String,
    /// The away club's id.
    pub away: String,
    /// Boards, 2..16.
    pub boards: i64,
    /// Variant id.
    pub variant: String,
    /// Rule options without the match format (`-`: the variant's usual rules).
    pub rules: String,
    /// `single_game` or `best_of_three`.
    pub match_format: String,
    /// The clock's JSON.
    pub clock: String,
    /// Rated games.
    pub rated: bool,
    /// When its games are made (ms).
    pub starts_at: i64,
    /// `proposed`, `accepted`, `running`, `finished` or `declined`.
    pub status: String,
    /// The account that proposed it.
    pub proposer: String,
    /// Created (ms).
    pub created: i64,
    /// The team tournament and round it was paired for (migration 0022), if any.
    pub tournament: Option<(String, i64)>,
}

/// A player named in a lineup.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineupRow {
    /// `home` or `away`.
    pub side: String,
    /// 1 for the first board.
    pub board: i64,
    /// The account id.
    pub account_id: String,
    /// Its name.
    pub username: String,
}

/// A board of a started match.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TeamBoardRow {
    /// 1 for the first.
    pub board: i64,
    /// The home player's account id, if one was named.
    pub home_id: Option<String>,
    /// The away player's account id, if one was named.
    pub away_id: Option<String>,
    /// The game (none for a forfeit).
    pub game_id: Option<String>,
    /// `home`, `away`, `draw`, `none` (neither side named a player) or `None` while played.
    pub result: Option<String>,
    /// The home player's name (read only).
    pub home_name: Option<String>,
    /// The away player's name (read only).
    pub away_name: Option<String>,
}

/// Why a lineup was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineupRefused {
    /// The match started, was declined or is past its start time.
    Closed,
    /// A named player is in the other side's lineup.
    OnOtherSide,
}

fn news(id: &str) -> Vec<Event> {
    vec![Event::TeamMatch { id: id.to_string() }]
}

/// The news of a move of match `id`'s status: the match's, and both clubs' (their pages
/// list their matches by status), read in the move's transaction.
async fn status_news(tx: &mut Transaction<'_, Any>, id: &str) -> Result<Vec<Event>, StoreError> {
    let mut out = news(id);
    if let Some(r) = sqlx::query("SELECT home, away FROM team_matches WHERE id = $1")
        .bind(id)
        .fetch_optional(&mut **tx)
        .await?
    {
        for side in ["home", "away"] {
            out.push(Event::Club {
                id: r.try_get(side)?,
            });
        }
    }
    Ok(out)
}

fn match_row(r: &AnyRow) -> Result<TeamMatchRow, sqlx::Error> {
    Ok(TeamMatchRow {
        id: r.try_get("id")?,
        home: r.try_get("home")?,
        away: r.try_get("away")?,
        boards: r.try_get("boards")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        match_format: r.try_get("match_format")?,
        clock: r.try_get("clock")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        starts_at: r.try_get("starts_at")?,
        status: r.try_get("status")?,
        proposer: r.try_get("proposer")?,
        created: r.try_get("created")?,
        tournament: r
            .try_get::<Option<String>, _>("tournament")?
            .zip(r.try_get::<Option<i64>, _>("round")?),
    })
}

const MATCH_COLUMNS: &str = "id, home, away, boards, variant, rules, match_format, clock, rated,
    starts_at, status, proposer, created, tournament, round";

/// Inserts match `m` in `tx`; the news of it (the match's and both clubs') to commit with it.
pub(super) async fn insert_team_match(
    tx: &mut Transaction<'_, Any>,
    m: &TeamMatchRow,
) -> Result<Vec<Event>, StoreError> {
    let (tournament, round) = match &m.tournament {
        Some((t, r)) => (Some(t.clone()), Some(*r)),
        None => (None, None),
    };
    sqlx::query(
        "INSERT INTO team_matches (id, home, away, boards, variant, rules, match_format,
            clock, rated, starts_at, status, proposer, created, updated, tournament, round)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14, $15)",
    )
    .bind(&m.id)
    .bind(&m.home)
    .bind(&m.away)
    .bind(m.boards)
    .bind(&m.variant)
    .bind(&m.rules)
    .bind(&m.match_format)
    .bind(&m.clock)
    .bind(i64::from(m.rated))
    .bind(m.starts_at)
    .bind(&m.status)
    .bind(&m.proposer)
    .bind(m.created)
    .bind(tournament)
    .bind(round)
    .execute(&mut **tx)
    .await
    .map_err(|e| conflict_or(e, "team match"))?;
    status_news(tx, &m.id).await
}

/// Finishes match `id` if it runs and no board waits for a result.
const FINISH: &str = "UPDATE team_matches SET status = 'finished', updated = $2
    WHERE id = $1 AND status = 'running'
    AND NOT EXISTS (SELECT 1 FROM team_boards WHERE match_id = $1 AND result IS NULL)";

/// The one write that finishes match `id` (its start, its last result, the safety sweep):
/// in `tx`, if it runs and no board waits; the news of the finish to commit with it (the
/// match's and both clubs': a team tournament takes its result from it), or `None` when it
/// did not finish (not running, a board still played, or finished by another already).
async fn finish_in(
    tx: &mut Transaction<'_, Any>,
    id: &str,
    now: i64,
) -> Result<Option<Vec<Event>>, StoreError> {
    let n = sqlx::query(FINISH)
        .bind(id)
        .bind(now)
        .execute(&mut **tx)
        .await?
        .rows_affected();
    if n == 0 {
        return Ok(None);
    }
    Ok(Some(status_news(tx, id).await?))
}

impl Store {
    /// Stores a new team match (`proposed`).
    pub async fn create_team_match(&self, m: &TeamMatchRow) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        let events = insert_team_match(&mut tx, m).await?;
        self.commit_events(tx, events).await
    }

    /// The team matches of club `club` (home or away), at most `limit`: the running first,
    /// then the coming ones (proposed, accepted) by start time, then the rest (finished,
    /// declined) the latest start first.
    pub async fn club_team_matches(
        &self,
        club: &str,
        limit: i64,
    ) -> Result<Vec<TeamMatchRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {MATCH_COLUMNS} FROM team_matches WHERE home = $1 OR away = $1
             ORDER BY CASE status WHEN 'running' THEN 0 WHEN 'proposed' THEN 1
                                  WHEN 'accepted' THEN 1 ELSE 2 END,
                      CASE WHEN status IN ('finished', 'declined') THEN -starts_at
                           ELSE starts_at END,
                      id
             LIMIT $2"
        ))
        .bind(club)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        Ok(rows.iter().map(match_row).collect::<Result<_, _>>()?)
    }

    /// Team match `id`.
    pub async fn team_match(&self, id: &str) -> Result<Option<TeamMatchRow>, StoreError> {
        let r = sqlx::query(&format!(
            "SELECT {MATCH_COLUMNS} FROM team_matches WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.read)
        .await?;
        Ok(r.as_ref().map(match_row).transpose()?)
    }

    /// Moves match `id` from `from` to `to` (an answer); `false` when it was not at `from`.
    pub async fn set_team_match_status(
        &self,
        id: &str,
        from: &str,
        to: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        // The clubs never change: read before the move, told with it.
        let Some(m) = self.team_match(id).await? else {
            return Ok(false);
        };
        let mut events = news(id);
        events.extend([Event::Club { id: m.home }, Event::Club { id: m.away }]);
        self.move_status("team_matches", (id, from, to), now, events)
            .await
    }

    /// Sets `side`'s lineup of match `id` to `players` (account ids in board order), only
    /// while the match is proposed or accepted and before its start time.
    pub async fn set_team_lineup(
        &self,
        id: &str,
        side: &str,
        players: &[String],
        now: i64,
    ) -> Result<Result<(), LineupRefused>, StoreError> {
        let mut tx = self.write.begin().await?;
        // The match's row first: its lock orders this against the start and the other side.
        let n = sqlx::query(
            "UPDATE team_matches SET updated = $2
             WHERE id = $1 AND status IN ('proposed', 'accepted') AND starts_at > $2",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(Err(LineupRefused::Closed));
        }
        sqlx::query("DELETE FROM team_lineups WHERE match_id = $1 AND side = $2")
            .bind(id)
            .bind(side)
            .execute(&mut *tx)
            .await?;
        for (i, a) in players.iter().enumerate() {
            let r = sqlx::query(
                "INSERT INTO team_lineups (match_id, account_id, side, board)
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(id)
            .bind(a)
            .bind(side)
            .bind(i as i64 + 1)
            .execute(&mut *tx)
            .await;
            match r.map_err(|e| conflict_or(e, "lineup")) {
                Ok(_) => {}
                Err(StoreError::Conflict(_)) => {
                    tx.rollback().await?;
                    return Ok(Err(LineupRefused::OnOtherSide));
                }
                Err(e) => return Err(e),
            }
        }
        self.commit_events(tx, news(id)).await?;
        Ok(Ok(()))
    }

    /// Both lineups of match `id`, by side and board.
    pub async fn team_lineups(&self, id: &str) -> Result<Vec<LineupRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT l.side, l.board, l.account_id, a.username FROM team_lineups l
             JOIN accounts a ON a.id = l.account_id
             WHERE l.match_id = $1 ORDER BY l.side, l.board",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(LineupRow {
                    side: r.try_get("side")?,
                    board: r.try_get("board")?,
                    account_id: r.try_get("account_id")?,
                    username: r.try_get("username")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Starts match `id` with `boards`: exactly once (accepted -> running), the boards
    /// written in the same transaction (finished at once when every board is a forfeit).
    /// Returns whether this call started it.
    pub async fn start_team_match(
        &self,
        id: &str,
        boards: &[TeamBoardRow],
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE team_matches SET status = 'running', updated = $2
             WHERE id = $1 AND status = 'accepted'",
        )
        .bind(id)
        .bind(now)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        for b in boards {
            sqlx::query(
                "INSERT INTO team_boards (match_id, board, home_id, away_id, game_id, result)
                 VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(id)
            .bind(b.board)
            .bind(&b.home_id)
            .bind(&b.away_id)
            .bind(&b.game_id)
            .bind(&b.result)
            .execute(&mut *tx)
            .await?;
        }
        let events = match finish_in(&mut tx, id, now).await? {
            Some(events) => events,
            None => status_news(&mut tx, id).await?,
        };
        self.commit_events(tx, events).await?;
        Ok(true)
    }

    /// The boards of match `id` (none before its start), with the players' names.
    pub async fn team_boards(&self, id: &str) -> Result<Vec<TeamBoardRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT b.board, b.home_id, b.away_id, b.game_id, b.result,
                    h.username AS home_name, w.username AS away_name
             FROM team_boards b
             LEFT JOIN accounts h ON h.id = b.home_id
             LEFT JOIN accounts w ON w.id = b.away_id
             WHERE b.match_id = $1 ORDER BY b.board",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(TeamBoardRow {
                    board: r.try_get("board")?,
                    home_id: r.try_get("home_id")?,
                    away_id: r.try_get("away_id")?,
                    game_id: r.try_get("game_id")?,
                    result: r.try_get("result")?,
                    home_name: r.try_get("home_name")?,
                    away_name: r.try_get("away_name")?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The team match game `game` is a board of, if any.
    pub async fn team_match_of_game(&self, game: &str) -> Result<Option<String>, StoreError> {
        let r = sqlx::query("SELECT match_id FROM team_boards WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&self.read)
            .await?;
        Ok(r.map(|r| r.try_get("match_id")).transpose()?)
    }

    /// Records `result` for the board played in `game`, once (and finishes its match when
    /// it was the last); `false` when it was recorded already.
    pub async fn record_team_result(
        &self,
        game: &str,
        result: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let Some(r) = sqlx::query("SELECT match_id FROM team_boards WHERE game_id = $1")
            .bind(game)
            .fetch_optional(&mut *tx)
            .await?
        else {
            tx.rollback().await?;
            return Ok(false);
        };
        let id: String = r.try_get("match_id")?;
        // The match's row first: two boards ending at once on two instances would each
        // see the other's board still waiting (READ COMMITTED) and neither would finish
        // the match; its lock makes the second wait and then see the first's result.
        sqlx::query("UPDATE team_matches SET updated = updated WHERE id = $1")
            .bind(&id)
            .execute(&mut *tx)
            .await?;
        let n =
            sqlx::query("UPDATE team_boards SET result = $2 WHERE game_id = $1 AND result IS NULL")
                .bind(game)
                .bind(result)
                .execute(&mut *tx)
                .await?
                .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        let events = finish_in(&mut tx, &id, now)
            .await?
            .unwrap_or_else(|| news(&id));
        self.commit_events(tx, events).await?;
        Ok(true)
    }

    /// Finishes running match `id` once no board waits for a result (the safety sweep: an
    /// instance stopped between a match's last result and its finish); `false` when it was
    /// not to finish or another call finished it (the conditional UPDATE lets one through).
    pub async fn finish_team_match(&self, id: &str, now: i64) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        match finish_in(&mut tx, id, now).await? {
            Some(events) => {
                self.commit_events(tx, events).await?;
                Ok(true)
            }
            None => {
                tx.rollback().await?;
                Ok(false)
            }
        }
    }

    /// Running matches no board of which waits for a result (the safety sweep finishes them).
    pub async fn team_matches_all_recorded(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT m.id FROM team_matches m WHERE m.status = 'running'
               AND NOT EXISTS (SELECT 1 FROM team_boards b
                               WHERE b.match_id = m.id AND b.result IS NULL)",
        )
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Accepted matches and their start times (the timers).
    pub async fn team_matches_accepted(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, starts_at FROM team_matches WHERE status = 'accepted' ORDER BY starts_at",
        )
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("id")?, r.try_get("starts_at")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The boards of running matches paired under a game id whose game does not exist (the
    /// instance that started the match stopped before making them; the safety sweep):
    /// (match id, board).
    pub async fn team_boards_missing(&self) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT b.match_id, b.board FROM team_boards b
               JOIN team_matches m ON m.id = b.match_id
             WHERE m.status = 'running' AND b.result IS NULL AND b.game_id IS NOT NULL
               AND NOT EXISTS (SELECT 1 FROM games g WHERE g.id = b.game_id)",
        )
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("match_id")?, r.try_get("board")?)))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The games of running matches whose result is not recorded (the safety sweep).
    pub async fn team_games_unrecorded(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT b.game_id FROM team_boards b JOIN team_matches m ON m.id = b.match_id
             WHERE m.status = 'running' AND b.result IS NULL AND b.game_id IS NOT NULL",
        )
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }
}
