//! Blocking (docs/api.md, "Blocking"): an account that blocked another is never paired with
//! it, never challenged by it, and neither accepts the other's seek.

use super::challenges::named;
use super::{needs_account, Seeks, MAX_BLOCKS};
use crate::edge::body::{json, json_body};
use crate::error::{ApiError, ApiResult};
use crate::util;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;
use std::sync::Arc;

#[derive(Deserialize)]
pub(super) struct BlockReq {
    username: String,
}

/// `POST /api/blocks`: also cancels the open challenges between the two.
pub(super) async fn block(
    State(s): State<Arc<Seeks>>,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> ApiResult<Response> {
    let req: BlockReq = json_body(body)?;
    let me = needs_account(&s, &headers).await?;
    let other = named(&s, req.username.trim()).await?;
    if other.id == me.id {
        return Err(ApiError::bad_request("you cannot block yourself"));
    }
    let store = &s.games.store;
    if store.count_blocks(&me.id.0).await? >= MAX_BLOCKS {
        return Err(ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_blocks",
            format!("you have blocked {MAX_BLOCKS} players already"),
        ));
    }
    store.block(&me.id.0, &other.id.0, util::now_ms()).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `DELETE /api/blocks/{username}`.
pub(super) async fn unblock(
    State(s): State<Arc<Seeks>>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> ApiResult<Response> {
    let me = needs_account(&s, &headers).await?;
    let other = named(&s, name.trim()).await?;
    s.games.store.unblock(&me.id.0, &other.id.0).await?;
    Ok(StatusCode::NO_CONTENT.into_response())
}

/// `GET /api/blocks`.
pub(super) async fn list(State(s): State<Arc<Seeks>>, headers: HeaderMap) -> ApiResult<Response> {
    let me = needs_account(&s, &headers).await?;
    let names = s.games.store.blocked_names(&me.id.0, MAX_BLOCKS).await?;
    json(StatusCode::OK, &json!({ "blocked": names }))
}
