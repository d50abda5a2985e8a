//! Arenas on the server (docs/api.md, "Arenas"): tournaments that run for a fixed time,
//! where anyone joins at any moment and is paired again as soon as their game ends.
//!
//! * Routes: create, list, one arena (its standings), join (also while it runs, and again
//!   after a pause), pause, berserk. Every change publishes [`Event::Arena`] in its write's
//!   transaction; pages hear of it on the player socket (`?arena=ID`).
//! * Running: [`Arenas`] observes the game core and hands the ids of ended games to its
//!   task, which records their results; every [`Event::Arena`], from any instance, brings
//!   its arena up to date ([`run::advance`]: the waiting players paired). Timers wait for
//!   each arena's start and end only; a slow safety sweep repairs what a crashed instance
//!   left ([`spawn`]).

pub mod admin;
pub mod battle;
pub mod calendar;
pub mod live;
pub mod run;
pub mod state;

use crate::domain::events::Event;
use crate::domain::model::{Match, TimeControl};
use crate::domain::names::clean_name;
use crate::edge::account::{Account, MaybeAccount};
use crate::edge::body::{json, Json};
use crate::edge::limit::{limit, Action};
use crate::edge::terms::{Terms, TermsIn};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::observed::{Wake, Wakes};
use crate::game::{Games, Observer};
use crate::store::{ArenaPlayerRow, ArenaRow};
use crate::util::{self, deadlines};
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use bao_rules::MatchFormat;
use serde::Deserialize;
use state::Loaded;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::mpsc;

/// Longest arena name, in characters.
pub const MAX_NAME: usize = 80;
/// An arena lasts 10 minutes to 12 hours.
pub const MINUTES: std::ops::RangeInclusive<i64> = 10..=720;
/// An arena starts at most a year ahead.
pub const MAX_AHEAD_MS: i64 = 366 * 24 * 3600 * 1000;
/// A start this far in the past is taken as "now" (a page's clock a little behind).
pub const START_SLACK_MS: i64 = 60_000;
/// Arenas one list answers at most.
pub const LIST_LIMIT: i64 = 50;
/// Players who joined are told this long before the start (docs/api.md, "Arenas").
pub const REMIND_MS: i64 = 5 * 60_000;

/// How long apart the arenas of a series start: `daily` or `weekly` (docs/api.md, "Arenas").
pub fn repeat_ms(repeats: &str) -> Option<i64> {
    match repeats {
        "daily" => Some(24 * 3600 * 1000),
        "weekly" => Some(7 * 24 * 3600 * 1000),
        _ => None,
    }
}

/// The feature's state: the observer's end of the channel to the task.
pub struct Arenas {
    tx: mpsc::Sender<String>,
    rx: Mutex<Option<mpsc::Receiver<String>>>,
}

impl Arenas {
    /// The feature, before the games exist (it observes them).
    pub fn new() -> Arc<Arenas> {
        let (tx, rx) = mpsc::channel(1024);
        Arc::new(Arenas {
            tx,
            rx: Mutex::new(Some(rx)),
        })
    }
}

impl Observer for Arenas {
    fn changed(&self, m: &Match) {
        // Only single games between two accounts can be arena games; quick and never waits
        // (a full channel leaves the game to the sweep).
        if m.finished && !m.read_only && m.accounts.iter().all(Option::is_some) {
            let _ = self.tx.try_send(m.id.clone());
        }
    }
}

/// Starts the task (ends when the games are dropped). News comes as events, deadlines have
/// timers (docs/architecture.md, "The event bus"):
/// * a game of this instance ended (the observer): its result is recorded, which publishes
///   [`Event::Arena`];
/// * [`Event::Arena`] from any instance: the arena is brought up to date (its waiting
///   players paired) and its deadline read again;
/// * a deadline (an arena's start or end): it starts or ends;
/// * the safety sweep, every [`crate::game::Lifecycle::safety_sweep`].
pub fn spawn(a: &Arc<Arenas>, games: &Arc<Games>) -> tokio::task::JoinHandle<()> {
    let rx = match a.rx.lock() {
        Ok(mut g) => g.take(),
        Err(p) => p.into_inner().take(),
    };
    let weak: Weak<Games> = Arc::downgrade(games);
    let at_start = games.lifecycle.sweep_at_start;
    let mut wakes = Wakes::new(rx, games);
    tokio::spawn(async move {
        let mut timers = Deadlines::default();
        {
            let Some(games) = weak.upgrade() else { return };
            if at_start {
                if let Err(e) = run::sweep(&games).await {
                    tracing::warn!("arenas: {e}");
                }
            }
            timers.read(&games, None).await;
        }
        while let Some(wake) = wakes.next(timers.next()).await {
            let Some(games) = weak.upgrade() else { return };
            match wake {
                Wake::Ended(game) => match games.store.arena_game(&game).await {
                    Ok(Some(_)) => {
                        if let Err(e) = run::record(&games, &game).await {
                            tracing::warn!("arena game {game}: {}", e.message);
                        }
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!("arenas: {e}"),
                },
                Wake::News(d) => {
                    let Event::Arena { id } = &d.event else {
                        continue;
                    };
                    // Events that came meanwhile are coalesced: an arena is brought up to
                    // date once for all of them (a wave's results come in bursts).
                    let mut ids = vec![id.clone()];
                    let missed = loop {
                        match wakes.news_waiting() {
                            Ok(d) => {
                                if let Event::Arena { id } = &d.event {
                                    if !ids.contains(id) {
                                        ids.push(id.clone());
                                    }
                                }
                            }
                            Err(missed) => break missed,
                        }
                    };
                    if missed {
                        reread(&games, &mut timers).await;
                        continue;
                    }
                    for id in ids {
                        if let Err(e) = run::advance(&games, &id).await {
                            tracing::warn!("arena {id}: {}", e.message);
                        }
                        timers.read(&games, Some(&id)).await;
                    }
                }
                Wake::Missed | Wake::Sweep => reread(&games, &mut timers).await,
                Wake::Due => {
                    for id in timers.due(games.clock.now_ms()) {
                        if let Err(e) = run::due(&games, &id).await {
                            tracing::warn!("arena {id}: {}", e.message);
                        }
                        timers.read(&games, Some(&id)).await;
                    }
                }
            }
        }
    })
}

/// Every arena brought up to date and every deadline read again (the sweep, or events
/// missed).
async fn reread(games: &Games, timers: &mut Deadlines) {
    if let Err(e) = run::sweep(games).await {
        tracing::warn!("arenas: {e}");
    }
    timers.read(games, None).await;
}

/// Each arena's next deadline (its start, or its end); one gone by is not set again
/// (util/deadlines.rs).
#[derive(Default)]
struct Deadlines(deadlines::Deadlines);

impl Deadlines {
    /// Reads the deadlines of arena `id` (or of all: `None`) from the store.
    async fn read(&mut self, games: &Games, id: Option<&str>) {
        match games.store.arena_deadlines(id, REMIND_MS).await {
            Ok(rows) => self.0.set(id, rows, games.clock.now_ms()),
            Err(e) => tracing::warn!("arenas' deadlines: {e}"),
        }
    }

    /// When the first deadline comes (ms since the epoch, on the games' clock).
    fn next(&self) -> Option<i64> {
        self.0.next()
    }

    /// Takes out the arenas whose deadline has come by `now`.
    fn due(&mut self, now: i64) -> Vec<String> {
        self.0.due(now)
    }
}

/// The routes (docs/api.md, "Arenas"). Making an arena counts as making a game; joining
/// one as joining a game.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route(
            "/api/arenas",
            post(create).layer(limit(Action::Create)).get(list),
        )
        .route("/api/arenas/{id}", get(detail))
        .route(
            "/api/arenas/{id}/join",
            post(join).layer(limit(Action::Join)),
        )
        .route("/api/arenas/{id}/pause", post(pause))
        .route("/api/arenas/{id}/berserk", post(berserk))
        .route("/api/arenas/series/{id}/stop", post(stop_series))
        .route("/api/calendar", get(calendar::calendar))
        .with_state(games)
}

fn no_such_arena() -> ApiError {
    ApiError::of(Category::NotFound, "there is no such arena")
}

fn over() -> ApiError {
    ApiError::of(Category::Over, "the arena is over")
}

/// Ids are 10 characters of `[a-z0-9]`: anything else names nothing and is not looked up.
fn check_id(id: &str) -> ApiResult<()> {
    let ok = id.len() == 10
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
    if ok {
        Ok(())
    } else {
        Err(no_such_arena())
    }
}

async fn loaded(games: &Games, id: &str) -> ApiResult<Loaded> {
    check_id(id)?;
    run::load(games, id).await?.ok_or_else(no_such_arena)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    name: String,
    variant: String,
    rules: Option<String>,
    clock: Option<serde_json::Value>,
    #[serde(default)]
    rated: bool,
    starts_at: Option<i64>,
    minutes: i64,
    #[serde(default)]
    berserk: bool,
    /// Only this club's members join.
    club: Option<String>,
    /// Not listed: joined by its link.
    #[serde(default)]
    private: bool,
    /// `daily` or `weekly`: a series.
    repeat: Option<String>,
    /// A team battle (battle.rs).
    battle: Option<battle::BattleReq>,
}

/// Who makes an arena: an account, or the site's operators (`bao admin arena`).
pub enum Maker {
    /// A signed-in player (id, name).
    Account(String, String),
    /// The site's operators: shown as the site, may make any series.
    Site,
}

/// `POST /api/arenas` -> `201 {"id", "url"}` (with `"series"` for a recurring arena).
async fn create(
    State(games): State<Arc<Games>>,
    me: Account,
    Json(req): Json<CreateReq>,
) -> ApiResult<Response> {
    let row = make(&games, req, Maker::Account(me.id.0, me.username)).await?;
    let mut out = serde_json::json!({"id": row.id, "url": format!("/a/{}", row.id)});
    if let Some(s) = &row.series {
        out["series"] = s.clone().into();
    }
    json(StatusCode::CREATED, &out)
}

/// Makes an arena from the fields of `POST /api/arenas` (a JSON object, as the API takes
/// it) for the site's operators: what `bao admin arena create` does.
pub async fn make_for_site(
    store: &crate::store::Store,
    body: serde_json::Value,
    now: i64,
) -> ApiResult<ArenaRow> {
    let req: CreateReq =
        serde_json::from_value(body).map_err(|e| ApiError::bad_request(e.to_string()))?;
    if req.battle.is_some() {
        return Err(ApiError::bad_request(
            "a team battle is made by a leader of one of its clubs (POST /api/arenas)",
        ));
    }
    let row = row_of(req, Maker::Site, now)?;
    if let Some(club) = &row.club {
        if !store.club_exists(club).await? {
            return Err(ApiError::bad_request("there is no such club"));
        }
    }
    insert(store, row).await
}

/// Makes an arena for `maker`, checking a club arena's maker (docs/api.md, "Arenas": a
/// club's leaders and admins make its arenas; only its leaders make a series of them).
async fn make(games: &Games, mut req: CreateReq, maker: Maker) -> ApiResult<ArenaRow> {
    let battle_req = req.battle.take();
    if battle_req.is_some() && (req.club.is_some() || req.repeat.is_some()) {
        return Err(ApiError::bad_request(
            "a team battle is among its own clubs and happens once: leave out club and repeat",
        ));
    }
    let mut row = row_of(req, maker, games.clock.now_ms())?;
    if let Some(b) = &battle_req {
        let team = battle::check(games, &row.organiser_id, b).await?;
        battle::create(games, &mut row, &team).await?;
        return Ok(row);
    }
    if let Some(club) = &row.club {
        check_id(club).map_err(|_| no_such_club())?;
        let role = games.store.club_role(club, &row.organiser_id).await?;
        let may = matches!(
            (&row.series, role.as_deref()),
            (None, Some("leader" | "admin")) | (Some(_), Some("leader"))
        );
        if !may {
            if !games.store.club_exists(club).await? {
                return Err(no_such_club());
            }
            return Err(ApiError::of(
                Category::NotClubLeader,
                if row.series.is_some() {
                    "only the club's leaders make its recurring arenas"
                } else {
                    "only the club's leaders and admins make its arenas"
                },
            ));
        }
    } else if row.series.is_some() {
        return Err(ApiError::of(
            Category::Forbidden,
            "a recurring arena is made by a club's leaders for their club (\"club\"), or by the site's operators",
        ));
    }
    insert(&games.store, row).await
}

fn no_such_club() -> ApiError {
    ApiError::of(Category::NoSuchClub, "there is no such club")
}

/// Stores `row` under a fresh id (ids are random; a clash only draws again).
async fn insert(store: &crate::store::Store, mut row: ArenaRow) -> ApiResult<ArenaRow> {
    for _ in 0..4 {
        match store.create_arena(&row).await {
            Ok(()) => return Ok(row),
            Err(crate::store::StoreError::Conflict(_)) => {
                row.id = util::random_code(10);
                if row.series.is_some() {
                    row.series = Some(util::random_code(10));
                }
            }
            Err(e) => return Err(e.into()),
        }
    }
    Err(ApiError::internal("no free arena id"))
}

/// The arena `req` asks for, checked, made by `maker` at `now`.
fn row_of(req: CreateReq, maker: Maker, now: i64) -> ApiResult<ArenaRow> {
    let bad = |m: &str| ApiError::bad_request(m);
    let name = clean_name(
        Some(&req.name.chars().take(4 * MAX_NAME).collect::<String>()),
        "",
    );
    if name.is_empty() || req.name.trim().chars().count() > MAX_NAME {
        return Err(bad(&format!(
            "an arena's name is 1 to {MAX_NAME} characters"
        )));
    }
    let terms = Terms::parse(
        TermsIn {
            variant: &req.variant,
            rules: req.rules.as_deref(),
            match_format: None,
            clock: req.clock.as_ref(),
        },
        MatchFormat::SingleGame,
    )?;
    let Some(clock @ TimeControl::Real { .. }) = terms.clock else {
        return Err(bad(
            "an arena needs a real-time clock: {\"initial_ms\": N, \"increment_ms\": M}",
        ));
    };
    if !MINUTES.contains(&req.minutes) {
        return Err(bad(&format!(
            "minutes is {} to {}",
            MINUTES.start(),
            MINUTES.end()
        )));
    }
    let starts_at = match req.starts_at {
        None => now,
        Some(s) if s < now - START_SLACK_MS || s > now + MAX_AHEAD_MS => return Err(bad(
            "starts_at is a time from now to a year ahead (ms since the epoch), or null for now",
        )),
        Some(s) => s.max(now),
    };
    if let Some(r) = &req.repeat {
        if repeat_ms(r).is_none() {
            return Err(bad("repeat is daily or weekly"));
        }
    }
    let (organiser_id, organiser_name) = match maker {
        Maker::Account(id, name) => (id, name),
        // Shown as the site (docs/api.md, "Arenas": "organiser" null).
        Maker::Site => (String::new(), String::new()),
    };
    Ok(ArenaRow {
        id: util::random_code(10),
        name,
        variant: terms.variant().id().to_string(),
        rules: terms.rules_text(),
        clock: serde_json::to_string(&clock).map_err(ApiError::internal)?,
        rated: req.rated,
        berserk: req.berserk,
        status: "upcoming".into(),
        organiser_id,
        organiser_name,
        starts_at,
        ends_at: starts_at + req.minutes * 60_000,
        created: now,
        updated: now,
        club: req.club,
        private: req.private,
        series: req.repeat.as_ref().map(|_| util::random_code(10)),
        repeats: req.repeat,
    })
}

/// `GET /api/arenas?status=upcoming|running|finished` (running by default).
async fn list(
    State(games): State<Arc<Games>>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let status = q.get("status").map_or("running", String::as_str);
    if !matches!(status, "upcoming" | "running" | "finished") {
        return Err(ApiError::bad_request(
            "status is upcoming, running or finished",
        ));
    }
    let rows = games.store.list_arenas(status, LIST_LIMIT).await?;
    let mut list = Vec::with_capacity(rows.len());
    for a in &rows {
        let players = games.store.arena_players(&a.id).await?.len();
        let mut line = state::summary(a, players);
        if let Some(b) = battle::summary(&games, &a.id).await? {
            line["battle"] = b;
        }
        list.push(line);
    }
    json(StatusCode::OK, &serde_json::json!({"arenas": list}))
}

/// `GET /api/arenas/{id}`.
async fn detail(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    viewer: MaybeAccount,
) -> ApiResult<Response> {
    let l = loaded(&games, &id).await?;
    let mut v = state::detail(&l, viewer.id(), games.clock.now_ms());
    battle::detail(&games, &l, viewer.id(), &mut v).await?;
    v["you"]["may_stop_series"] = may_stop_series(&games, &l.a, viewer.id()).await?.into();
    json(StatusCode::OK, &v)
}

/// Whether `viewer` may stop the series of `a`: a leader of its club, while it repeats (a
/// series of the site's operators is stopped with `bao admin arena stop`).
async fn may_stop_series(games: &Games, a: &ArenaRow, viewer: Option<&str>) -> ApiResult<bool> {
    let (Some(_), Some(club), Some(viewer)) = (&a.repeats, &a.club, viewer) else {
        return Ok(false);
    };
    Ok(games.store.club_role(club, viewer).await?.as_deref() == Some("leader"))
}

/// `POST /api/arenas/series/{id}/stop` -> `200 {"stopped": true}`: a leader of the series'
/// club stops it (docs/api.md, "Arenas"); the arenas made stay.
async fn stop_series(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    let no_such_series = || ApiError::of(Category::NotFound, "there is no such series");
    check_id(&id).map_err(|_| no_such_series())?;
    let newest = games
        .store
        .arena_series_newest(&id)
        .await?
        .ok_or_else(no_such_series)?;
    let Some(club) = &newest.club else {
        return Err(ApiError::of(
            Category::Forbidden,
            "the site's own series are stopped by its operators",
        ));
    };
    if games.store.club_role(club, &me.id.0).await?.as_deref() != Some("leader") {
        return Err(ApiError::of(
            Category::NotClubLeader,
            "only the club's leaders stop its recurring arenas",
        ));
    }
    // A series already stopped answers the same: a second tap changes nothing.
    games.store.stop_arena_series(&id).await?;
    json(StatusCode::OK, &serde_json::json!({"stopped": true}))
}

#[derive(Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct JoinReq {
    /// The club a player plays for in a team battle (battle.rs).
    club: Option<String>,
}

/// `POST /api/arenas/{id}/join`: before the start or while it runs; after a pause, the
/// player is paired again. In a team battle, only for one of its clubs.
async fn join(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<JoinReq>,
) -> ApiResult<Response> {
    me.may_compete()?;
    check_id(&id)?;
    let a = games.store.arena(&id).await?.ok_or_else(no_such_arena)?;
    if a.status == "finished" {
        return Err(over());
    }
    if let Some(club) = &a.club {
        if games.store.club_role(club, &me.id.0).await?.is_none() {
            return Err(ApiError::of(
                Category::NotClubMember,
                "only the club's members join this arena",
            ));
        }
    }
    let club = match games.store.arena_battle(&id).await? {
        Some(b) => Some(battle::choose(&games, &id, &b, &me.id.0, req.club.as_deref()).await?),
        None if req.club.is_some() => {
            return Err(ApiError::bad_request("this arena is not a team battle"))
        }
        None => None,
    };
    let now = games.clock.now_ms();
    let rating = games
        .store
        .seat_account(&me.id.0, &a.variant, now)
        .await?
        .map(|s| s.rating.rating as i64);
    let row = ArenaPlayerRow {
        account_id: me.id.0,
        username: me.username,
        rating,
        joined: now,
        paused: false,
        game_id: None,
        last_opponent: None,
    };
    if !games.store.join_arena(&id, &row).await? {
        return Err(over());
    }
    let mut v = serde_json::json!({"joined": true, "paused": false});
    if let Some(c) = club {
        v["club"] = c.into();
    }
    json(StatusCode::OK, &v)
}

/// `POST /api/arenas/{id}/pause`: not paired again until the player joins again; a game
/// in progress goes on.
async fn pause(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    check_id(&id)?;
    let a = games.store.arena(&id).await?.ok_or_else(no_such_arena)?;
    if a.status == "finished" {
        return Err(over());
    }
    if !games
        .store
        .pause_arena(&id, &me.id.0, games.clock.now_ms())
        .await?
    {
        return Err(ApiError::of(
            Category::NotRegistered,
            "you have not joined this arena",
        ));
    }
    json(
        StatusCode::OK,
        &serde_json::json!({"joined": true, "paused": true}),
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BerserkReq {
    game: String,
}

/// `POST /api/arenas/{id}/berserk {"game"}` (docs/api.md, "Arenas"): a player of arena
/// game `game` halves their own clock and gives up the increment, before their first move;
/// a win then scores one more point. The clock changes through the game's write path; the
/// arena's mark follows (its event tells the standings).
async fn berserk(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<BerserkReq>,
) -> ApiResult<Response> {
    check_id(&id)?;
    let a = games.store.arena(&id).await?.ok_or_else(no_such_arena)?;
    if !a.berserk {
        return Err(ApiError::of(
            Category::Forbidden,
            "this arena does not allow berserk",
        ));
    }
    let not_yours = || ApiError::of(Category::Forbidden, "that is not your game in this arena");
    let (arena, g) = games
        .store
        .arena_game(&req.game)
        .await?
        .ok_or_else(not_yours)?;
    let side = if g.south == me.id.0 {
        0
    } else if g.north == me.id.0 {
        1
    } else {
        return Err(not_yours());
    };
    if arena != id {
        return Err(not_yours());
    }
    let slot = games.slot(&g.game_id).await?;
    if !games.berserk(&slot, side).await? {
        let already = if side == 0 { g.berserk_s } else { g.berserk_n };
        if !already {
            return Err(ApiError::of(
                Category::Conflict,
                "berserk is only before your first move, once, while the game goes on",
            ));
        }
    }
    games.store.arena_berserk(&id, &g.game_id, side).await?;
    json(StatusCode::OK, &serde_json::json!({"berserk": true}))
}
