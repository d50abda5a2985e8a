//! Tournaments on the server (docs/api.md, "Tournaments"): round robins, Swiss and knockouts
//! of best-of-three matches, live or by correspondence, paired by bao-tournament.
//!
//! * Routes: create, list, one tournament (with its standings), join, withdraw, the
//!   organiser's start, pause, resume and remove, and the exports (standings CSV, every game
//!   as one records file). Every change publishes [`Event::Tournament`]; pages hear of it on
//!   their socket and read the tournament's `GET` again.
//! * Running: [`Tournaments`] observes the game core and hands the ids of ended games to its
//!   task, which brings their tournament up to date ([`run::advance`]); timers wait for each
//!   tournament's start and forfeit times, and a slow safety sweep does the same for every
//!   tournament in play ([`spawn`]). Each step is exactly once across instances (see `run`).

pub mod run;
pub mod state;

use crate::domain::events::Event;
use crate::domain::model::Match;
use crate::domain::names::clean_name;
use crate::edge::account::{Account, MaybeAccount};
use crate::edge::body::{json, Json, JsonOrEmpty};
use crate::edge::limit::{limit, Action};
use crate::edge::terms::{Terms, TermsIn};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::observed::{Wake, Wakes};
use crate::game::routes::list_page;
use crate::game::{Games, Observer};
use crate::store::{JoinOutcome, ListKey, PlayerRow, TournamentRow};
use crate::util::{self, deadlines};
use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use bao_rules::MatchFormat;
use serde::Deserialize;
use state::{Built, FormatJson, Loaded};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::mpsc;

/// Longest tournament name, in characters.
pub const MAX_NAME: usize = 80;
/// Most players of a tournament.
pub const MAX_PLAYERS: i64 = 256;
/// Most Swiss rounds.
pub const MAX_ROUNDS: usize = 20;
/// Most players of a round robin (19 rounds; a double one 38).
pub const MAX_ROUND_ROBIN: i64 = 20;
/// Default forfeit time of a real-time tournament: 5 minutes.
pub const DEFAULT_FORFEIT_MS: i64 = 5 * 60 * 1000;
/// Forfeit times allowed: 1 s to 1 day.
pub const FORFEIT_RANGE: std::ops::RangeInclusive<i64> = 1_000..=86_400_000;
/// A tournament starts at most a year ahead.
pub const MAX_AHEAD_MS: i64 = 366 * 24 * 3600 * 1000;
/// Boards of a team tournament's matches (as a team match's: docs/api.md, "Team matches").
pub const TEAM_BOARDS: std::ops::RangeInclusive<i64> = 2..=16;

/// The feature's state: the observer's end of the channel to the task.
pub struct Tournaments {
    tx: mpsc::Sender<String>,
    rx: Mutex<Option<mpsc::Receiver<String>>>,
}

impl Tournaments {
    /// The feature, before the games exist (it observes them).
    pub fn new() -> Arc<Tournaments> {
        let (tx, rx) = mpsc::channel(1024);
        Arc::new(Tournaments {
            tx,
            rx: Mutex::new(Some(rx)),
        })
    }
}

impl Observer for Tournaments {
    fn changed(&self, m: &Match) {
        // Only games between two accounts can be tournament games; quick and never waits
        // (a full channel leaves the game to the sweep).
        if m.finished && !m.read_only && m.accounts.iter().all(Option::is_some) {
            let _ = self.tx.try_send(m.id.clone());
        }
    }
}

/// Starts the task (ends when the games are dropped). News comes as events, deadlines have
/// timers (docs/architecture.md, "The event bus"):
/// * a game of this instance ended (the observer): its tournament is brought up to date;
/// * [`Event::Tournament`] from any instance: the tournament's deadline (its start time, or
///   its round's forfeit time) is read again and its timer set;
/// * a deadline: the tournament is started, or brought up to date (its forfeits);
/// * the safety sweep, every [`crate::game::Lifecycle::safety_sweep`] (the first at start
///   unless [`crate::game::Lifecycle::sweep_at_start`] is off): every tournament in play
///   brought up to date and every timer set again, repairing what a crashed instance left.
pub fn spawn(t: &Arc<Tournaments>, games: &Arc<Games>) -> tokio::task::JoinHandle<()> {
    let rx = match t.rx.lock() {
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
                    tracing::warn!("tournaments: {e}");
                }
            }
            timers.read(&games, None).await;
        }
        while let Some(wake) = wakes.next(timers.next()).await {
            let Some(games) = weak.upgrade() else { return };
            match wake {
                Wake::Ended(game) => match games.store.tournament_of_game(&game).await {
                    Ok(Some(tid)) => {
                        if let Err(e) = run::advance(&games, &tid).await {
                            tracing::warn!("tournament {tid}: {}", e.message);
                        }
                    }
                    Ok(None) => {}
                    Err(e) => tracing::warn!("tournaments: {e}"),
                },
                Wake::News(d) => match &d.event {
                    Event::Tournament { id } => timers.read(&games, Some(id)).await,
                    // A team tournament's match finished (on any instance): its pairing's
                    // result, and the next round once all are in.
                    Event::TeamMatch { id } => match games.store.team_match(id).await {
                        Ok(Some(m)) if m.status == "finished" => {
                            if let Some((tid, _)) = m.tournament {
                                if let Err(e) = run::advance(&games, &tid).await {
                                    tracing::warn!("tournament {tid}: {}", e.message);
                                }
                            }
                        }
                        Ok(_) => {}
                        Err(e) => tracing::warn!("tournaments: {e}"),
                    },
                    _ => {}
                },
                Wake::Missed => timers.read(&games, None).await,
                Wake::Due => {
                    for id in timers.due(games.clock.now_ms()) {
                        if let Err(e) = run::due(&games, &id).await {
                            tracing::warn!("tournament {id}: {}", e.message);
                        }
                        timers.read(&games, Some(&id)).await;
                    }
                }
                Wake::Sweep => {
                    if let Err(e) = run::sweep(&games).await {
                        tracing::warn!("tournaments: {e}");
                    }
                    timers.read(&games, None).await;
                }
            }
        }
    })
}

/// Each tournament's next deadline: a running one keeps its round's forfeit time after the
/// timer acted on it, not set again (util/deadlines.rs).
struct Deadlines(deadlines::Deadlines);

/// A deadline read this long after it passed still gets its timer (at once): it may have
/// passed while it was being read.
const DEADLINE_SLACK_MS: i64 = 5;

impl Default for Deadlines {
    fn default() -> Self {
        Self(deadlines::Deadlines::dropping_past(DEADLINE_SLACK_MS))
    }
}

impl Deadlines {
    /// Reads the deadlines of tournament `id` (or of all: `None`) from the store.
    async fn read(&mut self, games: &Games, id: Option<&str>) {
        match games.store.tournament_deadlines(id).await {
            Ok(rows) => self.0.set(id, rows, games.clock.now_ms()),
            Err(e) => tracing::warn!("tournaments' deadlines: {e}"),
        }
    }

    /// When the timer for the first deadline fires (ms since the epoch): at it, by the games'
    /// clock, the one the steps' conditions read too (a test's manual clock moved exactly
    /// onto a deadline fires it).
    fn next(&self) -> Option<i64> {
        self.0.next()
    }

    /// Takes out the tournaments whose deadline has come by `now`.
    fn due(&mut self, now: i64) -> Vec<String> {
        self.0.due(now)
    }
}

/// The routes (docs/api.md, "Tournaments"). Making a tournament counts as making a game;
/// joining one as joining a game.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route(
            "/api/tournaments",
            post(create).layer(limit(Action::Create)).get(list),
        )
        .route("/api/tournaments/{id}", get(detail))
        .route(
            "/api/tournaments/{id}/join",
            post(join).layer(limit(Action::Join)),
        )
        .route("/api/tournaments/{id}/withdraw", post(withdraw))
        .route("/api/tournaments/{id}/start", post(start))
        .route("/api/tournaments/{id}/pause", post(pause))
        .route("/api/tournaments/{id}/resume", post(resume))
        .route("/api/tournaments/{id}/remove", post(remove))
        .route("/api/tournaments/{id}/forbid", post(forbid))
        .route("/api/tournaments/{id}/allow", post(allow))
        .route("/api/tournaments/{id}/standings.csv", get(standings_csv))
        .route("/api/tournaments/{id}/games.txt", get(games_txt))
        .with_state(games)
}

fn no_such_tournament() -> ApiError {
    ApiError::of(Category::NoSuchTournament, "there is no such tournament")
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
        Err(no_such_tournament())
    }
}

async fn loaded(games: &Games, id: &str) -> ApiResult<Loaded> {
    check_id(id)?;
    run::load(games, id).await?.ok_or_else(no_such_tournament)
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    name: String,
    variant: String,
    rules: Option<String>,
    format: serde_json::Value,
    clock: Option<serde_json::Value>,
    #[serde(default)]
    rated: bool,
    starts_at: Option<i64>,
    max_players: i64,
    #[serde(default)]
    private: bool,
    bye_points: Option<f64>,
    forfeit_after_ms: Option<i64>,
    /// A club-only tournament: only the club's members may join.
    club: Option<String>,
    /// A team tournament: clubs are its entrants, team matches of `boards` its pairings.
    teams: Option<TeamsReq>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TeamsReq {
    boards: i64,
}

/// `POST /api/tournaments` -> `201 {"id", "url", "code"}`.
async fn create(
    State(games): State<Arc<Games>>,
    organiser: Account,
    Json(req): Json<CreateReq>,
) -> ApiResult<Response> {
    let bad = |m: &str| ApiError::bad_request(m);
    let name = clean_name(
        Some(&req.name.chars().take(4 * MAX_NAME).collect::<String>()),
        "",
    );
    let raw_len = req.name.trim().chars().count();
    if name.is_empty() || raw_len > MAX_NAME {
        return Err(bad(&format!(
            "a tournament's name is 1 to {MAX_NAME} characters"
        )));
    }
    // The match format is the tournament's (single games; best of three in a knockout):
    // see `run::game_rules`.
    let terms = Terms::parse(
        TermsIn {
            variant: &req.variant,
            rules: req.rules.as_deref(),
            match_format: None,
            clock: req.clock.as_ref(),
        },
        MatchFormat::SingleGame,
    )?;
    let format: FormatJson = serde_json::from_value(req.format).map_err(|_| {
        bad("format is {\"kind\": \"round_robin\", \"double\": false}, {\"kind\": \"swiss\", \"rounds\": N} or {\"kind\": \"knockout\", \"third_place\": false}")
    })?;
    if !(2..=MAX_PLAYERS).contains(&req.max_players) {
        return Err(bad(&format!("max_players is 2 to {MAX_PLAYERS}")));
    }
    match format {
        FormatJson::Swiss { rounds } if !(1..=MAX_ROUNDS).contains(&rounds) => {
            return Err(bad(&format!("a Swiss has 1 to {MAX_ROUNDS} rounds")))
        }
        FormatJson::RoundRobin { .. } if req.max_players > MAX_ROUND_ROBIN => {
            return Err(bad(&format!(
                "a round robin takes at most {MAX_ROUND_ROBIN} players (everyone meets everyone: use a Swiss for more)"
            )))
        }
        _ => {}
    }
    let Some(clock) = terms.clock else {
        return Err(bad("a tournament needs a clock: {\"initial_ms\": N, \"increment_ms\": M} or {\"days_per_move\": D}"));
    };
    let now = games.clock.now_ms();
    if let Some(s) = req.starts_at {
        if s <= now || s > now + MAX_AHEAD_MS {
            return Err(bad(
                "starts_at is a time in the future (ms since the epoch, within a year), or null for the organiser to start it",
            ));
        }
    }
    let bye = req.bye_points.unwrap_or(1.0);
    let bye_points = if bye == 1.0 {
        "1"
    } else if bye == 0.5 {
        "0.5"
    } else if bye == 0.0 {
        "0"
    } else {
        return Err(bad("bye_points is 1, 0.5 or 0"));
    };
    let team_boards = match &req.teams {
        None => None,
        Some(t) if !TEAM_BOARDS.contains(&t.boards) => {
            return Err(bad(&format!(
                "teams.boards is {} to {}",
                TEAM_BOARDS.start(),
                TEAM_BOARDS.end()
            )))
        }
        Some(_) if req.club.is_some() => {
            return Err(bad(
                "a team tournament is between clubs: it cannot be for one club's members",
            ))
        }
        // A team match's boards have no forfeit time of the tournament's.
        Some(_) if req.forfeit_after_ms.is_some() => {
            return Err(bad("forfeit_after_ms is for tournaments of players"))
        }
        Some(t) => Some(t.boards),
    };
    let forfeit = match (req.forfeit_after_ms, run::live(&clock)) {
        _ if team_boards.is_some() => None,
        (None, true) => Some(DEFAULT_FORFEIT_MS),
        (None, false) => None,
        (Some(ms), true) if FORFEIT_RANGE.contains(&ms) => Some(ms),
        (Some(_), true) => {
            return Err(bad(&format!(
                "forfeit_after_ms is {} to {} (1 s to 1 day)",
                FORFEIT_RANGE.start(),
                FORFEIT_RANGE.end()
            )))
        }
        (Some(_), false) => {
            return Err(bad(
                "forfeit_after_ms is for live (real-time) tournaments; correspondence games have their days per move",
            ))
        }
    };
    if let Some(club) = &req.club {
        club_organiser(&games, club, &organiser.id.0).await?;
    }
    let code = req.private.then(|| util::random_code(8));
    let mut row = TournamentRow {
        id: util::random_code(10),
        name,
        variant: terms.variant().id().to_string(),
        rules: terms.rules_text(),
        format: serde_json::to_string(&format).map_err(ApiError::internal)?,
        clock: serde_json::to_string(&clock).map_err(ApiError::internal)?,
        rated: req.rated,
        status: "open".into(),
        organiser_id: organiser.id.0,
        organiser_name: organiser.username,
        starts_at: req.starts_at,
        max_players: req.max_players,
        players: 0,
        code,
        bye_points: bye_points.into(),
        forfeit_after_ms: forfeit,
        created: now,
        updated: now,
        club: req.club,
        team_boards,
    };
    // Ids are random; a clash only draws again.
    for _ in 0..4 {
        match games.store.create_tournament(&row).await {
            Ok(()) => break,
            Err(crate::store::StoreError::Conflict(_)) => row.id = util::random_code(10),
            Err(e) => return Err(e.into()),
        }
    }
    json(
        StatusCode::CREATED,
        &serde_json::json!({"id": row.id, "url": format!("/t/{}", row.id), "code": row.code}),
    )
}

/// A club-only tournament is made by the club's leaders and admins (docs/api.md, "Clubs").
async fn club_organiser(games: &Games, club: &str, account: &str) -> ApiResult<()> {
    if !games.store.club_exists(club).await? {
        return Err(ApiError::of(Category::NoSuchClub, "there is no such club"));
    }
    let role = games.store.club_role(club, account).await?;
    if !matches!(role.as_deref(), Some("leader" | "admin")) {
        return Err(ApiError::of(
            Category::NotClubLeader,
            "only the club's leaders and admins can make a tournament for its members",
        ));
    }
    Ok(())
}

/// `GET /api/tournaments?status=upcoming|running|finished&limit=N&cursor=C`.
async fn list(
    State(games): State<Arc<Games>>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let (limit, after) = list_page(&q)?;
    let statuses: &[&str] = match q.get("status").map_or("upcoming", String::as_str) {
        "upcoming" => &["open"],
        "running" => &["running", "paused"],
        "finished" => &["finished", "cancelled"],
        _ => {
            return Err(ApiError::bad_request(
                "status is upcoming, running or finished",
            ))
        }
    };
    let rows = games
        .store
        .list_tournaments(statuses, after.as_ref(), limit + 1)
        .await?;
    let more = rows.len() as i64 > limit;
    let page: Vec<&TournamentRow> = rows.iter().take(limit as usize).collect();
    let next = more.then(|| page.last()).flatten().map(|t| {
        ListKey {
            time: t.created,
            id: t.id.clone(),
        }
        .cursor()
    });
    let list: Vec<serde_json::Value> = page.iter().map(|t| state::summary(t)).collect();
    json(
        StatusCode::OK,
        &serde_json::json!({"tournaments": list, "next": next}),
    )
}

/// The pairing state of `l` (none before the start, or if it cannot be built).
fn built(l: &Loaded) -> Option<Built> {
    if l.t.status == "open" || l.players.len() < 2 {
        return None;
    }
    match l.build() {
        Ok(b) => Some(b),
        Err(e) => {
            tracing::warn!("tournament {}: {e}", l.t.id);
            None
        }
    }
}

/// `GET /api/tournaments/{id}`.
async fn detail(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    viewer: MaybeAccount,
) -> ApiResult<Response> {
    let l = loaded(&games, &id).await?;
    let b = built(&l);
    let mut v = state::detail(&l, b.as_ref(), viewer.id());
    // A team tournament: the clubs the viewer may enter or withdraw (its leaders and admins
    // do), for the page's "enter my club".
    if let (Some(_), Some(me)) = (l.t.team_boards, viewer.id()) {
        let clubs: Vec<serde_json::Value> = games
            .store
            .clubs_of(me)
            .await?
            .into_iter()
            .filter(|(_, _, role)| matches!(role.as_str(), "leader" | "admin"))
            .map(|(id, name, _)| {
                let entered = l.players.iter().any(|p| p.account_id == id);
                serde_json::json!({"id": id, "name": name, "entered": entered})
            })
            .collect();
        v["you"]["clubs"] = clubs.into();
    }
    json(StatusCode::OK, &v)
}

#[derive(Deserialize, Default)]
struct JoinReq {
    code: Option<String>,
    /// A team tournament: the club entered (by one of its leaders or admins).
    club: Option<String>,
}

/// The club `req` names for a team tournament, checked: it exists and `acct` leads it or is
/// one of its admins. Its id and name.
async fn entered_club(
    games: &Games,
    club: Option<&str>,
    acct: &str,
) -> ApiResult<(String, String)> {
    let Some(club) = club else {
        return Err(ApiError::bad_request(
            "a team tournament's entrants are clubs: a leader or admin enters one with {\"club\": ID}",
        ));
    };
    let no_club = || ApiError::of(Category::NoSuchClub, "there is no such club");
    let ok_id = club.len() <= 40 && club.bytes().all(|b| b.is_ascii_alphanumeric());
    if !ok_id {
        return Err(no_club());
    }
    let c = games.store.club(club).await?.ok_or_else(no_club)?;
    let role = games.store.club_role(club, acct).await?;
    if !matches!(role.as_deref(), Some("leader" | "admin")) {
        return Err(ApiError::of(
            Category::NotClubLeader,
            "only the club's leaders and admins enter it in a tournament or withdraw it",
        ));
    }
    Ok((c.id, c.name))
}

fn started() -> ApiError {
    ApiError::of(
        Category::Started,
        "the tournament has started: players can no longer join",
    )
}

/// `POST /api/tournaments/{id}/join` `{"code"?}`.
async fn join(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
    JsonOrEmpty(req): JsonOrEmpty<JoinReq>,
) -> ApiResult<Response> {
    me.may_compete()?;
    let (acct, username) = (me.id.0, me.username);
    check_id(&id)?;
    let t = games
        .store
        .tournament(&id)
        .await?
        .ok_or_else(no_such_tournament)?;
    if let Some(code) = &t.code {
        let given = req.code.as_deref().unwrap_or("");
        if !util::same_secret(code, given) {
            return Err(ApiError::of(
                Category::NeedsCode,
                if given.is_empty() {
                    "this tournament is private: joining needs its code"
                } else {
                    "the code is not this tournament's"
                },
            ));
        }
    }
    if t.status != "open" {
        return Err(started());
    }
    if t.team_boards.is_some() {
        return enter_club(&games, &t, &acct, req.club.as_deref()).await;
    }
    if req.club.is_some() {
        return Err(ApiError::bad_request(
            "players join this tournament, not clubs: it is not a team tournament",
        ));
    }
    if let Some(club) = &t.club {
        if games.store.club_role(club, &acct).await?.is_none() {
            return Err(ApiError::of(
                Category::ClubMembersOnly,
                "only the club's members can join this tournament",
            ));
        }
    }
    let now = games.clock.now_ms();
    let shown = games
        .store
        .seat_account(&acct, &t.variant, now)
        .await?
        .map(|a| a.rating);
    let row = PlayerRow {
        account_id: acct,
        username,
        rating: shown.map(|s| s.rating as i64),
        provisional: shown.is_some_and(|s| s.provisional),
        joined: now,
        withdrawn: false,
    };
    match games.store.join_tournament(&id, &row).await? {
        JoinOutcome::Joined => json(StatusCode::OK, &serde_json::json!({"joined": true})),
        JoinOutcome::Already => json(StatusCode::OK, &serde_json::json!({"joined": true})),
        JoinOutcome::Refused => {
            let t = games.store.tournament(&id).await?;
            if t.is_some_and(|t| t.status == "open") {
                Err(ApiError::of(Category::Full, "the tournament is full"))
            } else {
                Err(started())
            }
        }
    }
}

/// Enters a club in team tournament `t` (docs/api.md, "Team tournaments"): once (a club
/// entered already is refused), within the cap (the store's join).
async fn enter_club(
    games: &Games,
    t: &TournamentRow,
    acct: &str,
    club: Option<&str>,
) -> ApiResult<Response> {
    let (club, name) = entered_club(games, club, acct).await?;
    let row = PlayerRow {
        account_id: club,
        username: name,
        rating: None,
        provisional: false,
        joined: games.clock.now_ms(),
        withdrawn: false,
    };
    match games.store.join_tournament(&t.id, &row).await? {
        JoinOutcome::Joined => json(StatusCode::OK, &serde_json::json!({"joined": true})),
        JoinOutcome::Already => Err(ApiError::conflict("the club is entered already")),
        JoinOutcome::Refused => {
            let t = games.store.tournament(&t.id).await?;
            if t.is_some_and(|t| t.status == "open") {
                Err(ApiError::of(Category::Full, "the tournament is full"))
            } else {
                Err(started())
            }
        }
    }
}

/// `POST /api/tournaments/{id}/withdraw` (`{"club"}` for a team tournament, by one of its
/// leaders or admins): before the start the player (club) leaves; after it they are
/// withdrawn (not paired again; a game or match in progress goes on).
async fn withdraw(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
    JsonOrEmpty(req): JsonOrEmpty<JoinReq>,
) -> ApiResult<Response> {
    let l = loaded(&games, &id).await?;
    let who = if l.t.team_boards.is_some() {
        entered_club(&games, req.club.as_deref(), &me.id.0).await?.0
    } else {
        me.id.0
    };
    take_off(&games, &l, &who).await?;
    json(StatusCode::OK, &serde_json::json!({"withdrawn": true}))
}

async fn take_off(games: &Arc<Games>, l: &Loaded, acct: &str) -> ApiResult<()> {
    if !l.players.iter().any(|p| p.account_id == acct) {
        return Err(ApiError::of(
            Category::NotRegistered,
            "that player is not registered in this tournament",
        ));
    }
    let now = games.clock.now_ms();
    match l.t.status.as_str() {
        "open" => {
            if !games.store.leave_tournament(&l.t.id, acct, now).await? {
                // Started meanwhile: withdraw instead.
                games
                    .store
                    .withdraw_from_tournament(&l.t.id, acct, now)
                    .await?;
            }
        }
        "running" | "paused" => {
            games
                .store
                .withdraw_from_tournament(&l.t.id, acct, now)
                .await?;
        }
        _ => return Err(ApiError::of(Category::Over, "the tournament is over")),
    }
    Ok(())
}

/// The tournament, if the request's account organises it.
async fn organised(games: &Games, id: &str, me: &Account) -> ApiResult<Loaded> {
    let l = loaded(games, id).await?;
    if l.t.organiser_id != me.id.0 {
        return Err(ApiError::of(
            Category::NotOrganiser,
            "only the tournament's organiser can do this",
        ));
    }
    Ok(l)
}

fn wrong_status(what: &str, status: &str) -> ApiError {
    ApiError::of(
        Category::WrongStatus,
        format!("the tournament is {status}: it cannot be {what} now"),
    )
}

/// `POST /api/tournaments/{id}/start` (organiser; at least two players).
async fn start(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    let l = organised(&games, &id, &me).await?;
    if l.t.status != "open" {
        return Err(wrong_status("started", &l.t.status));
    }
    if l.players.len() < 2 {
        return Err(ApiError::of(
            Category::TooFewPlayers,
            "a tournament needs at least two players to start",
        ));
    }
    if !run::start(&games, &id).await? {
        return Err(wrong_status("started", "no longer open"));
    }
    ok_status(&games, &id).await
}

async fn ok_status(games: &Games, id: &str) -> ApiResult<Response> {
    let status = games
        .store
        .tournament(id)
        .await?
        .map(|t| t.status)
        .unwrap_or_default();
    json(StatusCode::OK, &serde_json::json!({"status": status}))
}

/// `POST /api/tournaments/{id}/pause` (organiser): no new round is paired until resumed;
/// games in progress go on.
async fn pause(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    organiser_moves(&games, &id, &me, ("running", "paused")).await?;
    ok_status(&games, &id).await
}

/// `POST /api/tournaments/{id}/resume` (organiser).
async fn resume(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    organiser_moves(&games, &id, &me, ("paused", "running")).await?;
    run::advance(&games, &id).await?;
    ok_status(&games, &id).await
}

/// The organiser `me` moves tournament `id` from status `from` to `to`: refused in words when
/// it is not in `from` (exactly once: the store's conditional update).
async fn organiser_moves(
    games: &Games,
    id: &str,
    me: &Account,
    (from, to): (&str, &str),
) -> ApiResult<()> {
    let l = organised(games, id, me).await?;
    if !games
        .store
        .set_tournament_status(id, from, to, games.clock.now_ms())
        .await?
    {
        let done = if to == "paused" { "paused" } else { "resumed" };
        return Err(wrong_status(done, &l.t.status));
    }
    Ok(())
}

#[derive(Deserialize)]
struct RemoveReq {
    username: String,
}

/// `POST /api/tournaments/{id}/remove` `{"username"}` (organiser).
async fn remove(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<RemoveReq>,
) -> ApiResult<Response> {
    let l = organised(&games, &id, &me).await?;
    let p = l
        .players
        .iter()
        .find(|p| p.username.eq_ignore_ascii_case(req.username.trim()))
        .ok_or_else(|| {
            ApiError::of(
                Category::NotRegistered,
                "that player is not registered in this tournament",
            )
        })?;
    take_off(&games, &l, &p.account_id.clone()).await?;
    json(StatusCode::OK, &serde_json::json!({"removed": true}))
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PairReq {
    a: String,
    b: String,
}

/// `POST /api/tournaments/{id}/forbid` `{"a", "b"}` (organiser, Swiss): the two registered
/// players are never paired in the rounds paired from now on (a club, a family).
async fn forbid(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<PairReq>,
) -> ApiResult<Response> {
    set_forbidden(&games, &id, &me, req, true).await
}

/// `POST /api/tournaments/{id}/allow` `{"a", "b"}` (organiser): undoes a `forbid`.
async fn allow(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<PairReq>,
) -> ApiResult<Response> {
    set_forbidden(&games, &id, &me, req, false).await
}

async fn set_forbidden(
    games: &Arc<Games>,
    id: &str,
    me: &Account,
    req: PairReq,
    forbid: bool,
) -> ApiResult<Response> {
    let l = organised(games, id, me).await?;
    if !matches!(l.format, state::FormatJson::Swiss { .. }) {
        return Err(ApiError::bad_request(
            "only a Swiss pairs by score: in a round robin everyone meets everyone, and a \
             knockout follows its bracket",
        ));
    }
    if matches!(l.t.status.as_str(), "finished" | "cancelled") {
        return Err(wrong_status("changed", &l.t.status));
    }
    let find = |name: &str| {
        l.players
            .iter()
            .find(|p| p.username.eq_ignore_ascii_case(name.trim()))
            .map(|p| p.account_id.clone())
            .ok_or_else(|| {
                ApiError::of(
                    Category::NotRegistered,
                    "a player named in the pairing is not registered in this tournament",
                )
            })
    };
    let (a, b) = (find(&req.a)?, find(&req.b)?);
    if a == b {
        return Err(ApiError::bad_request(
            "a forbidden pairing names two different players",
        ));
    }
    games
        .store
        .set_tournament_forbidden(id, &a, &b, forbid)
        .await?;
    json(StatusCode::OK, &serde_json::json!({"forbidden": forbid}))
}

/// `GET /api/tournaments/{id}/standings.csv`.
async fn standings_csv(
    State(games): State<Arc<Games>>,
    Path(id): Path<String>,
) -> ApiResult<Response> {
    let l = loaded(&games, &id).await?;
    let text = match built(&l) {
        Some(b) => bao_tournament::standings::to_csv(&l.standings(&b), &l.bao_players()),
        None => "rank,player,points\r\n".to_string(),
    };
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_static("attachment; filename=\"standings.csv\""),
            ),
        ],
        text,
    )
        .into_response())
}

/// `GET /api/tournaments/{id}/games.txt`: every game played, round by round, as one
/// records file (NOT-6).
async fn games_txt(State(games): State<Arc<Games>>, Path(id): Path<String>) -> ApiResult<Response> {
    let l = loaded(&games, &id).await?;
    let mut out = String::new();
    for g in &l.games {
        let Some(gid) = &g.game_id else { continue };
        let Ok(slot) = games.slot(gid).await else {
            continue;
        };
        let text = games.record(&slot).await?;
        if text.trim().is_empty() {
            continue;
        }
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&text);
    }
    Ok((
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/plain; charset=utf-8"),
        )],
        out,
    )
        .into_response())
}
