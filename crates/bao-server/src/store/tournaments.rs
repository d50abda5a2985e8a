//! Tournaments (docs/api.md, "Tournaments"; migration 0009): the tournament, its players,
//! its rounds and their games. Every step that must happen once across instances is one
//! statement or transaction whose condition or primary key lets only the first through:
//! a join (`players < max_players` on the tournament's row), a start or a finish (a
//! conditional UPDATE of `status`), a round (the primary key of its `tournament_rounds` row,
//! inserted with its games), a result (`result IS NULL`).

use super::{conflict_or, ListKey, Store, StoreError};
use crate::domain::events::Event;
use sqlx::any::AnyRow;
use sqlx::Row;

/// A tournament as stored.
#[derive(Clone, Debug, PartialEq)]
pub struct TournamentRow {
    /// Id (random, `[a-z0-9]`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Variant id.
    pub variant: String,
    /// Rules string (`-` for the variant's usual rules).
    pub rules: String,
    /// The format, as the API's JSON.
    pub format: String,
    /// The clock, as the API's JSON.
    pub clock: String,
    /// Rated games.
    pub rated: bool,
    /// `open`, `running`, `paused`, `finished` or `cancelled`.
    pub status: String,
    /// The organiser's account id.
    pub organiser_id: String,
    /// The organiser's name.
    pub organiser_name: String,
    /// When it starts by itself (ms), or `None`: when the organiser starts it.
    pub starts_at: Option<i64>,
    /// Most players.
    pub max_players: i64,
    /// Players registered (withdrawn ones included once it runs).
    pub players: i64,
    /// The code a private tournament's players join with; `None`: public.
    pub code: Option<String>,
    /// Points of a bye: `1`, `0.5` or `0`.
    pub bye_points: String,
    /// Live rounds: a player who has not moved this long after the round starts forfeits.
    pub forfeit_after_ms: Option<i64>,
    /// Created (ms).
    pub created: i64,
    /// Last change (ms).
    pub updated: i64,
    /// The club whose members alone may join (migration 0015), if any.
    pub club: Option<String>,
    /// A team tournament's boards a match (migration 0022); `None`: a tournament of players.
    pub team_boards: Option<i64>,
}

/// A registered player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerRow {
    /// Account id.
    pub account_id: String,
    /// Account name.
    pub username: String,
    /// Rating in the variant when they joined (rounded).
    pub rating: Option<i64>,
    /// That rating was provisional.
    pub provisional: bool,
    /// When they joined (ms): the registration order.
    pub joined: i64,
    /// Withdrawn or removed after the start: not paired again.
    pub withdrawn: bool,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RoundRow {
    /// 1 for the first.
    pub round_no: i64,
    /// When it was paired (ms): the forfeit time runs from here.
    pub started: i64,
    /// The account ids without a game this round.
    pub byes: Vec<String>,
}

/// A game of a round (a knockout: a match).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TGameRow {
    /// The round.
    pub round_no: i64,
    /// The board (a knockout: the match number within its round).
    pub board: i64,
    /// The server game, `None` for one decided without a game.
    pub game_id: Option<String>,
    /// South's account id (a knockout: the upper entrant, South in game 1).
    pub south: String,
    /// North's account id.
    pub north: String,
    /// `S`, `N` or `draw` once known.
    pub result: Option<String>,
    /// How it ended (NOT-6.2's words, or `forfeit`; a team knockout's level match decided
    /// by `first_board` or `seed`).
    pub termination: Option<String>,
    /// A team tournament's pairing: its team match (migration 0022).
    pub team_match: Option<String>,
    /// Board points of south and north in halves, once the team match is over.
    pub halves: Option<(i64, i64)>,
}

/// What a join did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JoinOutcome {
    /// Registered.
    Joined,
    /// The account was registered already.
    Already,
    /// Not open, or full (the caller reads the row to say which).
    Refused,
}

fn tournament_of(r: &AnyRow) -> Result<TournamentRow, StoreError> {
    Ok(TournamentRow {
        id: r.try_get("id")?,
        name: r.try_get("name")?,
        variant: r.try_get("variant")?,
        rules: r.try_get("rules")?,
        format: r.try_get("format")?,
        clock: r.try_get("clock")?,
        rated: r.try_get::<i64, _>("rated")? != 0,
        status: r.try_get("status")?,
        organiser_id: r.try_get("organiser_id")?,
        organiser_name: r.try_get("organiser_name")?,
        starts_at: r.try_get("starts_at")?,
        max_players: r.try_get("max_players")?,
        players: r.try_get("players")?,
        code: r.try_get("code")?,
        bye_points: r.try_get("bye_points")?,
        forfeit_after_ms: r.try_get("forfeit_after_ms")?,
        created: r.try_get("created")?,
        updated: r.try_get("updated")?,
        club: r.try_get("club_id")?,
        team_boards: r.try_get("team_boards")?,
    })
}

const COLUMNS: &str = "id, name, variant, rules, format, clock, rated, status, organiser_id,
    organiser_name, starts_at, max_players, players, code, bye_points, forfeit_after_ms,
    created, updated, club_id, team_boards";

fn game_of(r: &AnyRow) -> Result<TGameRow, StoreError> {
    Ok(TGameRow {
        round_no: r.try_get("round_no")?,
        board: r.try_get("board")?,
        game_id: r.try_get("game_id")?,
        south: r.try_get("south")?,
        north: r.try_get("north")?,
        result: r.try_get("result")?,
        termination: r.try_get("termination")?,
        team_match: r.try_get("team_match")?,
        halves: r
            .try_get::<Option<i64>, _>("south_halves")?
            .zip(r.try_get::<Option<i64>, _>("north_halves")?),
    })
}

const GAME_COLUMNS: &str =
    "round_no, board, game_id, south, north, result, termination, team_match, south_halves,
     north_halves";

/// The news of a change to tournament `id`, committed with the change (docs/architecture.md,
/// "The event bus"): its pages and every instance's timers of its start and forfeit times hear
/// of it, and a crash cannot keep the change and lose the news.
fn news(id: &str) -> Vec<Event> {
    vec![Event::Tournament { id: id.to_string() }]
}

impl Store {
    /// Stores a new tournament (its organiser not yet a player).
    pub async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        let mut tx = self.write.begin().await?;
        sqlx::query(&format!(
            "INSERT INTO tournaments ({COLUMNS}) VALUES
             ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19,
              $20)"
        ))
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.variant)
        .bind(&t.rules)
        .bind(&t.format)
        .bind(&t.clock)
        .bind(t.rated as i64)
        .bind(&t.status)
        .bind(&t.organiser_id)
        .bind(&t.organiser_name)
        .bind(t.starts_at)
        .bind(t.max_players)
        .bind(t.players)
        .bind(t.code.clone())
        .bind(&t.bye_points)
        .bind(t.forfeit_after_ms)
        .bind(t.created)
        .bind(t.updated)
        .bind(t.club.clone())
        .bind(t.team_boards)
        .execute(&mut *tx)
        .await
        .map_err(|e| conflict_or(e, "the tournament id is taken"))?;
        self.commit_events(tx, news(&t.id)).await
    }

    /// The tournament `id`.
    pub async fn tournament(&self, id: &str) -> Result<Option<TournamentRow>, StoreError> {
        let r = sqlx::query(&format!("SELECT {COLUMNS} FROM tournaments WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.read)
            .await?;
        r.as_ref().map(tournament_of).transpose()
    }

    /// One page of public tournaments in one of `statuses`, the newest first, after `after`
    /// (keyset on `created`, `id`).
    pub async fn list_tournaments(
        &self,
        statuses: &[&str],
        after: Option<&ListKey>,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let s = |i: usize| statuses.get(i).or(statuses.first()).copied().unwrap_or("");
        let (t, id) = match after {
            Some(k) => (k.time, k.id.clone()),
            None => (i64::MAX, String::new()),
        };
        let rows = sqlx::query(&format!(
            "SELECT {COLUMNS} FROM tournaments
             WHERE code IS NULL AND (status = $1 OR status = $2)
               AND (created < $3 OR (created = $3 AND ($4 = '' OR id < $4)))
             ORDER BY created DESC, id DESC LIMIT $5"
        ))
        .bind(s(0))
        .bind(s(1))
        .bind(t)
        .bind(id)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(tournament_of).collect()
    }

    /// The players of tournament `id` in registration order.
    pub async fn tournament_players(&self, id: &str) -> Result<Vec<PlayerRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT account_id, username, rating, provisional, joined, withdrawn
             FROM tournament_players WHERE tournament_id = $1 ORDER BY joined, account_id",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(PlayerRow {
                    account_id: r.try_get("account_id")?,
                    username: r.try_get("username")?,
                    rating: r.try_get("rating")?,
                    provisional: r.try_get::<i64, _>("provisional")? != 0,
                    joined: r.try_get("joined")?,
                    withdrawn: r.try_get::<i64, _>("withdrawn")? != 0,
                })
            })
            .collect()
    }

    /// The pairings the organiser of tournament `id` forbids: account ids, `a` < `b`.
    pub async fn tournament_forbidden(
        &self,
        id: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let rows = sqlx::query(
            "SELECT a, b FROM tournament_forbidden WHERE tournament_id = $1 ORDER BY a, b",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("a")?, r.try_get("b")?)))
            .collect()
    }

    /// Forbids (`forbid`) or allows again the pairing of accounts `a` and `b` in tournament
    /// `id`; doing it twice changes nothing.
    pub async fn set_tournament_forbidden(
        &self,
        id: &str,
        a: &str,
        b: &str,
        forbid: bool,
    ) -> Result<(), StoreError> {
        let (a, b) = if a < b { (a, b) } else { (b, a) };
        let sql = if forbid {
            "INSERT INTO tournament_forbidden (tournament_id, a, b) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING"
        } else {
            "DELETE FROM tournament_forbidden WHERE tournament_id = $1 AND a = $2 AND b = $3"
        };
        let mut tx = self.write.begin().await?;
        sqlx::query(sql)
            .bind(id)
            .bind(a)
            .bind(b)
            .execute(&mut *tx)
            .await?;
        self.commit_events(tx, news(id)).await
    }

    /// The paired rounds of tournament `id`, in order.
    pub async fn tournament_rounds(&self, id: &str) -> Result<Vec<RoundRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT round_no, started, byes FROM tournament_rounds
             WHERE tournament_id = $1 ORDER BY round_no",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                let byes: String = r.try_get("byes")?;
                Ok(RoundRow {
                    round_no: r.try_get("round_no")?,
                    started: r.try_get("started")?,
                    byes: serde_json::from_str(&byes).unwrap_or_default(),
                })
            })
            .collect()
    }

    /// Every game of tournament `id`, by round and board.
    pub async fn tournament_games(&self, id: &str) -> Result<Vec<TGameRow>, StoreError> {
        let rows = sqlx::query(&format!(
            "SELECT {GAME_COLUMNS}
             FROM tournament_games WHERE tournament_id = $1 ORDER BY round_no, board"
        ))
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(game_of).collect()
    }

    /// Registers `p` in tournament `id` while it is open and not full: one transaction whose
    /// first statement takes a place (`players < max_players`), so concurrent joins on any
    /// number of instances never pass the cap.
    pub async fn join_tournament(
        &self,
        id: &str,
        p: &PlayerRow,
    ) -> Result<JoinOutcome, StoreError> {
        let mut tx = self.write.begin().await?;
        let placed = sqlx::query(
            "UPDATE tournaments SET players = players + 1, updated = $2
             WHERE id = $1 AND status = 'open' AND players < max_players RETURNING id",
        )
        .bind(id)
        .bind(p.joined)
        .fetch_optional(&mut *tx)
        .await?;
        if placed.is_none() {
            tx.rollback().await?;
            return Ok(JoinOutcome::Refused);
        }
        let r = sqlx::query(
            "INSERT INTO tournament_players
               (tournament_id, account_id, username, rating, provisional, joined, withdrawn)
             VALUES ($1, $2, $3, $4, $5, $6, 0)",
        )
        .bind(id)
        .bind(&p.account_id)
        .bind(&p.username)
        .bind(p.rating)
        .bind(p.provisional as i64)
        .bind(p.joined)
        .execute(&mut *tx)
        .await;
        match r.map_err(|e| conflict_or(e, "already registered")) {
            Ok(_) => {
                self.commit_events(tx, news(id)).await?;
                Ok(JoinOutcome::Joined)
            }
            Err(StoreError::Conflict(_)) => {
                tx.rollback().await?;
                Ok(JoinOutcome::Already)
            }
            Err(e) => Err(e),
        }
    }

    /// Takes `account` off tournament `id` before its start; `false` when the tournament is
    /// not open or the account not registered.
    pub async fn leave_tournament(
        &self,
        id: &str,
        account: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let open = sqlx::query(
            "UPDATE tournaments SET players = players - 1, updated = $2
             WHERE id = $1 AND status = 'open' RETURNING id",
        )
        .bind(id)
        .bind(now)
        .fetch_optional(&mut *tx)
        .await?;
        if open.is_none() {
            tx.rollback().await?;
            return Ok(false);
        }
        let gone = sqlx::query(
            "DELETE FROM tournament_players WHERE tournament_id = $1 AND account_id = $2",
        )
        .bind(id)
        .bind(account)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if gone == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        self.commit_events(tx, news(id)).await?;
        Ok(true)
    }

    /// Marks `account` withdrawn from tournament `id` (after its start); `false` when not
    /// registered or withdrawn already.
    pub async fn withdraw_from_tournament(
        &self,
        id: &str,
        account: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE tournament_players SET withdrawn = 1
             WHERE tournament_id = $1 AND account_id = $2 AND withdrawn = 0",
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
        sqlx::query("UPDATE tournaments SET updated = $2 WHERE id = $1")
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        self.commit_events(tx, news(id)).await?;
        Ok(true)
    }

    /// Moves tournament `id` from status `from` to `to`; `false` when it was not in `from`
    /// (another request or instance came first). Exactly once across instances.
    pub async fn set_tournament_status(
        &self,
        id: &str,
        from: &str,
        to: &str,
        now: i64,
    ) -> Result<bool, StoreError> {
        self.move_status("tournaments", (id, from, to), now, news(id))
            .await
    }

    /// Open tournaments whose start time has come.
    pub async fn tournaments_due(&self, now: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM tournaments
             WHERE status = 'open' AND starts_at IS NOT NULL AND starts_at <= $1",
        )
        .bind(now)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The deadlines of tournaments (all, or only `id`): an open one's start time, a running
    /// one's current round's start (with its forfeit time, to add). `(id, starts_at)` and
    /// `(id, round_started + forfeit_after_ms)` as one list of `(id, ms)`; a tournament with
    /// neither is absent. The timers of the tournaments' task are set from it.
    pub async fn tournament_deadlines(
        &self,
        id: Option<&str>,
    ) -> Result<Vec<(String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT t.id, t.status, t.starts_at, t.forfeit_after_ms,
                    (SELECT MAX(r.started) FROM tournament_rounds r
                     WHERE r.tournament_id = t.id) AS round_started
             FROM tournaments t
             WHERE ((t.status = 'open' AND t.starts_at IS NOT NULL)
                    OR (t.status = 'running' AND t.forfeit_after_ms IS NOT NULL))
               AND ($1 = '' OR t.id = $1)",
        )
        .bind(id.unwrap_or(""))
        .fetch_all(&self.read)
        .await?;
        let mut out = Vec::new();
        for r in rows {
            let id: String = r.try_get("id")?;
            let status: String = r.try_get("status")?;
            let at = if status == "open" {
                r.try_get::<Option<i64>, _>("starts_at")?
            } else {
                let after: Option<i64> = r.try_get("forfeit_after_ms")?;
                let started: Option<i64> = r.try_get("round_started")?;
                started.zip(after).map(|(s, a)| s + a)
            };
            if let Some(at) = at {
                out.push((id, at));
            }
        }
        Ok(out)
    }

    /// Tournaments being played (running or paused).
    pub async fn tournaments_in_play(&self) -> Result<Vec<String>, StoreError> {
        let rows =
            sqlx::query("SELECT id FROM tournaments WHERE status = 'running' OR status = 'paused'")
                .fetch_all(&self.read)
                .await?;
        rows.iter()
            .map(|r| r.try_get("id"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// The tournament a server game belongs to, if any.
    pub async fn tournament_of_game(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let r = sqlx::query("SELECT tournament_id FROM tournament_games WHERE game_id = $1")
            .bind(game_id)
            .fetch_optional(&self.read)
            .await?;
        Ok(match r {
            Some(r) => Some(r.try_get("tournament_id")?),
            None => None,
        })
    }

    /// Pairs round `round.round_no` of tournament `id` with `games`: the round's row and its
    /// games in one transaction, with a team tournament's `matches` (each pairing's team
    /// match, published with the round: the team matches' timers hear of them). `false` when
    /// the round exists already (another instance paired it): nothing is written.
    pub async fn insert_tournament_round(
        &self,
        id: &str,
        round: &RoundRow,
        games: &[TGameRow],
        matches: &[super::TeamMatchRow],
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let r = sqlx::query(
            "INSERT INTO tournament_rounds (tournament_id, round_no, started, byes)
             VALUES ($1, $2, $3, $4)",
        )
        .bind(id)
        .bind(round.round_no)
        .bind(round.started)
        .bind(serde_json::to_string(&round.byes).unwrap_or_else(|_| "[]".into()))
        .execute(&mut *tx)
        .await;
        match r.map_err(|e| conflict_or(e, "the round is paired")) {
            Ok(_) => {}
            Err(StoreError::Conflict(_)) => {
                tx.rollback().await?;
                return Ok(false);
            }
            Err(e) => return Err(e),
        }
        for g in games {
            let (sh, nh) = g.halves.unzip();
            sqlx::query(
                "INSERT INTO tournament_games
                   (tournament_id, round_no, board, game_id, south, north, result, termination,
                    team_match, south_halves, north_halves)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(id)
            .bind(g.round_no)
            .bind(g.board)
            .bind(g.game_id.clone())
            .bind(&g.south)
            .bind(&g.north)
            .bind(g.result.clone())
            .bind(g.termination.clone())
            .bind(g.team_match.clone())
            .bind(sh)
            .bind(nh)
            .execute(&mut *tx)
            .await?;
        }
        let mut events = news(id);
        for m in matches {
            events.extend(super::teams::insert_team_match(&mut tx, m).await?);
        }
        sqlx::query("UPDATE tournaments SET updated = $2 WHERE id = $1")
            .bind(id)
            .bind(round.started)
            .execute(&mut *tx)
            .await?;
        self.commit_events(tx, events).await?;
        Ok(true)
    }

    /// Games of tournament `id` without a result whose server game is over.
    pub async fn tournament_games_ended(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT tg.game_id FROM tournament_games tg JOIN games g ON g.id = tg.game_id
             WHERE tg.tournament_id = $1 AND tg.result IS NULL AND g.status <> 'live'",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| r.try_get("game_id"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Games of tournament `id` paired under an id whose server game does not exist (an
    /// instance stopped between pairing and making them).
    pub async fn tournament_games_missing(&self, id: &str) -> Result<Vec<TGameRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT tg.round_no, tg.board, tg.game_id, tg.south, tg.north, tg.result,
               tg.termination, tg.team_match, tg.south_halves, tg.north_halves
             FROM tournament_games tg LEFT JOIN games g ON g.id = tg.game_id
             WHERE tg.tournament_id = $1 AND tg.game_id IS NOT NULL AND tg.result IS NULL
               AND g.id IS NULL",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter().map(game_of).collect()
    }

    /// Records the result of the tournament game played as `game_id`; `false` when it has
    /// one already (exactly once).
    pub async fn record_tournament_result(
        &self,
        game_id: &str,
        result: &str,
        termination: Option<&str>,
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let r = sqlx::query(
            "UPDATE tournament_games SET result = $2, termination = $3
             WHERE game_id = $1 AND result IS NULL RETURNING tournament_id",
        )
        .bind(game_id)
        .bind(result)
        .bind(termination.map(str::to_string))
        .fetch_optional(&mut *tx)
        .await?;
        let Some(r) = r else {
            tx.rollback().await?;
            return Ok(false);
        };
        let tid: String = r.try_get("tournament_id")?;
        sqlx::query("UPDATE tournaments SET updated = $2 WHERE id = $1")
            .bind(&tid)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        self.commit_events(tx, news(&tid)).await?;
        Ok(true)
    }

    /// The team matches of team tournament `id` that are over and whose pairing has no
    /// result yet.
    pub async fn tournament_team_matches_over(&self, id: &str) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT tg.team_match FROM tournament_games tg
               JOIN team_matches m ON m.id = tg.team_match
             WHERE tg.tournament_id = $1 AND tg.result IS NULL AND m.status = 'finished'",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| r.try_get("team_match"))
            .collect::<Result<_, sqlx::Error>>()
            .map_err(Into::into)
    }

    /// Records the result of the pairing of tournament `id` played as team match `m`: `S`,
    /// `N` or `draw`, how a level knockout match was decided, and the board points in
    /// halves. `false` when it has one already (exactly once).
    pub async fn record_tournament_team_result(
        &self,
        id: &str,
        m: &str,
        (result, termination): (&str, Option<&str>),
        (south, north): (i64, i64),
        now: i64,
    ) -> Result<bool, StoreError> {
        let mut tx = self.write.begin().await?;
        let n = sqlx::query(
            "UPDATE tournament_games SET result = $3, termination = $4, south_halves = $5,
               north_halves = $6
             WHERE tournament_id = $1 AND team_match = $2 AND result IS NULL",
        )
        .bind(id)
        .bind(m)
        .bind(result)
        .bind(termination.map(str::to_string))
        .bind(south)
        .bind(north)
        .execute(&mut *tx)
        .await?
        .rows_affected();
        if n == 0 {
            tx.rollback().await?;
            return Ok(false);
        }
        sqlx::query("UPDATE tournaments SET updated = $2 WHERE id = $1")
            .bind(id)
            .bind(now)
            .execute(&mut *tx)
            .await?;
        self.commit_events(tx, news(id)).await?;
        Ok(true)
    }
}
