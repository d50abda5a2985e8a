//! Storage on SQLite or PostgreSQL through sqlx's `Any` driver, with one portable SQL dialect.
//!
//! Every change to a game is one transaction, committed before the client gets its answer.
//! SQLite runs in WAL mode with `synchronous=FULL` (see [`Durability`]) and one writer
//! connection, so writes queue fairly in the pool instead of spinning on SQLITE_BUSY; reads use
//! their own connections. A change others must hear of carries its events ([`bus`]) into its
//! transaction: on PostgreSQL they are stored and sent with NOTIFY, so that other `bao serve`
//! instances on the database hear of it; once committed they reach this instance's
//! subscribers.

use crate::domain::events::{Delivered, Event};
use crate::domain::model::{
    ClockState, EventKind, GameEvent, Match, MoveEvent, NewMatch, Player, PlayerKind, RematchOffer,
    Round, TimeControl, Transition,
};
use crate::domain::record::forced_of;
use bao_rules::{MatchFormat, Position, RecordResult, Rules, Side, Termination, Variant};
use sqlx::any::{AnyPoolOptions, AnyRow};
use sqlx::{AnyPool, Row};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::{mpsc, oneshot};

mod accounts;
mod arenas;
mod battles;
pub mod bus;
mod clubs;
mod fairplay;
mod presence;
mod push;
mod puzzles;
mod ratings;
mod seats;
mod seeks;
mod site_puzzles;
mod teams;
mod tournaments;
pub use accounts::{AccountId, AccountRow, NewAccount, DELETED_NAME, SESSION_IDLE_MS};
pub use arenas::{ArenaGameRow, ArenaPlayerRow, ArenaRow, Claim};
pub use battles::{BattleRow, ClubChoice};
pub use clubs::{
    AnnouncementRow, Busy, ClubChange, ClubListed, ClubRow, ClubTournament, Dissolved, Joined,
    MemberKey, MemberRow, NewClub, Standing, ROLES,
};
pub use fairplay::{ActionDone, ActionRow, FollowRow, Refund, ReportAdded, ReportRow};
pub use push::{PushBounds, PushTarget};
pub use puzzles::{AttemptRow, AttemptWritten, NewAttempt, PuzzlePlayer};
pub use ratings::{BoardRow, DueRound, GameRow, HistoryPoint, Results, RATING_PAGE};
pub use seats::{SeatPlayer, SeatRow};
pub use seeks::{ChallengeRow, NewChallenge, NewSeek, SeekRow, TicketRow};
pub use site_puzzles::{SitePuzzleRow, CLAIM_LEASE_MS};
pub use teams::{LineupRefused, LineupRow, TeamBoardRow, TeamMatchRow};
pub use tournaments::{JoinOutcome, PlayerRow, RoundRow, TGameRow, TournamentRow};

static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("./migrations");

/// Which database.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Backend {
    /// A SQLite file.
    Sqlite,
    /// PostgreSQL.
    Postgres,
}

/// How SQLite commits (`PRAGMA synchronous`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Durability {
    /// `FULL`: every commit is on disk before it returns (survives power loss). The default.
    Full,
    /// `NORMAL`: in WAL mode a commit survives a crash of the process (kill -9) but the last
    /// commits may be lost if the machine loses power.
    Normal,
}

/// The database.
#[derive(Clone)]
pub struct Store {
    read: AnyPool,
    write: AnyPool,
    jobs: mpsc::Sender<(Job, Reply)>,
    /// Which backend.
    pub backend: Backend,
    /// The URL (for the PostgreSQL listener).
    pub url: String,
    /// This instance's id, the origin of its events.
    instance: Arc<str>,
    /// This instance's end of the event bus.
    bus: Arc<bus::Bus>,
    /// Connections taken from the pools: one per query outside a transaction, one per
    /// transaction ([`Store::queries`]).
    queries: Arc<AtomicU64>,
}

/// Errors of the store.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Another change got there first (same ply stored twice, seat taken).
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database failed.
    #[error("database: {0}")]
    Db(#[from] sqlx::Error),
    /// The group commit holding this change failed.
    #[error("database: {0}")]
    Batch(String),
    /// Stored data the rules refuse.
    #[error("corrupt game {0}: {1}")]
    Corrupt(String, String),
}

fn conflict_or(e: sqlx::Error, what: &str) -> StoreError {
    if let sqlx::Error::Database(d) = &e {
        if d.is_unique_violation() {
            return StoreError::Conflict(what.to_string());
        }
    }
    StoreError::Db(e)
}

/// A row of the game list.
#[derive(Clone, Debug, serde::Serialize)]
pub struct Listed {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// `{"S": {kind,name,level}, "N": {...}}` for the current game.
    pub players: serde_json::Value,
    /// Ply of the current position.
    pub ply: i64,
    /// Current game's result token.
    pub result: String,
    /// `live` or `finished`.
    pub status: String,
    /// Game number in the match.
    pub game_no: i64,
    /// Last change, ms since the epoch.
    pub updated: i64,
    /// A rated match (docs/api.md, "Ratings").
    pub rated: bool,
}

/// Which list.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum ListStatus {
    /// Matches being played, with a recent move.
    Live,
    /// Finished matches and uploaded records.
    Finished,
}

/// Where a page of the game list ends: the sort time and id of its last row. Clients see it
/// as an opaque cursor ([`ListKey::cursor`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListKey {
    /// `moved` (live) or `updated` (finished), ms.
    pub time: i64,
    /// Game id.
    pub id: String,
}

impl ListKey {
    /// The cursor text: hex of `time.id` (ids are `[a-z0-9]`).
    pub fn cursor(&self) -> String {
        hex::encode(format!("{}.{}", self.time, self.id))
    }

    /// Reads a cursor made by [`ListKey::cursor`]; `None` for anything else.
    pub fn parse(cursor: &str) -> Option<ListKey> {
        if cursor.len() > 200 {
            return None;
        }
        let text = String::from_utf8(hex::decode(cursor).ok()?).ok()?;
        let (t, id) = text.split_once('.')?;
        let ok_id = !id.is_empty()
            && id.len() <= 64
            && id
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
        let time = t.parse().ok()?;
        ok_id.then(|| ListKey {
            time,
            id: id.to_string(),
        })
    }
}

/// The clock columns of `games` (migration 0003), all `None` without a clock.
#[derive(Clone, Debug, Default)]
struct ClockCols {
    initial: Option<i64>,
    increment: Option<i64>,
    days: Option<i64>,
    left0: Option<i64>,
    left1: Option<i64>,
    since: Option<i64>,
    deadline: Option<i64>,
}

/// The clock columns of a match as it stands.
fn clock_cols(m: &Match) -> ClockCols {
    let Some(c) = m.clock else {
        return ClockCols::default();
    };
    let (initial, increment, days) = match c.control {
        TimeControl::Real {
            initial_ms,
            increment_ms,
        } => (Some(initial_ms), Some(increment_ms), None),
        TimeControl::Days { days_per_move } => (None, None, Some(days_per_move)),
    };
    ClockCols {
        initial,
        increment,
        days,
        left0: Some(c.left[0]),
        left1: Some(c.left[1]),
        since: c.since,
        deadline: m.clock_deadline(),
    }
}

/// The summary columns of `games` that change with every move.
struct Snapshot {
    game_no: i64,
    wins0: i64,
    wins1: i64,
    status: &'static str,
    ply: i64,
    position: String,
    result: String,
    updated: i64,
    clock: ClockCols,
}

fn snapshot(m: &Match) -> Snapshot {
    let live = !m.read_only && !m.finished;
    Snapshot {
        game_no: m.game_no as i64,
        wins0: m.wins[0] as i64,
        wins1: m.wins[1] as i64,
        status: if live { "live" } else { "finished" },
        ply: m.game.position().ply() as i64,
        position: m.game.position().to_string(),
        result: m.result().0.token().to_string(),
        updated: m.updated,
        clock: clock_cols(m),
    }
}

impl Store {
    /// Connects, creating a SQLite file if needed, and runs the migrations.
    pub async fn open(url: &str, durability: Durability) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let backend = if url.starts_with("sqlite:") {
            Backend::Sqlite
        } else if url.starts_with("postgres:") || url.starts_with("postgresql:") {
            Backend::Postgres
        } else {
            return Err(StoreError::Db(sqlx::Error::Configuration(
                format!("unsupported database URL '{url}': use sqlite://FILE or postgres://...")
                    .into(),
            )));
        };
        let queries = Arc::new(AtomicU64::new(0));
        let (read, write) = match backend {
            Backend::Sqlite => {
                let mut u = url.to_string();
                if !u.contains("mode=") {
                    u.push_str(if u.contains('?') {
                        "&mode=rwc"
                    } else {
                        "?mode=rwc"
                    });
                }
                let pragmas: &'static str = match durability {
                    Durability::Full => "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA busy_timeout=10000;",
                    Durability::Normal => "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA busy_timeout=10000;",
                };
                let opts = |n: u32| {
                    let (a, b) = (queries.clone(), queries.clone());
                    AnyPoolOptions::new()
                        .max_connections(n)
                        .min_connections(1)
                        .acquire_timeout(Duration::from_secs(30))
                        .after_connect(move |conn, _| {
                            a.fetch_add(1, Ordering::Relaxed);
                            Box::pin(async move {
                                use sqlx::Executor;
                                conn.execute(pragmas).await?;
                                Ok(())
                            })
                        })
                        .before_acquire(move |_, _| {
                            b.fetch_add(1, Ordering::Relaxed);
                            Box::pin(async { Ok(true) })
                        })
                };
                let write = opts(1).connect(&u).await?;
                MIGRATOR.run(&write).await.map_err(sqlx::Error::from)?;
                let read = opts(4).connect(&u).await?;
                (read, write)
            }
            Backend::Postgres => {
                let (a, b) = (queries.clone(), queries.clone());
                let pool = AnyPoolOptions::new()
                    .max_connections(16)
                    .acquire_timeout(Duration::from_secs(30))
                    .after_connect(move |_, _| {
                        a.fetch_add(1, Ordering::Relaxed);
                        Box::pin(async { Ok(()) })
                    })
                    .before_acquire(move |_, _| {
                        b.fetch_add(1, Ordering::Relaxed);
                        Box::pin(async { Ok(true) })
                    })
                    .connect(url)
                    .await?;
                MIGRATOR.run(&pool).await.map_err(sqlx::Error::from)?;
                (pool.clone(), pool)
            }
        };
        let channel = match backend {
            Backend::Sqlite => String::new(),
            Backend::Postgres => {
                let schema: String = sqlx::query("SELECT current_schema()::text AS s")
                    .fetch_one(&write)
                    .await?
                    .try_get("s")?;
                bus::channel_for(&schema)
            }
        };
        let (jobs, rx) = mpsc::channel(4096);
        let bus = Arc::new(bus::Bus::new(channel));
        tokio::spawn(writer(write.clone(), backend, rx, bus.clone()));
        Ok(Store {
            read,
            write,
            jobs,
            backend,
            url: url.to_string(),
            instance: crate::util::random_code(12).into(),
            bus,
            queries,
        })
    }

    /// Connections taken from the pools so far: every query outside a transaction and
    /// every transaction counts one (a test counts what idle sockets cost).
    pub fn queries(&self) -> u64 {
        self.queries.load(Ordering::Relaxed)
    }

    /// Whether the database answers a query (`GET /api/health`).
    pub async fn ping(&self) -> Result<(), StoreError> {
        sqlx::query("SELECT 1").execute(&self.read).await?;
        Ok(())
    }

    /// Closes the pools.
    pub async fn close(&self) {
        self.write.close().await;
        self.read.close().await;
    }

    /// Inserts a new match with its first round (and, for uploaded records, every move),
    /// with `news`, the events of the making (a seek accepted, a pairing...), published in
    /// its transaction, then [`Event::GameMade`] for its accounts.
    pub async fn create(
        &self,
        m: &Match,
        rounds: &[(Round, Vec<MoveEvent>)],
        news: Vec<Event>,
    ) -> Result<(), StoreError> {
        self.submit(Job::Create {
            m: Box::new(m.clone()),
            rounds: rounds.to_vec(),
            news,
            origin: self.instance.to_string(),
        })
        .await
        .map(|_| ())
    }

    /// Commits one change to a live game in one transaction: `write` says what changes and
    /// on which condition, `after` is the match as the change leaves it. Answers the match's
    /// new version, or a conflict when the condition no longer holds (another instance, a
    /// clock or the abandonment sweep came first) and nothing was written. The transaction
    /// publishes [`Event::Game`] (and, by the write, [`Event::Rating`] or
    /// [`Event::GameMade`]), then `news`, as from `instance`.
    pub async fn commit(
        &self,
        write: Write,
        after: &Match,
        instance: &str,
    ) -> Result<i64, StoreError> {
        self.commit_with(write, after, instance, Vec::new()).await
    }

    /// [`Store::commit`] with `news`: events a feature publishes with the change.
    pub async fn commit_with(
        &self,
        write: Write,
        after: &Match,
        instance: &str,
        mut news: Vec<Event>,
    ) -> Result<i64, StoreError> {
        // A rematch offered: news for the other player's sockets (docs/api.md, "Play:
        // rematch"), which may be on another instance.
        if let Write::RematchOffer { offer: Some(o), .. } = &write {
            let other = 1 - o.by.min(1);
            if let (false, Some(to)) = (o.declined, &after.accounts[other]) {
                news.push(Event::Rematch {
                    game: after.id.clone(),
                    to: to.id.clone(),
                    from: after.players[o.by.min(1)].name.clone(),
                    until: o.until,
                });
            }
        }
        let seat = matches!(write, Write::Join { .. }).then(|| SeatCols {
            token_hash: after.players[1].token_hash.clone(),
            account: after.accounts[1].as_ref().map(|a| a.id.clone()),
            name: after.players[1].name.clone(),
            south: after.current.south.clone(),
            north: after.current.north.clone(),
            clock: clock_cols(after),
        });
        self.submit(Job::Change(Box::new(ChangeJob {
            id: after.id.clone(),
            write,
            snap: snapshot(after),
            seat,
            instance: instance.to_string(),
            news,
        })))
        .await
    }

    /// Ids of the live matches unchanged since `before` (ms since the epoch), oldest first,
    /// at most `limit`.
    pub async fn stale_ids(&self, before: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'live' AND updated < $1
             ORDER BY updated LIMIT $2",
        )
        .bind(before)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("id")?))
            .collect()
    }

    /// Hands a change to the writer and waits until it is committed (or refused).
    async fn submit(&self, job: Job) -> Result<i64, StoreError> {
        let (tx, rx) = oneshot::channel();
        self.jobs
            .send((job, tx))
            .await
            .map_err(|_| StoreError::Batch("the database writer has stopped".into()))?;
        rx.await
            .map_err(|_| StoreError::Batch("the database writer has stopped".into()))?
    }

    /// Loads a match with its current game; `None` for an unknown id.
    pub async fn load(&self, id: &str) -> Result<Option<Match>, StoreError> {
        // A load is several statements (the game, its players' ratings, its rounds, its
        // moves): a change committed between them would give rows of two versions, such as
        // a game's end rated with the ratings of before. Every change bumps the game's
        // version, so a load whose version is still the stored one after its reads is whole.
        let mut m = self.load_once(id).await?;
        for _ in 0..3 {
            let Some(cur) = &m else { break };
            let now: Option<i64> = sqlx::query_scalar("SELECT version FROM games WHERE id = $1")
                .bind(id)
                .fetch_optional(&self.read)
                .await?;
            if now == Some(cur.version) {
                break;
            }
            m = self.load_once(id).await?;
        }
        Ok(m)
    }

    /// One read of game `id` (see [`Store::load`]).
    async fn load_once(&self, id: &str) -> Result<Option<Match>, StoreError> {
        let Some(row) = sqlx::query("SELECT * FROM games WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.read)
            .await?
        else {
            return Ok(None);
        };
        let corrupt = |why: String| StoreError::Corrupt(id.to_string(), why);
        let variant_s: String = row.try_get("variant")?;
        let variant = Variant::from_id(&variant_s).ok_or_else(|| corrupt("variant".into()))?;
        let rules_s: String = row.try_get("rules")?;
        let rules = Rules::parse(variant, &rules_s).map_err(|e| corrupt(e.to_string()))?;
        let start_s: String = row.try_get("start")?;
        let start = Position::parse(&start_s, &rules).map_err(|e| corrupt(e.to_string()))?;
        let format = MatchFormat::parse(&row.try_get::<String, _>("format")?)
            .ok_or_else(|| corrupt("format".into()))?;
        let first_side = Side::from_letter(&row.try_get::<String, _>("first_side")?)
            .ok_or_else(|| corrupt("first_side".into()))?;
        let player = |p: &str| -> Result<Player, StoreError> {
            let kind: String = row.try_get(format!("{p}_kind").as_str())?;
            Ok(Player {
                kind: PlayerKind::parse(&kind).ok_or_else(|| corrupt("player kind".into()))?,
                name: row.try_get(format!("{p}_name").as_str())?,
                level: row
                    .try_get::<Option<i64>, _>(format!("{p}_level").as_str())?
                    .map(|l| l.clamp(1, 255) as u8),
                token_hash: row.try_get(format!("{p}_token").as_str())?,
            })
        };
        let players = [player("p0")?, player("p1")?];
        let rated = row.try_get::<i64, _>("rated")? != 0;
        let account_ids = [
            row.try_get::<Option<String>, _>("p0_account")?,
            row.try_get::<Option<String>, _>("p1_account")?,
        ];
        let accounts = self
            .seat_accounts(&account_ids, variant.id(), crate::util::now_ms())
            .await?;
        let game_no = row.try_get::<i64, _>("game_no")?.max(1) as u32;
        let rounds = sqlx::query(
            "SELECT game_no, start, south, north, result, result_text, termination, rating0,
               rating1 FROM rounds WHERE game_id = $1 ORDER BY game_no",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        let mut past = Vec::new();
        let mut current = None;
        for r in rounds {
            let round = round_from_row(&r, &rules).map_err(|e| match e {
                StoreError::Corrupt(_, w) => corrupt(w),
                e => e,
            })?;
            if round.game_no == game_no {
                current = Some(round);
            } else if round.game_no < game_no {
                past.push(round);
            }
        }
        let current = current.ok_or_else(|| corrupt(format!("no round {game_no}")))?;
        let moves = self.round_moves(id, game_no).await?;
        let (game, events) = Match::replay(current.start, rules, &moves).map_err(corrupt)?;
        let created: i64 = row.try_get("created")?;
        let mut m = Match::new(NewMatch {
            id: id.to_string(),
            rules,
            start,
            first_side,
            players,
            invite: row.try_get("invite")?,
            clock: None,
            now: created,
            rated,
            accounts,
        });
        m.format = format;
        m.read_only = row.try_get::<i64, _>("read_only")? != 0;
        m.game_no = game_no;
        m.wins = [
            row.try_get::<i64, _>("wins0")?.max(0) as u32,
            row.try_get::<i64, _>("wins1")?.max(0) as u32,
        ];
        m.finished = row.try_get::<String, _>("status")? == "finished";
        m.past = past;
        m.forced = forced_of(current.result, current.termination);
        m.current = current;
        m.game = game;
        m.moves = events.into();
        m.updated = row.try_get("updated")?;
        m.clock = clock_from_row(&row)?;
        m.rematch = match row.try_get::<Option<String>, _>("rematch")? {
            Some(r) => Some((
                r,
                row.try_get::<Option<i64>, _>("rematch_by")?
                    .unwrap_or(0)
                    .clamp(0, 1) as usize,
            )),
            None => None,
        };
        m.rematch_offer = match row.try_get::<Option<i64>, _>("rematch_offer_by")? {
            Some(by) => Some(RematchOffer {
                by: by.clamp(0, 1) as usize,
                until: row
                    .try_get::<Option<i64>, _>("rematch_offer_until")?
                    .unwrap_or(0),
                watching: row.try_get::<i64, _>("rematch_offer_watching")? != 0,
                declined: row.try_get::<i64, _>("rematch_offer_declined")? != 0,
            }),
            None => None,
        };
        m.version = row.try_get("version")?;
        m.event = event_from_row(&row)?;
        Ok(Some(m))
    }

    /// The rematch offers made to `account` that may still stand at `now` (not declined,
    /// not lapsed by time; whether the asker is still there is the game's to say), newest
    /// first, at most 10: (game id, the asker's name, when it lapses).
    pub async fn rematch_offers_to(
        &self,
        account: &str,
        now: i64,
    ) -> Result<Vec<(String, String, i64)>, StoreError> {
        let rows = sqlx::query(
            "SELECT id, rematch_offer_by, rematch_offer_until, p0_name, p1_name FROM games
             WHERE rematch_offer_until > $1 AND rematch IS NULL AND rematch_offer_declined = 0
               AND ((p0_account = $2 AND rematch_offer_by = 1)
                 OR (p1_account = $2 AND rematch_offer_by = 0))
             ORDER BY rematch_offer_until DESC LIMIT 10",
        )
        .bind(now)
        .bind(account)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| {
                let by: i64 = r.try_get("rematch_offer_by")?;
                let name: String = r.try_get(if by == 0 { "p0_name" } else { "p1_name" })?;
                Ok((r.try_get("id")?, name, r.try_get("rematch_offer_until")?))
            })
            .collect()
    }

    /// Ids of the live matches whose running clock ran out before `now` (ms), at most `limit`.
    pub async fn overdue_ids(&self, now: i64, limit: i64) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query(
            "SELECT id FROM games WHERE status = 'live' AND clock_deadline <= $1
             ORDER BY clock_deadline LIMIT $2",
        )
        .bind(now)
        .bind(limit)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("id")?))
            .collect()
    }

    /// The stored moves of one game: (canonical move, result).
    pub async fn round_moves(
        &self,
        id: &str,
        game_no: u32,
    ) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT mv, result FROM moves WHERE game_id = $1 AND game_no = $2 ORDER BY ply",
        )
        .bind(id)
        .bind(game_no as i64)
        .fetch_all(&self.read)
        .await?;
        rows.iter()
            .map(|r| Ok((r.try_get("mv")?, r.try_get("result")?)))
            .collect()
    }

    /// The number of stored moves of a game (for tests and checks).
    pub async fn count_moves(&self, id: &str) -> Result<i64, StoreError> {
        let row = sqlx::query("SELECT COUNT(*) AS n FROM moves WHERE game_id = $1")
            .bind(id)
            .fetch_one(&self.read)
            .await?;
        Ok(row.try_get::<i64, _>("n")?)
    }

    /// Ids of the matches still being played (reloaded at start-up).
    pub async fn live_ids(&self) -> Result<Vec<String>, StoreError> {
        let rows = sqlx::query("SELECT id FROM games WHERE status = 'live' AND read_only = 0")
            .fetch_all(&self.read)
            .await?;
        rows.iter()
            .map(|r| Ok(r.try_get::<String, _>("id")?))
            .collect()
    }

    /// One page of the game list (docs/api.md): `live` games with a move since `moved_since`
    /// (ms), most recent move first, or `finished` games, most recently finished first. Keyset
    /// pagination: the order is (time, id) descending and a page starts strictly after
    /// `after`, so games added meanwhile (which sort first) never shift later pages: no
    /// duplicates, no gaps. Returns the page and the key of its last row when more follow.
    pub async fn list(
        &self,
        status: ListStatus,
        moved_since: i64,
        after: Option<&ListKey>,
        limit: i64,
    ) -> Result<(Vec<Listed>, Option<ListKey>), StoreError> {
        let (col, filter) = match status {
            ListStatus::Live => ("moved", "status = 'live' AND moved >= $1"),
            // $1 = $1 keeps the numbering of the binds the same for both.
            ListStatus::Finished => ("updated", "status = 'finished' AND $1 = $1"),
        };
        let page = if after.is_some() {
            format!("AND ({col} < $2 OR ({col} = $2 AND id < $3))")
        } else {
            "AND $2 = $2 AND $3 = $3".to_string()
        };
        let sql = format!(
            "SELECT id, variant, first_side, game_no, p0_kind, p0_name, p0_level, p1_kind,
               p1_name, p1_level, ply, result, status, updated, rated, {col} AS k
             FROM games WHERE {filter} {page} ORDER BY {col} DESC, id DESC LIMIT $4"
        );
        let (k, id) = after.map_or((0, ""), |a| (a.time, a.id.as_str()));
        let rows = sqlx::query(&sql)
            .bind(moved_since)
            .bind(k)
            .bind(id.to_string())
            .bind(limit + 1)
            .fetch_all(&self.read)
            .await?;
        let more = rows.len() as i64 > limit;
        let mut out = Vec::with_capacity(rows.len());
        let mut last = None;
        for r in rows.iter().take(limit.max(0) as usize) {
            let first =
                Side::from_letter(&r.try_get::<String, _>("first_side")?).unwrap_or(Side::South);
            let game_no: i64 = r.try_get("game_no")?;
            let s0 = if game_no % 2 == 1 {
                first
            } else {
                first.other()
            };
            let p = |n: &str| -> Result<serde_json::Value, StoreError> {
                Ok(serde_json::json!({
                    "kind": r.try_get::<String, _>(format!("{n}_kind").as_str())?,
                    "name": r.try_get::<String, _>(format!("{n}_name").as_str())?,
                    "level": r.try_get::<Option<i64>, _>(format!("{n}_level").as_str())?,
                }))
            };
            let (south, north) = if s0 == Side::South {
                (p("p0")?, p("p1")?)
            } else {
                (p("p1")?, p("p0")?)
            };
            let id: String = r.try_get("id")?;
            last = Some(ListKey {
                time: r.try_get::<Option<i64>, _>("k")?.unwrap_or(0),
                id: id.clone(),
            });
            out.push(Listed {
                id,
                variant: r.try_get("variant")?,
                players: serde_json::json!({"S": south, "N": north}),
                ply: r.try_get("ply")?,
                result: r.try_get("result")?,
                status: r.try_get("status")?,
                game_no,
                updated: r.try_get("updated")?,
                rated: r.try_get::<i64, _>("rated")? != 0,
            });
        }
        Ok((out, if more { last } else { None }))
    }

    /// The finished games before the current one, with their moves (for records and replays).
    pub async fn rounds_with_moves(
        &self,
        id: &str,
        rules: &Rules,
    ) -> Result<Vec<(Round, Vec<String>)>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_no, start, south, north, result, result_text, termination, rating0,
               rating1 FROM rounds WHERE game_id = $1 ORDER BY game_no",
        )
        .bind(id)
        .fetch_all(&self.read)
        .await?;
        let mut out = Vec::new();
        for r in rows {
            let round = round_from_row(&r, rules)?;
            let moves = self
                .round_moves(id, round.game_no)
                .await?
                .into_iter()
                .map(|m| m.0)
                .collect();
            out.push((round, moves));
        }
        Ok(out)
    }
}

fn clock_from_row(row: &AnyRow) -> Result<Option<ClockState>, StoreError> {
    let get = |c: &str| row.try_get::<Option<i64>, _>(c);
    let control = match (
        get("clock_initial")?,
        get("clock_increment")?,
        get("clock_days")?,
    ) {
        (Some(initial_ms), Some(increment_ms), _) => TimeControl::Real {
            initial_ms,
            increment_ms,
        },
        (_, _, Some(days_per_move)) => TimeControl::Days { days_per_move },
        _ => return Ok(None),
    };
    Ok(Some(ClockState {
        control,
        left: [
            get("clock_left0")?.unwrap_or(0),
            get("clock_left1")?.unwrap_or(0),
        ],
        since: get("clock_since")?,
        berserk: {
            let b = get("clock_berserk")?.unwrap_or(0);
            [b & 1 != 0, b & 2 != 0]
        },
    }))
}

fn round_from_row(r: &AnyRow, rules: &Rules) -> Result<Round, StoreError> {
    let start_s: String = r.try_get("start")?;
    let start = Position::parse(&start_s, rules)
        .map_err(|e| StoreError::Corrupt(String::new(), e.to_string()))?;
    let corrupt = |what: &str| StoreError::Corrupt(String::new(), what.to_string());
    let result: String = r.try_get("result")?;
    let termination: Option<String> = r.try_get("termination")?;
    let change = (
        r.try_get::<Option<i64>, _>("rating0")?,
        r.try_get::<Option<i64>, _>("rating1")?,
    );
    let result = RecordResult::from_token(&result).ok_or_else(|| corrupt("result"))?;
    let result_text: Option<String> = r.try_get("result_text")?;
    let termination = match termination {
        None => None,
        Some(t) => Some(Termination::parse(&t).ok_or_else(|| corrupt("termination"))?),
    };
    Ok(Round {
        game_no: r.try_get::<i64, _>("game_no")?.max(1) as u32,
        start,
        south: r.try_get("south")?,
        north: r.try_get("north")?,
        result,
        ending: crate::domain::ending::Ending::read(result, termination, result_text.as_deref()),
        result_text,
        termination,
        rating_change: match change {
            (Some(a), Some(b)) => Some([a as i32, b as i32]),
            _ => None,
        },
    })
}

async fn insert_round(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    r: &Round,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO rounds (game_id, game_no, start, south, north, result, result_text, termination)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8)",
    )
    .bind(id)
    .bind(r.game_no as i64)
    .bind(r.start.to_string())
    .bind(&r.south)
    .bind(&r.north)
    .bind(r.result.token())
    .bind(r.result_text.clone())
    .bind(r.termination.map(Termination::as_str))
    .execute(&mut **tx)
    .await
    .map_err(|e| conflict_or(e, "this game of the match has already started"))?;
    Ok(())
}

/// Ends a round with its result, and opens the next one if the match goes on.
async fn end_round(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    game_no: u32,
    t: &Transition,
) -> Result<(), StoreError> {
    let r = sqlx::query(
        "UPDATE rounds SET result = $1, result_text = $2, termination = $3
         WHERE game_id = $4 AND game_no = $5 AND result = '-'",
    )
    .bind(t.result.token())
    .bind(&t.result_text)
    .bind(t.termination.map(Termination::as_str))
    .bind(id)
    .bind(game_no as i64)
    .execute(&mut **tx)
    .await?;
    if r.rows_affected() != 1 {
        return Err(StoreError::Conflict("the game has already ended".into()));
    }
    // The next game of a match starts in the same transaction, so none is ever lost.
    if let Some(next) = &t.next {
        insert_round(tx, id, next).await?;
    }
    Ok(())
}

async fn insert_move(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    game_no: u32,
    mv: &MoveEvent,
    now: i64,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO moves (game_id, game_no, ply, mv, position, result, created)
         VALUES ($1,$2,$3,$4,$5,$6,$7)",
    )
    .bind(id)
    .bind(game_no as i64)
    .bind(mv.ply as i64)
    .bind(&mv.mv)
    .bind(&mv.position)
    .bind(&mv.result)
    .bind(now)
    .execute(&mut **tx)
    .await
    .map_err(|e| conflict_or(e, "another move was made in this position first"))?;
    Ok(())
}

/// What one change to a live game writes, with the condition that makes it apply exactly
/// once across instances (docs/architecture.md, "One write path"). The game core builds it
/// as part of its `Change`; [`Store::commit`] writes it.
#[derive(Clone, Debug)]
pub enum Write {
    /// A move of game `game_no`, and the end of that game if the move ended it: refused when
    /// another move of that position is stored (the moves' primary key) or the match ended.
    Move {
        /// The game of the match.
        game_no: u32,
        /// The move.
        mv: MoveEvent,
        /// The end of the game, if the move ended it.
        ended: Option<Transition>,
    },
    /// The end of game `game_no` other than by a move (a resignation).
    End {
        /// The game of the match.
        game_no: u32,
        /// The end.
        t: Transition,
    },
    /// The loss on time at `ply`, seen at `now`: only if the database agrees that the clock
    /// ran out and nothing changed since.
    Flag {
        /// The game of the match.
        game_no: u32,
        /// The ply the clock ran out at.
        ply: u32,
        /// When it was seen (ms).
        now: i64,
        /// The end.
        t: Transition,
    },
    /// A match nobody moved in ended: only if it is still live and unchanged since `seen`
    /// (its `updated` as the sweeper read it).
    Abandon {
        /// The game of the match.
        game_no: u32,
        /// `updated` as read.
        seen: i64,
        /// The end.
        t: Transition,
    },
    /// Player `player` of game `game_no` went berserk (docs/api.md, "Arenas"): their time
    /// halved, no increment. Only while the game is at `ply` (before their first move).
    Berserk {
        /// The game of the match.
        game_no: u32,
        /// The ply the player saw.
        ply: u32,
        /// 0 or 1.
        player: usize,
    },
    /// Player 1's open seat taken: only while it is still open.
    Join {
        /// The game of the match.
        game_no: u32,
    },
    /// The moves of game `game_no` after `to_ply` taken back: only while it is at `from_ply`.
    Takeback {
        /// The game of the match.
        game_no: u32,
        /// The ply the player saw.
        from_ply: u32,
        /// The ply the game goes back to.
        to_ply: u32,
    },
    /// Game `game_no` of the match rated (docs/api.md, "Ratings"): the players' ratings go
    /// from `update.before` to `update.after` and the game records the change. Exactly once
    /// across instances: refused when the game's rating history exists (its primary key),
    /// when a player's rating is no longer the one read (another game of theirs was rated
    /// meanwhile: read again), or when the match is no longer at `version`.
    Rate {
        /// The game of the match.
        game_no: u32,
        /// The match's version the rating was computed on.
        version: i64,
        /// The variant id.
        variant: String,
        /// The accounts of players 0 and 1.
        accounts: [String; 2],
        /// The ratings before and after.
        update: crate::domain::rating::Update,
        /// When (ms since the epoch).
        at: i64,
    },
    /// The rematch offer set (asked for, declined) or withdrawn (`None`): only while the
    /// match is at `version` and has no rematch yet, so that two offers crossing on two
    /// instances make one offer, which the second then accepts.
    RematchOffer {
        /// The match's version the offer was decided on.
        version: i64,
        /// The offer as it now stands.
        offer: Option<RematchOffer>,
    },
    /// `new` created as this match's rematch, asked for by player `by`: one per match.
    Rematch {
        /// Who asked first.
        by: usize,
        /// The new match.
        new: Box<Match>,
    },
}

/// The columns a join writes besides the snapshot.
struct SeatCols {
    token_hash: Option<String>,
    account: Option<String>,
    name: String,
    south: String,
    north: String,
    clock: ClockCols,
}

/// One job of the writer, run inside its own savepoint of a group commit.
enum Job {
    Create {
        m: Box<Match>,
        rounds: Vec<(Round, Vec<MoveEvent>)>,
        news: Vec<Event>,
        origin: String,
    },
    Change(Box<ChangeJob>),
}

/// A change to a live game, as the writer runs it.
struct ChangeJob {
    id: String,
    write: Write,
    snap: Snapshot,
    seat: Option<SeatCols>,
    instance: String,
    news: Vec<Event>,
}

type Reply = oneshot::Sender<Result<i64, StoreError>>;

/// Most changes committed together.
const MAX_BATCH: usize = 512;

/// The single writer: takes every change waiting, runs each in a savepoint of one
/// transaction, commits once and only then answers each. One disk sync (fsync) thus covers
/// every move that arrived meanwhile (group commit), which keeps `synchronous=FULL` fast;
/// a change that fails (a conflict) is rolled back alone.
async fn writer(
    pool: AnyPool,
    backend: Backend,
    mut rx: mpsc::Receiver<(Job, Reply)>,
    bus: Arc<bus::Bus>,
) {
    let mut batch: Vec<(Job, Reply)> = Vec::with_capacity(MAX_BATCH);
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(j) => batch.push(j),
                Err(_) => break,
            }
        }
        let results = run_batch(&pool, backend, &bus.channel, &batch).await;
        match results {
            Ok((results, events)) => {
                // Told once committed, before anyone gets an answer.
                bus.deliver(events);
                for ((_, reply), r) in batch.drain(..).zip(results) {
                    let _ = reply.send(r);
                }
            }
            Err(e) => {
                let msg = e.to_string();
                tracing::error!("group commit failed: {msg}");
                for (_, reply) in batch.drain(..) {
                    let _ = reply.send(Err(StoreError::Batch(msg.clone())));
                }
            }
        }
    }
}

/// The results of one group commit, and the events of the changes it committed.
type BatchResult = (Vec<Result<i64, StoreError>>, Vec<Delivered>);

async fn run_batch(
    pool: &AnyPool,
    backend: Backend,
    channel: &str,
    batch: &[(Job, Reply)],
) -> Result<BatchResult, StoreError> {
    let mut tx = pool.begin().await?;
    let mut results = Vec::with_capacity(batch.len());
    let mut events = Vec::new();
    for (job, _) in batch {
        if batch.len() == 1 {
            // No savepoint needed: the transaction is the job's own.
            let r = run_job(&mut tx, job).await;
            match r {
                Ok((v, e)) => {
                    events.extend(e);
                    results.push(Ok(v));
                }
                Err(e) => {
                    let _ = tx.rollback().await;
                    return Ok((vec![Err(e)], Vec::new()));
                }
            }
            continue;
        }
        let mut sp = sqlx::Acquire::begin(&mut tx).await?;
        match run_job(&mut sp, job).await {
            Ok((v, e)) => {
                sp.commit().await?;
                events.extend(e);
                results.push(Ok(v));
            }
            Err(e) => {
                sp.rollback().await?;
                results.push(Err(e));
            }
        }
    }
    // Last, so that the event counter's row is locked only for the commit.
    let events = bus::stage(&mut tx, backend, channel, events).await?;
    tx.commit().await?;
    Ok((results, events))
}

/// Runs one job: its new version and its events.
async fn run_job(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    job: &Job,
) -> Result<(i64, Vec<Delivered>), StoreError> {
    match job {
        Job::Create {
            m,
            rounds,
            news,
            origin,
        } => {
            insert_match(tx, m, rounds).await?;
            let mut events = news.clone();
            events.extend(game_made(m));
            Ok((m.version, bus::from(origin, events)))
        }
        Job::Change(c) => {
            let ChangeJob {
                id,
                write,
                snap,
                seat,
                instance,
                news,
            } = &**c;
            let version = change(tx, id, write, snap, seat.as_ref()).await?;
            let mut events = vec![Event::Game {
                id: id.clone(),
                version,
            }];
            match write {
                Write::Rate {
                    game_no, accounts, ..
                } => events.push(Event::Rating {
                    game: id.clone(),
                    game_no: *game_no,
                    accounts: accounts.to_vec(),
                }),
                Write::Join { .. } => {
                    if let Some(a) = seat.as_ref().and_then(|s| s.account.clone()) {
                        events.push(Event::GameMade {
                            game: id.clone(),
                            accounts: vec![a],
                        });
                    }
                }
                Write::Rematch { new, .. } => events.extend(game_made(new)),
                _ => {}
            }
            events.extend(news.iter().cloned());
            Ok((version, bus::from(instance, events)))
        }
    }
}

/// [`Event::GameMade`] for the accounts seated in new match `m`, if any.
fn game_made(m: &Match) -> Option<Event> {
    let accounts: Vec<String> = m.accounts.iter().flatten().map(|a| a.id.clone()).collect();
    (!accounts.is_empty()).then(|| Event::GameMade {
        game: m.id.clone(),
        accounts,
    })
}

async fn insert_match(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    m: &Match,
    rounds: &[(Round, Vec<MoveEvent>)],
) -> Result<(), StoreError> {
    let s = snapshot(m);
    sqlx::query(
        "INSERT INTO games (id, variant, rules, start, format, read_only, first_side,
           p0_kind, p0_name, p0_level, p0_token, p1_kind, p1_name, p1_level, p1_token, invite,
           game_no, wins0, wins1, status, ply, position, result, created, updated, version,
           rated, p0_account, p1_account)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11,$12,$13,$14,$15,$16,$17,$18,$19,$20,$21,$22,$23,$24,$25,$26,$27,$28,$29)",
    )
    .bind(&m.id)
    .bind(m.rules.variant.id())
    .bind(m.rules.to_string())
    .bind(m.start.to_string())
    .bind(m.format.as_str())
    .bind(i64::from(m.read_only))
    .bind(m.first_side.letter().to_string())
    .bind(m.players[0].kind.as_str())
    .bind(&m.players[0].name)
    .bind(m.players[0].level.map(i64::from))
    .bind(m.players[0].token_hash.clone())
    .bind(m.players[1].kind.as_str())
    .bind(&m.players[1].name)
    .bind(m.players[1].level.map(i64::from))
    .bind(m.players[1].token_hash.clone())
    .bind(m.invite.clone())
    .bind(s.game_no)
    .bind(s.wins0)
    .bind(s.wins1)
    .bind(s.status)
    .bind(s.ply)
    .bind(&s.position)
    .bind(&s.result)
    .bind(m.created)
    .bind(s.updated)
    .bind(m.version)
    .bind(i64::from(m.rated))
    .bind(m.accounts[0].as_ref().map(|a| a.id.clone()))
    .bind(m.accounts[1].as_ref().map(|a| a.id.clone()))
    .execute(&mut **tx)
    .await
    .map_err(|e| conflict_or(e, "a game with this id exists"))?;
    set_clock(tx, &m.id, &s.clock).await?;
    if let Some(e) = &m.event {
        set_event(tx, &m.id, e).await?;
    }
    for (a, p) in m.accounts.iter().zip(&m.players) {
        if let (Some(a), Some(h)) = (a, &p.token_hash) {
            ratings::claim_seat(tx, &a.id, &m.id, h, m.created).await?;
        }
    }
    for (r, moves) in rounds {
        insert_round(tx, &m.id, r).await?;
        for mv in moves {
            insert_move(tx, &m.id, r.game_no, mv, m.created).await?;
        }
    }
    Ok(())
}

/// Writes one change of game `id`; every branch bumps `version` once and answers the new
/// version (RETURNING: no second query on the move's path).
async fn change(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    write: &Write,
    snap: &Snapshot,
    seat: Option<&SeatCols>,
) -> Result<i64, StoreError> {
    match write {
        Write::Flag {
            game_no,
            ply,
            now,
            t,
        } => {
            // Exactly once over all instances: only the game as the flagging instance saw
            // it, with its clock run out in the database's own terms.
            let v = write_snapshot(
                tx,
                id,
                snap,
                None,
                *game_no,
                "AND ply = $16 AND clock_deadline IS NOT NULL AND clock_deadline <= $17",
                &[*ply as i64, *now],
            )
            .await?
            .ok_or_else(|| {
                StoreError::Conflict("the game changed before its clock could run out".into())
            })?;
            end_round(tx, id, *game_no, t).await?;
            Ok(v)
        }
        Write::Berserk {
            game_no,
            ply,
            player,
        } => {
            let v = write_snapshot(
                tx,
                id,
                snap,
                None,
                *game_no,
                "AND ply = $16",
                &[*ply as i64],
            )
            .await?
            .ok_or_else(|| {
                StoreError::Conflict(
                    "the game changed before going berserk; nothing was changed".into(),
                )
            })?;
            // The flags live outside the snapshot: only this write changes them.
            sqlx::query("UPDATE games SET clock_berserk = clock_berserk | $1 WHERE id = $2")
                .bind(1_i64 << (*player).min(1))
                .bind(id)
                .execute(&mut **tx)
                .await?;
            Ok(v)
        }
        Write::Takeback {
            game_no,
            from_ply,
            to_ply,
        } => {
            let v = write_snapshot(
                tx,
                id,
                snap,
                None,
                *game_no,
                "AND ply = $16",
                &[*from_ply as i64],
            )
            .await?
            .ok_or_else(|| {
                StoreError::Conflict(
                    "the game changed before the takeback; nothing was taken back".into(),
                )
            })?;
            sqlx::query("DELETE FROM moves WHERE game_id = $1 AND game_no = $2 AND ply > $3")
                .bind(id)
                .bind(*game_no as i64)
                .bind(*to_ply as i64)
                .execute(&mut **tx)
                .await?;
            Ok(v)
        }
        Write::RematchOffer { version, offer } => {
            let r = sqlx::query(
                "UPDATE games SET rematch_offer_by = $1, rematch_offer_until = $2,
                   rematch_offer_watching = $3, rematch_offer_declined = $4,
                   version = version + 1
                 WHERE id = $5 AND rematch IS NULL AND version = $6 RETURNING version",
            )
            .bind(offer.map(|o| o.by as i64))
            .bind(offer.map(|o| o.until))
            .bind(offer.is_some_and(|o| o.watching) as i64)
            .bind(offer.is_some_and(|o| o.declined) as i64)
            .bind(id)
            .bind(*version)
            .fetch_optional(&mut **tx)
            .await?;
            version_of(r)?.ok_or_else(|| {
                StoreError::Conflict("the rematch changed meanwhile; ask again".into())
            })
        }
        Write::Rematch { by, new } => {
            // Race-safe over all instances: one rematch per match.
            let r = sqlx::query(
                "UPDATE games SET rematch = $1, rematch_by = $2, rematch_offer_by = NULL,
                   rematch_offer_until = NULL, rematch_offer_watching = 0,
                   rematch_offer_declined = 0, version = version + 1
                 WHERE id = $3 AND rematch IS NULL RETURNING version",
            )
            .bind(&new.id)
            .bind(*by as i64)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
            let v = version_of(r)?
                .ok_or_else(|| StoreError::Conflict("the rematch exists already".into()))?;
            insert_match(tx, new, &[(new.current.clone(), Vec::new())]).await?;
            Ok(v)
        }
        Write::Move { game_no, mv, ended } => {
            insert_move(tx, id, *game_no, mv, snap.updated).await?;
            if let Some(t) = ended {
                end_round(tx, id, *game_no, t).await?;
            }
            update_snapshot(tx, id, snap, Some(snap.updated), *game_no).await
        }
        Write::Abandon { game_no, seen, t } => {
            // Exactly once, whatever the number of instances sweeping: only the match as the
            // sweeper saw it (still live, unchanged since `seen`) is ended. On PostgreSQL a
            // second sweeper's UPDATE waits for the first to commit and then matches no row.
            let r = sqlx::query(
                "UPDATE games SET game_no = $1, wins0 = $2, wins1 = $3, status = $4, ply = $5,
                   position = $6, result = $7, updated = $8, version = version + 1
                 WHERE id = $9 AND status = 'live' AND updated = $10 RETURNING version",
            )
            .bind(snap.game_no)
            .bind(snap.wins0)
            .bind(snap.wins1)
            .bind(snap.status)
            .bind(snap.ply)
            .bind(&snap.position)
            .bind(&snap.result)
            .bind(snap.updated)
            .bind(id)
            .bind(*seen)
            .fetch_optional(&mut **tx)
            .await?;
            let v = version_of(r)?.ok_or_else(|| {
                StoreError::Conflict("the match changed or ended before it could be closed".into())
            })?;
            end_round(tx, id, *game_no, t).await?;
            Ok(v)
        }
        Write::End { game_no, t } => {
            end_round(tx, id, *game_no, t).await?;
            update_snapshot(tx, id, snap, None, *game_no).await
        }
        Write::Rate {
            game_no,
            version,
            variant,
            accounts,
            update,
            at,
        } => ratings::rate(tx, id, *game_no, *version, variant, accounts, update, *at).await,
        Write::Join { game_no } => {
            let Some(seat) = seat else {
                return Err(StoreError::Batch("a join without its seat".into()));
            };
            set_clock(tx, id, &seat.clock).await?;
            let r = sqlx::query(
                "UPDATE games SET p1_token = $1, p1_name = $2, invite = NULL, updated = $3,
                   version = version + 1, p1_account = $5
                 WHERE id = $4 AND p1_token IS NULL AND p1_kind = 'human' RETURNING version",
            )
            .bind(seat.token_hash.clone())
            .bind(&seat.name)
            .bind(snap.updated)
            .bind(id)
            .bind(seat.account.clone())
            .fetch_optional(&mut **tx)
            .await?;
            let v = version_of(r)?
                .ok_or_else(|| StoreError::Conflict("the seat has been taken".into()))?;
            if let (Some(a), Some(h)) = (&seat.account, &seat.token_hash) {
                ratings::claim_seat(tx, a, id, h, snap.updated).await?;
            }
            sqlx::query(
                "UPDATE rounds SET south = $1, north = $2 WHERE game_id = $3 AND game_no = $4",
            )
            .bind(&seat.south)
            .bind(&seat.north)
            .bind(id)
            .bind(*game_no as i64)
            .execute(&mut **tx)
            .await?;
            Ok(v)
        }
    }
}

/// Writes the summary of a live match. Only a match still live in the database, at game
/// `game_no`, is changed: one that another instance (or the abandonment sweep, or a clock)
/// has ended refuses the change. `moved` is the time of the move being stored, if this
/// change is a move.
async fn update_snapshot(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    s: &Snapshot,
    moved: Option<i64>,
    game_no: u32,
) -> Result<i64, StoreError> {
    write_snapshot(tx, id, s, moved, game_no, "", &[])
        .await?
        .ok_or_else(|| StoreError::Conflict("the match has already ended".into()))
}

/// The UPDATE of [`update_snapshot`] with a further condition `extra` (fixed SQL text whose
/// parameters start at `$16`, bound from `binds`); returns the new version, `None` when the
/// condition matched no row.
async fn write_snapshot(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    s: &Snapshot,
    moved: Option<i64>,
    game_no: u32,
    extra: &str,
    binds: &[i64],
) -> Result<Option<i64>, StoreError> {
    let sql = format!(
        "UPDATE games SET game_no = $1, wins0 = $2, wins1 = $3, status = $4, ply = $5,
           position = $6, result = $7, updated = $8, moved = COALESCE($9, moved),
           clock_left0 = $10, clock_left1 = $11, clock_since = $12, clock_deadline = $13,
           version = version + 1
         WHERE id = $14 AND status = 'live' AND game_no = $15 {extra}
         RETURNING version"
    );
    let mut q = sqlx::query(&sql)
        .bind(s.game_no)
        .bind(s.wins0)
        .bind(s.wins1)
        .bind(s.status)
        .bind(s.ply)
        .bind(&s.position)
        .bind(&s.result)
        .bind(s.updated)
        .bind(moved)
        .bind(s.clock.left0)
        .bind(s.clock.left1)
        .bind(s.clock.since)
        .bind(s.clock.deadline)
        .bind(id)
        .bind(game_no as i64);
    for b in binds {
        q = q.bind(*b);
    }
    version_of(q.fetch_optional(&mut **tx).await?)
}

/// The `version` an UPDATE ... RETURNING version answered, if it changed a row.
fn version_of(row: Option<AnyRow>) -> Result<Option<i64>, StoreError> {
    Ok(match row {
        Some(r) => Some(r.try_get("version")?),
        None => None,
    })
}

/// Writes every clock column of game `id`.
async fn set_clock(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    c: &ClockCols,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE games SET clock_initial = $1, clock_increment = $2, clock_days = $3,
           clock_left0 = $4, clock_left1 = $5, clock_since = $6, clock_deadline = $7
         WHERE id = $8",
    )
    .bind(c.initial)
    .bind(c.increment)
    .bind(c.days)
    .bind(c.left0)
    .bind(c.left1)
    .bind(c.since)
    .bind(c.deadline)
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// Writes the event columns of new game `id` (migration 0013).
async fn set_event(
    tx: &mut sqlx::Transaction<'_, sqlx::Any>,
    id: &str,
    e: &GameEvent,
) -> Result<(), StoreError> {
    sqlx::query(
        "UPDATE games SET event_kind = $1, event_id = $2, event_name = $3, event_round = $4
         WHERE id = $5",
    )
    .bind(e.kind.as_str())
    .bind(&e.id)
    .bind(&e.name)
    .bind(e.round.map(i64::from))
    .bind(id)
    .execute(&mut **tx)
    .await?;
    Ok(())
}

/// The event columns of a `games` row (migration 0013); `None` for a game on its own (or a
/// kind this build does not know).
fn event_from_row(row: &AnyRow) -> Result<Option<GameEvent>, StoreError> {
    let Some(kind) = row.try_get::<Option<String>, _>("event_kind")? else {
        return Ok(None);
    };
    let Some(kind) = EventKind::parse(&kind) else {
        return Ok(None);
    };
    Ok(Some(GameEvent {
        kind,
        id: row
            .try_get::<Option<String>, _>("event_id")?
            .unwrap_or_default(),
        name: row
            .try_get::<Option<String>, _>("event_name")?
            .unwrap_or_default(),
        round: row
            .try_get::<Option<i64>, _>("event_round")?
            .and_then(|r| u32::try_from(r).ok()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cursors_read_back_and_refuse_the_rest() {
        let k = ListKey {
            time: 1_764_000_000_123,
            id: "ab12cd34".into(),
        };
        assert_eq!(ListKey::parse(&k.cursor()), Some(k));
        for bad in [
            "",
            "zz",
            "41",
            &hex::encode("12.AB"),
            &hex::encode("x.ab"),
            &hex::encode("12."),
        ] {
            assert_eq!(ListKey::parse(bad), None, "{bad}");
        }
    }
}
