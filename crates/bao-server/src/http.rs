//! The HTTP routes (docs/api.md): pages from the embedded web app and the JSON API.

use crate::app::{clean_name, parse_variant, App, NewGame};
use crate::error::{ApiError, ApiResult};
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use bao_rules::{option_values, MatchFormat, Position, Rules, Side, Variant};
use serde::Deserialize;
use std::collections::HashMap;
use std::sync::Arc;

/// Largest JSON body accepted.
pub const MAX_JSON: usize = 64 * 1024;
/// Largest record file accepted.
pub const MAX_RECORD: usize = 1024 * 1024;

/// Every route.
pub fn router(app: Arc<App>) -> Router {
    let api = Router::new()
        .route("/api/health", get(health))
        .route("/api/variants", get(variants))
        .route("/api/games", post(create).get(list))
        .route("/api/games/{id}", get(game_state))
        .route("/api/games/{id}/join", post(join))
        .route("/api/games/{id}/moves", post(make_move))
        .route("/api/games/{id}/resign", post(resign))
        .route("/api/games/{id}/record", get(record))
        .route(
            "/api/games/{id}/review",
            post(crate::review::routes::submit).get(crate::review::routes::status),
        )
        .route("/api/games/{id}/rematch", post(rematch))
        .route("/api/games/{id}/takeback", post(takeback))
        .route("/api/games/{id}/hint", get(hint))
        .route("/api/games/{id}/ws", get(crate::ws::upgrade))
        .route("/api/lobby/ws", get(crate::lobby::upgrade))
        .route("/api/render/svg", get(render_svg))
        .route("/api/games/mine", post(mine))
        .layer(DefaultBodyLimit::max(MAX_JSON));
    let records = Router::new()
        .route("/api/records", post(upload_record))
        .layer(DefaultBodyLimit::max(MAX_RECORD));
    Router::new()
        .merge(api)
        .merge(records)
        .merge(crate::puzzles::routes().layer(DefaultBodyLimit::max(MAX_JSON)))
        .merge(crate::assets::pages())
        .fallback(not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(app)
}

async fn method_not_allowed() -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "method_not_allowed",
        "this address does not take this method",
    )
}

async fn not_found() -> ApiError {
    ApiError::not_found("there is nothing at this address")
}

/// The body as JSON of type T; refusals in the contract's form.
pub(crate) fn json_body<T: serde::de::DeserializeOwned>(
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<T> {
    let bytes = body_bytes(body, MAX_JSON)?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::bad_request(format!(
            "the request body is not valid JSON for this call: {e}"
        ))
    })
}

fn body_bytes(body: Result<Bytes, BytesRejection>, max: usize) -> ApiResult<Bytes> {
    match body {
        Ok(b) => Ok(b),
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::too_large(format!(
            "the request body is larger than {} KiB",
            max / 1024
        ))),
        Err(e) => Err(ApiError::bad_request(format!(
            "the request body could not be read: {e}"
        ))),
    }
}

/// The seat token: `Authorization: Bearer`, else the cookie `bao_{id}`.
pub fn token_from(headers: &HeaderMap, id: &str) -> Option<String> {
    if let Some(v) = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
    {
        if let Some(t) = v.strip_prefix("Bearer ") {
            return Some(t.trim().to_string());
        }
    }
    let name = format!("bao_{id}");
    for v in headers.get_all(header::COOKIE) {
        let Ok(s) = v.to_str() else { continue };
        for part in s.split(';') {
            if let Some((k, val)) = part.trim().split_once('=') {
                if k == name {
                    return Some(val.trim().to_string());
                }
            }
        }
    }
    None
}

fn cookie(id: &str, token: &str) -> HeaderValue {
    // Ids and tokens are [a-z0-9]; the header is always valid.
    HeaderValue::from_str(&format!(
        "bao_{id}={token}; HttpOnly; SameSite=Lax; Path=/; Max-Age=31536000"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static(""))
}

fn json_text(status: StatusCode, text: String) -> Response {
    (
        status,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        )],
        text,
    )
        .into_response()
}

/// The body of a healthy `GET /api/health`: the engine pool's and the reviews' load
/// besides `ok` (issue 13.2).
#[derive(serde::Serialize)]
struct Health {
    ok: bool,
    engine: crate::engine_pool::EngineStats,
    reviews: crate::review::ReviewLoad,
}

/// Answers only when the database does (a load balancer's check, issue 9.6), with what
/// the engine is doing.
async fn health(State(app): State<Arc<App>>) -> Response {
    let ping = tokio::time::timeout(std::time::Duration::from_secs(5), app.store.ping()).await;
    match ping {
        Ok(Ok(())) => (
            StatusCode::OK,
            axum::Json(Health {
                ok: true,
                engine: app.engine.stats(),
                reviews: app.review.load(),
            }),
        )
            .into_response(),
        failed => {
            let why = match failed {
                Ok(Err(e)) => e.to_string(),
                _ => "no answer within 5 s".into(),
            };
            tracing::warn!("health check: the database does not answer: {why}");
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "unavailable",
                "the database does not answer; try again in a moment",
            )
            .into_response()
        }
    }
}

/// One sentence per option, for the home page.
fn option_help(name: &str) -> &'static str {
    match name {
        "house_lost_at" => "When a player loses his house (nyumba): once it is emptied or captured, at his first mtaji capture, or at the end of namua.",
        "house_functional_min" => "How many seeds the house needs to keep its special powers (6 in Zanzibar; 5 in some regions).",
        "lone_house_tax" => "In namua, when the house is a player's only occupied front pit: take two seeds from it while it is functional, or keep at least the minimum in it.",
        "namua_singletons" => "In namua, whether a pit with one seed may be played while the house is functional, or while it is merely owned.",
        "mtaji_house_stop" => "Whether a mtaji capture that ends in the owned house may stop there instead of playing it (safari).",
        "takasia" => "Takasia: after a non-capturing move that threatens one single pit, that pit is blocked for the opponent's next move.",
        "takasia_excludes_singletons" => "Whether a pit holding a single seed can be blocked by takasia.",
        "takasia_house_protection" => "Which house takasia cannot block: a house still owned, or only a functional one (6 or more seeds).",
        "takasia_house_first_lap_exception" => "When a blocked player plays his owned house and its first lap ends in the blocked pit, the move carries on instead of stopping there (KIS-8.7).",
        "blocker_must_capture" => "Whether the blocker must capture the pit he reserved by takasia: not at all, with his first capture, or with any capture.",
        "first_takasa_from_kuu" => "Kete: the first non-capturing mtaji move must start from the kuu (house).",
        "front_row_empty" => "An empty front row loses at the end of the move, or a move that empties one's own front row is illegal.",
        "never_ending" => "A move that would never end is illegal, a draw, or a loss for the mover.",
        "repetition" => "Whether the third occurrence of the same position draws the game.",
        "max_plies" => "A draw after this many moves (none: no limit).",
        "match" => "A match is a single game, or best of three with the sides changing after every game.",
        "intro_pits" => "Kimasai: into which pits a new cow may be brought, any non-empty pit or only front pits.",
        "no_intro" => "Kimasai: which first moves are made without bringing in a cow.",
        "capture_compulsory" => "Kimasai: whether a capturing move must be chosen when there is one.",
        _ => "",
    }
}

async fn variants() -> Response {
    let list: Vec<serde_json::Value> = Variant::ALL
        .iter()
        .map(|&v| {
            let rules = Rules::new(v);
            let options: Vec<serde_json::Value> = Rules::option_names(v)
                .map(|n| {
                    let values: Vec<String> =
                        option_values(n).split(", ").map(str::to_string).collect();
                    serde_json::json!({
                        "name": n,
                        "values": values,
                        "default": rules.get(n),
                        "help": option_help(n),
                    })
                })
                .collect();
            serde_json::json!({
                "id": v.id(),
                "title": v.title(),
                "start": Position::start(&rules).to_string(),
                "options": options,
            })
        })
        .collect();
    json_text(StatusCode::OK, serde_json::Value::from(list).to_string())
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum Opponent {
    Computer {
        level: Option<u8>,
    },
    Human,
    /// Pass and play (issue 11.4): the creator plays both sides.
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
}

async fn create(
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: CreateReq = json_body(body)?;
    let variant = parse_variant(&req.variant)?;
    let mut rules = Rules::parse(variant, req.rules.as_deref().unwrap_or("-"))
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, "bad_rules", e.to_string()))?;
    if let Some(f) = &req.match_format {
        rules.match_format = MatchFormat::parse(f).ok_or_else(|| {
            ApiError::bad_request("match must be \"single_game\" or \"best_of_three\"")
        })?;
    }
    let start = match req
        .start
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        None => Position::start(&rules),
        Some(s) => {
            let bad = |m: String| ApiError::new(StatusCode::BAD_REQUEST, "bad_position", m);
            let v = Position::variant_of(s).map_err(|e| bad(e.to_string()))?;
            if v != variant {
                return Err(bad(format!(
                    "the start position is {v}, but the game is {variant}"
                )));
            }
            Position::parse(s, &rules).map_err(|e| bad(e.to_string()))?
        }
    };
    // Read apart from the body so that a bad clock gets its own clear message.
    let clock = match req.clock {
        None | Some(serde_json::Value::Null) => None,
        Some(v) => {
            let c: crate::model::TimeControl = serde_json::from_value(v).map_err(|_| {
                ApiError::bad_request(
                    "clock is {\"initial_ms\": N, \"increment_ms\": M} (real time, milliseconds) or {\"days_per_move\": D} (correspondence)",
                )
            })?;
            crate::play::check_clock(&c)?;
            Some(c)
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
    let created = app
        .create(NewGame {
            rules,
            start,
            computer,
            side,
            name,
            clock,
            local,
        })
        .await?;
    let c = cookie(&created.id, &created.token);
    let body = serde_json::to_string(&created).map_err(ApiError::internal)?;
    let mut resp = json_text(StatusCode::CREATED, body);
    resp.headers_mut().insert(header::SET_COOKIE, c);
    Ok(resp)
}

#[derive(Deserialize)]
struct JoinReq {
    invite: String,
    name: Option<String>,
}

async fn join(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: JoinReq = json_body(body)?;
    let current = token_from(&headers, &id);
    let name = clean_name(req.name.as_deref(), "Guest");
    let (seat, token) = app
        .join(&id, &req.invite, Some(name), current.as_deref())
        .await?;
    let mut resp = json_text(
        StatusCode::OK,
        serde_json::json!({"seat": seat, "token": token}).to_string(),
    );
    resp.headers_mut()
        .insert(header::SET_COOKIE, cookie(&id, &token));
    Ok(resp)
}

#[derive(Deserialize)]
struct StateQuery {
    game_no: Option<u32>,
}

async fn game_state(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let token = token_from(&headers, &id);
    let q = StateQuery {
        game_no: match q.get("game_no") {
            None => None,
            Some(s) => Some(
                s.parse()
                    .map_err(|_| ApiError::bad_request("game_no is a game number: 1, 2, ..."))?,
            ),
        },
    };
    let text = match q.game_no {
        Some(n) => app.past_state(&id, n, token.as_deref()).await?,
        None => app.state(&id, token.as_deref()).await?,
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
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    // Unknown games answer 404 before the body is judged.
    let slot = app.slot(&id).await?;
    let player = {
        let m = slot.m.lock().await;
        App::auth(&m, token_from(&headers, &id).as_deref())
    };
    let req: MoveReq = json_body(body)?;
    let ev = app.play(&id, player, &req.mv, req.ply).await?;
    Ok(json_text(
        StatusCode::OK,
        serde_json::to_string(&ev).map_err(ApiError::internal)?,
    ))
}

/// `POST /api/games/{id}/resign`: both fields are required, so a resignation can only act
/// on the game and position the player saw.
#[derive(Deserialize)]
struct ResignReq {
    game_no: Option<u32>,
    ply: Option<u32>,
}

async fn resign(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let slot = app.slot(&id).await?;
    let player = {
        let m = slot.m.lock().await;
        App::auth(&m, token_from(&headers, &id).as_deref())
    };
    drop(slot);
    let req: ResignReq = json_body(body)?;
    let game_no = req.game_no.ok_or_else(|| {
        ApiError::bad_request(
            "a resignation needs \"game_no\": the number of the game in the match",
        )
    })?;
    let ply = req.ply.ok_or_else(|| {
        ApiError::bad_request("a resignation needs \"ply\": the ply of the position it was made in")
    })?;
    let text = app.resign(&id, player, game_no, ply).await?;
    Ok(json_text(StatusCode::OK, text))
}

/// The seat holder of game `id` named by the request's token (or `None`), and the token.
async fn player_of(
    app: &App,
    id: &str,
    headers: &HeaderMap,
) -> ApiResult<(Option<usize>, Option<String>)> {
    let slot = app.slot(id).await?;
    let token = token_from(headers, id);
    let m = slot.m.lock().await;
    Ok((App::auth(&m, token.as_deref()), token))
}

/// `POST /api/games/{id}/rematch` -> `{"id": NEW}` (issue 11.3); the caller's seat cookie
/// for the new game comes with it (the seat token stays the same).
async fn rematch(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (player, token) = player_of(&app, &id, &headers).await?;
    let new = app.rematch(&id, player).await?;
    let mut resp = json_text(
        StatusCode::OK,
        serde_json::json!({"id": new, "url": format!("/g/{new}")}).to_string(),
    );
    if let Some(t) = token {
        resp.headers_mut()
            .insert(header::SET_COOKIE, cookie(&new, &t));
    }
    Ok(resp)
}

/// `POST /api/games/{id}/takeback` with `{"game_no", "ply"}` like a resignation (issue 11.5).
async fn takeback(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let (player, _) = player_of(&app, &id, &headers).await?;
    let req: ResignReq = json_body(body)?;
    let game_no = req.game_no.ok_or_else(|| {
        ApiError::bad_request("a takeback needs \"game_no\": the number of the game in the match")
    })?;
    let ply = req.ply.ok_or_else(|| {
        ApiError::bad_request("a takeback needs \"ply\": the ply of the position it was asked in")
    })?;
    let text = app.takeback(&id, player, game_no, ply).await?;
    Ok(json_text(StatusCode::OK, text))
}

/// `GET /api/games/{id}/hint` -> `{"move": M, "score": S}` (issue 11.5).
async fn hint(
    State(app): State<Arc<App>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let token = token_from(&headers, &id);
    let h = app.hint(&id, token.as_deref()).await?;
    Ok(json_text(
        StatusCode::OK,
        serde_json::to_string(&h).map_err(ApiError::internal)?,
    ))
}

/// Games per page of `GET /api/games` unless `limit` says otherwise.
pub const LIST_DEFAULT: i64 = 50;
/// Most games per page.
pub const LIST_MAX: i64 = 200;

/// `GET /api/games?status=live|finished&limit=N&cursor=C` -> `{"games": [...], "next": C|null}`.
async fn list(
    State(app): State<Arc<App>>,
    Query(q): Query<HashMap<String, String>>,
) -> ApiResult<Response> {
    use crate::store::{ListKey, ListStatus};
    let status = match q.get("status").map(String::as_str) {
        None | Some("live") => ListStatus::Live,
        Some("finished") => ListStatus::Finished,
        Some(_) => return Err(ApiError::bad_request("status is live or finished")),
    };
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
    let since = crate::util::now_ms() - app.lifecycle.live_window.as_millis() as i64;
    let (games, next) = app.store.list(status, since, after.as_ref(), limit).await?;
    let body = serde_json::json!({"games": games, "next": next.map(|k| k.cursor())});
    Ok(json_text(StatusCode::OK, body.to_string()))
}

async fn record(State(app): State<Arc<App>>, Path(id): Path<String>) -> ApiResult<Response> {
    let text = app.record(&id).await?;
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
    State(app): State<Arc<App>>,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let bytes = body_bytes(body, MAX_RECORD)?;
    let text = std::str::from_utf8(&bytes)
        .map_err(|e| ApiError::bad_request(format!("a record file is UTF-8 text: {e}")))?;
    let recs = crate::record::parse_records(text)
        .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.category, e.to_string()))?;
    let id = app.create_from_records(recs).await?;
    Ok(json_text(
        StatusCode::CREATED,
        serde_json::json!({"id": id, "url": format!("/g/{id}")}).to_string(),
    ))
}

async fn render_svg(Query(q): Query<HashMap<String, String>>) -> ApiResult<Response> {
    let text = q
        .get("position")
        .ok_or_else(|| ApiError::bad_request("position is required"))?;
    let bad = |cat: &'static str, m: String| ApiError::new(StatusCode::BAD_REQUEST, cat, m);
    let variant = Position::variant_of(text).map_err(|e| bad("bad_position", e.to_string()))?;
    let rules = Rules::parse(variant, q.get("rules").map_or("-", String::as_str))
        .map_err(|e| bad("bad_rules", e.to_string()))?;
    let pos = Position::parse(text, &rules).map_err(|e| bad("bad_position", e.to_string()))?;
    let mut opts = bao_render::SvgOptions {
        size: None,
        // Decided under the rules asked for (a ply cap ends a game the defaults would not).
        over: Some(bao_rules::status(&pos, &rules).is_over()),
        // The words in the picture: the page's language (issue 10), English by default.
        lang: match q.get("lang").map(String::as_str) {
            None | Some("") => bao_render::Lang::En,
            Some(code) => bao_render::Lang::from_code(code).ok_or_else(|| {
                ApiError::bad_request(format!(
                    "lang must be en or sw, not '{}'",
                    bao_rules::printable(code)
                ))
            })?,
        },
        ..Default::default()
    };
    if let Some(last) = q.get("last").filter(|s| !s.is_empty()) {
        opts.last_move = Some(
            bao_render::LastMove::parse(last, pos.side().other()).ok_or_else(|| {
                bad(
                    "bad_move",
                    format!("'{}' is not a move", bao_rules::printable(last)),
                )
            })?,
        );
    }
    Ok((
        StatusCode::OK,
        [(
            header::CONTENT_TYPE,
            HeaderValue::from_static("image/svg+xml"),
        )],
        bao_render::svg(&pos, &opts),
    )
        .into_response())
}

/// `POST /api/games/mine`: the seats a browser holds, with whose turn it is (issue 11.1).
async fn mine(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: crate::mine::MineRequest = json_body(body)?;
    let cookies = crate::mine::seat_cookies(&headers);
    let answer = crate::mine::mine(&app, req, cookies).await?;
    let text = serde_json::to_string(&answer).map_err(ApiError::internal)?;
    Ok(json_text(StatusCode::OK, text))
}
