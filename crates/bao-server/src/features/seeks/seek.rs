//! Open challenges anyone may accept (docs/api.md, "Open challenges (seeks)").

use super::{
    bearer, blocked, clock_json, new_id, random_side, stored_terms, terms, valid_id, Seeks,
    LIST_MAX, MAX_OPEN_SEEKS,
};
use crate::domain::events::Event;
use crate::domain::names::clean_name;
use crate::edge::account::{Account, MaybeAccount};
use crate::edge::body::{json, Json, JsonOrEmpty};
use crate::edge::Guard;
use crate::error::{ApiError, ApiResult, Category};
use crate::game::seat::cookie;
use crate::game::{NewPair, PairSeat};
use crate::store::{NewSeek, SeekRow};
use crate::util;
use axum::extract::{Path, RawQuery, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use bao_rules::Position;
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize)]
pub(super) struct SeekReq {
    variant: String,
    rules: Option<String>,
    clock: Option<serde_json::Value>,
    #[serde(rename = "match")]
    match_format: Option<String>,
    rated: Option<bool>,
    name: Option<String>,
}

/// A seek as `GET /api/seeks` lists it.
#[derive(Serialize)]
struct Listed {
    id: String,
    variant: String,
    rules: String,
    clock: serde_json::Value,
    #[serde(rename = "match")]
    match_format: String,
    rated: bool,
    by: String,
    rating: Option<String>,
    created: i64,
    mine: bool,
}

fn no_such_seek() -> ApiError {
    ApiError::of(Category::NoSuchSeek, "this open challenge is gone")
}

fn seek_taken() -> ApiError {
    ApiError::of(
        Category::SeekTaken,
        "someone else accepted this challenge first",
    )
}

/// `POST /api/seeks`.
pub(super) async fn create(
    State(s): State<Arc<Seeks>>,
    guard: Option<Extension<Guard>>,
    MaybeAccount(account): MaybeAccount,
    Json(req): Json<SeekReq>,
) -> ApiResult<Response> {
    let terms = terms(
        &req.variant,
        req.rules.as_deref(),
        req.match_format.as_deref(),
        req.clock.as_ref(),
    )?;
    let rated = req.rated.unwrap_or(false);
    if rated && account.is_none() {
        return Err(ApiError::needs_account("a rated game"));
    }
    let now = s.now_ms();
    let (name, rating) = match &account {
        Some(a) => {
            let r = s
                .games
                .store
                .seat_account(&a.id.0, terms.variant().id(), now)
                .await?
                .map(|sa| {
                    format!(
                        "{}{}",
                        sa.rating.rating,
                        if sa.rating.provisional { "?" } else { "" }
                    )
                });
            (a.username.clone(), r)
        }
        None => (clean_name(req.name.as_deref(), "Guest"), None),
    };
    let token = util::new_token();
    let id = new_id();
    let ip = guard.map_or_else(|| "unknown".to_string(), |g| g.ip.to_string());
    let stored = s
        .games
        .store
        .insert_seek(
            &NewSeek {
                id: id.clone(),
                token_hash: util::hash_token(&token),
                account: account.map(|a| a.id.0),
                ip,
                name,
                rating,
                variant: terms.variant().id().to_string(),
                rules: terms.rules_text(),
                match_format: terms.match_text().to_string(),
                clock: terms.clock_text(),
                rated,
            },
            MAX_OPEN_SEEKS,
            now,
            now + s.liveness_ms(),
        )
        .await?;
    if !stored {
        return Err(ApiError::of(Category::TooManySeeks,
            format!("you have {MAX_OPEN_SEEKS} open challenges already; wait for one to be accepted or remove one"),
        ));
    }
    json(StatusCode::CREATED, &json!({"id": id, "token": token}))
}

/// The seek tokens a request shows: `Authorization: Bearer` and `?seek=` (at most 3).
fn tokens_of(headers: &HeaderMap, query: Option<&str>) -> Vec<String> {
    let mut out: Vec<String> = bearer(headers).into_iter().collect();
    out.extend(super::socket::seek_tokens(query).unwrap_or_default());
    out.truncate(4);
    out
}

/// Whether the caller owns `seek`: its account, or the seek token.
fn owns(seek: &SeekRow, account: Option<&Account>, tokens: &[String]) -> bool {
    account.is_some_and(|a| seek.account.as_deref() == Some(a.id.0.as_str()))
        || tokens
            .iter()
            .any(|t| util::same_secret(&util::hash_token(t), &seek.token_hash))
}

/// `GET /api/seeks[?seek=TOKEN...]`.
pub(super) async fn list(
    State(s): State<Arc<Seeks>>,
    RawQuery(query): RawQuery,
    MaybeAccount(account): MaybeAccount,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let tokens = tokens_of(&headers, query.as_deref());
    let rows = s.games.store.open_seeks(s.now_ms(), LIST_MAX).await?;
    let seeks: Vec<Listed> = rows
        .iter()
        .map(|r| Listed {
            mine: owns(r, account.as_ref(), &tokens),
            id: r.id.clone(),
            variant: r.variant.clone(),
            rules: r.rules.clone(),
            clock: clock_json(r.clock.as_deref()),
            match_format: r.match_format.clone(),
            rated: r.rated,
            by: r.name.clone(),
            rating: r.rating.clone(),
            created: r.created,
        })
        .collect();
    json(StatusCode::OK, &json!({ "seeks": seeks }))
}

/// The seek of a path, for its owner only (404 for anyone else, as for no seek).
async fn owned(
    s: &Seeks,
    id: &str,
    account: Option<Account>,
    headers: &HeaderMap,
) -> ApiResult<(SeekRow, Option<Account>, Vec<String>)> {
    if !valid_id(id) {
        return Err(no_such_seek());
    }
    let seek = s.games.store.seek(id).await?.ok_or_else(no_such_seek)?;
    let tokens: Vec<String> = bearer(headers).into_iter().collect();
    if !owns(&seek, account.as_ref(), &tokens) {
        return Err(no_such_seek());
    }
    Ok((seek, account, tokens))
}

/// `GET /api/seeks/{id}` (owner).
pub(super) async fn status(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    MaybeAccount(account): MaybeAccount,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (seek, account, tokens) = owned(&s, &id, account, &headers).await?;
    let now = s.now_ms();
    match (seek.status.as_str(), &seek.game) {
        ("accepted", Some(game)) if s.games.store.game_exists(game).await? => {
            let mut resp = json(
                StatusCode::OK,
                &json!({"status": "accepted", "game": game, "url": format!("/g/{game}")}),
            )?;
            // A guest owner's seek token is their seat token: the cookie gives the game page
            // its seat. An account holds its seat through the session.
            let by_account =
                account.is_some_and(|a| seek.account.as_deref() == Some(a.id.0.as_str()));
            if let (false, Some(t)) = (by_account, tokens.first()) {
                resp.headers_mut()
                    .insert(header::SET_COOKIE, cookie(game, t));
            }
            Ok(resp)
        }
        // Claimed a moment ago, the game being made: still open as far as the page knows.
        ("accepted", _) => json(StatusCode::OK, &json!({"status": "open"})),
        ("open", _) if seek.alive_until >= now => json(StatusCode::OK, &json!({"status": "open"})),
        _ => Err(no_such_seek()),
    }
}

/// `DELETE /api/seeks/{id}` (owner).
pub(super) async fn delete(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    MaybeAccount(account): MaybeAccount,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let (seek, _, _) = owned(&s, &id, account, &headers).await?;
    if seek.status == "accepted" {
        return Err(seek_taken());
    }
    s.games.store.close_seek(&seek.id).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

#[derive(Deserialize, Default)]
pub(super) struct AcceptReq {
    name: Option<String>,
}

/// `POST /api/seeks/{id}/accept`.
pub(super) async fn accept(
    State(s): State<Arc<Seeks>>,
    Path(id): Path<String>,
    MaybeAccount(account): MaybeAccount,
    headers: HeaderMap,
    // An empty body is `{}`.
    JsonOrEmpty(req): JsonOrEmpty<AcceptReq>,
) -> ApiResult<Response> {
    if !valid_id(&id) {
        return Err(no_such_seek());
    }
    let seek = s.games.store.seek(&id).await?.ok_or_else(no_such_seek)?;
    let tokens: Vec<String> = bearer(&headers).into_iter().collect();
    if owns(&seek, account.as_ref(), &tokens) {
        return Err(ApiError::of(
            Category::OwnSeek,
            "this is your own open challenge: someone else has to accept it",
        ));
    }
    let now = s.now_ms();
    match seek.status.as_str() {
        "accepted" => return Err(seek_taken()),
        "open" if seek.alive_until >= now => {}
        _ => return Err(no_such_seek()),
    }
    if seek.rated && account.is_none() {
        return Err(ApiError::needs_account("a rated game"));
    }
    if let (Some(a), Some(owner)) = (&account, &seek.account) {
        if s.games.store.blocked_either(&a.id.0, owner).await? {
            return Err(blocked());
        }
    }
    let terms = stored_terms(
        &seek.variant,
        &seek.rules,
        &seek.match_format,
        seek.clock.as_deref(),
    )?;
    let (name, guest_token) = match &account {
        Some(a) => (a.username.clone(), None),
        None => (
            clean_name(req.name.as_deref(), "Guest"),
            Some(util::new_token()),
        ),
    };
    let game = util::new_game_id();
    let acceptor = account.as_ref().map_or("guest", |a| a.id.0.as_str());
    if !s
        .games
        .store
        .claim_seek(&seek.id, &game, acceptor, now)
        .await?
    {
        return Err(match s.games.store.seek(&id).await?.map(|r| r.status) {
            Some(st) if st == "accepted" => seek_taken(),
            _ => no_such_seek(),
        });
    }
    s.after_claim().await;
    let owner_side = random_side();
    let made = s
        .games
        .create_pair(NewPair {
            rules: terms.rules,
            start: Position::start(&terms.rules),
            players: [
                PairSeat {
                    name: seek.name.clone(),
                    account: seek.account.clone(),
                    token_hash: Some(seek.token_hash.clone()),
                },
                PairSeat {
                    name,
                    account: account.as_ref().map(|a| a.id.0.clone()),
                    token_hash: guest_token.as_deref().map(util::hash_token),
                },
            ],
            first_side: owner_side,
            clock: terms.clock,
            rated: seek.rated,
            id: Some(game.clone()),
            event: None,
            // Its owner's page hears of it on a player socket, on whichever instance.
            news: vec![
                Event::SeekAccepted {
                    seek: seek.id.clone(),
                    game: game.clone(),
                    account: seek.account.clone(),
                    hash: seek.token_hash.clone(),
                },
                Event::Seeks,
            ],
        })
        .await;
    let made = match made {
        Ok(m) => m,
        Err(e) => {
            s.games.store.unclaim_seek(&seek.id, &game).await?;
            return Err(e);
        }
    };
    let mut resp = json(
        StatusCode::CREATED,
        &json!({"game": made.id, "url": made.url, "seat": owner_side.other().letter().to_string(),
                "token": guest_token}),
    )?;
    if let Some(t) = &guest_token {
        resp.headers_mut()
            .insert(header::SET_COOKIE, cookie(&made.id, t));
    }
    Ok(resp)
}

/// Looks at the list of open seeks: when `tell`, tells this instance's sockets if it changed
/// since the last look (a seek lapsed: its page went away; other changes are events the
/// sockets hear themselves). Answers when the first open seek's lease ends (ms), the next
/// moment the list may change without an event.
pub(super) async fn watch_list(s: &Seeks, tell: bool) -> Option<i64> {
    let store = &s.games.store;
    let now = s.now_ms();
    let (mark, next) = match tokio::try_join!(store.open_seeks_mark(now), store.next_lapse(now)) {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!("the seek list: {e}");
            // Looked at again at the safety sweep.
            return None;
        }
    };
    let changed = {
        let Ok(mut last) = s.mark.lock() else {
            return next;
        };
        let changed = last.is_some_and(|m| m != mark);
        *last = Some(mark);
        changed
    };
    if changed && tell {
        s.list_changed();
    }
    // Just after it, so the seek is past its lease when looked at.
    next.map(|t| t + 1)
}
