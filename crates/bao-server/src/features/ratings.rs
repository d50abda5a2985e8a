//! Ratings, profiles and the leaderboard (docs/api.md, "Ratings", "Profiles and
//! leaderboard").
//!
//! * Rating a game: this feature observes the game core ([`Ratings`] is an
//!   [`Observer`]); when a rated game ends it hands the match to its task, which rates every
//!   finished game of the match still without a rating through the one write path
//!   (`Write::Rate` in a [`Change`]): the store writes both ratings, the history and the
//!   game's rating change in one transaction, exactly once across instances, with an
//!   `Event::Rating` for the two players' sockets. Every instance and socket then sees the
//!   change with the game's new version. A catch-up at start and at every safety sweep
//!   ([`crate::game::Lifecycle::safety_sweep`]) rates what an instance stopped between a
//!   game's end and its rating left behind.
//! * `GET /api/users/{name}`, `GET /api/users/{name}/games`, `GET /api/leaderboard`.

use crate::domain::model::{side_json, Match};
use crate::domain::rating::{config, outcome_for_p0, rate, Stored, ACTIVE_MS};
use crate::edge::body::json;
use crate::error::{ApiError, ApiResult};
use crate::game::commit::CommitError;
use crate::game::routes::list_page;
use crate::game::{Change, Games, Observer};
use crate::store::{DueRound, HistoryPoint, Results, Store, StoreError, Write, RATING_PAGE};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::get;
use axum::Router;
use bao_rules::{RecordResult, Side, Variant};
use serde::Serialize;
use std::collections::{BTreeMap, HashMap};
use std::sync::{Arc, Mutex};
use tokio::sync::mpsc;

/// The catch-up looks at rated matches changed within this window (30 days).
pub const CATCH_UP_WINDOW_MS: i64 = 30 * 24 * 3600 * 1000;
/// Players on the leaderboard.
pub const BOARD_SIZE: usize = 50;
/// Points of a profile's rating graph per variant.
pub const HISTORY_POINTS: i64 = 200;
/// Times one game's rating is tried before it is left to the catch-up (each conflict means
/// another change came first: the game is read again).
const ATTEMPTS: usize = 4;

/// The feature's state: the observer's end of the channel to the rating task.
pub struct Ratings {
    tx: mpsc::Sender<String>,
    rx: Mutex<Option<mpsc::Receiver<String>>>,
}

impl Ratings {
    /// The feature, before the games exist (it observes them).
    pub fn new() -> Arc<Ratings> {
        let (tx, rx) = mpsc::channel(1024);
        Arc::new(Ratings {
            tx,
            rx: Mutex::new(Some(rx)),
        })
    }
}

impl Observer for Ratings {
    fn changed(&self, m: &Match) {
        // Quick and never waits: a full channel leaves the game to the catch-up.
        if m.rating_due() {
            let _ = self.tx.try_send(m.id.clone());
        }
    }
}

/// Starts the rating task: the matches the observer hands over, and the catch-up (the
/// first at once). Ends when the games are dropped.
pub fn spawn(ratings: &Arc<Ratings>, games: &Arc<Games>) -> tokio::task::JoinHandle<()> {
    let rx = match ratings.rx.lock() {
        Ok(mut g) => g.take(),
        Err(p) => p.into_inner().take(),
    };
    crate::game::observed::spawn_observed(rx, games, |games, id| async move {
        match rate_due(&games, id.as_deref()).await {
            Ok(n) if n > 0 => tracing::info!("{n} games rated"),
            Ok(_) => {}
            Err(e) => tracing::warn!("ratings: {e}"),
        }
    })
}

/// Rates the finished rated games without a rating (of match `id`, or of every match
/// changed within [`CATCH_UP_WINDOW_MS`]); returns how many this instance rated.
pub async fn rate_due(games: &Games, id: Option<&str>) -> Result<usize, StoreError> {
    let since = games.clock.now_ms() - CATCH_UP_WINDOW_MS;
    let due = games.store.due_rounds(id, since, 200).await?;
    let mut n = 0;
    for d in due {
        match rate_round(games, &d).await {
            Ok(true) => n += 1,
            Ok(false) => {}
            Err(e) => tracing::warn!("rating game {} of {}: {}", d.game_no, d.game_id, e.message),
        }
    }
    Ok(n)
}

/// Rates game `d.game_no` of match `d.game_id` unless it is rated already (by this or
/// another instance). Returns whether this call rated it.
async fn rate_round(games: &Games, d: &DueRound) -> ApiResult<bool> {
    for _ in 0..ATTEMPTS {
        let slot = games.slot(&d.game_id).await?;
        let mut m = slot.m.lock().await;
        let Some(change) = rating_change(games, &m, d.game_no).await? else {
            return Ok(false);
        };
        match games.commit(&slot, &mut m, change).await {
            Ok(()) => return Ok(true),
            // Rated by another instance meanwhile, or the game changed: memory has been read
            // again; look again.
            Err(CommitError::Conflict(_)) => continue,
            Err(e) => return Err(e.into()),
        }
    }
    Ok(false)
}

/// The change that rates game `game_no` of `m`, or `None` when there is nothing to rate
/// (rated already, unfinished, not rated, a seat without an account).
async fn rating_change(games: &Games, m: &Match, game_no: u32) -> ApiResult<Option<Change>> {
    let round = if m.current.game_no == game_no {
        &m.current
    } else {
        match m.past.iter().find(|r| r.game_no == game_no) {
            Some(r) => r,
            None => return Ok(None),
        }
    };
    let (Some(a0), Some(a1)) = (&m.accounts[0], &m.accounts[1]) else {
        return Ok(None);
    };
    if !m.rated || round.rating_change.is_some() || a0.id == a1.id {
        return Ok(None);
    }
    let winner = match round.result {
        RecordResult::Unfinished => return Ok(None),
        RecordResult::Draw => None,
        RecordResult::Win(side) => Some(if m.side_in(0, game_no) == side { 0 } else { 1 }),
    };
    let variant = m.rules.variant.id();
    let before = [
        games.store.rating_of(&a0.id, variant).await?,
        games.store.rating_of(&a1.id, variant).await?,
    ];
    let now = games.clock.now_ms();
    let u = rate(before, outcome_for_p0(winner), now);
    let mut after = m.clone();
    if after.current.game_no == game_no {
        after.current.rating_change = Some(u.change);
    } else if let Some(r) = after.past.iter_mut().find(|r| r.game_no == game_no) {
        r.rating_change = Some(u.change);
    }
    for (a, s) in after.accounts.iter_mut().zip(&u.after) {
        if let Some(a) = a {
            a.rating = s.shown(now);
        }
    }
    Ok(Some(Change {
        after,
        played: None,
        next: None,
        write: Write::Rate {
            game_no,
            version: m.version,
            variant: variant.to_string(),
            accounts: [a0.id.clone(), a1.id.clone()],
            update: u,
            at: now,
        },
        at: now,
    }))
}

/// The routes: profiles and the leaderboard.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route("/api/users/{name}", get(profile))
        .route("/api/users/{name}/games", get(user_games))
        .route("/api/leaderboard", get(leaderboard_route))
        .with_state(games)
}

/// The account named `name` (any case): (id, name as chosen, created).
async fn account_named(store: &Store, name: &str) -> ApiResult<(String, String, i64)> {
    // Account names are 3 to 20 characters of A-Z a-z 0-9 _ - (docs/api.md, "Accounts"):
    // anything else names nobody and is not sent to the database.
    let shape = (3..=20).contains(&name.len())
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !shape {
        return Err(ApiError::no_such_user(name));
    }
    let row = store
        .account_by_name(&name.to_ascii_lowercase())
        .await?
        .ok_or_else(|| ApiError::no_such_user(name))?;
    Ok((row.id.0, row.username, row.created))
}

/// A rating as a profile shows it.
#[derive(Serialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProfileRating {
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation as it stands now (grown since the last rated game), rounded.
    pub rd: i32,
    /// The deviation now is above 110.
    pub provisional: bool,
    /// Rated games played in the variant.
    pub games: i64,
}

fn profile_rating(s: &Stored, now: i64) -> ProfileRating {
    let r = s.now(now);
    ProfileRating {
        rating: r.rounded(),
        rd: r.deviation().round() as i32,
        provisional: config().is_provisional(&r),
        games: s.games,
    }
}

/// `GET /api/users/{name}`.
#[derive(Serialize, Debug)]
struct Profile {
    username: String,
    created: i64,
    ratings: BTreeMap<&'static str, ProfileRating>,
    results: Results,
    history: BTreeMap<&'static str, Vec<HistoryPoint>>,
    /// The clubs the player belongs to (docs/api.md, "Clubs").
    clubs: Vec<ProfileClub>,
}

/// A club on a profile.
#[derive(Serialize, Debug)]
struct ProfileClub {
    id: String,
    name: String,
    role: String,
}

async fn profile(State(games): State<Arc<Games>>, Path(name): Path<String>) -> ApiResult<Response> {
    let store = &games.store;
    let (id, username, created) = account_named(store, &name).await?;
    let now = games.clock.now_ms();
    let stored: HashMap<String, Stored> = store.ratings_of(&id).await?.into_iter().collect();
    let mut ratings = BTreeMap::new();
    let mut history = BTreeMap::new();
    for v in Variant::ALL {
        let s = stored.get(v.id()).copied().unwrap_or_else(Stored::start);
        ratings.insert(v.id(), profile_rating(&s, now));
        let points = if s.games > 0 {
            store.rating_history(&id, v.id(), HISTORY_POINTS).await?
        } else {
            Vec::new()
        };
        history.insert(v.id(), points);
    }
    let results = store.account_results(&id).await?;
    let clubs = store
        .clubs_of(&id)
        .await?
        .into_iter()
        .map(|(id, name, role)| ProfileClub { id, name, role })
        .collect();
    json(
        StatusCode::OK,
        &Profile {
            username,
            created,
            ratings,
            results,
            history,
            clubs,
        },
    )
}

/// One match of a profile's list.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct UserGame {
    /// Game id.
    pub id: String,
    /// Variant id.
    pub variant: String,
    /// The opponent's name.
    pub opponent: String,
    /// `human` or `computer`.
    pub opponent_kind: String,
    /// The account's side in the current (or last) game of the match.
    pub side: &'static str,
    /// For the account: `won`, `drawn`, `lost` (the match), or `playing`.
    pub result: &'static str,
    /// A rated match.
    pub rated: bool,
    /// The account's rating change over the match's rated games, once rated.
    pub rating_change: Option<i64>,
    /// When the match ended (ms since the epoch), `null` while it is played.
    pub ended: Option<i64>,
    /// Last change (ms).
    pub updated: i64,
    /// Games in the match so far.
    pub game_no: i64,
}

/// `GET /api/users/{name}/games?limit=N&cursor=C` -> `{"games": [...], "next": C|null}`.
async fn user_games(
    State(games): State<Arc<Games>>,
    Path(name): Path<String>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let (limit, after) = list_page(&q)?;
    let (id, _, _) = account_named(&games.store, &name).await?;
    let (rows, next) = games
        .store
        .account_games(&id, after.as_ref(), limit)
        .await?;
    let list: Vec<UserGame> = rows
        .into_iter()
        .map(|r| {
            let p = r.player;
            let first = Side::from_letter(&r.first_side).unwrap_or(Side::South);
            // Player 0 plays the first side in odd games (BRD-8.2).
            let p0 = if r.game_no % 2 == 1 {
                first
            } else {
                first.other()
            };
            let side = if p == 0 { p0 } else { p0.other() };
            let finished = r.status != "live";
            let result = if !finished {
                "playing"
            } else {
                match r.wins[p].cmp(&r.wins[1 - p]) {
                    std::cmp::Ordering::Greater => "won",
                    std::cmp::Ordering::Less => "lost",
                    std::cmp::Ordering::Equal => "drawn",
                }
            };
            UserGame {
                id: r.id,
                variant: r.variant,
                opponent: r.names[1 - p].clone(),
                opponent_kind: r.kinds[1 - p].clone(),
                side: side_json(side),
                result,
                rated: r.rated,
                rating_change: r.rating_change,
                ended: finished.then_some(r.updated),
                updated: r.updated,
                game_no: r.game_no,
            }
        })
        .collect();
    json(
        StatusCode::OK,
        &serde_json::json!({"games": list, "next": next.map(|k| k.cursor())}),
    )
}

/// One line of the leaderboard.
#[derive(Serialize, Debug, Clone, PartialEq, Eq)]
pub struct BoardEntry {
    /// 1 for the best.
    pub rank: usize,
    /// The account's name.
    pub username: String,
    /// The rating, rounded.
    pub rating: i32,
    /// Its deviation as it stands at the time asked, rounded.
    pub rd: i32,
    /// Rated games played in the variant.
    pub games: i64,
}

/// The leaderboard of `variant` at `now` (ms): the [`BOARD_SIZE`] best accounts whose rating
/// is not provisional with its deviation as it stands at `now` (grown since their last rated
/// game) and who played a rated game in the 90 days before `now`, the best first.
pub async fn leaderboard(
    store: &Store,
    variant: Variant,
    now: i64,
) -> Result<Vec<BoardEntry>, StoreError> {
    let c = config();
    let max_rd = c.settings().provisional_deviation;
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        // A deviation only grows while a player is away, so the stored one bounds the one now.
        let rows = store
            .board_rows(
                variant.id(),
                max_rd,
                now - ACTIVE_MS..=now,
                offset,
                RATING_PAGE,
            )
            .await?;
        let n = rows.len() as i64;
        for r in rows {
            let p = profile_rating(&r.stored, now);
            if p.provisional {
                continue;
            }
            out.push(BoardEntry {
                rank: out.len() + 1,
                username: r.username,
                rating: p.rating,
                rd: p.rd,
                games: p.games,
            });
            if out.len() == BOARD_SIZE {
                return Ok(out);
            }
        }
        if n < RATING_PAGE {
            return Ok(out);
        }
        offset += n;
    }
}

/// `GET /api/leaderboard?variant=V` (default kiswahili).
async fn leaderboard_route(
    State(games): State<Arc<Games>>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let v =
        crate::edge::terms::parse_variant(q.get("variant").map_or("kiswahili", String::as_str))?;
    let players = leaderboard(&games.store, v, games.clock.now_ms()).await?;
    json(
        StatusCode::OK,
        &serde_json::json!({"variant": v.id(), "players": players}),
    )
}
