//! Team matches (docs/api.md, "Team matches"): club against club on N boards.
//!
//! * Routes: a leader of the home club proposes, a leader of the away club accepts or
//!   declines, each side's leaders and admins name its players in board order before the
//!   start, anyone reads the match (its boards, score and winner, what the viewer may do),
//!   a club's matches, and the records of its finished games.
//! * Running ([`run`]): at `starts_at` a timer on the injected clock starts the match
//!   exactly once across instances (a conditional UPDATE of its status, the boards written
//!   with it) and makes its games; the results come from the games' ends (an observer of
//!   the game core), each counted once. Every change publishes [`Event::TeamMatch`].
//!
//! Who belongs to which club, and with which role, is asked of the store (a feature never
//! imports another).

pub mod run;

use crate::domain::events::Event;
use crate::domain::model::Match;
use crate::edge::account::{Account, MaybeAccount};
use crate::edge::body::{json, Json};
use crate::edge::limit::{limit, Action};
use crate::edge::terms::{Terms, TermsIn};
use crate::error::{ApiError, ApiResult, Category};
use crate::game::observed::{Wake, Wakes};
use crate::game::{Games, Observer};
use crate::store::{LineupRefused, Store, TeamMatchRow};
use crate::util;
use axum::extract::{FromRef, Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::IntoResponse;
use axum::response::Response;
use axum::routing::{get, post};
use axum::Router;
use bao_rules::MatchFormat;
use serde::Deserialize;
use serde_json::{json as j, Value};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, Weak};
use tokio::sync::mpsc;

/// Fewest and most boards of a match.
pub const BOARDS: std::ops::RangeInclusive<i64> = 2..=16;
/// A match starts at most a year ahead.
pub const MAX_AHEAD_MS: i64 = 366 * 24 * 3600 * 1000;

/// The feature's state: the games, and the observer's end of the channel to the task.
pub struct Teams {
    games: Arc<Games>,
    rx: Mutex<Option<mpsc::Receiver<String>>>,
}

impl Teams {
    /// The feature's state (its observer is [`TeamsObserver`], made before the games).
    pub fn new(games: Arc<Games>, observer: &TeamsObserver) -> Arc<Teams> {
        let rx = match observer.rx.lock() {
            Ok(mut g) => g.take(),
            Err(p) => p.into_inner().take(),
        };
        Arc::new(Teams {
            games,
            rx: Mutex::new(rx),
        })
    }

    fn store(&self) -> &Store {
        &self.games.store
    }

    fn now(&self) -> i64 {
        self.games.clock.now_ms()
    }
}

impl FromRef<Arc<Teams>> for Store {
    fn from_ref(t: &Arc<Teams>) -> Store {
        t.games.store.clone()
    }
}

/// Hands the ids of ended games between two accounts to the task (a board's game is one).
pub struct TeamsObserver {
    tx: mpsc::Sender<String>,
    rx: Mutex<Option<mpsc::Receiver<String>>>,
}

impl TeamsObserver {
    /// The observer, before the games exist.
    pub fn new() -> Arc<TeamsObserver> {
        let (tx, rx) = mpsc::channel(1024);
        Arc::new(TeamsObserver {
            tx,
            rx: Mutex::new(Some(rx)),
        })
    }
}

impl Observer for TeamsObserver {
    fn changed(&self, m: &Match) {
        // Quick and never waits: a full channel leaves the result to the sweep.
        if m.finished && !m.read_only && m.accounts.iter().all(Option::is_some) {
            let _ = self.tx.try_send(m.id.clone());
        }
    }
}

/// The routes (docs/api.md, "Team matches").
pub fn routes(t: Arc<Teams>) -> Router {
    Router::new()
        .route(
            "/api/team-matches",
            post(create).layer(limit(Action::Create)),
        )
        .route("/api/team-matches", get(list))
        .route("/api/team-matches/{id}", get(detail))
        .route("/api/team-matches/{id}/records", get(records))
        .route("/api/team-matches/{id}/accept", post(accept))
        .route("/api/team-matches/{id}/decline", post(decline))
        .route("/api/team-matches/{id}/lineup", post(lineup))
        .with_state(t)
}

fn no_such_match() -> ApiError {
    ApiError::not_found("there is no such team match")
}

fn no_such_club() -> ApiError {
    ApiError::of(Category::NoSuchClub, "there is no such club")
}

/// Ids are 10 characters of `[a-z0-9]`: anything else names nothing and is not looked up.
fn valid_id(id: &str) -> bool {
    id.len() == 10
        && id
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CreateReq {
    home: String,
    away: String,
    boards: i64,
    variant: String,
    #[serde(default)]
    rules: Option<String>,
    clock: Value,
    #[serde(default, rename = "match")]
    match_format: Option<String>,
    rated: bool,
    starts_at: i64,
}

/// Whether `account` leads club `club`.
async fn leads(store: &Store, club: &str, account: &str) -> ApiResult<bool> {
    Ok(store.club_role(club, account).await?.as_deref() == Some("leader"))
}

/// `POST /api/team-matches` (a leader of the home club) -> 201 `{"id", "url"}`.
async fn create(
    State(t): State<Arc<Teams>>,
    me: Account,
    Json(req): Json<CreateReq>,
) -> ApiResult<Response> {
    if !BOARDS.contains(&req.boards) {
        return Err(ApiError::bad_request("boards is 2 to 16"));
    }
    let terms = Terms::parse(
        TermsIn {
            variant: &req.variant,
            rules: req.rules.as_deref(),
            match_format: req.match_format.as_deref(),
            clock: Some(&req.clock),
        },
        MatchFormat::SingleGame,
    )?;
    let Some(clock) = terms.clock_text() else {
        return Err(ApiError::bad_request("a team match needs a clock"));
    };
    let now = t.now();
    if req.starts_at <= now || req.starts_at > now + MAX_AHEAD_MS {
        return Err(ApiError::bad_request(
            "starts_at is a time ahead, at most a year (ms since the epoch)",
        ));
    }
    if req.home == req.away {
        return Err(ApiError::bad_request("a club does not play itself"));
    }
    let store = t.store();
    for c in [&req.home, &req.away] {
        if !valid_id(c) || !store.club_exists(c).await? {
            return Err(no_such_club());
        }
    }
    if !leads(store, &req.home, &me.id.0).await? {
        return Err(ApiError::of(
            Category::NotClubLeader,
            "only a leader of the home club proposes a match",
        ));
    }
    let m = TeamMatchRow {
        id: util::random_code(10),
        home: req.home,
        away: req.away,
        boards: req.boards,
        variant: terms.variant().id().to_string(),
        rules: terms.rules_text(),
        match_format: terms.match_text().to_string(),
        clock,
        rated: req.rated,
        starts_at: req.starts_at,
        status: "proposed".into(),
        proposer: me.id.0.clone(),
        created: now,
        tournament: None,
    };
    store.create_team_match(&m).await?;
    json(
        StatusCode::CREATED,
        &j!({"id": m.id, "url": format!("/m/{}", m.id)}),
    )
}

async fn the_match(t: &Teams, id: &str) -> ApiResult<TeamMatchRow> {
    if !valid_id(id) {
        return Err(no_such_match());
    }
    t.store().team_match(id).await?.ok_or_else(no_such_match)
}

/// Accepting or declining: a leader of the away club, while proposed.
async fn answer(t: &Teams, id: &str, me: &Account, to: &str) -> ApiResult<Response> {
    let m = the_match(t, id).await?;
    if !leads(t.store(), &m.away, &me.id.0).await? {
        return Err(ApiError::of(
            Category::NotClubLeader,
            "only a leader of the away club answers a match",
        ));
    }
    if !t
        .store()
        .set_team_match_status(id, "proposed", to, t.now())
        .await?
    {
        return Err(ApiError::conflict("the match was answered already"));
    }
    json(StatusCode::OK, &j!({"status": to}))
}

/// `POST /api/team-matches/{id}/accept`.
async fn accept(
    State(t): State<Arc<Teams>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    answer(&t, &id, &me, "accepted").await
}

/// `POST /api/team-matches/{id}/decline`.
async fn decline(
    State(t): State<Arc<Teams>>,
    Path(id): Path<String>,
    me: Account,
) -> ApiResult<Response> {
    answer(&t, &id, &me, "declined").await
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineupReq {
    players: Vec<String>,
    /// Which side, for an account leading both clubs; else the side it leads.
    #[serde(default)]
    side: Option<String>,
}

/// `POST /api/team-matches/{id}/lineup {"players": [NAME, ...]}` (that side's leaders and
/// admins; members of that club only; before the start) -> 200 `{"side", "players"}`.
async fn lineup(
    State(t): State<Arc<Teams>>,
    Path(id): Path<String>,
    me: Account,
    Json(req): Json<LineupReq>,
) -> ApiResult<Response> {
    let m = the_match(&t, &id).await?;
    let store = t.store();
    let may = |role: Option<String>| matches!(role.as_deref(), Some("leader" | "admin"));
    let home = may(store.club_role(&m.home, &me.id.0).await?);
    let away = may(store.club_role(&m.away, &me.id.0).await?);
    let side = match (req.side.as_deref(), home, away) {
        (Some("home"), true, _) | (None, true, false) => "home",
        (Some("away"), _, true) | (None, false, true) => "away",
        (None, true, true) => {
            return Err(ApiError::bad_request(
                "you lead both clubs: name the side (\"side\": \"home\" or \"away\")",
            ))
        }
        (Some(s), _, _) if s != "home" && s != "away" => {
            return Err(ApiError::bad_request("side is home or away"))
        }
        _ => {
            return Err(ApiError::of(
                Category::NotClubLeader,
                "only the club's leaders and admins name its players",
            ))
        }
    };
    if req.players.len() as i64 > m.boards {
        return Err(ApiError::bad_request(format!(
            "at most {} players, one a board",
            m.boards
        )));
    }
    let club = if side == "home" { &m.home } else { &m.away };
    let mut ids = Vec::new();
    let mut seen = HashSet::new();
    for name in &req.players {
        if name.len() > 100 {
            return Err(ApiError::bad_request("a player's name is too long"));
        }
        let account = store
            .account_by_name(&name.to_ascii_lowercase())
            .await?
            .filter(|_| !name.is_empty());
        let Some(a) = account else {
            return Err(ApiError::of(
                Category::NotClubMember,
                format!("{name} is not a member of the club"),
            ));
        };
        if store.club_role(club, &a.id.0).await?.is_none() {
            return Err(ApiError::of(
                Category::NotClubMember,
                format!("{name} is not a member of the club"),
            ));
        }
        if !seen.insert(a.id.0.clone()) {
            return Err(ApiError::bad_request(format!(
                "{name} is named twice: one board each"
            )));
        }
        ids.push(a.id.0.clone());
    }
    match store.set_team_lineup(&id, side, &ids, t.now()).await? {
        Ok(()) => json(StatusCode::OK, &j!({"side": side, "players": req.players})),
        Err(LineupRefused::Closed) => Err(ApiError::conflict(
            "the lineups are closed: the match started, was declined or its time came",
        )),
        Err(LineupRefused::OnOtherSide) => Err(ApiError::conflict(
            "a player named plays for the other side in this match",
        )),
    }
}

/// Board points of a result for (home, away), in halves.
fn halves(result: Option<&str>) -> (u32, u32) {
    match result {
        Some("home") => (2, 0),
        Some("away") => (0, 2),
        Some("draw") => (1, 1),
        _ => (0, 0),
    }
}

/// `GET /api/team-matches/{id}`.
async fn detail(
    State(t): State<Arc<Teams>>,
    Path(id): Path<String>,
    me: MaybeAccount,
) -> ApiResult<Response> {
    let m = the_match(&t, &id).await?;
    let store = t.store();
    let name_of = |c: &Option<crate::store::ClubRow>, id: &str| j!({"id": id, "name": c.as_ref().map(|c| c.name.clone())});
    let home = store.club(&m.home).await?;
    let away = store.club(&m.away).await?;
    let mut boards: Vec<Value> = Vec::new();
    let (mut h2, mut a2) = (0u32, 0u32);
    let started = matches!(m.status.as_str(), "running" | "finished");
    if started {
        for b in store.team_boards(&id).await? {
            let (h, a) = halves(b.result.as_deref());
            h2 += h;
            a2 += a;
            let result = b.result.filter(|r| r != "none");
            boards.push(j!({"no": b.board, "home": b.home_name, "away": b.away_name,
                            "game": b.game_id, "result": result}));
        }
    } else {
        let lineups = store.team_lineups(&id).await?;
        for no in 1..=m.boards {
            let named = |side: &str| {
                lineups
                    .iter()
                    .find(|l| l.side == side && l.board == no)
                    .map(|l| l.username.clone())
            };
            boards.push(j!({"no": no, "home": named("home"), "away": named("away"),
                            "game": null, "result": null}));
        }
    }
    let points = |h: u32| -> Value {
        if h.is_multiple_of(2) {
            j!(h / 2)
        } else {
            j!(f64::from(h) / 2.0)
        }
    };
    let winner = (m.status == "finished").then(|| match h2.cmp(&a2) {
        std::cmp::Ordering::Greater => "home",
        std::cmp::Ordering::Less => "away",
        std::cmp::Ordering::Equal => "draw",
    });
    let clock: Value = serde_json::from_str(&m.clock).unwrap_or(Value::Null);
    // What the viewer is to the match: their role in each club (who answers, who names the
    // players) and their board, so that the page offers only what the API allows.
    let you = match &me.0 {
        None => Value::Null,
        Some(a) => {
            let mine = boards.iter().find(|b| {
                [&b["home"], &b["away"]].iter().any(|n| {
                    n.as_str()
                        .is_some_and(|n| n.eq_ignore_ascii_case(&a.username))
                })
            });
            let side = mine.map(|b| {
                if b["home"]
                    .as_str()
                    .is_some_and(|n| n.eq_ignore_ascii_case(&a.username))
                {
                    "home"
                } else {
                    "away"
                }
            });
            j!({"home": store.club_role(&m.home, &a.id.0).await?,
                "away": store.club_role(&m.away, &a.id.0).await?,
                "board": mine.map(|b| b["no"].clone()), "side": side,
                "game": mine.map(|b| b["game"].clone())})
        }
    };
    json(
        StatusCode::OK,
        &j!({
            "now": t.now(), "you": you,
            "records": format!("/api/team-matches/{}/records", m.id),
            "id": m.id, "url": format!("/m/{}", m.id),
            "home": name_of(&home, &m.home), "away": name_of(&away, &m.away),
            "status": m.status, "variant": m.variant, "rules": m.rules,
            "match": m.match_format, "clock": clock, "rated": m.rated,
            "starts_at": m.starts_at, "boards": boards,
            "score": {"home": points(h2), "away": points(a2)}, "winner": winner,
        }),
    )
}

#[derive(Deserialize)]
struct ListQuery {
    club: Option<String>,
}

/// Matches a club's page lists at most.
pub const LIST_MAX: i64 = 50;

/// `GET /api/team-matches?club=ID`: the club's matches, running, coming, then past.
async fn list(State(t): State<Arc<Teams>>, Query(q): Query<ListQuery>) -> ApiResult<Response> {
    let Some(club) = q.club.filter(|c| valid_id(c)) else {
        return Err(ApiError::bad_request("club= names the club (its id)"));
    };
    let store = t.store();
    // A dissolved club's past matches are still listed.
    if store.club(&club).await?.is_none() {
        return Err(no_such_club());
    }
    let mut names: HashMap<String, Option<String>> = HashMap::new();
    let mut out = Vec::new();
    for m in store.club_team_matches(&club, LIST_MAX).await? {
        for c in [&m.home, &m.away] {
            if !names.contains_key(c) {
                names.insert(c.clone(), store.club(c).await?.map(|c| c.name));
            }
        }
        let (mut h2, mut a2) = (0u32, 0u32);
        if matches!(m.status.as_str(), "running" | "finished") {
            for b in store.team_boards(&m.id).await? {
                let (h, a) = halves(b.result.as_deref());
                h2 += h;
                a2 += a;
            }
        }
        let side = |c: &String| j!({"id": c, "name": names[c]});
        out.push(j!({
            "id": m.id, "url": format!("/m/{}", m.id), "status": m.status,
            "home": side(&m.home), "away": side(&m.away), "boards": m.boards,
            "variant": m.variant, "starts_at": m.starts_at,
            "score": {"home": f64::from(h2) / 2.0, "away": f64::from(a2) / 2.0},
        }));
    }
    json(StatusCode::OK, &j!({"matches": out}))
}

/// `GET /api/team-matches/{id}/records`: the match's finished games, board by board, as one
/// records file (NOT-6).
async fn records(State(t): State<Arc<Teams>>, Path(id): Path<String>) -> ApiResult<Response> {
    let m = the_match(&t, &id).await?;
    let games = &t.games;
    let mut out = String::new();
    for b in games.store.team_boards(&m.id).await? {
        let (Some(gid), Some(_)) = (&b.game_id, &b.result) else {
            continue;
        };
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
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&format!("attachment; filename=\"team-match-{id}.txt\""))
                    .map_err(ApiError::internal)?,
            ),
        ],
        out,
    )
        .into_response())
}

/// Starts the task (ends when the games are dropped): a game ended on this instance (its
/// board's result), [`Event::TeamMatch`] from any instance (the match's start time read
/// again), a start time come (the match started), and the safety sweep.
pub fn spawn(t: &Arc<Teams>) -> tokio::task::JoinHandle<()> {
    let rx = match t.rx.lock() {
        Ok(mut g) => g.take(),
        Err(p) => p.into_inner().take(),
    };
    let weak: Weak<Games> = Arc::downgrade(&t.games);
    let mut wakes = Wakes::new(rx, &t.games);
    tokio::spawn(async move {
        let mut timers: HashMap<String, i64> = HashMap::new();
        {
            let Some(games) = weak.upgrade() else { return };
            read_all(&games, &mut timers).await;
        }
        while let Some(wake) = wakes.next(timers.values().copied().min()).await {
            let Some(games) = weak.upgrade() else { return };
            match wake {
                Wake::Ended(game) => {
                    if let Err(e) = run::game_ended(&games, &game).await {
                        tracing::warn!("team match game {game}: {}", e.message);
                    }
                }
                Wake::News(d) => {
                    let Event::TeamMatch { id } = &d.event else {
                        continue;
                    };
                    match games.store.team_match(id).await {
                        Ok(Some(m)) if m.status == "accepted" => {
                            timers.insert(id.clone(), m.starts_at);
                        }
                        Ok(_) => {
                            timers.remove(id);
                        }
                        Err(e) => tracing::warn!("team match {id}: {e}"),
                    }
                }
                Wake::Missed => read_all(&games, &mut timers).await,
                Wake::Due => {
                    let now = games.clock.now_ms();
                    let due: Vec<String> = timers
                        .iter()
                        .filter(|(_, at)| **at <= now)
                        .map(|(id, _)| id.clone())
                        .collect();
                    for id in due {
                        timers.remove(&id);
                        if let Err(e) = run::start(&games, &id).await {
                            tracing::warn!("team match {id} not started: {}", e.message);
                        }
                    }
                }
                Wake::Sweep => {
                    run::sweep(&games).await;
                    read_all(&games, &mut timers).await;
                }
            }
        }
    })
}

/// Every accepted match's start time, read again.
async fn read_all(games: &Games, timers: &mut HashMap<String, i64>) {
    match games.store.team_matches_accepted().await {
        Ok(all) => *timers = all.into_iter().collect(),
        Err(e) => tracing::warn!("team matches: {e}"),
    }
}
