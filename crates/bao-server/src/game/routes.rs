//! The game's HTTP routes (docs/api.md): create a game, the game list, a game's state, join,
//! move, resign, its record; uploading a record; and the game's WebSocket.

use super::seat::{cookie, Seat};
use super::{Games, NewGame};
use crate::domain::names::clean_name;
use crate::domain::record::parse_records;
use crate::edge::account::MaybeAccount;
use crate::edge::body::{body_bytes, json, json_text, Json, MAX_RECORD};
use crate::edge::limit::{limit, Action};
use crate::edge::terms::{Terms, TermsIn};
use crate::error::{ApiError, ApiResult, Category};
use crate::store::{ListKey, ListStatus};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use bao_rules::{MatchFormat, Position, Side};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;

/// Games per page of `GET /api/games` unless `limit` says otherwise.
pub const LIST_DEFAULT: i64 = 50;
/// Most games per page.
pub const LIST_MAX: i64 = 200;

/// The game's routes.
pub fn routes(games: Arc<Games>) -> Router {
    Router::new()
        .route(
            "/api/games",
            post(create).layer(limit(Action::Create)).get(list),
        )
        .route("/api/games/{id}", get(game_state))
        .route(
            "/api/games/{id}/join",
            post(join).layer(limit(Action::Join)),
        )
        .route(
            "/api/games/{id}/moves",
            post(make_move).layer(limit(Action::Move)),
        )
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/record", get(record))
        .route("/api/games/{id}/ws", get(super::ws::upgrade))
        // A record file is not JSON: its own limit.
        .route(
            "/api/records",
            post(upload_record)
                .layer(DefaultBodyLimit::max(MAX_RECORD))
                .layer(limit(Action::Upload)),
        )
        .with_state(games)
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Opponent {
    Computer {
        level: Option<u8>,
    },
    Human,
    /// Pass and play: the creator plays both sides.
    Local {
        name: Option<String>,
    },
}

#[derive(Deserialize)]
struct CreateReq {
    variant: String,
    rules: Option<String>,
    opponent: Opponent,
    side: Option<String>,
    #[serde(rename = "match")]
    match_format: Option<String>,
    start: Option<String>,
    name: Option<String>,
    clock: Option<serde_json::Value>,
    rated: Option<bool>,
}

fn rated_not_allowed(why: &str) -> ApiError {
    ApiError::of(Category::RatedNotAllowed, format!("a rated game is {why}"))
}

async fn create(
    State(games): State<Arc<Games>>,
    account: MaybeAccount,
    Json(req): Json<CreateReq>,
) -> ApiResult<Response> {
    let rated = req.rated.unwrap_or(false);
    if rated {
        // Ratings compare people playing online from the usual start (docs/api.md, "Ratings").
        if !matches!(req.opponent, Opponent::Human) {
            return Err(rated_not_allowed(
                "played against a person online: not against the computer, not pass and play",
            ));
        }
        if req.start.as_deref().is_some_and(|s| !s.trim().is_empty()) {
            return Err(rated_not_allowed(
                "played from the usual start position, not from a set-up one",
            ));
        }
    }
    if rated {
        account.required_for("a rated game")?;
    }
    // Left out, the match is the rules' `match` option, best of three by default (BRD-8).
    let Terms { rules, clock } = Terms::parse(
        TermsIn {
            variant: &req.variant,
            rules: req.rules.as_deref(),
            match_format: req.match_format.as_deref(),
            clock: req.clock.as_ref(),
        },
        MatchFormat::BestOfThree,
    )?;
    let variant = rules.variant;
    let start = match req
        .start
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => Position::start(&rules),
        Some(s) => {
            let bad = |m: String| ApiError::of(Category::BadPosition, m);
            let v = Position::variant_of(s).map_err(|e| bad(e.to_string()))?;
            if v != variant {
                return Err(bad(format!(
                    "the start position is {v}, but the game is {variant}"
                )));
            }
            Position::parse(s, &rules).map_err(|e| bad(e.to_string()))?
        }
    };
    let local = match &req.opponent {
        Opponent::Local { name } => Some(clean_name(name.as_deref(), "Player 2")),
        _ => None,
    };
    let computer = match req.opponent {
        Opponent::Human | Opponent::Local { .. } => None,
        Opponent::Computer { level } => {
            let l = level.unwrap_or(bao_engine::MIN_LEVEL);
            if !(bao_engine::MIN_LEVEL..=bao_engine::MAX_LEVEL).contains(&l) {
                return Err(ApiError::bad_request(format!(
                    "the computer's level is {} to {}",
                    bao_engine::MIN_LEVEL,
                    bao_engine::MAX_LEVEL
                )));
            }
            Some(l)
        }
    };
    let side = match req.side.as_deref().unwrap_or("random") {
        "S" => Side::South,
        "N" => Side::North,
        "random" => {
            if rand::random::<bool>() {
                Side::South
            } else {
                Side::North
            }
        }
        _ => {
            return Err(ApiError::bad_request(
                "side must be \"S\", \"N\" or \"random\"",
            ))
        }
    };
    let name = clean_name(req.name.as_deref(), "Player");
    let created = games
        .create(NewGame {
            rules,
            start,
            computer,
            side,
            name,
            clock,
            local,
            rated,
            account: account.id().map(str::to_string),
        })
        .await?;
    let c = cookie(&created.id, &created.token);
    let mut resp = json(StatusCode::CREATED, &created)?;
    resp.headers_mut().insert(header::SET_COOKIE, c);
    Ok(resp)
}

#[derive(Deserialize)]
struct JoinReq {
    invite: String,
    name: Option<String>,
}

async fn join(
    State(games): State<Arc<Games>>,
    seat: Seat,
    account: MaybeAccount,
    Json(req): Json<JoinReq>,
) -> ApiResult<Response> {
    let name = clean_name(req.name.as_deref(), "Guest");
    let account = account.id().map(str::to_string);
    let (side, token) = games.join(&seat, &req.invite, name, account).await?;
    let mut resp = json_text(
        StatusCode::OK,
        serde_json::json!({"seat": side, "token": token}).to_string(),
    );
    resp.headers_mut()
        .insert(header::SET_COOKIE, cookie(&seat.id, &token));
    Ok(resp)
}

async fn game_state(
    State(games): State<Arc<Games>>,
    seat: Seat,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let game_no: Option<u32> = match q.get("game_no") {
        None => None,
        Some(s) => Some(
            s.parse()
                .map_err(|_| ApiError::bad_request("game_no is a game number: 1, 2, ..."))?,
        ),
    };
    let text = match game_no {
        Some(n) => games.past_state(&seat, n).await?,
        None => games.state(&seat).await?,
    };
    Ok(json_text(StatusCode::OK, text))
}

#[derive(Deserialize)]
struct MoveReq {
    #[serde(rename = "move")]
    mv: String,
    ply: Option<u32>,
}

async fn make_move(
    State(games): State<Arc<Games>>,
    // Unknown games answer 404 before the body is judged.
    seat: Seat,
    Json(req): Json<MoveReq>,
) -> ApiResult<Response> {
    let ev = games
        .play(&seat.slot, seat.player, &req.mv, req.ply)
        .await?;
    json(StatusCode::OK, &ev)
}

/// `POST /api/games/{id}/resign` (and a takeback): both fields are required, so the request
/// can only act on the game and position the player saw.
#[derive(Deserialize)]
pub struct GamePly {
    /// The number of the game in the match.
    pub game_no: Option<u32>,
    /// The ply of the position the request was made in.
    pub ply: Option<u32>,
}

impl GamePly {
    /// Both fields, or a refusal naming the one missing for `what` ("a resignation").
    pub fn required(self, what: &str) -> ApiResult<(u32, u32)> {
        let game_no = self.game_no.ok_or_else(|| {
            ApiError::bad_request(format!(
                "{what} needs \"game_no\": the number of the game in the match"
            ))
        })?;
        let ply = self.ply.ok_or_else(|| {
            ApiError::bad_request(format!(
                "{what} needs \"ply\": the ply of the position it was made in"
            ))
        })?;
        Ok((game_no, ply))
    }
}

async fn resign(
    State(games): State<Arc<Games>>,
    seat: Seat,
    Json(req): Json<GamePly>,
) -> ApiResult<Response> {
    let (game_no, ply) = req.required("a resignation")?;
    let text = games.resign(&seat.slot, seat.player, game_no, ply).await?;
    Ok(json_text(StatusCode::OK, text))
}

/// A page of a game list from its query: `limit` (1 to [`LIST_MAX`], [`LIST_DEFAULT`] when
/// absent) and `cursor` (the `next` of the page before), refused in words when malformed.
pub fn list_page(q: &HashMap<String, String>) -> ApiResult<(i64, Option<ListKey>)> {
    let limit = match q.get("limit") {
        None => LIST_DEFAULT,
        Some(s) => match s.parse::<i64>() {
            Ok(n) if (1..=LIST_MAX).contains(&n) => n,
            _ => {
                return Err(ApiError::bad_request(format!(
                    "limit is a number of games from 1 to {LIST_MAX}"
                )))
            }
        },
    };
    let after = match q.get("cursor").filter(|c| !c.is_empty()) {
        None => None,
        Some(c) => Some(ListKey::parse(c).ok_or_else(|| {
            ApiError::bad_request("cursor is not one this server gave (use the list's \"next\")")
        })?),
    };
    Ok((limit, after))
}

/// `GET /api/games?status=live|finished&limit=N&cursor=C` -> `{"games": [...], "next": C|null}`.
async fn list(
    State(games): State<Arc<Games>>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    let status = match q.get("status").map(String::as_str) {
        None | Some("live") => ListStatus::Live,
        Some("finished") => ListStatus::Finished,
        Some(_) => return Err(ApiError::bad_request("status is live or finished")),
    };
    let (limit, after) = list_page(&q)?;
    let since = games.clock.now_ms() - games.lifecycle.live_window.as_millis() as i64;
    let (list, next) = games
        .store
        .list(status, since, after.as_ref(), limit)
        .await?;
    let body = serde_json::json!({"games": list, "next": next.map(|k| k.cursor())});
    Ok(json_text(StatusCode::OK, body.to_string()))
}

async fn record(State(games): State<Arc<Games>>, seat: Seat) -> ApiResult<Response> {
    let text = games.record(&seat.slot).await?;
    let id = seat.id;
    Ok((
        StatusCode::OK,
        [
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("text/plain; charset=utf-8"),
            ),
            (
                header::CONTENT_DISPOSITION,
                HeaderValue::from_str(&format!("attachment; filename=\"bao-{id}.txt\""))
                    .unwrap_or_else(|_| HeaderValue::from_static("attachment")),
            ),
        ],
        text,
    )
        .into_response())
}

async fn upload_record(
    State(games): State<Arc<Games>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let bytes = body_bytes(body, MAX_RECORD)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| ApiError::bad_request(format!("a record file is UTF-8 text: {e}")))?;
    let recs = parse_records(text)?;
    let id = games.create_from_records(recs).await?;
    Ok(json_text(
        StatusCode::CREATED,
        serde_json::json!({"id": id, "url": format!("/g/{id}")}).to_string(),
    ))
}
